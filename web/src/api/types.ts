// Types of the JSON API (docs/api.md; served as /api/v1/openapi.json).

export type PlatformCode = 'twt' | 'ig' | 'yt' | 'fb' | 'tt' | 'news' | 'blogs' | 'forums' | 'bsky' | 'mastodon';
export type PlatformFlags = Record<PlatformCode, 0 | 1>;
export type PerPlatformLists = Record<'twt' | 'ig' | 'yt' | 'fb' | 'tt' | 'web' | 'bsky' | 'mastodon', string[]>;

export interface Me {
  isLoggedIn: boolean;
  id: number | null;
  email: string | null;
  name: string | null;
  isAdmin: boolean;
  trial: boolean;
  trialExpires: number | null;
  plan: number;
  isPaidUser: boolean;
  maxSearches: number;
  maxIgnored: number;
  allowFacebook: boolean;
  allowTiktok: boolean;
  allowYoutube: boolean;
  isTrackerOwner: boolean;
  permission: number;
  csrfToken: string;
}

export interface SearchRow {
  type: '+' | '-';
  searches: string[];
}

export interface ChartConfig {
  chart: string;
  hide: boolean;
}

/** A tracker's custom sentiment keyword lists: a post containing one gets that list's sentiment. */
export interface SentimentKeywords {
  positive: string[];
  neutral: string[];
  negative: string[];
}

export interface Tracker {
  id: number;
  hash: string;
  friendly: string;
  title: string;
  status: 'running' | 'paused';
  created: number;
  end: number | null;
  lastCached: number | null;
  lastPaused: number | null;
  firstDataPoint: number | null;
  platforms: PlatformFlags;
  search: { rows: SearchRow[] };
  searchDisplay: string;
  searchCount: number;
  ignoreCount: number;
  excludeRetweets: boolean;
  verifiedUsers: boolean;
  verifiedTiktokUsers: boolean;
  language: string | null;
  countryLocations: string[];
  volumeLimit: number | null;
  usernames: PerPlatformLists;
  ignore: PerPlatformLists;
  subtrackers: { label: string; value: string }[];
  highlights: string[];
  sentimentKeywords: SentimentKeywords;
  hideAuthMetrics: boolean;
  /** Facebook posts without insights show no author name or picture. */
  anonymizeFacebook?: boolean;
  customConfig: { order: ChartConfig[]; columns: 2 | 3 };
  shareExports: boolean;
  unlockDate: boolean;
  isSubTracker: boolean;
  isPreviewMode: boolean;
  /** A historical backfill is collecting. */
  isBackfilling?: boolean;
  isDemo: boolean;
  totalPosts: number;
  linkSharing: { editDateRange: boolean; exportReports: boolean; viewPredictions: boolean };
  customUrl: string | null;
  shareHash: string | null;
  lastEditMode: 'reanalyze' | 'future' | null;
  permission: number;
  isOwner: boolean;
  ownerName: string;
  reanalysis?: { processed: number; total: number; removed: number; done: boolean } | null;
}

export interface TrackerInput {
  title?: string;
  platforms: PlatformFlags;
  search: { rows: SearchRow[] };
  excludeRetweets?: boolean;
  verifiedUsers?: boolean;
  verifiedTiktokUsers?: boolean;
  language?: string | null;
  countryLocations?: string[];
  volumeLimit?: number | null;
  usernames?: Partial<PerPlatformLists>;
  ignore?: Partial<PerPlatformLists>;
  subtrackers?: string[];
  highlights?: string[];
  /** On create: start in preview mode while the first sample is collected. */
  preview?: boolean;
}

export interface TrackerLog {
  action: 'tracker_created' | 'tracker_paused' | 'tracker_restarted';
  createdAt: number;
}

export interface Tag {
  id: number;
  name: string;
  color: string;
}

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** GET /demo: the demo tracker of the instance. */
export interface DemoTracker {
  hash: string;
  friendly: string;
  title: string;
}

export type ImportFormat = 'ndjson' | 'csv';

/** POST /trackers/{hash}/import answer. `errors` holds at most 100 entries. */
export interface ImportResult {
  lines: number;
  imported: number;
  newPosts: number;
  unmatched: number;
  invalid: number;
  errors: { line: number; reason: string }[];
}

// Fixtures for the shell's component tests.
import type { Me, PlatformCode, PlatformFlags, Tracker } from '../../api/types';

export function flags(on: PlatformCode[]): PlatformFlags {
  return Object.fromEntries(
    (['twt', 'ig', 'yt', 'fb', 'tt', 'news', 'blogs', 'forums', 'bsky', 'mastodon'] as PlatformCode[]).map((c) => [c, on.includes(c) ? 1 : 0]),
  ) as PlatformFlags;
}

export function makeTracker(p: Partial<Tracker> = {}): Tracker {
  const now = Date.now();
  return {
    id: 1,
    hash: 'abc123',
    friendly: 'rust-lang',
    title: 'Rust tracker',
    status: 'running',
    created: now - 20 * 86_400_000,
    end: null,
    lastCached: now,
    lastPaused: null,
    firstDataPoint: now - 30 * 86_400_000,
    platforms: flags(['twt', 'ig']),
    search: { rows: [{ type: '+', searches: ['rust'] }] },
    searchDisplay: 'rust',
    searchCount: 1,
    ignoreCount: 0,
    excludeRetweets: false,
    verifiedUsers: false,
    verifiedTiktokUsers: false,
    language: null,
    countryLocations: [],
    volumeLimit: null,
    usernames: { twt: [], ig: [], yt: [], fb: [], tt: [], web: [], bsky: [], mastodon: [] },
    ignore: { twt: [], ig: [], yt: [], fb: [], tt: [], web: [], bsky: [], mastodon: [] },
    subtrackers: [],
    highlights: [],
    sentimentKeywords: { positive: [], neutral: [], negative: [] },
    hideAuthMetrics: false,
    customConfig: { order: [], columns: 2 },
    shareExports: false,
    unlockDate: false,
    isSubTracker: false,
    isPreviewMode: false,
    isDemo: false,
    totalPosts: 0,
    linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false },
    customUrl: null,
    shareHash: null,
    shared: false,
    lastEditMode: null,
    permission: 4,
    isOwner: true,
    ownerName: 'Ada',
    anonymizeFacebook: false,
    isBackfilling: false,
    reanalysis: null,
    sentimentModel: null,
    ...p,
  };
}

export function makeMe(p: Partial<Me> = {}): Me {
  return {
    isLoggedIn: true,
    id: 1,
    email: 'ada@example.com',
    name: 'Ada',
    isAdmin: false,
    trial: false,
    trialExpires: null,
    trialExpired: false,
    trialDays: 14,
    trialLockedPlatforms: ['tt', 'fb', 'yt'],
    features: { xls: true, linkSharing: true, mediaWall: true },
    plan: 35,
    isPaidUser: true,
    maxSearches: 5,
    maxIgnored: 5,
    allowFacebook: true,
    allowTiktok: true,
    allowYoutube: true,
    isTrackerOwner: true,
    permission: 4,
    csrfToken: 't',
    ...p,
  };
}

/** Answers of every dashboard panel's call (by the last path segment), all empty. */
export const DASHBOARD_ANSWERS: Record<string, unknown> = {
  'top-stats': { posts: 42, users: 7, engagement: 0, reach: 0, impressions: 0, engagementRate: null },
  timeline: { grouping: 'hour', buckets: [], logs: [] },
  locations: { countries: [], states: [] },
  'top-posts': { posts: [] },
  sentiments: { positive: 0, neutral: 0, negative: 0, shareOfVoice: [] },
  devices: { items: [] },
  genders: { items: [] },
  'post-types': { items: [] },
  'viewer-sentiments': { likes: 0, dislikes: 0 },
  influencers: { byEngagement: [], byPosts: [] },
  topics: { hashtags: [], keywords: [] },
  'top-pages': { topWebsites: [], topDomains: [], topLinks: [] },
};

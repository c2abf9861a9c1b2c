// Page state of the tracker pages lives in the URL query. This module parses it into a typed
// state with defaults, serialises it back (defaults omitted) and offers pure updaters.
import type { PlatformCode } from '../api/types';

export const TRACKER_PAGES = [
  'dashboard',
  'realtime',
  'posts',
  'influencers',
  'trending-topics',
  'sentiment',
  'media-wall',
  'notifications',
] as const;
export type TrackerPage = (typeof TRACKER_PAGES)[number];

export const PLATFORM_CODES: PlatformCode[] = ['twt', 'ig', 'yt', 'fb', 'tt', 'news', 'blogs', 'forums', 'bsky', 'mastodon'];

export const SENTIMENT_BUCKETS = ['positive', 'slight_positive', 'neutral', 'slight_negative', 'negative'] as const;
export type SentimentBucket = (typeof SENTIMENT_BUCKETS)[number];

export const GROUPINGS = ['none', 'minutes', 'hour', 'day', 'week', 'month'] as const;
export type Grouping = (typeof GROUPINGS)[number];
export const ERI_METRICS = ['Engagements', 'Reach', 'Impressions'] as const;
export type EriMetric = (typeof ERI_METRICS)[number];

export type TagFilterMode = 'any' | 'all';
export type SortDirection = 'asc' | 'desc';
export interface Sort {
  type: string;
  direction: SortDirection;
}

export type DateSelection = { kind: 'days'; days: number } | { kind: 'custom'; start: string; end: string };

export type CountOp = 'lesser' | 'greater';
export interface CountFilter {
  count: number;
  op: CountOp;
}
export const INFLUENCER_COUNT_FILTERS = ['followers', 'engagement', 'posts', 'impressions'] as const;
export type InfluencerCountKey = (typeof INFLUENCER_COUNT_FILTERS)[number];

export interface InfluencerFilters {
  bio: string;
  location: string;
  followers: CountFilter | null;
  engagement: CountFilter | null;
  posts: CountFilter | null;
  impressions: CountFilter | null;
}

/** Which posts the media wall lists: 1 public, 0 hidden ('Only You'), -1 all of them. */
export type WallVisibility = 1 | 0 | -1;
export const WALL_VISIBILITIES: readonly WallVisibility[] = [1, 0, -1];

/**
 * The media wall's view. Its display settings are saved on the tracker; these address
 * parameters only override them for one view (a link opening a screen in light theme, say), so
 * each is null ("as saved") unless the address sets it.
 */
export interface MediaWallParams {
  excludeUsers: string[] | null;
  displayText: boolean | null;
  theme: 'dark' | 'light' | null;
  displayMode: 'slideshow' | 'grid' | null;
  /** The post visibility dropdown; 1 (Public) by default. */
  visibility: WallVisibility;
}

export interface QueryState {
  /** null: every platform of the tracker the page supports. */
  platforms: PlatformCode[] | null;
  /** null: the page's default window (see defaultDays). */
  date: DateSelection | null;
  page: number;
  perPage: number;
  /** null: the page's default sort. */
  sort: Sort | null;
  view: 'list' | 'card';
  /** Empty: no sentiment filter. */
  sentiment: SentimentBucket[];
  search: string;
  excludeRT: boolean;
  igStoryOnly: boolean;
  influencer: InfluencerFilters;
  mediaWall: MediaWallParams;
  postTags: number[];
  postTagFilterMode: TagFilterMode;
  influencerTags: number[];
  influencerTagFilterMode: TagFilterMode;
  /** 1-based subtracker the header narrows the pages to; null: all subtrackers. */
  subtracker: number | null;
  shareHash: string | null;
  /** The media wall's moderation link key: moderation without signing in. */
  moderationKey: string | null;
  demo: boolean;
  embed: boolean;
  /** The one dashboard chart an embed shows (`chart=NAME`). */
  chart: string | null;
  card: string | null;
  /** The key an embed reads with (the server opens its chart's or page's reads only). */
  embedKey: string | null;
  grouping: Grouping | null;
  cumulative: boolean;
  eridropdown: EriMetric | null;
  action: string | null;
}

export const DEFAULT_PAGE_SIZE = 25;
export const DEFAULT_TAG_MODE: TagFilterMode = 'all';

/** 30 days on posts and influencers, 14 elsewhere. */
export function defaultDays(page: TrackerPage): number {
  return page === 'posts' || page === 'influencers' ? 30 : 14;
}

export function defaultSort(page: TrackerPage): Sort | null {
  if (page === 'posts') return { type: 'created_at', direction: 'desc' };
  if (page === 'influencers') return { type: 'engagement', direction: 'desc' };
  return null;
}

export function isTrackerPage(v: string | undefined): v is TrackerPage {
  return !!v && (TRACKER_PAGES as readonly string[]).includes(v);
}

export function emptyState(): QueryState {
  return {
    platforms: null,
    date: null,
    page: 1,
    perPage: DEFAULT_PAGE_SIZE,
    sort: null,
    view: 'list',
    sentiment: [],
    search: '',
    excludeRT: false,
    igStoryOnly: false,
    influencer: { bio: '', location: '', followers: null, engagement: null, posts: null, impressions: null },
    mediaWall: { excludeUsers: null, displayText: null, theme: null, displayMode: null, visibility: 1 },
    postTags: [],
    postTagFilterMode: DEFAULT_TAG_MODE,
    influencerTags: [],
    influencerTagFilterMode: DEFAULT_TAG_MODE,
    subtracker: null,
    shareHash: null,
    moderationKey: null,
    demo: false,
    embed: false,
    chart: null,
    card: null,
    embedKey: null,
    grouping: null,
    cumulative: false,
    eridropdown: null,
    action: null,
  };
}

// ---- parsing helpers ----

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export function isIsoDay(v: string | null | undefined): v is string {
  if (!v || !DATE_RE.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number);
  const dt = new Date(y, m - 1, d);
  return dt.getFullYear() === y && dt.getMonth() === m - 1 && dt.getDate() === d;
}

function posInt(v: string | null, max = Number.MAX_SAFE_INTEGER): number | null {
  if (v === null || !/^\d+$/.test(v.trim())) return null;
  const n = Number(v);
  return n >= 1 && n <= max ? n : null;
}

function flag(v: string | null): boolean {
  return v === '1' || v === 'true';
}

function list(v: string | null): string[] {
  if (!v) return [];
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function idList(v: string | null): number[] {
  const out: number[] = [];
  for (const s of list(v)) {
    if (/^\d+$/.test(s)) {
      const n = Number(s);
      if (!out.includes(n)) out.push(n);
    }
  }
  return out;
}

function oneOf<T extends string>(v: string | null, allowed: readonly T[]): T | null {
  return v !== null && (allowed as readonly string[]).includes(v) ? (v as T) : null;
}

function mode(v: string | null): TagFilterMode {
  return oneOf(v, ['any', 'all'] as const) ?? DEFAULT_TAG_MODE;
}

function countFilter(p: URLSearchParams, key: InfluencerCountKey): CountFilter | null {
  const raw = p.get(`${key}_count`);
  if (raw === null || !/^\d+$/.test(raw.trim())) return null;
  return { count: Number(raw), op: oneOf(p.get(`${key}_op`), ['lesser', 'greater'] as const) ?? 'greater' };
}

export function parseSort(v: string | null): Sort | null {
  if (!v) return null;
  const [type, dir] = v.split(';');
  if (!type || !/^[a-zA-Z_]+$/.test(type)) return null;
  return { type, direction: dir === 'asc' ? 'asc' : 'desc' };
}

export function parseQuery(search: string | URLSearchParams): QueryState {
  const p = typeof search === 'string' ? new URLSearchParams(search) : search;
  const s = emptyState();

  const platforms = list(p.get('platforms')).filter((c): c is PlatformCode =>
    (PLATFORM_CODES as string[]).includes(c),
  );
  s.platforms = platforms.length ? PLATFORM_CODES.filter((c) => platforms.includes(c)) : null;

  const start = p.get('start');
  const end = p.get('end');
  const days = posInt(p.get('days'), 36_500);
  if (isIsoDay(start) && isIsoDay(end)) {
    s.date = start <= end ? { kind: 'custom', start, end } : { kind: 'custom', start: end, end: start };
  } else if (days !== null) {
    s.date = { kind: 'days', days };
  }

  s.page = posInt(p.get('page')) ?? 1;
  s.perPage = posInt(p.get('perPage'), 1000) ?? DEFAULT_PAGE_SIZE;
  s.sort = parseSort(p.get('sort'));
  s.view = p.get('view') === 'card' ? 'card' : 'list';
  s.sentiment = SENTIMENT_BUCKETS.filter((b) => list(p.get('sentiment')).includes(b));
  s.search = p.get('search') ?? '';
  s.excludeRT = flag(p.get('excludeRT'));
  s.igStoryOnly = flag(p.get('igStoryOnly'));

  s.influencer = {
    bio: p.get('bio') ?? '',
    location: p.get('location') ?? '',
    followers: countFilter(p, 'followers'),
    engagement: countFilter(p, 'engagement'),
    posts: countFilter(p, 'posts'),
    impressions: countFilter(p, 'impressions'),
  };

  const visibility = Number(p.get('visibility'));
  s.mediaWall = {
    excludeUsers: p.get('excludeUsers') === null ? null : list(p.get('excludeUsers')),
    displayText: p.get('displayText') === null ? null : flag(p.get('displayText')),
    theme: oneOf(p.get('theme'), ['dark', 'light'] as const),
    displayMode: oneOf(p.get('displayMode'), ['grid', 'slideshow'] as const),
    visibility: p.get('visibility') !== null && (WALL_VISIBILITIES as number[]).includes(visibility) ? (visibility as WallVisibility) : 1,
  };

  s.postTags = idList(p.get('postTags'));
  s.postTagFilterMode = mode(p.get('postTagFilterMode'));
  s.influencerTags = idList(p.get('influencerTags'));
  s.influencerTagFilterMode = mode(p.get('influencerTagFilterMode'));
  s.subtracker = posInt(p.get('subtracker'), 63);

  s.shareHash = p.get('shareHash') || null;
  s.moderationKey = p.get('moderationKey') || null;
  s.demo = flag(p.get('demo'));
  s.embed = flag(p.get('embed'));
  s.chart = p.get('chart') || null;
  s.card = p.get('card') || null;
  s.embedKey = p.get('embedKey') || null;
  s.grouping = oneOf(p.get('grouping'), GROUPINGS);
  s.cumulative = flag(p.get('cumulative'));
  s.eridropdown = oneOf(p.get('eridropdown'), ERI_METRICS);
  s.action = p.get('action') || null;
  return s;
}

/** The query string for a state (no leading '?'); values equal to the page's defaults are left out. */
export function serializeQuery(s: QueryState, page: TrackerPage): string {
  const p = new URLSearchParams();
  if (s.platforms && s.platforms.length) p.set('platforms', s.platforms.join(','));
  if (s.date?.kind === 'custom') {
    p.set('start', s.date.start);
    p.set('end', s.date.end);
  } else if (s.date?.kind === 'days' && s.date.days !== defaultDays(page)) {
    p.set('days', String(s.date.days));
  }
  if (s.page !== 1) p.set('page', String(s.page));
  if (s.perPage !== DEFAULT_PAGE_SIZE) p.set('perPage', String(s.perPage));
  const ds = defaultSort(page);
  if (s.sort && !(ds && ds.type === s.sort.type && ds.direction === s.sort.direction)) {
    p.set('sort', `${s.sort.type};${s.sort.direction}`);
  }
  if (s.view !== 'list') p.set('view', s.view);
  if (s.sentiment.length) p.set('sentiment', s.sentiment.join(','));
  if (s.search) p.set('search', s.search);
  if (s.excludeRT) p.set('excludeRT', '1');
  if (s.igStoryOnly) p.set('igStoryOnly', '1');

  const inf = s.influencer;
  if (inf.bio) p.set('bio', inf.bio);
  if (inf.location) p.set('location', inf.location);
  for (const key of INFLUENCER_COUNT_FILTERS) {
    const f = inf[key];
    if (f) {
      p.set(`${key}_count`, String(f.count));
      p.set(`${key}_op`, f.op);
    }
  }

  const mw = s.mediaWall;
  if (mw.excludeUsers !== null) p.set('excludeUsers', mw.excludeUsers.join(','));
  if (mw.displayText !== null) p.set('displayText', mw.displayText ? '1' : '0');
  if (mw.theme !== null) p.set('theme', mw.theme);
  if (mw.displayMode !== null) p.set('displayMode', mw.displayMode);
  if (mw.visibility !== 1) p.set('visibility', String(mw.visibility));

  if (s.postTags.length) p.set('postTags', s.postTags.join(','));
  if (s.postTagFilterMode !== DEFAULT_TAG_MODE) p.set('postTagFilterMode', s.postTagFilterMode);
  if (s.influencerTags.length) p.set('influencerTags', s.influencerTags.join(','));
  if (s.influencerTagFilterMode !== DEFAULT_TAG_MODE) p.set('influencerTagFilterMode', s.influencerTagFilterMode);
  if (s.subtracker !== null) p.set('subtracker', String(s.subtracker));

  if (s.shareHash) p.set('shareHash', s.shareHash);
  if (s.moderationKey) p.set('moderationKey', s.moderationKey);
  if (s.demo) p.set('demo', 'true');
  if (s.embed) p.set('embed', '1');
  if (s.chart) p.set('chart', s.chart);
  if (s.card) p.set('card', s.card);
  if (s.embedKey) p.set('embedKey', s.embedKey);
  if (s.grouping) p.set('grouping', s.grouping);
  if (s.cumulative) p.set('cumulative', '1');
  if (s.eridropdown) p.set('eridropdown', s.eridropdown);
  if (s.action) p.set('action', s.action);
  return p.toString();
}

/** '?a=b' or '' */
export function toSearch(s: QueryState, page: TrackerPage): string {
  const q = serializeQuery(s, page);
  return q ? `?${q}` : '';
}

// ---- pure updaters (each returns a new state; filter and sort changes go back to page 1) ----

export type Updater = (s: QueryState) => QueryState;

export const setPlatforms =
  (platforms: PlatformCode[] | null): Updater =>
  (s) => ({ ...s, platforms: platforms && platforms.length ? [...platforms] : null, page: 1 });

export const setDays =
  (days: number): Updater =>
  (s) => ({ ...s, date: { kind: 'days', days }, page: 1 });

export const setCustomRange =
  (start: string, end: string): Updater =>
  (s) => {
    if (!isIsoDay(start) || !isIsoDay(end)) return s;
    return { ...s, date: start <= end ? { kind: 'custom', start, end } : { kind: 'custom', start: end, end: start }, page: 1 };
  };

export const setSearch =
  (search: string): Updater =>
  (s) => ({ ...s, search, page: 1 });

export const setSort =
  (sort: Sort | null): Updater =>
  (s) => ({ ...s, sort, page: 1 });

export const setView =
  (view: 'list' | 'card'): Updater =>
  (s) => ({ ...s, view });

export const setPage =
  (page: number): Updater =>
  (s) => ({ ...s, page: Math.max(1, Math.floor(page)) });

export const toggleSentiment =
  (bucket: SentimentBucket): Updater =>
  (s) => {
    const has = s.sentiment.includes(bucket);
    const next = has ? s.sentiment.filter((b) => b !== bucket) : [...s.sentiment, bucket];
    return { ...s, sentiment: SENTIMENT_BUCKETS.filter((b) => next.includes(b)), page: 1 };
  };

export const setSentiment =
  (buckets: SentimentBucket[]): Updater =>
  (s) => ({ ...s, sentiment: SENTIMENT_BUCKETS.filter((b) => buckets.includes(b)), page: 1 });

export const setExcludeRT =
  (on: boolean): Updater =>
  (s) => ({ ...s, excludeRT: on, page: 1 });

export const setIgStoryOnly =
  (on: boolean): Updater =>
  (s) => ({ ...s, igStoryOnly: on, page: 1 });

export const setInfluencerFilters =
  (patch: Partial<InfluencerFilters>): Updater =>
  (s) => ({ ...s, influencer: { ...s.influencer, ...patch }, page: 1 });

export interface TagFilters {
  postTags: number[];
  postTagFilterMode: TagFilterMode;
  influencerTags: number[];
  influencerTagFilterMode: TagFilterMode;
}

export function tagFilters(s: QueryState): TagFilters {
  return {
    postTags: s.postTags,
    postTagFilterMode: s.postTagFilterMode,
    influencerTags: s.influencerTags,
    influencerTagFilterMode: s.influencerTagFilterMode,
  };
}

export const applyTagFilters =
  (f: Partial<TagFilters>): Updater =>
  (s) => ({ ...s, ...f, page: 1 });

/** Narrows the pages to one subtracker (1-based), or back to all of them (null). */
export const setSubtracker =
  (sub: number | null): Updater =>
  (s) => ({ ...s, subtracker: sub, page: 1 });

export const clearTagFilters: Updater = (s) => ({
  ...s,
  postTags: [],
  postTagFilterMode: DEFAULT_TAG_MODE,
  influencerTags: [],
  influencerTagFilterMode: DEFAULT_TAG_MODE,
  page: 1,
});

/** A deleted tag leaves the filters. */
export const removeTag =
  (id: number): Updater =>
  (s) => ({ ...s, postTags: s.postTags.filter((t) => t !== id) });

/** A deleted influencer tag leaves the filters. */
export const removeInfluencerTag =
  (id: number): Updater =>
  (s) => ({ ...s, influencerTags: s.influencerTags.filter((t) => t !== id), page: 1 });

/** Reset of the influencers page: the search and the advanced filters (sort and header filters stay). */
export const resetInfluencerFilters: Updater = (s) => ({
  ...s,
  search: '',
  influencer: emptyState().influencer,
  page: 1,
});

/** The one-shot `action` parameter (e.g. historical-data, influencer-tags), or none. */
export const setAction =
  (action: string | null): Updater =>
  (s) => ({ ...s, action });

/** Reset of the posts filters: search, sentiment, retweets, stories, tags and paging. */
export const resetPostFilters: Updater = (s) => ({
  ...clearTagFilters(s),
  search: '',
  sentiment: [],
  excludeRT: false,
  igStoryOnly: false,
  sort: null,
  page: 1,
});

/**
 * What survives a move to another tracker page: share, demo and embed parameters and the
 * shared header filters (platforms, date range, tags). Page-local state starts afresh.
 */
export function keepOnNavigation(s: QueryState): QueryState {
  const e = emptyState();
  return {
    ...e,
    platforms: s.platforms,
    date: s.date,
    postTags: s.postTags,
    postTagFilterMode: s.postTagFilterMode,
    influencerTags: s.influencerTags,
    influencerTagFilterMode: s.influencerTagFilterMode,
    subtracker: s.subtracker,
    shareHash: s.shareHash,
    moderationKey: s.moderationKey,
    demo: s.demo,
    embed: s.embed,
    embedKey: s.embedKey,
  };
}

/** The media wall's post visibility dropdown. */
export const setWallVisibility =
  (visibility: WallVisibility): Updater =>
  (s) => ({ ...s, mediaWall: { ...s.mediaWall, visibility } });

/** Saved wall settings become the view again: the address's overrides are dropped. */
export const clearWallOverrides: Updater = (s) => ({
  ...s,
  mediaWall: { ...emptyState().mediaWall, visibility: s.mediaWall.visibility },
});

/** Only the share and demo parameters: used when switching to another tracker. */
export function keepShareAndDemo(s: QueryState): QueryState {
  return { ...emptyState(), shareHash: s.shareHash, demo: s.demo, embed: s.embed };
}

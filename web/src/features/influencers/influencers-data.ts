// Pure rules of the influencers page (posts-influencers spec sections 3, 4, 5, 8 and 9):
// request parameters, sorting, paging, display of figures and account names.
import { apiHref, type Query } from '../../api/client';
import type { InfluencerRow } from '../../api/queries/influencers';
import { formatMetric, formatRate } from '../../lib/numbers';
import { INFLUENCER_COUNT_FILTERS, type QueryState, type Sort, type SortDirection } from '../../state/query-state';

export const INFLUENCERS_PAGE_SIZE = 25;
/** The largest page the API serves. */
export const MAX_PER_PAGE = 100;
export const ACCOUNT_POSTS_PAGE_SIZE = 50;
/** Influencer table post text: 397 characters and an ellipsis. */
export const POST_TEXT_MAX = 400;

export const POST_MISSING = 'Something went wrong! Please go back.';
export const NO_POSTS = 'No posts available.';
export { MANAGE_INFLUENCER_TAGS_ACTION as MANAGE_TAGS_ACTION, NO_INFLUENCER_TAGS } from '../shell/tag-filter';

export const INFLUENCER_SORT_FIELDS = [
  'name',
  'platform',
  'posts',
  'engagement',
  'avgEngagement',
  'followers',
  'reach',
  'engagementRate',
  'impressions',
] as const;
export type InfluencerSortField = (typeof INFLUENCER_SORT_FIELDS)[number];
export const DEFAULT_INFLUENCER_SORT: Sort = { type: 'engagement', direction: 'desc' };

export const POST_SORT_FIELDS = ['engagement', 'reach', 'engagement_rate', 'created_at'] as const;
export type PostSortField = (typeof POST_SORT_FIELDS)[number];
export const DEFAULT_POST_SORT: Sort = { type: 'created_at', direction: 'desc' };

/** The URL's sort when it names a column of this table, else the default. */
export function influencerSort(sort: Sort | null): Sort {
  return sort && (INFLUENCER_SORT_FIELDS as readonly string[]).includes(sort.type) ? sort : DEFAULT_INFLUENCER_SORT;
}

/** Text columns start A–Z, figures largest first. */
export function firstDirection(field: string): SortDirection {
  return field === 'name' || field === 'platform' ? 'asc' : 'desc';
}

/** A click on a column header: the same column flips its direction, another one starts with its first. */
export function toggleSort(current: Sort, field: string): Sort {
  if (current.type === field) return { type: field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { type: field, direction: firstDirection(field) };
}

export function ariaSort(current: Sort, field: string): 'ascending' | 'descending' | 'none' {
  if (current.type !== field) return 'none';
  return current.direction === 'asc' ? 'ascending' : 'descending';
}

export const sortParam = (s: Sort) => `${s.type};${s.direction}`;

/** Rows per page: the URL's perPage within what the API serves. */
export function perPageOf(q: QueryState): number {
  return Math.min(Math.max(1, q.perPage || INFLUENCERS_PAGE_SIZE), MAX_PER_PAGE);
}

/** The page's own parameters (no paging): sort, search and the advanced filters. */
export function influencerParams(q: QueryState): Query {
  const p: Query = { sort: sortParam(influencerSort(q.sort)) };
  if (q.search) p.search = q.search;
  if (q.influencer.bio) p.bio = q.influencer.bio;
  if (q.influencer.location) p.location = q.influencer.location;
  for (const key of INFLUENCER_COUNT_FILTERS) {
    const f = q.influencer[key];
    if (f) {
      p[`${key}_count`] = f.count;
      p[`${key}_op`] = f.op;
    }
  }
  return p;
}

/** Whether a search or an advanced filter narrows the list (Reset has something to clear). */
export function hasPageFilters(q: QueryState): boolean {
  return !!(q.search || q.influencer.bio || q.influencer.location || INFLUENCER_COUNT_FILTERS.some((k) => q.influencer[k]));
}

/** The CSV download of the ranking for the same query (paging left out; the server names the file). */
export function influencersCsvUrl(hash: string, query: Query): string {
  const { page: _page, perPage: _perPage, ...rest } = query;
  return apiHref(`/trackers/${encodeURIComponent(hash)}/influencers/export.csv`, rest);
}

export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** '26–50 of 1,234'; '0 of 0' when empty. */
export function rangeLabel(page: number, perPage: number, shown: number, total: number): string {
  const t = total.toLocaleString('en-US');
  if (shown <= 0) return `0 of ${t}`;
  const first = (page - 1) * perPage + 1;
  return `${first.toLocaleString('en-US')}–${(first + shown - 1).toLocaleString('en-US')} of ${t}`;
}

/** Counts: short above 10,000 (12.3k), '-' when empty. */
export const formatCount = formatMetric;
/** Engagement rate (a percentage) with one decimal and '%'. */
export const formatEngagementRate = formatRate;

/** An average: like a count, with at most one decimal below the short form. */
export function formatAverage(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  if (Math.abs(n) > 10_000) return formatMetric(n);
  return n.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

const WEB_PLATFORMS = ['news', 'blogs', 'forums'];

/** What to call the account: 'Facebook user' when anonymised, else its name or username. */
export function displayName(r: InfluencerRow): string {
  if (r.anonymized) return 'Facebook user';
  return r.name || r.username || r.author || 'Unknown';
}

/** '@alice'; web sources show their site name without '@'; nothing when anonymised. */
export function handle(r: InfluencerRow): string {
  if (r.anonymized || !r.username) return '';
  return WEB_PLATFORMS.includes(r.platform) ? r.username : `@${r.username}`;
}

/** Only http(s) addresses become links or images (never javascript: and the like). */
export function safeHttpUrl(u: string | null | undefined): string | null {
  if (!u) return null;
  try {
    const url = new URL(u);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The post text of the account's post table: over 400 characters, 397 and an ellipsis. */
export function truncatePostText(text: string): string {
  const chars = Array.from(text);
  if (chars.length <= POST_TEXT_MAX) return text;
  return `${chars.slice(0, POST_TEXT_MAX - 3).join('')}…`;
}

/** A post of the account's list: the page it is on and its index there. */
export interface PostPosition {
  page: number;
  index: number;
}

/**
 * Prev / Next in the single-post view, across pages of the account's posts. Null at either
 * end. `onPage` is how many posts the current page holds.
 */
export function stepPost(pos: PostPosition, delta: 1 | -1, onPage: number, total: number, perPage: number): PostPosition | null {
  const absolute = (pos.page - 1) * perPage + pos.index + delta;
  if (absolute < 0 || absolute >= total) return null;
  if (delta === 1 && pos.index + 1 < onPage) return { page: pos.page, index: pos.index + 1 };
  if (delta === -1 && pos.index > 0) return { page: pos.page, index: pos.index - 1 };
  return { page: Math.floor(absolute / perPage) + 1, index: absolute % perPage };
}

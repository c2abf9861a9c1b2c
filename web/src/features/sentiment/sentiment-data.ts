// Pure rules of the sentiment page: the range a chart selection narrows every view to, the
// queries of the three calls, the posts table's sort and keyword filter, and how figures read.
import type { Query } from '../../api/client';
import type { BucketCounts } from '../../api/queries/sentiment';
import type { Tracker } from '../../api/types';
import type { FilterQuery } from '../../state/filter-query';
import { SENTIMENT_BUCKETS, type QueryState, type SentimentBucket, type Sort, type SortDirection } from '../../state/query-state';
import { GROUPING_MS } from '../dashboard/data';

export const SENTIMENT_POSTS_PAGE_SIZE = 20;

/** The API's `reason` when the chosen platforms leave the page none of its own. */
export const NO_PLATFORM_REASON = 'no platform chosen';
export const NO_PLATFORM_TITLE = 'No platform chosen';
export const NO_PLATFORM_BODY =
  'Sentiment covers X (Twitter), Instagram, Facebook, Bluesky and Mastodon. Choose one of them in the platform filter above.';

/** The answer's field of each bucket. */
export const COUNT_KEY: Record<SentimentBucket, keyof BucketCounts> = {
  positive: 'positive',
  slight_positive: 'slightPositive',
  neutral: 'neutral',
  slight_negative: 'slightNegative',
  negative: 'negative',
};

/** Chart and swatch colours: greens, grey, reds (the dashboard's sentiment colours at the ends). */
export const BUCKET_COLORS: Record<SentimentBucket, string> = {
  positive: '#16a34a',
  slight_positive: '#86efac',
  neutral: '#94a3b8',
  slight_negative: '#fca5a5',
  negative: '#dc2626',
};

// ---------------------------------------------------------------------------------------------
// The selected period

/** A period picked on the chart: first and last millisecond, both included. */
export interface Selection {
  start: number;
  end: number;
}

/**
 * The header's filter query narrowed to the selection: the window (days, or start and end
 * days) gives way to the selection's first and last millisecond.
 */
export function withSelection(filters: FilterQuery, selection: Selection | null): FilterQuery {
  if (!selection) return filters;
  const q: FilterQuery = { ...filters };
  delete q.days;
  q.start = Math.round(selection.start);
  q.end = Math.round(selection.end);
  return q;
}

/**
 * The period a brush across the chart covers: the chart's buckets from the first to the last
 * the brush touched (category indices, in either order), from the first bucket's start to the
 * millisecond before the bucket after the last, within the range the answer resolved. Null
 * when there are no buckets or when the period is the whole range (nothing narrows).
 */
export function brushRange(
  points: { t: number }[],
  indices: [number, number],
  bounds: { start?: number | null; end?: number | null },
  grouping: string,
): Selection | null {
  const n = points.length;
  if (!n || !Number.isFinite(indices[0]) || !Number.isFinite(indices[1])) return null;
  const clamp = (i: number) => Math.min(n - 1, Math.max(0, Math.round(i)));
  const i = clamp(Math.min(indices[0], indices[1]));
  const j = clamp(Math.max(indices[0], indices[1]));
  let start = points[i].t;
  const next = points[j + 1]?.t;
  let end = next !== undefined ? next - 1 : bounds.end ?? points[j].t + (GROUPING_MS[grouping] ?? GROUPING_MS.day) - 1;
  if (bounds.start != null) start = Math.max(start, bounds.start);
  if (bounds.end != null) end = Math.min(end, bounds.end);
  if (end < start) return null;
  const whole = bounds.start != null && bounds.end != null && start <= bounds.start && end >= bounds.end;
  return whole ? null : { start, end };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** '3 Nov', with the year when it is not the current one. */
function dayText(d: Date, withYear: boolean): string {
  return `${d.getDate()} ${MONTHS[d.getMonth()]}${withYear ? ` ${d.getFullYear()}` : ''}`;
}

const clock = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const isMidnight = (d: Date) => d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0 && d.getMilliseconds() === 0;

/**
 * The selection as the chip reads it, in the viewer's zone: '3 Nov 10:00 – 5 Nov 18:59', or
 * '3 Nov – 5 Nov' (or '3 Nov') for whole days; the year shows when it is not this year's.
 */
export function formatSelection(s: Selection, now = Date.now()): string {
  const a = new Date(s.start);
  const b = new Date(s.end);
  const year = new Date(now).getFullYear();
  const withYear = a.getFullYear() !== year || b.getFullYear() !== year;
  if (isMidnight(a) && isMidnight(new Date(s.end + 1))) {
    const first = dayText(a, withYear);
    const last = dayText(b, withYear);
    return first === last ? first : `${first} – ${last}`;
  }
  return `${dayText(a, withYear)} ${clock(a)} – ${dayText(b, withYear)} ${clock(b)}`;
}

/** A bucket's axis label: '3 Nov 10:00' by hour, '3 Nov' by day or week. */
export function bucketAxisLabel(t: number, grouping: string): string {
  const d = new Date(t);
  return grouping === 'hour' ? `${dayText(d, false)} ${clock(d)}` : dayText(d, false);
}

/** A bucket in full (tooltips, the data table): '3 Nov 2024 10:00', '3 Nov 2024', 'Week of 3 Nov 2024'. */
export function bucketTitle(t: number, grouping: string): string {
  const d = new Date(t);
  if (grouping === 'hour') return `${dayText(d, true)} ${clock(d)}`;
  if (grouping === 'week') return `Week of ${dayText(d, true)}`;
  return dayText(d, true);
}

export const GROUPING_TEXT: Record<string, string> = { hour: 'By hour', day: 'By day', week: 'By week' };

// ---------------------------------------------------------------------------------------------
// Score and buckets

/** The score with its sign and two decimals: '+0.32', '-0.05', '0.00'. */
export function formatScore(score: number): string {
  if (!Number.isFinite(score)) return '0.00';
  const r = Math.round(score * 100) / 100;
  if (r === 0) return '0.00';
  return `${r > 0 ? '+' : '-'}${Math.abs(r).toFixed(2)}`;
}

export type Tone = 'positive' | 'neutral' | 'negative';

/** Within ±0.05 a score reads as neutral. */
export function scoreTone(score: number): Tone {
  if (score >= 0.05) return 'positive';
  if (score <= -0.05) return 'negative';
  return 'neutral';
}

export const TONE_TEXT: Record<Tone, string> = { positive: 'Mostly positive', neutral: 'Balanced', negative: 'Mostly negative' };
export const TONE_CLASS: Record<Tone, string> = { positive: 'text-green-700', neutral: 'text-slate-700', negative: 'text-red-700' };

/** Each bucket's share of the posts in percent, one decimal (all 0 when there are none). */
export function bucketShares(counts: BucketCounts): Record<SentimentBucket, number> {
  const total = SENTIMENT_BUCKETS.reduce((a, b) => a + counts[COUNT_KEY[b]], 0);
  const out = {} as Record<SentimentBucket, number>;
  for (const b of SENTIMENT_BUCKETS) out[b] = total ? Math.round((counts[COUNT_KEY[b]] / total) * 1000) / 10 : 0;
  return out;
}

export function formatShare(p: number): string {
  return `${p.toFixed(1).replace(/\.0$/, '')}%`;
}

// ---------------------------------------------------------------------------------------------
// The posts table: sort, keyword filter, query

export const POST_COLUMNS = ['date', 'user', 'postText', 'engagements', 'reach', 'sentimentScore'] as const;
export type PostColumn = (typeof POST_COLUMNS)[number];

export const COLUMN_LABEL: Record<PostColumn, string> = {
  date: 'Date',
  user: 'User',
  postText: 'Post',
  engagements: 'Engagements',
  reach: 'Reach',
  sentimentScore: 'Sentiment',
};

/** The posts list's sort field of each column. */
export const SORT_FIELD: Record<PostColumn, string> = {
  date: 'created_at',
  user: 'full_name',
  postText: 'post_text',
  engagements: 'rts_likes',
  reach: 'followers',
  sentimentScore: 'sentiment',
};

export const DEFAULT_TABLE_SORT: { column: PostColumn; direction: SortDirection } = { column: 'date', direction: 'desc' };

/** Text columns start A–Z, the others highest (newest) first. */
export function firstDirection(column: PostColumn): SortDirection {
  return column === 'user' || column === 'postText' ? 'asc' : 'desc';
}

function columnOf(type: string): PostColumn | null {
  if ((POST_COLUMNS as readonly string[]).includes(type)) return type as PostColumn;
  const byField = POST_COLUMNS.find((c) => SORT_FIELD[c] === type);
  return byField ?? null;
}

/** The URL's sort as a column of the table (a column name or its field), else newest first. */
export function tableSort(sort: Sort | null): { column: PostColumn; direction: SortDirection } {
  const column = sort ? columnOf(sort.type) : null;
  return column && sort ? { column, direction: sort.direction } : DEFAULT_TABLE_SORT;
}

/** A header click: the sorted column flips, another starts with its first direction. */
export function toggleColumn(current: { column: PostColumn; direction: SortDirection }, column: PostColumn): Sort {
  if (current.column === column) return { type: column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { type: column, direction: firstDirection(column) };
}

export function ariaSort(current: { column: PostColumn; direction: SortDirection }, column: PostColumn): 'ascending' | 'descending' | 'none' {
  if (current.column !== column) return 'none';
  return current.direction === 'asc' ? 'ascending' : 'descending';
}

export type Side = 'positive' | 'negative';

/** The buckets a side of the keyword lists stands for (slight ones included, as the lists count them). */
export const SIDE_BUCKETS: Record<Side, SentimentBucket[]> = {
  positive: ['positive', 'slight_positive'],
  negative: ['slight_negative', 'negative'],
};

export const SIDE_LABEL: Record<Side, string> = { positive: 'Positive', negative: 'Negative' };

export interface TableFilter {
  /** The word the posts must hold ('' for none). */
  search: string;
  buckets: SentimentBucket[];
  /** The keyword list the filter came from, when it is one of the two. */
  side: Side | null;
}

const sameBuckets = (a: SentimentBucket[], b: SentimentBucket[]) => a.length === b.length && a.every((x) => b.includes(x));

/** The table's word and sentiment filter from the URL, or null when there is none. */
export function tableFilter(q: Pick<QueryState, 'search' | 'sentiment'>): TableFilter | null {
  const search = q.search.trim();
  const buckets = q.sentiment.length === SENTIMENT_BUCKETS.length ? [] : q.sentiment;
  if (!search && !buckets.length) return null;
  const side = (['positive', 'negative'] as Side[]).find((s) => sameBuckets(SIDE_BUCKETS[s], buckets)) ?? null;
  return { search, buckets, side };
}

/** The chip's text: 'Keyword: love · Positive', 'Sentiment: Neutral'. */
export function tableFilterText(f: TableFilter, labels: Record<SentimentBucket, string>): string {
  const sentiment = f.side ? SIDE_LABEL[f.side] : f.buckets.map((b) => labels[b]).join(', ');
  if (f.search && sentiment) return `Keyword: ${f.search} · ${sentiment}`;
  if (f.search) return `Keyword: ${f.search}`;
  return `Sentiment: ${sentiment}`;
}

/** A keyword click: posts holding the word with that side's sentiment; the active keyword again clears it. */
export function keywordUpdater(text: string, side: Side) {
  return (s: QueryState): QueryState => {
    const current = tableFilter(s);
    const same = current?.side === side && current.search.toLowerCase() === text.toLowerCase();
    return same ? { ...s, search: '', sentiment: [], page: 1 } : { ...s, search: text, sentiment: SIDE_BUCKETS[side], page: 1 };
  };
}

export const clearTableFilter = (s: QueryState): QueryState => ({ ...s, search: '', sentiment: [], page: 1 });

/** The posts list query of one page of the table. */
export function postsQuery(
  filters: FilterQuery,
  opts: { page: number; sort: { column: PostColumn; direction: SortDirection }; filter: TableFilter | null },
): Query {
  const q: Query = {
    ...filters,
    page: Math.max(1, opts.page),
    perPage: SENTIMENT_POSTS_PAGE_SIZE,
    sort: `${SORT_FIELD[opts.sort.column]};${opts.sort.direction}`,
  };
  if (opts.filter?.search) q.search = opts.filter.search;
  if (opts.filter?.buckets.length) q.sentiment = opts.filter.buckets.join(',');
  return q;
}

/** '21–36 of 36 posts'; '0 posts' when empty; a capped total reads '10,000+'. */
export function rangeText(page: number, shown: number, total: number, capped: boolean): string {
  const t = `${total.toLocaleString('en-US')}${capped ? '+' : ''}`;
  if (shown <= 0) return `${t} posts`;
  const first = (page - 1) * SENTIMENT_POSTS_PAGE_SIZE + 1;
  return `${first.toLocaleString('en-US')}–${(first + shown - 1).toLocaleString('en-US')} of ${t} posts`;
}

// ---------------------------------------------------------------------------------------------
// Re-analysis

type Reanalysis = Tracker['reanalysis'];

export function reanalysisRunning(r: Reanalysis | undefined): boolean {
  return !!r && !r.done;
}

/** The progress line while a re-analysis runs. */
export function reanalysisText(r: Reanalysis | undefined): string {
  if (!r || r.done) return 'Updating the page…';
  if (r.total <= 0) return 'Re-analysis queued…';
  const pct = Math.min(100, Math.round((r.processed / r.total) * 100));
  return `Re-analyzing sentiment: ${r.processed.toLocaleString('en-US')} of ${r.total.toLocaleString('en-US')} posts (${pct}%)`;
}

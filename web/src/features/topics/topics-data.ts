// Pure rules of the trending topics page: the drill-down path and tab in the URL, the request
// parameters of a layer, its chart and its posts, sorting and paging, and how figures read
// (counts, shares, trend scores, share changes, the compared windows, sparklines).
import type { Query } from '../../api/client';
import type { SeriesLine, TopicItem, TopicSeries, TrendWindow } from '../../api/queries/topics';
import type { FilterQuery } from '../../state/filter-query';
import { parseQuery, serializeQuery, type Sort, type SortDirection } from '../../state/query-state';
import { GROUPING_MS } from '../dashboard/data';

export type TopicKind = 'word' | 'hashtag';
export const TOPIC_KINDS: TopicKind[] = ['word', 'hashtag'];
export const KIND_LABEL: Record<TopicKind, string> = { word: 'Words', hashtag: 'Hashtags' };

/** A picked topic: a word, or a hashtag without its '#', lowercase as the API lists them. */
export interface TermRef {
  kind: TopicKind;
  text: string;
}

/** Topics picked at most: three layers (all topics, then one, then two picked). */
export const MAX_PATH = 2;
/** The API's longest term. */
export const MAX_TERM_CHARS = 140;
export const TOPICS_PAGE_SIZE = 20;
/** Topics of the current page drawn in the chart. */
export const CHART_ITEMS = 5;

/** The API's reason when the chosen platforms leave the page none of its own. */
export const NO_PLATFORM = 'no platform chosen';
export const SIDE_VIEW_ERROR = 'Sorry, an error occurred. Please try again later.';
/** The trend score in plain words (the legend above the table). */
export const TREND_SUMMARY = "how unusual the topic's share of posts is now against the tracker's earlier posts; above 2 is unusual, above 4 very unusual.";
/** The trend score explained in full (the column header's tooltip). */
export const TREND_HELP =
  "Trend score: how unusual the topic's share of posts is now against the tracker's earlier posts. Above 2 is unusual, above 4 very unusual; below 0 the topic is used less than before. Topics in fewer than 5 recent posts score 0. The change under it is how much its share of posts grew or shrank ('New': not seen before).";

// ---- terms and paths ----

export function isTopicKind(v: unknown): v is TopicKind {
  return v === 'word' || v === 'hashtag';
}

export function normalizeTerm(kind: TopicKind, text: string): TermRef {
  return { kind, text: text.trim().replace(/^#+/, '').toLowerCase() };
}

export const termKey = (t: TermRef) => `${t.kind}:${t.text}`;
export const sameTerm = (a: TermRef, b: TermRef) => a.kind === b.kind && a.text === b.text;

/** 'coffee' or '#brew'. */
export function termLabel(t: TermRef): string {
  return t.kind === 'hashtag' ? `#${t.text}` : t.text;
}

/** 'coffee › #brew'; empty for no path. */
export function pathLabel(path: TermRef[], sep = ' › '): string {
  return path.map(termLabel).join(sep);
}

/** The API's form: 'word:coffee,hashtag:brew' (empty for no path). */
export function encodePath(path: TermRef[]): string {
  return path.map(termKey).join(',');
}

/**
 * A path from the URL or the API's form. Malformed, empty or overlong terms are left out, as are
 * repeats, and only the first `max` terms are kept.
 */
export function decodePath(v: string | null | undefined, max = MAX_PATH): TermRef[] {
  const out: TermRef[] = [];
  for (const part of (v ?? '').split(',')) {
    const at = part.indexOf(':');
    if (at < 0) continue;
    const kind = part.slice(0, at).trim();
    if (!isTopicKind(kind)) continue;
    const t = normalizeTerm(kind, part.slice(at + 1));
    if (!t.text || Array.from(t.text).length > MAX_TERM_CHARS || t.text.includes(',')) continue;
    if (out.some((o) => sameTerm(o, t))) continue;
    out.push(t);
    if (out.length === max) break;
  }
  return out;
}

/** A listed topic as a term of a path. */
export function itemTerm(item: Pick<TopicItem, 'kind' | 'text'>): TermRef {
  return normalizeTerm(isTopicKind(item.kind) ? item.kind : 'word', item.text);
}

// ---- the page's own URL state: tab (kind) and path ----

export interface TopicView {
  kind: TopicKind;
  path: TermRef[];
}

/** The tab and path of a query string ('?kind=hashtag&path=word%3Acoffee'). */
export function readView(search: string): TopicView {
  const p = new URLSearchParams(search);
  const kind = p.get('kind');
  return { kind: isTopicKind(kind) ? kind : 'word', path: decodePath(p.get('path')) };
}

export function hasViewParams(search: string): boolean {
  const p = new URLSearchParams(search);
  return p.has('kind') || p.has('path');
}

export function isDefaultView(v: TopicView): boolean {
  return v.kind === 'word' && v.path.length === 0;
}

/**
 * The query string for a view: the shared page state of `search` (header filters, share and
 * demo parameters, sort, page) with `patch` applied, then the tab and path (defaults left out).
 */
export function viewSearch(search: string, view: TopicView, patch: { page?: number; sort?: Sort | null } = {}): string {
  const state = parseQuery(search);
  if (patch.page !== undefined) state.page = Math.max(1, Math.floor(patch.page));
  if (patch.sort !== undefined) state.sort = patch.sort;
  const p = new URLSearchParams(serializeQuery(state, 'trending-topics'));
  if (view.kind !== 'word') p.set('kind', view.kind);
  if (view.path.length) p.set('path', encodePath(view.path));
  const s = p.toString();
  return s ? `?${s}` : '';
}

// ---- sorting and paging ----

export type TopicSortField = 'count' | 'trend';
export const DEFAULT_TOPIC_SORT: Sort = { type: 'count', direction: 'desc' };

/** The URL's sort when it is one the API takes, else the default (most posts first). */
export function topicSort(sort: Sort | null): Sort {
  return sort && (sort.type === 'count' || sort.type === 'trend') ? sort : DEFAULT_TOPIC_SORT;
}

/** A click on a column header: the same column flips, another one starts highest first. */
export function toggleTopicSort(current: Sort, field: TopicSortField): Sort {
  if (current.type === field) return { type: field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { type: field, direction: 'desc' as SortDirection };
}

export function ariaSort(current: Sort, field: TopicSortField): 'ascending' | 'descending' | 'none' {
  if (current.type !== field) return 'none';
  return current.direction === 'asc' ? 'ascending' : 'descending';
}

export const sortParam = (s: Sort) => `${s.type};${s.direction}`;

export function pageCount(total: number, perPage = TOPICS_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / Math.max(1, perPage)));
}

/** '21–40 of 57' (the rows shown on this page). */
export function rangeLabel(page: number, perPage: number, shown: number, total: number): string {
  if (total <= 0 || shown <= 0) return `0 of ${total.toLocaleString('en-US')}`;
  const from = (page - 1) * perPage + 1;
  return `${from.toLocaleString('en-US')}–${(from + shown - 1).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
}

// ---- request parameters ----

/** A layer: the page's filter query, the tab, the path, the sort and the page. */
export function layerQuery(filters: FilterQuery, view: TopicView, sort: Sort, page: number): Query {
  return { ...filters, kind: view.kind, path: encodePath(view.path) || undefined, sort: sortParam(sort), page };
}

/** The first topics of the page shown, drawn in the chart. */
export function chartTerms(items: Pick<TopicItem, 'kind' | 'text'>[]): TermRef[] {
  return items.slice(0, CHART_ITEMS).map(itemTerm);
}

/** The chart's series: the path's posts and, with it, each of `items`. */
export function seriesQuery(filters: FilterQuery, path: TermRef[], items: TermRef[]): Query {
  return { ...filters, path: encodePath(path) || undefined, items: encodePath(items.slice(0, 10)) || undefined };
}

/** What a posts side view lists: the posts of a path, or of a time bucket of the chart under a path. */
export type PostsTarget =
  | { kind: 'topic'; path: TermRef[] }
  | { kind: 'bucket'; path: TermRef[]; start: number; end: number; grouping: string };

/**
 * The posts of a side view. A bucket replaces the range of the filters by its own first and last
 * millisecond (13-digit timestamps); the other filters stay.
 */
export function postsQuery(filters: FilterQuery, target: PostsTarget): Query {
  const path = encodePath(target.path) || undefined;
  if (target.kind === 'topic') return { ...filters, path };
  const { days: _days, start: _start, end: _end, ...rest } = filters;
  return { ...rest, start: target.start, end: target.end, path };
}

// ---- figures ----

/** 0.125 → '12.5%'. */
export function formatShare(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '-';
  return `${(share * 100).toFixed(1)}%`;
}

/** The share change against the baseline: 1.5 → '+150%', -0.4 → '-40%', null (the baseline never had it) → 'New'. */
export function formatChange(change: number | null | undefined): string {
  if (change === null || change === undefined) return 'New';
  if (!Number.isFinite(change)) return '-';
  const pct = Math.round(change * 100);
  if (pct === 0) return '0%';
  return `${pct > 0 ? '+' : '-'}${Math.abs(pct).toLocaleString('en-US')}%`;
}

/** A trend score with its sign and one decimal: '+4.2', '-2.5', '0.0'. */
export function formatTrend(t: number): string {
  const r = Math.round(Math.abs(t) * 10) / 10;
  if (r === 0) return '0.0';
  return `${t > 0 ? '+' : '-'}${r.toFixed(1)}`;
}

export type TrendLevel = 'very' | 'unusual' | 'usual';

/** 4 and above (either way) is very unusual, 2 and above unusual. */
export function trendLevel(t: number): TrendLevel {
  const a = Math.abs(t);
  if (a >= 4) return 'very';
  if (a >= 2) return 'unusual';
  return 'usual';
}

export function trendDirection(t: number): 'up' | 'down' | 'flat' {
  return t > 0 ? 'up' : t < 0 ? 'down' : 'flat';
}

/** 'Very unusual rise', 'Unusual fall', 'Usual'. */
export function trendWords(t: number): string {
  const level = trendLevel(t);
  if (level === 'usual') return 'Usual';
  const way = t > 0 ? 'rise' : 'fall';
  return level === 'very' ? `Very unusual ${way}` : `Unusual ${way}`;
}

const dayFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const dayYearFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** 'Nov 22 – Nov 25, 2026', 'Nov 25, 2026', 'Dec 30, 2025 – Jan 2, 2026' (days in the viewer's zone). */
export function formatDays(start: number, end: number): string {
  const s = new Date(start);
  const e = new Date(end);
  if (s.toDateString() === e.toDateString()) return dayYearFmt.format(e);
  if (s.getFullYear() === e.getFullYear()) return `${dayFmt.format(s)} – ${dayYearFmt.format(e)}`;
  return `${dayYearFmt.format(s)} – ${dayYearFmt.format(e)}`;
}

/** The windows a trend compares, in words. */
export function windowText(w: TrendWindow): string {
  const posts = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'post' : 'posts'}`;
  return `Trend compares ${formatDays(w.currentStart, w.currentEnd)} (${posts(w.currentPosts)}) with ${formatDays(w.baselineStart, w.baselineEnd)} (${posts(w.baselinePosts)}).`;
}

// ---- sparklines ----

/** A sparkline's line and the area under it, in a `width` × `height` box (SVG path data). */
export function sparkPaths(values: number[], width: number, height: number, pad = 1.5): { line: string; area: string } {
  if (values.length === 0) return { line: '', area: '' };
  const max = Math.max(1, ...values);
  const n = values.length;
  const x = (i: number) => (n === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (n - 1));
  const y = (v: number) => height - pad - (Math.max(0, v) / max) * (height - 2 * pad);
  const r = (v: number) => Math.round(v * 10) / 10;
  const pts = n === 1 ? [[pad, y(values[0])], [width - pad, y(values[0])]] : values.map((v, i) => [x(i), y(v)]);
  const line = pts.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${r(px)} ${r(py)}`).join(' ');
  const bottom = r(height - pad);
  const area = `${line} L${r(pts[pts.length - 1][0])} ${bottom} L${r(pts[0][0])} ${bottom} Z`;
  return { line, area };
}

// ---- the chart ----

/** A bucket's first and last millisecond: up to the next bucket, the last one by its grouping. */
export function bucketRange(buckets: number[], index: number, grouping: string): { start: number; end: number } {
  const start = buckets[index];
  const next = buckets[index + 1];
  return { start, end: (next ?? start + (GROUPING_MS[grouping] ?? GROUPING_MS.day)) - 1 };
}

const hourFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** A bucket's start on the chart's axis: 'Nov 25, 3:00 PM' by hour, 'Nov 25' otherwise. */
export function bucketAxisLabel(t: number, grouping: string): string {
  return grouping === 'hour' ? hourFmt.format(new Date(t)) : dayFmt.format(new Date(t));
}

/** The time a bucket covers, in words. */
export function bucketText(start: number, end: number, grouping: string): string {
  if (grouping === 'hour') {
    const to = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(new Date(end + 1));
    return `${hourFmt.format(new Date(start))} – ${to}`;
  }
  return formatDays(start, end);
}

export interface ChartLine {
  name: string;
  points: number[];
}

export interface ChartData {
  grouping: string;
  buckets: number[];
  /** The path's posts, drawn below a picked path (none at the first layer). */
  volume: ChartLine | null;
  lines: ChartLine[];
}

/** The name of a path's volume line. */
export function volumeName(path: TermRef[]): string {
  return path.length ? `All posts with ${pathLabel(path, ' + ')}` : 'All posts';
}

function lineName(l: SeriesLine): string {
  return l.text === null ? '' : termLabel({ kind: isTopicKind(l.kind) ? l.kind : 'word', text: l.text });
}

/** The series answer as the chart draws it: the first layer its topics only, deeper ones the path's volume too. */
export function chartData(s: TopicSeries, path: TermRef[]): ChartData {
  const [own, ...items] = s.lines;
  return {
    grouping: s.grouping,
    buckets: s.buckets,
    volume: path.length && own ? { name: volumeName(path), points: own.points } : null,
    lines: items.map((l) => ({ name: lineName(l), points: l.points })),
  };
}

// Pure shaping of dashboard answers: timeline series, refresh rules, side-view ranges.
import type { TimelineBucket } from '../../api/queries/dashboard';
import type { DateSelection, EriMetric, Grouping } from '../../state/query-state';

export const REFRESH_DEFAULT_S = 60;
export const REFRESH_MIN_S = 60;
export const REFRESH_MAX_S = 120;
export const REFRESH_STEP_S = 5;

/**
 * The refresh frequency after a timeline fetch: it grows by 5 s when nothing changed and shrinks
 * by 5 s when something did, kept within 60–120 s.
 */
export function nextRefreshFrequency(freq: number, changed: boolean): number {
  const next = freq + (changed ? -REFRESH_STEP_S : REFRESH_STEP_S);
  return Math.min(REFRESH_MAX_S, Math.max(REFRESH_MIN_S, next));
}

/** The viewer's local calendar day of an instant, YYYY-MM-DD. */
function localDay(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/**
 * Automatic refresh runs only while the tracker runs and the date filter is a relative window or
 * a custom range ending today.
 */
export function autoRefreshOn(status: 'running' | 'paused', date: DateSelection, now: number): boolean {
  if (status !== 'running') return false;
  if (date.kind === 'days') return true;
  const end = /^\d+$/.test(date.end) ? localDay(Number(date.end)) : date.end;
  return end >= localDay(now);
}

export const ERI_KEY: Record<EriMetric, 'engagement' | 'reach' | 'impressions'> = {
  Engagements: 'engagement',
  Reach: 'reach',
  Impressions: 'impressions',
};

/** Posts (and the chosen ERI metric) per bucket, running totals when cumulative. */
export function timelineSeries(
  buckets: TimelineBucket[],
  eri: EriMetric | null,
  cumulative: boolean,
): { t: number; posts: number; eri: number | null }[] {
  let posts = 0;
  let metric = 0;
  return buckets.map((b) => {
    const m = eri ? b[ERI_KEY[eri]] : 0;
    posts = cumulative ? posts + b.posts : b.posts;
    metric = cumulative ? metric + m : m;
    return { t: b.t, posts, eri: eri ? metric : null };
  });
}

/** Side-view grouping for a timeline grouping: hour, day or month (default hour). */
export function sideGrouping(g: string): 'hour' | 'day' | 'month' {
  if (g === 'day' || g === 'week') return 'day';
  if (g === 'month') return 'month';
  return 'hour';
}

/** The precise range of a clicked bucket: its start to the millisecond before the next bucket. */
export function bucketRange(buckets: { t: number }[], index: number, fallbackMs: number): { start: number; end: number } {
  const start = buckets[index].t;
  const next = buckets[index + 1]?.t;
  const end = (next ?? start + fallbackMs) - 1;
  return { start, end };
}

export const GROUPING_MS: Record<string, number> = {
  minutes: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 31 * 86_400_000,
};

export const GROUPING_LABEL: Record<Grouping, string> = {
  none: 'Auto',
  minutes: 'Minutes',
  hour: 'Hour',
  day: 'Day',
  week: 'Week',
  month: 'Month',
};

/** Percent shares with one decimal, summing the parts given. */
export function shares(parts: number[]): number[] {
  const total = parts.reduce((a, b) => a + b, 0);
  return parts.map((p) => (total ? Math.round((p / total) * 1000) / 10 : 0));
}

/** A short text for a bucket start in the viewer's zone, by grouping. */
export function bucketLabel(t: number, grouping: string): string {
  const d = new Date(t);
  if (grouping === 'month') return d.toLocaleDateString('en-US', { month: 'short', year: 'numeric' });
  if (grouping === 'day' || grouping === 'week') return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  return d.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** Text cut at `n` characters with an ellipsis. */
export function truncate(text: string, n = 200): string {
  const chars = Array.from(text);
  return chars.length > n ? chars.slice(0, n).join('') + '…' : text;
}

// Wording of a tracker's collection status (Tracker Settings → Collection).
import type { BackfillEstimate, CollectionJob } from '../../api/queries/collection';

const time = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** "just now", "5 min ago", or a date for older instants. */
export function ago(ms: number | null | undefined, now: number): string {
  if (ms === null || ms === undefined) return 'Never';
  const s = Math.round((now - ms) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return time.format(new Date(ms));
}

/** "now", "in 4 min", or a date; absent when the job will not run again. */
export function nextRun(job: CollectionJob, now: number): string {
  if (job.running) return 'Collecting now';
  if (job.state === 'done') return 'Finished';
  if (job.state === 'failed') return 'Stopped after repeated errors';
  if (job.nextRunAt === null || job.nextRunAt === undefined) return 'Source switched off';
  const s = Math.round((job.nextRunAt - now) / 1000);
  if (s <= 5) return 'Due now';
  if (s < 3600) return `in ${Math.max(1, Math.round(s / 60))} min`;
  return time.format(new Date(job.nextRunAt));
}

const DAY = 86_400_000;

/** YYYY-MM-DD of an instant, in UTC (the backfill API counts whole UTC days). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The default backfill: the two weeks before yesterday's end. */
export function defaultBackfill(now: number): { start: string; end: string } {
  return { start: utcDay(now - 14 * DAY), end: utcDay(now - DAY) };
}

/** Why a backfill range cannot be asked for, or null. */
export function backfillRangeError(start: string, end: string, now: number): string | null {
  const re = /^\d{4}-\d{2}-\d{2}$/;
  if (!re.test(start) || !re.test(end)) return 'Choose the first and the last day.';
  if (start > end) return 'The first day must not be after the last.';
  if (start > utcDay(now)) return 'The period must start in the past.';
  if (start < utcDay(now - 365 * DAY)) return 'A backfill reaches back 365 days at most.';
  return null;
}

/** "Nov 1 – Nov 14" for a job's window (end exclusive). */
export function rangeLabel(start: number | null | undefined, end: number | null | undefined): string {
  if (start == null || end == null) return '';
  const f = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return `${f.format(new Date(start))} – ${f.format(new Date(end - 1))}`;
}

/** "About 1,234 posts", saying which sources could not count. */
export function estimateText(e: BackfillEstimate): string {
  const n = new Intl.NumberFormat('en-US').format(e.total);
  const counted = e.sources.filter((s) => s.estimate !== null && s.estimate !== undefined);
  const unknown = e.sources.filter((s) => s.estimate === null || s.estimate === undefined).map((s) => s.label);
  if (counted.length === 0) return `No estimate available (${unknown.join(', ')} cannot count in advance).`;
  return `About ${n} posts${unknown.length ? `, plus what ${unknown.join(', ')} cannot count in advance` : ''}.`;
}

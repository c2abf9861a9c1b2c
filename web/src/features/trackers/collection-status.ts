// Wording of a tracker's collection status (Tracker Settings → Collection).
import type { CollectionJob } from '../../api/queries/collection';

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

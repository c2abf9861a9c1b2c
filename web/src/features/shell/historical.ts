// Which historical-data modal opens (tracker-lifecycle.md section 4, dashboard-and-shell.md
// section 4): backfill step 1 when free backfills are allowed, the trial modal for trial users,
// the estimate modal otherwise.
import type { CollectionJob } from '../../api/queries/collection';

export type HistoricalMode = 'backfill' | 'trial' | 'estimate';

export function historicalMode(freeBackfills: boolean, trial: boolean): HistoricalMode {
  if (freeBackfills) return 'backfill';
  if (trial) return 'trial';
  return 'estimate';
}

/** The header button: 'Backfill in Progress' and inactive while a backfill runs. */
export function historicalButton(backfilling: boolean): { label: string; disabled: boolean } {
  return backfilling ? { label: 'Backfill in Progress', disabled: true } : { label: 'Historical Data', disabled: false };
}

export interface BackfillProgress {
  /** Backfill sources finished (done or stopped). */
  finished: number;
  sources: number;
  posts: number;
  running: boolean;
}

/** Progress of the latest backfill: its jobs are the active ones, or else the last batch created. */
export function backfillProgress(jobs: CollectionJob[]): BackfillProgress | null {
  const backfills = jobs.filter((j) => j.kind === 'backfill');
  if (backfills.length === 0) return null;
  const active = backfills.filter((j) => j.state === 'active');
  const current = active.length > 0 ? backfills.filter((j) => j.state === 'active' || sameWindow(j, active[0])) : latestBatch(backfills);
  return {
    finished: current.filter((j) => j.state !== 'active').length,
    sources: current.length,
    posts: current.reduce((n, j) => n + j.postsFetched, 0),
    running: active.length > 0,
  };
}

const sameWindow = (a: CollectionJob, b: CollectionJob) => a.rangeStart === b.rangeStart && a.rangeEnd === b.rangeEnd;

function latestBatch(jobs: CollectionJob[]): CollectionJob[] {
  const last = jobs.reduce((a, b) => (b.id > a.id ? b : a));
  return jobs.filter((j) => sameWindow(j, last));
}

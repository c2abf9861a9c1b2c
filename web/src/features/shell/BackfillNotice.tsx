// Progress of a running historical backfill, shown on every page of the tracker while it runs.
import { useTrackerCollection } from '../../api/queries/collection';
import { formatCount } from '../../lib/dates';
import { backfillProgress } from './historical';

export function BackfillNotice({ hash, active }: { hash: string; active: boolean }) {
  const status = useTrackerCollection(hash, active);
  const progress = active && status.data ? backfillProgress(status.data.jobs) : null;
  if (!progress || !progress.running) return null;
  const pct = progress.sources > 0 ? Math.round((progress.finished / progress.sources) * 100) : 0;
  return (
    <div role="status" data-notice="backfill" className="border-b border-violet-200 bg-violet-50 px-6 py-2 text-sm text-violet-900">
      <div className="flex items-center justify-between gap-4">
        <span>
          Collecting historical data: {formatCount(progress.posts)} posts so far, {progress.finished} of {progress.sources}{' '}
          {progress.sources === 1 ? 'source' : 'sources'} finished.
        </span>
        <span className="tabular-nums font-medium">{pct}%</span>
      </div>
    </div>
  );
}

import type { ReactNode } from 'react';
import type { Tracker } from '../../api/types';

/** Progress of a re-analysis of previous data, shown while it runs. */
export function ReanalysisNotice({ reanalysis }: { reanalysis: Tracker['reanalysis'] }) {
  if (!reanalysis || reanalysis.done) return null;
  const queued = reanalysis.total === 0 && reanalysis.processed === 0;
  const pct = reanalysis.total > 0 ? Math.min(100, Math.round((reanalysis.processed / reanalysis.total) * 100)) : 0;
  return (
    <ProgressNotice pct={pct}>
      {queued ? (
        'Re-analysis of previous data queued…'
      ) : (
        <>
          Re-analyzing previous data: {reanalysis.processed.toLocaleString()} of {reanalysis.total.toLocaleString()} posts
          checked{reanalysis.removed > 0 ? `, ${reanalysis.removed.toLocaleString()} removed` : ''}.
        </>
      )}
    </ProgressNotice>
  );
}

/** Progress of scoring every stored post with a new sentiment model, shown while it runs. */
export function SentimentModelNotice({ progress }: { progress: Tracker['sentimentModel'] }) {
  if (!progress) return null;
  const pct = progress.total > 0 ? Math.min(100, Math.round((progress.processed / progress.total) * 100)) : 0;
  return (
    <ProgressNotice pct={pct}>
      Updating sentiment with the new model: {progress.processed.toLocaleString()} of {progress.total.toLocaleString()}{' '}
      stored posts scored. Sentiment figures may change until it finishes.
    </ProgressNotice>
  );
}

/** A status line with its percentage and a bar under it. */
function ProgressNotice({ pct, children }: { pct: number; children: ReactNode }) {
  return (
    <div role="status" className="border-b border-sky-200 bg-sky-50 px-6 py-2 text-sm text-sky-900">
      <div className="flex items-center justify-between gap-4">
        <span>{children}</span>
        <span className="tabular-nums font-medium">{pct}%</span>
      </div>
      <div className="mt-1 h-1.5 overflow-hidden rounded bg-sky-100" aria-hidden="true">
        <div className="h-full bg-sky-500 transition-all" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

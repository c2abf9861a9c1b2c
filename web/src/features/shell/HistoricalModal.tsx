// Historical-data modals: backfill step 1 when free backfills are allowed (pick the days, see the
// estimate, start, follow the progress), trial mode for trial users, estimate mode otherwise.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useBackfillEstimate, useStartBackfill, useTrackerCollection, type CollectionJob } from '../../api/queries/collection';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { formatCount } from '../../lib/dates';
import { errorMessage } from '../../lib/errors';
import { backfillRangeError, defaultBackfill, estimateText, nextRun, rangeLabel } from '../trackers/collection-status';
import { backfillProgress, historicalMode } from './historical';

const linkButton =
  'rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

export interface HistoricalModalProps {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  hash: string;
  title: string;
  trial: boolean;
  isAdmin: boolean;
}

export function HistoricalModal({ open, onOpenChange, hash, title, trial, isAdmin }: HistoricalModalProps) {
  const status = useTrackerCollection(hash, open);
  const mode = status.data ? historicalMode(status.data.freeBackfills, trial) : null;
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      name={mode === 'backfill' ? 'backfillStep1' : 'historicalData'}
      title="Historical Data"
      description={
        mode === 'backfill'
          ? 'Collect posts published before this tracker started.'
          : mode === 'trial'
            ? 'Historical data is not included in the trial.'
            : 'Get posts from before this tracker started collecting.'
      }
    >
      {status.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-500">
          <Spinner className="h-4 w-4" /> Loading…
        </p>
      ) : status.isError ? (
        <Alert>{errorMessage(status.error)}</Alert>
      ) : mode === 'backfill' ? (
        <BackfillStep1 hash={hash} jobs={status.data!.jobs} inProgress={status.data!.backfillInProgress} />
      ) : mode === 'trial' ? (
        <div className="space-y-3 text-sm text-slate-600" data-mode="trial">
          <p>
            Your trial tracker <strong className="font-semibold text-slate-800">{title}</strong> collects posts from the moment it was created.
            Upgrade to add posts published before that.
          </p>
          <div className="flex justify-end gap-2">
            <Link to="/pricing" className={linkButton}>
              See plans
            </Link>
          </div>
        </div>
      ) : (
        <div className="space-y-3 text-sm text-slate-600" data-mode="estimate">
          <p>
            Tell us the period you need for <strong className="font-semibold text-slate-800">{title}</strong> and we will send an estimate of the
            posts and the cost of collecting them.
          </p>
          {isAdmin ? (
            <p>
              No source of this Hark instance serves this tracker’s platforms yet; with one set up, backfills start from here.{' '}
              <Link to="/settings/connectors" className="font-medium text-brand-700 hover:underline">
                Set up connectors
              </Link>
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Link to="/contact-us?product=historical-data" className={linkButton}>
              Request an estimate
            </Link>
          </div>
        </div>
      )}
    </Modal>
  );
}

/** Step 1: the days to collect, an estimate, and the progress of the running backfill. */
function BackfillStep1({ hash, jobs, inProgress }: { hash: string; jobs: CollectionJob[]; inProgress: boolean }) {
  const ids = { start: useId(), end: useId(), msg: useId() };
  const [range, setRange] = useState(() => defaultBackfill(Date.now()));
  const [error, setError] = useState<string | null>(null);
  const start = useStartBackfill(hash);
  const estimate = useBackfillEstimate(hash);
  const progress = backfillProgress(jobs);
  const check = () => {
    const err = backfillRangeError(range.start, range.end, Date.now());
    setError(err);
    return !err;
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (check()) start.mutate(range);
  };
  const input =
    'mt-1 block h-9 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500 disabled:bg-slate-100';
  const now = Date.now();
  return (
    <div className="space-y-4 text-sm text-slate-600" data-mode="backfill">
      {progress ? (
        <section aria-label="Backfill progress" className="rounded-lg border border-slate-200 bg-slate-50 p-3">
          <p className="font-medium text-slate-800" role="status">
            {progress.running ? 'Backfill in Progress' : 'Backfill finished'}: {formatCount(progress.posts)} posts collected, {progress.finished} of{' '}
            {progress.sources} {progress.sources === 1 ? 'source' : 'sources'} finished.
          </p>
          <ul className="mt-2 space-y-1">
            {jobs
              .filter((j) => j.kind === 'backfill')
              .slice(-progress.sources)
              .map((j) => (
                <li key={j.id} className="flex flex-wrap justify-between gap-2 text-xs text-slate-600">
                  <span>
                    {j.label} · {rangeLabel(j.rangeStart, j.rangeEnd)}
                  </span>
                  <span className="tabular-nums">
                    {nextRun(j, now)} · {formatCount(j.postsFetched)} posts
                  </span>
                </li>
              ))}
          </ul>
        </section>
      ) : null}
      {!inProgress ? (
        <form onSubmit={submit} noValidate aria-label="Backfill" className="space-y-3">
          <p>Collect the posts of past days (UTC) from each source this tracker follows.</p>
          <div className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor={ids.start} className="block font-medium text-slate-700">
                From
              </label>
              <input id={ids.start} type="date" className={input} value={range.start} aria-describedby={error ? ids.msg : undefined}
                onChange={(e) => { estimate.reset(); setRange((r) => ({ ...r, start: e.target.value })); }} />
            </div>
            <div>
              <label htmlFor={ids.end} className="block font-medium text-slate-700">
                To
              </label>
              <input id={ids.end} type="date" className={input} value={range.end} aria-describedby={error ? ids.msg : undefined}
                onChange={(e) => { estimate.reset(); setRange((r) => ({ ...r, end: e.target.value })); }} />
            </div>
            <Button variant="ghost" loading={estimate.isPending} onClick={() => check() && estimate.mutate(range)}>
              Estimate volume
            </Button>
          </div>
          {error ? <p id={ids.msg} className="text-red-600">{error}</p> : null}
          {estimate.data ? <p role="status" className="text-slate-700">{estimateText(estimate.data)}</p> : null}
          {estimate.isError ? <Alert>{errorMessage(estimate.error)}</Alert> : null}
          {start.isError ? <Alert>{errorMessage(start.error)}</Alert> : null}
          <div className="flex justify-end">
            <Button type="submit" loading={start.isPending}>
              Start backfill
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}

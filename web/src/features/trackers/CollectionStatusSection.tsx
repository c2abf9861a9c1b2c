// Tracker Settings → Collection: per source, when posts were last collected, when the next run
// is and the last error, refreshed every 15 s.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useBackfillEstimate, useCollectNow, useStartBackfill, useTrackerCollection } from '../../api/queries/collection';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Spinner } from '../../components/Spinner';
import { formatCount } from '../../lib/dates';
import { errorMessage } from '../../lib/errors';
import { ago, backfillRangeError, defaultBackfill, estimateText, nextRun, rangeLabel } from './collection-status';

export function CollectionStatusSection({ hash, isAdmin, running }: { hash: string; isAdmin: boolean; running: boolean }) {
  const status = useTrackerCollection(hash);
  const collectNow = useCollectNow(hash);
  const now = Date.now();
  const jobs = status.data?.jobs ?? [];
  const streams = status.data?.streams ?? [];
  return (
    <section aria-labelledby="collection-title" className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="collection-title" className="text-base font-semibold text-slate-900">Collection</h2>
          <p className="mt-1 text-sm text-slate-600">Where this tracker’s posts come from and when each source runs next.</p>
        </div>
        {status.data?.collecting && jobs.length > 0 && (
          <Button variant="secondary" size="sm" loading={collectNow.isPending} disabled={!running} onClick={() => collectNow.mutate()}>
            Collect now
          </Button>
        )}
      </div>
      {status.isPending && (
        <p className="mt-4 flex items-center gap-2 text-sm text-slate-500"><Spinner className="h-4 w-4" /> Loading…</p>
      )}
      {status.isError && <Alert className="mt-4">{errorMessage(status.error)}</Alert>}
      {collectNow.isError && <Alert className="mt-4">{errorMessage(collectNow.error)}</Alert>}
      {status.data && !status.data.collecting && (
        <p className="mt-4 text-sm text-slate-600">
          No source is switched on for this Hark instance, so posts arrive only by import.{' '}
          {isAdmin ? (
            <Link to="/settings/connectors" className="font-medium text-brand-700 hover:underline">Set up connectors</Link>
          ) : (
            'An administrator can set up connectors.'
          )}
        </p>
      )}
      {status.data?.collecting && jobs.length === 0 && streams.length === 0 && (
        <p className="mt-4 text-sm text-slate-600">
          {running ? 'Collection starts within a minute for the platforms this tracker follows.' : 'The tracker is paused: nothing is collected.'}
        </p>
      )}
      {jobs.length > 0 && (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">Source</th>
                <th scope="col" className="py-2 pr-4 font-medium">Last collected</th>
                <th scope="col" className="py-2 pr-4 font-medium">Next run</th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">Posts fetched</th>
                <th scope="col" className="py-2 font-medium">Last error</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {jobs.map((j) => (
                <tr key={j.id} className="align-top">
                  <td className="py-2 pr-4 text-slate-900">
                    {j.label}
                    {j.kind === 'backfill' && (
                      <span className="block text-xs text-slate-500">Historical: {rangeLabel(j.rangeStart, j.rangeEnd)}</span>
                    )}
                  </td>
                  <td className="py-2 pr-4 text-slate-700" title={j.lastCollectedAt ? new Date(j.lastCollectedAt).toLocaleString() : undefined}>
                    {ago(j.lastCollectedAt, now)}
                  </td>
                  <td className="py-2 pr-4 text-slate-700">{running || j.kind === 'backfill' ? nextRun(j, now) : 'Paused'}</td>
                  <td className="py-2 pr-4 text-right tabular-nums text-slate-700">{formatCount(j.postsFetched)}</td>
                  <td className="py-2 text-slate-700">
                    {j.lastError ? (
                      <span className="text-red-700">
                        {j.lastError}
                        {j.lastErrorAt ? <span className="block text-xs text-slate-500">{ago(j.lastErrorAt, now)}{j.attempts > 1 ? ` · ${j.attempts} attempts` : ''}</span> : null}
                      </span>
                    ) : (
                      <span className="text-slate-400">None</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {streams.length > 0 && (
        <ul className="mt-4 space-y-2 text-sm" aria-label="Live streams">
          {streams.map((s) => (
            <li key={s.connector} className="rounded-md border border-slate-100 bg-slate-50 px-3 py-2 text-slate-700">
              <span className="font-medium text-slate-900">{s.label}</span>
              {' · live stream, '}
              {!running ? 'paused for this tracker' : s.running ? 'connected' : 'connecting'}
              {s.lastCollectedAt ? ` · last read ${ago(s.lastCollectedAt, now)}` : ''}
              {s.lastError ? <span className="block text-red-700">{s.lastError}</span> : null}
            </li>
          ))}
        </ul>
      )}
      {status.data?.collecting && <BackfillForm hash={hash} inProgress={status.data.backfillInProgress} />}
    </section>
  );
}

/** Historical data: collect the posts of past days from every source of the tracker. */
function BackfillForm({ hash, inProgress }: { hash: string; inProgress: boolean }) {
  const ids = { start: useId(), end: useId(), msg: useId() };
  const [range, setRange] = useState(() => defaultBackfill(Date.now()));
  const [error, setError] = useState<string | null>(null);
  const start = useStartBackfill(hash);
  const estimate = useBackfillEstimate(hash);
  const askEstimate = () => {
    const err = backfillRangeError(range.start, range.end, Date.now());
    setError(err);
    if (!err) estimate.mutate(range);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const err = backfillRangeError(range.start, range.end, Date.now());
    setError(err);
    if (!err) start.mutate(range);
  };
  const input =
    'mt-1 block h-9 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-500';
  return (
    <form onSubmit={submit} noValidate aria-label="Historical data" className="mt-6 border-t border-slate-100 pt-5">
      <h3 className="text-sm font-semibold text-slate-900">Historical data</h3>
      <p className="mt-1 text-sm text-slate-600">Collect the posts of past days (UTC) from each source this tracker follows.</p>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={ids.start} className="block text-sm font-medium text-slate-700">From</label>
          <input id={ids.start} type="date" className={input} value={range.start} aria-describedby={error ? ids.msg : undefined}
            onChange={(e) => { estimate.reset(); setRange((r) => ({ ...r, start: e.target.value })); }} />
        </div>
        <div>
          <label htmlFor={ids.end} className="block text-sm font-medium text-slate-700">To</label>
          <input id={ids.end} type="date" className={input} value={range.end} aria-describedby={error ? ids.msg : undefined}
            onChange={(e) => { estimate.reset(); setRange((r) => ({ ...r, end: e.target.value })); }} />
        </div>
        <Button variant="ghost" loading={estimate.isPending} onClick={askEstimate}>
          Estimate volume
        </Button>
        <Button type="submit" variant="secondary" loading={start.isPending} disabled={inProgress}>
          {inProgress ? 'Backfill in Progress' : 'Start backfill'}
        </Button>
      </div>
      {error && <p id={ids.msg} className="mt-2 text-sm text-red-600">{error}</p>}
      {estimate.data && (
        <p role="status" className="mt-2 text-sm text-slate-700">
          {estimateText(estimate.data)}
        </p>
      )}
      {estimate.isError && <Alert className="mt-3">{errorMessage(estimate.error)}</Alert>}
      {start.isError && <Alert className="mt-3">{errorMessage(start.error)}</Alert>}
    </form>
  );
}

// The audit log's entries as a table, newest first, with its loading, failed and empty states and
// a button that loads older entries: the administrator's Audit log page (every tracker, with a
// Tracker column) and a tracker's settings (its own entries).
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { AuditEntry, AuditPage } from '../../api/queries/admin';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { LoadError } from '../../components/LoadError';
import { LoadingState } from '../../components/Spinner';
import { formatDateTime } from '../../lib/dates';
import { loadErrorMessage } from '../../lib/errors';
import { actionLabel, describeEntry, flattenPages } from './audit-data';

export const EMPTY_TITLE = 'No changes recorded yet';

export function AuditEntries({
  log,
  showTracker = false,
  headingLevel = 'h2',
}: {
  log: UseInfiniteQueryResult<InfiniteData<AuditPage>>;
  showTracker?: boolean;
  /** The empty state's heading, one level under the section's. */
  headingLevel?: 'h2' | 'h3';
}) {
  const Heading = headingLevel;
  if (log.isPending) return <LoadingState label="Loading the audit log…" />;
  if (log.isError && !log.data) {
    return (
      <div className="rounded-lg border border-slate-200 bg-white">
        <LoadError error={log.error} onRetry={() => log.refetch()} />
      </div>
    );
  }
  const entries = flattenPages(log.data?.pages);
  if (entries.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
        <Heading className="text-base font-semibold text-slate-900">{EMPTY_TITLE}</Heading>
        <p className="mx-auto mt-1 max-w-md text-sm text-slate-500">
          Rank changes, hand-overs, share-link changes and deletions show here as they happen.
        </p>
      </div>
    );
  }
  // A deleted tracker's entries name it without a link.
  const deleted = new Set(entries.filter((e) => e.action === 'tracker_deleted').map((e) => e.trackerHash));
  return (
    <>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Audit log, newest first</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-3">When</th>
              <th scope="col" className="px-4 py-3">Who</th>
              {showTracker && <th scope="col" className="px-4 py-3">Tracker</th>}
              <th scope="col" className={`${showTracker ? 'w-2/5' : ''} px-4 py-3`}>What</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {entries.map((e) => (
              <EntryRow key={e.id} entry={e} showTracker={showTracker} linked={!!e.trackerHash && !deleted.has(e.trackerHash)} />
            ))}
          </tbody>
        </table>
      </div>
      {log.isError ? <Alert className="mt-3">{loadErrorMessage(log.error)}</Alert> : null}
      <div className="mt-4 flex items-center justify-between text-sm text-slate-600">
        <span aria-live="polite" data-testid="audit-count">
          {entries.length} {entries.length === 1 ? 'entry' : 'entries'}
          {log.hasNextPage ? ' shown' : ''}
        </span>
        {log.hasNextPage && (
          <Button variant="secondary" size="sm" onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? 'Loading…' : 'Load older entries'}
          </Button>
        )}
      </div>
    </>
  );
}

function EntryRow({ entry: e, showTracker, linked }: { entry: AuditEntry; showTracker: boolean; linked: boolean }) {
  const title = e.trackerTitle || 'Untitled tracker';
  return (
    <tr data-testid="audit-row" className="align-top hover:bg-slate-50">
      <td className="whitespace-nowrap px-4 py-3 text-slate-600">
        <time dateTime={new Date(e.createdAt).toISOString()}>{formatDateTime(e.createdAt)}</time>
      </td>
      <td className="px-4 py-3 text-slate-800">{e.actor}</td>
      {showTracker && (
        <td className="px-4 py-3">
          {!e.trackerHash ? (
            <span className="text-slate-500">This server</span>
          ) : linked ? (
            <Link to={`/hashtag-tracking/dashboard/${e.trackerHash}`} className="font-medium text-brand-700 hover:underline">
              {title}
            </Link>
          ) : (
            <span className="text-slate-700">{title}</span>
          )}
        </td>
      )}
      <td className="px-4 py-3">
        <div className="font-medium text-slate-900" data-testid="audit-action">
          {actionLabel(e.action)}
        </div>
        <div className="text-slate-600" data-testid="audit-detail">
          {describeEntry(e)}
        </div>
      </td>
    </tr>
  );
}

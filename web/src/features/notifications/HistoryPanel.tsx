// The Alert history panel: every alert, report and test message sent for the tracker, newest
// first, 20 a page, with its delivery state; read again every 30 seconds.
import { useMemo } from 'react';
import { useNotificationHistory, type HistoryItem } from '../../api/queries/notifications';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { Panel } from '../../components/Panel';
import { LoadingState } from '../../components/Spinner';
import { formatDateTime, formatRelative } from '../../lib/dates';
import { channelLabel, HISTORY_PER_PAGE, kindLabel, pageRangeLabel, STATUS_STYLES, statusLabel } from './history-data';

export const EMPTY_HISTORY_TEXT = 'No alerts or reports sent yet.';

export function HistoryPanel({ hash, page, onPage, className = '' }: { hash: string; page: number; onPage: (page: number) => void; className?: string }) {
  const history = useNotificationHistory(hash, page);
  const data = history.data;
  // Relative times count from when the list was read, not from when the page was opened.
  const now = useMemo(() => Date.now(), [history.dataUpdatedAt]);
  const perPage = data?.perPage || HISTORY_PER_PAGE;
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / perPage));

  let body;
  if (history.isPending) body = <LoadingState label="Loading the alert history…" />;
  else if (history.isError && !data) body = <LoadError error={history.error} onRetry={() => history.refetch()} compact />;
  else if (!data || data.total === 0) {
    body = (
      <EmptyState graphic="BullhornEllipsesWithHashtags" title={EMPTY_HISTORY_TEXT} body="Alerts, reports and test messages show here as they are sent." compact />
    );
  } else if (data.items.length === 0) {
    body = (
      <div className="py-8 text-center text-sm text-slate-600">
        Nothing on this page.{' '}
        <Button variant="ghost" size="sm" onClick={() => onPage(1)}>
          Go to the first page
        </Button>
      </div>
    );
  } else {
    body = (
      <div className={`-mx-4 overflow-x-auto transition-opacity ${history.isPlaceholderData ? 'opacity-60' : ''}`}>
        <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="history-table">
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-2.5">When</th>
              <th scope="col" className="px-4 py-2.5">Kind</th>
              <th scope="col" className="px-4 py-2.5">Sent to</th>
              <th scope="col" className="px-4 py-2.5">Subject</th>
              <th scope="col" className="px-4 py-2.5">Status</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.items.map((item) => (
              <HistoryRow key={item.id} item={item} now={now} />
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <Panel
      title="Alert history"
      id="history"
      className={className}
      actions={
        data && data.total > 0 ? (
          <span className="text-xs text-slate-500" data-testid="history-count">
            {pageRangeLabel(data.page, perPage, data.items.length, data.total)}
          </span>
        ) : null
      }
    >
      {body}
      {history.isError && data ? (
        <p role="alert" className="py-2 text-sm text-red-700">
          The history could not be refreshed; it is shown as last read.
        </p>
      ) : null}
      {pages > 1 ? (
        <nav aria-label="History pages" className="flex items-center justify-between border-t border-slate-100 py-3 text-sm text-slate-600">
          <span>
            Page {page} of {pages}
          </span>
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
              Previous
            </Button>
            <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
              Next
            </Button>
          </div>
        </nav>
      ) : null}
    </Panel>
  );
}

function HistoryRow({ item, now }: { item: HistoryItem; now: number }) {
  return (
    <tr className="align-top" data-testid="history-row" data-status={item.status} data-kind={item.kind}>
      <td className="whitespace-nowrap px-4 py-3">
        <time dateTime={new Date(item.createdAt).toISOString()} className="block text-slate-800">
          {formatRelative(item.createdAt, now)}
        </time>
        <span className="block text-xs text-slate-500">{formatDateTime(item.createdAt)}</span>
      </td>
      <td className="whitespace-nowrap px-4 py-3 font-medium text-slate-800">{kindLabel(item.kind)}</td>
      <td className="px-4 py-3">
        <span className="block text-slate-800">{channelLabel(item.channel)}</span>
        <span className="block max-w-[16rem] break-all text-xs text-slate-500">{item.recipient}</span>
      </td>
      <td className="min-w-[16rem] px-4 py-3">
        <span className="block text-slate-800">{item.subject}</span>
        {item.reason ? <span className="block text-xs text-slate-500">{item.reason}</span> : null}
      </td>
      <td className="px-4 py-3">
        <span
          className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_STYLES[item.status] ?? STATUS_STYLES.pending}`}
          data-testid="history-status"
        >
          {statusLabel(item.status)}
        </span>
        {item.status === 'retrying' && item.nextAttemptAt ? (
          <span className="mt-1 block whitespace-nowrap text-xs text-slate-600">Next attempt {formatDateTime(item.nextAttemptAt)}</span>
        ) : null}
        {item.attempts > 1 ? <span className="mt-0.5 block text-xs text-slate-500">{item.attempts} attempts</span> : null}
        {item.error && item.status !== 'sent' ? <span className="mt-1 block max-w-[18rem] break-words text-xs text-red-700">{item.error}</span> : null}
      </td>
    </tr>
  );
}

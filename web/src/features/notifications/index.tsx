// Notification settings (/hashtag-tracking/notifications/{hash}/{friendly}), for the tracker's
// owner and administrators: which events alert and how often, the periodic report, where alerts
// go (e-mail, a webhook, Slack) with a test message to each, and the history of what was sent.
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { useNotificationSettings } from '../../api/queries/notifications';
import { Alert } from '../../components/Alert';
import { LoadError } from '../../components/LoadError';
import { LoadingState } from '../../components/Spinner';
import { setPage } from '../../state/query-state';
import { useShell } from '../shell/context';
import { HistoryPanel } from './HistoryPanel';
import { SettingsForm } from './SettingsForm';

export const NOT_ALLOWED_TEXT = 'Only the tracker’s owner and its administrators can see and change its notifications.';

export default function NotificationsPage() {
  const { tracker, query, update, hrefFor, now } = useShell();
  const view = useNotificationSettings(tracker.hash);

  if (view.isPending) {
    return (
      <div className="p-6">
        <LoadingState label="Loading notification settings…" />
      </div>
    );
  }
  if (view.isError) {
    const forbidden = view.error instanceof ApiError && view.error.status === 403;
    return (
      <div className="p-6">
        {forbidden ? (
          <div className="max-w-xl">
            <Alert tone="warning">{NOT_ALLOWED_TEXT}</Alert>
            <Link to={hrefFor('dashboard')} className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
              Back to the dashboard
            </Link>
          </div>
        ) : (
          <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
            <LoadError error={view.error} onRetry={() => view.refetch()} />
          </div>
        )}
      </div>
    );
  }

  return (
    <div className="space-y-4 p-6">
      <p className="max-w-3xl text-sm text-slate-600">
        Choose what alerts you about <strong className="font-semibold text-slate-800">{tracker.title}</strong>, how often, and where
        alerts and reports go.
      </p>
      <SettingsForm view={view.data} hash={tracker.hash} now={now} />
      <HistoryPanel hash={tracker.hash} page={query.page} onPage={(p) => update(setPage(p))} />
    </div>
  );
}

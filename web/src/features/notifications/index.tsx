// Notification settings: a read-only summary of the tracker's alerts and reports.
import { Link } from 'react-router';
import { Panel } from '../../components/Panel';
import { useShell } from '../shell/context';

/** The alert defaults of a tracker (tracker-lifecycle spec, section 9). */
export const ALERT_DEFAULTS = [
  { label: 'Notification frequency', value: 'Realtime' },
  { label: 'Activity spike alerts', value: 'On' },
  { label: 'Negative sentiment alerts', value: 'Off' },
  { label: 'Periodic updates', value: 'Weekly' },
  { label: 'Send when there are no updates', value: 'No' },
];

export default function NotificationsPage() {
  const { me, tracker, hrefFor } = useShell();
  return (
    <div className="grid grid-cols-12 gap-4 p-6">
      <Panel title="Alerts and reports" id="alertSummary" className="col-span-12 xl:col-span-8">
        <p className="py-2 text-sm text-slate-600">
          How <strong className="font-semibold text-slate-800">{tracker.title}</strong> keeps you informed about new activity.
        </p>
        <dl className="divide-y divide-slate-100">
          <Row label="Recipient" value={me?.email ?? '–'} />
          {ALERT_DEFAULTS.map((r) => (
            <Row key={r.label} label={r.label} value={r.value} />
          ))}
        </dl>
      </Panel>
      <Panel title="Thresholds" id="alertThresholds" className="col-span-12 xl:col-span-4">
        <p className="py-2 text-sm text-slate-600">No follower, engagement or view thresholds are set: every matching post counts toward alerts.</p>
        <Link to={hrefFor('dashboard')} className="mt-2 inline-block text-sm font-medium text-brand-700 hover:underline">
          Back to the dashboard
        </Link>
      </Panel>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-4 py-3 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-medium text-slate-900">{value}</dd>
    </div>
  );
}

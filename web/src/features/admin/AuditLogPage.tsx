// /admin/audit: the instance administrator's audit log of every tracker, newest first: who changed
// a member's rank, handed a tracker over, changed or revoked a share link, or deleted a tracker or
// posts, and when. Older entries load 50 at a time.
import { useAuditLog } from '../../api/queries/admin';
import { useMe } from '../../api/queries/me';
import { LoadingState } from '../../components/Spinner';
import { RequireSignIn } from '../auth';
import { AdminFrame, NotAdmin } from './AdminFrame';
import { AuditEntries } from './AuditEntries';

export { EMPTY_TITLE } from './AuditEntries';

export function AuditLogPage() {
  return (
    <RequireSignIn>
      <AuditLog />
    </RequireSignIn>
  );
}

function AuditLog() {
  const me = useMe();
  const isAdmin = me.data?.isAdmin === true;
  const log = useAuditLog(isAdmin);

  if (me.isPending) return <AdminFrame><LoadingState label="Loading…" /></AdminFrame>;
  if (!isAdmin) return <NotAdmin title="Audit log" />;

  return (
    <AdminFrame>
      <h1 className="text-2xl font-semibold text-slate-900">Audit log</h1>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        Changes to who may do what on every tracker of this server: team ranks, hand-overs, share links, and deleted
        trackers and posts. Entries are kept when their tracker is deleted.
      </p>
      <section aria-label="Audit log entries" className="mt-6">
        <AuditEntries log={log} showTracker />
      </section>
    </AdminFrame>
  );
}

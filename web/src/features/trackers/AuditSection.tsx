// Tracker Settings → Audit log (owner and administrators): who changed a member's rank, handed the
// tracker over, changed or revoked its share link, or deleted posts, and when.
import { useTrackerAudit } from '../../api/queries/admin';
import { AuditEntries } from '../admin/AuditEntries';

export function AuditSection({ hash }: { hash: string }) {
  const log = useTrackerAudit(hash);
  return (
    <section aria-labelledby="audit-title" className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="audit-title" className="text-base font-semibold text-slate-900">Audit log</h2>
      <p className="mt-1 mb-4 text-sm text-slate-600">
        Team rank changes, hand-overs, share-link changes and deleted posts on this tracker, newest first.
      </p>
      <AuditEntries log={log} headingLevel="h3" />
    </section>
  );
}

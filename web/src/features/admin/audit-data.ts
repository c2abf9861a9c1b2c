// The audit log's entries in words: what each change was, said from the detail the server keeps.
import type { AuditEntry } from '../../api/queries/admin';

/** The share-link settings by the names the Share dialog gives them. */
const SHARE_SETTINGS: Record<string, string> = {
  editDateRange: 'Edit date range',
  exportReports: 'Export reports',
  viewPredictions: 'View predictions',
  shareExports: 'Share exports',
  unlockDate: 'Unlock date range',
  customUrl: 'Custom URL',
};

type Detail = Record<string, unknown>;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const posts = (n: number) => `${n} ${n === 1 ? 'post' : 'posts'}`;

/** One share-link setting's change: 'Edit date range on', 'Custom URL set to “x”'. */
export function shareChange(change: unknown): string {
  const c = (change ?? {}) as Detail;
  const setting = text(c.setting);
  const label = SHARE_SETTINGS[setting] ?? setting;
  if (setting === 'customUrl') {
    return c.to ? `${label} set to “${text(c.to)}”` : `${label} removed`;
  }
  return `${label} ${c.to ? 'on' : 'off'}`;
}

/** The action's heading in the log's What column. */
export function actionLabel(action: string): string {
  switch (action) {
    case 'member_added':
      return 'Member added';
    case 'member_rank_changed':
      return 'Rank changed';
    case 'member_removed':
      return 'Member removed';
    case 'owner_changed':
      return 'Tracker handed over';
    case 'share_changed':
      return 'Share link changed';
    case 'share_revoked':
      return 'Share link revoked';
    case 'moderation_link_rotated':
      return 'Moderation link replaced';
    case 'tracker_deleted':
      return 'Tracker deleted';
    case 'posts_deleted':
      return 'Posts deleted';
    case 'posts_restored':
      return 'Posts restored';
    case 'admin_granted':
      return 'Administrator added';
    case 'admin_revoked':
      return 'Administrator removed';
    default:
      return action;
  }
}

/** The change in a sentence. */
export function describeEntry(entry: Pick<AuditEntry, 'action' | 'detail'>): string {
  const d = (entry.detail ?? {}) as Detail;
  switch (entry.action) {
    case 'member_added':
      return `${text(d.member) || 'An account'} joined as ${text(d.to)}${d.invitation ? ' (accepted an invitation)' : ''}`;
    case 'member_rank_changed':
      return `${text(d.member) || 'A member'}: ${text(d.from)} → ${text(d.to)}`;
    case 'member_removed':
      return `${text(d.member) || 'A member'}${d.from ? ` (${text(d.from)})` : ''} taken off the team`;
    case 'owner_changed':
      return `From ${text(d.from) || 'the previous owner'} to ${text(d.to)}`;
    case 'share_changed': {
      const changes = Array.isArray(d.changes) ? d.changes.map(shareChange) : [];
      return changes.length ? changes.join(', ') : 'Settings saved';
    }
    case 'share_revoked':
      return 'A new link replaced the old one, which stopped working';
    case 'moderation_link_rotated':
      return 'A new media wall moderation link replaced the old one, which stopped working';
    case 'tracker_deleted':
      return 'The tracker and its posts were deleted';
    case 'posts_deleted':
      return `${posts(count(d.count))} hidden from the tracker (bulk delete)`;
    case 'posts_restored':
      return `${posts(count(d.count))} brought back (undo)`;
    case 'admin_granted':
      return `${text(d.member)} can now administer this server`;
    case 'admin_revoked':
      return `${text(d.member)} no longer administers this server`;
    default:
      return '';
  }
}

/** Entries of every loaded page in order, newest first. */
export function flattenPages(pages: { entries: AuditEntry[] }[] | undefined): AuditEntry[] {
  return (pages ?? []).flatMap((p) => p.entries);
}

// The account watchlist's tag modals: Manage tags (the caller's influencer tags, each to edit
// or delete) and, opened from it, the create / edit / confirm-delete modals the post tags use.
// Closing one of those goes back to Manage tags.
import type { Tag } from '../../api/types';
import { Button } from '../../components/Button';
import { IconPlus } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { LoadingState } from '../../components/Spinner';
import { DeleteTagModal, TagModal } from '../posts/TagControls';
import { visibleTags } from '../shell/tag-filter';

export type TagDialog = { kind: 'manage' } | { kind: 'create' } | { kind: 'edit'; tag: Tag } | { kind: 'delete'; tag: Tag } | null;

export function InfluencerTagDialogs({
  dialog,
  onDialog,
  tags,
  loading,
  onSave,
  onDelete,
}: {
  dialog: TagDialog;
  onDialog: (d: TagDialog) => void;
  tags: Tag[];
  loading: boolean;
  /** Create (no id) or edit a tag; rejects with the API error. */
  onSave: (v: { id?: number; name: string; color: string }) => Promise<unknown>;
  onDelete: (t: Tag) => Promise<unknown>;
}) {
  const back = () => onDialog({ kind: 'manage' });
  return (
    <>
      <Modal
        open={dialog?.kind === 'manage'}
        onOpenChange={(o) => !o && onDialog(null)}
        title="Manage tags"
        name="manageInfluencerTags"
        description="Your influencer tags mark accounts on every tracker; only you see them."
      >
        {loading ? (
          <LoadingState label="Loading tags…" />
        ) : tags.length === 0 ? (
          <p className="py-4 text-sm text-slate-600">You have no influencer tags yet.</p>
        ) : (
          <ul className="max-h-80 divide-y divide-slate-100 overflow-y-auto" aria-label="Your influencer tags">
            {visibleTags(tags, '').map((t) => (
              <li key={t.id} className="flex items-center gap-3 py-2">
                <span className="h-3.5 w-3.5 shrink-0 rounded-full" style={{ backgroundColor: t.color }} aria-hidden="true" />
                <span className="min-w-0 flex-1 truncate text-sm text-slate-800">{t.name}</span>
                <Button variant="ghost" size="sm" aria-label={`Edit tag ${t.name}`} onClick={() => onDialog({ kind: 'edit', tag: t })}>
                  Edit
                </Button>
                <Button variant="ghost" size="sm" className="text-red-700" aria-label={`Delete tag ${t.name}`} onClick={() => onDialog({ kind: 'delete', tag: t })}>
                  Delete
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div className="mt-4 flex justify-end">
          <Button onClick={() => onDialog({ kind: 'create' })}>
            <IconPlus size={14} />
            Create tag
          </Button>
        </div>
      </Modal>
      {dialog?.kind === 'create' || dialog?.kind === 'edit' ? (
        <TagModal
          key={dialog.kind === 'edit' ? dialog.tag.id : 'new'}
          open
          onOpenChange={(o) => !o && back()}
          tag={dialog.kind === 'edit' ? dialog.tag : null}
          onSave={(v) => onSave(dialog.kind === 'edit' ? { id: dialog.tag.id, ...v } : v)}
          onDelete={(t) => onDialog({ kind: 'delete', tag: t })}
        />
      ) : null}
      <DeleteTagModal
        key={dialog?.kind === 'delete' ? dialog.tag.id : 'none'}
        tag={dialog?.kind === 'delete' ? dialog.tag : null}
        onOpenChange={(o) => !o && back()}
        onConfirm={onDelete}
        scope="account"
      />
    </>
  );
}

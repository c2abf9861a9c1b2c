// Post tags on the posts page: the per-post tag menu (checkbox per tag, spinner while pending,
// all disabled while any tag operation runs) and the create / edit / delete tag modals.
import * as Popover from '@radix-ui/react-popover';
import { useState } from 'react';
import type { Tag } from '../../api/types';
import { Button } from '../../components/Button';
import { IconTag } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/errors';
import { showTagSearch, visibleTags } from '../shell/tag-filter';
import { DEFAULT_TAG_COLOR, NO_TAGS, TAG_NAME_MAX, TAG_PALETTE, tagNameError } from './format';

export function TagChips({ tags, all }: { tags: number[]; all: Tag[] }) {
  const shown = all.filter((t) => tags.includes(t.id));
  if (!shown.length) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {shown.map((t) => (
        <span key={t.id} className="inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium text-white" style={{ backgroundColor: t.color }}>
          {t.name}
        </span>
      ))}
    </span>
  );
}

export function TagMenu({
  postKey,
  tags,
  all,
  pending,
  busy,
  onToggle,
  onCreate,
  onEdit,
}: {
  postKey: string;
  tags: number[];
  all: Tag[];
  /** Tag ids whose change on this post is in flight. */
  pending: number[];
  /** Any tag operation running: every checkbox is disabled. */
  busy: boolean;
  onToggle: (tagId: number, on: boolean) => void;
  onCreate: () => void;
  onEdit: (t: Tag) => void;
}) {
  const [q, setQ] = useState('');
  const list = visibleTags(all, q);
  return (
    <Popover.Root>
      <Popover.Trigger
        className="inline-flex h-7 items-center gap-1 rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-700 hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-brand-600"
        aria-label={`Tags of post ${postKey}`}
      >
        <IconTag size={12} />
        Tag
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="end" sideOffset={4} className="z-50 w-64 rounded-lg border border-slate-200 bg-white p-2 shadow-lg" data-testid="tag-menu">
          {showTagSearch(all) ? (
            <input
              type="search"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              placeholder="Search tags"
              aria-label="Search tags"
              className="mb-2 h-8 w-full rounded-md border border-slate-300 px-2 text-sm"
            />
          ) : null}
          {all.length === 0 ? (
            <button type="button" className="w-full rounded-md px-2 py-2 text-left text-sm text-brand-700 hover:bg-brand-50" onClick={onCreate}>
              {NO_TAGS}
            </button>
          ) : (
            <ul className="max-h-60 overflow-auto" aria-label="Post tags">
              {list.map((t) => {
                const on = tags.includes(t.id);
                const waiting = pending.includes(t.id);
                return (
                  <li key={t.id} className="flex items-center gap-2 rounded-md px-2 py-1 hover:bg-slate-50">
                    {waiting ? (
                      <Spinner className="h-4 w-4" />
                    ) : (
                      <input
                        type="checkbox"
                        id={`tag-${postKey}-${t.id}`}
                        className="h-4 w-4 accent-brand-600"
                        checked={on}
                        disabled={busy}
                        onChange={(e) => onToggle(t.id, e.target.checked)}
                      />
                    )}
                    <label htmlFor={`tag-${postKey}-${t.id}`} className="flex flex-1 items-center gap-2 text-sm text-slate-700">
                      <span className="h-3 w-3 rounded-full" style={{ backgroundColor: t.color }} aria-hidden="true" />
                      {t.name}
                    </label>
                    <button type="button" className="text-xs text-slate-500 hover:text-slate-900" onClick={() => onEdit(t)} aria-label={`Edit tag ${t.name}`}>
                      Edit
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {all.length > 0 ? (
            <button type="button" className="mt-1 w-full rounded-md px-2 py-1.5 text-left text-sm text-brand-700 hover:bg-brand-50" onClick={onCreate}>
              + Create new tag
            </button>
          ) : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** Create or edit a tag: name (required, at most 45 characters) and one of the nine colours. */
export function TagModal({
  open,
  onOpenChange,
  tag,
  onSave,
  onDelete,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  /** null: create. */
  tag: Tag | null;
  onSave: (v: { name: string; color: string }) => Promise<unknown>;
  onDelete?: (t: Tag) => void;
}) {
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState(tag?.color ?? DEFAULT_TAG_COLOR);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const invalid = tagNameError(name);
  async function save() {
    if (invalid || saving) return;
    setSaving(true);
    setError(null);
    try {
      await onSave({ name: name.trim(), color });
      onOpenChange(false);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={tag ? 'Edit tag' : 'Create tag'} name={tag ? 'editTag' : 'createTag'}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        className="space-y-4"
      >
        <label className="block text-sm font-medium text-slate-700">
          Tag name
          <input
            autoFocus
            value={name}
            maxLength={TAG_NAME_MAX}
            onChange={(e) => setName(e.target.value)}
            className="mt-1 h-9 w-full rounded-md border border-slate-300 px-3 text-sm"
          />
        </label>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Colour</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {TAG_PALETTE.map((c) => (
              <label key={c.name} className="cursor-pointer" title={c.name}>
                <input type="radio" name="tag-color" value={c.color} className="peer sr-only" checked={color.toLowerCase() === c.color.toLowerCase()} onChange={() => setColor(c.color)} aria-label={c.name} />
                <span className="block h-7 w-7 rounded-full ring-offset-2 peer-checked:ring-2 peer-checked:ring-slate-800 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-600" style={{ backgroundColor: c.color }} />
              </label>
            ))}
          </div>
        </fieldset>
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <div className="flex items-center justify-between gap-2">
          {tag && onDelete ? (
            <Button variant="ghost" className="text-red-700" onClick={() => onDelete(tag)}>
              Delete tag
            </Button>
          ) : (
            <span />
          )}
          <Button type="submit" disabled={!!invalid} loading={saving}>
            {tag ? 'Save' : 'Create'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

export function DeleteTagModal({
  tag,
  onOpenChange,
  onConfirm,
  scope = 'post',
}: {
  tag: Tag | null;
  onOpenChange: (o: boolean) => void;
  onConfirm: (t: Tag) => Promise<unknown>;
  /** What the tag is on: 'post' (post tags) or 'account' (influencer tags). */
  scope?: 'post' | 'account';
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Modal open={!!tag} onOpenChange={onOpenChange} title="Delete tag" name="confirmDeleteTag">
      <p className="text-sm text-slate-700">
        Delete the tag <strong>{tag?.name}</strong>? It is removed from every {scope}.
      </p>
      {error ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button
          variant="danger"
          loading={busy}
          onClick={async () => {
            if (!tag) return;
            setBusy(true);
            setError(null);
            try {
              await onConfirm(tag);
              onOpenChange(false);
            } catch (e) {
              setError(errorMessage(e));
            } finally {
              setBusy(false);
            }
          }}
        >
          Delete
        </Button>
      </div>
    </Modal>
  );
}

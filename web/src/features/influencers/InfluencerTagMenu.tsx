// A row's influencer tag menu: a checkbox per tag of the caller (search above one tag, spinner
// while that tag's change is pending, every checkbox disabled while any tag change runs), a new
// tag created inline and put on the account, and the way to Manage tags.
import * as Popover from '@radix-ui/react-popover';
import { useState } from 'react';
import type { Tag } from '../../api/types';
import { IconTag } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/errors';
import { TAG_NAME_MAX, tagNameError } from '../posts/format';
import { showTagSearch, visibleTags } from '../shell/tag-filter';
import { NO_INFLUENCER_TAGS } from './influencers-data';

export function InfluencerTagMenu({
  account,
  label,
  tags,
  all,
  pending,
  busy,
  onToggle,
  onCreate,
  onManage,
}: {
  /** InfluencerRow.key */
  account: string;
  /** The account's display name, for the trigger's accessible name. */
  label: string;
  tags: number[];
  all: Tag[];
  pending: number[];
  busy: boolean;
  onToggle: (tagId: number, on: boolean) => void;
  /** Creates a tag (default colour) and puts it on this account; rejects with the API error. */
  onCreate: (name: string) => Promise<unknown>;
  onManage: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const list = visibleTags(all, q);
  const idBase = `itag-${account.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  return (
    <Popover.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) setQ('');
      }}
    >
      <Popover.Trigger
        className="inline-flex h-7 items-center gap-1 rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-700 hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-brand-600"
        aria-label={`Influencer tags of ${label}`}
      >
        <IconTag size={12} />
        Tag
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="start" sideOffset={4} className="z-50 w-64 rounded-lg border border-slate-200 bg-white p-2 shadow-lg" data-testid="influencer-tag-menu">
          {showTagSearch(all) ? (
            <input
              type="search"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              placeholder="Search tags"
              aria-label="Search tags"
              className="mb-2 h-8 w-full rounded-md border border-slate-300 px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
            />
          ) : null}
          {all.length === 0 ? (
            <button
              type="button"
              className="w-full rounded-md px-2 py-2 text-left text-sm text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              onClick={() => {
                setOpen(false);
                onManage();
              }}
            >
              {NO_INFLUENCER_TAGS}
            </button>
          ) : (
            <ul className="max-h-60 overflow-auto" aria-label="Influencer tags">
              {list.map((t) => {
                const id = `${idBase}-${t.id}`;
                return (
                  <li key={t.id} className="flex items-center gap-2 rounded-md px-2 py-1 hover:bg-slate-50">
                    {pending.includes(t.id) ? (
                      <Spinner className="h-4 w-4 text-brand-600" />
                    ) : (
                      <input
                        type="checkbox"
                        id={id}
                        className="h-4 w-4 accent-brand-600"
                        checked={tags.includes(t.id)}
                        disabled={busy}
                        onChange={(e) => onToggle(t.id, e.target.checked)}
                      />
                    )}
                    <label htmlFor={id} className="flex min-w-0 flex-1 items-center gap-2 text-sm text-slate-700">
                      <span className="h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: t.color }} aria-hidden="true" />
                      <span className="truncate">{t.name}</span>
                    </label>
                  </li>
                );
              })}
              {!list.length ? <li className="px-2 py-2 text-sm text-slate-500">No matching tags.</li> : null}
            </ul>
          )}
          <NewTagForm busy={busy} onCreate={onCreate} />
          {all.length > 0 ? (
            <button
              type="button"
              className="mt-1 w-full rounded-md px-2 py-1.5 text-left text-sm text-slate-600 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              onClick={() => {
                setOpen(false);
                onManage();
              }}
            >
              Manage tags
            </button>
          ) : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** Inline creation: name required after trimming, at most 45 characters; the server's message on failure. */
function NewTagForm({ busy, onCreate }: { busy: boolean; onCreate: (name: string) => Promise<unknown> }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const invalid = !!tagNameError(name);
  async function submit() {
    if (invalid || saving || busy) return;
    setSaving(true);
    setError(null);
    try {
      await onCreate(name.trim());
      setName('');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  }
  return (
    <form
      className="mt-2 border-t border-slate-100 pt-2"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="flex gap-1.5">
        <input
          value={name}
          maxLength={TAG_NAME_MAX}
          onChange={(e) => setName(e.target.value)}
          placeholder="New tag"
          aria-label="New tag name"
          className="h-8 min-w-0 flex-1 rounded-md border border-slate-300 px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
        />
        <button
          type="submit"
          disabled={invalid || saving || busy}
          className="inline-flex h-8 items-center gap-1 rounded-md bg-brand-600 px-2.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {saving ? <Spinner className="h-3.5 w-3.5" /> : null}
          Create
        </button>
      </div>
      {error ? (
        <p role="alert" className="mt-1.5 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </form>
  );
}

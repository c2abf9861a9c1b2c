// Tag filter dropdown of the header: 'Post tags' and 'Influencer tags' tabs, search, ANY/ALL
// mode, Apply and a × that clears all tag filters.
import * as Popover from '@radix-ui/react-popover';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Tag } from '../../api/types';
import { IconChevronDown, IconSearch, IconTag, IconX } from '../../components/icons';
import type { TagFilterMode, TagFilters } from '../../state/query-state';
import { canApplyTags, NO_INFLUENCER_TAGS, showTagSearch, TAG_MODE_LABELS, visibleTags } from './tag-filter';

type TabKey = 'post' | 'influencer';

export interface TagSource {
  tags: Tag[];
  loading: boolean;
  error: boolean;
}

export function TagFilter({
  applied,
  postTags,
  influencerTags,
  canCreate,
  createHref,
  watchlistHref,
  showInfluencerTab = true,
  disabled,
  onApply,
  onClear,
  onOpen,
}: {
  applied: TagFilters;
  postTags: TagSource;
  influencerTags: TagSource;
  /** Owner or admin: offers 'Click here to create your first tag!'. */
  canCreate: boolean;
  createHref: string;
  /** Where influencer tags are created (the influencers page's Manage tags); without it the hint is plain text. */
  watchlistHref?: string;
  showInfluencerTab?: boolean;
  disabled?: boolean;
  onApply: (f: TagFilters) => void;
  onClear: () => void;
  onOpen?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<TabKey>('post');
  const [draft, setDraft] = useState<TagFilters>(applied);
  const [search, setSearch] = useState('');
  const appliedCount = applied.postTags.length + applied.influencerTags.length;

  function openChange(o: boolean) {
    setOpen(o);
    if (o) {
      setDraft(applied);
      setSearch('');
      onOpen?.();
    }
  }

  const source = tab === 'post' ? postTags : influencerTags;
  const selected = tab === 'post' ? draft.postTags : draft.influencerTags;
  const mode = tab === 'post' ? draft.postTagFilterMode : draft.influencerTagFilterMode;

  function toggle(id: number) {
    const next = selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id];
    setDraft(tab === 'post' ? { ...draft, postTags: next } : { ...draft, influencerTags: next });
  }
  function setMode(m: TagFilterMode) {
    setDraft(tab === 'post' ? { ...draft, postTagFilterMode: m } : { ...draft, influencerTagFilterMode: m });
  }

  return (
    <div className="inline-flex items-center">
      <Popover.Root open={open} onOpenChange={openChange}>
        <Popover.Trigger
          disabled={disabled}
          className={`inline-flex h-9 items-center gap-2 border border-slate-300 bg-white px-3 text-sm text-slate-700 shadow-sm hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-60 ${appliedCount ? 'rounded-l-md' : 'rounded-md'}`}
          aria-label={appliedCount ? `Tag filter (${appliedCount} applied)` : 'Tag filter'}
        >
          <IconTag size={16} />
          <span>Tags</span>
          {appliedCount ? <span className="rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white">{appliedCount}</span> : null}
          <IconChevronDown size={14} />
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content align="start" sideOffset={6} className="z-50 w-80 rounded-xl border border-slate-200 bg-white shadow-xl">
            <div role="tablist" aria-label="Tag type" className="flex border-b border-slate-200">
              {(['post', 'influencer'] as const)
                .filter((k) => k === 'post' || showInfluencerTab)
                .map((k) => (
                  <button
                    key={k}
                    role="tab"
                    type="button"
                    id={`tagtab-${k}`}
                    aria-selected={tab === k}
                    aria-controls={`tagpanel-${k}`}
                    onClick={() => {
                      setTab(k);
                      setSearch('');
                    }}
                    className={`flex-1 px-3 py-2.5 text-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 ${tab === k ? 'border-b-2 border-brand-600 font-semibold text-brand-700' : 'text-slate-600 hover:text-slate-900'}`}
                  >
                    {k === 'post' ? 'Post tags' : 'Influencer tags'}
                  </button>
                ))}
            </div>
            <div role="tabpanel" id={`tagpanel-${tab}`} aria-labelledby={`tagtab-${tab}`} className="p-3">
              <select
                aria-label="Tag filter mode"
                value={mode}
                onChange={(e) => setMode(e.target.value as TagFilterMode)}
                className="mb-2 h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <option value="any">{TAG_MODE_LABELS.any}</option>
                <option value="all">{TAG_MODE_LABELS.all}</option>
              </select>
              <TagList
                source={source}
                selected={selected}
                search={search}
                onSearch={setSearch}
                onToggle={toggle}
                empty={
                  tab === 'post' ? (
                    canCreate ? (
                      <Link to={createHref} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                        Click here to create your first tag!
                      </Link>
                    ) : (
                      <span>No tags yet.</span>
                    )
                  ) : watchlistHref ? (
                    <Link to={watchlistHref} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                      {NO_INFLUENCER_TAGS}
                    </Link>
                  ) : (
                    <span>{NO_INFLUENCER_TAGS}</span>
                  )
                }
              />
            </div>
            <div className="flex justify-end gap-2 border-t border-slate-100 p-3">
              <Popover.Close className="rounded-md px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600">
                Cancel
              </Popover.Close>
              <button
                type="button"
                disabled={!canApplyTags(applied, draft)}
                onClick={() => {
                  onApply(draft);
                  setOpen(false);
                }}
                className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50"
              >
                Apply
              </button>
            </div>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {appliedCount ? (
        <button
          type="button"
          onClick={onClear}
          aria-label="Clear tag filters"
          title="Clear tag filters"
          className="inline-flex h-9 items-center rounded-r-md border border-l-0 border-slate-300 bg-white px-2 text-slate-500 shadow-sm hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <IconX size={14} />
        </button>
      ) : null}
    </div>
  );
}

function TagList({
  source,
  selected,
  search,
  onSearch,
  onToggle,
  empty,
}: {
  source: TagSource;
  selected: number[];
  search: string;
  onSearch: (q: string) => void;
  onToggle: (id: number) => void;
  empty: React.ReactNode;
}) {
  if (source.loading) return <p className="py-4 text-center text-sm text-slate-500">Loading...</p>;
  if (source.error) return <p className="py-4 text-center text-sm text-slate-500">An unknown error occurred.</p>;
  if (!source.tags.length) return <p className="py-4 text-center text-sm text-slate-600">{empty}</p>;
  const shown = visibleTags(source.tags, search);
  return (
    <div>
      {showTagSearch(source.tags) ? (
        <label className="mb-2 flex items-center gap-2 rounded-md border border-slate-300 px-2 focus-within:outline-2 focus-within:outline-brand-600">
          <IconSearch size={14} className="text-slate-400" />
          <input
            type="search"
            value={search}
            onChange={(e) => onSearch(e.target.value)}
            placeholder="Search tags"
            aria-label="Search tags"
            className="h-8 w-full border-0 bg-transparent text-sm outline-none"
          />
        </label>
      ) : null}
      <ul className="max-h-56 overflow-y-auto">
        {shown.map((t) => (
          <li key={t.id}>
            <label className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-50">
              <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={selected.includes(t.id)} onChange={() => onToggle(t.id)} />
              <span className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: t.color }} aria-hidden="true" />
              <span className="truncate">{t.name}</span>
            </label>
          </li>
        ))}
        {!shown.length ? <li className="px-2 py-3 text-center text-sm text-slate-500">No matching tags.</li> : null}
      </ul>
    </div>
  );
}

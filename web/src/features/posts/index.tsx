// Posts page: sub-header filters bound to the URL, the list (table or card view), paging, the
// detail side view, and the work owners and administrators do on posts (tags, sentiment, bulk
// delete and ignore with undo, add by address), export and embed.
import * as Popover from '@radix-ui/react-popover';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTags } from '../../api/queries/trackers';
import {
  exportUrl,
  useAddPosts,
  useDeletePosts,
  useEditSentiment,
  useIgnoreUsers,
  usePosts,
  useTagMutations,
  useTagPosts,
  type PostItem,
  type SentimentLevel,
} from '../../api/queries/posts';
import type { Query } from '../../api/client';
import type { PlatformCode, Tag } from '../../api/types';
import { Button } from '../../components/Button';
import { EmptyState, PREVIEW_BODY, PREVIEW_TITLE } from '../../components/EmptyState';
import { IconChevronDown, IconCode, IconGrid, IconList, IconPlus, IconRefresh } from '../../components/icons';
import { controlClass, SubHeader } from '../../components/Panel';
import { SearchInput } from '../../components/SearchInput';
import { LoadingState, Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/errors';
import {
  removeTag,
  resetPostFilters,
  SENTIMENT_BUCKETS,
  setExcludeRT,
  setIgStoryOnly,
  setPage,
  setSearch,
  setSort,
  setView,
  toggleSentiment,
  type SentimentBucket,
} from '../../state/query-state';
import { includesToday } from '../../state/date-range';
import { useShell } from '../shell/context';
import {
  authorKey,
  deletedMessage,
  ignoredMessage,
  matchesSentiment,
  matchesTagFilter,
  NEW_POSTS_NOTICE_MS,
  pager,
  POST_HIDE_DELAY_MS,
  POSTS_FETCH_ERROR,
  POSTS_PAGE_SIZE,
  totalLabel,
  UNDO_NOTICE_MS,
} from './format';
import { PostDetail } from './PostDetail';
import { PostCards, PostTable } from './PostList';
import { AddPostsModal, BulkDeleteModal, Notice, type NoticeState } from './PostModals';
import { EmbedDialog } from '../shell/EmbedDialog';
import { embedPageLabel } from '../shell/embed';
import { DeleteTagModal, TagMenu, TagModal } from './TagControls';
import { usePdfExport } from '../exports/use-pdf-export';
import { useSheetsExport } from '../exports/use-sheets-export';
import { SHEETS_LABEL, SHEETS_NOT_SET_UP_TEXT } from '../exports/export-route';
import { useExportCapabilities } from '../../api/queries/exports';

const LOCATION_PLATFORMS: PlatformCode[] = ['twt', 'fb', 'news', 'blogs', 'forums'];

export function postsSearchPlaceholder(selected: PlatformCode[]): string {
  return selected.some((p) => LOCATION_PLATFORMS.includes(p)) ? 'Search Posts, Users, Locations' : 'Search Posts, Users';
}

export const SENTIMENT_LABELS: Record<SentimentBucket, string> = {
  positive: 'Positive',
  slight_positive: 'Slightly Positive',
  neutral: 'Neutral',
  slight_negative: 'Slightly Negative',
  negative: 'Negative',
};

export const SORT_OPTIONS: { value: string; label: string }[] = [
  { value: 'created_at;desc', label: 'Newest first' },
  { value: 'created_at;asc', label: 'Oldest first' },
  { value: 'engagement;desc', label: 'Most engagement' },
  { value: 'reach;desc', label: 'Most reach' },
  { value: 'engagement_rate;desc', label: 'Highest engagement rate' },
  { value: 'impressions;desc', label: 'Most impressions' },
  { value: 'sentiment;desc', label: 'Most positive' },
  { value: 'sentiment;asc', label: 'Most negative' },
  { value: 'user;asc', label: 'User (A–Z)' },
];

let noticeSeq = 0;

export default function PostsPage() {
  const { tracker, query, update, platforms, access, filters, now, range } = useShell();
  const locked = tracker.isPreviewMode;
  const onlyYoutube = platforms.length === 1 && platforms[0] === 'yt';
  const sort = query.sort ? `${query.sort.type};${query.sort.direction}` : 'created_at;desc';
  const apiQuery = useMemo(
    () => ({
      ...filters,
      page: query.page,
      perPage: POSTS_PAGE_SIZE,
      sort,
      search: query.search || undefined,
      sentiment: query.sentiment.length ? query.sentiment.join(',') : undefined,
      excludeRT: query.excludeRT && platforms.includes('twt') ? 1 : undefined,
      igStoryOnly: query.igStoryOnly && platforms.includes('ig') ? 1 : undefined,
    }),
    [filters, query.page, sort, query.search, query.sentiment, query.excludeRT, query.igStoryOnly, platforms],
  );
  // The list as it is searched, filtered and sorted, without its paging: what CSV and PDF export.
  const listView = useMemo(() => ({ ...apiQuery, page: undefined, perPage: undefined }), [apiQuery]);
  // The list refreshes in place every 60 s while new posts can arrive in the range.
  const live = tracker.status === 'running' && includesToday(range, now);
  const posts = usePosts(tracker.hash, apiQuery, !locked, live);
  const data = posts.data;
  const canManage = !!data?.canManage && !access.embed && !access.demo;
  const canExport = !!data?.canExport && !access.embed;
  const tagsQuery = useTags(tracker.hash, access.canManage);
  const allTags: Tag[] = tagsQuery.data?.tags ?? [];

  // Local state over the fetched page: hidden posts, tag and sentiment changes, selection.
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [tagOverride, setTagOverride] = useState<Record<string, number[]>>({});
  const [sentimentOverride, setSentimentOverride] = useState<Record<string, SentimentLevel>>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [openKey, setOpenKey] = useState<string | null>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [pendingTags, setPendingTags] = useState<Record<string, number[]>>({});
  const [tagModal, setTagModal] = useState<{ tag: Tag | null } | null>(null);
  const [deleteTag, setDeleteTag] = useState<Tag | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  const [embedOpen, setEmbedOpen] = useState(false);

  const show = useCallback((text: string, tone: NoticeState['tone'], ms: number, undo?: () => void) => {
    noticeSeq += 1;
    setNotice({ id: noticeSeq, text, tone, ms, undo });
  }, []);

  // A new view (filters, sort, page) starts afresh at the top of the list.
  const viewKey = JSON.stringify(apiQuery);
  const firstView = useRef(true);
  useEffect(() => {
    setHidden(new Set());
    setTagOverride({});
    setSentimentOverride({});
    setSelected(new Set());
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    window.scrollTo?.({ top: 0 });
    document.querySelector('main')?.scrollTo?.({ top: 0 });
  }, [viewKey]);

  // The 'new posts' notice: once, for the owner, when the first page has posts new since the last visit.
  const newShown = useRef(false);
  useEffect(() => {
    if (newShown.current || !data || !access.isOwner) return;
    newShown.current = true;
    const fresh = data.posts.filter((p) => p.isNew).length;
    if (fresh > 0 && data.lastVisited) show(`${fresh} new post(s) since your last visit`, 'info', NEW_POSTS_NOTICE_MS);
  }, [data, access.isOwner, show]);

  const items: PostItem[] = useMemo(
    () =>
      (data?.posts ?? [])
        .filter((p) => !hidden.has(p.key))
        .map((p) => ({
          ...p,
          tags: tagOverride[p.key] ?? p.tags,
          sentimentBucket: sentimentOverride[p.key] ?? p.sentimentBucket,
        })),
    [data, hidden, tagOverride, sentimentOverride],
  );
  // Hidden posts still in the fetched page lower the count (a refetch no longer has them).
  const hiddenShown = (data?.posts ?? []).filter((p) => hidden.has(p.key)).length;
  const total = data ? Math.max(0, data.total - hiddenShown) : 0;
  const { pages, morePages } = pager(data?.total ?? 0, !!data?.totalCapped, data?.posts.length ?? 0, query.page, POSTS_PAGE_SIZE);
  const openItem = items.find((i) => i.key === openKey) ?? null;

  const hide = (keys: string[]) => setHidden((h) => new Set([...h, ...keys]));
  const unhide = (keys: string[]) =>
    setHidden((h) => {
      const n = new Set(h);
      keys.forEach((k) => n.delete(k));
      return n;
    });

  // ---- tags ----
  const tagPosts = useTagPosts(tracker.hash);
  const tagMut = useTagMutations(tracker.hash);
  const tagBusy = Object.values(pendingTags).some((l) => l.length > 0) || tagMut.remove.isPending;
  function toggleTag(item: PostItem, tagId: number, on: boolean) {
    setPendingTags((p) => ({ ...p, [item.key]: [...(p[item.key] ?? []), tagId] }));
    const done = () => setPendingTags((p) => ({ ...p, [item.key]: (p[item.key] ?? []).filter((t) => t !== tagId) }));
    tagPosts.mutate(
      { posts: [item.key], add: on ? [tagId] : [], remove: on ? [] : [tagId] },
      {
        onSuccess: () => {
          const next = on ? [...item.tags.filter((t) => t !== tagId), tagId] : item.tags.filter((t) => t !== tagId);
          setTagOverride((o) => ({ ...o, [item.key]: next }));
          if (!matchesTagFilter(next, query.postTags, query.postTagFilterMode)) hide([item.key]);
          done();
        },
        onError: (e) => {
          show(errorMessage(e), 'error', 5000);
          done();
        },
      },
    );
  }
  function tagSelected(tagId: number) {
    const keys = [...selected];
    if (!keys.length) return;
    tagPosts.mutate(
      { posts: keys, add: [tagId] },
      {
        onSuccess: () => {
          setTagOverride((o) => {
            const n = { ...o };
            for (const i of items.filter((x) => keys.includes(x.key))) n[i.key] = [...new Set([...i.tags, tagId])];
            return n;
          });
        },
        onError: (e) => show(errorMessage(e), 'error', 5000),
      },
    );
  }

  // ---- sentiment ----
  const editSentiment = useEditSentiment(tracker.hash);
  function changeSentiment(item: PostItem, level: SentimentLevel) {
    editSentiment.mutate(
      { post: item.key, sentiment: level },
      {
        onSuccess: () => {
          setSentimentOverride((o) => ({ ...o, [item.key]: level }));
          if (!matchesSentiment(level, query.sentiment)) {
            setTimeout(() => {
              hide([item.key]);
              setOpenKey((k) => (k === item.key ? null : k));
            }, POST_HIDE_DELAY_MS);
          }
        },
        onError: (e) => show(errorMessage(e), 'error', 5000),
      },
    );
  }

  // ---- bulk delete and ignore ----
  const del = useDeletePosts(tracker.hash);
  function deleteSelected() {
    const keys = [...selected];
    if (!keys.length) return;
    hide(keys);
    setSelected(new Set());
    del.remove.mutate(keys, {
      onSuccess: (r) =>
        show(deletedMessage(r.count), 'ok', UNDO_NOTICE_MS, () => {
          unhide(keys);
          del.undo.mutate(keys);
        }),
      onError: () => {
        unhide(keys);
        show('Sorry, an error occurred please try again.', 'error', 5000);
      },
    });
  }
  const ign = useIgnoreUsers(tracker.hash);
  function ignore(item: PostItem) {
    const user = authorKey(item);
    if (!user) return;
    // The side view closes so the notice with its Undo can be reached.
    setOpenKey(null);
    ign.ignore.mutate([user], {
      onSuccess: (r) => show(ignoredMessage(r.count), 'ok', UNDO_NOTICE_MS, () => ign.undo.mutate([user])),
      onError: (e) => show(errorMessage(e), 'error', 5000),
    });
  }
  const addPosts = useAddPosts(tracker.hash);

  const tagMenu = (item: PostItem) => (
    <TagMenu
      postKey={item.key}
      tags={item.tags}
      all={allTags}
      pending={pendingTags[item.key] ?? []}
      busy={tagBusy}
      onToggle={(t, on) => toggleTag(item, t, on)}
      onCreate={() => setTagModal({ tag: null })}
      onEdit={(t) => setTagModal({ tag: t })}
    />
  );

  const listProps = {
    items,
    now,
    tags: allTags,
    canManage,
    selected,
    onSelect: (key: string, on: boolean) =>
      setSelected((s) => {
        const n = new Set(s);
        if (on) n.add(key);
        else n.delete(key);
        return n;
      }),
    onSelectAll: (on: boolean) => setSelected(on ? new Set(items.map((i) => i.key)) : new Set()),
    onOpen: (i: PostItem) => setOpenKey(i.key),
    tagMenu,
    tagsOf: (i: PostItem) => i.tags,
  };

  return (
    <div>
      <SubHeader label="Post filters">
        <SearchInput
          value={query.search}
          onChange={(v) => update(setSearch(v), { replace: true })}
          placeholder={postsSearchPlaceholder(platforms)}
          disabled={locked}
        />
        {!onlyYoutube ? <SentimentDropdown disabled={locked} /> : null}
        {platforms.includes('twt') ? (
          <label className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={query.excludeRT} disabled={locked} onChange={(e) => update(setExcludeRT(e.target.checked))} />
            Exclude Retweets
          </label>
        ) : null}
        {platforms.includes('ig') ? (
          <label className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={query.igStoryOnly} disabled={locked} onChange={(e) => update(setIgStoryOnly(e.target.checked))} />
            Filter by Stories
          </label>
        ) : null}
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          <span className="sr-only">Sort posts</span>
          <select
            aria-label="Sort posts"
            className={`${controlClass} w-auto pr-8`}
            value={sort}
            disabled={locked}
            onChange={(e) => {
              const [type, direction] = e.target.value.split(';');
              update(setSort({ type, direction: direction === 'asc' ? 'asc' : 'desc' }));
            }}
          >
            {SORT_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        {access.canManage && !access.embed ? (
          <button type="button" className={controlClass} disabled={locked} onClick={() => setTagModal({ tag: null })}>
            <IconPlus size={14} />
            New tag
          </button>
        ) : null}
        <button type="button" className={controlClass} disabled={locked} onClick={() => update(resetPostFilters)}>
          <IconRefresh size={14} />
          Reset
        </button>
        <div className="ml-auto flex items-center gap-2">
          {access.canEmbed ? (
            <button type="button" className={controlClass} disabled={locked} onClick={() => setEmbedOpen(true)} aria-haspopup="dialog">
              <IconCode size={14} />
              Embed
            </button>
          ) : null}
          {canExport ? (
            <>
              {canManage ? (
                <button type="button" className={controlClass} disabled={locked} onClick={() => setAddOpen(true)}>
                  Add Posts
                </button>
              ) : null}
              <ExportMenu hash={tracker.hash} view={listView} shareHash={access.shared ? query.shareHash : null} disabled={locked} />
            </>
          ) : null}
          <div className="inline-flex overflow-hidden rounded-md border border-slate-300 shadow-sm" role="group" aria-label="Posts view">
            <button
              type="button"
              title="Table view for posts"
              aria-label="Table view for posts"
              aria-pressed={query.view === 'list'}
              disabled={locked}
              onClick={() => update(setView('list'))}
              className={`flex h-9 w-10 items-center justify-center focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 ${query.view === 'list' ? 'bg-brand-50 text-brand-700' : 'bg-white text-slate-500 hover:text-slate-800'}`}
            >
              <IconList size={16} />
            </button>
            <button
              type="button"
              title="Card view for posts"
              aria-label="Card view for posts"
              aria-pressed={query.view === 'card'}
              disabled={locked}
              onClick={() => update(setView('card'))}
              className={`flex h-9 w-10 items-center justify-center border-l border-slate-300 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 ${query.view === 'card' ? 'bg-brand-50 text-brand-700' : 'bg-white text-slate-500 hover:text-slate-800'}`}
            >
              <IconGrid size={16} />
            </button>
          </div>
        </div>
      </SubHeader>
      <div className="p-6">
        {canManage && selected.size > 0 ? (
          <div className="mb-3 flex flex-wrap items-center gap-3 rounded-lg border border-brand-200 bg-brand-50 px-4 py-2 text-sm" role="region" aria-label="Selected posts">
            <span className="font-medium text-slate-800">{selected.size} selected</span>
            <Button size="sm" variant="danger" onClick={() => setConfirmDelete(true)}>
              Delete
            </Button>
            {allTags.length ? (
              <label className="inline-flex items-center gap-2">
                <span>Tag as</span>
                <select
                  aria-label="Tag selected posts"
                  className="h-8 rounded-md border border-slate-300 bg-white px-2"
                  value=""
                  disabled={tagPosts.isPending}
                  onChange={(e) => e.target.value && tagSelected(Number(e.target.value))}
                >
                  <option value="">Choose a tag</option>
                  {allTags.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <button type="button" className="ml-auto text-slate-600 underline" onClick={() => setSelected(new Set())}>
              Clear selection
            </button>
          </div>
        ) : null}
        <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
          {locked ? (
            <EmptyState graphic="Loading" title={PREVIEW_TITLE} body={PREVIEW_BODY} />
          ) : posts.isError ? (
            <div role="alert" className="p-8 text-center text-sm text-red-700">
              {posts.error instanceof Error && posts.error.message && !posts.error.message.startsWith('An unknown') ? posts.error.message : POSTS_FETCH_ERROR}
              <div className="mt-3">
                <Button variant="secondary" size="sm" onClick={() => void posts.refetch()}>
                  Try again
                </Button>
              </div>
            </div>
          ) : !data ? (
            <LoadingState label="Loading posts…" />
          ) : items.length === 0 ? (
            <EmptyState graphic="BullhornHashtagSpeechBubble" />
          ) : (
            // Dimmed only while another view loads; the 60 s refresh swaps rows in place.
            <div aria-busy={posts.isPlaceholderData} className={posts.isPlaceholderData ? 'opacity-70 transition-opacity' : ''}>
              <div className="flex items-center justify-between border-b border-slate-100 px-4 py-2 text-sm text-slate-600">
                <span data-testid="posts-total">{totalLabel(total, data.totalCapped)}</span>
              </div>
              {query.view === 'card' ? <PostCards {...listProps} /> : <PostTable {...listProps} />}
            </div>
          )}
        </div>
        {data && (pages > 1 || morePages) ? (
          <nav className="mt-4 flex items-center justify-center gap-3 text-sm" aria-label="Pages">
            <Button variant="secondary" size="sm" disabled={query.page <= 1} onClick={() => update(setPage(query.page - 1))}>
              Previous
            </Button>
            <span data-testid="page-of">
              Page {query.page} of {pages}
              {morePages ? '+' : ''}
            </span>
            <Button
              variant="secondary"
              size="sm"
              disabled={query.page >= pages && !morePages}
              onClick={() => update(setPage(query.page + 1))}
            >
              Next
            </Button>
          </nav>
        ) : null}
      </div>
      <PostDetail
        item={openItem}
        now={now}
        canManage={canManage}
        onClose={() => setOpenKey(null)}
        onSentiment={changeSentiment}
        onIgnore={ignore}
        sentimentBusy={editSentiment.isPending}
      />
      {tagModal ? (
        <TagModal
          key={tagModal.tag?.id ?? 'new'}
          open
          onOpenChange={(o) => !o && setTagModal(null)}
          tag={tagModal.tag}
          onSave={async (v) => {
            if (tagModal.tag) return tagMut.edit.mutateAsync({ id: tagModal.tag.id, ...v });
            const tag = await tagMut.create.mutateAsync(v);
            // A new tag goes onto the selected posts, if any.
            if (selected.size) tagSelected(tag.id);
            return tag;
          }}
          onDelete={(t) => {
            setTagModal(null);
            setDeleteTag(t);
          }}
        />
      ) : null}
      <DeleteTagModal
        tag={deleteTag}
        onOpenChange={(o) => !o && setDeleteTag(null)}
        onConfirm={async (t) => {
          await tagMut.remove.mutateAsync(t.id);
          setTagOverride({});
          update(removeTag(t.id));
          void posts.refetch();
        }}
      />
      <BulkDeleteModal count={selected.size} open={confirmDelete} onOpenChange={setConfirmDelete} onConfirm={deleteSelected} />
      <AddPostsModal open={addOpen} onOpenChange={setAddOpen} onSubmit={async (urls) => (await addPosts.mutateAsync(urls)).results} />
      {embedOpen ? <EmbedDialog open onOpenChange={setEmbedOpen} hash={tracker.hash} target={{ page: 'posts' }} label={embedPageLabel('posts')} /> : null}
      <Notice key={notice?.id} notice={notice} onDone={() => setNotice(null)} />
    </div>
  );
}

/**
 * The posts page's Export menu (posts spec: "Google Sheets, CSV, PDF"): Google Sheets (a new
 * spreadsheet of the list as it is, made as a job: its progress on the button, then the notice
 * with 'Open spreadsheet'; disabled while no administrator has set it up), CSV (a download of the
 * list as it is) and PDF (a report of it, made as a job: its progress, then 'View PDF').
 */
function ExportMenu({ hash, view, shareHash, disabled }: { hash: string; view: Query; shareHash: string | null; disabled: boolean }) {
  const { access } = useShell();
  const [open, setOpen] = useState(false);
  const resume = access.isLoggedIn && !shareHash && !disabled;
  const pdf = usePdfExport({ hash, source: 'posts', query: view, shareHash, resume });
  const sheets = useSheetsExport({ hash, source: 'posts', query: view, shareHash, resume });
  const capabilities = useExportCapabilities(!disabled);
  const sheetsOff = capabilities.data?.sheets === false;
  const busy = pdf.busy || sheets.busy;
  const progress = [sheets.busy ? `${SHEETS_LABEL} ${sheets.percent}%` : null, pdf.busy ? `PDF ${pdf.percent}%` : null].filter(Boolean).join(' · ');
  const making = [sheets.busy ? 'spreadsheet' : null, pdf.busy ? 'PDF' : null].filter(Boolean).join(' and ');
  const item = 'flex w-full items-center justify-between gap-3 rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-50';
  return (
    <>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger
          className={`${controlClass} aria-busy:cursor-progress aria-busy:border-brand-200 aria-busy:bg-brand-50 aria-busy:text-brand-700`}
          disabled={disabled}
          aria-busy={busy || undefined}
          data-pdf-loading={pdf.busy || undefined}
          data-sheets-loading={sheets.busy || undefined}
          data-testid="posts-export-menu"
        >
          {busy ? (
            <>
              <Spinner className="h-4 w-4" />
              <span className="tabular-nums">{progress}</span>
            </>
          ) : (
            <>
              Export
              <IconChevronDown size={14} />
            </>
          )}
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content align="end" sideOffset={6} className="z-50 w-60 rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
            <button
              type="button"
              className={`${item} disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent`}
              disabled={sheets.busy || sheetsOff}
              title={sheetsOff ? SHEETS_NOT_SET_UP_TEXT : undefined}
              onClick={() => {
                setOpen(false);
                void sheets.start();
              }}
              data-testid="export-sheets"
            >
              <span className="inline-flex items-center gap-2">{SHEETS_LABEL}</span>
              {sheets.busy ? (
                <span className="inline-flex items-center gap-1.5 text-xs font-medium text-brand-700">
                  <Spinner className="h-3 w-3" />
                  <span className="tabular-nums">{sheets.percent}%</span>
                </span>
              ) : sheetsOff ? (
                <span className="text-xs text-slate-400">Not set up</span>
              ) : null}
            </button>
            <a href={exportUrl(hash, view)} download className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-50" data-testid="export-csv">
              CSV
            </a>
            <button
              type="button"
              className={`${item} disabled:cursor-progress disabled:hover:bg-transparent`}
              disabled={pdf.busy}
              onClick={() => {
                setOpen(false);
                pdf.choose();
              }}
              data-testid="export-pdf"
            >
              PDF
              {pdf.busy ? (
                <span className="inline-flex items-center gap-1.5 text-xs font-medium text-brand-700">
                  <Spinner className="h-3 w-3" />
                  <span className="tabular-nums">{pdf.percent}%</span>
                </span>
              ) : pdf.ready ? (
                <span className="text-xs font-medium text-emerald-700">Ready to view</span>
              ) : null}
            </button>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <span role="status" className="sr-only">
        {making ? `Preparing your ${making}…` : ''}
      </span>
      <Notice key={`sheets-${sheets.notice?.id}`} notice={sheets.notice} onDone={sheets.clearNotice} />
      <Notice key={`pdf-${pdf.notice?.id}`} notice={pdf.notice} onDone={pdf.clearNotice} />
    </>
  );
}

function SentimentDropdown({ disabled }: { disabled: boolean }) {
  const { query, update } = useShell();
  const count = query.sentiment.length;
  return (
    <Popover.Root>
      <Popover.Trigger className={controlClass} disabled={disabled} aria-label={count ? `Sentiment (${count} selected)` : 'Sentiment'}>
        Sentiment
        {count ? <span className="rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white">{count}</span> : null}
        <IconChevronDown size={14} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="start" sideOffset={6} className="z-50 w-56 rounded-lg border border-slate-200 bg-white p-2 shadow-lg">
          <fieldset>
            <legend className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Sentiment</legend>
            {SENTIMENT_BUCKETS.map((b) => (
              <label key={b} className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-50">
                <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={query.sentiment.includes(b)} onChange={() => update(toggleSentiment(b))} />
                {SENTIMENT_LABELS[b]}
              </label>
            ))}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

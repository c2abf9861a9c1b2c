// Sentiment page: the score with its five buckets, the buckets over time, the significant
// positive and negative keywords, and the posts of the range in a sortable, paged table.
// Dragging across the chart narrows every view to a period (kept on the page, removable from a
// chip); a keyword or a bucket narrows the table (kept in the URL). Owners and administrators
// edit the tracker's sentiment keywords; after "Save and Reanalyze" the page shows the progress
// and refetches every view when the re-analysis is done.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useEditSentiment, useIgnoreUsers, postsKeys, type PostItem, type SentimentLevel } from '../../api/queries/posts';
import { sentimentKeys, useSentimentKeywords, useSentimentOverview, useSentimentPosts } from '../../api/queries/sentiment';
import { Button } from '../../components/Button';
import { EmptyState, PREVIEW_BODY, PREVIEW_TITLE } from '../../components/EmptyState';
import { IconX } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { Panel, SubHeader } from '../../components/Panel';
import { LoadingState, Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/errors';
import { includesToday } from '../../state/date-range';
import { setPage, setSentiment, setSort, type SentimentBucket } from '../../state/query-state';
import { SENTIMENT_LABELS } from '../posts';
import { authorKey, ignoredMessage, pager, UNDO_NOTICE_MS } from '../posts/format';
import { PostDetail } from '../posts/PostDetail';
import { Notice, type NoticeState } from '../posts/PostModals';
import { useShell } from '../shell/context';
import { EditKeywordsModal } from './EditKeywordsModal';
import { KeywordLists } from './KeywordLists';
import { ScoreBody, ScoreSkeleton } from './ScorePanel';
import { SentimentChart } from './SentimentChart';
import { PostsTableSkeleton, SentimentPostsTable } from './SentimentPostsTable';
import {
  clearTableFilter,
  formatSelection,
  GROUPING_TEXT,
  keywordUpdater,
  NO_PLATFORM_BODY,
  NO_PLATFORM_REASON,
  NO_PLATFORM_TITLE,
  postsQuery,
  rangeText,
  reanalysisRunning,
  reanalysisText,
  SENTIMENT_POSTS_PAGE_SIZE,
  tableFilter,
  tableFilterText,
  tableSort,
  toggleColumn,
  withSelection,
  type Selection,
} from './sentiment-data';

/** Views refresh this often while the tracker runs and the range includes today. */
const LIVE_REFRESH_MS = 60_000;

let noticeSeq = 0;

export default function SentimentPage() {
  const { tracker } = useShell();
  if (tracker.isPreviewMode) {
    return (
      <div className="p-6">
        <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
          <EmptyState graphic="Loading" title={PREVIEW_TITLE} body={PREVIEW_BODY} />
        </div>
      </div>
    );
  }
  return <Sentiment />;
}

function Sentiment() {
  const { tracker, query, update, access, filters, now, range } = useShell();
  const hash = tracker.hash;
  const qc = useQueryClient();

  // ---- the period picked on the chart: kept for the header filters it was picked under ----
  const filtersKey = JSON.stringify(filters);
  const [picked, setPicked] = useState<{ selection: Selection; under: string } | null>(null);
  const selection = picked && picked.under === filtersKey ? picked.selection : null;
  const select = useCallback(
    (s: Selection | null) => {
      setPicked(s ? { selection: s, under: filtersKey } : null);
      if (query.page !== 1) update(setPage(1), { replace: true });
    },
    [filtersKey, query.page, update],
  );
  // Once the header's filters change, the period picked under the old ones is dropped for good.
  useEffect(() => setPicked((p) => (p && p.under !== filtersKey ? null : p)), [filtersKey]);
  const view = useMemo(() => withSelection(filters, selection), [filters, selection]);

  // ---- the three calls ----
  const live = tracker.status === 'running' && includesToday(range, now) && !selection;
  const opts = { refetchInterval: live ? LIVE_REFRESH_MS : (false as const) };
  const overview = useSentimentOverview(hash, view, opts);
  const keywords = useSentimentKeywords(hash, view, opts);
  const sort = useMemo(() => tableSort(query.sort), [query.sort]);
  const filter = useMemo(() => tableFilter({ search: query.search, sentiment: query.sentiment }), [query.search, query.sentiment]);
  const postsQ = useMemo(() => postsQuery(view, { page: query.page, sort, filter }), [view, query.page, sort, filter]);
  const posts = useSentimentPosts(hash, postsQ, opts);
  const noPlatform = overview.data?.reason === NO_PLATFORM_REASON || keywords.data?.reason === NO_PLATFORM_REASON;

  // ---- notices ----
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const show = useCallback((text: string, tone: NoticeState['tone'], ms: number, undo?: () => void) => {
    noticeSeq += 1;
    setNotice({ id: noticeSeq, text, tone, ms, undo });
  }, []);

  // ---- sentiment keywords and re-analysis ----
  const [editing, setEditing] = useState(false);
  const canEditKeywords = access.canManage && !access.demo && !access.embed;
  const running = reanalysisRunning(tracker.reanalysis);
  // From "Save and Reanalyze" until the views are refetched after the re-analysis.
  const [awaiting, setAwaiting] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const sawRun = useRef(running);
  const refreshAll = useCallback(
    () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: sentimentKeys.all(hash) }),
        qc.invalidateQueries({ queryKey: postsKeys.all(hash) }),
      ]),
    [qc, hash],
  );
  useEffect(() => {
    if (running) {
      sawRun.current = true;
      return;
    }
    if (!awaiting && !sawRun.current) return;
    sawRun.current = false;
    let current = true;
    setRefreshing(true);
    refreshAll().finally(() => {
      if (!current) return;
      setRefreshing(false);
      setAwaiting(false);
      show('Re-analysis done: the page shows the updated sentiment.', 'ok', 5000);
    });
    return () => {
      current = false;
    };
  }, [running, awaiting, refreshAll, show]);
  const progress = running || awaiting || refreshing;

  // ---- the posts table ----
  const card = useRef<HTMLDivElement>(null);
  const goTo = (page: number) => {
    update(setPage(page));
    card.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  };
  const items = posts.data?.posts ?? [];
  const { pages, morePages } = pager(posts.data?.total ?? 0, !!posts.data?.totalCapped, items.length, query.page, SENTIMENT_POSTS_PAGE_SIZE);
  const [openKey, setOpenKey] = useState<string | null>(null);
  const openItem = items.find((i) => i.key === openKey) ?? null;
  const canManagePosts = !!posts.data?.canManage && !access.embed && !access.demo;
  const editSentiment = useEditSentiment(hash);
  const changeSentiment = (item: PostItem, level: SentimentLevel) =>
    editSentiment.mutate({ post: item.key, sentiment: level }, { onSuccess: () => void refreshAll(), onError: (e) => show(errorMessage(e), 'error', 5000) });
  const ign = useIgnoreUsers(hash);
  const ignore = (item: PostItem) => {
    const user = authorKey(item);
    if (!user) return;
    setOpenKey(null);
    ign.ignore.mutate([user], {
      onSuccess: (r) => show(ignoredMessage(r.count), 'ok', UNDO_NOTICE_MS, () => ign.undo.mutate([user])),
      onError: (e) => show(errorMessage(e), 'error', 5000),
    });
  };
  const activeBucket = filter && !filter.search && filter.buckets.length === 1 ? filter.buckets[0] : null;
  const pickBucket = (b: SentimentBucket) => update(activeBucket === b ? clearTableFilter : (s) => ({ ...setSentiment([b])(s), search: '' }));

  const data = overview.data;
  return (
    <div>
      <SubHeader label="Sentiment filters">
        {selection ? (
          <Chip testId="selection-chip" removeLabel="Remove the selected period" onRemove={() => select(null)}>
            Selected: {formatSelection(selection, now)}
          </Chip>
        ) : (
          <span className="text-sm text-slate-500">Drag across Sentiment Over Time to focus every view on a period.</span>
        )}
        <div className="ml-auto flex flex-wrap items-center gap-3">
          {progress ? (
            <span role="status" className="inline-flex items-center gap-2 text-sm text-sky-800" data-testid="sentiment-reanalysis">
              <Spinner className="h-4 w-4" />
              {reanalysisText(running ? tracker.reanalysis : null)}
            </span>
          ) : null}
          {canEditKeywords ? (
            <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
              Edit Sentiment Keywords
            </Button>
          ) : null}
        </div>
      </SubHeader>
      {noPlatform ? (
        <div className="p-6">
          <div className="rounded-xl border border-slate-200 bg-white shadow-sm" data-testid="no-platform">
            <EmptyState graphic="PlatformsWithArrowUp" title={NO_PLATFORM_TITLE} body={NO_PLATFORM_BODY} />
          </div>
        </div>
      ) : (
        <div className="grid grid-cols-12 gap-4 p-6" aria-busy={progress || overview.isFetching}>
          <Panel title="Sentiment Score" id="sentimentScore" className="col-span-12 lg:col-span-4">
            <Body busy={overview.isPlaceholderData || progress}>
              {overview.isError && !data ? (
                <LoadError error={overview.error} onRetry={() => void overview.refetch()} compact />
              ) : !data ? (
                <ScoreSkeleton />
              ) : (
                <ScoreBody data={data} labels={SENTIMENT_LABELS} activeBucket={activeBucket} onBucket={pickBucket} />
              )}
            </Body>
          </Panel>
          <Panel
            title="Sentiment Over Time"
            id="sentimentTime"
            className="col-span-12 lg:col-span-8"
            actions={data && data.total > 0 ? <span className="text-xs text-slate-500" data-testid="grouping">{GROUPING_TEXT[data.grouping] ?? ''}</span> : null}
          >
            <Body busy={overview.isPlaceholderData || progress}>
              {overview.isError && !data ? (
                <LoadError error={overview.error} onRetry={() => void overview.refetch()} compact />
              ) : !data ? (
                <EmptyState graphic="Loading" title="Loading..." body="" compact />
              ) : data.total === 0 ? (
                <EmptyState graphic="PlatformsWithArrowUp" compact />
              ) : (
                <SentimentChart data={data} labels={SENTIMENT_LABELS} onSelect={select} />
              )}
            </Body>
          </Panel>
          <Panel title="Significant Keywords" id="significantKeywords" className="col-span-12">
            <Body busy={keywords.isPlaceholderData || progress}>
              {keywords.isError && !keywords.data ? (
                <LoadError error={keywords.error} onRetry={() => void keywords.refetch()} compact />
              ) : !keywords.data ? (
                <EmptyState graphic="Loading" title="Loading..." body="" compact />
              ) : keywords.data.posts === 0 ? (
                <EmptyState graphic="BullhornEllipsesWithHashtags" compact />
              ) : (
                <KeywordLists
                  data={keywords.data}
                  active={filter?.side && filter.search ? { text: filter.search, side: filter.side } : null}
                  onPick={(k, side) => update(keywordUpdater(k.text, side))}
                />
              )}
            </Body>
          </Panel>
          <div ref={card} className="col-span-12 scroll-mt-4">
            <Panel
              title="Posts"
              id="sentimentPosts"
              actions={
                filter ? (
                  <Chip testId="table-filter-chip" removeLabel="Clear the posts filter" onRemove={() => update(clearTableFilter)}>
                    {tableFilterText(filter, SENTIMENT_LABELS)}
                  </Chip>
                ) : null
              }
            >
              <Body busy={posts.isPlaceholderData || progress}>
                {posts.isError && !posts.data ? (
                  <LoadError error={posts.error} onRetry={() => void posts.refetch()} compact />
                ) : !posts.data ? (
                  <>
                    <PostsTableSkeleton />
                    <LoadingState label="Loading posts…" />
                  </>
                ) : items.length === 0 ? (
                  posts.data.total > 0 && query.page > 1 ? (
                    <div className="p-10 text-center text-sm text-slate-600">
                      <p>This page is past the end of the list.</p>
                      <Button className="mt-3" variant="secondary" size="sm" onClick={() => goTo(1)}>
                        Go to the first page
                      </Button>
                    </div>
                  ) : filter ? (
                    <EmptyState graphic="BullhornHashtagSpeechBubble" title="No posts match this filter." body="Clear the filter above the table to see every post of the range." compact />
                  ) : (
                    <EmptyState graphic="BullhornHashtagSpeechBubble" compact />
                  )
                ) : (
                  <div className="-mx-4 -my-2">
                    <SentimentPostsTable
                      items={items}
                      sort={sort}
                      onSort={(c) => update(setSort(toggleColumn(sort, c)))}
                      onOpen={(i) => setOpenKey(i.key)}
                    />
                    <nav className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 px-4 py-3 text-sm text-slate-600" aria-label="Pages">
                      <span data-testid="sentiment-posts-range">{rangeText(query.page, items.length, posts.data.total, posts.data.totalCapped)}</span>
                      <span className="flex items-center gap-2">
                        <Button variant="secondary" size="sm" disabled={query.page <= 1} onClick={() => goTo(query.page - 1)}>
                          Prev
                        </Button>
                        <span className="tabular-nums" aria-live="polite" data-testid="sentiment-page-of">
                          Page {query.page} of {pages}
                          {morePages ? '+' : ''}
                        </span>
                        <Button variant="secondary" size="sm" disabled={query.page >= pages && !morePages} onClick={() => goTo(query.page + 1)}>
                          Next
                        </Button>
                      </span>
                    </nav>
                  </div>
                )}
              </Body>
            </Panel>
          </div>
        </div>
      )}
      {canEditKeywords ? (
        <EditKeywordsModal
          hash={hash}
          saved={tracker.sentimentKeywords}
          open={editing}
          onOpenChange={setEditing}
          onSaved={(_, reanalyze) => {
            if (reanalyze) setAwaiting(true);
          }}
        />
      ) : null}
      <PostDetail
        item={openItem}
        now={now}
        canManage={canManagePosts}
        onClose={() => setOpenKey(null)}
        onSentiment={changeSentiment}
        onIgnore={ignore}
        sentimentBusy={editSentiment.isPending}
      />
      <Notice key={notice?.id} notice={notice} onDone={() => setNotice(null)} />
    </div>
  );
}

/** A panel body dimmed while another view of it loads (the one shown stays until it lands). */
function Body({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <div aria-busy={busy} className={busy ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
      {children}
    </div>
  );
}

/** A filter shown as a chip with a button that removes it. */
function Chip({ children, onRemove, removeLabel, testId }: { children: ReactNode; onRemove: () => void; removeLabel: string; testId: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1 rounded-full border border-brand-100 bg-brand-50 py-0.5 pl-3 pr-1 text-sm text-brand-700" data-testid={testId}>
      <span className="truncate">{children}</span>
      <button
        type="button"
        aria-label={removeLabel}
        title={removeLabel}
        onClick={onRemove}
        className="rounded-full p-1 text-brand-700 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <IconX size={14} />
      </button>
    </span>
  );
}

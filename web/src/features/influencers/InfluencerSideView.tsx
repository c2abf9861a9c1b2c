// Side view of one account: profile header (picture, name, @username, bio, followers, View
// profile), then its posts in the range as a sortable table or one post at a time (Prev / Next,
// ArrowLeft / ArrowRight). A right-hand drawer that closes on Escape or an overlay click.
import * as Dialog from '@radix-ui/react-dialog';
import { useMemo, useState, type KeyboardEvent } from 'react';
import type { Query } from '../../api/client';
import { useInfluencerPosts, type InfluencerRow } from '../../api/queries/influencers';
import type { Tag } from '../../api/types';
import { Button } from '../../components/Button';
import { IconX } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import type { Sort } from '../../state/query-state';
import { TagChips } from '../posts/TagControls';
import {
  ACCOUNT_POSTS_PAGE_SIZE,
  DEFAULT_POST_SORT,
  displayName,
  formatCount,
  formatEngagementRate,
  handle,
  pageCount,
  rangeLabel,
  safeHttpUrl,
  sortParam,
  stepPost,
  toggleSort,
} from './influencers-data';
import { PostTable, SinglePost } from './InfluencerPosts';
import { AccountAvatar, PlatformBadge, Verified } from './InfluencerTable';

export function InfluencerSideView({
  hash,
  filters,
  account,
  allTags,
  now,
  onClose,
}: {
  hash: string;
  filters: Query;
  /** The row opened; null: closed. */
  account: InfluencerRow | null;
  allTags: Tag[];
  now: number;
  onClose: () => void;
}) {
  return (
    <Dialog.Root open={!!account} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" data-testid="influencer-overlay" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-[min(96vw,640px)] flex-col bg-white shadow-2xl focus:outline-none"
          data-testid="influencer-side-view"
        >
          {account ? <AccountView key={account.key} hash={hash} filters={filters} row={account} allTags={allTags} now={now} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function AccountView({ hash, filters, row, allTags, now }: { hash: string; filters: Query; row: InfluencerRow; allTags: Tag[]; now: number }) {
  const [sort, setSort] = useState<Sort>(DEFAULT_POST_SORT);
  const [page, setPage] = useState(1);
  /** Index on the page of the post shown alone; null: the list. */
  const [index, setIndex] = useState<number | null>(null);
  /** The list row to focus when coming back from a post. */
  const [returnTo, setReturnTo] = useState<number | null>(null);
  const query = useMemo(
    () => ({ ...filters, account: row.key, sort: sortParam(sort), page, perPage: ACCOUNT_POSTS_PAGE_SIZE }),
    [filters, row.key, sort, page],
  );
  const posts = useInfluencerPosts(hash, query);
  const data = posts.data;
  const list = data?.posts ?? [];
  const total = data?.total ?? 0;
  const pages = pageCount(total, ACCOUNT_POSTS_PAGE_SIZE);
  const loadingPage = posts.isPending || posts.isPlaceholderData;
  const profile = data?.influencer ?? row;

  const step = (delta: 1 | -1) => {
    if (index === null || loadingPage) return;
    const next = stepPost({ page, index }, delta, list.length, total, ACCOUNT_POSTS_PAGE_SIZE);
    if (!next) return;
    setPage(next.page);
    setIndex(next.index);
  };
  const canStep = (delta: 1 | -1) => index !== null && !loadingPage && !!stepPost({ page, index }, delta, list.length, total, ACCOUNT_POSTS_PAGE_SIZE);

  function onKeyDown(e: KeyboardEvent) {
    if (index === null) return;
    const t = e.target as HTMLElement;
    if (t.closest('input, textarea, select, [contenteditable="true"]')) return;
    if (e.key === 'ArrowLeft') {
      e.preventDefault();
      step(-1);
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      step(1);
    }
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col" onKeyDown={onKeyDown}>
      <Profile row={profile} allTags={allTags} />
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
        {posts.isError ? (
          <LoadError error={posts.error} onRetry={() => void posts.refetch()} compact />
        ) : index !== null ? (
          <SinglePost
            item={loadingPage ? undefined : list[index]}
            loading={loadingPage}
            now={now}
            canPrev={canStep(-1)}
            canNext={canStep(1)}
            onBack={() => {
              setReturnTo(index);
              setIndex(null);
            }}
            onPrev={() => step(-1)}
            onNext={() => step(1)}
          />
        ) : posts.isPending ? (
          <p role="status" className="py-10 text-center text-sm text-slate-500">
            Loading posts…
          </p>
        ) : (
          <div aria-busy={posts.isPlaceholderData} className={posts.isPlaceholderData ? 'opacity-60 transition-opacity' : ''}>
            <PostTable
              posts={list}
              sort={sort}
              focusIndex={returnTo}
              onSort={(f) => {
                setSort((s) => toggleSort(s, f));
                setPage(1);
                setReturnTo(null);
              }}
              onOpen={(i) => setIndex(i)}
            />
            {pages > 1 ? (
              <nav className="mt-3 flex items-center justify-between text-sm text-slate-600" aria-label="Account posts pages">
                <span>{rangeLabel(page, ACCOUNT_POSTS_PAGE_SIZE, list.length, total)}</span>
                <span className="flex gap-2">
                  <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => { setPage(page - 1); setReturnTo(null); }}>
                    Prev
                  </Button>
                  <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => { setPage(page + 1); setReturnTo(null); }}>
                    Next
                  </Button>
                </span>
              </nav>
            ) : null}
          </div>
        )}
      </div>
    </div>
  );
}

function Profile({ row, allTags }: { row: InfluencerRow; allTags: Tag[] }) {
  const profileUrl = row.anonymized ? null : safeHttpUrl(row.profileUrl);
  const h = handle(row);
  return (
    <div className="border-b border-slate-200 px-5 py-4">
      <div className="flex items-start gap-3">
        <AccountAvatar row={row} size="h-14 w-14" />
        <div className="min-w-0 flex-1">
          <div className="flex min-w-0 items-center gap-1.5">
            <Dialog.Title className="truncate text-lg font-semibold text-slate-900">{displayName(row)}</Dialog.Title>
            {row.verified ? <Verified /> : null}
          </div>
          <div className="flex min-w-0 items-center gap-1.5 text-sm text-slate-500">
            <PlatformBadge platform={row.platform} />
            {h ? <span className="truncate">{h}</span> : null}
          </div>
        </div>
        <Dialog.Close className="rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600" aria-label="Close">
          <IconX />
        </Dialog.Close>
      </div>
      {row.bio && !row.anonymized ? <p className="mt-3 whitespace-pre-line break-words text-sm text-slate-700">{row.bio}</p> : null}
      <dl className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm">
        <Figure label="Followers" value={formatCount(row.followers)} />
        <Figure label="Posts" value={formatCount(row.posts)} />
        <Figure label="Engagement" value={formatCount(row.engagement)} />
        <Figure label="Eng. Rate" value={formatEngagementRate(row.engagementRate)} />
        {row.location && !row.anonymized ? <Figure label="Location" value={row.location} /> : null}
      </dl>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <TagChips tags={row.tags} all={allTags} />
        {profileUrl ? (
          <a href={profileUrl} target="_blank" rel="noreferrer noopener" className="ml-auto text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
            View profile
          </a>
        ) : null}
      </div>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline gap-1.5">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-semibold tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}

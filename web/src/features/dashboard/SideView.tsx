// Side views: the posts of a timeline bucket (grouping hour, day or month, Show More, CSV of the
// precise range), and the posts mentioning a hashtag or keyword (text cut at 200 characters).
import * as Dialog from '@radix-ui/react-dialog';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Query } from '../../api/client';
import { dashboardPostsUrl, fetchDashboardPosts } from '../../api/queries/dashboard';
import { IconX } from '../../components/icons';
import { EmptyState } from '../../components/EmptyState';
import { PostRow } from './PanelBodies';

export type SideView =
  | { kind: 'bucket'; start: number; end: number; grouping: 'hour' | 'day' | 'month' }
  | { kind: 'topic'; topic: 'hashtag' | 'keyword'; term: string };

export const SIDE_PAGE_SIZE = 25;
export const TOPIC_TEXT_CHARS = 200;

/** The local hour, day or month holding `t`, as an inclusive millisecond range. */
export function rangeOf(t: number, grouping: 'hour' | 'day' | 'month'): { start: number; end: number } {
  const d = new Date(t);
  let s: Date;
  let e: Date;
  if (grouping === 'hour') {
    s = new Date(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours());
    e = new Date(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours() + 1);
  } else if (grouping === 'day') {
    s = new Date(d.getFullYear(), d.getMonth(), d.getDate());
    e = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1);
  } else {
    s = new Date(d.getFullYear(), d.getMonth(), 1);
    e = new Date(d.getFullYear(), d.getMonth() + 1, 1);
  }
  return { start: s.getTime(), end: e.getTime() - 1 };
}

export function SidePanel({
  view,
  onClose,
  hash,
  filters,
  onGrouping,
  canDownload = true,
}: {
  view: SideView | null;
  onClose: () => void;
  hash: string;
  filters: Query;
  onGrouping: (g: 'hour' | 'day' | 'month') => void;
  /** The CSV download of the range (not through a shared link without 'Export reports'). */
  canDownload?: boolean;
}) {
  const q: Query = useMemo(() => {
    if (!view) return {};
    const { days: _d, start: _s, end: _e, ...rest } = filters;
    if (view.kind === 'bucket') return { ...rest, start: view.start, end: view.end };
    return { ...filters, kind: view.topic, term: view.term };
  }, [view, filters]);
  const posts = useInfiniteQuery({
    queryKey: ['trackers', 'dashboard-posts', hash, q],
    queryFn: ({ pageParam }) => fetchDashboardPosts(hash, { ...q, page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (all.length * SIDE_PAGE_SIZE < last.total ? all.length + 1 : undefined),
    enabled: !!view,
  });
  const [csvBusy, setCsvBusy] = useState(false);
  const list = posts.data?.pages.flatMap((p) => p.posts) ?? [];
  const total = posts.data?.pages[0]?.total ?? 0;
  const title =
    view?.kind === 'bucket'
      ? `Posts from ${new Date(view.start).toLocaleString()} to ${new Date(view.end).toLocaleString()}`
      : view
        ? `Posts mentioning ${view.term}`
        : '';
  return (
    <Dialog.Root open={!!view} onOpenChange={(o) => (!o ? onClose() : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/20" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed right-0 top-0 z-50 flex h-full w-full max-w-xl flex-col border-l border-slate-200 bg-white shadow-2xl focus:outline-none"
          data-testid="side-view"
        >
          <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
            <div>
              <Dialog.Title className="text-base font-semibold text-slate-900">{title}</Dialog.Title>
              <p className="text-xs text-slate-500">{posts.isLoading ? 'Loading...' : `${total.toLocaleString('en-US')} posts`}</p>
            </div>
            <Dialog.Close aria-label="Close" className="rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600">
              <IconX />
            </Dialog.Close>
          </div>
          {view?.kind === 'bucket' ? (
            <div className="flex items-center gap-3 border-b border-slate-100 px-4 py-2 text-sm">
              <label className="flex items-center gap-2 text-slate-600">
                Grouping
                <select
                  className="rounded border border-slate-300 px-2 py-1 text-sm"
                  value={view.grouping}
                  onChange={(e) => onGrouping(e.target.value as 'hour' | 'day' | 'month')}
                >
                  <option value="hour">Hour</option>
                  <option value="day">Day</option>
                  <option value="month">Month</option>
                </select>
              </label>
              {canDownload ? (
                <a
                  href={dashboardPostsUrl(hash, { ...q, format: 'csv' })}
                  download="posts.csv"
                  onClick={() => {
                    setCsvBusy(true);
                    setTimeout(() => setCsvBusy(false), 1500);
                  }}
                  className="ml-auto rounded-md border border-slate-300 px-3 py-1 text-sm text-slate-700 hover:border-slate-400"
                >
                  {csvBusy ? 'Preparing CSV…' : 'Download CSV'}
                </a>
              ) : null}
            </div>
          ) : null}
          <div className="flex-1 overflow-y-auto px-4">
            {posts.isError ? (
              <p role="alert" className="py-6 text-sm text-red-700">
                The posts could not be loaded.
              </p>
            ) : !posts.isLoading && list.length === 0 ? (
              <EmptyState graphic="BullhornHashtagSpeechBubble" compact />
            ) : (
              <ol className="divide-y divide-slate-100" aria-label="Posts">
                {list.map((p) => (
                  <PostRow key={p.id} p={p} maxChars={view?.kind === 'topic' ? TOPIC_TEXT_CHARS : undefined} />
                ))}
              </ol>
            )}
            {posts.hasNextPage ? (
              <div className="py-4 text-center">
                <button
                  type="button"
                  onClick={() => posts.fetchNextPage()}
                  disabled={posts.isFetchingNextPage}
                  className="rounded-md border border-slate-300 px-4 py-1.5 text-sm text-slate-700 hover:border-slate-400 disabled:opacity-50"
                >
                  {posts.isFetchingNextPage ? 'Loading...' : 'Show More'}
                </button>
              </div>
            ) : null}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

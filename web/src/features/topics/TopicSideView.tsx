// The posts side view of the trending topics page: the posts holding a path of topics, or the
// posts of one time bucket of the chart under the current path, newest first, 20 at a time with
// 'Show More'. Closes on Escape, the close button or a click on the overlay. An empty or failed
// list says so in the page's one error sentence.
import * as Dialog from '@radix-ui/react-dialog';
import { useMemo } from 'react';
import { useTopicPosts } from '../../api/queries/topics';
import { IconX } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import type { FilterQuery } from '../../state/filter-query';
import { PostRow } from '../dashboard/PanelBodies';
import { bucketText, pathLabel, postsQuery, SIDE_VIEW_ERROR, type PostsTarget } from './topics-data';

export function sideViewTitle(target: PostsTarget): string {
  if (target.kind === 'topic') return `Posts mentioning ${pathLabel(target.path)}`;
  const when = `Posts from ${bucketText(target.start, target.end, target.grouping)}`;
  return target.path.length ? `${when} with ${pathLabel(target.path)}` : when;
}

export function TopicSideView({ hash, filters, target, onClose }: { hash: string; filters: FilterQuery; target: PostsTarget | null; onClose: () => void }) {
  return (
    <Dialog.Root open={!!target} onOpenChange={(o) => (!o ? onClose() : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/20" data-testid="side-view-overlay" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed right-0 top-0 z-50 flex h-full w-full max-w-xl flex-col border-l border-slate-200 bg-white shadow-2xl focus:outline-none"
          data-testid="topic-side-view"
        >
          {target ? <SideViewBody hash={hash} filters={filters} target={target} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function SideViewBody({ hash, filters, target }: { hash: string; filters: FilterQuery; target: PostsTarget }) {
  const query = useMemo(() => postsQuery(filters, target), [filters, target]);
  const posts = useTopicPosts(hash, query);
  const first = posts.data?.pages[0];
  const list = posts.data?.pages.flatMap((p) => p.posts) ?? [];
  const total = first?.total ?? 0;
  const failed = first ? first.reason !== null || list.length === 0 : posts.isError;
  return (
    <>
      <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div className="min-w-0">
          <Dialog.Title className="break-words text-base font-semibold text-slate-900">{sideViewTitle(target)}</Dialog.Title>
          <p className="text-xs text-slate-500" data-testid="side-view-count">
            {posts.isLoading ? 'Loading...' : failed ? '' : `${total.toLocaleString('en-US')} ${total === 1 ? 'post' : 'posts'}`}
          </p>
        </div>
        <Dialog.Close aria-label="Close" className="rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600">
          <IconX />
        </Dialog.Close>
      </div>
      <div className="flex-1 overflow-y-auto px-4">
        {posts.isLoading ? (
          <div role="status" className="flex items-center justify-center gap-3 py-16 text-sm text-slate-500">
            <Spinner />
            <span>Loading posts…</span>
          </div>
        ) : failed ? (
          <p role="alert" className="py-10 text-center text-sm text-slate-700" data-testid="side-view-error">
            {SIDE_VIEW_ERROR}
          </p>
        ) : (
          <ol className="divide-y divide-slate-100" aria-label="Posts" data-testid="side-view-posts">
            {list.map((p) => (
              <PostRow key={p.id} p={p} />
            ))}
          </ol>
        )}
        {!failed && posts.hasNextPage ? (
          <div className="py-4 text-center">
            <button
              type="button"
              onClick={() => void posts.fetchNextPage()}
              disabled={posts.isFetchingNextPage}
              className="rounded-md border border-slate-300 px-4 py-1.5 text-sm text-slate-700 hover:border-slate-400 disabled:opacity-50"
            >
              {posts.isFetchingNextPage ? 'Loading...' : 'Show More'}
            </button>
          </div>
        ) : null}
        {posts.isFetchNextPageError ? (
          <p role="alert" className="pb-4 text-center text-sm text-slate-700">
            {SIDE_VIEW_ERROR}
          </p>
        ) : null}
      </div>
    </>
  );
}

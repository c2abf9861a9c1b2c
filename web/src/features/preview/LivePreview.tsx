// The dashboard of a tracker in preview mode: how the sample is going, the posts streamed so far
// (merged, one per post, newest first) and, once some are stored, the dashboard's panels filling
// up as each batch lands.
import type { ReactNode } from 'react';
import { EmptyState, PREVIEW_BODY, PREVIEW_TITLE } from '../../components/EmptyState';
import { Panel } from '../../components/Panel';
import { PLATFORMS } from '../../lib/platforms';
import type { PreviewPost, PreviewState } from './realtime-preview';

/** Posts listed in the live panel (all of them feed the dashboard). */
export const LIVE_LIST_MAX = 50;

export function phaseText(s: PreviewState | null): string {
  if (!s) return 'Waiting for the preview to start...';
  switch (s.phase) {
    case 'connecting':
      return s.disconnects > 0 ? `Reconnecting (${s.disconnects}/3)...` : 'Connecting...';
    case 'streaming':
      return 'Fetching posts...';
    case 'fetched':
      return 'Processing posts...';
    case 'complete':
      return 'Preview complete.';
    case 'error':
      return s.error ?? 'The preview stopped.';
  }
}

export function LivePreview({ stream, children }: { stream: PreviewState | null; children: ReactNode }) {
  const posts = stream?.posts ?? [];
  return (
    <div className="space-y-4 p-6" data-testid="preview-mode">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900" aria-live="polite">
        <span className="flex items-center gap-2">
          <span className="h-2 w-2 animate-pulse rounded-full bg-sky-500" aria-hidden="true" />
          <strong className="font-semibold">Live preview</strong>
          <span data-preview-phase={stream?.phase ?? 'waiting'}>{phaseText(stream)}</span>
        </span>
        <span className="tabular-nums" data-preview-count={posts.length}>
          {posts.length.toLocaleString('en-US')} {posts.length === 1 ? 'post' : 'posts'} so far
        </span>
      </div>
      {stream?.sourceErrors.length ? (
        <p className="text-xs text-amber-800">Some sources could not be read: {stream.sourceErrors.join('; ')}</p>
      ) : null}
      {posts.length === 0 ? (
        <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
          <EmptyState graphic="Loading" title={PREVIEW_TITLE} body={PREVIEW_BODY} />
        </div>
      ) : (
        <>
          <Panel title="Latest sample posts" id="previewPosts" className="col-span-12">
            <ul className="max-h-80 divide-y divide-slate-100 overflow-y-auto" data-testid="preview-posts">
              {posts.slice(0, LIVE_LIST_MAX).map((p) => (
                <PreviewPostRow key={`${p.platform};${p.id}`} post={p} />
              ))}
            </ul>
          </Panel>
          <div className="-m-6">{children}</div>
        </>
      )}
    </div>
  );
}

/** Streamed posts name their platform in full ('twitter'); badges are keyed by code or label. */
function platformOf(name: string) {
  const n = name.toLowerCase();
  return PLATFORMS.find((p) => p.label.toLowerCase() === n || p.code === n) ?? null;
}

function PreviewPostRow({ post }: { post: PreviewPost }) {
  const platform = platformOf(post.platform);
  const author = (post.author ?? {}) as { name?: string; username?: string };
  const text = typeof post.text === 'string' ? post.text : typeof post.title === 'string' ? post.title : '';
  return (
    <li className="flex gap-3 py-2 text-sm" data-post-id={post.id}>
      <span title={platform?.label ?? post.platform} className={`inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded px-1 text-[10px] font-bold leading-none ${platform?.badge ?? 'bg-slate-500 text-white'}`}>
        {platform?.short ?? post.platform.slice(0, 2).toUpperCase()}
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-xs text-slate-500">
          <span className="font-medium text-slate-800">{author.name || author.username || 'Unknown'}</span>
          {author.username ? ` @${author.username}` : ''} · {new Date(post.createdAt).toLocaleString()}
        </p>
        <p className="line-clamp-2 text-slate-700">{text}</p>
      </div>
    </li>
  );
}

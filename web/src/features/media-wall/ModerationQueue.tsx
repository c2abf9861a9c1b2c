// The moderation queue: posts with media that arrived while moderation is on wait here until a
// moderator approves them (onto the wall) or rejects them (hidden), one by one or several at once.
import type { WallPost } from '../../api/queries/media-wall';
import { Button } from '../../components/Button';
import { IconCheck, IconX } from '../../components/icons';
import { NO_CAPTION } from '../posts/format';
import { authorLabel, Avatar, PlatformChip, PostTime, useEnterAnimation } from './WallPostCard';
import { WallMedia } from './WallMedia';

export function ModerationQueue({
  posts,
  total,
  now,
  selected,
  busy,
  onSelect,
  onSelectAll,
  onDecide,
  animate,
}: {
  posts: WallPost[];
  /** Posts that join the queue after it first showed slide in. */
  animate: boolean;
  /** Every post waiting (the list holds the newest 100). */
  total: number;
  now: number;
  selected: ReadonlySet<string>;
  busy: boolean;
  onSelect: (key: string, on: boolean) => void;
  onSelectAll: () => void;
  onDecide: (keys: string[], visibility: 0 | 1) => void;
}) {
  const chosen = posts.filter((p) => selected.has(p.key)).map((p) => p.key);
  const allChosen = posts.length > 0 && chosen.length === posts.length;
  return (
    <section aria-labelledby="wall-queue-title" className="rounded-xl border border-amber-200 bg-white shadow-sm" data-testid="wall-queue">
      <div className="flex flex-wrap items-center gap-3 border-b border-amber-100 bg-amber-50/70 px-4 py-3">
        <h2 id="wall-queue-title" className="text-sm font-semibold text-slate-800">
          Waiting for approval
          <span className="ml-2 rounded-full bg-amber-500 px-2 py-0.5 text-xs font-semibold text-white" data-testid="queue-total">
            {total}
          </span>
        </h2>
        <p className="text-xs text-slate-600">New posts with media wait here while moderation is on.</p>
        {posts.length ? (
          <div className="ml-auto flex flex-wrap items-center gap-2">
            <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" className="h-4 w-4 accent-brand-600" checked={allChosen} onChange={onSelectAll} />
              Select all
            </label>
            <Button size="sm" variant="secondary" disabled={!chosen.length || busy} onClick={() => onDecide(chosen, 0)}>
              <IconX size={14} />
              Reject selected{chosen.length ? ` (${chosen.length})` : ''}
            </Button>
            <Button size="sm" disabled={!chosen.length || busy} onClick={() => onDecide(chosen, 1)}>
              <IconCheck size={14} />
              Approve selected{chosen.length ? ` (${chosen.length})` : ''}
            </Button>
          </div>
        ) : null}
      </div>
      {posts.length ? (
        <ul className="grid grid-cols-[repeat(auto-fill,minmax(190px,1fr))] gap-3 p-4" aria-label="Posts waiting for approval">
          {posts.map((p) => (
            <QueueItem key={p.key} post={p} now={now} animate={animate} selected={selected.has(p.key)} busy={busy} onSelect={onSelect} onDecide={onDecide} />
          ))}
        </ul>
      ) : (
        <p className="px-4 py-6 text-center text-sm text-slate-500">No posts are waiting. New posts with media will wait here until they are approved.</p>
      )}
    </section>
  );
}

function QueueItem({
  post,
  animate,
  now,
  selected,
  busy,
  onSelect,
  onDecide,
}: {
  post: WallPost;
  animate: boolean;
  now: number;
  selected: boolean;
  busy: boolean;
  onSelect: (key: string, on: boolean) => void;
  onDecide: (keys: string[], visibility: 0 | 1) => void;
}) {
  const ref = useEnterAnimation<HTMLLIElement>(animate);
  const who = authorLabel(post);
  const text = post.text.trim();
  return (
    <li
      ref={ref}
      aria-label={`Waiting post by ${who}`}
      data-post-key={post.key}
      className={`flex flex-col overflow-hidden rounded-lg border bg-white ${selected ? 'border-brand-500 ring-1 ring-brand-500' : 'border-slate-200'}`}
    >
      <div className="relative aspect-[4/3] overflow-hidden bg-slate-100">
        <WallMedia post={post} placeholder />
        <div className="absolute left-2 top-2">
          <PlatformChip platform={post.platform} />
        </div>
        <label className="absolute right-2 top-2 inline-flex h-7 w-7 cursor-pointer items-center justify-center rounded-md bg-white/90 shadow">
          <input
            type="checkbox"
            className="h-4 w-4 accent-brand-600"
            checked={selected}
            onChange={(e) => onSelect(post.key, e.target.checked)}
            aria-label={`Select waiting post by ${who}`}
          />
        </label>
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-2.5">
        <div className="flex items-center gap-2">
          <Avatar post={post} size="h-6 w-6" />
          <span className="min-w-0 flex-1 truncate text-xs font-semibold text-slate-800">{post.author.name || who}</span>
          <PostTime post={post} now={now} theme="light" />
        </div>
        <p className={`line-clamp-2 text-xs leading-snug ${text ? 'text-slate-700' : 'italic text-slate-400'}`}>{text || NO_CAPTION}</p>
        <div className="mt-auto grid grid-cols-2 gap-1.5 pt-1">
          <button
            type="button"
            disabled={busy}
            onClick={() => onDecide([post.key], 0)}
            aria-label={`Reject post by ${who}`}
            className="inline-flex h-8 items-center justify-center gap-1 rounded-md border border-slate-300 text-xs font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-50"
          >
            <IconX size={14} />
            Reject
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => onDecide([post.key], 1)}
            aria-label={`Approve post by ${who}`}
            className="inline-flex h-8 items-center justify-center gap-1 rounded-md bg-emerald-600 text-xs font-medium text-white hover:bg-emerald-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-emerald-600 disabled:opacity-50"
          >
            <IconCheck size={14} />
            Approve
          </button>
        </div>
      </div>
    </li>
  );
}

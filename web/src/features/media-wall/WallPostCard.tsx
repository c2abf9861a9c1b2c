// One post of the wall grid: its media, its author and (when the wall shows text) its caption and
// counts; moderators also get a select box and a show/hide button under it. The grid (WallGrid)
// mounts only the cards near the screen.
import { memo, useLayoutEffect, useRef, useState } from 'react';
import type { WallPost } from '../../api/queries/media-wall';
import { formatMetric } from '../../lib/numbers';
import { PLATFORMS } from '../../lib/platforms';
import { NO_CAPTION } from '../posts/format';
import { cardTitle, timeAgo } from './wall-data';
import { IconComment, IconEye, IconEyeOff, IconHeart, IconRepeat } from './wall-icons';
import { WallMedia } from './WallMedia';

export type WallTheme = 'dark' | 'light';

/** A post entering the wall fades and slides in once; posts already there stay as they are. */
export function useEnterAnimation<T extends HTMLElement>(animate: boolean) {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!animate || !el || typeof el.animate !== 'function') return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    el.animate(
      [
        { opacity: 0, transform: 'translateY(-14px) scale(0.97)' },
        { opacity: 1, transform: 'none' },
      ],
      { duration: 650, easing: 'cubic-bezier(0.2, 0.8, 0.2, 1)' },
    );
    // Only on mount: a post that stays does not animate again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}

export function authorLabel(post: WallPost): string {
  return post.author.username ? `@${post.author.username.replace(/^@/, '')}` : post.author.name || 'unknown user';
}

export function PlatformChip({ platform }: { platform: string }) {
  // The wall names platforms by code; a full name (twitter) is read too.
  const info = PLATFORMS.find((p) => p.code === platform || p.label.toLowerCase() === platform.toLowerCase());
  if (!info) return null;
  return (
    <span title={info.label} className={`inline-flex h-5 min-w-5 items-center justify-center rounded px-1 text-[10px] font-bold leading-none shadow-sm ${info.badge}`}>
      <span aria-hidden="true">{info.short}</span>
      <span className="sr-only">{info.label}</span>
    </span>
  );
}

export function Avatar({ post, size = 'h-8 w-8' }: { post: WallPost; size?: string }) {
  const [broken, setBroken] = useState(false);
  const name = post.author.name || post.author.username || '?';
  if (post.author.avatarUrl && !broken) {
    return <img src={post.author.avatarUrl} alt="" className={`${size} shrink-0 rounded-full object-cover`} onError={() => setBroken(true)} />;
  }
  return (
    <span aria-hidden="true" className={`${size} inline-flex shrink-0 items-center justify-center rounded-full bg-brand-600 text-xs font-semibold uppercase text-white`}>
      {name.replace(/^@/, '').slice(0, 1)}
    </span>
  );
}

export function Stats({ post, theme }: { post: WallPost; theme: WallTheme }) {
  const muted = theme === 'dark' ? 'text-slate-400' : 'text-slate-500';
  const items = [
    { label: 'likes', value: post.likes, icon: IconHeart },
    { label: 'comments', value: post.comments, icon: IconComment },
    { label: 'shares', value: post.shares, icon: IconRepeat },
  ];
  return (
    <ul className={`flex items-center gap-4 text-xs tabular-nums ${muted}`}>
      {items.map(({ label, value, icon: Icon }) => (
        <li key={label} className="inline-flex items-center gap-1" title={`${formatMetric(value)} ${label}`}>
          <Icon size={14} />
          {formatMetric(value)}
          <span className="sr-only"> {label}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * One card of the grid. Its props are plain values and callbacks that do not change from one
 * render to the next (they take the post's key), so a refresh re-renders only the cards whose
 * post, selection or entrance changed.
 */
export const WallPostCard = memo(function WallPostCard({
  post,
  theme,
  displayText,
  now,
  enter,
  controls,
  selected,
  busy,
  onSelect,
  onVisibility,
  onBroken,
}: {
  post: WallPost;
  theme: WallTheme;
  displayText: boolean;
  now: number;
  /** The post arrives while the wall is shown: it slides in as it mounts. */
  enter: boolean;
  /** A moderator's select box and Show/Hide button. */
  controls: boolean;
  selected: boolean;
  busy: boolean;
  onSelect: (key: string, on: boolean) => void;
  onVisibility: (key: string, visibility: 0 | 1) => void;
  onBroken: (key: string) => void;
}) {
  const ref = useEnterAnimation<HTMLElement>(enter);
  const dark = theme === 'dark';
  const hidden = post.visibility === 0;
  const who = authorLabel(post);
  const text = post.text.trim();
  const title = cardTitle(post);
  return (
    <article
      ref={ref}
      aria-label={`Post by ${who}`}
      data-post-key={post.key}
      data-visibility={post.visibility}
      className={`group flex flex-col overflow-hidden rounded-xl shadow-sm ring-1 ${
        dark ? 'bg-slate-900 text-slate-100 ring-white/10' : 'bg-white text-slate-900 ring-slate-200'
      } ${selected ? 'ring-2 ring-brand-500' : ''}`}
    >
      <div className={`relative aspect-square overflow-hidden ${dark ? 'bg-black' : 'bg-slate-100'} ${hidden ? 'opacity-50' : ''}`}>
        <WallMedia post={post} onBroken={onBroken} />
        <div className="absolute left-2 top-2">
          <PlatformChip platform={post.platform} />
        </div>
        {hidden ? (
          <span className="absolute right-2 top-2 inline-flex items-center gap-1 rounded bg-slate-900/80 px-1.5 py-0.5 text-[11px] font-semibold text-white">
            <IconEyeOff size={12} />
            Hidden
          </span>
        ) : null}
        {!displayText ? (
          <div className="absolute inset-x-0 bottom-0 flex items-center gap-2 bg-gradient-to-t from-black/80 to-transparent px-3 pb-2.5 pt-8 text-white">
            <Avatar post={post} size="h-6 w-6" />
            <span className="min-w-0 truncate text-xs font-medium">{post.author.name || who}</span>
          </div>
        ) : null}
      </div>
      {displayText ? (
        <div className="flex flex-1 flex-col gap-2 p-3">
          <div className="flex items-center gap-2">
            <Avatar post={post} />
            <div className="min-w-0 flex-1 leading-tight">
              <p className="truncate text-sm font-semibold">{post.author.name || who}</p>
              <p className={`truncate text-xs ${dark ? 'text-slate-400' : 'text-slate-500'}`}>
                {who}
                {post.isRetweet ? ' · Repost' : ''}
              </p>
            </div>
            <PostTime post={post} now={now} theme={theme} />
          </div>
          {title ? <h3 className="line-clamp-2 break-words text-sm font-semibold leading-snug">{title}</h3> : null}
          <p className={`line-clamp-4 whitespace-pre-line break-words text-sm leading-snug ${text ? '' : dark ? 'italic text-slate-500' : 'italic text-slate-400'}`}>
            {text || NO_CAPTION}
          </p>
          <div className="mt-auto pt-1">
            <Stats post={post} theme={theme} />
          </div>
        </div>
      ) : null}
      {controls ? <CardControls post={post} who={who} selected={selected} busy={busy} onSelect={onSelect} onVisibility={onVisibility} theme={theme} /> : null}
    </article>
  );
});

export function PostTime({ post, now, theme }: { post: WallPost; now: number; theme: WallTheme }) {
  const cls = `shrink-0 text-xs ${theme === 'dark' ? 'text-slate-400 hover:text-white' : 'text-slate-500 hover:text-slate-900'}`;
  const when = new Date(post.createdAt).toLocaleString();
  const label = timeAgo(post.createdAt, now);
  return post.url ? (
    <a href={post.url} target="_blank" rel="noopener noreferrer" className={`${cls} rounded hover:underline focus-visible:outline-2 focus-visible:outline-brand-500`} title={when}>
      {label}
      <span className="sr-only"> (view post, opens in a new tab)</span>
    </a>
  ) : (
    <time dateTime={new Date(post.createdAt).toISOString()} className={cls} title={when}>
      {label}
    </time>
  );
}

function CardControls({
  post,
  who,
  selected,
  busy,
  onSelect,
  onVisibility,
  theme,
}: {
  post: WallPost;
  who: string;
  selected: boolean;
  busy: boolean;
  onSelect: (key: string, on: boolean) => void;
  onVisibility: (key: string, visibility: 0 | 1) => void;
  theme: WallTheme;
}) {
  const dark = theme === 'dark';
  const hidden = post.visibility === 0;
  return (
    <div className={`flex items-center justify-between gap-2 border-t px-3 py-2 text-xs ${dark ? 'border-white/10 text-slate-300' : 'border-slate-100 text-slate-600'}`}>
      <label className="inline-flex cursor-pointer items-center gap-2">
        <input
          type="checkbox"
          className="h-4 w-4 accent-brand-600"
          checked={selected}
          onChange={(e) => onSelect(post.key, e.target.checked)}
          aria-label={`Select post by ${who}`}
        />
        Select
      </label>
      <button
        type="button"
        disabled={busy}
        onClick={() => onVisibility(post.key, hidden ? 1 : 0)}
        aria-label={`${hidden ? 'Show' : 'Hide'} post by ${who}`}
        className={`inline-flex h-7 items-center gap-1.5 rounded-md px-2 font-medium focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-50 ${
          dark ? 'hover:bg-white/10' : 'hover:bg-slate-100'
        }`}
      >
        {hidden ? <IconEye size={14} /> : <IconEyeOff size={14} />}
        {hidden ? 'Show' : 'Hide'}
      </button>
    </div>
  );
}

// The account's posts in the side view: a table sorted by the server (engagements, reach,
// engagement rate, date; a header click flips or changes the sort) and the single-post view
// with Post List, Prev and Next.
import { useEffect, useRef } from 'react';
import type { PostItem } from '../../api/queries/posts';
import { Button } from '../../components/Button';
import { SortButton } from '../../components/SortButton';
import type { Sort } from '../../state/query-state';
import { caption, count, images, isExpiredStory, postStats, postTime, toMillis } from '../posts/format';
import {
  ariaSort,
  formatCount,
  formatEngagementRate,
  NO_POSTS,
  POST_MISSING,
  safeHttpUrl,
  truncatePostText,
  type PostSortField,
} from './influencers-data';
import { PlatformBadge } from './InfluencerTable';

const COLUMNS: { field: PostSortField; label: string; width: string }[] = [
  { field: 'engagement', label: 'Engagements', width: 'w-[6.75rem]' },
  { field: 'reach', label: 'Reach', width: 'w-[4.75rem]' },
  { field: 'engagement_rate', label: 'Eng. Rate', width: 'w-[5rem]' },
  { field: 'created_at', label: 'Date', width: 'w-[6.5rem]' },
];

const dateFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

export function PostTable({
  posts,
  sort,
  onSort,
  onOpen,
  focusIndex,
}: {
  posts: PostItem[];
  sort: Sort;
  onSort: (field: PostSortField) => void;
  onOpen: (index: number) => void;
  /** The row to focus when the list comes back from the single-post view. */
  focusIndex: number | null;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  useEffect(() => {
    if (focusIndex !== null) (body.current?.children[focusIndex] as HTMLElement | undefined)?.focus();
  }, [focusIndex]);
  if (!posts.length) return <p className="py-10 text-center text-sm text-slate-500">{NO_POSTS}</p>;
  return (
    <table className="w-full table-fixed text-left text-sm" data-testid="account-posts">
      <thead className="border-b border-slate-200 bg-slate-50 text-[11px] font-semibold text-slate-500">
        <tr>
          <th scope="col" className="px-2 py-2">
            Post
          </th>
          {COLUMNS.map((c) => {
            const state = ariaSort(sort, c.field);
            return (
              <th key={c.field} scope="col" aria-sort={state} className={`py-2 pl-2 pr-3 text-right ${c.width}`}>
                <SortButton label={c.label} state={state} onClick={() => onSort(c.field)} />
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody ref={body}>
        {posts.map((p, i) => (
          <tr
            key={p.key}
            tabIndex={0}
            data-post={p.key}
            onClick={() => onOpen(i)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                onOpen(i);
              }
            }}
            className="cursor-pointer border-b border-slate-100 align-top hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
          >
            <td className="break-words px-2 py-2.5 text-slate-800">{truncatePostText(caption(p.post))}</td>
            <td className="py-2.5 pl-2 pr-3 text-right tabular-nums">{formatCount(p.engagement)}</td>
            <td className="py-2.5 pl-2 pr-3 text-right tabular-nums">{formatCount(p.reach || undefined)}</td>
            <td className="py-2.5 pl-2 pr-3 text-right tabular-nums">{formatEngagementRate(p.engagementRate)}</td>
            <td className="whitespace-nowrap py-2.5 pl-2 pr-3 text-right text-xs text-slate-600">{dateFmt.format(new Date(toMillis(p.post.createdAt, p.post.platform)))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SinglePost({
  item,
  loading,
  now,
  canPrev,
  canNext,
  onBack,
  onPrev,
  onNext,
}: {
  /** undefined: the post is not (or no longer) there. */
  item: PostItem | undefined;
  loading: boolean;
  now: number;
  canPrev: boolean;
  canNext: boolean;
  onBack: () => void;
  onPrev: () => void;
  onNext: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // Focus moves here from the row that opened it, so the arrow keys keep working.
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} className="focus:outline-none" data-testid="single-post">
      <div className="flex items-center gap-2 border-b border-slate-100 pb-3">
        <Button variant="secondary" size="sm" onClick={onBack}>
          Post List
        </Button>
        <div className="ml-auto flex gap-2">
          <Button variant="secondary" size="sm" onClick={onPrev} disabled={!canPrev} aria-keyshortcuts="ArrowLeft">
            Prev
          </Button>
          <Button variant="secondary" size="sm" onClick={onNext} disabled={!canNext} aria-keyshortcuts="ArrowRight">
            Next
          </Button>
        </div>
      </div>
      {loading ? (
        <p role="status" className="py-10 text-center text-sm text-slate-500">
          Loading…
        </p>
      ) : !item ? (
        <p role="alert" className="py-10 text-center text-sm text-red-700">
          {POST_MISSING}
        </p>
      ) : (
        <PostBody item={item} now={now} />
      )}
    </div>
  );
}

function PostBody({ item, now }: { item: PostItem; now: number }) {
  const p = item.post;
  const img = images(p)[0]?.url ?? p.media?.[0]?.thumbnailUrl;
  const src = safeHttpUrl(img);
  const link = isExpiredStory(p, now) ? null : safeHttpUrl(p.url);
  return (
    <article className="space-y-4 pt-4" aria-label="Post">
      <div className="flex items-center gap-2 text-xs text-slate-500">
        <PlatformBadge platform={p.platform} />
        <time dateTime={new Date(toMillis(p.createdAt, p.platform)).toISOString()}>{postTime(p)}</time>
      </div>
      {p.title ? <h3 className="text-base font-semibold text-slate-900">{p.title}</h3> : null}
      <p className="whitespace-pre-wrap break-words text-sm text-slate-800" data-testid="single-post-text">
        {caption(p)}
      </p>
      {src ? <img src={src} alt="Post media" className="max-h-80 w-full rounded-md bg-slate-100 object-contain" onError={(e) => (e.currentTarget.style.display = 'none')} /> : null}
      <dl className="grid grid-cols-3 gap-2" aria-label="Post statistics">
        <Stat label="Engagements" value={count(item.engagement)} />
        <Stat label="Reach" value={count(item.reach || undefined)} />
        <Stat label="Eng. Rate" value={formatEngagementRate(item.engagementRate)} />
        {postStats(item).map((s) => (
          <Stat key={s.label} label={s.label} value={count(s.value)} />
        ))}
      </dl>
      {link ? (
        <a href={link} target="_blank" rel="noreferrer noopener" className="inline-block text-sm font-medium text-brand-700 underline">
          View Post
        </a>
      ) : null}
    </article>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-sm font-semibold tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}

// The posts as a table or as cards, with selection, tags and the sentiment badge.
import type { ReactNode } from 'react';
import type { PostItem } from '../../api/queries/posts';
import type { Tag } from '../../api/types';
import { platformInfo } from '../../lib/platforms';
import { Avatar, SentimentBadge } from './PostDetail';
import { authorHandle, authorName, count, engagementRate, isExpiredStory, platformCode, postTime, shortCaption } from './format';

export interface ListProps {
  items: PostItem[];
  now: number;
  tags: Tag[];
  canManage: boolean;
  selected: Set<string>;
  onSelect: (key: string, on: boolean) => void;
  onSelectAll: (on: boolean) => void;
  onOpen: (item: PostItem) => void;
  /** The tag menu of a post (owners and admins). */
  tagMenu: (item: PostItem) => ReactNode;
  tagsOf: (item: PostItem) => number[];
}

function PlatformBadge({ platform }: { platform: string }) {
  const info = platformInfo(platformCode(platform));
  return (
    <span className={`inline-flex h-5 min-w-5 items-center justify-center rounded px-1 text-[10px] font-bold ${info.badge}`} title={info.label}>
      {info.short}
    </span>
  );
}

function Flags({ item, now }: { item: PostItem; now: number }) {
  const p = item.post;
  return (
    <>
      {item.isNew ? <span className="rounded bg-brand-600 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-white">New</span> : null}
      {p.flags.isStory ? (
        <span className="rounded bg-pink-100 px-1.5 py-0.5 text-[10px] font-semibold text-pink-800">{isExpiredStory(p, now) ? 'Expired' : 'Story'}</span>
      ) : null}
      {p.flags.isRetweet ? <span className="rounded bg-slate-100 px-1.5 py-0.5 text-[10px] font-semibold text-slate-700">Retweet</span> : null}
    </>
  );
}

function TagDots({ ids, all }: { ids: number[]; all: Tag[] }) {
  const shown = all.filter((t) => ids.includes(t.id));
  if (!shown.length) return null;
  return (
    <span className="mt-1 flex flex-wrap gap-1" aria-label="Tags">
      {shown.map((t) => (
        <span key={t.id} className="rounded px-1.5 py-0.5 text-[10px] font-medium text-white" style={{ backgroundColor: t.color }}>
          {t.name}
        </span>
      ))}
    </span>
  );
}

export function PostTable(props: ListProps) {
  const { items, now, tags, canManage, selected, onSelect, onSelectAll, onOpen, tagMenu, tagsOf } = props;
  const allOn = items.length > 0 && items.every((i) => selected.has(i.key));
  return (
    <table className="w-full table-fixed text-left text-sm" data-testid="posts-table">
      <thead className="border-b border-slate-100 text-xs font-semibold uppercase tracking-wide text-slate-500">
        <tr>
          {canManage ? (
            <th className="w-10 px-3 py-3">
              <input type="checkbox" className="h-4 w-4 accent-brand-600" aria-label="Select all posts on this page" checked={allOn} onChange={(e) => onSelectAll(e.target.checked)} />
            </th>
          ) : null}
          <th className="w-52 px-3 py-3">User</th>
          <th className="px-3 py-3">Post</th>
          <th className="w-36 px-3 py-3">Date</th>
          <th className="w-28 px-3 py-3 text-right">Engagement</th>
          <th className="w-24 px-3 py-3 text-right">Reach</th>
          <th className="w-36 px-3 py-3">Sentiment</th>
          {canManage ? <th className="w-20 px-3 py-3" /> : null}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.key} className="border-b border-slate-100 align-top hover:bg-slate-50" data-post={item.key}>
            {canManage ? (
              <td className="px-3 py-3">
                <input type="checkbox" className="h-4 w-4 accent-brand-600" aria-label={`Select post ${item.key}`} checked={selected.has(item.key)} onChange={(e) => onSelect(item.key, e.target.checked)} />
              </td>
            ) : null}
            <td className="px-3 py-3">
              <div className="flex items-center gap-2">
                <Avatar item={item} size="h-8 w-8" />
                <div className="min-w-0">
                  <div className="truncate font-medium text-slate-900">{authorName(item)}</div>
                  <div className="flex items-center gap-1 truncate text-xs text-slate-500">
                    <PlatformBadge platform={item.post.platform} />
                    <span className="truncate">{authorHandle(item)}</span>
                  </div>
                </div>
              </div>
            </td>
            <td className="px-3 py-3">
              <button type="button" className="block w-full text-left text-slate-800 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600" onClick={() => onOpen(item)}>
                <span className="mb-1 flex flex-wrap gap-1">
                  <Flags item={item} now={now} />
                </span>
                <span className="break-words">{shortCaption(item.post)}</span>
              </button>
              <TagDots ids={tagsOf(item)} all={tags} />
            </td>
            <td className="px-3 py-3 text-xs text-slate-600">{postTime(item.post)}</td>
            <td className="px-3 py-3 text-right tabular-nums">
              <div>{count(item.engagement)}</div>
              <div className="text-xs text-slate-500">{engagementRate(item.engagementRate)}</div>
            </td>
            <td className="px-3 py-3 text-right tabular-nums">{count(item.reach || undefined)}</td>
            <td className="px-3 py-3">
              <SentimentBadge level={item.sentimentBucket} />
            </td>
            {canManage ? <td className="px-3 py-3 text-right">{tagMenu(item)}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function PostCards(props: ListProps) {
  const { items, now, tags, canManage, selected, onSelect, onOpen, tagMenu, tagsOf } = props;
  return (
    <ul className="grid grid-cols-1 gap-4 p-4 md:grid-cols-2 xl:grid-cols-3" data-testid="posts-cards">
      {items.map((item) => {
        const img = item.post.media?.find((m) => m.kind === 'photo' || m.kind === 'carousel')?.url ?? item.post.media?.[0]?.thumbnailUrl;
        return (
          <li key={item.key} className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-post={item.key}>
            <div className="mb-2 flex items-center gap-2">
              {canManage ? (
                <input type="checkbox" className="h-4 w-4 accent-brand-600" aria-label={`Select post ${item.key}`} checked={selected.has(item.key)} onChange={(e) => onSelect(item.key, e.target.checked)} />
              ) : null}
              <Avatar item={item} size="h-8 w-8" />
              <div className="min-w-0 flex-1">
                <div className="truncate text-sm font-medium text-slate-900">{authorName(item)}</div>
                <div className="truncate text-xs text-slate-500">
                  {authorHandle(item)} · {postTime(item.post)}
                </div>
              </div>
              <PlatformBadge platform={item.post.platform} />
            </div>
            <button type="button" className="flex-1 text-left text-sm text-slate-800 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600" onClick={() => onOpen(item)}>
              <span className="mb-1 flex flex-wrap gap-1">
                <Flags item={item} now={now} />
              </span>
              {img ? <img src={img} alt="" className="mb-2 h-40 w-full rounded object-cover" onError={(e) => (e.currentTarget.style.display = 'none')} /> : null}
              <span className="break-words">{shortCaption(item.post)}</span>
            </button>
            <TagDots ids={tagsOf(item)} all={tags} />
            <div className="mt-3 flex items-center justify-between gap-2 text-xs text-slate-600">
              <span>
                {count(item.engagement)} engagement · {engagementRate(item.engagementRate)}
              </span>
              <SentimentBadge level={item.sentimentBucket} />
            </div>
            {canManage ? <div className="mt-2 flex justify-end">{tagMenu(item)}</div> : null}
          </li>
        );
      })}
    </ul>
  );
}

// Post detail side view: every count the platform has, media (images, carousel, video with an
// image fallback), the retweet / quote / story / indirect-match notes, sentiment edit and ignore for managers.
// Closes on Escape or an overlay click.
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import type { PostItem, SentimentLevel } from '../../api/queries/posts';
import { IconX } from '../../components/icons';
import { SENTIMENT_BUCKETS } from '../../state/query-state';
import {
  authorHandle,
  authorName,
  caption,
  count,
  engagementRate,
  IGNORE_LABEL,
  images,
  isExpiredStory,
  pickVideo,
  postStats,
  postTime,
  SENTIMENT_CLASS,
  SENTIMENT_LABEL,
  VIDEO_FALLBACK,
} from './format';

/** Shown on a post its platform found for the tracker although its text lacks the terms. */
export const INDIRECT_MATCH_NOTE = 'The matched search term for this post may be found in the comments';

export function PostDetail({
  item,
  now,
  canManage,
  onClose,
  onSentiment,
  onIgnore,
  sentimentBusy,
}: {
  item: PostItem | null;
  now: number;
  canManage: boolean;
  onClose: () => void;
  onSentiment: (item: PostItem, level: SentimentLevel) => void;
  onIgnore: (item: PostItem) => void;
  sentimentBusy: boolean;
}) {
  return (
    <Dialog.Root open={!!item} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" data-testid="post-detail-overlay" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-[min(96vw,480px)] flex-col overflow-y-auto bg-white shadow-2xl focus:outline-none"
          data-testid="post-detail"
        >
          {item ? (
            <Body item={item} now={now} canManage={canManage} onSentiment={onSentiment} onIgnore={onIgnore} sentimentBusy={sentimentBusy} />
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Body({
  item,
  now,
  canManage,
  onSentiment,
  onIgnore,
  sentimentBusy,
}: {
  item: PostItem;
  now: number;
  canManage: boolean;
  onSentiment: (item: PostItem, level: SentimentLevel) => void;
  onIgnore: (item: PostItem) => void;
  sentimentBusy: boolean;
}) {
  const p = item.post;
  const expired = isExpiredStory(p, now);
  const stats = postStats(item);
  return (
    <>
      <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-5 py-4">
        <div className="flex min-w-0 items-center gap-3">
          <Avatar item={item} />
          <div className="min-w-0">
            <Dialog.Title className="truncate text-base font-semibold text-slate-900">{authorName(item)}</Dialog.Title>
            <p className="truncate text-sm text-slate-500">
              {[authorHandle(item), p.platform, postTime(p)].filter(Boolean).join(' · ')}
            </p>
          </div>
        </div>
        <Dialog.Close className="rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600" aria-label="Close">
          <IconX />
        </Dialog.Close>
      </div>
      <div className="space-y-4 px-5 py-4">
        {p.flags.isRetweet ? (
          <p className="text-sm text-slate-600" data-testid="retweet-note">
            Retweeted{p.flags.retweetOf ? ` from @${p.flags.retweetOf}` : ''}
          </p>
        ) : null}
        {p.flags.isStory ? (
          <p className="text-sm font-medium text-pink-700">{expired ? 'Expired' : 'Instagram story'}</p>
        ) : null}
        {item.indirectMatch ? (
          <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800" data-testid="indirect-note">
            {INDIRECT_MATCH_NOTE}
          </p>
        ) : null}
        {p.title ? <h3 className="text-base font-semibold text-slate-900">{p.title}</h3> : null}
        <p className="whitespace-pre-wrap break-words text-sm text-slate-800">{caption(p)}</p>
        {p.flags.isQuote && p.flags.quotedText ? (
          <blockquote className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
            {p.flags.quotedText}
            {p.flags.quotedUrl ? (
              <a href={p.flags.quotedUrl} target="_blank" rel="noreferrer noopener" className="mt-1 block text-xs text-brand-700 underline">
                Quoted post
              </a>
            ) : null}
          </blockquote>
        ) : null}
        <Media item={item} />
        <dl className="grid grid-cols-3 gap-3" aria-label="Post statistics">
          <Stat label="Engagement" value={count(item.engagement)} />
          <Stat label="Engagement rate" value={engagementRate(item.engagementRate)} />
          <Stat label="Reach" value={count(item.reach || undefined)} />
          {stats.map((s) => (
            <Stat key={s.label} label={s.label} value={count(s.value)} />
          ))}
        </dl>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-slate-500">Sentiment</span>
          {canManage ? (
            <select
              aria-label="Edit sentiment"
              value={item.sentimentBucket}
              disabled={sentimentBusy}
              onChange={(e) => onSentiment(item, e.target.value as SentimentLevel)}
              className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm"
            >
              {SENTIMENT_BUCKETS.map((b) => (
                <option key={b} value={b}>
                  {SENTIMENT_LABEL[b]}
                </option>
              ))}
            </select>
          ) : (
            <span className={`rounded px-2 py-0.5 text-xs font-medium ${SENTIMENT_CLASS[item.sentimentBucket]}`}>{SENTIMENT_LABEL[item.sentimentBucket]}</span>
          )}
          {item.sentimentMethod === 'lexicon' && !item.sentimentEdited ? (
            <span className="text-xs text-slate-500" title="The learned model covers English; this post's language is scored with a word list.">
              sentiment estimated from a lexicon
            </span>
          ) : null}
          {item.country ? <span className="text-slate-500">· {item.country}</span> : null}
          {p.author.location && !item.anonymized ? <span className="text-slate-500">· {p.author.location}</span> : null}
        </div>
        <div className="flex flex-wrap gap-3">
          {p.url && !expired ? (
            <a href={p.url} target="_blank" rel="noreferrer noopener" className="text-sm font-medium text-brand-700 underline">
              View Post
            </a>
          ) : null}
          {canManage && p.author.username && !item.anonymized ? (
            <button type="button" className="text-sm text-red-700 underline" onClick={() => onIgnore(item)}>
              {IGNORE_LABEL}
            </button>
          ) : null}
        </div>
      </div>
    </>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-sm font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

export function Avatar({ item, size = 'h-10 w-10' }: { item: PostItem; size?: string }) {
  const [broken, setBroken] = useState(false);
  const src = item.anonymized ? undefined : item.post.author.avatarUrl;
  const letter = authorName(item).slice(0, 1).toUpperCase();
  if (!src || broken) {
    return (
      <span className={`${size} flex shrink-0 items-center justify-center rounded-full bg-slate-200 text-sm font-semibold text-slate-600`} aria-hidden="true">
        {letter}
      </span>
    );
  }
  return <img src={src} alt="" className={`${size} shrink-0 rounded-full object-cover`} onError={() => setBroken(true)} />;
}

function Media({ item }: { item: PostItem }) {
  const video = pickVideo(item.post);
  const pics = images(item.post);
  const [videoFailed, setVideoFailed] = useState(false);
  const [index, setIndex] = useState(0);
  if (video && !videoFailed) {
    return (
      <video controls className="w-full rounded-md bg-black" poster={video.thumbnailUrl} onError={() => setVideoFailed(true)} data-testid="post-video">
        <source src={video.url} type="video/mp4" onError={() => setVideoFailed(true)} />
        {VIDEO_FALLBACK}
      </video>
    );
  }
  const fallback = video?.thumbnailUrl;
  const list = pics.length ? pics.map((m) => m.url) : fallback ? [fallback] : [];
  // A video that cannot play falls back to its image, with a link to the file.
  const videoLink = video ? (
    <a href={video.url} target="_blank" rel="noreferrer noopener" className="text-xs text-brand-700 underline" data-testid="video-link">
      Open video
    </a>
  ) : null;
  if (!list.length) return videoLink;
  const current = list[Math.min(index, list.length - 1)];
  return (
    <div className="space-y-2">
      <MediaImage src={current} />
      {videoLink}
      {list.length > 1 ? (
        <div className="flex items-center justify-center gap-2" aria-label="Carousel">
          <button type="button" className="rounded border border-slate-300 px-2 text-sm" onClick={() => setIndex((i) => (i - 1 + list.length) % list.length)} aria-label="Previous image">
            ‹
          </button>
          <span className="text-xs text-slate-500">
            {index + 1} / {list.length}
          </span>
          <button type="button" className="rounded border border-slate-300 px-2 text-sm" onClick={() => setIndex((i) => (i + 1) % list.length)} aria-label="Next image">
            ›
          </button>
        </div>
      ) : null}
    </div>
  );
}

function MediaImage({ src }: { src: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) {
    return <div className="flex h-40 items-center justify-center rounded-md bg-slate-100 text-sm text-slate-500">Image unavailable</div>;
  }
  return <img src={src} alt="Post media" className="max-h-96 w-full rounded-md object-contain" onError={() => setBroken(true)} />;
}

export function SentimentBadge({ level }: { level: SentimentLevel }) {
  return <span className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-medium ${SENTIMENT_CLASS[level]}`}>{SENTIMENT_LABEL[level]}</span>;
}

// Pure display rules of the posts page (posts spec sections 4, 5, 8 and 9).
import type { CollectedPost, PostItem, PostMedia, SentimentLevel } from '../../api/queries/posts';
import type { PlatformCode } from '../../api/types';
import { formatMetric, formatRate } from '../../lib/numbers';

export const POSTS_PAGE_SIZE = 25;
export const NEW_POSTS_NOTICE_MS = 5_000;
export const POST_HIDE_DELAY_MS = 1_000;
export const UNDO_NOTICE_MS = 10_000;
export const STORY_LIFETIME_MS = 86_400 * 1000;
export const TAG_NAME_MAX = 45;

export const POSTS_FETCH_ERROR = 'Sorry, an error occurred please try again.';
export const NO_CAPTION = '[No Caption]';
export const INDIRECT_MATCH = 'The matched search term for this post may be found in the comments';
export const VIDEO_FALLBACK = 'Your browser does not support the video tag.';
export const NO_TAGS = 'Click here to create your first tag!';
export const IGNORE_LABEL = "Don't collect any more posts from this user";

/** The count above the list: a total counted only up to a cap shows as "10,000+ posts". */
export function totalLabel(total: number, capped = false): string {
  return `${total.toLocaleString('en-US')}${capped ? '+' : ''} posts`;
}

/**
 * The pager's page count. A total not counted to the end (`capped`, shown with '+') is a lower
 * bound: after a full page there may be more, so Next stays open (`morePages`), and the count
 * is at least the current page (a page that is not full is the last).
 */
export function pager(total: number, capped: boolean, onPage: number, page: number, perPage: number): { pages: number; morePages: boolean } {
  const morePages = capped && onPage >= perPage;
  return { pages: Math.max(1, Math.ceil(total / perPage), capped ? page : 1), morePages };
}

export const deletedMessage = (n: number) => `Successfully deleted ${n} post(s).`;
export const ignoredMessage = (n: number) => `Successfully ignored ${n} user(s).`;

export const TAG_PALETTE: { name: string; color: string }[] = [
  { name: 'Tomato', color: '#c0392b' },
  { name: 'Flamingo', color: '#E67C73' },
  { name: 'Orange', color: '#F57336' },
  { name: 'Banana', color: '#FFB733' },
  { name: 'Forest', color: '#047878' },
  { name: 'Peacock', color: '#2980b9' },
  { name: 'Blueberry', color: '#3F51B5' },
  { name: 'Grape', color: '#800080' },
  { name: 'Graphite', color: '#616161' },
];
export const DEFAULT_TAG_COLOR = TAG_PALETTE[0].color;

/** Tag name rule: required after trimming, at most 45 characters. Returns the error or null. */
export function tagNameError(name: string): string | null {
  const t = name.trim();
  if (!t) return 'Enter a tag name.';
  if ([...t].length > TAG_NAME_MAX) return `A tag name has at most ${TAG_NAME_MAX} characters.`;
  return null;
}

const PLATFORM_CODE: Record<string, PlatformCode> = {
  twitter: 'twt',
  instagram: 'ig',
  youtube: 'yt',
  facebook: 'fb',
  tiktok: 'tt',
  news: 'news',
  blogs: 'blogs',
  forums: 'forums',
  bluesky: 'bsky',
  mastodon: 'mastodon',
};

export function platformCode(name: string): PlatformCode {
  return PLATFORM_CODE[name] ?? 'news';
}

/** Caption limit: 100 characters on YouTube, 200 elsewhere (ellipsis included). */
export function captionLimit(platform: string): number {
  return platform === 'youtube' ? 100 : 200;
}

export function caption(post: CollectedPost): string {
  const text = (post.text ?? '').trim() || (post.title ?? '').trim();
  return text || NO_CAPTION;
}

export function truncate(text: string, limit: number): string {
  const chars = [...text];
  if (chars.length <= limit) return text;
  return `${chars.slice(0, limit - 1).join('').trimEnd()}…`;
}

export function shortCaption(post: CollectedPost): string {
  return truncate(caption(post), captionLimit(post.platform));
}

/** An Instagram story is gone 24 hours after it was posted. */
export function isExpiredStory(post: CollectedPost, now: number): boolean {
  return post.platform === 'instagram' && !!post.flags.isStory && now - post.createdAt >= STORY_LIFETIME_MS;
}

/** A 10-digit timestamp is in seconds; facebook timestamps are used as they are. */
export function toMillis(ts: number, platform: string): number {
  if (platform === 'facebook') return ts;
  return ts > 0 && ts < 1e10 ? ts * 1000 : ts;
}

const timeFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
export function postTime(post: CollectedPost): string {
  return timeFmt.format(new Date(toMillis(post.createdAt, post.platform)));
}

export const count = formatMetric;

/** Engagement rate from the API (a percentage: 3.5 is 3.5%) with one decimal and '%'. */
export function engagementRate(rate: number | null | undefined): string {
  return formatRate(rate);
}

/** The counts a platform reports, in display order; stories hide likes and comments. */
export function postStats(item: PostItem): { label: string; value: number | undefined }[] {
  const c = item.post.counts;
  const p = item.post.platform;
  const stats: { label: string; value: number | undefined }[] = [];
  const add = (label: string, value: number | undefined) => stats.push({ label, value });
  switch (p) {
    case 'twitter':
      add('Retweets', c.retweets);
      add('Likes', c.likes);
      add('Replies', c.replies);
      add('Quotes', c.quotes);
      add('Impressions', c.impressions);
      break;
    case 'instagram':
      if (!item.post.flags.isStory) {
        add('Likes', c.likes);
        add('Comments', c.comments);
      }
      add('Saves', c.saves);
      add('Replies', c.replies);
      add('Exits', c.exits);
      add('Taps forward', c.tapsForward);
      add('Taps back', c.tapsBack);
      add('Impressions', c.impressions);
      add('Reach', c.reach);
      break;
    case 'youtube':
      add('Views', c.views);
      add('Likes', c.likes);
      add('Dislikes', c.dislikes);
      add('Comments', c.comments);
      break;
    case 'facebook':
      add('Reactions', c.likes);
      add('Comments', c.comments);
      add('Shares', c.shares);
      add('Clicks', c.clicks);
      add('Impressions', c.impressions);
      add('Reach', c.reach);
      break;
    case 'tiktok':
      add('Views', c.views);
      add('Likes', c.likes);
      add('Comments', c.comments);
      add('Shares', c.shares);
      break;
    default:
      add('Comments', c.comments);
      add('Shares', c.shares);
  }
  // Instagram and web sources hide empty or zero stats.
  const hideEmpty = p === 'instagram' || p === 'news' || p === 'blogs' || p === 'forums';
  return hideEmpty ? stats.filter((s) => !!s.value) : stats.filter((s) => s.value !== undefined);
}

/**
 * The playable file of a video: twitter video takes an mp4 of at least 320000 bit/s (the
 * lowest such), a gif the mp4 of bitrate 0; other platforms the first video.
 */
export function pickVideo(post: CollectedPost): PostMedia | null {
  const videos = (post.media ?? []).filter((m) => m.kind === 'video' || m.kind === 'gif' || m.kind === 'reel');
  if (!videos.length) return null;
  if (post.platform !== 'twitter') return videos[0];
  const mp4 = videos.filter((m) => /\.mp4(\?|$)/i.test(m.url));
  if (videos.some((m) => m.kind === 'gif')) return mp4.find((m) => (m.bitrate ?? 0) === 0) ?? videos[0];
  const good = mp4.filter((m) => (m.bitrate ?? 0) >= 320_000).sort((a, b) => (a.bitrate ?? 0) - (b.bitrate ?? 0));
  return good[0] ?? mp4[0] ?? videos[0];
}

export function images(post: CollectedPost): PostMedia[] {
  return (post.media ?? []).filter((m) => m.kind === 'photo' || m.kind === 'carousel');
}

export const SENTIMENT_LABEL: Record<SentimentLevel, string> = {
  positive: 'Positive',
  slight_positive: 'Slightly Positive',
  neutral: 'Neutral',
  slight_negative: 'Slightly Negative',
  negative: 'Negative',
};

export const SENTIMENT_CLASS: Record<SentimentLevel, string> = {
  positive: 'bg-emerald-100 text-emerald-800',
  slight_positive: 'bg-lime-100 text-lime-800',
  neutral: 'bg-slate-100 text-slate-700',
  slight_negative: 'bg-orange-100 text-orange-800',
  negative: 'bg-red-100 text-red-800',
};

/**
 * Whether a post still belongs in the list after its tags changed, under the active tag
 * filter (all: every filter tag; any: at least one).
 */
export function matchesTagFilter(tags: number[], filter: number[], mode: 'any' | 'all'): boolean {
  if (!filter.length) return true;
  return mode === 'all' ? filter.every((t) => tags.includes(t)) : filter.some((t) => tags.includes(t));
}

/** Whether a post with this sentiment still shows under the sentiment filter (empty: all). */
export function matchesSentiment(level: SentimentLevel, filter: SentimentLevel[]): boolean {
  return !filter.length || filter.includes(level);
}

/** Who wrote it, or nothing for an anonymised facebook post. */
export function authorName(item: PostItem): string {
  if (item.anonymized) return 'Facebook user';
  return item.post.author.name || item.post.author.username || 'Unknown';
}

export function authorHandle(item: PostItem): string {
  if (item.anonymized || !item.post.author.username) return '';
  const p = item.post.platform;
  return p === 'news' || p === 'blogs' || p === 'forums' ? item.post.author.username : `@${item.post.author.username}`;
}

/** The author key the ignore call takes. */
export function authorKey(item: PostItem): string | null {
  const u = item.post.author.username;
  return u ? `${item.post.platform};${u}` : null;
}

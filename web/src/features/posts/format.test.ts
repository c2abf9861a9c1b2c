import { describe, expect, it } from 'vitest';
import type { CollectedPost, PostItem } from '../../api/queries/posts';
import {
  captionLimit,
  engagementRate,
  isExpiredStory,
  matchesSentiment,
  matchesTagFilter,
  NO_CAPTION,
  pager,
  pickVideo,
  postStats,
  shortCaption,
  tagNameError,
  toMillis,
  totalLabel,
} from './format';
import { count } from './format';
import { postsSearchPlaceholder } from './index';

function post(over: Partial<CollectedPost> = {}): CollectedPost {
  return { platform: 'twitter', id: '1', author: {}, createdAt: 0, counts: {}, flags: {}, ...over };
}

function item(p: CollectedPost): PostItem {
  return {
    key: `${p.platform};${p.id}`,
    post: p,
    sentiment: 0,
    sentimentBucket: 'neutral',
    sentimentEdited: false,
    sentimentMethod: 'model',
    engagement: 0,
    engagementRate: null,
    reach: 0,
    impressions: 0,
    country: null,
    postType: 'original',
    isNew: false,
    anonymized: false,
    indirectMatch: false,
    tags: [],
  };
}

describe('posts formatting', () => {
  it('shortens counts above 10,000 and shows - when empty', () => {
    expect(count(12_345)).toBe('12.3k');
    expect(count(10_000)).toBe('10,000');
    expect(count(undefined)).toBe('-');
    expect(engagementRate(4.56)).toBe('4.6%');
    expect(engagementRate(null)).toBe('-');
  });

  it('truncates captions at 200, youtube at 100, and shows [No Caption]', () => {
    const long = 'a'.repeat(300);
    expect(captionLimit('youtube')).toBe(100);
    expect([...shortCaption(post({ text: long }))].length).toBe(200);
    expect([...shortCaption(post({ platform: 'youtube', text: long }))].length).toBe(100);
    expect(shortCaption(post({ text: 'short' }))).toBe('short');
    expect(shortCaption(post({ text: '  ' }))).toBe(NO_CAPTION);
  });

  it('expires instagram stories after 24 hours', () => {
    const story = post({ platform: 'instagram', flags: { isStory: true }, createdAt: 1000 });
    expect(isExpiredStory(story, 1000 + 86_399_999)).toBe(false);
    expect(isExpiredStory(story, 1000 + 86_400_000)).toBe(true);
    expect(isExpiredStory(post({ createdAt: 0 }), 1e12)).toBe(false);
  });

  it('reads 10-digit timestamps as seconds except on facebook', () => {
    expect(toMillis(1_700_000_000, 'twitter')).toBe(1_700_000_000_000);
    expect(toMillis(1_700_000_000_000, 'twitter')).toBe(1_700_000_000_000);
    expect(toMillis(1_700_000_000, 'facebook')).toBe(1_700_000_000);
  });

  it('picks the twitter mp4 of at least 320000 bit/s and the gif mp4 of bitrate 0', () => {
    const v = pickVideo(
      post({
        media: [
          { kind: 'video', url: 'https://v/low.mp4', bitrate: 256_000 },
          { kind: 'video', url: 'https://v/high.mp4', bitrate: 2_176_000 },
          { kind: 'video', url: 'https://v/mid.mp4', bitrate: 832_000 },
          { kind: 'video', url: 'https://v/pl.m3u8' },
        ],
      }),
    );
    expect(v?.url).toBe('https://v/mid.mp4');
    const g = pickVideo(post({ media: [{ kind: 'gif', url: 'https://v/g.mp4', bitrate: 0 }] }));
    expect(g?.url).toBe('https://v/g.mp4');
    expect(pickVideo(post())).toBeNull();
  });

  it('hides story likes and comments and empty instagram stats', () => {
    const s = postStats(item(post({ platform: 'instagram', flags: { isStory: true }, counts: { likes: 5, comments: 2, exits: 3, reach: 0 } })));
    expect(s.map((x) => x.label)).toEqual(['Exits']);
    const t = postStats(item(post({ counts: { likes: 5, retweets: 1 } })));
    expect(t.map((x) => x.label)).toEqual(['Retweets', 'Likes']);
  });

  it('validates tag names', () => {
    expect(tagNameError('   ')).not.toBeNull();
    expect(tagNameError('x'.repeat(45))).toBeNull();
    expect(tagNameError('x'.repeat(46))).not.toBeNull();
  });

  it('keeps posts under tag and sentiment filters', () => {
    expect(matchesTagFilter([1], [1, 2], 'any')).toBe(true);
    expect(matchesTagFilter([1], [1, 2], 'all')).toBe(false);
    expect(matchesTagFilter([], [], 'all')).toBe(true);
    expect(matchesSentiment('positive', [])).toBe(true);
    expect(matchesSentiment('positive', ['negative'])).toBe(false);
  });

  it('builds the search placeholder', () => {
    expect(postsSearchPlaceholder(['ig', 'yt'])).toBe('Search Posts, Users');
    expect(postsSearchPlaceholder(['ig', 'news'])).toBe('Search Posts, Users, Locations');
  });
});

describe('totalLabel', () => {
  it('shows an exact total with separators and a capped one with a plus', () => {
    expect(totalLabel(309922)).toBe('309,922 posts');
    expect(totalLabel(10000, true)).toBe('10,000+ posts');
    expect(totalLabel(1000, true)).toBe('1,000+ posts');
    expect(totalLabel(0, false)).toBe('0 posts');
  });
});

describe('pager', () => {
  it('counts the pages of an exact total', () => {
    expect(pager(0, false, 0, 1, 25)).toEqual({ pages: 1, morePages: false });
    expect(pager(30, false, 25, 1, 25)).toEqual({ pages: 2, morePages: false });
    expect(pager(50, false, 25, 2, 25)).toEqual({ pages: 2, morePages: false });
  });

  it('leaves Next open after a full page when the total is a lower bound', () => {
    expect(pager(400, true, 25, 1, 25)).toEqual({ pages: 16, morePages: true });
    // Past the counted posts, the page reached counts.
    expect(pager(400, true, 25, 20, 25)).toEqual({ pages: 20, morePages: true });
    // A page that is not full is the last.
    expect(pager(400, true, 10, 21, 25)).toEqual({ pages: 21, morePages: false });
  });
});

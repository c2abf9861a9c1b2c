import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, apiHref, embedKeyFor, get, moderationKeyFor, shareHashFor } from './client';

describe('shareHashFor', () => {
  const page = (pathname: string, search: string) => ({ pathname, search });

  it("gives the page's shareHash to reads of the same tracker", () => {
    const p = page('/hashtag-tracking/posts/abc123/rust', '?days=7&shareHash=s1');
    expect(shareHashFor('/trackers/abc123', p)).toBe('s1');
    expect(shareHashFor('/trackers/abc123/dashboard/top-stats', p)).toBe('s1');
    expect(shareHashFor('/trackers/abc123/posts/export.csv', p)).toBe('s1');
  });

  it('gives nothing to other trackers, other paths or pages without a share link', () => {
    expect(shareHashFor('/trackers/other/posts', page('/hashtag-tracking/posts/abc123/rust', '?shareHash=s1'))).toBeNull();
    expect(shareHashFor('/me', page('/hashtag-tracking/posts/abc123/rust', '?shareHash=s1'))).toBeNull();
    expect(shareHashFor('/trackers/abc123', page('/hashtag-tracking/posts/abc123/rust', '?days=7'))).toBeNull();
    expect(shareHashFor('/trackers/abc123', page('/mytracks/hashtag', '?shareHash=s1'))).toBeNull();
  });
});

describe('embedKeyFor', () => {
  const page = (pathname: string, search: string) => ({ pathname, search });

  it("gives the page's embedKey to reads of the same tracker only", () => {
    const p = page('/hashtag-tracking/dashboard/abc123/rust', '?embed=1&chart=timeline&embedKey=k1');
    expect(embedKeyFor('/trackers/abc123/dashboard/timeline', p)).toBe('k1');
    expect(embedKeyFor('/trackers/other/dashboard/timeline', p)).toBeNull();
    expect(embedKeyFor('/me', p)).toBeNull();
    expect(embedKeyFor('/trackers/abc123', page('/hashtag-tracking/dashboard/abc123/rust', '?embed=1'))).toBeNull();
  });
});

describe('moderationKeyFor', () => {
  const page = (pathname: string, search: string) => ({ pathname, search });

  it("gives the page's moderationKey to the tracker and its media wall calls only", () => {
    const p = page('/hashtag-tracking/media-wall/abc123/rust', '?moderationKey=m1');
    expect(moderationKeyFor('/trackers/abc123', p)).toBe('m1');
    expect(moderationKeyFor('/trackers/abc123/media-wall', p)).toBe('m1');
    expect(moderationKeyFor('/trackers/abc123/media-wall/visibility', p)).toBe('m1');
    expect(moderationKeyFor('/trackers/abc123/posts', p)).toBeNull();
    expect(moderationKeyFor('/trackers/abc123/total-posts', p)).toBeNull();
    expect(moderationKeyFor('/trackers/other/media-wall', p)).toBeNull();
    expect(moderationKeyFor('/me', p)).toBeNull();
    expect(moderationKeyFor('/trackers/abc123/media-wall', page('/hashtag-tracking/media-wall/abc123/rust', ''))).toBeNull();
  });
});

describe('reads through a shared link', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '/');
  });

  it('every GET of the page’s tracker carries the shareHash, other calls do not', async () => {
    window.history.replaceState(null, '', '/hashtag-tracking/dashboard/abc123/rust?shareHash=s1');
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        urls.push(input);
        return new Response('{}', { status: 200 });
      }),
    );
    await get('/trackers/abc123/dashboard/timeline', { days: 14 });
    await get('/me', { tracker: 'abc123' });
    expect(urls).toEqual(['/api/v1/trackers/abc123/dashboard/timeline?days=14&shareHash=s1', '/api/v1/me?tracker=abc123']);
    expect(apiHref('/trackers/abc123/influencers/export.csv', { days: 30 })).toBe('/api/v1/trackers/abc123/influencers/export.csv?days=30&shareHash=s1');
  });

  it('every GET of the page’s tracker carries the embedKey of an embed', async () => {
    window.history.replaceState(null, '', '/hashtag-tracking/posts/abc123/rust?embed=1&embedKey=k2');
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        urls.push(input);
        return new Response('{}', { status: 200 });
      }),
    );
    await get('/trackers/abc123/posts', { page: 1 });
    await get('/me', { tracker: 'abc123' });
    expect(urls).toEqual(['/api/v1/trackers/abc123/posts?page=1&embedKey=k2', '/api/v1/me?tracker=abc123']);
  });

  it('the moderation key goes on media wall changes as well as reads', async () => {
    window.history.replaceState(null, '', '/hashtag-tracking/media-wall/abc123/rust?moderationKey=m1');
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        urls.push(input);
        return new Response('{}', { status: 200 });
      }),
    );
    await get('/trackers/abc123');
    await get('/trackers/abc123/media-wall', { count: 50 });
    await api('POST', '/trackers/abc123/media-wall/visibility', { posts: ['twt;1'], visibility: 0 });
    await api('POST', '/trackers/abc123/posts/delete', { posts: ['twt;1'] });
    expect(urls).toEqual([
      '/api/v1/trackers/abc123?moderationKey=m1',
      '/api/v1/trackers/abc123/media-wall?count=50&moderationKey=m1',
      '/api/v1/trackers/abc123/media-wall/visibility?moderationKey=m1',
      '/api/v1/trackers/abc123/posts/delete',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  ERR_FIRST_POST,
  ERR_TIMEOUT,
  initialPreview,
  mergePosts,
  previewReducer,
  reconnectDelay,
  type PreviewAction,
  type PreviewState,
} from './realtime-preview';

const post = (id: string, createdAt: number, extra: Record<string, unknown> = {}) => ({ platform: 'twitter', id, createdAt, ...extra });
const run = (s: PreviewState, ...actions: PreviewAction[]) => actions.reduce(previewReducer, s);
const msg = (data: unknown, now = 1000): PreviewAction => ({ type: 'message', data, now });

describe('real-time preview', () => {
  it('buffers streamed posts until a flush, then merges, de-duplicates and sorts them', () => {
    let s = run(initialPreview(0), { type: 'open' }, msg({ type: 'posts', posts: [post('1', 10), post('2', 30)] }, 500));
    expect(s.posts).toEqual([]);
    expect(s.pending).toHaveLength(2);
    expect(s.firstPostAt).toBe(500);
    s = run(s, { type: 'flush' }, msg({ type: 'posts', posts: [post('3', 20), post('2', 30, { text: 'newer copy' })] }), { type: 'flush' });
    expect(s.posts.map((p) => p.id)).toEqual(['2', '3', '1']);
    expect(s.posts[0].text).toBe('newer copy');
    expect(mergePosts([post('a', 1)], [{ ...post('a', 1), platform: 'news' }])).toHaveLength(2);
  });

  it('ends with fetching complete then processing complete', () => {
    let s = run(initialPreview(0), { type: 'open' }, msg({ type: 'posts', posts: [post('1', 10)] }), msg({ type: 'fetching_complete' }));
    expect(s.phase).toBe('fetched');
    expect(s.posts).toHaveLength(1);
    s = run(s, msg({ type: 'processing_complete', total: 1 }));
    expect(s.phase).toBe('complete');
    expect(s.total).toBe(1);
    // Finished: later events change nothing.
    expect(run(s, msg({ type: 'posts', posts: [post('9', 99)] }), { type: 'tick', now: 999_999 })).toBe(s);
  });

  it('a preview that finds nothing completes with a total of 0 (the no-data case), not a timeout', () => {
    const s = run(initialPreview(0), { type: 'open' }, msg({ type: 'fetching_complete' }), { type: 'tick', now: 70_000 }, msg({ type: 'processing_complete', total: 0 }));
    expect(s.phase).toBe('complete');
    expect(s.total).toBe(0);
    expect(s.error).toBeNull();
  });

  it('times out without a first post within 60 s, or after 180 s overall', () => {
    expect(run(initialPreview(0), { type: 'open' }, { type: 'tick', now: 59_999 }).error).toBeNull();
    expect(run(initialPreview(0), { type: 'open' }, { type: 'tick', now: 60_000 }).error).toBe(ERR_FIRST_POST);
    const streaming = run(initialPreview(0), { type: 'open' }, msg({ type: 'posts', posts: [post('1', 1)] }, 5000));
    expect(run(streaming, { type: 'tick', now: 100_000 }).error).toBeNull();
    const late = run(streaming, { type: 'tick', now: 180_000 });
    expect(late.error).toBe(ERR_TIMEOUT);
    expect(late.posts).toHaveLength(1);
  });

  it('fails on the third disconnect; reconnects wait 1 to 5 s', () => {
    let s = run(initialPreview(0), { type: 'open' }, { type: 'disconnect' });
    expect(s.phase).toBe('connecting');
    s = run(s, { type: 'open' }, { type: 'disconnect' }, { type: 'open' });
    expect(s.error).toBeNull();
    s = run(s, { type: 'disconnect' });
    expect(s.error).toBe('hit max disconnect events (3/3)');
    expect([1, 2, 3, 4, 5, 9].map(reconnectDelay)).toEqual([1000, 2000, 3000, 4000, 5000, 5000]);
  });

  it('ignores malformed messages and records source errors', () => {
    let s = run(initialPreview(0), msg(null), msg({ type: 'posts', posts: [{ id: 1 }] }), msg('x'));
    expect(s.pending).toEqual([]);
    s = run(s, msg({ type: 'source_error', connector: 'reddit', message: 'credentials rejected' }));
    expect(s.sourceErrors).toEqual(['reddit: credentials rejected']);
  });
});

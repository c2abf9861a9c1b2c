import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { previewStreamUrl, useRealtimePreview } from './useRealtimePreview';

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(public url: string) {
    FakeSocket.all.push(this);
  }
  close() {
    this.closed = true;
  }
  send(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) });
  }
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useRealtimePreview', () => {
  it('streams posts in 2.5 s batches, reconnects after a drop and reports the end once', () => {
    const onEnd = vi.fn();
    const { result } = renderHook(() => useRealtimePreview('abc', true, onEnd));
    expect(FakeSocket.all[0].url).toBe('ws://localhost:3000/api/v1/trackers/abc/preview/stream');
    act(() => {
      FakeSocket.all[0].onopen?.();
      FakeSocket.all[0].send({ type: 'posts', posts: [{ platform: 'twitter', id: '1', createdAt: 5 }] });
    });
    expect(result.current.posts).toHaveLength(0);
    act(() => vi.advanceTimersByTime(2500));
    expect(result.current.posts.map((p) => p.id)).toEqual(['1']);

    act(() => FakeSocket.all[0].onclose?.());
    expect(result.current.disconnects).toBe(1);
    act(() => vi.advanceTimersByTime(999));
    expect(FakeSocket.all).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeSocket.all).toHaveLength(2);

    act(() => {
      FakeSocket.all[1].onopen?.();
      FakeSocket.all[1].send({ type: 'posts', posts: [{ platform: 'twitter', id: '2', createdAt: 9 }, { platform: 'twitter', id: '1', createdAt: 5 }] });
      FakeSocket.all[1].send({ type: 'fetching_complete' });
      FakeSocket.all[1].send({ type: 'processing_complete', total: 2 });
      FakeSocket.all[1].onclose?.();
    });
    expect(result.current.phase).toBe('complete');
    expect(result.current.posts.map((p) => p.id)).toEqual(['2', '1']);
    expect(onEnd).toHaveBeenCalledTimes(1);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('gives up after 60 s without a first post', () => {
    const onEnd = vi.fn();
    const { result } = renderHook(() => useRealtimePreview('abc', true, onEnd));
    act(() => FakeSocket.all[0].onopen?.());
    act(() => vi.advanceTimersByTime(61_000));
    expect(result.current.error).toBe('preview timed out, first posts not found within 1 minute');
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('stops after the third disconnect and closes the socket when finished', () => {
    const onEnd = vi.fn();
    const { result } = renderHook(() => useRealtimePreview('abc', true, onEnd));
    for (let i = 0; i < 2; i++) {
      act(() => FakeSocket.all[i].onclose?.());
      act(() => vi.advanceTimersByTime(5000));
    }
    expect(FakeSocket.all).toHaveLength(3);
    act(() => FakeSocket.all[2].onclose?.());
    expect(result.current.error).toBe('hit max disconnect events (3/3)');
    act(() => vi.advanceTimersByTime(10_000));
    expect(FakeSocket.all).toHaveLength(3);
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('closes the socket once the preview completes', () => {
    renderHook(() => useRealtimePreview('abc', true));
    act(() => {
      FakeSocket.all[0].onopen?.();
      FakeSocket.all[0].send({ type: 'processing_complete', total: 0 });
    });
    expect(FakeSocket.all[0].closed).toBe(true);
  });

  it('builds wss URLs on https', () => {
    expect(previewStreamUrl('a b', { protocol: 'https:', host: 'hark.example' })).toBe('wss://hark.example/api/v1/trackers/a%20b/preview/stream');
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { POSTS_REFRESH_MS, usePosts } from './posts';

function page(total: number) {
  return { posts: [], total, page: 1, perPage: 25, lastVisited: null, canManage: false, canExport: false };
}

function setup(refresh: boolean) {
  const calls: URL[] = [];
  let total = 1;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(new URL(url, 'http://localhost'));
      return new Response(JSON.stringify(page(total++)), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  const qc = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
  const hook = renderHook(() => usePosts('abc', { page: 1, days: 30 }, true, refresh), { wrapper });
  return { calls, hook };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('usePosts', () => {
  it('refreshes every 60 s as a background fetch, keeping the rows shown meanwhile', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls, hook } = setup(true);
    await waitFor(() => expect(hook.result.current.data?.total).toBe(1));
    expect(calls).toHaveLength(1);
    expect(calls[0].searchParams.get('background')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POSTS_REFRESH_MS - 1000);
    });
    expect(calls).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    await waitFor(() => expect(hook.result.current.data?.total).toBe(2));
    expect(calls).toHaveLength(2);
    expect(calls[1].searchParams.get('background')).toBe('1');
    // The refreshed page replaces the rows directly: never a placeholder, so nothing dims.
    expect(hook.result.current.isPlaceholderData).toBe(false);
  });

  it('does not refresh when the range is over or the tracker is paused', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls, hook } = setup(false);
    await waitFor(() => expect(hook.result.current.data?.total).toBe(1));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3 * POSTS_REFRESH_MS);
    });
    expect(calls).toHaveLength(1);
  });
});

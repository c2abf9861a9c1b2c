import { useQuery } from '@tanstack/react-query';
import { ApiError, get } from '../client';
import type { DemoTracker } from '../types';

export const demoKey = ['demo'] as const;

/** GET /demo → the demo tracker, or null when the instance runs without one (404). */
export function useDemoTracker() {
  return useQuery({
    queryKey: demoKey,
    queryFn: async (): Promise<DemoTracker | null> => {
      try {
        return await get<DemoTracker>('/demo');
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }
    },
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Where the demo link goes: the dashboard in demo mode. */
export function demoPath(d: Pick<DemoTracker, 'hash' | 'friendly'>): string {
  return `/hashtag-tracking/dashboard/${encodeURIComponent(d.hash)}/${encodeURIComponent(d.friendly)}?demo=true`;
}

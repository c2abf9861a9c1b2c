import { useQuery } from '@tanstack/react-query';
import { get } from '../client';
import type { Me } from '../types';

export const meKey = (tracker?: string) => ['me', tracker ?? null] as const;

/** The current user; with a tracker hash, also the caller's permission on it. */
export function useMe(tracker?: string) {
  return useQuery({
    queryKey: meKey(tracker),
    queryFn: () => get<Me>('/me', tracker ? { tracker } : undefined),
    staleTime: 60_000,
  });
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, type Query } from '../client';

export interface KeyStatistics {
  posts: number;
  users: number;
  engagement: number;
  reach: number;
  impressions: number;
  engagementRate: number | null;
}

/** GET /trackers/{hash}/stats with the page filters; keeps the previous answer while refetching. */
export function useKeyStatistics(hash: string, filters: Query) {
  return useQuery({
    queryKey: ['trackers', 'stats', hash, filters],
    queryFn: () => get<KeyStatistics>(`/trackers/${encodeURIComponent(hash)}/stats`, filters),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

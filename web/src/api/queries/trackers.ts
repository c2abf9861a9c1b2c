import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get } from '../client';
import type { Tag, Tracker, TrackerLog } from '../types';

export const trackerKeys = {
  all: ['trackers'] as const,
  list: (page: number) => ['trackers', 'list', page] as const,
  one: (hash: string) => ['trackers', 'one', hash] as const,
  logs: (hash: string) => ['trackers', 'logs', hash] as const,
  tags: (hash: string) => ['trackers', 'tags', hash] as const,
  total: (hash: string, q: string) => ['trackers', 'total', hash, q] as const,
};

export function useTrackers(page = 1, enabled = true) {
  return useQuery({
    queryKey: trackerKeys.list(page),
    queryFn: () => get<{ trackers: Tracker[]; count: number }>('/trackers', { page, perPage: 100 }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useTracker(hash: string) {
  return useQuery({
    queryKey: trackerKeys.one(hash),
    queryFn: () => get<Tracker>(`/trackers/${encodeURIComponent(hash)}`),
    retry: false,
    // Follow a running re-analysis, scoring with a new sentiment model, or backfill.
    refetchInterval: (q) =>
      (q.state.data?.reanalysis && !q.state.data.reanalysis.done) || q.state.data?.sentimentModel
        ? 3000
        : q.state.data?.isBackfilling
          ? 5000
          : false,
  });
}

export function useTrackerLogs(hash: string, enabled = true) {
  return useQuery({
    queryKey: trackerKeys.logs(hash),
    queryFn: () => get<{ logs: TrackerLog[] }>(`/trackers/${encodeURIComponent(hash)}/logs`),
    enabled,
  });
}

export function useTags(hash: string, enabled = true) {
  return useQuery({
    queryKey: trackerKeys.tags(hash),
    queryFn: () => get<{ tags: Tag[] }>(`/trackers/${encodeURIComponent(hash)}/tags`),
    enabled,
  });
}

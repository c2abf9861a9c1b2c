// Hooks for the tracker page shell: live post count, influencer tags, hide-auth-metrics.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, put, type Query } from '../client';
import type { Tag, Tracker } from '../types';
import { trackerKeys } from './trackers';

export const TOTAL_POSTS_POLL_MS = 60_000;

interface TotalPostsAnswer {
  count?: { posts?: number };
  data?: { count?: { posts?: number } };
}

/** GET /trackers/{hash}/total-posts → count.posts; polled every 60 s when `poll`. */
export function useTotalPosts(hash: string, filters: Query, opts: { enabled?: boolean; poll?: boolean } = {}) {
  const key = JSON.stringify(filters);
  return useQuery({
    queryKey: trackerKeys.total(hash, key),
    queryFn: async () => {
      const r = await get<TotalPostsAnswer>(`/trackers/${encodeURIComponent(hash)}/total-posts`, filters);
      const posts = r?.count?.posts ?? r?.data?.count?.posts;
      if (typeof posts !== 'number') throw new Error('total-posts: no count');
      return posts;
    },
    enabled: opts.enabled ?? true,
    refetchInterval: opts.poll ? TOTAL_POSTS_POLL_MS : false,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export const influencerTagsKey = ['influencer-tags'] as const;

export function useInfluencerTags(enabled = true) {
  return useQuery({
    queryKey: influencerTagsKey,
    queryFn: () => get<{ tags: Tag[] }>('/influencer-tags'),
    enabled,
    staleTime: 60_000,
  });
}

/** PUT /trackers/{hash}/hide-auth-metrics, applied to the cached tracker at once and reverted on failure. */
export function useHideAuthMetrics(hash: string) {
  const qc = useQueryClient();
  const key = trackerKeys.one(hash);
  return useMutation({
    mutationFn: (hidden: boolean) => put<Tracker>(`/trackers/${encodeURIComponent(hash)}/hide-auth-metrics`, { hidden }),
    onMutate: async (hidden) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<Tracker>(key);
      if (previous) qc.setQueryData<Tracker>(key, { ...previous, hideAuthMetrics: hidden });
      return { previous };
    },
    onError: (_err, _hidden, ctx) => {
      if (ctx?.previous) qc.setQueryData(key, ctx.previous);
    },
    onSuccess: (tracker) => {
      if (tracker && typeof tracker === 'object' && 'hash' in tracker) qc.setQueryData(key, tracker);
    },
  });
}

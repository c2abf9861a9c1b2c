// Hooks for the tracker page shell: live post count, influencer tags, hide-auth-metrics,
// anonymize-facebook.
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
  return useTrackerFlag(hash, 'hide-auth-metrics', 'hidden', 'hideAuthMetrics');
}

/** PUT /trackers/{hash}/anonymize-facebook, applied to the cached tracker at once and reverted on failure. */
export function useAnonymizeFacebook(hash: string) {
  return useTrackerFlag(hash, 'anonymize-facebook', 'enabled', 'anonymizeFacebook');
}

/** A boolean tracker setting with its own endpoint, shown changed at once (optimistic). */
function useTrackerFlag(hash: string, path: string, field: string, prop: 'hideAuthMetrics' | 'anonymizeFacebook') {
  const qc = useQueryClient();
  const key = trackerKeys.one(hash);
  return useMutation({
    mutationFn: (value: boolean) => put<Tracker>(`/trackers/${encodeURIComponent(hash)}/${path}`, { [field]: value }),
    onMutate: async (value) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<Tracker>(key);
      if (previous) qc.setQueryData<Tracker>(key, { ...previous, [prop]: value });
      return { previous };
    },
    onError: (_err, _value, ctx) => {
      if (ctx?.previous) qc.setQueryData(key, ctx.previous);
    },
    onSuccess: (tracker) => {
      if (tracker && typeof tracker === 'object' && 'hash' in tracker) qc.setQueryData(key, tracker);
    },
  });
}

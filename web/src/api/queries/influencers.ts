// Hooks of the influencers page: the ranked accounts, one account's posts, the caller's
// influencer tags (an account watchlist, per user) and tagging accounts.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, get, type Query } from '../client';
import type { Schema, Tag } from '../types';
import type { PostItem } from './posts';
import { influencerTagsKey } from './shell';

/** One account of the ranking, figures over the header's range and filters. */
export type InfluencerRow = Schema<'InfluencerItem'>;
export type InfluencerPage = Schema<'InfluencerPage'>;
/** One account's posts in the range (the side view). */
export type InfluencerPosts = Omit<Schema<'AccountPosts'>, 'posts'> & { posts: PostItem[] };

export const influencerKeys = {
  all: ['influencers'] as const,
  list: (hash: string, q: string) => ['influencers', hash, 'list', q] as const,
  posts: (hash: string, q: string) => ['influencers', hash, 'posts', q] as const,
};

const base = (hash: string) => `/trackers/${encodeURIComponent(hash)}/influencers`;

/** One page of the ranking: the filter query plus page, perPage, sort, search and the advanced filters. */
export function useInfluencers(hash: string, query: Query, enabled = true) {
  return useQuery({
    queryKey: influencerKeys.list(hash, JSON.stringify(query)),
    queryFn: () => get<InfluencerPage>(base(hash), query),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** One account's posts in the range: the filter query plus account, sort, page and perPage. */
export function useInfluencerPosts(hash: string, query: Query, enabled = true) {
  return useQuery({
    queryKey: influencerKeys.posts(hash, JSON.stringify(query)),
    queryFn: () => get<InfluencerPosts>(`${base(hash)}/posts`, query),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Tag lists and rankings (whose rows carry tags, and whose tag filter may have changed) refetch. */
function useRefreshAfterTagChange() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: influencerTagsKey });
    void qc.invalidateQueries({ queryKey: influencerKeys.all });
  };
}

/** Create, rename / recolour and delete the caller's influencer tags. */
export function useInfluencerTagMutations() {
  const refresh = useRefreshAfterTagChange();
  return {
    create: useMutation({
      mutationFn: (v: { name: string; color: string }) => api<Tag>('POST', '/influencer-tags', v),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: (v: { id: number; name: string; color: string }) =>
        api<Tag>('PATCH', `/influencer-tags/${v.id}`, { name: v.name, color: v.color }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => api<void>('DELETE', `/influencer-tags/${id}`),
      onSuccess: refresh,
    }),
  };
}

/** Adds and removes influencer tags on accounts (InfluencerRow.key) of the tracker. */
export function useTagInfluencers(hash: string) {
  const refresh = useRefreshAfterTagChange();
  return useMutation({
    mutationFn: (v: { accounts: string[]; add?: number[]; remove?: number[] }) =>
      api<{ updated: number }>('PUT', `${base(hash)}/tags`, { accounts: v.accounts, add: v.add ?? [], remove: v.remove ?? [] }),
    onSuccess: refresh,
  });
}

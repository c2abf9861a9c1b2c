// Hooks of the posts page: the list, tags, sentiment edits, bulk delete and ignore with undo,
// adding posts by address.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiHref, get, type Query } from '../client';
import type { Narrowed, Schema, Tag } from '../types';
import { trackerKeys } from './trackers';

export type SentimentLevel = 'positive' | 'slight_positive' | 'neutral' | 'slight_negative' | 'negative';
export type MediaKind = 'photo' | 'video' | 'gif' | 'carousel' | 'reel' | 'audio' | 'link';

export interface PostMedia {
  kind: MediaKind;
  url: string;
  thumbnailUrl?: string;
  bitrate?: number;
}

export interface PostCounts {
  likes?: number;
  retweets?: number;
  replies?: number;
  comments?: number;
  shares?: number;
  views?: number;
  dislikes?: number;
  saves?: number;
  impressions?: number;
  reach?: number;
  clicks?: number;
  quotes?: number;
  exits?: number;
  tapsForward?: number;
  tapsBack?: number;
}

export interface CollectedPost {
  platform: string;
  id: string;
  author: { id?: string; username?: string; name?: string; avatarUrl?: string; followers?: number; verified?: boolean; location?: string };
  text?: string;
  title?: string;
  url?: string;
  createdAt: number;
  lang?: string;
  counts: PostCounts;
  media?: PostMedia[];
  flags: { isRetweet?: boolean; retweetOf?: string; isQuote?: boolean; quotedText?: string; quotedUrl?: string; isReply?: boolean; isStory?: boolean };
  source?: string;
}

/** One post of the list (the collected post itself is an untyped object in the API document). */
export type PostItem = Narrowed<'PostItem', { post: CollectedPost; sentimentBucket: SentimentLevel }>;

/** A page of the list; a `totalCapped` total was counted only up to a cap (10,000; 1,000 for a
 * search): there are more. */
export type PostsPage = Narrowed<'PostsPage', { posts: PostItem[] }>;

export const postsKeys = {
  all: (hash: string) => ['posts', hash] as const,
  list: (hash: string, q: string) => ['posts', hash, q] as const,
};

const base = (hash: string) => `/trackers/${encodeURIComponent(hash)}`;

/** The posts list refreshes this often while the tracker runs and the range includes today. */
export const POSTS_REFRESH_MS = 60_000;

/**
 * One page of posts. The first fetch of a view is a visit (the owner's last visit moves); every
 * later fetch of it (the 60 s refresh, a refetch after a change) is sent as `background=1`.
 */
export function usePosts(hash: string, query: Query, enabled = true, refresh = false) {
  const qc = useQueryClient();
  const key = JSON.stringify(query);
  const queryKey = postsKeys.list(hash, key);
  return useQuery({
    queryKey,
    queryFn: () => {
      const seen = qc.getQueryState(queryKey)?.data !== undefined;
      return get<PostsPage>(`${base(hash)}/posts`, seen ? { ...query, background: 1 } : query);
    },
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: refresh ? POSTS_REFRESH_MS : false,
    refetchIntervalInBackground: false,
    retry: false,
  });
}

export function exportUrl(hash: string, query: Query): string {
  return apiHref(`${base(hash)}/posts/export.csv`, query);
}

/** Refetch every posts list and count of the tracker. */
function useInvalidatePosts(hash: string) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: postsKeys.all(hash) });
    void qc.invalidateQueries({ queryKey: trackerKeys.one(hash) });
    void qc.invalidateQueries({ queryKey: ['trackers', 'total', hash] });
  };
}

export function useTagPosts(hash: string) {
  return useMutation({
    mutationFn: (v: { posts: string[]; add?: number[]; remove?: number[] }) =>
      api<{ added: number; removed: number }>('PUT', `${base(hash)}/posts/tags`, v),
  });
}

export function useEditSentiment(hash: string) {
  return useMutation({
    mutationFn: (v: { post: string; sentiment: SentimentLevel }) =>
      api<{ old: string; new: string }>('PUT', `${base(hash)}/posts/sentiment`, v),
  });
}

/** The sidebar's post count. */
function useInvalidateCount(hash: string) {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: ['trackers', 'total', hash] });
}

export function useDeletePosts(hash: string) {
  const refresh = useInvalidatePosts(hash);
  const recount = useInvalidateCount(hash);
  return {
    // The page hides the deleted posts itself; only the count elsewhere is refetched.
    remove: useMutation({
      mutationFn: (posts: string[]) => api<{ count: number }>('POST', `${base(hash)}/posts/delete`, { posts }),
      onSuccess: recount,
    }),
    undo: useMutation({
      mutationFn: (posts: string[]) => api<{ count: number }>('POST', `${base(hash)}/posts/undo-delete`, { posts }),
      onSuccess: refresh,
    }),
  };
}

export function useIgnoreUsers(hash: string) {
  return {
    ignore: useMutation({
      mutationFn: (users: string[]) => api<{ count: number }>('POST', `${base(hash)}/ignored-users`, { users }),
    }),
    undo: useMutation({
      mutationFn: (users: string[]) => api<{ count: number }>('POST', `${base(hash)}/ignored-users/undo`, { users }),
    }),
  };
}

export type AddPostResult = Schema<'AddPostResult'>;

export function useAddPosts(hash: string) {
  const refresh = useInvalidatePosts(hash);
  return useMutation({
    mutationFn: (urls: string[]) => api<{ results: AddPostResult[] }>('POST', `${base(hash)}/posts/add`, { urls }),
    onSuccess: refresh,
  });
}

export function useTagMutations(hash: string) {
  const qc = useQueryClient();
  const refreshTags = () => qc.invalidateQueries({ queryKey: trackerKeys.tags(hash) });
  return {
    create: useMutation({
      mutationFn: (v: { name: string; color: string }) => api<Tag>('POST', `${base(hash)}/tags`, v),
      onSuccess: refreshTags,
    }),
    edit: useMutation({
      mutationFn: (v: { id: number; name: string; color: string }) =>
        api<Tag>('PATCH', `${base(hash)}/tags/${v.id}`, { name: v.name, color: v.color }),
      onSuccess: refreshTags,
    }),
    remove: useMutation({
      mutationFn: (id: number) => api<void>('DELETE', `${base(hash)}/tags/${id}`),
      onSuccess: refreshTags,
    }),
  };
}

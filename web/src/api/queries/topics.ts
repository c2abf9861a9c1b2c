// Hooks of the trending topics page: one layer of topics (words or hashtags under a path of
// picked topics), the series of the layer's chart, and the posts of a topic or a time bucket.
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { get, type Query } from '../client';
import type { Schema } from '../types';

export type TopicLayer = Schema<'TopicLayer'>;
export type TopicItem = Schema<'TopicItem'>;
/** The windows a trend score compares: the range (or its last quarter) against the time before. */
export type TrendWindow = Schema<'TrendWindowDto'>;
export type TopicSeries = Schema<'TopicSeries'>;
export type SeriesLine = Schema<'SeriesLine'>;
export type TopicPosts = Schema<'TopicPosts'>;
export type TopicPost = Schema<'DashboardPost'>;

export const topicKeys = {
  all: ['topics'] as const,
  layer: (hash: string, q: string) => ['topics', hash, 'layer', q] as const,
  series: (hash: string, q: string) => ['topics', hash, 'series', q] as const,
  posts: (hash: string, q: string) => ['topics', hash, 'posts', q] as const,
};

const base = (hash: string) => `/trackers/${encodeURIComponent(hash)}/topics`;

/** One page of a layer: the filter query plus kind, path, sort and page. */
export function useTopicLayer(hash: string, query: Query, enabled = true) {
  return useQuery({
    queryKey: topicKeys.layer(hash, JSON.stringify(query)),
    queryFn: () => get<TopicLayer>(base(hash), query),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Posts per bucket of the path, then of the path with each item: the filter query plus path and items. */
export function useTopicSeries(hash: string, query: Query, enabled = true) {
  return useQuery({
    queryKey: topicKeys.series(hash, JSON.stringify(query)),
    queryFn: () => get<TopicSeries>(`${base(hash)}/series`, query),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Posts holding a path, newest first, a page of 20 at a time ('Show More' asks for the next). */
export function useTopicPosts(hash: string, query: Query, enabled = true) {
  return useInfiniteQuery({
    queryKey: topicKeys.posts(hash, JSON.stringify(query)),
    queryFn: ({ pageParam }) => get<TopicPosts>(`${base(hash)}/posts`, { ...query, page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => {
      const loaded = all.reduce((n, p) => n + p.posts.length, 0);
      return last.posts.length > 0 && loaded < last.total ? all.length + 1 : undefined;
    },
    enabled,
    retry: false,
  });
}

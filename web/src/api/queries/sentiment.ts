// Hooks of the sentiment page: the score with its buckets over time, the significant keywords,
// and the page's posts table (the posts list narrowed to the page's range, sentiment and word).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, type Query } from '../client';
import type { Schema } from '../types';
import { postsKeys, type PostsPage } from './posts';

/** Score, counts per bucket and the buckets over time; `reason` says why there is nothing to count. */
export type SentimentOverview = Schema<'SentimentOverview'>;
export type SentimentPoint = Schema<'SentimentPoint'>;
export type BucketCounts = Schema<'BucketCountsDto'>;
/** Words and hashtags over-represented in positive (negative) posts against the others. */
export type SentimentKeywords = Schema<'SentimentKeywordsDto'>;
export type SignificantKeyword = Schema<'KeywordDto'>;

// Under 'trackers': whatever refetches a tracker's views (a keyword save, an edit) refetches these.
export const sentimentKeys = {
  all: (hash: string) => ['trackers', 'sentiment', hash] as const,
  overview: (hash: string, q: string) => ['trackers', 'sentiment', hash, 'overview', q] as const,
  keywords: (hash: string, q: string) => ['trackers', 'sentiment', hash, 'keywords', q] as const,
};

const base = (hash: string) => `/trackers/${encodeURIComponent(hash)}`;

interface Options {
  enabled?: boolean;
  /** Refresh this often (ms) while new posts can arrive in the range. */
  refetchInterval?: number | false;
}

/** The sentiment score, buckets and buckets over time for the filter query. */
export function useSentimentOverview(hash: string, query: Query, { enabled = true, refetchInterval = false }: Options = {}) {
  return useQuery({
    queryKey: sentimentKeys.overview(hash, JSON.stringify(query)),
    queryFn: () => get<SentimentOverview>(`${base(hash)}/sentiment`, query),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval,
    refetchIntervalInBackground: false,
    retry: false,
  });
}

/** The significant positive and negative keywords for the filter query. */
export function useSentimentKeywords(hash: string, query: Query, { enabled = true, refetchInterval = false }: Options = {}) {
  return useQuery({
    queryKey: sentimentKeys.keywords(hash, JSON.stringify(query)),
    queryFn: () => get<SentimentKeywords>(`${base(hash)}/sentiment/keywords`, query),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval,
    refetchIntervalInBackground: false,
    retry: false,
  });
}

/**
 * One page of the sentiment page's posts table. Always sent as a background read: looking at
 * this table is not a visit of the posts page (the owner's last visit stays where it is).
 * Keyed under the tracker's posts, so a change to its posts refetches it too.
 */
export function useSentimentPosts(hash: string, query: Query, { enabled = true, refetchInterval = false }: Options = {}) {
  return useQuery({
    queryKey: [...postsKeys.all(hash), 'sentiment', JSON.stringify(query)],
    queryFn: () => get<PostsPage>(`${base(hash)}/posts`, { ...query, background: 1 }),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval,
    refetchIntervalInBackground: false,
    retry: false,
  });
}

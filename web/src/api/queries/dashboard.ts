import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiHref, get, put, type Query } from '../client';
import type { ChartConfig, Schema, Tracker } from '../types';
import { trackerKeys } from './trackers';

export type KeyStatistics = Schema<'TopStats'>;
export type TermCount = Schema<'TermCount'>;
export type TimelineBucket = Schema<'Timeline'>['buckets'][number];
export type TimelineAnswer = Schema<'Timeline'>;
/** A state or province (ISO 3166-2 code) with its country (alpha-2). */
export type StateCount = Schema<'StateCount'>;
export type CountryCount = Schema<'CountryCount'>;
export type DashboardPost = Schema<'DashboardPost'>;
export type Influencer = Schema<'Influencer'>;

/** Answers of the dashboard's panel groups, by loading key. */
export interface DashboardAnswers {
  topStats: KeyStatistics;
  timeline: TimelineAnswer;
  locations: Schema<'Locations'>;
  topPosts: Schema<'TopPosts'>;
  sentiments: Schema<'Sentiments'>;
  devices: Schema<'TermList'>;
  genders: Schema<'TermList'>;
  postTypes: Schema<'TermList'>;
  viewerSentiments: Schema<'ViewerSentiments'>;
  influencers: Schema<'Influencers'>;
  topics: Schema<'Topics'>;
  topPages: Schema<'TopPages'>;
}

export type DashboardGroup = keyof DashboardAnswers;

/** The loading list of a full fetch, in the spec's order. */
export const DASHBOARD_GROUPS: DashboardGroup[] = [
  'topStats',
  'timeline',
  'locations',
  'topPosts',
  'sentiments',
  'devices',
  'genders',
  'postTypes',
  'viewerSentiments',
  'influencers',
  'topics',
  'topPages',
];

const PATHS: Record<DashboardGroup, string> = {
  topStats: 'top-stats',
  timeline: 'timeline',
  locations: 'locations',
  topPosts: 'top-posts',
  sentiments: 'sentiments',
  devices: 'devices',
  genders: 'genders',
  postTypes: 'post-types',
  viewerSentiments: 'viewer-sentiments',
  influencers: 'influencers',
  topics: 'topics',
  topPages: 'top-pages',
};

export const dashboardKey = (hash: string, group: string, q: Query) => ['trackers', 'dashboard', hash, group, q] as const;

/**
 * One panel group with the page filters. The previous answer stays on screen while refetching,
 * and TanStack's structural sharing keeps the same object when a refetch brings identical data,
 * so a background refresh re-renders nothing unless something changed.
 */
export function useDashboardGroup<G extends DashboardGroup>(
  hash: string,
  group: G,
  q: Query,
  opts: { enabled: boolean; refetchInterval: number | false },
) {
  return useQuery({
    queryKey: dashboardKey(hash, group, q),
    queryFn: () => get<DashboardAnswers[G]>(`/trackers/${encodeURIComponent(hash)}/dashboard/${PATHS[group]}`, q),
    placeholderData: keepPreviousData,
    enabled: opts.enabled,
    refetchInterval: opts.refetchInterval,
    refetchIntervalInBackground: false,
    retry: 1,
  });
}

/**
 * The timeline as a CSV file (Start, Posts, Engagement, Reach, Impressions; a share-link
 * visitor's address carries the link like every read): the dashboard's filters and the
 * timeline's grouping.
 */
export function timelineCsvUrl(hash: string, q: Query): string {
  return apiHref(`/trackers/${encodeURIComponent(hash)}/dashboard/timeline`, { ...q, format: 'csv' });
}

export type PostPage = Schema<'PostPage'>;

/** The posts side views: a page of 25 posts of a precise range, or mentioning a term. */
export function dashboardPostsUrl(hash: string, q: Query): string {
  return apiHref(`/trackers/${encodeURIComponent(hash)}/dashboard/posts`, q);
}

export function fetchDashboardPosts(hash: string, q: Query) {
  return get<PostPage>(`/trackers/${encodeURIComponent(hash)}/dashboard/posts`, q);
}

/** PUT /trackers/{hash}/custom-config; the cached tracker is updated at once and on success. */
export function useSaveCustomConfig(hash: string) {
  const qc = useQueryClient();
  const key = trackerKeys.one(hash);
  return useMutation({
    mutationFn: (config: { order: ChartConfig[]; columns: 2 | 3 }) =>
      put<Tracker>(`/trackers/${encodeURIComponent(hash)}/custom-config`, config),
    onSuccess: (tracker) => {
      if (tracker && typeof tracker === 'object' && 'hash' in tracker) qc.setQueryData(key, tracker);
    },
  });
}

export type PredictionAnswer = Schema<'Prediction'>;

/** GET …/dashboard/prediction: daily posts forecast for the next `days` days (no date range: it fits the whole history). */
export function usePrediction(hash: string, q: Query, days: number, enabled: boolean) {
  const { days: _d, start: _s, end: _e, ...rest } = q;
  const query = { ...rest, horizon: days };
  return useQuery({
    queryKey: ['trackers', 'dashboard', hash, 'prediction', query],
    queryFn: () => get<PredictionAnswer>(`/trackers/${encodeURIComponent(hash)}/dashboard/prediction`, query),
    enabled,
    staleTime: 5 * 60_000,
  });
}

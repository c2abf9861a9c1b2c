// The filter query the API takes on dashboard and page calls (docs/api.md "Filter query").
import type { PlatformFlags } from '../api/types';
import type { TrackerTimes } from './date-range';
import { selectedPlatforms } from './access';
import { defaultDays, type QueryState, type TrackerPage } from './query-state';

export type FilterQuery = Record<string, string | number>;

export function filterQuery(
  s: QueryState,
  page: TrackerPage,
  tracker: TrackerTimes & { platforms: PlatformFlags },
  tz?: string,
): FilterQuery {
  const q: FilterQuery = {};
  q.platforms = selectedPlatforms(s.platforms, page, tracker.platforms).join(',');
  const date = s.date ?? { kind: 'days' as const, days: defaultDays(page) };
  if (date.kind === 'days') {
    q.days = date.days;
  } else {
    q.start = date.start;
    q.end = date.end;
  }
  if (s.postTags.length) {
    q.postTags = s.postTags.join(',');
    q.postTagFilterMode = s.postTagFilterMode;
  }
  if (s.influencerTags.length) {
    q.influencerTags = s.influencerTags.join(',');
    q.influencerTagFilterMode = s.influencerTagFilterMode;
  }
  if (s.subtracker !== null) q.subtracker = s.subtracker;
  const zone = tz ?? localTimeZone();
  if (zone) q.tz = zone;
  return q;
}

export function localTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

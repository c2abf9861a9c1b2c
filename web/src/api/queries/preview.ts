// A new tracker's preview: the sample over HTTP, the end of preview mode and the volume estimate.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../client';
import type { Loose, Tracker } from '../types';
import { trackerKeys } from './trackers';

const base = (hash: string) => `/trackers/${encodeURIComponent(hash)}/preview`;

export interface PreviewSample {
  posts: { platform: string; id: string; createdAt: number; [field: string]: unknown }[];
  total: number;
  sourceErrors: string[];
  timedOut: boolean;
}

export type VolumeEstimate = Loose<'VolumeEstimate'>;

/** POST /trackers/{hash}/preview/sample: the whole sample in one answer. */
export const samplePreview = (hash: string) => post<PreviewSample>(`${base(hash)}/sample`);

/** POST /trackers/{hash}/preview/end: preview mode off. */
export const endPreview = (hash: string) => post<Tracker>(`${base(hash)}/end`);

/** Ends preview mode and reloads the tracker and everything its pages show. */
export function useEndPreview(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => endPreview(hash),
    onSuccess: async (t) => {
      qc.setQueryData(trackerKeys.one(hash), t);
      await qc.invalidateQueries({ queryKey: ['trackers', 'dashboard', hash] });
      await qc.invalidateQueries({ queryKey: ['trackers', 'list'] });
    },
  });
}

/** GET /trackers/{hash}/preview/estimate, once per tracker (errors are not retried). */
export function useVolumeEstimate(hash: string, enabled: boolean) {
  return useQuery({
    queryKey: ['trackers', 'volume-estimate', hash],
    queryFn: () => get<VolumeEstimate>(`${base(hash)}/estimate`),
    enabled,
    retry: false,
    staleTime: Infinity,
  });
}

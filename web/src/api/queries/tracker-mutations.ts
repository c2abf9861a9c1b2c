import { useMutation, useQueryClient } from '@tanstack/react-query';
import { del, patch, post, put } from '../client';
import type { SentimentKeywords, Tracker, TrackerInput } from '../types';
import { trackerKeys } from './trackers';

export type EditMode = 'reanalyze' | 'future';

const path = (hash: string) => `/trackers/${encodeURIComponent(hash)}`;

function useStoreTracker() {
  const qc = useQueryClient();
  return (t: Tracker) => {
    qc.setQueryData(trackerKeys.one(t.hash), t);
    void qc.invalidateQueries({ queryKey: ['trackers', 'list'] });
  };
}

export function useCreateTracker() {
  const store = useStoreTracker();
  return useMutation({
    mutationFn: (input: TrackerInput) => post<Tracker>('/trackers', input),
    onSuccess: store,
  });
}

export function useUpdateTracker(hash: string) {
  const qc = useQueryClient();
  const store = useStoreTracker();
  return useMutation({
    mutationFn: (input: TrackerInput & { mode: EditMode }) => patch<Tracker>(path(hash), input),
    onSuccess: (t) => {
      store(t);
      // Re-analysis changes what every page shows.
      void qc.invalidateQueries({ queryKey: ['trackers'] });
    },
  });
}

export function usePauseTracker(hash: string) {
  const store = useStoreTracker();
  return useMutation({ mutationFn: () => post<Tracker>(`${path(hash)}/pause`), onSuccess: store });
}

export function useRestartTracker(hash: string) {
  const store = useStoreTracker();
  return useMutation({ mutationFn: () => post<Tracker>(`${path(hash)}/restart`), onSuccess: store });
}

export function useDeleteTracker(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => del<{ status: string }>(path(hash)),
    onSuccess: (res) => {
      if (res?.status === 'error') return;
      qc.removeQueries({ queryKey: trackerKeys.one(hash) });
      void qc.invalidateQueries({ queryKey: ['trackers', 'list'] });
    },
  });
}

/** Saves the custom sentiment keyword lists; `reanalyze` scores the stored posts again. */
export function useSaveSentimentKeywords(hash: string) {
  const qc = useQueryClient();
  const store = useStoreTracker();
  return useMutation({
    mutationFn: (input: SentimentKeywords & { reanalyze: boolean }) =>
      put<Tracker>(`${path(hash)}/sentiment-keywords`, input),
    onSuccess: (t) => {
      store(t);
      void qc.invalidateQueries({ queryKey: ['trackers'] });
    },
  });
}

// Live collection: connector settings (instance administrators) and a tracker's collection status.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post, put } from '../client';
import type { Loose } from '../types';
import { trackerKeys } from './trackers';

/** A connector setting; `options` lists a choice's values (the first is the default), `value` is
 * never sent for a secret. */
export type ConnectorField = Loose<'ConnectorField'>;

export type ConnectorStatus = 'working' | 'error' | 'not_configured' | 'unchecked';

/** `collectsBy`: `poll` per tracker on a schedule, `stream` one connection for every tracker. */
export type Connector = Omit<Loose<'ConnectorView'>, 'status' | 'collectsBy'> & { status: ConnectorStatus; collectsBy: 'poll' | 'stream' };

export type ConnectorStream = Loose<'StreamStatus'>;

export interface ConnectorInput {
  enabled: boolean;
  baseUrl?: string;
  values: Record<string, string>;
  clear?: string[];
}

export type CollectionJob = Omit<Loose<'CollectionJobView'>, 'kind' | 'state'> & { kind: 'poll' | 'backfill'; state: 'active' | 'done' | 'failed' };

/** `freeBackfills`: the caller may start a backfill; `streams`: live streams of the tracker's platforms. */
export type CollectionStatus = Omit<Loose<'CollectionStatus'>, 'jobs'> & { jobs: CollectionJob[] };

export type TrackerStream = Loose<'TrackerStreamView'>;

export const collectionKeys = {
  connectors: ['admin', 'connectors'] as const,
  tracker: (hash: string) => ['trackers', 'collection', hash] as const,
};

/** GET /admin/connectors */
export function useConnectors(enabled = true) {
  return useQuery({ queryKey: collectionKeys.connectors, queryFn: () => get<Connector[]>('/admin/connectors'), enabled });
}

function useReplaceConnector() {
  const qc = useQueryClient();
  return (c: Connector) =>
    qc.setQueryData<Connector[]>(collectionKeys.connectors, (list) => list?.map((x) => (x.name === c.name ? c : x)));
}

/** PUT /admin/connectors/{name} */
export function useSaveConnector(name: string) {
  const replace = useReplaceConnector();
  return useMutation({
    mutationFn: (input: ConnectorInput) => put<Connector>(`/admin/connectors/${encodeURIComponent(name)}`, input),
    onSuccess: replace,
  });
}

/** POST /admin/connectors/{name}/check */
export function useCheckConnector(name: string) {
  const replace = useReplaceConnector();
  return useMutation({
    mutationFn: () => post<Connector>(`/admin/connectors/${encodeURIComponent(name)}/check`),
    onSuccess: replace,
  });
}

/** GET /trackers/{hash}/collection, refreshed while the page is open (every 3 s while a backfill runs). */
export function useTrackerCollection(hash: string, enabled = true) {
  return useQuery({
    queryKey: collectionKeys.tracker(hash),
    queryFn: () => get<CollectionStatus>(`/trackers/${encodeURIComponent(hash)}/collection`),
    enabled,
    refetchInterval: (q) => (q.state.data?.backfillInProgress ? 3000 : 15_000),
    placeholderData: (prev) => prev,
  });
}

/** POST /trackers/{hash}/collection/run */
export function useCollectNow(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => post<CollectionStatus>(`/trackers/${encodeURIComponent(hash)}/collection/run`),
    onSuccess: (s) => qc.setQueryData(collectionKeys.tracker(hash), s),
  });
}

/** POST /trackers/{hash}/backfill: collect posts of past days (YYYY-MM-DD, both included). */
export function useStartBackfill(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (range: { start: string; end: string }) =>
      post<CollectionStatus>(`/trackers/${encodeURIComponent(hash)}/backfill`, range),
    onSuccess: (s) => {
      qc.setQueryData(collectionKeys.tracker(hash), s);
      void qc.invalidateQueries({ queryKey: trackerKeys.one(hash) });
    },
  });
}

export type BackfillEstimate = Loose<'BackfillEstimate'>;

/** GET /trackers/{hash}/backfill/estimate, asked for on demand (estimate mode). */
export function useBackfillEstimate(hash: string) {
  return useMutation({
    mutationFn: (range: { start: string; end: string }) =>
      get<BackfillEstimate>(`/trackers/${encodeURIComponent(hash)}/backfill/estimate`, range),
  });
}

// Live collection: connector settings (instance administrators) and a tracker's collection status.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post, put } from '../client';
import { trackerKeys } from './trackers';

export interface ConnectorField {
  name: string;
  label: string;
  secret: boolean;
  required: boolean;
  multiline: boolean;
  help: string;
  /** A choice among these (the first is the default); empty for free text. */
  options?: { value: string; label: string }[];
  /** The saved value; never present for a secret. */
  value?: string | null;
  isSet: boolean;
}

export type ConnectorStatus = 'working' | 'error' | 'not_configured' | 'unchecked';

export interface Connector {
  name: string;
  label: string;
  description: string;
  platforms: string[];
  enabled: boolean;
  hasBaseUrl: boolean;
  baseUrl?: string | null;
  defaultBaseUrl: string;
  fields: ConnectorField[];
  status: ConnectorStatus;
  statusMessage?: string | null;
  checkedAt?: number | null;
  /** `poll`: per tracker on a schedule; `stream`: one connection for every tracker. */
  collectsBy?: 'poll' | 'stream';
  /** Base URL schemes accepted, e.g. `https://` or `wss://`. */
  baseUrlSchemes?: string[];
  /** The stream's state, for a connector that streams and has run. */
  stream?: ConnectorStream | null;
}

export interface ConnectorStream {
  running: boolean;
  lastCollectedAt?: number | null;
  postsFetched: number;
  lastError?: string | null;
  lastErrorAt?: number | null;
}

export interface ConnectorInput {
  enabled: boolean;
  baseUrl?: string;
  values: Record<string, string>;
  clear?: string[];
}

export interface CollectionJob {
  id: number;
  connector: string;
  label: string;
  kind: 'poll' | 'backfill';
  state: 'active' | 'done' | 'failed';
  running: boolean;
  lastCollectedAt?: number | null;
  nextRunAt?: number | null;
  lastError?: string | null;
  lastErrorAt?: number | null;
  attempts: number;
  pages: number;
  postsFetched: number;
  rangeStart?: number | null;
  rangeEnd?: number | null;
}

export interface CollectionStatus {
  collecting: boolean;
  backfillInProgress: boolean;
  /** The caller may start a backfill (a source serves the tracker; not a trial account). */
  freeBackfills: boolean;
  jobs: CollectionJob[];
  /** Live streams (one for every tracker) of the tracker's platforms. */
  streams?: TrackerStream[];
}

export interface TrackerStream {
  connector: string;
  label: string;
  running: boolean;
  lastCollectedAt?: number | null;
  lastError?: string | null;
  lastErrorAt?: number | null;
}

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

export interface BackfillEstimate {
  sources: { connector: string; label: string; estimate?: number | null; error?: string | null }[];
  total: number;
  complete: boolean;
}

/** GET /trackers/{hash}/backfill/estimate, asked for on demand (estimate mode). */
export function useBackfillEstimate(hash: string) {
  return useMutation({
    mutationFn: (range: { start: string; end: string }) =>
      get<BackfillEstimate>(`/trackers/${encodeURIComponent(hash)}/backfill/estimate`, range),
  });
}

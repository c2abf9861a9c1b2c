// Exports as background jobs: asking for one (POST, with the page's filter query), following it
// (GET by token, about once a second until it is ready or failed), and the caller's own jobs of a
// tracker (to show one still running after a reload). Also what this server offers (a Google
// Sheets key set up or not).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, ApiError, get, type Query } from '../client';
import type { Loose, Narrowed, Schema } from '../types';

export type ExportState = 'pending' | 'running' | 'ready' | 'failed';
export type ExportJob = Narrowed<'ExportJobView', { state: ExportState }>;
export type ExportList = Schema<'ExportList'>;
export type NewExport = Loose<'NewExportInput'>;

/** How often a job is asked for while it is made. */
export const EXPORT_POLL_MS = 1000;

/** The workbook of made-up posts offered to plans without XLS (public). */
export const SAMPLE_XLSX_URL = '/api/v1/exports/sample.xlsx';

export const exportKeys = {
  job: (token: string) => ['exports', 'job', token] as const,
  list: (hash: string) => ['exports', 'list', hash] as const,
  capabilities: ['exports', 'capabilities'] as const,
};

/** Job kinds: the workbook, the report, and a spreadsheet made on Google Sheets. */
export const EXPORT_KIND = { xlsx: 'xlsx', pdf: 'pdf', sheets: 'sheets' } as const;

/** GET /exports/capabilities: `sheets` once an administrator has saved a Google Sheets key. */
export type ExportCapabilities = Schema<'ExportCapabilities'>;

export function isFinished(job: Pick<ExportJob, 'state'> | undefined | null): boolean {
  return job?.state === 'ready' || job?.state === 'failed';
}

/** Whole percent of a job's steps done (0 while the total is not known yet). */
export function exportPercent(job: Pick<ExportJob, 'done' | 'total' | 'state'>): number {
  if (job.state === 'ready') return 100;
  if (job.total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.floor((job.done * 100) / job.total)));
}

/** The address of a finished file, with the share link's hash for a visitor who asked through it. */
export function exportFileHref(fileUrl: string, shareHash: string | null | undefined): string {
  // The server already adds it to a visitor's job; once is enough.
  if (!shareHash || /[?&]shareHash=/.test(fileUrl)) return fileUrl;
  return `${fileUrl}${fileUrl.includes('?') ? '&' : '?'}shareHash=${encodeURIComponent(shareHash)}`;
}

/**
 * POST /trackers/{hash}/exports. `query` is the page's filter query; a share-link visitor's must
 * carry its `shareHash` (only reads get it added by the client).
 */
export function createExport(hash: string, query: Query, input: NewExport): Promise<ExportJob> {
  return api<ExportJob>('POST', `/trackers/${encodeURIComponent(hash)}/exports`, input, query);
}

export function useCreateExport(hash: string) {
  return useMutation({
    mutationFn: ({ query, input }: { query: Query; input: NewExport }) => createExport(hash, query, input),
  });
}

/** GET /exports/{token}, asked again every second until the job is ready or failed. */
export function useExportJob(token: string | null, shareHash: string | null | undefined) {
  return useQuery({
    queryKey: exportKeys.job(token ?? ''),
    queryFn: () => get<ExportJob>(`/exports/${encodeURIComponent(token!)}`, shareHash ? { shareHash } : undefined),
    enabled: !!token,
    // A refusal (gone, not yours) stays one; a dropped connection is asked again.
    retry: (count, err) => count < 2 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
    staleTime: 0,
    refetchInterval: (q) => (isFinished(q.state.data) || q.state.error ? false : EXPORT_POLL_MS),
  });
}

/** GET /trackers/{hash}/exports: the caller's own unexpired jobs, newest first. */
export function useTrackerExports(hash: string, enabled: boolean) {
  return useQuery({
    queryKey: exportKeys.list(hash),
    queryFn: () => get<ExportList>(`/trackers/${encodeURIComponent(hash)}/exports`),
    enabled,
    retry: false,
    staleTime: 0,
  });
}

/**
 * GET /exports/capabilities (no sign-in needed). While it is not known, or could not be read, the
 * spreadsheet export stays on offer and the server says whether it can make one.
 */
export function useExportCapabilities(enabled = true) {
  return useQuery({
    queryKey: exportKeys.capabilities,
    queryFn: () => get<ExportCapabilities>('/exports/capabilities'),
    enabled,
    retry: false,
    staleTime: 60_000,
  });
}

/** A job still being made (pending or running). */
export function isUnderWay(job: { state: string }): boolean {
  return job.state === 'pending' || job.state === 'running';
}

/**
 * The page a job was asked from (`dashboard` or `posts`), kept in this browser: the job list
 * does not say it, and after a reload each page takes up only its own jobs. A job made elsewhere
 * (another browser) has no record and is taken up by either page.
 */
const ORIGIN_KEY = 'hark.exportOrigin.';

export function rememberExportOrigin(token: string, source: string): void {
  try {
    window.localStorage.setItem(ORIGIN_KEY + token, source);
  } catch {
    // No storage: the job is still followed by this page while it stays open.
  }
}

export function exportOrigin(token: string): string | null {
  try {
    return window.localStorage.getItem(ORIGIN_KEY + token);
  } catch {
    return null;
  }
}

/** The caller's newest job of `kind` still being made that belongs to `source` (see exportOrigin). */
export function resumableJob<J extends { token: string; kind: string; state: string }>(jobs: readonly J[] | undefined, kind: string, source: string): J | null {
  if (!jobs) return null;
  return jobs.find((j) => j.kind === kind && isUnderWay(j) && (exportOrigin(j.token) ?? source) === source) ?? null;
}

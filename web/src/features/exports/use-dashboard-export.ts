// The dashboard's XLS export (dashboard-and-shell spec, "Export" and "Exports"): idle, loading
// when clicked, back to idle when the job is done. The click asks for the job (the
// filter-saving call); no sooner than 150 ms after the click the export route opens in a new
// window, which follows the job and downloads the file. This window follows it too, for the
// button's progress and the failure notice; when the new window was blocked it downloads here.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import {
  createExport,
  EXPORT_KIND,
  exportFileHref,
  exportPercent,
  rememberExportOrigin,
  resumableJob,
  useExportJob,
  useTrackerExports,
  type ExportJob,
} from '../../api/queries/exports';
import type { NoticeState } from '../../components/Notice';
import { startDownload } from '../../lib/download';
import type { FilterQuery } from '../../state/filter-query';
import { EXPORT_ERROR_NOTICE_MS, EXPORT_WINDOW_DELAY_MS, exportFailedText, exportRouteUrl } from './export-route';

export const EXPORT_READY_TEXT = 'Your XLS is ready.';

export type ExportPhase =
  | { kind: 'idle' }
  | { kind: 'starting' }
  /** `download`: this window downloads the file when it is ready (the new window was blocked). */
  | { kind: 'following'; token: string; first: ExportJob | null; download: boolean; resumed: boolean };

export interface DashboardExportOptions {
  hash: string;
  filters: FilterQuery;
  shareHash: string | null;
  grouping: string | null;
  /** Signed in with a plan without XLS: the sample modal instead of a job. */
  planLacksXls: boolean;
  /** Look for a job of the caller's still being made (after a reload). */
  resume: boolean;
}

let noticeSeq = 0;

export function useDashboardExport({ hash, filters, shareHash, grouping, planLacksXls, resume }: DashboardExportOptions) {
  const [phase, setPhase] = useState<ExportPhase>({ kind: 'idle' });
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [sampleOpen, setSampleOpen] = useState(false);
  const token = phase.kind === 'following' ? phase.token : null;
  const job = useExportJob(token, shareHash);
  const current = job.data ?? (phase.kind === 'following' ? phase.first : null);

  const show = useCallback((n: Omit<NoticeState, 'id'>) => setNotice({ ...n, id: ++noticeSeq }), []);
  const failed = useCallback(
    (text = exportFailedText('xls')) => show({ text, tone: 'error', ms: EXPORT_ERROR_NOTICE_MS }),
    [show],
  );

  // After a reload: a job of this caller still being made shows its progress again.
  const list = useTrackerExports(hash, resume);
  const resumeChecked = useRef(false);
  useEffect(() => {
    if (resumeChecked.current || !list.data) return;
    resumeChecked.current = true;
    const running = resumableJob(list.data.exports, EXPORT_KIND.xlsx, 'dashboard');
    if (running) setPhase((p) => (p.kind === 'idle' ? { kind: 'following', token: running.token, first: running as ExportJob, download: false, resumed: true } : p));
  }, [list.data]);

  // The job done: back to idle, with the download here when the new window could not do it.
  useEffect(() => {
    if (phase.kind !== 'following') return;
    if (job.isError) {
      setPhase({ kind: 'idle' });
      failed();
      return;
    }
    const j = job.data;
    if (!j || j.token !== phase.token) return;
    if (j.state === 'failed') {
      setPhase({ kind: 'idle' });
      failed();
    } else if (j.state === 'ready') {
      setPhase({ kind: 'idle' });
      const href = j.fileUrl ? exportFileHref(j.fileUrl, shareHash) : null;
      if (href && phase.download) startDownload(href);
      if (href && (phase.download || phase.resumed)) {
        show({ text: EXPORT_READY_TEXT, tone: 'ok', ms: EXPORT_ERROR_NOTICE_MS, link: { label: 'Download', href, download: true } });
      }
    }
  }, [phase, job.data, job.isError, shareHash, failed, show]);

  const start = useCallback(async () => {
    if (planLacksXls) {
      setSampleOpen(true);
      return;
    }
    const clickedAt = Date.now();
    setPhase({ kind: 'starting' });
    setNotice(null);
    let created: ExportJob;
    try {
      const query = shareHash ? { ...filters, shareHash } : filters;
      created = await createExport(hash, query, { kind: EXPORT_KIND.xlsx, source: 'dashboard', ...(grouping ? { grouping } : {}) });
      rememberExportOrigin(created.token, 'dashboard');
    } catch (e) {
      setPhase({ kind: 'idle' });
      if (e instanceof ApiError && e.code === 'upgrade_required') setSampleOpen(true);
      // A refusal says why (too many on their way, no right to export); anything else is the spec's notice.
      else if (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.code !== 'unknown') failed(e.message);
      else failed();
      return;
    }
    const wait = EXPORT_WINDOW_DELAY_MS - (Date.now() - clickedAt);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const url = exportRouteUrl({ hash, format: 'xls', filters, job: created.token, shareHash, grouping });
    const opened = window.open(url, '_blank');
    setPhase({ kind: 'following', token: created.token, first: created, download: !opened, resumed: false });
  }, [planLacksXls, filters, shareHash, hash, grouping, failed]);

  const busy = phase.kind !== 'idle';
  return {
    phase,
    busy,
    percent: current ? exportPercent(current) : 0,
    start,
    notice,
    clearNotice: useCallback(() => setNotice(null), []),
    sampleOpen,
    setSampleOpen,
  };
}

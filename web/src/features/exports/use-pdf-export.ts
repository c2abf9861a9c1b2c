// The PDF report export of a page (dashboard-and-shell spec, "Export", "Exports" and the error
// catalogue; posts spec, "Export buttons"): the first click asks for the job (start: a pending
// entry), the button shows its progress meanwhile and is idle again once it is done. A finished
// job is held with its url (ready) and says so: 'Your PDF is ready to be viewed' with 'View PDF';
// that action, or the next click on PDF, opens the report in a new window and drops the job
// (reset). A failure says 'We were unable to generate the PDF. Please try again.' for 10000 ms
// with 'Try Again', which asks for a new job. A report of the page still being made when the page
// is loaded again shows its progress again (and its notice once done).
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, type Query } from '../../api/client';
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
import { openInNewWindow } from '../../lib/download';
import {
  EXPORT_ERROR_NOTICE_MS,
  exportFailedText,
  PDF_READY_TEXT,
  pdfExportInput,
  TRY_AGAIN_LABEL,
  VIEW_PDF_LABEL,
  type PdfOptions,
} from './export-route';

export type PdfPhase =
  | { kind: 'idle' }
  /** The job is being asked for. */
  | { kind: 'starting' }
  /** The job is being made: its progress shows on the button. */
  | { kind: 'following'; token: string; first: ExportJob; view: string }
  /** Done: its report opens on the next click (or the notice's 'View PDF'). `view`: the view it shows. */
  | { kind: 'ready'; token: string; href: string; view: string };

export interface PdfExportOptions extends PdfOptions {
  hash: string;
  /** The page asked from: the dashboard's panels, or the posts page's list. */
  source: 'dashboard' | 'posts';
  /** The page's query: its filters (and the posts list's search, sort…), without the share link. */
  query: Query;
  /** A share-link visitor's link: the job is asked for, followed and opened through it. */
  shareHash: string | null;
  /** Look for a report of the caller's still being made (after a reload). */
  resume?: boolean;
}

/** The view of a report taken up after a reload: not known, so never the page's current one. */
const RESUMED_VIEW = 'resumed';

let noticeSeq = 0;

export function usePdfExport({ hash, source, query, shareHash, grouping, eri, cumulative, paper, resume = false }: PdfExportOptions) {
  const [phase, setPhase] = useState<PdfPhase>({ kind: 'idle' });
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const token = phase.kind === 'following' ? phase.token : null;
  const job = useExportJob(token, shareHash);
  const current = job.data?.token === token ? job.data : phase.kind === 'following' ? phase.first : null;

  // The notice's actions outlive the render that made them: they read the phase as it is now.
  const phaseRef = useRef(phase);
  phaseRef.current = phase;
  // What the report shows: the page's view and the timeline options, as asked.
  const viewKey = JSON.stringify([hash, source, query, shareHash, grouping ?? null, eri ?? null, !!cumulative, paper ?? null]);

  const show = useCallback((n: Omit<NoticeState, 'id'>) => setNotice({ ...n, id: ++noticeSeq }), []);

  // After a reload: a report of this page still being made shows its progress again.
  const list = useTrackerExports(hash, resume);
  const resumeChecked = useRef(false);
  useEffect(() => {
    if (resumeChecked.current || !list.data) return;
    resumeChecked.current = true;
    const running = resumableJob(list.data.exports, EXPORT_KIND.pdf, source);
    if (running) {
      setPhase((p) => (p.kind === 'idle' ? { kind: 'following', token: running.token, first: running as ExportJob, view: RESUMED_VIEW } : p));
    }
  }, [list.data, source]);

  /** Opens a finished report in a new window and drops the job; false when the window was blocked. */
  const openReport = useCallback((href: string) => {
    if (!openInNewWindow(href)) return false;
    setPhase((p) => (p.kind === 'ready' && p.href === href ? { kind: 'idle' } : p));
    setNotice(null);
    return true;
  }, []);

  const startRef = useRef<() => Promise<void>>(async () => undefined);
  const failed = useCallback(
    (text = exportFailedText('pdf'), retry = true) =>
      show({
        text,
        tone: 'error',
        ms: EXPORT_ERROR_NOTICE_MS,
        ...(retry ? { action: { label: TRY_AGAIN_LABEL, onClick: () => void startRef.current() } } : {}),
      }),
    [show],
  );

  const start = useCallback(async () => {
    const p = phaseRef.current;
    if (p.kind === 'starting' || p.kind === 'following') return;
    // Known at once, so a second click before the next render asks for nothing more.
    phaseRef.current = { kind: 'starting' };
    setPhase(phaseRef.current);
    setNotice(null);
    try {
      const q = shareHash ? { ...query, shareHash } : query;
      const created = await createExport(hash, q, pdfExportInput(source, { grouping, eri, cumulative, paper }));
      rememberExportOrigin(created.token, source);
      setPhase({ kind: 'following', token: created.token, first: created, view: viewKey });
    } catch (e) {
      setPhase({ kind: 'idle' });
      // A refusal says why (too many on their way, no right to export); anything else is the spec's notice.
      if (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.code !== 'unknown') failed(e.message, e.status !== 401 && e.status !== 403);
      else failed();
    }
  }, [hash, source, query, shareHash, grouping, eri, cumulative, paper, viewKey, failed]);
  startRef.current = start;

  // The job done: ready (its url held, the notice with 'View PDF'), or failed.
  useEffect(() => {
    if (phase.kind !== 'following') return;
    if (job.isError) {
      setPhase({ kind: 'idle' });
      failed();
      return;
    }
    const j = job.data;
    if (!j || j.token !== phase.token) return;
    if (j.state === 'failed' || (j.state === 'ready' && !j.fileUrl)) {
      setPhase({ kind: 'idle' });
      failed();
    } else if (j.state === 'ready' && j.fileUrl) {
      const href = exportFileHref(j.fileUrl, shareHash);
      setPhase({ kind: 'ready', token: j.token, href, view: phase.view });
      show({ text: PDF_READY_TEXT, tone: 'ok', ms: null, action: { label: VIEW_PDF_LABEL, onClick: () => openReport(href) } });
    }
  }, [phase, job.data, job.isError, shareHash, failed, show, openReport]);

  /** The PDF item: the first click starts the export; with its url held, the next opens it and resets. */
  const choose = useCallback(() => {
    const p = phaseRef.current;
    if (p.kind === 'ready' && p.view === viewKey) openReport(p.href);
    // A report held for another view (other dates, filters, timeline options) is not this
    // view's: a new one is made (the notice's 'View PDF' still opens the other).
    else if (p.kind === 'idle' || p.kind === 'ready') void start();
  }, [start, openReport, viewKey]);

  const busy = phase.kind === 'starting' || phase.kind === 'following';
  return {
    phase,
    busy,
    /** A report of the view as it is now is held: the PDF item opens it. */
    ready: phase.kind === 'ready' && phase.view === viewKey,
    percent: current ? exportPercent(current) : 0,
    choose,
    notice,
    clearNotice: useCallback(() => setNotice(null), []),
  };
}

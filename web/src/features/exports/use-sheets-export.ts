// The spreadsheet export of a page (dashboard-and-shell spec, "Export", constants and error
// catalogue; posts spec, "Export buttons"): a click asks for a job of kind "sheets" for the view
// as it is, the button shows its progress, and once the job is ready the notice 'Your spreadsheet
// is ready' follows 2000 ms later with 'Open spreadsheet' (Google's address, in a new tab). A job
// that fails resets silently; a request the server refuses (not set up here, too many on their
// way, an older server still counting it with XLS) says why. The spreadsheet is on every plan: a
// plan without XLS asks for it as any other does.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, type Query } from '../../api/client';
import {
  createExport,
  EXPORT_KIND,
  exportPercent,
  rememberExportOrigin,
  resumableJob,
  useExportJob,
  useTrackerExports,
  type ExportJob,
} from '../../api/queries/exports';
import type { NoticeState } from '../../components/Notice';
import { EXPORT_ERROR_NOTICE_MS, OPEN_SHEET_LABEL, SHEETS_READY_TEXT, SHEETS_READY_WAIT_MS } from './export-route';

export type SheetsPhase =
  | { kind: 'idle' }
  | { kind: 'starting' }
  | { kind: 'following'; token: string; first: ExportJob | null }
  /** Made: the notice shows once the spec's wait is over. */
  | { kind: 'announcing'; token: string; url: string };

export interface SheetsExportOptions {
  hash: string;
  source: 'dashboard' | 'posts';
  /** The page's query (filters, and the posts list's search, sort…), without the share link. */
  query: Query;
  /** The dashboard timeline's grouping, for the spreadsheet's Timeline sheet. */
  grouping?: string | null;
  shareHash: string | null;
  /** Look for a spreadsheet of the caller's still being made (after a reload). */
  resume: boolean;
}

let noticeSeq = 0;

export function useSheetsExport({ hash, source, query, grouping = null, shareHash, resume }: SheetsExportOptions) {
  const [phase, setPhase] = useState<SheetsPhase>({ kind: 'idle' });
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const token = phase.kind === 'following' ? phase.token : null;
  const job = useExportJob(token, shareHash);
  const current = job.data?.token === token ? job.data : phase.kind === 'following' ? phase.first : null;

  const phaseRef = useRef(phase);
  phaseRef.current = phase;
  const show = useCallback((n: Omit<NoticeState, 'id'>) => setNotice({ ...n, id: ++noticeSeq }), []);

  // After a reload: a spreadsheet of this page still being made shows its progress again.
  const list = useTrackerExports(hash, resume);
  const resumeChecked = useRef(false);
  useEffect(() => {
    if (resumeChecked.current || !list.data) return;
    resumeChecked.current = true;
    const running = resumableJob(list.data.exports, EXPORT_KIND.sheets, source);
    if (running) setPhase((p) => (p.kind === 'idle' ? { kind: 'following', token: running.token, first: running as ExportJob } : p));
  }, [list.data, source]);

  // The job done: announced after the wait, or (failed, gone) back to idle without a word.
  useEffect(() => {
    if (phase.kind !== 'following') return;
    if (job.isError) {
      setPhase({ kind: 'idle' });
      return;
    }
    const j = job.data;
    if (!j || j.token !== phase.token) return;
    if (j.state === 'failed' || (j.state === 'ready' && !j.fileUrl)) setPhase({ kind: 'idle' });
    else if (j.state === 'ready' && j.fileUrl) setPhase({ kind: 'announcing', token: j.token, url: j.fileUrl });
  }, [phase, job.data, job.isError]);

  useEffect(() => {
    if (phase.kind !== 'announcing') return;
    const url = phase.url;
    const t = setTimeout(() => {
      setPhase({ kind: 'idle' });
      show({ text: SHEETS_READY_TEXT, tone: 'ok', ms: null, link: { label: OPEN_SHEET_LABEL, href: url, newTab: true } });
    }, SHEETS_READY_WAIT_MS);
    return () => clearTimeout(t);
  }, [phase, show]);

  const start = useCallback(async () => {
    if (phaseRef.current.kind !== 'idle') return;
    // Known at once, so a second click before the next render asks for nothing more.
    phaseRef.current = { kind: 'starting' };
    setPhase(phaseRef.current);
    setNotice(null);
    try {
      const q = shareHash ? { ...query, shareHash } : query;
      const created = await createExport(hash, q, { kind: EXPORT_KIND.sheets, source, ...(grouping ? { grouping } : {}) });
      rememberExportOrigin(created.token, source);
      setPhase({ kind: 'following', token: created.token, first: created });
    } catch (e) {
      setPhase({ kind: 'idle' });
      // A refusal says why (not set up on this server, too many on their way, or a server that
      // still puts it behind the plan's XLS); anything else resets silently, as a failed
      // spreadsheet does.
      if (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.code !== 'unknown') show({ text: e.message, tone: 'error', ms: EXPORT_ERROR_NOTICE_MS });
    }
  }, [shareHash, query, hash, source, grouping, show]);

  const busy = phase.kind !== 'idle';
  return {
    phase,
    busy,
    percent: phase.kind === 'announcing' ? 100 : current ? exportPercent(current) : 0,
    start,
    notice,
    clearNotice: useCallback(() => setNotice(null), []),
  };
}

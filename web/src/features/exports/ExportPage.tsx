// The export page, /hashtag-tracking/export/{hash}/{format}/{days}[/tagFiltered|/allTags] (opened in
// a new window by the dashboard's Export menu for an XLS; a PDF address works the same when opened
// as it is): follows the job of `?job=`, or asks for one from its path and query; shows its
// progress; once it is ready downloads the workbook, or shows the PDF in this window in its place;
// and says plainly what went wrong otherwise.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { exportFileHref, exportPercent, useCreateExport, useExportJob, type ExportJob } from '../../api/queries/exports';
import { useMe } from '../../api/queries/me';
import { useTracker } from '../../api/queries/trackers';
import { Button } from '../../components/Button';
import { IconCheck, IconDownload, IconExternal, IconFileSheet, IconFileText } from '../../components/icons';
import { HeaderMark } from '../../components/Logo';
import { showHere, startDownload } from '../../lib/download';
import { errorMessage } from '../../lib/errors';
import { formatBytes } from '../trackers/import-form';
import {
  EXPORT_LABELS,
  exportFailedText,
  exportWindowLabel,
  parseExportRoute,
  pdfExportInput,
  TRY_AGAIN_LABEL,
  VIEW_PDF_LABEL,
  type ExportFormat,
  type ExportRequest,
} from './export-route';
import { SampleXlsBody, sampleTitle } from './SampleXlsModal';

type Request = Extract<ExportRequest, { ok: true }>;

export function ExportPage() {
  const params = useParams();
  const location = useLocation();
  const req = parseExportRoute({ hash: params.hash, format: params.format, days: params.days, rest: params['*'] }, location.search);
  if (!req.ok) {
    return (
      <ExportFrame>
        <Problem title="This export address is not valid">{req.error}</Problem>
      </ExportFrame>
    );
  }
  return <ExportRun key={req.hash} req={req} />;
}

/** Downloads start once per job and browser tab session: a reload of a finished page does not download again. */
const DOWNLOADED_KEY = 'hark.exportDownloaded.';
function firstDownload(token: string): boolean {
  try {
    if (window.sessionStorage.getItem(DOWNLOADED_KEY + token)) return false;
    window.sessionStorage.setItem(DOWNLOADED_KEY + token, '1');
  } catch {
    // No storage: the page's own ref still keeps it to one download per load.
  }
  return true;
}

function withJob(search: string, token: string): string {
  const q = new URLSearchParams(search);
  q.set('job', token);
  return `?${q.toString()}`;
}

function ExportRun({ req }: { req: Request }) {
  const location = useLocation();
  const navigate = useNavigate();
  const tracker = useTracker(req.hash);
  const me = useMe();
  const create = useCreateExport(req.hash);
  const [token, setToken] = useState<string | null>(req.job);
  const job = useExportJob(token, req.shareHash);
  const label = EXPORT_LABELS[req.format];
  const isPdf = req.format === 'pdf';

  const { mutate } = create;
  const start = useCallback(() => {
    setToken(null);
    const input =
      req.format === 'pdf'
        ? pdfExportInput('dashboard', { grouping: req.grouping, eri: req.eri, cumulative: req.cumulative, paper: req.paper })
        : { kind: req.kind, source: 'dashboard' as const, ...(req.grouping ? { grouping: req.grouping } : {}) };
    mutate(
      { query: req.query, input },
      {
        onSuccess: (j) => {
          setToken(j.token);
          // A reload follows this job rather than asking for another.
          navigate({ pathname: location.pathname, search: withJob(location.search, j.token) }, { replace: true });
        },
      },
    );
  }, [mutate, req, navigate, location.pathname, location.search]);

  // Without a job to follow, the page asks for one (once, however often effects run).
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current || req.job) return;
    asked.current = true;
    start();
  }, [req.job, start]);

  const downloaded = useRef<string | null>(null);
  const data = job.data;
  const fileHref = data?.state === 'ready' && data.fileUrl ? exportFileHref(data.fileUrl, req.shareHash) : null;
  useEffect(() => {
    if (!fileHref || !data || downloaded.current === data.token) return;
    downloaded.current = data.token;
    // The PDF shows in this window in place of the page (the browser's viewer); the workbook downloads.
    if (isPdf) showHere(fileHref);
    else if (firstDownload(data.token)) startDownload(fileHref);
  }, [fileHref, data, isPdf]);

  const title = tracker.data?.title ?? null;
  useEffect(() => {
    const before = document.title;
    const what = data?.state === 'ready' ? `Your ${label} is ready` : data?.state === 'failed' ? `${label} failed` : `Preparing ${label}`;
    document.title = `${what}${title ? ` · ${title}` : ''} — Hark`;
    return () => {
      document.title = before;
    };
  }, [data?.state, label, title]);

  const retry = () => {
    create.reset();
    start();
  };
  const signedIn = !!me.data?.isLoggedIn;
  const next = location.pathname + location.search;

  let body: ReactNode;
  const trackerErr = tracker.error instanceof ApiError && [401, 403, 404].includes(tracker.error.status) ? tracker.error : null;
  const err = trackerErr ?? create.error ?? job.error;
  if (err) {
    const ofJob = !trackerErr && !create.error;
    body = <ExportError error={err} ofJob={ofJob} format={req.format} shared={!!req.shareHash} signedIn={signedIn} next={next} onRetry={retry} />;
  } else if (data?.state === 'ready' && fileHref) body = isPdf ? <ReadyPdf job={data} href={fileHref} /> : <Ready job={data} href={fileHref} label={label} />;
  else if (data?.state === 'failed') body = <Failed format={req.format} onRetry={retry} />;
  else body = <Progress job={data ?? null} label={label} pdf={isPdf} />;

  return (
    <ExportFrame>
      <div className="flex items-start gap-4">
        {isPdf ? (
          <div className="flex h-12 w-12 shrink-0 items-center justify-center rounded-lg bg-rose-50 text-rose-600">
            <IconFileText size={26} />
          </div>
        ) : (
          <div className="flex h-12 w-12 shrink-0 items-center justify-center rounded-lg bg-emerald-50 text-emerald-600">
            <IconFileSheet size={26} />
          </div>
        )}
        <div className="min-w-0">
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label} report of the dashboard</p>
          {title ? (
            <h1 className="truncate text-xl font-semibold text-slate-900" title={title}>
              {title}
            </h1>
          ) : tracker.isPending ? (
            <div className="mt-1 h-7 w-56 animate-pulse rounded bg-slate-100" aria-hidden="true" />
          ) : (
            <h1 className="text-xl font-semibold text-slate-900">Dashboard export</h1>
          )}
          <p className="mt-1 text-sm text-slate-600" data-testid="export-details">
            {exportWindowLabel(req.window)}
            {req.tagged ? ' · Filtered by tags' : ''}
          </p>
        </div>
      </div>
      <div className="mt-8">{body}</div>
    </ExportFrame>
  );
}

function ExportFrame({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-100 text-slate-900">
      <header className="flex h-14 items-center border-b border-slate-200 bg-white px-4">
        <HeaderMark />
      </header>
      <main className="mx-auto max-w-xl px-4 py-12">
        <div className="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">{children}</div>
      </main>
    </div>
  );
}

function Progress({ job, label, pdf }: { job: ExportJob | null; label: string; pdf: boolean }) {
  const pct = job ? exportPercent(job) : 0;
  const waiting = !job || job.state === 'pending';
  return (
    <div>
      <div className="flex items-baseline justify-between gap-4 text-sm">
        <p className="font-medium text-slate-800" role="status">
          Preparing your {label}…
        </p>
        <span className="tabular-nums text-slate-600" data-testid="export-percent">
          {pct}%
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={`${label} export progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-100"
      >
        <div className={`h-full rounded-full bg-brand-600 transition-[width] duration-500 ${waiting ? 'animate-pulse' : ''}`} style={{ width: `${Math.max(pct, 2)}%` }} />
      </div>
      <p className="mt-3 text-xs leading-5 text-slate-500">
        {waiting ? 'Waiting for its turn. ' : `${job.done} of ${job.total} steps done. `}
        {pdf ? 'The report opens in this window when it is ready' : 'The download starts here when the file is ready'}; you can keep working on
        the dashboard meanwhile.
      </p>
    </div>
  );
}

function Ready({ job, href, label }: { job: ExportJob; href: string; label: string }) {
  return (
    <div>
      <div role="status" className="flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3">
        <IconCheck size={20} className="mt-0.5 shrink-0 text-emerald-600" />
        <div className="min-w-0 text-sm">
          <p className="font-medium text-emerald-900">Your {label} is ready.</p>
          <p className="mt-0.5 text-emerald-800">The download has started.</p>
          {job.filename ? (
            <p className="mt-1 break-all text-xs text-emerald-800/80" data-testid="export-file">
              {job.filename}
              {job.size !== null ? ` · ${formatBytes(job.size)}` : ''}
            </p>
          ) : null}
        </div>
      </div>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <p className="text-xs text-slate-500">You can close this window.</p>
        <a
          href={href}
          download
          className="inline-flex h-9 items-center gap-2 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
        >
          <IconDownload size={16} />
          Download again
        </a>
      </div>
    </div>
  );
}

/** The PDF, ready: this window is on its way to it; the link is there should it not go. */
function ReadyPdf({ job, href }: { job: ExportJob; href: string }) {
  return (
    <div>
      <div role="status" className="flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3">
        <IconCheck size={20} className="mt-0.5 shrink-0 text-emerald-600" />
        <div className="min-w-0 text-sm">
          <p className="font-medium text-emerald-900">Your PDF is ready.</p>
          <p className="mt-0.5 text-emerald-800">Opening the report…</p>
          {job.filename ? (
            <p className="mt-1 break-all text-xs text-emerald-800/80" data-testid="export-file">
              {job.filename}
              {job.size !== null ? ` · ${formatBytes(job.size)}` : ''}
            </p>
          ) : null}
        </div>
      </div>
      <div className="mt-6 flex justify-end">
        <a
          href={href}
          className="inline-flex h-9 items-center gap-2 rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
        >
          <IconExternal size={16} />
          {VIEW_PDF_LABEL}
        </a>
      </div>
    </div>
  );
}

function Failed({ format, onRetry }: { format: ExportFormat; onRetry: () => void }) {
  return (
    <div>
      <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
        {exportFailedText(format)}
      </p>
      <div className="mt-6 flex justify-end">
        <Button onClick={onRetry}>{format === 'pdf' ? TRY_AGAIN_LABEL : 'Try again'}</Button>
      </div>
    </div>
  );
}

function Problem({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div role="alert">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <div className="mt-2 text-sm leading-6 text-slate-600">{children}</div>
      {action ? <div className="mt-6 flex flex-wrap justify-end gap-3">{action}</div> : null}
    </div>
  );
}

const linkButton =
  'inline-flex h-9 items-center rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2';

/** What a refusal means for this visitor, and the way on. */
function ExportError(props: {
  error: unknown;
  /** The error is the job's (GET /exports/{token}), not the tracker's nor the request's. */
  ofJob: boolean;
  format: ExportFormat;
  shared: boolean;
  signedIn: boolean;
  next: string;
  onRetry: () => void;
}) {
  const { error, ofJob, format, shared, signedIn, next, onRetry } = props;
  const label = EXPORT_LABELS[format];
  const e = error instanceof ApiError ? error : null;
  if (e?.status === 401) {
    if (shared) {
      return (
        <Problem title="This shared link is no longer valid." action={<Link to={`/login?next=${encodeURIComponent(next)}`} className={linkButton}>Sign in</Link>}>
          The link may have been revoked or mistyped. Ask the person who shared it for a new link, or sign in if you have access to this tracker.
        </Problem>
      );
    }
    return (
      <Problem title={`Sign in to export this ${label}`} action={<Link to={`/login?next=${encodeURIComponent(next)}`} className={linkButton}>Sign in</Link>}>
        You need to be signed in with an account that may export this tracker’s reports.
      </Problem>
    );
  }
  if (e?.code === 'upgrade_required') {
    return (
      <div role="alert">
        <h2 className="mb-2 text-lg font-semibold text-slate-900">{sampleTitle(signedIn)}</h2>
        <SampleXlsBody signedIn={signedIn} />
      </div>
    );
  }
  if (e?.status === 403) {
    return (
      <Problem title="You cannot export this tracker" action={signedIn ? <Link to="/mytracks/hashtag" className={linkButton}>Go to Tracker List</Link> : null}>
        {shared
          ? 'This shared link does not allow exporting reports. Ask the tracker’s owner to turn on ‘Export reports’.'
          : 'Exporting needs the owner or an administrator of the tracker, or a tracker that shares its exports with viewers.'}
      </Problem>
    );
  }
  if (e?.status === 404) {
    const exportGone = ofJob;
    return (
      <Problem
        title={exportGone ? 'This export is no longer available' : 'Tracker not found'}
        action={exportGone ? <Button onClick={onRetry}>Make a new {label}</Button> : null}
      >
        {exportGone
          ? 'It may have expired, or it was asked for by another account.'
          : 'This tracker does not exist, was deleted, or is not shared with you.'}
      </Problem>
    );
  }
  return (
    <Problem title={exportFailedText(format)} action={<Button onClick={onRetry}>{format === 'pdf' ? TRY_AGAIN_LABEL : 'Try again'}</Button>}>
      {e && e.code !== 'unknown' && e.status >= 400 && e.status < 500 ? errorMessage(e) : 'Something went wrong while asking for the file.'}
    </Problem>
  );
}

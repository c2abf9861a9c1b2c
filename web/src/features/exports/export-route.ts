// The export route (dashboard-and-shell spec, route table): /hashtag-tracking/export/{hash}/{format}/{days}
// with an optional /tagFiltered or /allTags segment and the filter query. The dashboard builds it
// (with the XLS job it has just asked for) and opens it in a new window; the export page reads it
// back, following that job or asking for one itself (a PDF address opened as it is asks for its
// report with the timeline options of its query).
//
// Also the texts and constants every export shares (spec "Export", error catalogue, constants).
import type { Query } from '../../api/client';
import { formatRange, fromIsoDay, SHORTCUTS } from '../../state/date-range';
import type { FilterQuery } from '../../state/filter-query';
import { ERI_METRICS, GROUPINGS, type EriMetric } from '../../state/query-state';

export const EXPORT_FORMATS = ['xls', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The job kind the server makes for a format of the route. */
export const EXPORT_KINDS: Record<ExportFormat, string> = { xls: 'xlsx', pdf: 'pdf' };
/** How a format is named in the texts ('We were unable to generate the XLS.'). */
export const EXPORT_LABELS: Record<ExportFormat, string> = { xls: 'XLS', pdf: 'PDF' };

/** The PDF's success notice and its action. */
export const PDF_READY_TEXT = 'Your PDF is ready to be viewed';
export const VIEW_PDF_LABEL = 'View PDF';
/** The action of the PDF's failure notice: a new job. */
export const TRY_AGAIN_LABEL = 'Try Again';

export const PAPERS = ['a4', 'letter'] as const;
export type Paper = (typeof PAPERS)[number];
/** Browser languages whose readers print on Letter; everyone else gets A4. */
const LETTER_LANGUAGES = ['en-us', 'en-ca'];

/** The report's paper for a browser language (navigator.language): Letter for en-US and en-CA, else A4. */
export function paperFor(language: string | null | undefined): Paper {
  return LETTER_LANGUAGES.includes((language ?? '').trim().toLowerCase()) ? 'letter' : 'a4';
}

/** The paper of this browser's language. */
export function browserPaper(): Paper {
  return paperFor(typeof navigator === 'undefined' ? null : navigator.language);
}

/** The report's timeline as the dashboard shows it: grouping, the Metric select (none: 'Posts only'), running totals. */
export interface PdfOptions {
  grouping?: string | null;
  eri?: EriMetric | null;
  cumulative?: boolean;
  paper?: Paper | null;
}

/** The body of POST /exports for a PDF report: options left out when they are the defaults. */
export function pdfExportInput(source: 'dashboard' | 'posts', o: PdfOptions) {
  return {
    kind: 'pdf',
    source,
    ...(o.grouping ? { grouping: o.grouping } : {}),
    ...(o.eri ? { eri: o.eri } : {}),
    cumulative: !!o.cumulative,
    paper: o.paper ?? browserPaper(),
  };
}

/** The spreadsheet export: its name in menus and on the button, and its notices. */
export const SHEETS_LABEL = 'Google Sheets';
export const SHEETS_READY_TEXT = 'Your spreadsheet is ready';
export const OPEN_SHEET_LABEL = 'Open spreadsheet';
/** The spreadsheet item's tooltip while no administrator has saved a key. */
export const SHEETS_NOT_SET_UP_TEXT = 'An administrator has not set up Google Sheets yet.';
/** A finished spreadsheet is announced this long after the job says it is ready (spec constant). */
export const SHEETS_READY_WAIT_MS = 2000;

/** The window opens this long after the click (the job is asked for first). */
export const EXPORT_WINDOW_DELAY_MS = 150;
/** How long the failure notice stays. */
export const EXPORT_ERROR_NOTICE_MS = 10_000;

/** 'We were unable to generate the XLS.'; the PDF's adds ' Please try again.' (it has a Try Again). */
export const exportFailedText = (format: ExportFormat) =>
  `We were unable to generate the ${EXPORT_LABELS[format]}.${format === 'pdf' ? ' Please try again.' : ''}`;

const TAG_KEYS = ['postTags', 'postTagFilterMode', 'influencerTags', 'influencerTagFilterMode'] as const;
/** Filter parameters the route carries in its query (days and tags are also in its path). */
const FILTER_KEYS = ['platforms', 'start', 'end', 'tz', 'subtracker', ...TAG_KEYS] as const;

export interface ExportRouteInput {
  hash: string;
  format: ExportFormat;
  /** The page's filter query (see filterQuery): days or start/end, platforms, tags, tz… */
  filters: FilterQuery;
  /** The job the dashboard has asked for, which the page follows. */
  job?: string | null;
  shareHash?: string | null;
  grouping?: string | null;
  /** A PDF's timeline options (the route of an XLS leaves them out). */
  pdf?: Omit<PdfOptions, 'grouping'>;
}

/** Whether the filters narrow the posts by post or influencer tags. */
export function hasTagFilters(filters: FilterQuery): boolean {
  return !!filters.postTags || !!filters.influencerTags;
}

/** `/hashtag-tracking/export/{hash}/xls/{days|custom}[/tagFiltered]?job=…&…` */
export function exportRouteUrl({ hash, format, filters, job, shareHash, grouping, pdf }: ExportRouteInput): string {
  const days = filters.days !== undefined && filters.days !== '' ? String(filters.days) : 'custom';
  const tagged = hasTagFilters(filters);
  let path = `/hashtag-tracking/export/${encodeURIComponent(hash)}/${format}/${encodeURIComponent(days)}`;
  if (tagged) path += '/tagFiltered';
  const q = new URLSearchParams();
  if (job) q.set('job', job);
  for (const k of FILTER_KEYS) {
    const v = filters[k];
    if (v === undefined || v === '') continue;
    if ((k === 'start' || k === 'end') && days !== 'custom') continue;
    q.set(k, String(v));
  }
  if (grouping) q.set('grouping', grouping);
  if (pdf?.eri) q.set('eri', pdf.eri);
  if (pdf?.cumulative) q.set('cumulative', '1');
  if (pdf?.paper) q.set('paper', pdf.paper);
  if (shareHash) q.set('shareHash', shareHash);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export type ExportRequest =
  | {
      ok: true;
      hash: string;
      format: ExportFormat;
      kind: string;
      /** The query of the POST that asks for the job (shareHash included). */
      query: Query;
      grouping: string | null;
      /** A PDF's timeline metric, running totals and paper (null: the browser's). */
      eri: EriMetric | null;
      cumulative: boolean;
      paper: Paper | null;
      job: string | null;
      shareHash: string | null;
      /** The window asked for: a number of days, 'all', or a custom range of ISO days. */
      window: { kind: 'days'; days: string } | { kind: 'custom'; start: string; end: string };
      /** Filtered by post or influencer tags. */
      tagged: boolean;
    }
  | { ok: false; error: string };

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The route's path parameters and query read back. `/allTags` drops the tag filters;
 * `/tagFiltered` (or no segment) keeps the postTags and influencerTags of the query.
 */
export function parseExportRoute(params: { hash?: string; format?: string; days?: string; rest?: string }, search: string): ExportRequest {
  const p = new URLSearchParams(search);
  const hash = params.hash ?? '';
  const format = (EXPORT_FORMATS as readonly string[]).includes(params.format ?? '') ? (params.format as ExportFormat) : null;
  if (!hash) return { ok: false, error: 'This export address names no tracker.' };
  if (!format) return { ok: false, error: `Exports as “${params.format ?? ''}” are not available here.` };
  const segment = (params.rest ?? '').split('/').filter(Boolean)[0] ?? null;
  const allTags = segment === 'allTags';

  const query: Query = {};
  const days = params.days ?? '';
  let window: Extract<ExportRequest, { ok: true }>['window'];
  if (/^\d{1,5}$/.test(days) && Number(days) >= 1) {
    window = { kind: 'days', days: String(Number(days)) };
    query.days = window.days;
  } else if (days === 'all') {
    window = { kind: 'days', days: 'all' };
    query.days = 'all';
  } else if (days === 'custom') {
    const start = p.get('start') ?? '';
    const end = p.get('end') ?? '';
    if (!ISO_DAY.test(start) || !ISO_DAY.test(end)) return { ok: false, error: 'A custom date range needs a start and an end day.' };
    window = { kind: 'custom', start, end };
    query.start = start;
    query.end = end;
  } else {
    return { ok: false, error: 'The date range of this export address is not valid.' };
  }
  for (const k of ['platforms', 'tz', 'subtracker'] as const) {
    const v = p.get(k);
    if (v) query[k] = v;
  }
  if (!allTags) {
    for (const k of TAG_KEYS) {
      const v = p.get(k);
      if (v) query[k] = v;
    }
  }
  const shareHash = p.get('shareHash') || null;
  if (shareHash) query.shareHash = shareHash;
  const g = p.get('grouping');
  const grouping = g && (GROUPINGS as readonly string[]).includes(g) ? g : null;
  const e = p.get('eri');
  const eri = e && (ERI_METRICS as readonly string[]).includes(e) ? (e as EriMetric) : null;
  const c = p.get('cumulative');
  const pp = p.get('paper');
  const paper = pp && (PAPERS as readonly string[]).includes(pp) ? (pp as Paper) : null;
  return {
    ok: true,
    hash,
    format,
    kind: EXPORT_KINDS[format],
    query,
    grouping,
    eri,
    cumulative: c === '1' || c === 'true',
    paper,
    job: p.get('job') || null,
    shareHash,
    window,
    tagged: !!query.postTags || !!query.influencerTags,
  };
}

/** 'Past 2 Weeks', 'Past 45 days', 'All Time' or 'Mar 3 – Mar 17' for the window of a route. */
export function exportWindowLabel(window: Extract<ExportRequest, { ok: true }>['window']): string {
  if (window.kind === 'custom') return formatRange({ start: fromIsoDay(window.start).getTime(), end: fromIsoDay(window.end).getTime() });
  if (window.days === 'all') return 'All Time';
  const n = Number(window.days);
  return SHORTCUTS.find((s) => s.days === n)?.label ?? `Past ${n} days`;
}

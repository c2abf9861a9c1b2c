// The dashboard's Export menu (Google Sheets, PDF, XLS): who sees it, the plan gate (sample modal), the flow of an XLS job
// (loading, the export window 150 ms after the click, progress, back to idle), the download here
// when the window was blocked, the failure notice (10000 ms) and a job found again after a reload;
// the PDF report (loading with its progress, the ready notice and 'View PDF', the next click
// opening it, the failure notice with 'Try Again', the timeline options and paper it asks with,
// a report found again after a reload); the spreadsheet (its progress, the ready notice 2000 ms
// after the job is done with 'Open spreadsheet' in a new tab, the silent reset of a failure, a
// refusal's message, disabled when not set up, on every plan, a job found again after a reload).
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExportJob } from '../../api/queries/exports';
import type { Me, Tracker } from '../../api/types';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { TrackerShell } from '../shell';
import { DASHBOARD_ANSWERS, makeMe, makeTracker } from '../shell/test-fixtures';
import { ExportMenu, type ExportMenuProps } from './ExportMenu';

const download = vi.hoisted(() => ({ startDownload: vi.fn() }));
// Downloads are watched; new windows go through window.open, spied on by each test.
vi.mock('../../lib/download', async (actual) => ({ ...(await actual<typeof import('../../lib/download')>()), startDownload: download.startDownload }));

const TOKEN = 'a'.repeat(32);

function job(p: Partial<ExportJob> = {}): ExportJob {
  return {
    token: TOKEN,
    kind: 'xlsx',
    state: 'pending',
    done: 0,
    total: 0,
    fileUrl: null,
    filename: null,
    size: null,
    error: null,
    createdAt: Date.now(),
    expiresAt: Date.now() + 3_600_000,
    ...p,
  };
}

const READY = job({ state: 'ready', done: 20, total: 20, fileUrl: `/export/hashtag/${TOKEN}.xlsx`, filename: 'rust.xlsx', size: 4096 });

beforeEach(() => {
  download.startDownload.mockReset();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

type Routes = Record<string, (c: ApiCall) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>>;

/** The menu alone, with the dashboard's filters; the job's answers come one after another. */
function renderMenu(props: Partial<ExportMenuProps> = {}, routes: Routes = {}, jobAnswers: ExportJob[] = [job({ state: 'running', done: 9, total: 20 }), READY]) {
  let n = 0;
  const calls = mockApi({
    'POST /trackers/abc123/exports': () => ({ status: 202, body: job() }),
    [`GET /exports/${TOKEN}`]: () => ({ body: jobAnswers[Math.min(n++, jobAnswers.length - 1)] }),
    'GET /trackers/abc123/exports': () => ({ body: { exports: [] } }),
    ...routes,
  });
  renderRoute(
    <ExportMenu
      hash="abc123"
      filters={{ platforms: 'twt', days: 14, tz: 'UTC' }}
      shareHash={null}
      grouping={null}
      signedIn
      xls
      disabled={false}
      {...props}
    />,
    { path: '*', url: '/hashtag-tracking/dashboard/abc123/rust-lang' },
  );
  return calls;
}

const trigger = () => screen.getByTestId('export-menu');

/** Opens the menu from the keyboard and chooses XLS. */
async function chooseXls() {
  fireEvent.keyDown(trigger(), { key: 'Enter' });
  fireEvent.click(await screen.findByRole('menuitem', { name: /^XLS/ }));
}

describe('the Export menu', () => {
  it('opens from the keyboard with Google Sheets, PDF, then XLS', async () => {
    renderMenu();
    expect(trigger()).toHaveAccessibleName('Export');
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual([
      'Google SheetsA spreadsheet to share online',
      'PDFA report to view, print or share',
      'XLSEvery panel and post, as a workbook',
    ]);
  });

  it('asks for the job, opens the export window no sooner than 150 ms after the click, shows the progress and goes back to idle', async () => {
    const opened: { url: string; at: number }[] = [];
    vi.spyOn(window, 'open').mockImplementation((url) => {
      opened.push({ url: String(url), at: Date.now() });
      return {} as Window;
    });
    const calls = renderMenu({ grouping: 'day' });
    const clickedAt = Date.now();
    await chooseXls();
    await waitFor(() => expect(trigger()).toHaveAttribute('aria-busy', 'true'));
    expect(trigger()).toHaveTextContent('XLS 0%');

    const create = calls.find((c) => c.method === 'POST')!;
    expect(create.path).toBe('/trackers/abc123/exports');
    expect(Object.fromEntries(create.query)).toEqual({ platforms: 'twt', days: '14', tz: 'UTC' });
    expect(create.body).toEqual({ kind: 'xlsx', source: 'dashboard', grouping: 'day' });

    await waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0].at - clickedAt).toBeGreaterThanOrEqual(150);
    expect(opened[0].url).toBe(`/hashtag-tracking/export/abc123/xls/14?job=${TOKEN}&platforms=twt&tz=UTC&grouping=day`);

    await waitFor(() => expect(trigger()).toHaveTextContent('XLS 45%'));
    await waitFor(() => expect(trigger()).toHaveAccessibleName('Export'), { timeout: 3000 });
    expect(trigger()).not.toHaveAttribute('aria-busy');
    // The export window downloads the file; this one stays quiet.
    expect(download.startDownload).not.toHaveBeenCalled();
    expect(screen.queryByTestId('notice')).toBeNull();
  });

  it('downloads here, with a Download link, when the export window was blocked', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    renderMenu({ shareHash: 's1', signedIn: false, xls: false }, {}, [READY]);
    await chooseXls();
    await waitFor(() => expect(download.startDownload).toHaveBeenCalledWith(`/export/hashtag/${TOKEN}.xlsx?shareHash=s1`));
    const notice = await screen.findByTestId('notice');
    expect(notice).toHaveTextContent('Your XLS is ready.');
    expect(within(notice).getByRole('link', { name: 'Download' })).toHaveAttribute('href', `/export/hashtag/${TOKEN}.xlsx?shareHash=s1`);
    expect(trigger()).toHaveAccessibleName('Export');
  });

  it('a share-link visitor asks and follows with the shareHash', async () => {
    const opened: string[] = [];
    vi.spyOn(window, 'open').mockImplementation((url) => (opened.push(String(url)), {} as Window));
    const calls = renderMenu({ shareHash: 's1', signedIn: false, xls: false }, {}, [READY]);
    await chooseXls();
    await waitFor(() => expect(opened).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')!.query.get('shareHash')).toBe('s1');
    expect(opened[0]).toContain('shareHash=s1');
    await waitFor(() => expect(calls.some((c) => c.path === `/exports/${TOKEN}`)).toBe(true));
    expect(calls.find((c) => c.path === `/exports/${TOKEN}`)!.query.get('shareHash')).toBe('s1');
    // A visitor has no jobs of their own to find again.
    expect(calls.some((c) => c.path === '/trackers/abc123/exports' && c.method === 'GET')).toBe(false);
  });

  it('a failed job says so for 10000 ms and the button is idle again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(window, 'open').mockReturnValue({} as Window);
    renderMenu({}, {}, [job({ state: 'failed', error: 'disk full' })]);
    await chooseXls();
    const notice = await screen.findByTestId('notice');
    expect(notice).toHaveTextContent(/^We were unable to generate the XLS\.$/);
    expect(trigger()).toHaveAccessibleName('Export');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(9_800);
    });
    expect(screen.getByTestId('notice')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(300);
    });
    expect(screen.queryByTestId('notice')).toBeNull();
  });

  it('a refused request says why and opens no window', async () => {
    const open = vi.spyOn(window, 'open');
    renderMenu({}, {
      'POST /trackers/abc123/exports': () => ({ status: 429, body: { error: { code: 'rate_limited', message: 'Several exports of this tracker are on their way; try again when they are ready.' } } }),
    });
    await chooseXls();
    expect(await screen.findByTestId('notice')).toHaveTextContent('Several exports of this tracker are on their way');
    expect(open).not.toHaveBeenCalled();
    expect(trigger()).toHaveAccessibleName('Export');
  });

  it('a network failure gets the spec notice', async () => {
    renderMenu({}, { 'POST /trackers/abc123/exports': () => ({ status: 500, body: { error: { code: 'internal', message: 'Internal error' } } }) });
    await chooseXls();
    expect(await screen.findByTestId('notice')).toHaveTextContent(/^We were unable to generate the XLS\.$/);
  });

  it('shows a job still being made after a reload', async () => {
    renderMenu({}, { 'GET /trackers/abc123/exports': () => ({ body: { exports: [job({ state: 'running', done: 3, total: 10 })] } }) }, [
      job({ state: 'running', done: 3, total: 10 }),
    ]);
    await waitFor(() => expect(trigger()).toHaveTextContent('XLS 30%'));
    expect(trigger()).toHaveAttribute('aria-busy', 'true');
    expect(trigger()).not.toHaveAttribute('data-pdf-loading');
    // While it is made the menu still opens (for a PDF meanwhile); the XLS item is disabled and says how far it is.
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    const xlsItem = await screen.findByRole('menuitem', { name: /^XLS/ });
    expect(xlsItem).toHaveAttribute('aria-disabled', 'true');
    expect(xlsItem).toHaveTextContent('Preparing… 30%');
    expect(screen.getByRole('menuitem', { name: /^PDF/ })).not.toHaveAttribute('aria-disabled');
  });

  it('is disabled when told so (a frame, preview mode)', () => {
    renderMenu({ disabled: true, disabledReason: 'Exports are not available in an embedded view.' });
    expect(trigger()).toBeDisabled();
    expect(trigger()).toHaveAttribute('title', 'Exports are not available in an embedded view.');
  });
});

const PDF_TOKEN = 'd'.repeat(32);
const PDF_TOKEN2 = 'e'.repeat(32);
const pdfJob = (p: Partial<ExportJob> = {}) => job({ token: PDF_TOKEN, kind: 'pdf', ...p });
const pdfReady = (token = PDF_TOKEN, fileUrl = `/export/hashtag/${token}.pdf`) =>
  pdfJob({ token, state: 'ready', done: 12, total: 12, fileUrl, filename: 'rust.pdf', size: 90_000 });

/**
 * The menu with PDF jobs: each POST of a PDF gets the next token, and each token answers its
 * list of states one after another (the last one repeated).
 */
function renderPdfMenu(props: Partial<ExportMenuProps> = {}, answers: Record<string, ExportJob[]> = {}, routes: Routes = {}) {
  const tokens = [PDF_TOKEN, PDF_TOKEN2];
  let made = 0;
  const seen: Record<string, number> = {};
  const follow = (token: string) => () => {
    const list = answers[token] ?? [pdfJob({ token, state: 'running', done: 9, total: 20 }), pdfReady(token)];
    const n = (seen[token] = (seen[token] ?? -1) + 1);
    return { body: list[Math.min(n, list.length - 1)] };
  };
  return renderMenu(props, {
    'POST /trackers/abc123/exports': (c) =>
      (c.body as { kind: string }).kind === 'pdf' ? { status: 202, body: pdfJob({ token: tokens[Math.min(made++, 1)] }) } : { status: 202, body: job() },
    [`GET /exports/${PDF_TOKEN}`]: follow(PDF_TOKEN),
    [`GET /exports/${PDF_TOKEN2}`]: follow(PDF_TOKEN2),
    ...routes,
  });
}

async function choosePdf() {
  fireEvent.keyDown(trigger(), { key: 'Enter' });
  fireEvent.click(await screen.findByRole('menuitem', { name: /^PDF/ }));
}

describe('the PDF report', () => {
  beforeEach(() => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-US');
  });

  it('asks with the timeline options and the paper, shows its progress as PDF loading, then says it is ready', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    const calls = renderPdfMenu({ grouping: 'day', eri: 'Reach', cumulative: true });
    await choosePdf();
    await waitFor(() => expect(trigger()).toHaveAttribute('data-pdf-loading', 'true'));
    expect(trigger()).toHaveAttribute('aria-busy', 'true');

    const create = calls.find((c) => c.method === 'POST')!;
    expect(create.path).toBe('/trackers/abc123/exports');
    expect(Object.fromEntries(create.query)).toEqual({ platforms: 'twt', days: '14', tz: 'UTC' });
    expect(create.body).toEqual({ kind: 'pdf', source: 'dashboard', grouping: 'day', eri: 'Reach', cumulative: true, paper: 'letter' });

    await waitFor(() => expect(trigger()).toHaveAccessibleName('PDF 45%'));
    // Done: idle again, the notice with its action; nothing opened without a click.
    const notice = await screen.findByTestId('notice', undefined, { timeout: 3000 });
    expect(notice).toHaveTextContent(/^Your PDF is ready to be viewed/);
    expect(trigger()).toHaveAccessibleName('Export');
    expect(trigger()).not.toHaveAttribute('aria-busy');
    expect(trigger()).not.toHaveAttribute('data-pdf-loading');
    expect(open).not.toHaveBeenCalled();

    // 'View PDF' opens it in a new window and resets the job: the next click asks for a new one.
    fireEvent.click(within(notice).getByRole('button', { name: 'View PDF' }));
    expect(open).toHaveBeenCalledWith(`/export/hashtag/${PDF_TOKEN}.pdf`, '_blank');
    expect(screen.queryByTestId('notice')).toBeNull();
    await choosePdf();
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('the ready notice stays until it is used or dismissed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderPdfMenu({}, { [PDF_TOKEN]: [pdfReady()] });
    await choosePdf();
    const notice = await screen.findByTestId('notice');
    expect(notice).toHaveTextContent('Your PDF is ready to be viewed');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(screen.getByTestId('notice')).toBeInTheDocument();
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('notice')).toBeNull();
  });

  it('with its url held, the next click on PDF opens it in a new window and resets the job', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    const calls = renderPdfMenu({}, { [PDF_TOKEN]: [pdfReady()] });
    await choosePdf();
    await screen.findByTestId('notice');
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    const item = await screen.findByRole('menuitem', { name: /^PDF/ });
    expect(item).toHaveTextContent('Ready: opens in a new window');
    fireEvent.click(item);
    expect(open).toHaveBeenCalledWith(`/export/hashtag/${PDF_TOKEN}.pdf`, '_blank');
    expect(screen.queryByTestId('notice')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    // Reset: the item is a plain PDF again.
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    expect(await screen.findByRole('menuitem', { name: /^PDF/ })).toHaveTextContent('A report to view, print or share');
  });

  it('when the new window is blocked the job and its notice stay', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    renderPdfMenu({}, { [PDF_TOKEN]: [pdfReady()] });
    await choosePdf();
    const notice = await screen.findByTestId('notice');
    fireEvent.click(within(notice).getByRole('button', { name: 'View PDF' }));
    expect(screen.getByTestId('notice')).toHaveTextContent('Your PDF is ready to be viewed');
  });

  it('Posts only asks with no metric; the paper is A4 outside en-US and en-CA', async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-GB');
    const calls = renderPdfMenu({ eri: null, cumulative: false });
    await choosePdf();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ kind: 'pdf', source: 'dashboard', cumulative: false, paper: 'a4' });
  });

  it('a failed job says so for 10000 ms with Try Again, which asks for a new one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = renderPdfMenu({}, { [PDF_TOKEN]: [pdfJob({ state: 'failed', error: 'typst: boom' })], [PDF_TOKEN2]: [pdfJob({ token: PDF_TOKEN2, state: 'running', done: 1, total: 4 })] });
    await choosePdf();
    const notice = await screen.findByTestId('notice');
    expect(notice).toHaveTextContent(/^We were unable to generate the PDF\. Please try again\.Try Again$/);
    expect(trigger()).toHaveAccessibleName('Export');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(9_800);
    });
    expect(screen.getByTestId('notice')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(300);
    });
    expect(screen.queryByTestId('notice')).toBeNull();

    // Again, and this time Try Again.
    cleanup();
    const again = renderPdfMenu({}, { [PDF_TOKEN]: [pdfJob({ state: 'failed' })], [PDF_TOKEN2]: [pdfJob({ token: PDF_TOKEN2, state: 'running', done: 1, total: 4 })] });
    await choosePdf();
    fireEvent.click(within(await screen.findByTestId('notice')).getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(trigger()).toHaveAccessibleName('PDF 25%'));
    expect(again.filter((c) => c.method === 'POST')).toHaveLength(2);
    expect(screen.queryByTestId('notice')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('a network failure gets the spec notice; a refusal says why', async () => {
    renderPdfMenu({}, {}, { 'POST /trackers/abc123/exports': () => ({ status: 500, body: { error: { code: 'internal', message: 'Internal error' } } }) });
    await choosePdf();
    expect(await screen.findByTestId('notice')).toHaveTextContent(/^We were unable to generate the PDF\. Please try again\./);
    cleanup();
    renderPdfMenu({}, {}, {
      'POST /trackers/abc123/exports': () => ({ status: 429, body: { error: { code: 'rate_limited', message: 'Several exports of this tracker are on their way; try again when they are ready.' } } }),
    });
    await choosePdf();
    const notice = await screen.findByTestId('notice');
    expect(notice).toHaveTextContent('Several exports of this tracker are on their way');
    expect(within(notice).getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('XLS and PDF are made at once, each with its own state', async () => {
    vi.spyOn(window, 'open').mockReturnValue({} as Window);
    renderPdfMenu({}, { [PDF_TOKEN]: [pdfJob({ state: 'running', done: 2, total: 5 })] }, { [`GET /exports/${TOKEN}`]: () => ({ body: job({ state: 'running', done: 9, total: 20 }) }) });
    await chooseXls();
    await waitFor(() => expect(trigger()).toHaveAccessibleName('XLS 45%'));
    await choosePdf();
    await waitFor(() => expect(trigger()).toHaveAccessibleName('PDF 40% · XLS 45%'));
    expect(trigger()).toHaveAttribute('data-pdf-loading', 'true');
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    expect(await screen.findByRole('menuitem', { name: /^XLS/ })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('menuitem', { name: /^PDF/ })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('menuitem', { name: /^PDF/ })).toHaveTextContent('Preparing… 40%');
  });

  it('a share-link visitor asks, follows and opens through the link (its url carries it once)', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    const calls = renderPdfMenu({ shareHash: 's1', signedIn: false, xls: false }, { [PDF_TOKEN]: [pdfReady(PDF_TOKEN, `/export/hashtag/${PDF_TOKEN}.pdf?shareHash=s1`)] });
    await choosePdf();
    const notice = await screen.findByTestId('notice');
    expect(calls.find((c) => c.method === 'POST')!.query.get('shareHash')).toBe('s1');
    expect(calls.find((c) => c.path === `/exports/${PDF_TOKEN}`)!.query.get('shareHash')).toBe('s1');
    fireEvent.click(within(notice).getByRole('button', { name: 'View PDF' }));
    expect(open).toHaveBeenCalledWith(`/export/hashtag/${PDF_TOKEN}.pdf?shareHash=s1`, '_blank');
  });

  it('is on every plan: a plan without XLS still asks for the PDF', async () => {
    const calls = renderPdfMenu({ xls: false });
    await choosePdf();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

const SHEET_TOKEN = 'f'.repeat(32);
const SHEET_URL = 'https://docs.example.com/spreadsheets/d/sheet-1/edit';
const sheetJob = (p: Partial<ExportJob> = {}) => job({ token: SHEET_TOKEN, kind: 'sheets', ...p });
const sheetReady = () => sheetJob({ state: 'ready', done: 30, total: 30, fileUrl: SHEET_URL, filename: null, size: null });

/** The menu with spreadsheet jobs: the POST of one gets SHEET_TOKEN, which answers `answers` one after another. */
function renderSheetsMenu(props: Partial<ExportMenuProps> = {}, answers: ExportJob[] = [sheetJob({ state: 'running', done: 9, total: 20 }), sheetReady()], routes: Routes = {}) {
  let n = 0;
  return renderMenu(props, {
    'POST /trackers/abc123/exports': () => ({ status: 202, body: sheetJob() }),
    [`GET /exports/${SHEET_TOKEN}`]: () => ({ body: answers[Math.min(n++, answers.length - 1)] }),
    ...routes,
  });
}

async function chooseSheets() {
  fireEvent.keyDown(trigger(), { key: 'Enter' });
  fireEvent.click(await screen.findByRole('menuitem', { name: /^Google Sheets/ }));
}

describe('the spreadsheet', () => {
  it('asks for a sheets job of the dashboard as it is, shows its progress, and 2000 ms after it is made says so with Open spreadsheet', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const open = vi.spyOn(window, 'open');
    const calls = renderSheetsMenu({ grouping: 'week' });
    await chooseSheets();
    await waitFor(() => expect(trigger()).toHaveAttribute('aria-busy', 'true'));
    expect(trigger()).toHaveAttribute('data-sheets-loading', 'true');

    const create = calls.find((c) => c.method === 'POST')!;
    expect(create.path).toBe('/trackers/abc123/exports');
    expect(Object.fromEntries(create.query)).toEqual({ platforms: 'twt', days: '14', tz: 'UTC' });
    expect(create.body).toEqual({ kind: 'sheets', source: 'dashboard', grouping: 'week' });

    await waitFor(() => expect(trigger()).toHaveAccessibleName('Google Sheets 45%'));
    // Made: the button holds at 100% while the notice waits its 2000 ms.
    await waitFor(() => expect(trigger()).toHaveAccessibleName('Google Sheets 100%'), { timeout: 3000 });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_800);
    });
    expect(screen.queryByTestId('notice')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(300);
    });
    const notice = await screen.findByTestId('notice');
    expect(notice).toHaveTextContent(/^Your spreadsheet is ready/);
    expect(trigger()).toHaveAccessibleName('Export');
    expect(trigger()).not.toHaveAttribute('aria-busy');
    const link = within(notice).getByRole('link', { name: /^Open spreadsheet/ });
    expect(link).toHaveAttribute('href', SHEET_URL);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    // Nothing opens by itself; the notice stays until it is used or dismissed.
    expect(open).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(screen.getByTestId('notice')).toBeInTheDocument();
    fireEvent.click(link);
    await waitFor(() => expect(screen.queryByTestId('notice')).toBeNull());
  });

  it('a failed spreadsheet resets silently', async () => {
    renderSheetsMenu({}, [sheetJob({ state: 'running', done: 1, total: 4 }), sheetJob({ state: 'failed', error: 'Google said no' })]);
    await chooseSheets();
    await waitFor(() => expect(trigger()).toHaveAccessibleName('Google Sheets 25%'));
    await waitFor(() => expect(trigger()).toHaveAccessibleName('Export'), { timeout: 3000 });
    expect(screen.queryByTestId('notice')).toBeNull();
  });

  it('a refusal at the start says why (not set up here); a server error resets silently', async () => {
    renderSheetsMenu({}, undefined, {
      'POST /trackers/abc123/exports': () => ({ status: 409, body: { error: { code: 'sheets_not_configured', message: 'Google Sheets is not set up on this server.' } } }),
    });
    await chooseSheets();
    const notice = await screen.findByTestId('notice');
    expect(notice).toHaveTextContent('Google Sheets is not set up on this server.');
    expect(trigger()).toHaveAccessibleName('Export');
    cleanup();
    renderSheetsMenu({}, undefined, { 'POST /trackers/abc123/exports': () => ({ status: 500, body: { error: { code: 'internal', message: 'Internal error' } } }) });
    await chooseSheets();
    await waitFor(() => expect(trigger()).toHaveAccessibleName('Export'));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('notice')).toBeNull();
  });

  it('is disabled, saying why, while no administrator has set it up', async () => {
    const calls = renderSheetsMenu({}, undefined, { 'GET /exports/capabilities': () => ({ body: { sheets: false } }) });
    await waitFor(() => expect(calls.some((c) => c.path === '/exports/capabilities')).toBe(true));
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    const item = await screen.findByRole('menuitem', { name: /^Google Sheets/ });
    await waitFor(() => expect(item).toHaveAttribute('aria-disabled', 'true'));
    expect(item).toHaveAttribute('title', 'An administrator has not set up Google Sheets yet.');
    expect(item).toHaveTextContent('Not set up on this server');
    fireEvent.click(item);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // Set up: on offer.
    cleanup();
    renderSheetsMenu({}, undefined, { 'GET /exports/capabilities': () => ({ body: { sheets: true } }) });
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    expect(await screen.findByRole('menuitem', { name: /^Google Sheets/ })).not.toHaveAttribute('aria-disabled');
  });

  it('is on every plan: a plan without XLS sees it unlocked and starting it makes a job', async () => {
    const calls = renderSheetsMenu({ xls: false });
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    const item = await screen.findByRole('menuitem', { name: /^Google Sheets/ });
    expect(item).toHaveTextContent('Google SheetsA spreadsheet to share online');
    expect(item).not.toHaveTextContent('Upgrade your account to unlock');
    expect(item).not.toHaveAttribute('aria-disabled');
    expect(item.querySelector('svg.text-amber-600')).toBeNull();
    // XLS keeps its lock.
    expect(screen.getByRole('menuitem', { name: /^XLS/ })).toHaveTextContent('Upgrade your account to unlock');
    fireEvent.click(item);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ kind: 'sheets', source: 'dashboard' });
    await waitFor(() => expect(trigger()).toHaveAttribute('data-sheets-loading', 'true'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a server still refusing it with upgrade_required says so in a notice, not the sample modal', async () => {
    renderSheetsMenu({ xls: false }, undefined, {
      'POST /trackers/abc123/exports': () => ({ status: 403, body: { error: { code: 'upgrade_required', message: 'Upgrade your account to export XLS reports.' } } }),
    });
    await chooseSheets();
    const notice = await screen.findByTestId('notice');
    expect(notice).toHaveTextContent('Upgrade your account to export XLS reports.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(trigger()).toHaveAccessibleName('Export');
  });

  it('a share-link visitor asks and follows through the link', async () => {
    const calls = renderSheetsMenu({ shareHash: 's1', signedIn: false, xls: false }, [sheetReady()]);
    await chooseSheets();
    await waitFor(() => expect(calls.some((c) => c.path === `/exports/${SHEET_TOKEN}`)).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.query.get('shareHash')).toBe('s1');
    expect(calls.find((c) => c.path === `/exports/${SHEET_TOKEN}`)!.query.get('shareHash')).toBe('s1');
  });

  it('shows a spreadsheet still being made after a reload, then its notice', async () => {
    renderSheetsMenu({}, [sheetJob({ state: 'running', done: 3, total: 10 }), sheetReady()], {
      'GET /trackers/abc123/exports': () => ({ body: { exports: [sheetJob({ state: 'running', done: 3, total: 10 })] } }),
    });
    await waitFor(() => expect(trigger()).toHaveAccessibleName('Google Sheets 30%'));
    const notice = await screen.findByTestId('notice', undefined, { timeout: 5000 });
    expect(notice).toHaveTextContent('Your spreadsheet is ready');
  });
});

describe('after a reload', () => {
  beforeEach(() => {
    window.localStorage.clear();
  });

  it('a report still being made shows its progress again, then its notice', async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-US');
    renderPdfMenu({}, { [PDF_TOKEN]: [pdfJob({ state: 'running', done: 3, total: 10 }), pdfReady()] }, {
      'GET /trackers/abc123/exports': () => ({ body: { exports: [pdfJob({ state: 'running', done: 3, total: 10 })] } }),
    });
    await waitFor(() => expect(trigger()).toHaveAccessibleName('PDF 30%'));
    expect(trigger()).toHaveAttribute('data-pdf-loading', 'true');
    const notice = await screen.findByTestId('notice', undefined, { timeout: 3000 });
    expect(notice).toHaveTextContent('Your PDF is ready to be viewed');
    // Taken up, not asked for: the PDF item makes a report of the view as it is now.
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    expect(await screen.findByRole('menuitem', { name: /^PDF/ })).toHaveTextContent('A report to view, print or share');
  });

  it('a job this browser asked for from the posts page is left to that page', async () => {
    window.localStorage.setItem(`hark.exportOrigin.${PDF_TOKEN}`, 'posts');
    const calls = renderPdfMenu({}, {}, {
      'GET /trackers/abc123/exports': () => ({ body: { exports: [pdfJob({ state: 'running', done: 3, total: 10 })] } }),
    });
    await waitFor(() => expect(calls.some((c) => c.path === '/trackers/abc123/exports')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(trigger()).toHaveAccessibleName('Export');
    expect(calls.some((c) => c.path === `/exports/${PDF_TOKEN}`)).toBe(false);
  });

  it('a visitor through a share link has no jobs of their own to find again', async () => {
    const calls = renderMenu({ shareHash: 's1', signedIn: false, xls: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.some((c) => c.path === '/trackers/abc123/exports' && c.method === 'GET')).toBe(false);
  });
});

describe('plan gating', () => {
  it('a plan without XLS gets the sample modal instead of a job', async () => {
    const calls = renderMenu({ xls: false });
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    const item = await screen.findByRole('menuitem', { name: /^XLS/ });
    expect(item).toHaveTextContent('Upgrade your account to unlock');
    fireEvent.click(item);
    const dialog = await screen.findByRole('dialog', { name: 'XLS reports are not part of your plan' });
    expect(within(dialog).getByRole('link', { name: 'Download a sample' })).toHaveAttribute('href', '/api/v1/exports/sample.xlsx');
    expect(within(dialog).getByRole('link', { name: 'Upgrade your account to unlock' })).toHaveAttribute('href', '/pricing');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('the server saying upgrade_required opens it too', async () => {
    const open = vi.spyOn(window, 'open');
    renderMenu({}, {
      'POST /trackers/abc123/exports': () => ({ status: 403, body: { error: { code: 'upgrade_required', message: 'Upgrade your account to export XLS reports.' } } }),
    });
    await chooseXls();
    await screen.findByRole('dialog', { name: 'XLS reports are not part of your plan' });
    expect(open).not.toHaveBeenCalled();
    expect(trigger()).toHaveAccessibleName('Export');
  });

  it('a share-link visitor is told the owner’s plan lacks it, with the sample only', async () => {
    renderMenu({ shareHash: 's1', signedIn: false, xls: false }, {
      'POST /trackers/abc123/exports': () => ({ status: 403, body: { error: { code: 'upgrade_required', message: 'Upgrade.' } } }),
    });
    await chooseXls();
    const dialog = await screen.findByRole('dialog', { name: 'XLS reports are not available here' });
    expect(within(dialog).getByRole('link', { name: 'Download a sample' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('link', { name: 'Upgrade your account to unlock' })).toBeNull();
  });
});

/** The dashboard of `tracker` as `me` sees it. */
function openDashboard(tracker: Tracker, me: Me, search = '', extra: Routes = {}) {
  const url = `/hashtag-tracking/dashboard/${tracker.hash}/${tracker.friendly}${search}`;
  window.history.replaceState(null, '', url);
  const routes: Routes = {
    'GET /me': () => ({ body: me }),
    [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 42 } } }),
    [`GET /trackers/${tracker.hash}/tags`]: () => ({ body: { tags: [] } }),
    [`GET /trackers/${tracker.hash}/exports`]: () => ({ body: { exports: [] } }),
  };
  for (const [k, v] of Object.entries(DASHBOARD_ANSWERS)) routes[`GET /trackers/${tracker.hash}/dashboard/${k}`] = () => ({ body: v });
  const calls = mockApi({ ...routes, ...extra });
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  return calls;
}

const signedOut = makeMe({ isLoggedIn: false, id: null, email: null, name: null, isTrackerOwner: false, permission: 0 });

async function exportButton() {
  await screen.findByRole('heading', { level: 1 });
  await waitFor(() => expect(screen.getByTestId('dashboard-grid')).toHaveAttribute('data-loading', ''), { timeout: 5000 });
  return screen.queryByTestId('export-menu');
}

describe('who sees the Export menu on the dashboard', () => {
  it('the owner', async () => {
    openDashboard(makeTracker(), makeMe());
    expect(await exportButton()).toBeEnabled();
  });

  it('not a viewer of a tracker that does not share exports; a viewer of one that does', async () => {
    const viewer = makeMe({ isTrackerOwner: false, permission: 1 });
    openDashboard(makeTracker({ permission: 1, isOwner: false }), viewer);
    expect(await exportButton()).toBeNull();
    cleanup();
    openDashboard(makeTracker({ permission: 1, isOwner: false, shareExports: true }), viewer);
    expect(await exportButton()).toBeEnabled();
  });

  it('a share-link visitor when the link allows exports', async () => {
    const link = (exportReports: boolean) =>
      makeTracker({ permission: 1, isOwner: false, shared: true, linkSharing: { editDateRange: false, exportReports, viewPredictions: false } });
    openDashboard(link(false), signedOut, '?shareHash=s1');
    expect(await exportButton()).toBeNull();
    cleanup();
    openDashboard(link(true), signedOut, '?shareHash=s1');
    expect(await exportButton()).toBeEnabled();
  });

  it('disabled in preview mode', async () => {
    openDashboard(makeTracker({ isPreviewMode: true }), makeMe());
    await screen.findByRole('heading', { level: 1 });
    expect(await screen.findByTestId('export-menu')).toBeDisabled();
  });

  it('disabled inside a page embed', async () => {
    const tracker = makeTracker({ permission: 1, isOwner: false, shared: true, linkSharing: { editDateRange: false, exportReports: true, viewPredictions: false } });
    openDashboard(tracker, signedOut, '?embed=1&embedKey=k1');
    await screen.findByRole('heading', { level: 1 });
    expect(await screen.findByTestId('export-menu')).toBeDisabled();
  });
});

describe('plan 15 on the dashboard', () => {
  it('sees Google Sheets unlocked (XLS locked), and choosing it makes a spreadsheet job', async () => {
    const plan15 = makeMe({ plan: 15, isPaidUser: true, features: { xls: false, linkSharing: true, mediaWall: true } });
    const calls = openDashboard(makeTracker(), plan15, '', {
      'POST /trackers/abc123/exports': () => ({ status: 202, body: sheetJob() }),
      [`GET /exports/${SHEET_TOKEN}`]: () => ({ body: sheetJob({ state: 'running', done: 1, total: 4 }) }),
    });
    const button = await exportButton();
    expect(button).toBeEnabled();
    fireEvent.keyDown(button!, { key: 'Enter' });
    const sheets = await screen.findByRole('menuitem', { name: /^Google Sheets/ });
    expect(sheets).toHaveTextContent('A spreadsheet to share online');
    expect(sheets).not.toHaveTextContent('Upgrade your account to unlock');
    expect(screen.getByRole('menuitem', { name: /^XLS/ })).toHaveTextContent('Upgrade your account to unlock');
    fireEvent.click(sheets);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/trackers/abc123/exports')).toBe(true));
    expect((calls.find((c) => c.method === 'POST')!.body as { kind: string }).kind).toBe('sheets');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

// The export page opened by the Export menu: follows the job of ?job= (or asks for one from its
// path and query), shows the progress, downloads the file once ready, and explains refusals.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExportJob } from '../../api/queries/exports';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { makeMe, makeTracker } from '../shell/test-fixtures';
import { ExportPage } from './ExportPage';

const download = vi.hoisted(() => ({ startDownload: vi.fn(), showHere: vi.fn(), openInNewWindow: vi.fn() }));
vi.mock('../../lib/download', () => download);

const TOKEN = 'b'.repeat(32);
const OTHER = 'c'.repeat(32);
const job = (p: Partial<ExportJob> = {}): ExportJob => ({
  token: TOKEN,
  kind: 'xlsx',
  state: 'running',
  done: 9,
  total: 20,
  fileUrl: null,
  filename: null,
  size: null,
  error: null,
  createdAt: 0,
  expiresAt: 0,
  ...p,
});
const ready = (token = TOKEN) =>
  job({ token, state: 'ready', done: 20, total: 20, fileUrl: `/export/hashtag/${token}.xlsx`, filename: 'rust-tracker.xlsx', size: 5120 });

beforeEach(() => {
  download.startDownload.mockReset();
  download.showHere.mockReset();
  window.sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

type Answer = { status?: number; body?: unknown };

function open(url: string, routes: Record<string, (c: ApiCall) => Answer> = {}, answers: Answer[] = [{ body: job() }, { body: ready() }]) {
  let n = 0;
  window.history.replaceState(null, '', url);
  const calls = mockApi({
    'GET /me': () => ({ body: makeMe() }),
    'GET /trackers/abc123': () => ({ body: makeTracker() }),
    [`GET /exports/${TOKEN}`]: () => answers[Math.min(n++, answers.length - 1)],
    'POST /trackers/abc123/exports': () => ({ status: 202, body: job({ state: 'pending', done: 0, total: 0 }) }),
    ...routes,
  });
  renderRoute(<ExportPage />, { path: '/hashtag-tracking/export/:hash/:format/:days/*', url });
  return calls;
}

describe('the export page', () => {
  it('follows the job, shows its progress, downloads the file once and offers it again', async () => {
    open(`/hashtag-tracking/export/abc123/xls/14?job=${TOKEN}&platforms=twt`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Rust tracker' })).toBeInTheDocument();
    expect(screen.getByTestId('export-details')).toHaveTextContent('Past 2 Weeks');
    const bar = await screen.findByRole('progressbar', { name: 'XLS export progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '45'));
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(screen.getByText('Preparing your XLS…')).toBeInTheDocument();
    expect(screen.getByTestId('export-percent')).toHaveTextContent('45%');

    expect(await screen.findByText('Your XLS is ready.', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(download.startDownload).toHaveBeenCalledTimes(1);
    expect(download.startDownload).toHaveBeenCalledWith(`/export/hashtag/${TOKEN}.xlsx`);
    expect(screen.getByTestId('export-file')).toHaveTextContent('rust-tracker.xlsx · 5.0 KB');
    expect(screen.getByRole('link', { name: 'Download again' })).toHaveAttribute('href', `/export/hashtag/${TOKEN}.xlsx`);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('a reload of a finished page does not download again', async () => {
    window.sessionStorage.setItem(`hark.exportDownloaded.${TOKEN}`, '1');
    open(`/hashtag-tracking/export/abc123/xls/14?job=${TOKEN}`, {}, [{ body: ready() }]);
    await screen.findByText('Your XLS is ready.');
    expect(download.startDownload).not.toHaveBeenCalled();
  });

  it('a share-link visitor follows and downloads with the shareHash', async () => {
    const calls = open(`/hashtag-tracking/export/abc123/xls/14?job=${TOKEN}&shareHash=s1`, { 'GET /me': () => ({ body: makeMe({ isLoggedIn: false }) }) }, [{ body: ready() }]);
    await screen.findByText('Your XLS is ready.');
    expect(download.startDownload).toHaveBeenCalledWith(`/export/hashtag/${TOKEN}.xlsx?shareHash=s1`);
    expect(calls.find((c) => c.path === `/exports/${TOKEN}`)!.query.get('shareHash')).toBe('s1');
    expect(calls.find((c) => c.path === '/trackers/abc123')!.query.get('shareHash')).toBe('s1');
  });

  it('without a job, asks for one from its path and query (tags kept with /tagFiltered) and puts it in the address', async () => {
    const calls = open(
      '/hashtag-tracking/export/abc123/xls/custom/tagFiltered?start=2025-03-01&end=2025-03-20&platforms=twt&postTags=4&postTagFilterMode=any&grouping=week',
      {},
      [{ body: ready() }],
    );
    await screen.findByText('Your XLS is ready.');
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(Object.fromEntries(posts[0].query)).toEqual({ start: '2025-03-01', end: '2025-03-20', platforms: 'twt', postTags: '4', postTagFilterMode: 'any' });
    expect(posts[0].body).toEqual({ kind: 'xlsx', source: 'dashboard', grouping: 'week' });
    expect(screen.getByTestId('export-details')).toHaveTextContent('Mar 1 – Mar 20 · Filtered by tags');
    // The router applies the new address as a transition: it may land just after the answer shows.
    await waitFor(() => expect(new URLSearchParams(screen.getByTestId('location').textContent!.split('?')[1]).get('job')).toBe(TOKEN));
  });

  it('/allTags drops the tag filters', async () => {
    const calls = open('/hashtag-tracking/export/abc123/xls/7/allTags?postTags=4&influencerTags=2', {}, [{ body: ready() }]);
    await screen.findByText('Your XLS is ready.');
    expect(Object.fromEntries(calls.find((c) => c.method === 'POST')!.query)).toEqual({ days: '7' });
  });

  it('a failed job says so; Try again asks for a new one', async () => {
    const calls = open(`/hashtag-tracking/export/abc123/xls/14?job=${TOKEN}`, {
      'POST /trackers/abc123/exports': () => ({ status: 202, body: job({ token: OTHER, state: 'pending' }) }),
      [`GET /exports/${OTHER}`]: () => ({ body: ready(OTHER) }),
    }, [{ body: job({ state: 'failed', error: 'boom' }) }]);
    expect(await screen.findByRole('alert')).toHaveTextContent('We were unable to generate the XLS.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('Your XLS is ready.');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(download.startDownload).toHaveBeenCalledWith(`/export/hashtag/${OTHER}.xlsx`);
  });

  it('a signed-out visitor is told to sign in, with a link back here', async () => {
    const unauthorized = () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'Sign in to continue.' } } });
    const url = '/hashtag-tracking/export/abc123/xls/14';
    open(url, { 'GET /me': () => ({ body: makeMe({ isLoggedIn: false }) }), 'GET /trackers/abc123': unauthorized, 'POST /trackers/abc123/exports': unauthorized });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Sign in to export this XLS' })).toBeInTheDocument();
    expect(within(alert).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `/login?next=${encodeURIComponent(url)}`);
  });

  it('a caller who may not export is told why', async () => {
    open('/hashtag-tracking/export/abc123/xls/14', {
      'POST /trackers/abc123/exports': () => ({ status: 403, body: { error: { code: 'forbidden', message: 'Exporting needs the owner, an administrator or shared exports.' } } }),
    });
    expect(await screen.findByRole('heading', { name: 'You cannot export this tracker' })).toBeInTheDocument();
  });

  it('a plan without XLS gets the sample', async () => {
    open('/hashtag-tracking/export/abc123/xls/14', {
      'POST /trackers/abc123/exports': () => ({ status: 403, body: { error: { code: 'upgrade_required', message: 'Upgrade your account to export XLS reports.' } } }),
    });
    expect(await screen.findByRole('heading', { name: 'XLS reports are not part of your plan' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download a sample' })).toHaveAttribute('href', '/api/v1/exports/sample.xlsx');
    expect(screen.getByRole('link', { name: 'Upgrade your account to unlock' })).toHaveAttribute('href', '/pricing');
  });

  it('an unknown tracker and an expired job read differently', async () => {
    open('/hashtag-tracking/export/abc123/xls/14', {
      'GET /trackers/abc123': () => ({ status: 404, body: { error: { code: 'tracker_not_found', message: 'Tracker not found.' } } }),
    });
    expect(await screen.findByRole('heading', { name: 'Tracker not found' })).toBeInTheDocument();
    cleanup();
    open(`/hashtag-tracking/export/abc123/xls/14?job=${TOKEN}`, {}, [{ status: 404, body: { error: { code: 'not_found', message: 'Export not found.' } } }]);
    expect(await screen.findByRole('heading', { name: 'This export is no longer available' }, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Make a new XLS' })).toBeInTheDocument();
  });

  it('an address it cannot read says so', async () => {
    open('/hashtag-tracking/export/abc123/csv/14');
    expect(await screen.findByRole('heading', { name: 'This export address is not valid' })).toBeInTheDocument();
  });
});

const PDF = 'f'.repeat(32);
const pdfJob = (p: Partial<ExportJob> = {}) => job({ token: PDF, kind: 'pdf', ...p });
const pdfReady = () => pdfJob({ state: 'ready', done: 12, total: 12, fileUrl: `/export/hashtag/${PDF}.pdf`, filename: 'rust-tracker.pdf', size: 81_920 });

describe('the export page for a PDF', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('asks for the report with the timeline options of its address, shows the progress, then shows the PDF in this window', async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('de-DE');
    const calls = open(
      '/hashtag-tracking/export/abc123/pdf/14?platforms=twt&grouping=day&eri=Impressions&cumulative=1',
      {
        'POST /trackers/abc123/exports': () => ({ status: 202, body: pdfJob({ state: 'pending', done: 0, total: 0 }) }),
        [`GET /exports/${PDF}`]: (() => {
          let n = 0;
          return () => ({ body: n++ === 0 ? pdfJob({ done: 6, total: 12 }) : pdfReady() });
        })(),
      },
    );
    expect(await screen.findByText('PDF report of the dashboard')).toBeInTheDocument();
    const post = await waitFor(() => {
      const p = calls.find((c) => c.method === 'POST');
      expect(p).toBeTruthy();
      return p!;
    });
    expect(Object.fromEntries(post.query)).toEqual({ days: '14', platforms: 'twt' });
    expect(post.body).toEqual({ kind: 'pdf', source: 'dashboard', grouping: 'day', eri: 'Impressions', cumulative: true, paper: 'a4' });
    const bar = await screen.findByRole('progressbar', { name: 'PDF export progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    expect(screen.getByText('Preparing your PDF…')).toBeInTheDocument();
    expect(screen.getByText(/The report opens in this window when it is ready/)).toBeInTheDocument();

    expect(await screen.findByText('Your PDF is ready.', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(download.showHere).toHaveBeenCalledTimes(1);
    expect(download.showHere).toHaveBeenCalledWith(`/export/hashtag/${PDF}.pdf`);
    expect(download.startDownload).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'View PDF' })).toHaveAttribute('href', `/export/hashtag/${PDF}.pdf`);
    expect(screen.getByTestId('export-file')).toHaveTextContent('rust-tracker.pdf · 80.0 KB');
  });

  it('follows a job of ?job= and asks for none; a visitor’s goes through the link', async () => {
    const calls = open(
      `/hashtag-tracking/export/abc123/pdf/30?job=${PDF}&shareHash=s1`,
      {
        'GET /me': () => ({ body: makeMe({ isLoggedIn: false }) }),
        [`GET /exports/${PDF}`]: () => ({ body: pdfJob({ state: 'ready', fileUrl: `/export/hashtag/${PDF}.pdf?shareHash=s1` }) }),
      },
    );
    await screen.findByText('Your PDF is ready.');
    expect(download.showHere).toHaveBeenCalledWith(`/export/hashtag/${PDF}.pdf?shareHash=s1`);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(calls.find((c) => c.path === `/exports/${PDF}`)!.query.get('shareHash')).toBe('s1');
  });

  it('a failed report says so with Try Again, which asks for a new one', async () => {
    let posted = 0;
    const calls = open(`/hashtag-tracking/export/abc123/pdf/14?job=${PDF}`, {
      'POST /trackers/abc123/exports': () => (posted++, { status: 202, body: pdfJob({ token: OTHER, state: 'pending' }) }),
      [`GET /exports/${PDF}`]: () => ({ body: pdfJob({ state: 'failed', error: 'boom' }) }),
      [`GET /exports/${OTHER}`]: () => ({ body: pdfJob({ token: OTHER, done: 1, total: 4 }) }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('We were unable to generate the PDF. Please try again.');
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(posted).toBe(1));
    expect((calls.find((c) => c.method === 'POST')!.body as { kind: string }).kind).toBe('pdf');
    await screen.findByRole('progressbar', { name: 'PDF export progress' });
  });

  it('has the app header’s H mark', async () => {
    open(`/hashtag-tracking/export/abc123/pdf/14?job=${PDF}`, { [`GET /exports/${PDF}`]: () => ({ body: pdfJob() }) });
    const banner = await screen.findByRole('banner');
    expect(banner).toHaveTextContent(/^HHark$/);
  });
});

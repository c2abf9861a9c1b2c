// The posts page's Export menu (Google Sheets, CSV, PDF): CSV as before, the PDF report and the
// spreadsheet of the list as it is searched, filtered and sorted (source "posts"), with the same
// states and notices as the dashboard's.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExportJob } from '../../api/queries/exports';
import type { Me, Tracker } from '../../api/types';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { TrackerShell } from '../shell';
import { makeMe, makeTracker } from '../shell/test-fixtures';

const TOKEN = '9'.repeat(32);
const job = (p: Partial<ExportJob> = {}): ExportJob => ({
  token: TOKEN,
  kind: 'pdf',
  state: 'pending',
  done: 0,
  total: 0,
  fileUrl: null,
  filename: null,
  size: null,
  error: null,
  createdAt: 0,
  expiresAt: 0,
  ...p,
});

type Answer = { status?: number; body?: unknown };

beforeEach(() => {
  vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-US');
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

function openPosts(
  search: string,
  jobAnswers: Answer[],
  opts: { tracker?: Tracker; me?: Me; create?: (c: ApiCall) => Answer; routes?: Record<string, (c: ApiCall) => Answer> } = {},
) {
  const tracker = opts.tracker ?? makeTracker();
  const url = `/hashtag-tracking/posts/${tracker.hash}/${tracker.friendly}${search}`;
  window.history.replaceState(null, '', url);
  let n = 0;
  const calls = mockApi({
    'GET /me': () => ({ body: opts.me ?? makeMe() }),
    [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 0 } } }),
    [`GET /trackers/${tracker.hash}/tags`]: () => ({ body: { tags: [] } }),
    [`GET /trackers/${tracker.hash}/posts`]: () => ({
      body: { posts: [], total: 0, totalCapped: false, page: 1, perPage: 25, canManage: true, canExport: true, lastVisited: null },
    }),
    [`POST /trackers/${tracker.hash}/exports`]: opts.create ?? (() => ({ status: 202, body: job() })),
    [`GET /exports/${TOKEN}`]: () => jobAnswers[Math.min(n++, jobAnswers.length - 1)],
    ...opts.routes,
  });
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  return calls;
}

const trigger = () => screen.findByTestId('posts-export-menu');

async function choosePdf() {
  fireEvent.click(await trigger());
  fireEvent.click(await screen.findByTestId('export-pdf'));
}

describe('the posts page Export menu', () => {
  it('has Google Sheets, CSV and PDF, in that order', async () => {
    openPosts('?search=bread', []);
    fireEvent.click(await trigger());
    const csv = await screen.findByTestId('export-csv');
    expect(csv).toHaveTextContent('CSV');
    expect(csv.getAttribute('href')).toContain('/api/v1/trackers/abc123/posts/export.csv?');
    expect(csv.getAttribute('href')).toContain('search=bread');
    expect(screen.getByTestId('export-pdf')).toHaveTextContent(/^PDF$/);
    const sheets = screen.getByTestId('export-sheets');
    expect(sheets).toHaveTextContent(/^Google Sheets$/);
    expect(sheets).toBeEnabled();
    const items = [sheets, csv, screen.getByTestId('export-pdf')];
    for (let i = 1; i < items.length; i++) expect(items[i - 1].compareDocumentPosition(items[i]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('Google Sheets is disabled, saying why, while no administrator has set it up', async () => {
    openPosts('', [], { routes: { 'GET /exports/capabilities': () => ({ body: { sheets: false } }) } });
    fireEvent.click(await trigger());
    const sheets = await screen.findByTestId('export-sheets');
    await waitFor(() => expect(sheets).toBeDisabled());
    expect(sheets).toHaveAttribute('title', 'An administrator has not set up Google Sheets yet.');
  });

  it('makes a spreadsheet of the list as it is: its progress, then the notice with Open spreadsheet', async () => {
    const url = 'https://docs.example.com/spreadsheets/d/abc/edit';
    const calls = openPosts('?days=7&search=bread&sort=engagement;desc', [
      { body: job({ kind: 'sheets', state: 'running', done: 2, total: 5 }) },
      { body: job({ kind: 'sheets', state: 'ready', done: 5, total: 5, fileUrl: url }) },
    ], { create: () => ({ status: 202, body: job({ kind: 'sheets' }) }) });
    fireEvent.click(await trigger());
    fireEvent.click(await screen.findByTestId('export-sheets'));
    const button = await trigger();
    await waitFor(() => expect(button).toHaveAccessibleName('Google Sheets 40%'));
    const create = calls.find((c) => c.method === 'POST')!;
    expect(create.body).toEqual({ kind: 'sheets', source: 'posts' });
    const q = Object.fromEntries(create.query);
    expect(q).toMatchObject({ days: '7', search: 'bread', sort: 'engagement;desc' });
    expect(q.page).toBeUndefined();
    const notice = await screen.findByTestId('notice', undefined, { timeout: 5000 });
    expect(notice).toHaveTextContent('Your spreadsheet is ready');
    expect(within(notice).getByRole('link', { name: /^Open spreadsheet/ })).toHaveAttribute('href', url);
    expect(button).toHaveAccessibleName('Export');
  });

  it('a plan-15 account (no XLS) sees Google Sheets unlocked, and starting it makes a job', async () => {
    const calls = openPosts('', [{ body: job({ kind: 'sheets', state: 'running', done: 1, total: 4 }) }], {
      me: makeMe({ plan: 15, features: { xls: false, linkSharing: true, mediaWall: true } }),
      create: () => ({ status: 202, body: job({ kind: 'sheets' }) }),
    });
    fireEvent.click(await trigger());
    const sheets = await screen.findByTestId('export-sheets');
    expect(sheets).toHaveTextContent(/^Google Sheets$/);
    expect(sheets).not.toHaveAttribute('title');
    expect(sheets).toBeEnabled();
    fireEvent.click(sheets);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ kind: 'sheets', source: 'posts' });
    await waitFor(async () => expect(await trigger()).toHaveAttribute('data-sheets-loading', 'true'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a server still refusing Google Sheets with upgrade_required says so in a notice, not the sample modal', async () => {
    openPosts('', [], {
      me: makeMe({ plan: 15, features: { xls: false, linkSharing: true, mediaWall: true } }),
      create: () => ({ status: 403, body: { error: { code: 'upgrade_required', message: 'Upgrade your account to export XLS reports.' } } }),
    });
    fireEvent.click(await trigger());
    fireEvent.click(await screen.findByTestId('export-sheets'));
    const notice = await screen.findByTestId('notice');
    expect(notice).toHaveTextContent('Upgrade your account to export XLS reports.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks for the PDF of the list as it is, shows PDF loading with its progress, then the ready notice and View PDF', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    const calls = openPosts('?days=7&search=bread&sort=engagement;desc&sentiment=positive&excludeRT=1', [
      { body: job({ state: 'running', done: 2, total: 5 }) },
      { body: job({ state: 'ready', done: 5, total: 5, fileUrl: `/export/hashtag/${TOKEN}.pdf`, filename: 'rust.pdf', size: 1 }) },
    ]);
    await choosePdf();
    const button = await trigger();
    await waitFor(() => expect(button).toHaveAttribute('data-pdf-loading', 'true'));
    expect(button).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(button).toHaveAccessibleName('PDF 40%'));

    const create = calls.find((c) => c.method === 'POST')!;
    const q = Object.fromEntries(create.query);
    expect(q).toMatchObject({ days: '7', search: 'bread', sort: 'engagement;desc', sentiment: 'positive', excludeRT: '1', platforms: 'twt,ig' });
    expect(q.page).toBeUndefined();
    expect(q.perPage).toBeUndefined();
    expect(create.body).toEqual({ kind: 'pdf', source: 'posts', cumulative: false, paper: 'letter' });

    const notice = await screen.findByTestId('notice', undefined, { timeout: 3000 });
    expect(notice).toHaveTextContent('Your PDF is ready to be viewed');
    expect(button).toHaveAccessibleName('Export');
    fireEvent.click(within(notice).getByRole('button', { name: 'View PDF' }));
    expect(open).toHaveBeenCalledWith(`/export/hashtag/${TOKEN}.pdf`, '_blank');
  });

  it('the next click on PDF opens a held report; a failure says so with Try Again', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    openPosts('', [{ body: job({ state: 'ready', fileUrl: `/export/hashtag/${TOKEN}.pdf` }) }]);
    await choosePdf();
    await screen.findByTestId('notice');
    fireEvent.click(await trigger());
    expect(await screen.findByTestId('export-pdf')).toHaveTextContent('Ready to view');
    fireEvent.click(screen.getByTestId('export-pdf'));
    expect(open).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('notice')).toBeNull();

    cleanup();
    openPosts('', [{ body: job({ state: 'failed', error: 'boom' }) }]);
    await choosePdf();
    const notice = await screen.findByTestId('notice');
    expect(notice).toHaveTextContent('We were unable to generate the PDF. Please try again.');
    expect(within(notice).getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('a share-link visitor with Export reports asks through the link', async () => {
    const tracker = makeTracker({ permission: 1, isOwner: false, shared: true, linkSharing: { editDateRange: false, exportReports: true, viewPredictions: false } });
    const me = makeMe({ isLoggedIn: false, id: null, email: null, name: null, isTrackerOwner: false, permission: 0 });
    const calls = openPosts('?shareHash=s1', [{ body: job({ state: 'running', done: 1, total: 4 }) }], { tracker, me });
    await choosePdf();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.query.get('shareHash')).toBe('s1');
    await waitFor(() => expect(calls.some((c) => c.path === `/exports/${TOKEN}`)).toBe(true));
    expect(calls.find((c) => c.path === `/exports/${TOKEN}`)!.query.get('shareHash')).toBe('s1');
  });
});

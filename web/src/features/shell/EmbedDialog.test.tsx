import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { EmbedDialog } from './EmbedDialog';
import { TrackerShell } from '.';
import { DASHBOARD_ANSWERS as dashboard } from './test-fixtures';
import type { Tracker } from '../../api/types';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const URL_TIMELINE = 'http://hark.example/hashtag-tracking/dashboard/abc123/rust-lang?embed=1&chart=timeline&embedKey=k1';
const IFRAME_TIMELINE = `<iframe src="${URL_TIMELINE.replace(/&/g, '&amp;')}" title="Rust" width="100%" height="400" frameborder="0" loading="lazy"></iframe>`;

function openDialog(answer: (c: ApiCall) => { status?: number; body?: unknown }, target: { chart: string } | { page: string } = { chart: 'timeline' }) {
  const calls = mockApi({ 'GET /trackers/abc123/embed': answer });
  renderRoute(<EmbedDialog open onOpenChange={() => undefined} hash="abc123" target={target} label="Timeline" />, { path: '*', url: '/' });
  return calls;
}

describe('the embed dialog', () => {
  it('loads the code of the chart and shows it with the address and the height', async () => {
    const calls = openDialog(() => ({ body: { scope: 'chart:timeline', url: URL_TIMELINE, height: '400', iframe: IFRAME_TIMELINE } }));
    const dialog = await screen.findByRole('dialog', { name: 'Embed Timeline' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading the embed code…');
    const code = await within(dialog).findByLabelText('Embed code');
    expect(code).toHaveValue(IFRAME_TIMELINE);
    expect(code).toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText('Embed address')).toHaveValue(URL_TIMELINE);
    expect(within(dialog).getByTestId('embed-height')).toHaveTextContent('400 px');
    expect(calls[0].query.get('chart')).toBe('timeline');
    expect(calls[0].query.get('page')).toBeNull();
  });

  it('asks for a page and says a media wall fills its space', async () => {
    const calls = openDialog(
      () => ({ body: { scope: 'page:media-wall', url: 'http://h/x?embed=1&embedKey=k', height: '100%', iframe: '<iframe height="100%"></iframe>' } }),
      { page: 'media-wall' },
    );
    expect(await screen.findByTestId('embed-height')).toHaveTextContent('100% of the space around it');
    expect(calls[0].query.get('page')).toBe('media-wall');
  });

  it('copies the code and shows the active state for 2 seconds', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    openDialog(() => ({ body: { scope: 'chart:timeline', url: URL_TIMELINE, height: '400', iframe: IFRAME_TIMELINE } }));
    await screen.findByLabelText('Embed code');
    vi.useFakeTimers();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith(IFRAME_TIMELINE);
    expect(screen.getByRole('button', { name: 'Copied!' })).toHaveAttribute('data-active', 'true');
    act(() => vi.advanceTimersByTime(1900));
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.getByRole('button', { name: 'Copy' })).not.toHaveAttribute('data-active');
  });

  it("shows the server's refusal and loads again on Try again", async () => {
    let n = 0;
    openDialog(() =>
      n++ === 0
        ? { status: 403, body: { error: { code: 'forbidden', message: 'Embedding needs the owner, an administrator or shared exports.' } } }
        : { body: { scope: 'chart:timeline', url: URL_TIMELINE, height: '400', iframe: IFRAME_TIMELINE } },
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Embedding needs the owner, an administrator or shared exports.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Embed code')).toHaveValue(IFRAME_TIMELINE);
  });
});

/** The dashboard for `me` on `tracker`; the embed call answers with the timeline's code. */
function openDashboard(tracker: Tracker, me: unknown, search = '') {
  const url = `/hashtag-tracking/dashboard/${tracker.hash}/${tracker.friendly}${search}`;
  window.history.replaceState(null, '', url);
  const routes: Record<string, (c: ApiCall) => { status?: number; body?: unknown }> = {
    'GET /me': () => ({ body: me }),
    [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 42 } } }),
    [`GET /trackers/${tracker.hash}/tags`]: () => ({ body: { tags: [] } }),
    [`GET /trackers/${tracker.hash}/embed`]: (c) => ({
      body: { scope: `chart:${c.query.get('chart')}`, url: URL_TIMELINE, height: '400', iframe: IFRAME_TIMELINE },
    }),
  };
  for (const [k, v] of Object.entries(dashboard)) routes[`GET /trackers/${tracker.hash}/dashboard/${k}`] = () => ({ body: v });
  const calls = mockApi(routes);
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  return calls;
}

describe('who may embed', () => {
  const owner = meFixture({ isTrackerOwner: true, permission: 4, isAdmin: false });
  const viewer = meFixture({ isTrackerOwner: false, permission: 1, isAdmin: false });
  const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false, isTrackerOwner: false, permission: 0 });

  it('the owner has Embed on the page header and on each embeddable panel, and the panel dialog asks for that chart', async () => {
    const calls = openDashboard(trackerFixture(), owner);
    expect(await screen.findByRole('button', { name: 'Embed' })).toBeInTheDocument();
    const timeline = await screen.findByRole('button', { name: 'Embed Timeline' });
    expect(screen.getByRole('button', { name: 'Embed Key Statistics' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Embed Top Posts' })).toBeInTheDocument();
    // Share Of Voice and Top Websites have no embed of their own.
    expect(screen.queryByRole('button', { name: 'Embed Share Of Voice' })).toBeNull();
    fireEvent.click(timeline);
    await screen.findByRole('dialog', { name: 'Embed Timeline' });
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/embed') && c.query.get('chart') === 'timeline')).toBe(true));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Embed Key Statistics' }));
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/embed') && c.query.get('chart') === 'totalPosts')).toBe(true));
  });

  it('the page header asks for the page', async () => {
    const calls = openDashboard(trackerFixture(), owner);
    fireEvent.click(await screen.findByRole('button', { name: 'Embed' }));
    await screen.findByRole('dialog', { name: 'Embed this dashboard' });
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/embed') && c.query.get('page') === 'dashboard')).toBe(true));
  });

  it('a viewer only when the tracker shares exports', async () => {
    openDashboard(trackerFixture({ permission: 1, isOwner: false }), viewer);
    await screen.findByRole('heading', { level: 1 });
    await screen.findByRole('heading', { name: 'Timeline' });
    expect(screen.queryByRole('button', { name: 'Embed' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Embed Timeline' })).toBeNull();
    cleanup();
    openDashboard(trackerFixture({ permission: 1, isOwner: false, shareExports: true }), viewer);
    expect(await screen.findByRole('button', { name: 'Embed Timeline' })).toBeInTheDocument();
  });

  it('a share-link visitor only when the link has Export reports', async () => {
    const visitor = (exportReports: boolean) =>
      trackerFixture({ permission: 1, isOwner: false, shared: true, linkSharing: { editDateRange: false, exportReports, viewPredictions: false } });
    openDashboard(visitor(false), signedOut, '?shareHash=s1');
    await screen.findByRole('heading', { name: 'Timeline' });
    expect(screen.queryByRole('button', { name: 'Embed Timeline' })).toBeNull();
    cleanup();
    const calls = openDashboard(visitor(true), signedOut, '?shareHash=s1');
    fireEvent.click(await screen.findByRole('button', { name: 'Embed Timeline' }));
    await screen.findByLabelText('Embed code');
    // The dialog's call goes through the link like every read of the tracker.
    expect(calls.find((c) => c.path.endsWith('/embed'))?.query.get('shareHash')).toBe('s1');
  });
});

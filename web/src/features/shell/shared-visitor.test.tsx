import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tracker } from '../../api/types';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { TrackerShell } from '.';
import { DASHBOARD_ANSWERS as dashboard } from './test-fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false, isTrackerOwner: false, permission: 0 });


function visitorTracker(over: Partial<Tracker> = {}): Tracker {
  return trackerFixture({ permission: 1, isOwner: false, shared: true, shareHash: null, ...over });
}

/** Opens the dashboard at `search`; the browser address matches it, as in the app. */
function open(opts: { tracker?: Tracker; trackerAnswer?: { status?: number; body?: unknown }; me?: unknown; search: string }) {
  const tracker = opts.tracker ?? visitorTracker();
  const url = `/hashtag-tracking/dashboard/${tracker.hash}/${tracker.friendly}${opts.search}`;
  window.history.replaceState(null, '', url);
  const routes: Record<string, (c: ApiCall) => { status?: number; body?: unknown }> = {
    'GET /me': () => ({ body: opts.me ?? signedOut }),
    [`GET /trackers/${tracker.hash}`]: () => opts.trackerAnswer ?? { body: tracker },
    [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 42 } } }),
    [`GET /trackers/${tracker.hash}/share`]: () => ({
      body: {
        shareHash: 's1',
        path: `/hashtag-tracking/dashboard/${tracker.hash}/${tracker.friendly}`,
        customUrl: null,
        linkSharing: tracker.linkSharing,
        shareExports: false,
        unlockDate: false,
        exportsLocked: false,
      },
    }),
  };
  for (const [k, v] of Object.entries(dashboard)) routes[`GET /trackers/${tracker.hash}/dashboard/${k}`] = () => ({ body: v });
  const calls = mockApi(routes);
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  return { calls, tracker };
}

describe('a shared link, signed out', () => {
  it('shows the dashboard with a limited header, a Sign in link, and every tracker read carrying the shareHash', async () => {
    const { calls, tracker } = open({ search: '?shareHash=s1' });
    await screen.findByRole('heading', { level: 1, name: tracker.title });
    await waitFor(() => expect(screen.getByTestId('dashboard-grid')).toHaveAttribute('data-loading', ''), { timeout: 5000 });
    for (const name of ['Share', 'Customize', 'Historical Data']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('link', { name: 'EDIT TRACKER' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Go to Tracker List' })).toBeNull();
    expect(screen.getByText('SHARED')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toMatch(/^\/login\?next=/);
    expect(screen.getByRole('button', { name: /^Date range:/ })).toBeDisabled();
    expect(screen.queryByLabelText('Prediction')).toBeNull();
    const reads = calls.filter((c) => c.path.startsWith(`/trackers/${tracker.hash}`));
    expect(reads.length).toBeGreaterThan(3);
    for (const c of reads) expect(c.query.get('shareHash'), c.path).toBe('s1');
    expect(calls.find((c) => c.path === '/me')?.query.get('shareHash')).toBeNull();
  });

  it('opens the date range and the prediction toggle when the link allows them', async () => {
    open({
      tracker: visitorTracker({ linkSharing: { editDateRange: true, exportReports: false, viewPredictions: true } }),
      search: '?shareHash=s1',
    });
    await waitFor(() => expect(screen.getByRole('button', { name: /^Date range:/ })).toBeEnabled());
    expect(screen.getByLabelText('Prediction')).toBeInTheDocument();
  });

  it('a revoked or wrong link says so instead of sending the visitor to sign in', async () => {
    open({
      tracker: visitorTracker(),
      trackerAnswer: { status: 401, body: { error: { code: 'unauthorized', message: 'Sign in to continue.' } } },
      search: '?shareHash=old',
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'This shared link is no longer valid.' })).toBeInTheDocument();
    expect(within(alert).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `/login?next=${encodeURIComponent('/hashtag-tracking/dashboard/abc123/rust-lang')}`);
    expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/abc123/rust-lang?shareHash=old');
  });

  it('without a share link a signed-out visitor still goes to sign in', async () => {
    open({ trackerAnswer: { status: 401, body: { error: { code: 'unauthorized', message: 'Sign in to continue.' } } }, search: '' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login\?next=/));
  });
});

describe('the Share button', () => {
  it('is there for the owner and opens the dialog', async () => {
    open({ tracker: trackerFixture(), me: meFixture(), search: '' });
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share this dashboard' });
    expect(await within(dialog).findByLabelText('Dashboard link')).toHaveValue(
      `${window.location.origin}/hashtag-tracking/dashboard/abc123/rust-lang?shareHash=s1`,
    );
  });

  it('is not there for a viewer', async () => {
    open({ tracker: trackerFixture({ permission: 1, isOwner: false }), me: meFixture({ isTrackerOwner: false, permission: 1, isAdmin: false }), search: '' });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
  });
});

describe('a moderation link, signed out', () => {
  // The server answers the key holder as a link visitor: shared, reading as a viewer.
  const keyTracker = () => trackerFixture({ permission: 1, isOwner: false, shared: true, shareHash: null });
  const emptyWall = {
    posts: [],
    queue: [],
    queueTotal: 0,
    moderation: false,
    canModerate: true,
    canManage: false,
    settings: { displayMode: 'grid', theme: 'dark', displayText: true, updateFrequency: 30, postCount: 50, sortBy: 'date', excludeRetweets: false, excludeUsers: [] },
  };
  function openKeyed(page: string, search = '?moderationKey=mk1') {
    const tracker = keyTracker();
    const url = `/hashtag-tracking/${page}/${tracker.hash}/${tracker.friendly}${search}`;
    window.history.replaceState(null, '', url);
    const calls = mockApi({
      'GET /me': () => ({ body: signedOut }),
      [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
      [`GET /trackers/${tracker.hash}/media-wall`]: () => ({ body: emptyWall }),
    });
    renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
    return { calls, tracker };
  }

  it('shows the wall with the Media Wall entry alone and nothing to manage', async () => {
    const { calls, tracker } = openKeyed('media-wall');
    await screen.findByRole('heading', { level: 1, name: tracker.title });
    const nav = screen.getAllByRole('navigation')[0];
    await waitFor(() => expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['Media Wall']));
    for (const name of ['Share', 'Customize', 'Historical Data', 'Team']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('link', { name: 'EDIT TRACKER' })).toBeNull();
    expect(screen.getByText('MODERATION LINK')).toBeInTheDocument();
    expect(screen.queryByText('SHARED')).toBeNull();
    // The sidebar's post count is not asked for: the key does not open it.
    expect(calls.find((c) => c.path.endsWith('/total-posts'))).toBeUndefined();
  });

  it.each(['dashboard', 'posts', 'influencers', 'sentiment', 'notifications'])('sends %s back to the media wall, keeping the key', async (page) => {
    openKeyed(page, '?moderationKey=mk1&days=7');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/hashtag-tracking\/media-wall\/abc123\/rust-lang\?.*moderationKey=mk1/));
    expect(screen.getByTestId('location').textContent).not.toContain(page === 'dashboard' ? '/dashboard/' : `/${page}/`);
  });

  it('leaves a signed-in owner who opens the link with every page', async () => {
    const tracker = trackerFixture();
    const url = `/hashtag-tracking/dashboard/${tracker.hash}/${tracker.friendly}?moderationKey=mk1`;
    window.history.replaceState(null, '', url);
    const routes: Record<string, (c: ApiCall) => { status?: number; body?: unknown }> = {
      'GET /me': () => ({ body: meFixture() }),
      [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
      [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 42 } } }),
    };
    for (const [k, v] of Object.entries(dashboard)) routes[`GET /trackers/${tracker.hash}/dashboard/${k}`] = () => ({ body: v });
    mockApi(routes);
    renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
    await screen.findByRole('button', { name: 'Share' });
    expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/abc123/rust-lang');
    expect(screen.getByRole('link', { name: 'Posts' })).toBeInTheDocument();
    expect(screen.queryByText('MODERATION LINK')).toBeNull();
  });
});

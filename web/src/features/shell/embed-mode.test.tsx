import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tracker } from '../../api/types';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { TrackerShell } from '.';
import { EMBED_UNAVAILABLE } from './EmbedFrame';
import { fullTrackerHref, parseCard } from './embed';
import { DASHBOARD_ANSWERS as dashboard } from './test-fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false, isTrackerOwner: false, permission: 0 });
const visitorTracker = (over: Partial<Tracker> = {}) => trackerFixture({ permission: 1, isOwner: false, shared: true, ...over });

/** Opens `page` of the tracker at `search` as a signed-out embed visitor; the address matches it. */
function open(page: string, search: string, opts: { tracker?: Tracker; trackerAnswer?: { status: number; body: unknown } } = {}) {
  const tracker = opts.tracker ?? visitorTracker();
  const url = `/hashtag-tracking/${page}/${tracker.hash}/${tracker.friendly}${search}`;
  window.history.replaceState(null, '', url);
  const routes: Record<string, (c: ApiCall) => { status?: number; body?: unknown }> = {
    'GET /me': () => ({ body: signedOut }),
    [`GET /trackers/${tracker.hash}`]: () => opts.trackerAnswer ?? { body: tracker },
    [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 42 } } }),
  };
  for (const [k, v] of Object.entries(dashboard)) routes[`GET /trackers/${tracker.hash}/dashboard/${k}`] = () => ({ body: v });
  const calls = mockApi(routes);
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  return { calls, tracker };
}

const settled = () => waitFor(() => expect(screen.getByTestId('dashboard-grid')).toHaveAttribute('data-loading', ''), { timeout: 5000 });
const panelsShown = () => Array.from(screen.getByTestId('dashboard-grid').querySelectorAll(':scope > section[data-panel]')).map((s) => s.getAttribute('data-panel'));

describe('a chart embed', () => {
  it('shows the one chart, full width, without the app around it, and reads only that chart with its key', async () => {
    const { calls, tracker } = open('dashboard', '?embed=1&chart=timeline&embedKey=k1');
    await settled();
    expect(panelsShown()).toEqual(['timeline']);
    expect(screen.getByTestId('dashboard-grid').querySelector('section')!.className).toContain('col-span-12');
    // No top bar, sidebar, tracker header or sign-in link.
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Embed/ })).toBeNull();
    expect(screen.queryByLabelText('Prediction')).toBeNull();
    const reads = calls.filter((c) => c.path.startsWith(`/trackers/${tracker.hash}`));
    expect(reads.map((c) => c.path).sort()).toEqual([`/trackers/${tracker.hash}`, `/trackers/${tracker.hash}/dashboard/timeline`]);
    for (const c of reads) expect(c.query.get('embedKey'), c.path).toBe('k1');
  });

  it('shows a panel chart alone and asks for its group only', async () => {
    const { calls } = open('dashboard', '?embed=1&chart=posts&embedKey=k1');
    await settled();
    expect(panelsShown()).toEqual(['posts']);
    expect(calls.filter((c) => c.path.includes('/dashboard/')).map((c) => c.path.split('/').pop())).toEqual(['top-posts']);
  });

  it('shows the card label on a chart that has one, and ignores it on the others', async () => {
    open('dashboard', '?embed=1&chart=totalPosts&card=twitter%3BLaunch+week&embedKey=k1');
    await settled();
    expect(panelsShown()).toEqual(['topStats']);
    const card = screen.getByTestId('embed-card');
    expect(card).toHaveTextContent('Launch week');
    expect(card).toHaveTextContent('X');
    cleanup();
    open('dashboard', '?embed=1&chart=geography&card=twt%3BLaunch&embedKey=k1');
    await settled();
    expect(screen.queryByTestId('embed-card')).toBeNull();
  });

  it('a revoked key says the embed is gone, in the frame, without sending anyone to sign in', async () => {
    open('dashboard', '?embed=1&chart=timeline&embedKey=old', {
      trackerAnswer: { status: 401, body: { error: { code: 'unauthorized', message: 'Sign in to continue.' } } },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(EMBED_UNAVAILABLE);
    expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/abc123/rust-lang?embed=1&chart=timeline&embedKey=old');
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
  });
});

describe('a page embed', () => {
  it('has a compact header whose title opens the full tracker in a new tab, and no chrome or team actions', async () => {
    open('dashboard', '?days=7&embed=1&embedKey=k2', { tracker: visitorTracker({ title: 'Coffee' }) });
    const heading = await screen.findByRole('heading', { level: 1 });
    const link = within(heading).getByRole('link');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
    expect(link).toHaveAttribute('href', `${window.location.origin}/hashtag-tracking/dashboard/abc123/rust-lang?days=7`);
    expect(link).toHaveTextContent('Coffee');
    await settled();
    // The whole dashboard, but no sidebar, top bar, SHARED badge, sign-in link or team actions.
    expect(panelsShown()).toContain('timeline');
    expect(panelsShown()).toContain('posts');
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByText('SHARED')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    for (const name of ['Share', 'Customize', 'Historical Data', 'Team', 'Embed']) expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('for the owner signed in, Share, Customize, Historical Data and Team are there but disabled', async () => {
    const tracker = trackerFixture();
    const url = `/hashtag-tracking/dashboard/${tracker.hash}/${tracker.friendly}?embed=1`;
    window.history.replaceState(null, '', url);
    const routes: Record<string, () => { body: unknown }> = {
      'GET /me': () => ({ body: meFixture({ isTrackerOwner: true, permission: 4 }) }),
      [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
      [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 42 } } }),
    };
    for (const [k, v] of Object.entries(dashboard)) routes[`GET /trackers/${tracker.hash}/dashboard/${k}`] = () => ({ body: v });
    mockApi(routes);
    renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
    await screen.findByRole('button', { name: 'Share' });
    for (const name of ['Share', 'Customize', 'Historical Data', 'Team']) expect(screen.getByRole('button', { name })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Embed' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'EDIT TRACKER' })).toBeNull();
  });
});

describe('embed helpers', () => {
  it('reads a card by platform code or name', () => {
    expect(parseCard('twt;Launch')).toMatchObject({ value: 'Launch', platform: { code: 'twt' } });
    expect(parseCard('youtube;Trailer; part 2')).toMatchObject({ value: 'Trailer; part 2', platform: { code: 'yt' } });
    expect(parseCard('nope;x')).toBeNull();
    expect(parseCard('twt;')).toBeNull();
    expect(parseCard('Launch')).toBeNull();
    expect(parseCard(null)).toBeNull();
  });

  it('the full tracker is the same address without the embed parameters', () => {
    expect(fullTrackerHref('https://h.example', '/hashtag-tracking/posts/abc/x', '?embed=1&days=7&embedKey=k&chart=timeline&card=twt%3Bx')).toBe(
      'https://h.example/hashtag-tracking/posts/abc/x?days=7',
    );
    expect(fullTrackerHref('https://h.example', '/hashtag-tracking/posts/abc/x', '?embed=true&embedKey=k')).toBe('https://h.example/hashtag-tracking/posts/abc/x');
  });
});

import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Me, Tracker } from '../../api/types';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { TrackerShell } from '.';
import { DASHBOARD_ANSWERS as dashboard } from './test-fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const OWNER_TEXT = 'Your 14-Day Trial has expired. Upgrade now to access your trackers.';
const OTHERS_TEXT = "This tracker is locked: its owner's trial has expired.";
const locked = (message: string) => ({ status: 403, body: { error: { code: 'trial_expired', message } } });
const owner = meFixture({ isAdmin: false, trial: true, trialExpired: true, trialExpires: Date.now() - 86_400_000, isTrackerOwner: true, permission: 4 });
const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false, isTrackerOwner: false, permission: 0 });

/**
 * Opens `page` of a tracker whose owner's trial has ended; every read of the tracker answers 403
 * trial_expired, as the server does. Returns the calls made.
 */
function open(opts: { page?: string; search?: string; me?: Me; message?: string; trackerAnswer?: { status: number; body: unknown } } = {}) {
  const tracker: Tracker = trackerFixture();
  const url = `/hashtag-tracking/${opts.page ?? 'dashboard'}/${tracker.hash}/${tracker.friendly}${opts.search ?? ''}`;
  window.history.replaceState(null, '', url);
  const answer = opts.trackerAnswer ?? locked(opts.message ?? OWNER_TEXT);
  const routes: Record<string, (c: ApiCall) => { status?: number; body?: unknown }> = {
    'GET /me': () => ({ body: opts.me ?? owner }),
    [`GET /trackers/${tracker.hash}`]: () => answer,
    [`GET /trackers/${tracker.hash}/total-posts`]: () => answer,
  };
  for (const k of Object.keys(dashboard)) routes[`GET /trackers/${tracker.hash}/dashboard/${k}`] = () => answer;
  const calls = mockApi(routes);
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  return { calls, tracker };
}

/** Only the tracker itself was asked for (and /me): no panel, total or list read. */
async function onlyTheTrackerRead(calls: ApiCall[], hash: string) {
  await new Promise((r) => setTimeout(r, 100));
  expect(calls.filter((c) => c.path !== '/me').map((c) => c.path)).toEqual([`/trackers/${hash}`]);
}

describe('a tracker whose owner’s trial has ended', () => {
  it("tells the owner, with the server's message and the ways to a plan, and reads nothing else", async () => {
    const { calls, tracker } = open();
    const card = await screen.findByTestId('tracker-locked');
    expect(within(card).getByRole('heading', { level: 1, name: 'This tracker is locked' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'This tracker is locked' })).toBe(card);
    expect(card).toHaveTextContent(OWNER_TEXT);
    expect(within(card).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
    expect(within(card).getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact-us');
    expect(within(card).getByRole('link', { name: 'Back to My Trackers' })).toHaveAttribute('href', '/mytracks/hashtag');
    // Not the generic error, no retry.
    expect(screen.queryByText('The tracker could not be loaded')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    // The skip link lands on it.
    expect(card.closest('main')).toHaveAttribute('id', 'main');
    await onlyTheTrackerRead(calls, tracker.hash);
  });

  it.each(['posts', 'influencers', 'trending-topics', 'sentiment', 'media-wall', 'notifications', 'realtime'])('locks the %s page the same way', async (page) => {
    const { calls, tracker } = open({ page });
    await screen.findByRole('heading', { level: 1, name: 'This tracker is locked' });
    await onlyTheTrackerRead(calls, tracker.hash);
    expect(screen.getByTestId('location')).toHaveTextContent(`/hashtag-tracking/${page}/`);
  });

  it('follows See plans from the keyboard', async () => {
    const user = userEvent.setup();
    open();
    const plans = await screen.findByRole('link', { name: 'See plans' });
    plans.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pricing'));
  });

  it("tells a member that the tracker is locked (the server's words for them)", async () => {
    open({ me: meFixture({ isAdmin: false, isTrackerOwner: false, permission: 1 }), message: OTHERS_TEXT });
    const card = await screen.findByTestId('tracker-locked');
    expect(card).toHaveTextContent(OTHERS_TEXT);
    expect(card).not.toHaveTextContent('Upgrade now');
  });

  it('tells a signed-out visitor of a share link, rather than calling the link invalid', async () => {
    const { calls, tracker } = open({ me: signedOut, message: OTHERS_TEXT, search: '?shareHash=s1' });
    const card = await screen.findByTestId('tracker-locked');
    expect(within(card).getByRole('heading', { name: 'This tracker is locked' })).toBeInTheDocument();
    expect(card).toHaveTextContent(OTHERS_TEXT);
    expect(screen.queryByText('This shared link is no longer valid.')).toBeNull();
    expect(within(card).queryByRole('link', { name: 'Back to My Trackers' })).toBeNull();
    expect(calls.find((c) => c.path === `/trackers/${tracker.hash}`)?.query.get('shareHash')).toBe('s1');
    await onlyTheTrackerRead(calls, tracker.hash);
  });

  it('says so inside an embed, without the app around it or links out of the frame', async () => {
    const { calls, tracker } = open({ me: signedOut, message: OTHERS_TEXT, search: '?embed=1&chart=timeline&embedKey=k1' });
    const line = await screen.findByRole('alert');
    expect(line).toHaveAttribute('data-testid', 'tracker-locked');
    expect(line).toHaveTextContent(OTHERS_TEXT);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByRole('heading')).toBeNull();
    await onlyTheTrackerRead(calls, tracker.hash);
  });

  it('leaves other refusals as they were', async () => {
    open({ trackerAnswer: { status: 403, body: { error: { code: 'forbidden', message: 'No.' } } } });
    expect(await screen.findByText('The tracker could not be loaded')).toBeInTheDocument();
    expect(screen.queryByTestId('tracker-locked')).toBeNull();
    cleanup();
    open({ me: signedOut, search: '?shareHash=old', trackerAnswer: { status: 403, body: { error: { code: 'forbidden', message: 'No.' } } } });
    expect(await screen.findByText('This shared link is no longer valid.')).toBeInTheDocument();
  });
});

// The tracker header by the caller's rank (dashboard-and-shell spec, section 6): viewers read,
// editors also edit the tracker and request historical data, owners and administrators also
// share, tag, customize and manage the team.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Me, Tracker } from '../../api/types';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { TrackerShell } from '.';
import { DASHBOARD_ANSWERS } from './test-fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

function open(tracker: Tracker, me: Me, search = '') {
  const url = `/hashtag-tracking/dashboard/${tracker.hash}/${tracker.friendly}${search}`;
  window.history.replaceState(null, '', url);
  const routes: Record<string, (c: ApiCall) => { status?: number; body?: unknown }> = {
    'GET /me': () => ({ body: me }),
    [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 42 } } }),
    [`GET /trackers/${tracker.hash}/tags`]: () => ({ body: { tags: [] } }),
    [`GET /trackers/${tracker.hash}/members`]: () => ({
      body: { owner: { userId: 1, email: 'ada@example.com', name: 'Ada', permission: 4 }, members: [], invitations: [], canTransfer: true },
    }),
  };
  for (const [k, v] of Object.entries(DASHBOARD_ANSWERS)) routes[`GET /trackers/${tracker.hash}/dashboard/${k}`] = () => ({ body: v });
  mockApi(routes);
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
}

const member = (permission: number) => ({
  tracker: trackerFixture({ permission, isOwner: false }),
  me: meFixture({ id: 2, isAdmin: false, isTrackerOwner: false, permission }),
});

async function header() {
  const title = await screen.findByRole('heading', { level: 1 });
  await waitFor(() => expect(screen.getByTestId('dashboard-grid')).toHaveAttribute('data-loading', ''), { timeout: 5000 });
  const bar = within(title.closest('header')!);
  const has = (name: string) => bar.queryByRole('button', { name }) !== null;
  return {
    edit: bar.queryByRole('link', { name: 'EDIT TRACKER' }) !== null,
    historical: has('Historical Data'),
    share: has('Share'),
    team: has('Team'),
    customize: has('Customize'),
    tags: bar.queryByRole('button', { name: /^Tag filter/ }) !== null,
  };
}

describe('the tracker header by rank', () => {
  it('a viewer gets no edit controls', async () => {
    const { tracker, me } = member(1);
    open(tracker, me);
    expect(await header()).toEqual({ edit: false, historical: false, share: false, team: false, customize: false, tags: false });
  });

  it('an editor edits the tracker and requests historical data, nothing more', async () => {
    const { tracker, me } = member(2);
    open(tracker, me);
    expect(await header()).toEqual({ edit: true, historical: true, share: false, team: false, customize: false, tags: false });
  });

  it('an administrator gets everything, the Team dialog included', async () => {
    const { tracker, me } = member(3);
    open(tracker, me);
    expect(await header()).toEqual({ edit: true, historical: true, share: true, team: true, customize: true, tags: true });
  });

  it('the owner opens the Team dialog from the header', async () => {
    open(trackerFixture(), meFixture({ isTrackerOwner: true, permission: 4 }));
    fireEvent.click(await screen.findByRole('button', { name: 'Team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Team' });
    expect(await within(dialog).findByText('No members yet')).toBeInTheDocument();
    expect(within(dialog).getByTestId('team-owner')).toHaveTextContent('(you)');
  });

  it('no Team button in demo mode', async () => {
    open(trackerFixture(), meFixture({ isTrackerOwner: true, permission: 4 }), '?demo=true');
    await header();
    expect(screen.queryByRole('button', { name: 'Team' })).toBeNull();
  });
});

import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { meFixture, trackerFixture } from './fixtures';
import { TrackerListPage } from './TrackerListPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('TrackerListPage', () => {
  it('shows the empty state with an Add Tracker link', async () => {
    mockApi({ 'GET /me': () => ({ body: meFixture() }), 'GET /trackers': () => ({ body: { trackers: [], count: 0 } }) });
    renderRoute(<TrackerListPage />, { path: '/mytracks/hashtag', url: '/mytracks/hashtag' });
    expect(await screen.findByText('No trackers yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add Tracker' })).toHaveAttribute('href', '/new/ht/step1');
  });

  it('lists trackers with status, platforms, posts and a dashboard link', async () => {
    mockApi({
      'GET /me': () => ({ body: meFixture() }),
      'GET /trackers': () => ({
        body: {
          trackers: [
            trackerFixture(),
            trackerFixture({ hash: 'p2', friendly: 'paused-one', title: 'Paused one', status: 'paused', totalPosts: 12, permission: 1 }),
          ],
          count: 2,
        },
      }),
    });
    renderRoute(<TrackerListPage />, { path: '/mytracks/hashtag', url: '/mytracks/hashtag' });
    const rows = await screen.findAllByTestId('tracker-row');
    expect(rows).toHaveLength(2);
    const first = within(rows[0]);
    expect(first.getByRole('link', { name: 'Real-time Tracker: rust' })).toHaveAttribute('href', '/hashtag-tracking/dashboard/abc123/rust-lang');
    expect(first.getByText('(rust OR rustlang) -game')).toBeInTheDocument();
    expect(first.getByText('Tracker Active')).toBeInTheDocument();
    expect(first.getByText('1.2k')).toBeInTheDocument();
    expect(first.getByText('Twitter')).toBeInTheDocument();
    expect(first.getByText('News')).toBeInTheDocument();
    expect(first.getByRole('link', { name: 'Settings for Real-time Tracker: rust' })).toHaveAttribute('href', '/edit/abc123/rust-lang');
    const second = within(rows[1]);
    expect(second.getAllByText('Paused').length).toBeGreaterThan(0);
    // Viewers get no settings link.
    expect(second.queryByRole('link', { name: /Settings for/ })).not.toBeInTheDocument();
    expect(screen.getByText('2 trackers')).toBeInTheDocument();
  });

  it('pages through more than 100 trackers', async () => {
    const calls = mockApi({
      'GET /me': () => ({ body: meFixture() }),
      'GET /trackers': (c) => ({
        body: { trackers: [trackerFixture({ hash: `h${c.query.get('page')}`, title: `Tracker on page ${c.query.get('page')}` })], count: 150 },
      }),
    });
    renderRoute(<TrackerListPage />, { path: '/mytracks/hashtag', url: '/mytracks/hashtag' });
    expect(await screen.findByText('Tracker on page 1')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Tracker on page 2')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/mytracks/hashtag?page=2');
    expect(calls.filter((c) => c.path === '/trackers').map((c) => c.query.get('perPage'))).toContain('100');
  });

  it('goes to sign in when the session has ended', async () => {
    mockApi({
      'GET /me': () => ({ body: meFixture() }),
      'GET /trackers': () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'Sign in first.' } } }),
    });
    renderRoute(<TrackerListPage />, { path: '/mytracks/hashtag', url: '/mytracks/hashtag' });
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login?next=%2Fmytracks%2Fhashtag');
  });

  it('sends signed-out visitors to sign in', async () => {
    mockApi({ 'GET /me': () => ({ body: meFixture({ isLoggedIn: false }) }) });
    renderRoute(<TrackerListPage />, { path: '/mytracks/hashtag', url: '/mytracks/hashtag' });
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login?next=%2Fmytracks%2Fhashtag');
  });
});

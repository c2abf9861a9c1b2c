import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { TrackerShell } from '.';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false, permission: 1 });

function open(tracker = trackerFixture(), page = 'dashboard') {
  mockApi({
    'GET /me': () => ({ body: signedOut }),
    [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 31911 } } }),
  });
  renderRoute(<TrackerShell />, {
    path: '/hashtag-tracking/:page/:hash/:friendly?',
    url: `/hashtag-tracking/${page}/${tracker.hash}/${tracker.friendly}?demo=true`,
  });
}

describe('demo tracker in the shell', () => {
  it.each(['dashboard', 'posts', 'influencers'])('an anonymous visitor sees the %s page with the sample-data notice', async (page) => {
    open(trackerFixture({ isDemo: true, permission: 1, isOwner: false }), page);
    const notice = await screen.findByTestId('sample-data-notice');
    expect(notice).toHaveTextContent("Sample data — this demo tracker is fed by Hark’s built-in generator, not by a real platform.");
    expect(notice.querySelector('button')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('post-count')).toHaveTextContent('31.9k'));
    expect(screen.getByTestId('location')).toHaveTextContent(`/hashtag-tracking/${page}/abc123/rust-lang?demo=true`);
  });

  it('no notice on a real tracker', async () => {
    open(trackerFixture({ permission: 1, isOwner: false }));
    await screen.findByRole('heading', { level: 1, name: 'Real-time Tracker: rust' });
    expect(screen.queryByTestId('sample-data-notice')).not.toBeInTheDocument();
  });
});

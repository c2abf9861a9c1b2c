import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { TrackerListPage } from '../trackers';
import { meFixture } from '../trackers/fixtures';
import { LoginPage } from './LoginPage';
import { SetupPage } from './SetupPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null });
const demo = { hash: 'd3m0', friendly: 'kestrel-coffee', title: 'Kestrel Coffee (sample data)' };

function routes(needsSetup: boolean, me = signedOut, withDemo = true) {
  return mockApi({
    'GET /setup': () => ({ body: { needsSetup } }),
    'GET /me': () => ({ body: me }),
    'GET /trackers': () => ({ body: { trackers: [], count: 0 } }),
    ...(withDemo ? { 'GET /demo': () => ({ body: demo }) } : {}),
  });
}

describe('Explore the demo tracker', () => {
  it.each([
    ['sign-in page', false, signedOut, <LoginPage />, '/login'],
    ['setup page', true, signedOut, <SetupPage />, '/setup'],
    ['tracker list', false, meFixture(), <TrackerListPage />, '/mytracks/hashtag'],
  ])('links from the %s to the demo dashboard', async (_name, needsSetup, me, ui, url) => {
    routes(needsSetup, me);
    renderRoute(ui, { path: url, url });
    const link = await screen.findByRole('link', { name: /Explore the demo tracker/ });
    expect(link).toHaveAttribute('href', '/hashtag-tracking/dashboard/d3m0/kestrel-coffee?demo=true');
  });

  it('is absent when the instance runs without a demo (404)', async () => {
    const calls = routes(false, signedOut, false);
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
    await screen.findByRole('button', { name: 'Sign in' });
    await waitFor(() => expect(calls.some((c) => c.path === '/demo')).toBe(true));
    expect(screen.queryByRole('link', { name: /Explore the demo tracker/ })).not.toBeInTheDocument();
  });
});

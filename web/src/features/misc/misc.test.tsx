import { cleanup, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { meFixture } from '../trackers/fixtures';
import { StaticInfoPage } from '.';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('pricing says limits are set by the instance administrator and links back', async () => {
  mockApi({ 'GET /me': () => ({ body: meFixture() }) });
  renderRoute(<StaticInfoPage kind="pricing" />, { path: '/pricing', url: '/pricing' });
  expect(await screen.findByRole('link', { name: 'Back to your trackers' })).toHaveAttribute('href', '/mytracks/hashtag');
  expect(screen.getByRole('heading', { name: 'Plans and limits' })).toBeInTheDocument();
  expect(screen.getByText(/set by the instance administrator/)).toBeInTheDocument();
});

it('contact page for a signed-out visitor links home', async () => {
  mockApi({ 'GET /me': () => ({ body: meFixture({ isLoggedIn: false }) }) });
  renderRoute(<StaticInfoPage kind="contact" />, { path: '/contact-us', url: '/contact-us' });
  expect(await screen.findByRole('link', { name: 'Back to Hark' })).toHaveAttribute('href', '/');
  expect(screen.getByRole('heading', { name: 'Contact us' })).toBeInTheDocument();
});

it('pricing shows what the signed-in account\'s plan includes, its trial and its limits', async () => {
  mockApi({
    'GET /me': () => ({
      body: meFixture({
        isAdmin: false, plan: 25, trial: true, trialExpires: Date.now() - 86_400_000, trialExpired: true, maxSearches: 10, maxIgnored: 25,
        features: { xls: false, linkSharing: false, mediaWall: true },
      }),
    }),
  });
  renderRoute(<StaticInfoPage kind="pricing" />, { path: '/pricing', url: '/pricing' });
  const plan = await screen.findByRole('region', { name: 'Your account' });
  expect(plan).toHaveTextContent('Plan25');
  expect(plan).toHaveTextContent('Trial ended');
  expect(plan).toHaveTextContent('10 searches · 25 ignored terms');
  const includes = screen.getByRole('list', { name: 'What your plan includes' });
  expect(includes).toHaveTextContent('XLS export(not included)Link sharing(not included)Media wall(included)');
  expect(screen.queryByRole('link', { name: 'Set accounts’ plans' })).toBeNull();
});

it('pricing points an instance administrator to the Accounts page', async () => {
  mockApi({ 'GET /me': () => ({ body: meFixture({ isAdmin: true }) }) });
  renderRoute(<StaticInfoPage kind="pricing" />, { path: '/pricing', url: '/pricing' });
  expect(await screen.findByRole('link', { name: 'Set accounts’ plans' })).toHaveAttribute('href', '/admin/accounts');
});

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

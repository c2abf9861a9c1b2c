import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { meFixture } from '../features/trackers/fixtures';
import { mockApi, renderRoute } from '../lib/test-utils';
import { UserMenu } from './UserMenu';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('signs out through the API and goes to sign in', async () => {
  const calls = mockApi({ 'GET /me': () => ({ body: meFixture() }), 'POST /auth/logout': () => ({ status: 204 }) });
  renderRoute(<UserMenu />, { path: '/mytracks/hashtag', url: '/mytracks/hashtag' });
  const trigger = await screen.findByRole('button', { name: 'Account menu for Ada' });
  // Radix opens the menu on pointer down / keyboard.
  fireEvent.keyDown(trigger, { key: 'Enter' });
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
  expect(calls.some((c) => c.method === 'POST' && c.path === '/auth/logout')).toBe(true);
});

it('offers an instance administrator the Accounts page', async () => {
  mockApi({ 'GET /me': () => ({ body: meFixture({ isAdmin: true }) }) });
  renderRoute(<UserMenu />, { path: '/mytracks/hashtag', url: '/mytracks/hashtag' });
  fireEvent.keyDown(await screen.findByRole('button', { name: 'Account menu for Ada' }), { key: 'Enter' });
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Accounts' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/accounts'));
});

it('offers an instance administrator the Audit log page', async () => {
  mockApi({ 'GET /me': () => ({ body: meFixture({ isAdmin: true }) }) });
  renderRoute(<UserMenu />, { path: '/mytracks/hashtag', url: '/mytracks/hashtag' });
  fireEvent.keyDown(await screen.findByRole('button', { name: 'Account menu for Ada' }), { key: 'Enter' });
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Audit log' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/audit'));
});

it('offers an instance administrator the Integrations page', async () => {
  mockApi({ 'GET /me': () => ({ body: meFixture({ isAdmin: true }) }) });
  renderRoute(<UserMenu />, { path: '/mytracks/hashtag', url: '/mytracks/hashtag' });
  fireEvent.keyDown(await screen.findByRole('button', { name: 'Account menu for Ada' }), { key: 'Enter' });
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Integrations' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/settings/integrations'));
});

it('shows no Accounts item to other accounts', async () => {
  mockApi({ 'GET /me': () => ({ body: meFixture({ isAdmin: false }) }) });
  renderRoute(<UserMenu />, { path: '/mytracks/hashtag', url: '/mytracks/hashtag' });
  fireEvent.keyDown(await screen.findByRole('button', { name: 'Account menu for Ada' }), { key: 'Enter' });
  await screen.findByRole('menuitem', { name: 'Sign out' });
  expect(screen.queryByRole('menuitem', { name: 'Accounts' })).toBeNull();
  expect(screen.queryByRole('menuitem', { name: 'Integrations' })).toBeNull();
  expect(screen.queryByRole('menuitem', { name: 'Audit log' })).toBeNull();
  expect(screen.queryByRole('menuitem', { name: 'Connectors' })).toBeNull();
});

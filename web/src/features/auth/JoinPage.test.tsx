import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InvitationView } from '../../api/queries/team';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { joinedTrackerPath, signInToJoin } from './join';
import { JoinPage } from './JoinPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  document.cookie = 'hark_csrf=tok123';
});

const TOKEN = 'tok999';
const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false });
const invitation = (over: Partial<InvitationView> = {}): InvitationView => ({
  email: 'eve@example.com',
  permission: 1,
  trackerTitle: 'Coffee talk',
  invitedBy: 'Olive Owner',
  hasAccount: false,
  ...over,
});

type Answer = { status?: number; body?: unknown };

function open(routes: Record<string, (c: ApiCall) => Answer>) {
  const calls = mockApi({
    'GET /me': () => ({ body: signedOut }),
    [`GET /invitations/${TOKEN}`]: () => ({ body: invitation() }),
    ...routes,
  });
  renderRoute(<JoinPage />, { path: '/join/:token', url: `/join/${TOKEN}` });
  return calls;
}

const joinedList = {
  trackers: [trackerFixture({ hash: 'h1', friendly: 'coffee-talk', title: 'Coffee talk', permission: 1, isOwner: false })],
  count: 1,
};

describe('JoinPage', () => {
  it('a new address makes its account, is signed in and opens the joined tracker', async () => {
    const eve = meFixture({ id: 5, email: 'eve@example.com', name: 'Eve', isAdmin: false });
    const calls = open({
      [`POST /invitations/${TOKEN}/accept`]: () => ({ body: eve }),
      'GET /trackers': () => ({ body: joinedList }),
    });
    expect(await screen.findByTestId('invitation-summary')).toHaveTextContent('Olive Owner invited you to Coffee talk as a viewer.');
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('eve@example.com');
    expect(email).toHaveAttribute('readonly');
    // Checked before sending.
    fireEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    expect(screen.getByText('Enter your name.')).toBeInTheDocument();
    expect(screen.getByText('The password must be 8 to 200 characters long.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' Eve ' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/h1/coffee-talk'));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ name: 'Eve', password: 'correct horse' });
    expect(post.headers.get('X-CSRF-Token')).toBe('tok123');
  });

  it('a taken address is told to sign in, with a way back to the link', async () => {
    open({ [`POST /invitations/${TOKEN}/accept`]: () => ({ status: 409, body: { error: { code: 'conflict', message: 'An account with this address exists: sign in to accept the invitation.' } } }) });
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Eve' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account and join' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An account with this address exists');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `/login?next=%2Fjoin%2F${TOKEN}`);
  });

  it('an address with an account signs in first and comes back', async () => {
    open({ [`GET /invitations/${TOKEN}`]: () => ({ body: invitation({ hasAccount: true, permission: 2 }) }) });
    expect(await screen.findByTestId('invitation-summary')).toHaveTextContent('as an editor.');
    expect(screen.queryByLabelText('Password')).toBeNull();
    const link = screen.getByRole('link', { name: 'Sign in to accept' });
    expect(link).toHaveAttribute('href', signInToJoin(TOKEN));
    fireEvent.click(link);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/login?next=%2Fjoin%2F${TOKEN}`));
  });

  it('signed in with the invited address: one Accept invitation button', async () => {
    const eve = meFixture({ id: 5, email: 'Eve@Example.com', name: 'Eve', isAdmin: false });
    const calls = open({
      'GET /me': () => ({ body: eve }),
      [`GET /invitations/${TOKEN}`]: () => ({ body: invitation({ hasAccount: true }) }),
      [`POST /invitations/${TOKEN}/accept`]: () => ({ body: eve }),
      'GET /trackers': () => ({ body: joinedList }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/h1/coffee-talk'));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({});
  });

  it('signed in with another address: says so and offers Sign out', async () => {
    open({ 'GET /me': () => ({ body: meFixture({ email: 'ada@example.com' }) }) });
    expect(await screen.findByText(/but this invitation is for/)).toHaveTextContent('You are signed in as ada@example.com, but this invitation is for eve@example.com.');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
  });

  it('a used, withdrawn or expired link says it no longer works', async () => {
    open({
      [`GET /invitations/${TOKEN}`]: () => ({
        status: 404,
        body: { error: { code: 'not_found', message: "This invitation is no longer valid: ask the tracker's owner for a new one." } },
      }),
    });
    expect(await screen.findByRole('heading', { name: 'This invitation link no longer works' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Ask the person who invited you for a new link.');
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
  });
});

describe('joinedTrackerPath', () => {
  const t = (hash: string, title: string) => ({ hash, friendly: hash + '-f', title });
  it('opens the one tracker of that title, else the tracker list', () => {
    expect(joinedTrackerPath([t('a', 'Other'), t('b', 'Coffee')], 'Coffee')).toBe('/hashtag-tracking/dashboard/b/b-f');
    expect(joinedTrackerPath([t('a', 'Coffee'), t('b', 'Coffee')], 'Coffee')).toBe('/mytracks/hashtag');
    expect(joinedTrackerPath([], 'Coffee')).toBe('/mytracks/hashtag');
    expect(joinedTrackerPath(undefined, 'Coffee')).toBe('/mytracks/hashtag');
  });
});

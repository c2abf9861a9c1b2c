import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { meFixture } from '../trackers/fixtures';
import { HomeRedirect } from './HomeRedirect';
import { LoginPage } from './LoginPage';
import { SetupPage } from './SetupPage';
import { nextPath, validateAccount } from './validation';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null });

describe('HomeRedirect', () => {
  it.each([
    [true, signedOut, '/setup'],
    [false, meFixture(), '/mytracks/hashtag'],
    [false, signedOut, '/login'],
  ])('needsSetup=%s → %s', async (needsSetup, me, target) => {
    mockApi({ 'GET /setup': () => ({ body: { needsSetup } }), 'GET /me': () => ({ body: me }) });
    renderRoute(<HomeRedirect />, { path: '/', url: '/' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(target));
  });
});

describe('SetupPage', () => {
  it('checks fields, creates the first account and opens the tracker list', async () => {
    const calls = mockApi({
      'GET /setup': () => ({ body: { needsSetup: true } }),
      'GET /me': () => ({ body: signedOut }),
      'POST /setup': () => ({ status: 201, body: meFixture() }),
    });
    renderRoute(<SetupPage />, { path: '/setup', url: '/setup' });
    fireEvent.click(await screen.findByRole('button', { name: 'Create account' }));
    expect(screen.getByText('The password must be 8 to 200 characters long.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/mytracks/hashtag'));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ name: 'Ada', email: 'ada@example.com', password: 'correct horse' });
  });

  it('sends to sign in once the instance is set up', async () => {
    mockApi({ 'GET /setup': () => ({ body: { needsSetup: false } }), 'GET /me': () => ({ body: signedOut }) });
    renderRoute(<SetupPage />, { path: '/setup', url: '/setup' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
  });
});

describe('LoginPage', () => {
  const login = (status: number, message: string) => {
    mockApi({
      'GET /setup': () => ({ body: { needsSetup: false } }),
      'GET /me': () => ({ body: signedOut }),
      'POST /auth/login': () => ({ status, body: { error: { code: 'x', message } } }),
    });
    renderRoute(<LoginPage />, { path: '/login', url: '/login' });
  };

  it('shows the server message for bad credentials', async () => {
    login(401, 'Invalid email or password.');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'a@b.c' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrongpass' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
  });

  it('shows the rate-limit message', async () => {
    login(429, 'Too many sign-in attempts. Try again in a few minutes.');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'a@b.c' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrongpass' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many sign-in attempts.');
  });

  it('signs in and follows ?next=', async () => {
    mockApi({
      'GET /setup': () => ({ body: { needsSetup: false } }),
      'GET /me': () => ({ body: signedOut }),
      'POST /auth/login': () => ({ body: meFixture() }),
    });
    renderRoute(<LoginPage />, { path: '/login', url: '/login?next=%2Fnew%2Fht%2Fstep1' });
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/new/ht/step1'));
  });
});

describe('validation', () => {
  it('mirrors the server rules', () => {
    expect(validateAccount({ name: '', email: 'x', password: 'short' }, true)).toEqual({
      name: 'Enter your name.',
      email: 'Enter a valid e-mail address.',
      password: 'The password must be 8 to 200 characters long.',
    });
    expect(validateAccount({ email: 'a@b', password: '12345678' }, false)).toEqual({});
  });
  it('only follows same-site next paths', () => {
    expect(nextPath('?next=/edit/a/b')).toBe('/edit/a/b');
    expect(nextPath('?next=//evil.com')).toBe('/mytracks/hashtag');
    expect(nextPath('?next=https://evil.com')).toBe('/mytracks/hashtag');
    expect(nextPath('')).toBe('/mytracks/hashtag');
  });
});

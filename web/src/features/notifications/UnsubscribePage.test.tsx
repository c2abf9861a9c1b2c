// The unsubscribe page of the mails' links: one POST with the token once the CSRF cookie is
// there, then the confirmation naming the tracker and address; a link that no longer works, a
// failure to retry, and a link without its token.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture } from '../trackers/fixtures';
import { MISSING_TOKEN_TEXT, UnsubscribePage, unsubscribedText } from './UnsubscribePage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false });
type Answer = { status?: number; body?: unknown };

function open(url: string, answer: (c: ApiCall) => Answer = () => ({ body: { email: 'ann@example.org', tracker: 'Brand tracker', subscribed: false } })) {
  const calls = mockApi({
    'GET /me': () => ({ body: signedOut }),
    'POST /unsubscribe': answer,
  });
  renderRoute(<UnsubscribePage />, { path: '/unsubscribe', url });
  return calls;
}

const posts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === '/unsubscribe');

describe('unsubscribe page', () => {
  it('unsubscribes on opening, once, and says from what', async () => {
    const calls = open('/unsubscribe?token=tok_123');
    const done = await screen.findByTestId('unsubscribed');
    expect(done.textContent).toBe(unsubscribedText('Brand tracker', 'ann@example.org'));
    expect(done.textContent).toBe('You will no longer receive alerts or reports about Brand tracker at ann@example.org.');
    expect(screen.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeInTheDocument();
    expect(posts(calls)).toHaveLength(1);
    expect(posts(calls)[0].query.get('token')).toBe('tok_123');
    // /me was read first: it sets the CSRF cookie the POST needs.
    expect(calls.findIndex((c) => c.path === '/me')).toBeLessThan(calls.findIndex((c) => c.path === '/unsubscribe'));
    await new Promise((r) => setTimeout(r, 30));
    expect(posts(calls)).toHaveLength(1);
  });

  it('says when the link no longer works', async () => {
    open('/unsubscribe?token=gone', () => ({ status: 404, body: { error: { code: 'unsubscribe_not_found', message: 'This unsubscribe link is not valid.' } } }));
    expect(await screen.findByRole('heading', { level: 1, name: 'This link no longer works' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This unsubscribe link is not valid.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers to try again after a failure', async () => {
    let fail = true;
    const calls = open('/unsubscribe?token=t2', () =>
      fail ? { status: 503, body: { error: { code: 'unavailable', message: 'The server is busy.' } } } : { body: { email: 'b@example.org', tracker: 'T', subscribed: false } },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('The server is busy.');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('unsubscribed')).toHaveTextContent('about T at b@example.org.'));
    expect(posts(calls)).toHaveLength(2);
  });

  it('asks for the whole link when the token is missing', async () => {
    const calls = open('/unsubscribe');
    expect(await screen.findByRole('alert')).toHaveTextContent(MISSING_TOKEN_TEXT);
    await new Promise((r) => setTimeout(r, 30));
    expect(posts(calls)).toHaveLength(0);
  });
});

import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { meFixture } from '../trackers/fixtures';
import { TRIAL_EXPIRED_TEXT, TRIAL_EXPIRED_TITLE, TrialExpiredModal, trialExpiredTitle } from '.';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  window.sessionStorage.clear();
});

function show(over: Parameters<typeof meFixture>[0], url = '/mytracks/hashtag') {
  mockApi({ 'GET /me': () => ({ body: meFixture({ isAdmin: false, trial: true, trialExpires: Date.now() - 86_400_000, ...over }) }) });
  return renderRoute(
    <>
      <div>page</div>
      <TrialExpiredModal />
    </>,
    { path: '*', url },
  );
}

describe('trial-expired notice', () => {
  it('opens once a session when the trial has ended, with the pricing and contact links, and closes with Escape', async () => {
    show({ trialExpired: true });
    const dialog = await screen.findByRole('dialog', { name: 'Your 14-Day Trial has expired' });
    expect(TRIAL_EXPIRED_TITLE).toBe('Your 14-Day Trial has expired');
    expect(dialog).toHaveTextContent(TRIAL_EXPIRED_TEXT);
    expect(TRIAL_EXPIRED_TEXT).toBe('Upgrade now to access your trackers.');
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
    await waitFor(() => expect(screen.getByRole('link', { name: 'See plans' })).toHaveFocus());
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact-us');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Another page load in the same session: not again.
    cleanup();
    show({ trialExpired: true });
    await screen.findByText('page');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("names the instance's trial length (GET /me's trialDays)", async () => {
    expect(trialExpiredTitle(30)).toBe('Your 30-Day Trial has expired');
    expect(trialExpiredTitle()).toBe(TRIAL_EXPIRED_TITLE);
    show({ trialExpired: true, trialDays: 30 });
    const dialog = await screen.findByRole('dialog', { name: 'Your 30-Day Trial has expired' });
    expect(dialog).toHaveTextContent(TRIAL_EXPIRED_TEXT);
  });

  it('closes with its close button and when a link is followed', async () => {
    show({ trialExpired: true });
    await screen.findByRole('dialog', { name: TRIAL_EXPIRED_TITLE });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    cleanup();
    window.sessionStorage.clear();
    show({ trialExpired: true });
    await screen.findByRole('dialog', { name: TRIAL_EXPIRED_TITLE });
    fireEvent.click(screen.getByRole('link', { name: 'See plans' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pricing'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays closed while the trial runs, for other accounts, on the pricing page itself and on the unsubscribe page', async () => {
    show({ trialExpired: false, trialExpires: Date.now() + 86_400_000 });
    await screen.findByText('page');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    show({ trialExpired: true, isLoggedIn: false });
    await screen.findByText('page');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    show({ trialExpired: true }, '/pricing');
    await screen.findByText('page');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(window.sessionStorage.length).toBe(0);
    cleanup();

    // Nor over the answer of a mail's unsubscribe link.
    show({ trialExpired: true }, '/unsubscribe?token=t');
    await screen.findByText('page');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(window.sessionStorage.length).toBe(0);
  });
});

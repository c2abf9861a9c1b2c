import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ShareView } from '../../api/queries/share';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { hasAddress, MAIL_OFF_TEXT } from './ShareByEmail';
import { ShareModal } from './ShareModal';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  document.cookie = 'hark_csrf=tok123';
});

const HASH = 'abc123';

function view(over: Partial<ShareView> = {}): ShareView {
  return {
    shareHash: 'first-hash',
    path: `/hashtag-tracking/dashboard/${HASH}/rust-lang`,
    customUrl: null,
    linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false },
    shareExports: false,
    unlockDate: false,
    exportsLocked: false,
    emailEnabled: true,
    ...over,
  } as ShareView;
}

type Answer = { status?: number; body?: unknown };

function setup(opts: { emailEnabled?: boolean; send?: (c: ApiCall) => Answer | Promise<Answer> } = {}) {
  const calls = mockApi({
    [`GET /trackers/${HASH}/share`]: () => ({ body: view({ emailEnabled: opts.emailEnabled ?? true }) }),
    [`POST /trackers/${HASH}/share/email`]: opts.send ?? ((c) => ({ body: { sent: String((c.body as { emails: string }).emails).split(',').length } })),
  });
  renderRoute(
    <ShareModal open onOpenChange={() => undefined} hash={HASH} search="?days=7&platforms=twt&shareHash=old-hash" friendly="rust-lang" />,
    { path: '/', url: '/' },
  );
  return calls;
}

const dialog = async () => within(await screen.findByRole('dialog', { name: 'Share this dashboard' }));
const sends = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path.endsWith('/share/email'));

describe('hasAddress', () => {
  it('needs something between the commas', () => {
    expect(hasAddress('')).toBe(false);
    expect(hasAddress(' , ,')).toBe(false);
    expect(hasAddress('ann@example.org')).toBe(true);
    expect(hasAddress(', bob@example.org')).toBe(true);
  });
});

describe('Share by e-mail', () => {
  it('keeps Send off while the field is empty', async () => {
    const calls = setup();
    const d = await dialog();
    const input = await d.findByLabelText('Email addresses');
    const button = d.getByRole('button', { name: 'Send' });
    expect(input).toHaveAttribute('placeholder', 'ann@example.org, bob@example.org');
    expect(input).toHaveAccessibleDescription('Separate addresses with commas.');
    expect(button).toBeDisabled();
    fireEvent.change(input, { target: { value: ' , ' } });
    expect(button).toBeDisabled();
    fireEvent.submit(input.closest('form')!);
    fireEvent.change(input, { target: { value: 'ann@example.org' } });
    expect(button).toBeEnabled();
    fireEvent.change(input, { target: { value: '' } });
    expect(button).toBeDisabled();
    expect(sends(calls)).toHaveLength(0);
  });

  it("sends the addresses and the page's query without its shareHash", async () => {
    const calls = setup();
    const d = await dialog();
    fireEvent.change(await d.findByLabelText('Email addresses'), { target: { value: ' ann@example.org, bob@example.org ' } });
    fireEvent.click(d.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sends(calls)).toHaveLength(1));
    expect(sends(calls)[0].body).toEqual({ emails: 'ann@example.org, bob@example.org', query: 'days=7&platforms=twt' });
    expect(sends(calls)[0].headers.get('X-CSRF-Token')).toBe('tok123');
  });

  it('shows the sending state, then empties the field and says "Sent!" for 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: (a: Answer) => void = () => undefined;
    setup({ send: () => new Promise<Answer>((r) => (answer = r)) });
    const d = await dialog();
    const input = await d.findByLabelText('Email addresses');
    fireEvent.change(input, { target: { value: 'ann@example.org, bob@example.org' } });
    fireEvent.click(d.getByRole('button', { name: 'Send' }));

    const sending = await d.findByRole('button', { name: 'Sending…' });
    expect(sending).toBeDisabled();
    expect(sending).toHaveAttribute('aria-busy', 'true');
    expect(input).toHaveValue('ann@example.org, bob@example.org');

    await act(async () => answer({ body: { sent: 2 } }));
    const sent = await d.findByRole('button', { name: 'Sent!' });
    expect(sent).toHaveAttribute('data-active', 'true');
    expect(input).toHaveValue('');
    expect(d.getByTestId('share-email-status')).toHaveTextContent('Sent to 2 addresses.');

    // Longer than the copy buttons' 2 s, shorter than 3 s: still "Sent!".
    act(() => vi.advanceTimersByTime(2500));
    expect(d.getByRole('button', { name: 'Sent!' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(600));
    expect(d.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(d.queryByRole('button', { name: 'Sent!' })).toBeNull();
    // The line about the last send stays until something new is typed.
    expect(d.getByTestId('share-email-status')).toHaveTextContent('Sent to 2 addresses.');
    fireEvent.change(input, { target: { value: 'c' } });
    expect(d.getByTestId('share-email-status')).toHaveTextContent('');
  });

  it('says one address in the singular', async () => {
    setup();
    const d = await dialog();
    fireEvent.change(await d.findByLabelText('Email addresses'), { target: { value: 'ann@example.org' } });
    fireEvent.click(d.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(d.getByTestId('share-email-status')).toHaveTextContent('Sent to 1 address.'));
  });

  it("shows the server's refusal under the field and keeps the text", async () => {
    const calls = setup({
      send: () => ({ status: 422, body: { error: { code: 'invalid_email', message: "'bob' is not an e-mail address." } } }),
    });
    const d = await dialog();
    const input = await d.findByLabelText('Email addresses');
    fireEvent.change(input, { target: { value: 'ann@example.org, bob' } });
    fireEvent.click(d.getByRole('button', { name: 'Send' }));
    expect(await d.findByRole('alert')).toHaveTextContent("'bob' is not an e-mail address.");
    expect(input).toHaveValue('ann@example.org, bob');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription("'bob' is not an e-mail address.");
    expect(d.getByRole('button', { name: 'Send' })).toBeEnabled();
    expect(d.getByTestId('share-email-status')).toHaveTextContent('');
    expect(sends(calls)).toHaveLength(1);

    // Correcting the text takes the message away.
    fireEvent.change(input, { target: { value: 'ann@example.org, bob@example.org' } });
    expect(d.queryByRole('alert')).toBeNull();
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('shows a mail server failure the same way', async () => {
    setup({ send: () => ({ status: 502, body: { error: { code: 'mail_failed', message: 'The mail server did not take the message; try again later.' } } }) });
    const d = await dialog();
    const input = await d.findByLabelText('Email addresses');
    fireEvent.change(input, { target: { value: 'ann@example.org' } });
    fireEvent.click(d.getByRole('button', { name: 'Send' }));
    expect(await d.findByRole('alert')).toHaveTextContent('The mail server did not take the message; try again later.');
    expect(input).toHaveValue('ann@example.org');
  });

  it('is off, and says why, when the server has no SMTP server', async () => {
    const calls = setup({ emailEnabled: false });
    const d = await dialog();
    const input = await d.findByLabelText('Email addresses');
    const button = d.getByRole('button', { name: 'Send' });
    expect(input).toBeDisabled();
    expect(button).toBeDisabled();
    expect(d.getByText(MAIL_OFF_TEXT)).toBeInTheDocument();
    expect(button).toHaveAccessibleDescription(MAIL_OFF_TEXT);
    expect(input).toHaveAccessibleDescription(MAIL_OFF_TEXT);
    fireEvent.submit(input.closest('form')!);
    expect(sends(calls)).toHaveLength(0);
  });
});

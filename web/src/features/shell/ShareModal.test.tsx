import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ShareView } from '../../api/queries/share';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { CUSTOM_URL_DEBOUNCE_MS, ShareModal } from './ShareModal';

afterEach(() => {
  cleanup();
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
    emailEnabled: false,
    linkSharingLocked: false,
    ...over,
  };
}

type Answer = { status?: number; body?: unknown };

/** A server that keeps the sharing: a PUT merges its fields, a custom URL changes the path. */
function server(start: ShareView = view()) {
  let state = start;
  return (c: ApiCall): Answer => {
    const b = c.body as Partial<ShareView>;
    state = { ...state, ...b };
    if (b.customUrl !== undefined) state.path = `/hashtag-tracking/dashboard/${HASH}/${b.customUrl || 'rust-lang'}`;
    return { body: state };
  };
}

function setup(
  opts: { get?: () => Answer; put?: (c: ApiCall) => Answer | Promise<Answer>; revoke?: () => Answer | Promise<Answer>; onOpenChange?: (open: boolean) => void } = {},
) {
  const calls = mockApi({
    [`GET /trackers/${HASH}/share`]: opts.get ?? (() => ({ body: view() })),
    [`PUT /trackers/${HASH}/share`]: opts.put ?? server(),
    [`POST /trackers/${HASH}/share/revoke`]: opts.revoke ?? (() => ({ body: view({ shareHash: 'second-hash' }) })),
  });
  renderRoute(<ShareModal open onOpenChange={opts.onOpenChange ?? (() => undefined)} hash={HASH} search="?days=7" friendly="rust-lang" />, { path: '/', url: '/' });
  return calls;
}

const dialog = async () => within(await screen.findByRole('dialog', { name: 'Share this dashboard' }));
const puts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'PUT');

describe('Share modal', () => {
  it('loads the sharing and shows the link with the page query and the shareHash', async () => {
    setup({ get: () => ({ body: view({ customUrl: 'launch', path: `/hashtag-tracking/dashboard/${HASH}/launch`, unlockDate: true }) }) });
    const d = await dialog();
    expect(d.getByText('Loading the share link…')).toBeInTheDocument();
    const link = await d.findByLabelText('Dashboard link');
    expect(link).toHaveValue(`${window.location.origin}/hashtag-tracking/dashboard/${HASH}/launch?days=7&shareHash=first-hash`);
    expect(d.getByLabelText('Custom URL')).toHaveValue('launch');
    expect(d.getByRole('switch', { name: 'Unlock date range' })).toHaveAttribute('aria-checked', 'true');
    expect(d.getByRole('switch', { name: 'Edit date range' })).toHaveAttribute('aria-checked', 'false');
  });

  it('shows a failed load with Try again', async () => {
    let n = 0;
    setup({ get: () => (++n === 1 ? { status: 500, body: { error: { code: 'internal', message: 'Sorry, an error occurred please try again.' } } } : { body: view() }) });
    const d = await dialog();
    expect(await d.findByRole('alert')).toHaveTextContent('Sorry, an error occurred please try again.');
    fireEvent.click(d.getByRole('button', { name: 'Try again' }));
    expect(await d.findByLabelText('Dashboard link')).toBeInTheDocument();
  });

  it('saves the custom URL once, a second after typing stops, without spaces, and updates the link', async () => {
    const calls = setup();
    const d = await dialog();
    const input = await d.findByLabelText('Custom URL');
    fireEvent.change(input, { target: { value: 'launch week' } });
    expect(input).toHaveValue('launchweek');
    await new Promise((r) => setTimeout(r, CUSTOM_URL_DEBOUNCE_MS / 2));
    fireEvent.change(input, { target: { value: 'launchweek 2' } });
    await new Promise((r) => setTimeout(r, CUSTOM_URL_DEBOUNCE_MS / 2));
    // Still typing within the second: nothing sent yet.
    expect(puts(calls)).toHaveLength(0);
    await waitFor(() => expect(puts(calls)).toHaveLength(1), { timeout: 2000 });
    expect(puts(calls)[0].body).toEqual({ customUrl: 'launchweek2' });
    await waitFor(() => expect(d.getByTestId('custom-url-status')).toHaveTextContent('Saved'));
    expect(input).toHaveValue('launchweek2');
    expect(d.getByLabelText('Dashboard link')).toHaveValue(`${window.location.origin}/hashtag-tracking/dashboard/${HASH}/launchweek2?days=7&shareHash=first-hash`);
  });

  it('shows the server refusal under the field and keeps the typed text', async () => {
    const calls = setup({ put: () => ({ status: 409, body: { error: { code: 'custom_url_taken', message: 'Another tracker already uses this custom URL.' } } }) });
    const d = await dialog();
    const input = await d.findByLabelText('Custom URL');
    fireEvent.change(input, { target: { value: 'taken' } });
    expect(await d.findByText('Another tracker already uses this custom URL.', undefined, { timeout: 2500 })).toBeInTheDocument();
    expect(input).toHaveValue('taken');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(puts(calls)).toHaveLength(1);
    // The link keeps the saved path.
    expect(d.getByLabelText('Dashboard link')).toHaveValue(`${window.location.origin}/hashtag-tracking/dashboard/${HASH}/rust-lang?days=7&shareHash=first-hash`);
  });

  it('toggles at once, sends the three link-sharing flags, and goes back when refused', async () => {
    const keep = server();
    const calls = setup({
      put: async (c) => {
        // Answers come a little later, so the switch is seen changed before they land.
        await new Promise((r) => setTimeout(r, 100));
        const b = c.body as { linkSharing?: { viewPredictions: boolean } };
        if (b.linkSharing?.viewPredictions) return { status: 500, body: { error: { code: 'internal', message: 'Sorry, an error occurred please try again.' } } };
        return keep(c);
      },
    });
    const d = await dialog();
    const edit = await d.findByRole('switch', { name: 'Edit date range' });
    fireEvent.click(edit);
    await waitFor(() => expect(edit).toHaveAttribute('aria-checked', 'true'));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0].body).toEqual({ linkSharing: { editDateRange: true, exportReports: false, viewPredictions: false } });

    const predictions = d.getByRole('switch', { name: 'View predictions' });
    fireEvent.click(predictions);
    await waitFor(() => expect(predictions).toHaveAttribute('aria-checked', 'true'));
    await waitFor(() => expect(predictions).toHaveAttribute('aria-checked', 'false'));
    expect(d.getByRole('alert')).toHaveTextContent('Sorry, an error occurred please try again.');
    // The earlier change stays.
    expect(edit).toHaveAttribute('aria-checked', 'true');

    fireEvent.click(d.getByRole('switch', { name: 'Share exports' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(3));
    expect(puts(calls)[2].body).toEqual({ shareExports: true });
    await waitFor(() => expect(d.getByRole('switch', { name: 'Share exports' })).toHaveAttribute('aria-checked', 'true'));
    expect(edit).toHaveAttribute('aria-checked', 'true');
  });

  it('sends quick toggles one at a time, in order, so a slow answer cannot undo a later toggle', async () => {
    const keep = server();
    let open = 0;
    let most = 0;
    // The server answers only when the test lets it: no answer comes before the clicks are done.
    const answers: Array<() => void> = [];
    const calls = setup({
      put: async (c) => {
        open += 1;
        most = Math.max(most, open);
        await new Promise<void>((r) => answers.push(r));
        open -= 1;
        return keep(c);
      },
    });
    const d = await dialog();
    await d.findByRole('switch', { name: 'Edit date range' });
    // Each switch shows its change at once; the next click comes before any answer.
    for (const name of ['Edit date range', 'View predictions', 'Export reports']) {
      const sw = d.getByRole('switch', { name });
      fireEvent.click(sw);
      await waitFor(() => expect(sw).toHaveAttribute('aria-checked', 'true'));
    }
    expect(puts(calls)).toHaveLength(1);
    for (let n = 1; n <= 3; n++) {
      await waitFor(() => expect(answers.length).toBe(1));
      expect(puts(calls)).toHaveLength(n);
      answers.shift()!();
    }
    await waitFor(() => expect(open).toBe(0));
    expect(most).toBe(1);
    expect(puts(calls).map((c) => c.body)).toEqual([
      { linkSharing: { editDateRange: true, exportReports: false, viewPredictions: false } },
      { linkSharing: { editDateRange: true, exportReports: false, viewPredictions: true } },
      { linkSharing: { editDateRange: true, exportReports: true, viewPredictions: true } },
    ]);
    for (const name of ['Edit date range', 'View predictions', 'Export reports']) {
      await waitFor(() => expect(d.getByRole('switch', { name })).toHaveAttribute('aria-checked', 'true'));
    }
  });

  it('locks Export reports on a trial with the upgrade text', async () => {
    const calls = setup({ get: () => ({ body: view({ exportsLocked: true }) }) });
    const d = await dialog();
    const exportSwitch = await d.findByRole('switch', { name: 'Export reports' });
    expect(exportSwitch).toBeDisabled();
    expect(exportSwitch).toHaveAccessibleDescription('Upgrade to export reports');
    expect(within(d.getByTestId('export-lock')).getByRole('link', { name: 'Upgrade to export reports' })).toHaveAttribute('href', '/pricing');
    fireEvent.click(exportSwitch);
    expect(puts(calls)).toHaveLength(0);
  });

  it('locks the link-sharing switches below plan 35 with the upgrade link, leaving the tracker switches', async () => {
    const calls = setup({ get: () => ({ body: view({ linkSharingLocked: true, linkSharing: { editDateRange: true, exportReports: false, viewPredictions: false } }) }) });
    const d = await dialog();
    const lock = await d.findByTestId('link-sharing-lock');
    expect(lock).toHaveTextContent(/^Upgrade your account to unlock$/);
    const upgrade = within(lock).getByRole('link', { name: 'Upgrade your account to unlock' });
    expect(upgrade).toHaveAttribute('href', '/pricing');
    for (const name of ['Edit date range', 'Export reports', 'View predictions']) {
      const sw = d.getByRole('switch', { name });
      expect(sw).toBeDisabled();
      fireEvent.click(sw);
    }
    // What was set before stays shown.
    expect(d.getByRole('switch', { name: 'Edit date range' })).toHaveAttribute('aria-checked', 'true');
    expect(d.getByRole('switch', { name: 'Share exports' })).toBeEnabled();
    expect(d.getByRole('switch', { name: 'Unlock date range' })).toBeEnabled();
    expect(puts(calls)).toHaveLength(0);
    fireEvent.click(upgrade);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pricing'));
  });

  it('shows no upgrade text when the plan includes link sharing', async () => {
    setup();
    const d = await dialog();
    expect(await d.findByRole('switch', { name: 'Edit date range' })).toBeEnabled();
    expect(d.queryByText('Upgrade your account to unlock')).toBeNull();
  });

  it('revokes only after the confirm step and shows the new link', async () => {
    const calls = setup();
    const d = await dialog();
    const link = await d.findByLabelText('Dashboard link');
    fireEvent.click(d.getByRole('button', { name: 'Revoke link' }));
    expect(d.getByText('Revoke? The current link stops working.')).toBeInTheDocument();
    fireEvent.click(d.getByRole('button', { name: 'Cancel' }));
    expect(d.queryByText('Revoke? The current link stops working.')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(d.getByRole('button', { name: 'Revoke link' }));
    fireEvent.click(d.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(link).toHaveValue(`${window.location.origin}/hashtag-tracking/dashboard/${HASH}/rust-lang?days=7&shareHash=second-hash`));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/trackers/${HASH}/share/revoke`]);
    expect(d.getByText('Link revoked: the link above is the new one.')).toBeInTheDocument();
  });

  it('Escape cancels the revoke confirm step only: focus back on Revoke link, the dialog and the link stay; the next Escape closes', async () => {
    const onOpenChange = vi.fn();
    const calls = setup({ onOpenChange });
    const d = await dialog();
    const link = await d.findByLabelText('Dashboard link');
    const before = (link as HTMLInputElement).value;
    const escape = () => fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape', code: 'Escape' });

    fireEvent.click(d.getByRole('button', { name: 'Revoke link' }));
    const step = d.getByRole('group', { name: 'Revoke the link' });
    await waitFor(() => expect(within(step).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    escape();
    expect(d.queryByRole('group', { name: 'Revoke the link' })).toBeNull();
    await waitFor(() => expect(d.getByRole('button', { name: 'Revoke link' })).toHaveFocus());
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Share this dashboard' })).toBeInTheDocument();
    expect(link).toHaveValue(before);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    // No step open: Escape closes the dialog.
    escape();
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('keeps the dialog and the step open on Escape while the revoke is on its way', async () => {
    const onOpenChange = vi.fn();
    let answer: (a: Answer) => void = () => undefined;
    setup({ onOpenChange, revoke: () => new Promise<Answer>((r) => (answer = r)) });
    const d = await dialog();
    fireEvent.click(await d.findByRole('button', { name: 'Revoke link' }));
    const step = d.getByRole('group', { name: 'Revoke the link' });
    fireEvent.click(within(step).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(within(step).getByRole('button', { name: 'Confirm' })).toHaveAttribute('aria-busy', 'true'));
    fireEvent.keyDown(document.body, { key: 'Escape', code: 'Escape' });
    expect(d.getByRole('group', { name: 'Revoke the link' })).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();
    answer({ body: view({ shareHash: 'second-hash' }) });
    await waitFor(() => expect(d.getByText('Link revoked: the link above is the new one.')).toBeInTheDocument());
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});

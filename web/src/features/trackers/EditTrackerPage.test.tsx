import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Tracker } from '../../api/types';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { EditTrackerPage } from './EditTrackerPage';
import { meFixture, trackerFixture } from './fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => localStorage.clear());

function setup(tracker: Tracker = trackerFixture(), extra: Parameters<typeof mockApi>[0] = {}) {
  const calls = mockApi({
    'GET /me': () => ({ body: meFixture({ permission: tracker.permission }) }),
    [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`PATCH /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`POST /trackers/${tracker.hash}/pause`]: () => ({ body: { ...tracker, status: 'paused' } }),
    [`DELETE /trackers/${tracker.hash}`]: () => ({ body: { status: 'success' } }),
    ...extra,
  });
  renderRoute(<EditTrackerPage />, { path: '/edit/:hash/:friendly', url: `/edit/${tracker.hash}/${tracker.friendly}` });
  return calls;
}

describe('EditTrackerPage', () => {
  it('saves the current search to local storage and fills the form', async () => {
    setup();
    expect(await screen.findByRole('heading', { name: 'Tracker Settings' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Row 1 term 2' })).toHaveValue('rustlang');
    expect(screen.getByRole('combobox', { name: 'Row 2 type' })).toHaveValue('-');
    const stored = JSON.parse(localStorage.getItem('hark.edit.abc123')!);
    expect(stored.search.rows[0].searches).toEqual(['rust', 'rustlang']);
  });

  it('nothing changed: Save goes back to the dashboard without a request', async () => {
    const calls = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/abc123/rust-lang'));
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('errors show inline and no modal opens', async () => {
    setup();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Row 1 term 2' }), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('At least one search term must be entered.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a change opens the save-changes modal; the chosen mode is sent and the dashboard opens', async () => {
    const calls = setup();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: 'ferris' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save changes' });
    expect(within(dialog).getByRole('button', { name: 'Re-analyze previous data' })).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply only to future data' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/abc123/rust-lang'));
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.body).toMatchObject({ mode: 'future', search: { rows: [{ type: '+', searches: ['ferris', 'rustlang'] }, { type: '-', searches: ['game'] }] } });
  });

  it('the clicked modal button shows a loading state', async () => {
    let release: () => void = () => {};
    const tracker = trackerFixture();
    setup(tracker, {
      [`PATCH /trackers/${tracker.hash}`]: () => new Promise((r) => { release = () => r({ body: tracker }); }),
    });
    fireEvent.change(await screen.findByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: 'ferris' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Re-analyze previous data' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Re-analyze previous data' })).toHaveAttribute('aria-busy', 'true'));
    expect(within(dialog).getByRole('button', { name: 'Apply only to future data' })).toBeDisabled();
    release();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/hashtag-tracking/dashboard/'));
  });

  it('Escape closes the save-changes modal without saving', async () => {
    const calls = setup();
    fireEvent.change(await screen.findByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: 'ferris' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    expect(screen.getByRole('textbox', { name: 'Row 1 term 1' })).toHaveValue('ferris');
  });

  it('a 422 from the server closes the modal and shows the message inline', async () => {
    const tracker = trackerFixture();
    setup(tracker, {
      [`PATCH /trackers/${tracker.hash}`]: () => ({
        status: 422,
        body: { error: { code: 'validation_failed', message: 'Invalid', fields: [{ field: 'platforms', code: 'platform_locked', message: 'listening for specified TikTok accounts is not available on trial' }] } },
      }),
    });
    fireEvent.change(await screen.findByRole('textbox', { name: 'Row 1 term 1' }), { target: { value: 'ferris' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Re-analyze previous data' }));
    expect(await screen.findByText('listening for specified TikTok accounts is not available on trial')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('an unknown tracker shows a not-found message', async () => {
    mockApi({
      'GET /me': () => ({ body: meFixture() }),
      'GET /trackers/nope': () => ({ status: 404, body: { error: { code: 'tracker_not_found', message: 'Tracker not found.' } } }),
    });
    renderRoute(<EditTrackerPage />, { path: '/edit/:hash/:friendly', url: '/edit/nope/x' });
    expect(await screen.findByText('This tracker does not exist or you do not have access to it.')).toBeInTheDocument();
  });

  it('pauses the tracker', async () => {
    const calls = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Pause tracker' }));
    expect(await screen.findByRole('button', { name: 'Restart tracker' })).toBeInTheDocument();
    expect(screen.getAllByText('Paused').length).toBeGreaterThan(0);
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/pause'))).toBe(true);
  });

  it('deletes after confirmation and goes to the tracker list', async () => {
    const calls = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete tracker?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete tracker' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/mytracks/hashtag'));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/trackers/abc123')).toBe(true);
  });

  it('a delete error shows the server message', async () => {
    setup(trackerFixture(), {
      'DELETE /trackers/abc123': () => ({ status: 403, body: { error: { code: 'forbidden', message: 'You may not delete this tracker.' } } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete tracker' }));
    expect(await screen.findByText('You may not delete this tracker.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/edit/abc123/rust-lang');
  });

  it('viewers see the form read-only without save, pause or delete', async () => {
    setup(trackerFixture({ permission: 1, isOwner: false }));
    expect(await screen.findByRole('textbox', { name: 'Row 1 term 1' })).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause tracker' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});

// The Integrations page: only for instance administrators; the Google Sheets card's states (not
// set up, set up with its service account and last test), a key chosen as a file, dropped or
// pasted and saved, the server's refusal shown as it says it, the connection test, removal behind
// a confirm that Escape cancels, and the API base URL under Advanced.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GoogleSheetsIntegration } from '../../api/queries/integrations';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture } from '../trackers/fixtures';
import { IntegrationsPage } from './IntegrationsPage';
import { keyPreview, sheetsStatus } from './integration-form';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOT_SET: GoogleSheetsIntegration = {
  configured: false,
  clientEmail: null,
  projectId: null,
  apiBase: null,
  updatedAt: null,
  check: { state: 'unchecked', message: null, checkedAt: null },
};

const KEY = JSON.stringify({
  type: 'service_account',
  project_id: 'hark-exports',
  private_key_id: 'k1',
  private_key: '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n',
  client_email: 'exports@hark-exports.iam.gserviceaccount.com',
  client_id: '1',
  token_uri: 'https://oauth2.googleapis.com/token',
});

const SET: GoogleSheetsIntegration = {
  configured: true,
  clientEmail: 'exports@hark-exports.iam.gserviceaccount.com',
  projectId: 'hark-exports',
  apiBase: null,
  updatedAt: Date.UTC(2026, 2, 1, 9, 30),
  check: { state: 'unchecked', message: null, checkedAt: null },
};

type Answer = { status?: number; body?: unknown };

function setup(opts: { isAdmin?: boolean; view?: GoogleSheetsIntegration; put?: (c: ApiCall) => Answer; check?: () => Answer } = {}) {
  let view = opts.view ?? NOT_SET;
  const calls = mockApi({
    'GET /me': () => ({ body: meFixture({ isAdmin: opts.isAdmin ?? true }) }),
    'GET /admin/integrations/google-sheets': () => ({ body: view }),
    'PUT /admin/integrations/google-sheets': (c) => {
      if (opts.put) return opts.put(c);
      const body = c.body as { key?: string; apiBase?: string | null };
      view = { ...SET, apiBase: body.apiBase ?? null };
      return { body: view };
    },
    'POST /admin/integrations/google-sheets/check': () =>
      opts.check?.() ?? { body: (view = { ...view, check: { state: 'ok', message: null, checkedAt: Date.UTC(2026, 2, 1, 10) } }) },
    'DELETE /admin/integrations/google-sheets': () => ((view = NOT_SET), { status: 204 }),
  });
  renderRoute(<IntegrationsPage />, { path: '/settings/integrations', url: '/settings/integrations' });
  return calls;
}

const card = () => screen.findByRole('region', { name: 'Google Sheets' });
const keyFile = (text = KEY, name = 'hark-exports-1234.json') => new File([text], name, { type: 'application/json' });

describe('IntegrationsPage', () => {
  it('tells anyone but an instance administrator that the page is not theirs', async () => {
    const calls = setup({ isAdmin: false });
    expect(await screen.findByRole('heading', { level: 1, name: 'Integrations' })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Only an instance administrator can manage integrations.');
    expect(screen.getByRole('link', { name: 'Back to the tracker list' })).toHaveAttribute('href', '/mytracks/hashtag');
    expect(calls.some((c) => c.path.startsWith('/admin/'))).toBe(false);
  });

  it('not set up: says so, asks for a key before saving, and cannot be tested or removed', async () => {
    const calls = setup();
    const c = await card();
    expect(within(c).getByTestId('sheets-status')).toHaveTextContent('Not set up');
    expect(within(c).getByTestId('sheets-status-pill')).toHaveTextContent('Not set up');
    expect(within(c).getByText(/stored encrypted/)).toBeInTheDocument();
    expect(within(c).getByRole('button', { name: 'Test connection' })).toBeDisabled();
    expect(within(c).queryByRole('button', { name: 'Remove' })).toBeNull();
    fireEvent.click(within(c).getByRole('button', { name: 'Save' }));
    expect(await within(c).findByText('Choose the key file, drop it here, or paste its text.')).toBeInTheDocument();
    expect(calls.some((x) => x.method === 'PUT')).toBe(false);
  });

  it('saves a chosen key file, shows whose it is, then tests the connection', async () => {
    const calls = setup();
    const c = await card();
    fireEvent.change(within(c).getByLabelText('Service account key file'), { target: { files: [keyFile()] } });
    const chosen = await within(c).findByTestId('sheets-key-chosen');
    expect(chosen).toHaveTextContent('hark-exports-1234.json');
    expect(chosen).toHaveTextContent('Service account exports@hark-exports.iam.gserviceaccount.com of project hark-exports');
    fireEvent.click(within(c).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(c).getByTestId('sheets-status')).toHaveTextContent('Set up: service account exports@hark-exports.iam.gserviceaccount.com of project hark-exports'));
    expect(calls.find((x) => x.method === 'PUT')!.body).toEqual({ key: KEY, apiBase: null });
    expect(within(c).getByTestId('sheets-result')).toHaveTextContent('The key was saved. Test the connection to make sure it works.');
    expect(within(c).getByTestId('sheets-check')).toHaveTextContent('Not tested yet.');
    expect(within(c).queryByTestId('sheets-key-chosen')).toBeNull();

    fireEvent.click(within(c).getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(within(c).getByTestId('sheets-result')).toHaveTextContent('The connection works.'));
    expect(within(c).getByTestId('sheets-check')).toHaveTextContent('OK: Google accepted the key.');
    expect(within(c).getByTestId('sheets-status-pill')).toHaveTextContent('Working');
  });

  it('takes a dropped file and pasted text too', async () => {
    const calls = setup();
    const c = await card();
    fireEvent.drop(within(c).getByTestId('sheets-key-drop'), { dataTransfer: { files: [keyFile()] } });
    expect(await within(c).findByTestId('sheets-key-chosen')).toHaveTextContent('hark-exports-1234.json');
    // Pasting replaces the file.
    fireEvent.change(within(c).getByLabelText('Key text (JSON)'), { target: { value: '{"type":"authorized_user"}' } });
    expect(within(c).getByTestId('sheets-key-chosen')).toHaveTextContent('Pasted key');
    expect(within(c).getByTestId('sheets-key-chosen')).toHaveTextContent('This does not look like a service account key.');
    fireEvent.click(within(c).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((x) => x.method === 'PUT')).toBe(true));
    expect(calls.find((x) => x.method === 'PUT')!.body).toEqual({ key: '{"type":"authorized_user"}', apiBase: null });
  });

  it('shows the server’s reason for refusing a key, and a bad API base URL under its field', async () => {
    let answer: Answer = { status: 422, body: { error: { code: 'invalid_key', message: 'The key has no private_key: download a new JSON key.' } } };
    setup({ put: () => answer });
    const c = await card();
    fireEvent.change(within(c).getByLabelText('Service account key file'), { target: { files: [keyFile('{"type":"service_account"}')] } });
    await within(c).findByTestId('sheets-key-chosen');
    fireEvent.click(within(c).getByRole('button', { name: 'Save' }));
    expect(await within(c).findByRole('alert')).toHaveTextContent('The key has no private_key: download a new JSON key.');
    expect(within(c).getByTestId('sheets-status')).toHaveTextContent('Not set up');

    answer = { status: 422, body: { error: { code: 'invalid_base_url', message: 'The API base URL must start with http:// or https://.' } } };
    fireEvent.click(within(c).getByText('Advanced'));
    const base = within(c).getByLabelText('API base URL (optional)');
    fireEvent.change(base, { target: { value: 'ftp://example.com' } });
    fireEvent.click(within(c).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(base).toHaveAttribute('aria-invalid', 'true'));
    expect(within(c).getByText('The API base URL must start with http:// or https://.')).toBeInTheDocument();
  });

  it('set up: shows the account, the last test and its failure; saves a new API base URL alone', async () => {
    const calls = setup({
      view: { ...SET, apiBase: 'http://127.0.0.1:9000', check: { state: 'failed', message: 'invalid_grant: Invalid JWT Signature.', checkedAt: Date.UTC(2026, 2, 1, 10) } },
      check: () => ({ body: { ...SET, check: { state: 'failed', message: 'invalid_grant: Invalid JWT Signature.', checkedAt: 2 } } }),
    });
    const c = await card();
    expect(within(c).getByTestId('sheets-status-pill')).toHaveTextContent('Check failed');
    expect(within(c).getByTestId('sheets-check')).toHaveTextContent('Failed: invalid_grant: Invalid JWT Signature.');
    // Advanced is open with the saved base URL.
    const base = within(c).getByLabelText('API base URL (optional)');
    expect(base).toHaveValue('http://127.0.0.1:9000');
    expect(within(c).getByText(/A new key replaces the saved one/)).toBeInTheDocument();
    fireEvent.click(within(c).getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(within(c).getByTestId('sheets-result')).toHaveTextContent('The connection failed: invalid_grant: Invalid JWT Signature.'));
    fireEvent.change(base, { target: { value: '' } });
    fireEvent.click(within(c).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(c).getByTestId('sheets-result')).toHaveTextContent('Saved.'));
    expect(calls.find((x) => x.method === 'PUT')!.body).toEqual({ apiBase: null });
  });

  it('removes the key after a confirm; Escape cancels it', async () => {
    const calls = setup({ view: SET });
    const c = await card();
    fireEvent.click(within(c).getByRole('button', { name: 'Remove' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove the Google Sheets key?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((x) => x.method === 'DELETE')).toBe(false);

    fireEvent.click(within(c).getByRole('button', { name: 'Remove' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove the Google Sheets key?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove key' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((x) => x.method === 'DELETE' && x.path === '/admin/integrations/google-sheets')).toBe(true);
    await waitFor(() => expect(within(c).getByTestId('sheets-status')).toHaveTextContent('Not set up'));
    expect(within(c).getByTestId('sheets-result')).toHaveTextContent('The key was removed.');
  });
});

describe('integration-form', () => {
  it('reads the status of the set-up', () => {
    expect(sheetsStatus(NOT_SET)).toBe('not_configured');
    expect(sheetsStatus(SET)).toBe('unchecked');
    expect(sheetsStatus({ ...SET, check: { state: 'ok', message: null, checkedAt: 1 } })).toBe('working');
    expect(sheetsStatus({ ...SET, check: { state: 'failed', message: 'x', checkedAt: 1 } })).toBe('failed');
  });

  it('previews a key before it is sent', () => {
    expect(keyPreview(KEY)).toEqual({ ok: true, text: 'Service account exports@hark-exports.iam.gserviceaccount.com of project hark-exports' });
    expect(keyPreview('not json').ok).toBe(false);
    expect(keyPreview('[1]').text).toBe('This is not a service account key.');
    expect(keyPreview('{"type":"service_account"}').text).toBe('This does not look like a service account key.');
  });
});

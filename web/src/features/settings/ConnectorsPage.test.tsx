import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Connector } from '../../api/queries/collection';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { meFixture } from '../trackers/fixtures';
import { ConnectorsPage } from './ConnectorsPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const twitter: Connector = {
  name: 'twitter',
  label: 'X (Twitter) recent search',
  description: 'Polls the X API v2 recent search.',
  platforms: ['twt'],
  enabled: false,
  hasBaseUrl: true,
  baseUrl: null,
  defaultBaseUrl: 'https://api.x.com',
  collectsBy: 'poll',
  baseUrlSchemes: ['http://', 'https://'],
  fields: [{ name: 'bearer_token', label: 'Bearer token', secret: true, required: true, multiline: false, help: 'From the portal.', isSet: false, options: [] }],
  status: 'not_configured',
  statusMessage: 'not configured: missing Bearer token',
};

function setup(isAdmin = true) {
  let saved: Connector = twitter;
  const calls = mockApi({
    'GET /me': () => ({ body: meFixture({ isAdmin }) }),
    'GET /admin/connectors': () => ({ body: [saved] }),
    'PUT /admin/connectors/twitter': (c) => {
      const body = c.body as { enabled: boolean; baseUrl: string; values: Record<string, string> };
      saved = {
        ...twitter,
        enabled: body.enabled,
        baseUrl: body.baseUrl || null,
        fields: [{ ...twitter.fields[0], isSet: 'bearer_token' in body.values }],
        status: 'unchecked',
        statusMessage: null,
      };
      return { body: saved };
    },
    'POST /admin/connectors/twitter/check': () => ({ body: { ...saved, status: 'working', statusMessage: 'Recent search answered.', checkedAt: 1 } }),
  });
  renderRoute(<ConnectorsPage />, { path: '/settings/connectors', url: '/settings/connectors' });
  return calls;
}

describe('ConnectorsPage', () => {
  it('refuses to switch on without the required credential, then saves and checks', async () => {
    const calls = setup();
    const card = await screen.findByRole('region', { name: 'X (Twitter) recent search' });
    expect(within(card).getByText('Not configured')).toBeInTheDocument();
    fireEvent.click(within(card).getByRole('checkbox', { name: 'Collect from this source' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await within(card).findByText('Bearer token is needed to switch this connector on.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.change(within(card).getByLabelText('Bearer token'), { target: { value: 'tok-123' } });
    fireEvent.change(within(card).getByLabelText('Base URL'), { target: { value: 'http://127.0.0.1:9999' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(card).getByText('Not checked yet')).toBeInTheDocument());
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({ enabled: true, baseUrl: 'http://127.0.0.1:9999', values: { bearer_token: 'tok-123' }, clear: [] });
    // The secret is not shown again: the field is blank with a "saved" placeholder.
    expect(within(card).getByLabelText('Bearer token')).toHaveValue('');
    expect(within(card).getByLabelText('Bearer token')).toHaveAttribute('placeholder', 'Saved — leave blank to keep it');

    fireEvent.click(within(card).getByRole('button', { name: 'Check connection' }));
    expect(await within(card).findByText('Working')).toBeInTheDocument();
    expect(within(card).getByText(/Recent search answered\./)).toBeInTheDocument();
  });

  it('tells a non-administrator it is not for them', async () => {
    const calls = setup(false);
    expect(await screen.findByText('Only an instance administrator can manage connectors.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/admin/connectors')).toBe(false);
  });

  it('lets the administrator choose how X collects, and shows a stream connector state', async () => {
    const x: Connector = {
      ...twitter,
      fields: [
        { ...twitter.fields[0], isSet: true },
        { name: 'mode', label: 'Collection', secret: false, required: false, multiline: false, help: '', isSet: false,
          options: [{ value: 'recent', label: 'Recent search (polling)' }, { value: 'stream', label: 'Filtered stream' }] },
      ],
    };
    const bluesky: Connector = {
      name: 'bluesky', label: 'Bluesky (Jetstream)', description: 'Reads every new Bluesky post.', platforms: ['bsky'],
      enabled: true, hasBaseUrl: true, baseUrl: null, defaultBaseUrl: 'wss://jetstream2.us-east.bsky.network', fields: [],
      status: 'working', collectsBy: 'stream', baseUrlSchemes: ['ws://', 'wss://'],
      stream: { running: true, postsFetched: 1234, lastCollectedAt: 1_700_000_000_000, lastError: null },
    };
    const calls = mockApi({
      'GET /me': () => ({ body: meFixture({ isAdmin: true }) }),
      'GET /admin/connectors': () => ({ body: [x, bluesky] }),
      'PUT /admin/connectors/twitter': (c) => ({ body: { ...x, collectsBy: (c.body as { values: Record<string, string> }).values.mode === 'stream' ? 'stream' : 'poll' } }),
    });
    renderRoute(<ConnectorsPage />, { path: '/settings/connectors', url: '/settings/connectors' });
    const card = await screen.findByRole('region', { name: 'X (Twitter) recent search' });
    const recent = within(card).getByRole('radio', { name: 'Recent search (polling)' });
    expect(recent).toBeChecked();
    fireEvent.click(within(card).getByRole('radio', { name: 'Filtered stream' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect((put.body as { values: Record<string, string> }).values.mode).toBe('stream');

    const sky = screen.getByRole('region', { name: 'Bluesky (Jetstream)' });
    expect(within(sky).getByText('No key needed. Reads one live stream for every running tracker.')).toBeInTheDocument();
    expect(within(sky).getByText(/Stream connected · 1,234 posts read/)).toBeInTheDocument();
    fireEvent.change(within(sky).getByLabelText('Base URL'), { target: { value: 'https://jetstream.example' } });
    fireEvent.click(within(sky).getByRole('button', { name: 'Save' }));
    expect(await within(sky).findByText('Enter an address starting with ws:// or wss://.')).toBeInTheDocument();
  });
});

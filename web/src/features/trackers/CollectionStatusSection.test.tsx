import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CollectionStatus } from '../../api/queries/collection';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { CollectionStatusSection } from './CollectionStatusSection';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CollectionStatusSection', () => {
  it('shows each source with its last collection, next run and last error; collect now makes it due', async () => {
    const now = Date.now();
    const status: CollectionStatus = {
      collecting: true,
      jobs: [
        { id: 1, connector: 'twitter', label: 'X (Twitter) recent search', kind: 'poll', state: 'active', running: false,
          lastCollectedAt: now - 5 * 60_000, nextRunAt: now + 4 * 60_000, lastError: null, attempts: 0, pages: 3, postsFetched: 250 },
        { id: 2, connector: 'reddit', label: 'Reddit search', kind: 'poll', state: 'active', running: false,
          lastCollectedAt: null, nextRunAt: now + 15 * 60_000, lastError: 'credentials rejected: invalid_grant', lastErrorAt: now - 60_000,
          attempts: 2, pages: 0, postsFetched: 0 },
      ],
    };
    const calls = mockApi({
      'GET /trackers/abc/collection': () => ({ body: status }),
      'POST /trackers/abc/collection/run': () => ({ body: { ...status, jobs: status.jobs.map((j) => ({ ...j, nextRunAt: now })) } }),
    });
    renderRoute(<CollectionStatusSection hash="abc" isAdmin running />, { path: '/x', url: '/x' });
    expect(await screen.findByText('X (Twitter) recent search')).toBeInTheDocument();
    expect(screen.getByText('5 min ago')).toBeInTheDocument();
    expect(screen.getByText('in 4 min')).toBeInTheDocument();
    expect(screen.getByText('250')).toBeInTheDocument();
    expect(screen.getByText('credentials rejected: invalid_grant')).toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Collect now' }));
    await waitFor(() => expect(screen.getAllByText('Due now')).toHaveLength(2));
    expect(calls.some((c) => c.method === 'POST' && c.path === '/trackers/abc/collection/run')).toBe(true);
  });

  it('points administrators to the connectors page when nothing collects', async () => {
    mockApi({ 'GET /trackers/abc/collection': () => ({ body: { collecting: false, jobs: [] } }) });
    renderRoute(<CollectionStatusSection hash="abc" isAdmin running />, { path: '/x', url: '/x' });
    expect(await screen.findByRole('link', { name: 'Set up connectors' })).toHaveAttribute('href', '/settings/connectors');
  });
});

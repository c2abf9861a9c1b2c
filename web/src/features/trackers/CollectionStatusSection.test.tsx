import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
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
      backfillInProgress: false,
      freeBackfills: true,
      streams: [],
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

  it('lists the live streams of the tracker\'s platforms', async () => {
    const now = Date.now();
    mockApi({
      'GET /trackers/abc/collection': () => ({
        body: {
          collecting: true, backfillInProgress: false, jobs: [],
          streams: [{ connector: 'bluesky', label: 'Bluesky (Jetstream)', running: true, lastCollectedAt: now - 2 * 60_000, lastError: 'network: reset' }],
        },
      }),
    });
    renderRoute(<CollectionStatusSection hash="abc" isAdmin running />, { path: '/x', url: '/x' });
    const list = await screen.findByRole('list', { name: 'Live streams' });
    expect(within(list).getByText('Bluesky (Jetstream)')).toBeInTheDocument();
    expect(list).toHaveTextContent('live stream, connected · last read 2 min ago');
    expect(within(list).getByText('network: reset')).toBeInTheDocument();
    expect(screen.queryByText(/Collection starts within a minute/)).not.toBeInTheDocument();
  });

  it('points administrators to the connectors page when nothing collects', async () => {
    mockApi({ 'GET /trackers/abc/collection': () => ({ body: { collecting: false, backfillInProgress: false, jobs: [] } }) });
    renderRoute(<CollectionStatusSection hash="abc" isAdmin running />, { path: '/x', url: '/x' });
    expect(await screen.findByRole('link', { name: 'Set up connectors' })).toHaveAttribute('href', '/settings/connectors');
  });
});

describe('Historical data', () => {
  it('starts a backfill and then shows it in progress', async () => {
    let inProgress = false;
    const job = { id: 3, connector: 'twitter', label: 'X (Twitter) recent search', kind: 'backfill' as const, state: 'active' as const,
      running: false, nextRunAt: Date.now(), attempts: 0, pages: 0, postsFetched: 0, rangeStart: Date.UTC(2026, 10, 1), rangeEnd: Date.UTC(2026, 10, 3) };
    const calls = mockApi({
      'GET /trackers/abc/collection': () => ({ body: { collecting: true, backfillInProgress: inProgress, jobs: inProgress ? [job] : [] } }),
      'GET /trackers/abc/backfill/estimate': () => ({ body: { total: 420, complete: true, sources: [{ connector: 'twitter', label: 'X (Twitter) recent search', estimate: 420 }] } }),
      'POST /trackers/abc/backfill': () => {
        inProgress = true;
        return { body: { collecting: true, backfillInProgress: true, jobs: [job] } };
      },
    });
    renderRoute(<CollectionStatusSection hash="abc" isAdmin running />, { path: '/x', url: '/x' });
    const form = await screen.findByRole('form', { name: 'Historical data' });
    fireEvent.change(within(form).getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(within(form).getByLabelText('To'), { target: { value: '2026-10-01' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Start backfill' }));
    expect(await within(form).findByText('The first day must not be after the last.')).toBeInTheDocument();
    fireEvent.change(within(form).getByLabelText('To'), { target: { value: '2026-11-02' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Estimate volume' }));
    expect(await within(form).findByText('About 420 posts.')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/trackers/abc/backfill/estimate')!.query.get('start')).toBe('2026-11-01');
    fireEvent.click(within(form).getByRole('button', { name: 'Start backfill' }));
    expect(await within(form).findByRole('button', { name: 'Backfill in Progress' })).toBeDisabled();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ start: '2026-11-01', end: '2026-11-02' });
    expect(screen.getByText('Historical: Nov 1 – Nov 2')).toBeInTheDocument();
  });
});

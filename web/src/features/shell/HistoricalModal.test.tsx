import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CollectionStatus } from '../../api/queries/collection';
import { mockApi, renderRoute } from '../../lib/test-utils';
import { HistoricalModal } from './HistoricalModal';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open(status: Partial<CollectionStatus>, trial = false) {
  let current: CollectionStatus = { collecting: true, backfillInProgress: false, freeBackfills: false, jobs: [], streams: [], ...status };
  const calls = mockApi({
    'GET /trackers/h1/collection': () => ({ body: current }),
    'POST /trackers/h1/backfill': () => {
      current = {
        ...current,
        backfillInProgress: true,
        jobs: [{ id: 9, connector: 'twitter', label: 'X (Twitter) recent search', kind: 'backfill', state: 'active', running: true,
          attempts: 0, pages: 2, postsFetched: 120, rangeStart: Date.UTC(2026, 0, 1), rangeEnd: Date.UTC(2026, 0, 15) }],
      };
      return { body: current };
    },
  });
  renderRoute(<HistoricalModal open onOpenChange={() => {}} hash="h1" title="Coffee" trial={trial} isAdmin={false} />, { path: '/', url: '/' });
  return calls;
}

describe('HistoricalModal', () => {
  it('free backfills: step 1 starts a backfill and shows its progress', async () => {
    const calls = open({ freeBackfills: true });
    const start = await screen.findByRole('button', { name: 'Start backfill' });
    expect(document.querySelector('[data-modal="backfillStep1"]')).not.toBeNull();
    fireEvent.click(start);
    expect(await screen.findByText('Backfill in Progress: 120 posts collected, 0 of 1 source finished.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start backfill' })).not.toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({ start: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), end: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });

  it('trial users without free backfills get the trial modal; others the estimate modal', async () => {
    open({ freeBackfills: false }, true);
    expect(await screen.findByText('Historical data is not included in the trial.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See plans' })).toBeInTheDocument();
    cleanup();
    open({ freeBackfills: false }, false);
    await waitFor(() => expect(document.querySelector('[data-mode="estimate"]')).not.toBeNull());
    expect(screen.getByRole('link', { name: 'Request an estimate' })).toHaveAttribute('href', '/contact-us?product=historical-data');
  });
});

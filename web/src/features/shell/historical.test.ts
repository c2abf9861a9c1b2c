import { describe, expect, it } from 'vitest';
import type { CollectionJob } from '../../api/queries/collection';
import { backfillProgress, historicalButton, historicalMode } from './historical';

const job = (over: Partial<CollectionJob>): CollectionJob => ({
  id: 1, connector: 'twitter', label: 'X', kind: 'backfill', state: 'active', running: false, attempts: 0, pages: 0, postsFetched: 0,
  rangeStart: 100, rangeEnd: 200, ...over,
});

describe('historical data', () => {
  it('free backfills first, then trial, otherwise estimate', () => {
    expect(historicalMode(true, false)).toBe('backfill');
    expect(historicalMode(true, true)).toBe('backfill');
    expect(historicalMode(false, true)).toBe('trial');
    expect(historicalMode(false, false)).toBe('estimate');
  });

  it('the header button reads Backfill in Progress and is inactive while one runs', () => {
    expect(historicalButton(true)).toEqual({ label: 'Backfill in Progress', disabled: true });
    expect(historicalButton(false)).toEqual({ label: 'Historical Data', disabled: false });
  });

  it('progress counts the running backfill’s sources and posts, or the last finished batch', () => {
    expect(backfillProgress([job({ kind: 'poll' })])).toBeNull();
    const running = [
      job({ id: 1, state: 'done', postsFetched: 40, rangeStart: 0, rangeEnd: 50 }),
      job({ id: 2, state: 'active', postsFetched: 10 }),
      job({ id: 3, state: 'done', postsFetched: 5, connector: 'reddit' }),
    ];
    expect(backfillProgress(running)).toEqual({ finished: 1, sources: 2, posts: 15, running: true });
    const done = running.map((j) => ({ ...j, state: 'done' as const }));
    expect(backfillProgress(done)).toEqual({ finished: 2, sources: 2, posts: 15, running: false });
  });
});

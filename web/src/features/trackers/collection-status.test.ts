import { describe, expect, it } from 'vitest';
import type { CollectionJob } from '../../api/queries/collection';
import { ago, backfillRangeError, defaultBackfill, estimateText, nextRun, rangeLabel } from './collection-status';

const job: CollectionJob = {
  id: 1, connector: 'twitter', label: 'X', kind: 'poll', state: 'active', running: false,
  nextRunAt: 0, attempts: 0, pages: 0, postsFetched: 0,
};

describe('collection status wording', () => {
  const now = 1_700_000_000_000;
  it('says how long ago', () => {
    expect(ago(null, now)).toBe('Never');
    expect(ago(now - 10_000, now)).toBe('just now');
    expect(ago(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(ago(now - 3 * 3_600_000, now)).toBe('3 h ago');
  });
  it('says when the next run is', () => {
    expect(nextRun({ ...job, nextRunAt: now + 4 * 60_000 }, now)).toBe('in 4 min');
    expect(nextRun({ ...job, nextRunAt: now }, now)).toBe('Due now');
    expect(nextRun({ ...job, running: true }, now)).toBe('Collecting now');
    expect(nextRun({ ...job, nextRunAt: null }, now)).toBe('Source switched off');
    expect(nextRun({ ...job, state: 'failed' }, now)).toBe('Stopped after repeated errors');
  });
});

describe('backfill range', () => {
  const now = Date.UTC(2026, 10, 21, 12);
  it('defaults to the two weeks before today', () => {
    expect(defaultBackfill(now)).toEqual({ start: '2026-11-07', end: '2026-11-20' });
  });
  it('checks the range', () => {
    expect(backfillRangeError('2026-11-07', '2026-11-20', now)).toBeNull();
    expect(backfillRangeError('', '2026-11-20', now)).toBe('Choose the first and the last day.');
    expect(backfillRangeError('2026-11-20', '2026-11-07', now)).toBe('The first day must not be after the last.');
    expect(backfillRangeError('2026-11-22', '2026-11-23', now)).toBe('The period must start in the past.');
    expect(backfillRangeError('2025-01-01', '2025-01-02', now)).toBe('A backfill reaches back 365 days at most.');
  });
  it('labels a window by its days', () => {
    expect(rangeLabel(Date.UTC(2026, 10, 1), Date.UTC(2026, 10, 15))).toBe('Nov 1 – Nov 14');
  });
});

describe('estimate text', () => {
  it('sums what could be counted and names the rest', () => {
    expect(estimateText({ total: 1234, complete: true, sources: [{ connector: 'twitter', label: 'X', estimate: 1234 }] })).toBe('About 1,234 posts.');
    expect(estimateText({ total: 5, complete: false, sources: [{ connector: 'twitter', label: 'X', estimate: 5 }, { connector: 'rss', label: 'Feeds', estimate: null }] }))
      .toBe('About 5 posts, plus what Feeds cannot count in advance.');
    expect(estimateText({ total: 0, complete: false, sources: [{ connector: 'rss', label: 'Feeds', estimate: null, error: null }] }))
      .toBe('No estimate available (Feeds cannot count in advance).');
  });
});

import { describe, expect, it } from 'vitest';
import type { CollectionJob } from '../../api/queries/collection';
import { ago, nextRun } from './collection-status';

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

import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  SHORTCUTS,
  activeShortcut,
  allTimeQuery,
  formatRange,
  includesToday,
  isDayDisabled,
  normalizePicked,
  pickedToQuery,
  rangeEnd,
  relativeWindow,
  resolveRange,
  shortcutState,
  trackerStart,
  type TrackerTimes,
} from './date-range';

const at = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) => new Date(y, m - 1, d, h, min, s, ms).getTime();
const NOW = at(2024, 3, 20, 15, 30);

const running: TrackerTimes = {
  created: at(2024, 3, 10, 9),
  firstDataPoint: at(2024, 3, 1, 12),
  status: 'running',
  lastCached: at(2024, 3, 20, 15),
  lastPaused: null,
};

describe('bounds', () => {
  it('start is the earlier of first data point and creation', () => {
    expect(trackerStart(running)).toBe(at(2024, 3, 1, 12));
    expect(trackerStart({ ...running, firstDataPoint: at(2024, 3, 15) })).toBe(at(2024, 3, 10, 9));
    expect(trackerStart({ ...running, firstDataPoint: null })).toBe(at(2024, 3, 10, 9));
  });

  it('end is now when running, and the later of lastCached/lastPaused when paused', () => {
    expect(rangeEnd(running, NOW)).toBe(NOW);
    const paused = { ...running, status: 'paused' as const, lastCached: at(2024, 3, 12, 8), lastPaused: at(2024, 3, 14, 10) };
    expect(rangeEnd(paused, NOW)).toBe(at(2024, 3, 14, 10));
    expect(rangeEnd({ ...paused, lastPaused: null }, NOW)).toBe(at(2024, 3, 12, 8));
  });

  it('paused relative windows end at 23:59:59 of the last cached day', () => {
    const paused = { ...running, status: 'paused' as const, lastCached: at(2024, 3, 12, 8), lastPaused: null };
    const w = relativeWindow(paused, 7, NOW);
    expect(w.end).toBe(at(2024, 3, 12, 23, 59, 59, 999));
    expect(w.start).toBe(w.end - 7 * DAY_MS);
    expect(relativeWindow(running, 7, NOW)).toEqual({ start: NOW - 7 * DAY_MS, end: NOW });
  });

  it('disables days before the tracker start and after the range end', () => {
    expect(isDayDisabled(new Date(2024, 1, 29), running, NOW)).toBe(true);
    expect(isDayDisabled(new Date(2024, 2, 1), running, NOW)).toBe(false);
    expect(isDayDisabled(new Date(2024, 2, 20), running, NOW)).toBe(false);
    expect(isDayDisabled(new Date(2024, 2, 21), running, NOW)).toBe(true);
    const paused = { ...running, status: 'paused' as const, lastCached: at(2024, 3, 12, 8) };
    expect(isDayDisabled(new Date(2024, 2, 12), paused, NOW)).toBe(false);
    expect(isDayDisabled(new Date(2024, 2, 13), paused, NOW)).toBe(true);
  });
});

describe('picked ranges', () => {
  it('start at 00:00:00.000 and end at 23:59:59.999 on a past day', () => {
    const r = normalizePicked(new Date(2024, 2, 5, 13), new Date(2024, 2, 8, 2), running, NOW);
    expect(r).toEqual({ start: at(2024, 3, 5), end: at(2024, 3, 8, 23, 59, 59, 999) });
  });

  it('end today becomes the current time', () => {
    const r = normalizePicked(new Date(2024, 2, 5), new Date(2024, 2, 20), running, NOW);
    expect(r.end).toBe(NOW);
  });

  it('clamps a start before the tracker start to it, and orders reversed picks', () => {
    const r = normalizePicked(new Date(2024, 1, 20), new Date(2024, 2, 3), running, NOW);
    expect(r.start).toBe(trackerStart(running));
    const rev = normalizePicked(new Date(2024, 2, 8), new Date(2024, 2, 5), running, NOW);
    expect(rev.start).toBe(at(2024, 3, 5));
    expect(pickedToQuery(new Date(2024, 1, 20), new Date(2024, 2, 3), running, NOW)).toEqual({
      start: '2024-03-01',
      end: '2024-03-03',
    });
  });

  it('clamps the end of a paused tracker to its range end', () => {
    const paused = { ...running, status: 'paused' as const, lastCached: at(2024, 3, 12, 8), lastPaused: null };
    expect(normalizePicked(new Date(2024, 2, 5), new Date(2024, 2, 12), paused, NOW).end).toBe(at(2024, 3, 12, 8));
  });

  it('resolves URL selections', () => {
    expect(resolveRange({ kind: 'custom', start: '2024-03-05', end: '2024-03-08' }, running, NOW)).toEqual({
      start: at(2024, 3, 5),
      end: at(2024, 3, 8, 23, 59, 59, 999),
    });
    expect(resolveRange({ kind: 'days', days: 14 }, running, NOW)).toEqual({ start: NOW - 14 * DAY_MS, end: NOW });
    expect(allTimeQuery(running, NOW)).toEqual({ start: '2024-03-01', end: '2024-03-20' });
  });
});

describe('shortcuts', () => {
  it('lists the spec shortcuts', () => {
    expect(SHORTCUTS.map((s) => [s.label, s.days])).toEqual([
      ['Past Day', 1],
      ['Past Week', 7],
      ['Past 2 Weeks', 14],
      ['Past Month', 30],
      ['Past 3 Months', 90],
      ['Past Year', 365],
      ['All Time', null],
    ]);
  });

  it('disables a shortcut starting before the tracker start, with the tooltip', () => {
    // tracker start Mar 1 12:00, now Mar 20 15:30: 19.1 days of data
    const state = (days: number | null) => shortcutState(running, SHORTCUTS.find((s) => s.days === days)!, NOW);
    expect(state(1)).toEqual({ disabled: false, tooltip: null });
    expect(state(14)).toEqual({ disabled: false, tooltip: null });
    expect(state(30)).toEqual({
      disabled: true,
      tooltip: 'This view will be available after the tracker has been running for 30 day(s).',
    });
    expect(state(365).tooltip).toBe('This view will be available after the tracker has been running for 365 day(s).');
    expect(state(null)).toEqual({ disabled: false, tooltip: null });
  });

  it('recognises the active shortcut', () => {
    expect(activeShortcut({ kind: 'days', days: 7 }, running, NOW)?.label).toBe('Past Week');
    expect(activeShortcut({ kind: 'days', days: 5 }, running, NOW)).toBeNull();
    expect(activeShortcut({ kind: 'custom', start: '2024-03-01', end: '2024-03-20' }, running, NOW)?.label).toBe('All Time');
  });
});

describe('labels', () => {
  it('shows the year only when the range crosses years', () => {
    expect(formatRange({ start: at(2024, 3, 5), end: at(2024, 3, 19) })).toBe('Mar 5 – Mar 19');
    expect(formatRange({ start: at(2023, 12, 20), end: at(2024, 1, 3) })).toBe('Dec 20, 2023 – Jan 3, 2024');
    expect(formatRange(null)).toBe('Pick a range');
  });

  it('knows whether a range reaches today', () => {
    expect(includesToday({ start: NOW - DAY_MS, end: NOW }, NOW)).toBe(true);
    expect(includesToday({ start: at(2024, 3, 1), end: at(2024, 3, 19, 23, 59, 59, 999) }, NOW)).toBe(false);
  });
});

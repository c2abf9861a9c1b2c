import { expect, it } from 'vitest';
import { formatCount, formatDateTime, formatDay, formatRelative } from './dates';

it('formats counts compactly', () => {
  expect(formatCount(950)).toBe('950');
  expect(formatCount(12_340)).toBe('12.3k');
  expect(formatCount(2_000)).toBe('2k');
  expect(formatCount(4_100_000)).toBe('4.1M');
  expect(formatCount(null)).toBe('0');
});

it('formats days and tolerates missing values', () => {
  expect(formatDay(Date.UTC(2024, 2, 5, 12))).toBe('Mar 5, 2024');
  expect(formatDay(null)).toBe('–');
});

it('formats an instant with its time, in a given zone when asked', () => {
  const t = Date.UTC(2025, 11, 1, 14, 30);
  expect(formatDateTime(t, { timeZone: 'UTC' })).toBe('Dec 1, 2025, 2:30 PM UTC');
  expect(formatDateTime(t, { timeZone: 'UTC', weekday: true })).toBe('Mon, Dec 1, 2025, 2:30 PM UTC');
  expect(formatDateTime(t, { timeZone: 'Europe/Paris' })).toBe('Dec 1, 2025, 3:30 PM GMT+1');
  expect(formatDateTime(t, { timeZone: 'Not/AZone' })).toMatch(/^Dec 1, 2025, /);
  expect(formatDateTime(null)).toBe('–');
});

it('says how long ago or how soon', () => {
  const now = Date.UTC(2025, 11, 1, 12);
  expect(formatRelative(now - 10_000, now)).toBe('just now');
  expect(formatRelative(now - 5 * 60_000, now)).toBe('5 min ago');
  expect(formatRelative(now - 3 * 3_600_000, now)).toBe('3 h ago');
  expect(formatRelative(now - 86_400_000, now)).toBe('1 day ago');
  expect(formatRelative(now - 3 * 86_400_000, now)).toBe('3 days ago');
  expect(formatRelative(now + 10 * 60_000, now)).toBe('in 10 min');
  expect(formatRelative(now + 2 * 86_400_000, now)).toBe('in 2 days');
  expect(formatRelative(undefined, now)).toBe('–');
});

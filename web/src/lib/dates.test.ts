import { expect, it } from 'vitest';
import { formatCount, formatDay } from './dates';

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

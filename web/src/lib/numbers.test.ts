import { describe, expect, it } from 'vitest';
import { formatMetric, formatRate } from './numbers';

describe('formatMetric', () => {
  it('keeps counts up to 10,000 whole and shortens larger ones', () => {
    expect(formatMetric(950)).toBe('950');
    expect(formatMetric(10_000)).toBe('10,000');
    expect(formatMetric(12_345)).toBe('12.3k');
    expect(formatMetric(4_100_000)).toBe('4.1M');
    expect(formatMetric(null)).toBe('-');
  });

  it('formats rates with one decimal', () => {
    expect(formatRate(3.14159)).toBe('3.1%');
    expect(formatRate(null)).toBe('-');
  });
});

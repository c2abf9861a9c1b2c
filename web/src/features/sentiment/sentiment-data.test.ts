import { describe, expect, it } from 'vitest';
import { emptyState } from '../../state/query-state';
import { SENTIMENT_LABELS } from '../posts';
import { overTimeOption, STACK_ORDER } from './chart-options';
import {
  ariaSort,
  brushRange,
  bucketShares,
  formatScore,
  formatSelection,
  formatShare,
  keywordUpdater,
  postsQuery,
  rangeText,
  reanalysisText,
  scoreTone,
  SORT_FIELD,
  tableFilter,
  tableFilterText,
  tableSort,
  toggleColumn,
  withSelection,
} from './sentiment-data';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Local midnight of a day of November 2024 (the formatting is in the viewer's zone). */
const nov = (d: number, h = 0, m = 0) => new Date(2024, 10, d, h, m).getTime();

describe('the selected period', () => {
  const filters = { platforms: 'twt,ig', days: 14, tz: 'Europe/Paris', subtracker: 2 };

  it('replaces the header window with the first and last millisecond', () => {
    const q = withSelection(filters, { start: nov(3, 10), end: nov(5, 19) - 1 });
    expect(q).toEqual({ platforms: 'twt,ig', tz: 'Europe/Paris', subtracker: 2, start: nov(3, 10), end: nov(5, 19) - 1 });
    expect(String(q.start)).toMatch(/^\d{13}$/);
    const custom = withSelection({ ...filters, days: undefined as never, start: '2024-11-01', end: '2024-11-30' }, { start: 1, end: 2 });
    expect(custom.start).toBe(1);
    expect(custom.end).toBe(2);
    expect(withSelection(filters, null)).toBe(filters);
  });

  const days = [nov(1), nov(2), nov(3), nov(4), nov(5)].map((t) => ({ t }));
  const bounds = { start: nov(1, 9), end: nov(5, 17) };

  it('covers the buckets brushed, from the first start to the millisecond before the next bucket', () => {
    expect(brushRange(days, [1, 2], bounds, 'day')).toEqual({ start: nov(2), end: nov(4) - 1 });
    // Either order, fractions rounded, out of range clamped.
    expect(brushRange(days, [2.4, 0.6], bounds, 'day')).toEqual({ start: nov(2), end: nov(4) - 1 });
    expect(brushRange(days, [-3, 0], bounds, 'day')).toEqual({ start: bounds.start, end: nov(2) - 1 });
  });

  it('stays within the range the answer resolved, and the last bucket ends with it', () => {
    expect(brushRange(days, [3, 9], bounds, 'day')).toEqual({ start: nov(4), end: bounds.end });
    // Without a resolved end the last bucket lasts its grouping.
    expect(brushRange(days, [4, 4], { start: null, end: null }, 'day')).toEqual({ start: nov(5), end: nov(5) + DAY - 1 });
    expect(brushRange(days.slice(0, 1), [0, 0], {}, 'hour')).toEqual({ start: nov(1), end: nov(1) + HOUR - 1 });
  });

  it('narrows nothing when the brush covers the whole range or there are no buckets', () => {
    expect(brushRange(days, [0, 4], bounds, 'day')).toBeNull();
    expect(brushRange([], [0, 1], bounds, 'day')).toBeNull();
    expect(brushRange(days, [NaN, 1], bounds, 'day')).toBeNull();
  });

  it('reads as the chip shows it', () => {
    const now = nov(20);
    expect(formatSelection({ start: nov(3, 10), end: nov(5, 18) }, now)).toBe('3 Nov 10:00 – 5 Nov 18:00');
    expect(formatSelection({ start: nov(3, 10), end: nov(5, 19) - 1 }, now)).toBe('3 Nov 10:00 – 5 Nov 18:59');
    // Whole days read as days; one day alone.
    expect(formatSelection({ start: nov(3), end: nov(6) - 1 }, now)).toBe('3 Nov – 5 Nov');
    expect(formatSelection({ start: nov(3), end: nov(4) - 1 }, now)).toBe('3 Nov');
    // Another year shows its year.
    expect(formatSelection({ start: nov(3), end: nov(4) - 1 }, new Date(2025, 0, 2).getTime())).toBe('3 Nov 2024');
  });
});

describe('score and buckets', () => {
  it('shows the score signed with two decimals and its tone', () => {
    expect(formatScore(0.3249)).toBe('+0.32');
    expect(formatScore(-0.05)).toBe('-0.05');
    expect(formatScore(-0.004)).toBe('0.00');
    expect(formatScore(0)).toBe('0.00');
    expect(formatScore(1)).toBe('+1.00');
    expect(scoreTone(0.32)).toBe('positive');
    expect(scoreTone(0.04)).toBe('neutral');
    expect(scoreTone(-0.05)).toBe('negative');
  });

  it('gives each bucket its share with one decimal', () => {
    const shares = bucketShares({ positive: 1, slightPositive: 1, neutral: 1, slightNegative: 0, negative: 0 });
    expect(shares).toEqual({ positive: 33.3, slight_positive: 33.3, neutral: 33.3, slight_negative: 0, negative: 0 });
    expect(bucketShares({ positive: 0, slightPositive: 0, neutral: 0, slightNegative: 0, negative: 0 }).positive).toBe(0);
    expect(formatShare(33.3)).toBe('33.3%');
    expect(formatShare(50)).toBe('50%');
  });

  it('stacks the five buckets per time bucket, negative at the bottom, with a legend from positive', () => {
    const points = [{ t: nov(1), positive: 3, slightPositive: 1, neutral: 2, slightNegative: 1, negative: 2 }];
    const o = overTimeOption(points, 'day', SENTIMENT_LABELS);
    expect(o.series.map((s) => s.name)).toEqual(STACK_ORDER.map((b) => SENTIMENT_LABELS[b]));
    expect(o.series.map((s) => s.data[0])).toEqual([2, 1, 2, 1, 3]);
    expect(o.series.every((s) => s.stack === 'sentiment')).toBe(true);
    expect(o.legend.data).toEqual(['Positive', 'Slightly Positive', 'Neutral', 'Slightly Negative', 'Negative']);
    expect(o.xAxis.data).toEqual(['1 Nov']);
    expect(o.brush).toMatchObject({ xAxisIndex: 0, brushType: 'lineX', brushMode: 'single' });
    expect(overTimeOption(points, 'hour', SENTIMENT_LABELS).xAxis.data).toEqual(['1 Nov 00:00']);
  });
});

describe('the posts table', () => {
  it('sorts by the spec fields', () => {
    expect(SORT_FIELD).toEqual({
      date: 'created_at',
      user: 'full_name',
      postText: 'post_text',
      engagements: 'rts_likes',
      reach: 'followers',
      sentimentScore: 'sentiment',
    });
  });

  it('reads the sort from the URL by column or field, newest first by default', () => {
    expect(tableSort(null)).toEqual({ column: 'date', direction: 'desc' });
    expect(tableSort({ type: 'reach', direction: 'asc' })).toEqual({ column: 'reach', direction: 'asc' });
    expect(tableSort({ type: 'rts_likes', direction: 'desc' })).toEqual({ column: 'engagements', direction: 'desc' });
    expect(tableSort({ type: 'bogus', direction: 'asc' })).toEqual({ column: 'date', direction: 'desc' });
  });

  it('flips the sorted column and starts another with its first direction', () => {
    const byDate = { column: 'date' as const, direction: 'desc' as const };
    expect(toggleColumn(byDate, 'date')).toEqual({ type: 'date', direction: 'asc' });
    expect(toggleColumn(byDate, 'user')).toEqual({ type: 'user', direction: 'asc' });
    expect(toggleColumn(byDate, 'postText')).toEqual({ type: 'postText', direction: 'asc' });
    expect(toggleColumn(byDate, 'engagements')).toEqual({ type: 'engagements', direction: 'desc' });
    expect(ariaSort(byDate, 'date')).toBe('descending');
    expect(ariaSort({ column: 'user', direction: 'asc' }, 'user')).toBe('ascending');
    expect(ariaSort(byDate, 'reach')).toBe('none');
  });

  it('asks for 20 posts a page with the period, sort, word and sentiment', () => {
    const view = withSelection({ platforms: 'twt', days: 14, tz: 'UTC' }, { start: nov(3), end: nov(4) - 1 });
    const q = postsQuery(view, {
      page: 2,
      sort: { column: 'engagements', direction: 'asc' },
      filter: { search: 'love', buckets: ['positive', 'slight_positive'], side: 'positive' },
    });
    expect(q).toEqual({
      platforms: 'twt',
      tz: 'UTC',
      start: nov(3),
      end: nov(4) - 1,
      page: 2,
      perPage: 20,
      sort: 'rts_likes;asc',
      search: 'love',
      sentiment: 'positive,slight_positive',
    });
    const plain = postsQuery({ platforms: 'twt', days: 7 }, { page: 0, sort: { column: 'date', direction: 'desc' }, filter: null });
    expect(plain).toEqual({ platforms: 'twt', days: 7, page: 1, perPage: 20, sort: 'created_at;desc' });
  });

  it('turns a keyword into a filter of its word and side, and the same keyword again clears it', () => {
    let s = { ...emptyState(), page: 3 };
    s = keywordUpdater('wonderful', 'positive')(s);
    expect(s).toMatchObject({ search: 'wonderful', sentiment: ['positive', 'slight_positive'], page: 1 });
    const f = tableFilter(s)!;
    expect(f).toEqual({ search: 'wonderful', buckets: ['positive', 'slight_positive'], side: 'positive' });
    expect(tableFilterText(f, SENTIMENT_LABELS)).toBe('Keyword: wonderful · Positive');
    // The other side's keyword replaces it.
    const neg = keywordUpdater('burnt', 'negative')(s);
    expect(neg).toMatchObject({ search: 'burnt', sentiment: ['slight_negative', 'negative'] });
    expect(keywordUpdater('Wonderful', 'positive')(s)).toMatchObject({ search: '', sentiment: [] });
  });

  it('describes other filters and none', () => {
    expect(tableFilter(emptyState())).toBeNull();
    const one = tableFilter({ search: '', sentiment: ['neutral'] })!;
    expect(one.side).toBeNull();
    expect(tableFilterText(one, SENTIMENT_LABELS)).toBe('Sentiment: Neutral');
    expect(tableFilterText(tableFilter({ search: 'cup', sentiment: [] })!, SENTIMENT_LABELS)).toBe('Keyword: cup');
    // All five buckets are no sentiment filter.
    expect(tableFilter({ search: '', sentiment: ['positive', 'slight_positive', 'neutral', 'slight_negative', 'negative'] })).toBeNull();
  });

  it('counts the rows shown', () => {
    expect(rangeText(1, 20, 54, false)).toBe('1–20 of 54 posts');
    expect(rangeText(3, 14, 54, false)).toBe('41–54 of 54 posts');
    expect(rangeText(1, 20, 10000, true)).toBe('1–20 of 10,000+ posts');
    expect(rangeText(1, 0, 0, false)).toBe('0 posts');
  });
});

describe('re-analysis progress', () => {
  it('reads queued, running and finishing', () => {
    expect(reanalysisText({ processed: 0, total: 0, removed: 0, done: false })).toBe('Re-analysis queued…');
    expect(reanalysisText({ processed: 12, total: 48, removed: 0, done: false })).toBe('Re-analyzing sentiment: 12 of 48 posts (25%)');
    expect(reanalysisText({ processed: 48, total: 48, removed: 0, done: true })).toBe('Updating the page…');
    expect(reanalysisText(null)).toBe('Updating the page…');
  });
});

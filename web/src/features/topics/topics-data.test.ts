import { describe, expect, it } from 'vitest';
import type { TopicSeries } from '../../api/queries/topics';
import {
  ariaSort,
  bucketRange,
  chartData,
  chartTerms,
  decodePath,
  encodePath,
  formatChange,
  formatDays,
  formatShare,
  formatTrend,
  hasViewParams,
  layerQuery,
  pageCount,
  pathLabel,
  postsQuery,
  rangeLabel,
  readView,
  seriesQuery,
  sparkPaths,
  termLabel,
  toggleTopicSort,
  topicSort,
  trendDirection,
  trendLevel,
  trendWords,
  viewSearch,
  windowText,
} from './topics-data';

const filters = { platforms: 'twt,ig', days: 14, tz: 'UTC' };

describe('paths', () => {
  it('encodes and decodes the API form', () => {
    const path = [
      { kind: 'word' as const, text: 'coffee' },
      { kind: 'hashtag' as const, text: 'brew' },
    ];
    expect(encodePath(path)).toBe('word:coffee,hashtag:brew');
    expect(decodePath('word:coffee,hashtag:brew')).toEqual(path);
    expect(encodePath([])).toBe('');
    expect(decodePath(null)).toEqual([]);
  });

  it('normalises terms and leaves out malformed ones, repeats and more than two', () => {
    expect(decodePath('hashtag:#Brew, word: Coffee ')).toEqual([
      { kind: 'hashtag', text: 'brew' },
      { kind: 'word', text: 'coffee' },
    ]);
    expect(decodePath('coffee,url:x,word:,word:tea')).toEqual([{ kind: 'word', text: 'tea' }]);
    expect(decodePath('word:tea,word:TEA,word:milk,word:sugar')).toEqual([
      { kind: 'word', text: 'tea' },
      { kind: 'word', text: 'milk' },
    ]);
    expect(decodePath(`word:${'a'.repeat(141)},word:ok`)).toEqual([{ kind: 'word', text: 'ok' }]);
    // A colon in the text stays in it.
    expect(decodePath('word:a:b')).toEqual([{ kind: 'word', text: 'a:b' }]);
  });

  it('labels terms and paths the way the page shows them', () => {
    expect(termLabel({ kind: 'hashtag', text: 'brew' })).toBe('#brew');
    expect(termLabel({ kind: 'word', text: 'coffee' })).toBe('coffee');
    expect(pathLabel([{ kind: 'word', text: 'coffee' }, { kind: 'hashtag', text: 'brew' }])).toBe('coffee › #brew');
    expect(pathLabel([])).toBe('');
  });
});

describe('the view in the URL', () => {
  it('reads the tab and path, defaulting to words of all topics', () => {
    expect(readView('')).toEqual({ kind: 'word', path: [] });
    expect(readView('?kind=hashtag&path=word%3Acoffee')).toEqual({ kind: 'hashtag', path: [{ kind: 'word', text: 'coffee' }] });
    expect(readView('?kind=nonsense').kind).toBe('word');
    expect(hasViewParams('?days=30')).toBe(false);
    expect(hasViewParams('?path=word%3Acoffee')).toBe(true);
  });

  it('writes the view beside the shared state, defaults left out, paging and sorting patched', () => {
    const search = '?days=30&platforms=twt&page=3&sort=trend%3Bdesc&shareHash=s1';
    const v = { kind: 'hashtag' as const, path: [{ kind: 'word' as const, text: 'coffee' }] };
    const q = new URLSearchParams(viewSearch(search, v, { page: 1 }));
    expect(q.get('days')).toBe('30');
    expect(q.get('platforms')).toBe('twt');
    expect(q.get('shareHash')).toBe('s1');
    expect(q.get('sort')).toBe('trend;desc');
    expect(q.has('page')).toBe(false);
    expect(q.get('kind')).toBe('hashtag');
    expect(q.get('path')).toBe('word:coffee');
    expect(readView(viewSearch(search, v))).toEqual(v);

    const back = new URLSearchParams(viewSearch(search, { kind: 'word', path: [] }, { sort: { type: 'count', direction: 'asc' }, page: 2 }));
    expect(back.has('kind')).toBe(false);
    expect(back.has('path')).toBe(false);
    expect(back.get('sort')).toBe('count;asc');
    expect(back.get('page')).toBe('2');
    expect(viewSearch('', { kind: 'word', path: [] })).toBe('');
  });
});

describe('sorting and paging', () => {
  it('takes the sorts the API knows, else posts highest first', () => {
    expect(topicSort(null)).toEqual({ type: 'count', direction: 'desc' });
    expect(topicSort({ type: 'engagement', direction: 'asc' })).toEqual({ type: 'count', direction: 'desc' });
    expect(topicSort({ type: 'trend', direction: 'asc' })).toEqual({ type: 'trend', direction: 'asc' });
  });

  it('flips the same column and starts another one highest first', () => {
    const s = { type: 'count', direction: 'desc' as const };
    expect(toggleTopicSort(s, 'count')).toEqual({ type: 'count', direction: 'asc' });
    expect(toggleTopicSort({ type: 'count', direction: 'asc' }, 'count')).toEqual({ type: 'count', direction: 'desc' });
    expect(toggleTopicSort(s, 'trend')).toEqual({ type: 'trend', direction: 'desc' });
    expect(ariaSort(s, 'count')).toBe('descending');
    expect(ariaSort({ type: 'count', direction: 'asc' }, 'count')).toBe('ascending');
    expect(ariaSort(s, 'trend')).toBe('none');
  });

  it('counts pages and labels the rows shown', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
    expect(rangeLabel(1, 20, 20, 30)).toBe('1–20 of 30');
    expect(rangeLabel(2, 20, 10, 30)).toBe('21–30 of 30');
    expect(rangeLabel(1, 20, 0, 0)).toBe('0 of 0');
    expect(rangeLabel(1, 20, 20, 12_345)).toBe('1–20 of 12,345');
  });
});

describe('request parameters', () => {
  const coffee = { kind: 'word' as const, text: 'coffee' };
  const brew = { kind: 'hashtag' as const, text: 'brew' };

  it('asks for a layer with the filters, tab, path, sort and page', () => {
    expect(layerQuery(filters, { kind: 'hashtag', path: [coffee] }, { type: 'trend', direction: 'asc' }, 2)).toEqual({
      ...filters,
      kind: 'hashtag',
      path: 'word:coffee',
      sort: 'trend;asc',
      page: 2,
    });
    expect(layerQuery(filters, { kind: 'word', path: [] }, { type: 'count', direction: 'desc' }, 1).path).toBeUndefined();
  });

  it('charts the first five topics of the page under the path', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f'].map((text) => ({ kind: 'word', text }));
    const terms = chartTerms(items);
    expect(terms.map((t) => t.text)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(seriesQuery(filters, [coffee], terms)).toEqual({ ...filters, path: 'word:coffee', items: 'word:a,word:b,word:c,word:d,word:e' });
    expect(seriesQuery(filters, [], [brew])).toEqual({ ...filters, path: undefined, items: 'hashtag:brew' });
  });

  it("lists a topic's posts under the range, a bucket's by its own first and last millisecond", () => {
    expect(postsQuery(filters, { kind: 'topic', path: [coffee, brew] })).toEqual({ ...filters, path: 'word:coffee,hashtag:brew' });
    const custom = { platforms: 'twt', start: '2026-01-01', end: '2026-01-31', tz: 'UTC', subtracker: 2 };
    expect(postsQuery(custom, { kind: 'bucket', path: [coffee], start: 1_767_225_600_000, end: 1_767_311_999_999, grouping: 'day' })).toEqual({
      platforms: 'twt',
      tz: 'UTC',
      subtracker: 2,
      start: 1_767_225_600_000,
      end: 1_767_311_999_999,
      path: 'word:coffee',
    });
    expect(postsQuery(filters, { kind: 'bucket', path: [], start: 1, end: 2, grouping: 'hour' })).toEqual({ platforms: 'twt,ig', tz: 'UTC', start: 1, end: 2, path: undefined });
  });
});

describe('figures', () => {
  it('shows shares as percents with one decimal', () => {
    expect(formatShare(0.125)).toBe('12.5%');
    expect(formatShare(1)).toBe('100.0%');
    expect(formatShare(0)).toBe('0.0%');
    expect(formatShare(0.00049)).toBe('0.0%');
    expect(formatShare(null)).toBe('-');
  });

  it('shows the share change signed, and New when the baseline never had the topic', () => {
    expect(formatChange(1.5)).toBe('+150%');
    expect(formatChange(-0.4)).toBe('-40%');
    expect(formatChange(0)).toBe('0%');
    expect(formatChange(0.001)).toBe('0%');
    expect(formatChange(19)).toBe('+1,900%');
    expect(formatChange(null)).toBe('New');
  });

  it('shows trend scores signed with one decimal, and reads their level and direction', () => {
    expect(formatTrend(4.237)).toBe('+4.2');
    expect(formatTrend(-2.06)).toBe('-2.1');
    expect(formatTrend(-4.25)).toBe('-4.3');
    expect(formatTrend(0)).toBe('0.0');
    expect(formatTrend(-0.01)).toBe('0.0');
    expect(trendLevel(4)).toBe('very');
    expect(trendLevel(-4.5)).toBe('very');
    expect(trendLevel(2)).toBe('unusual');
    expect(trendLevel(1.99)).toBe('usual');
    expect(trendDirection(0.5)).toBe('up');
    expect(trendDirection(-0.5)).toBe('down');
    expect(trendDirection(0)).toBe('flat');
    expect(trendWords(5)).toBe('Very unusual rise');
    expect(trendWords(-2.5)).toBe('Unusual fall');
    expect(trendWords(1)).toBe('Usual');
  });

  it('names the compared windows by day', () => {
    const d = (y: number, m: number, day: number, h = 12) => new Date(y, m - 1, day, h).getTime();
    expect(formatDays(d(2026, 11, 22), d(2026, 11, 25))).toBe('Nov 22 – Nov 25, 2026');
    expect(formatDays(d(2026, 11, 25, 1), d(2026, 11, 25, 23))).toBe('Nov 25, 2026');
    expect(formatDays(d(2025, 12, 30), d(2026, 1, 2))).toBe('Dec 30, 2025 – Jan 2, 2026');
    expect(
      windowText({ currentStart: d(2026, 11, 12), currentEnd: d(2026, 11, 25), baselineStart: d(2026, 10, 1), baselineEnd: d(2026, 11, 11), currentPosts: 1, baselinePosts: 1234 }),
    ).toBe('Trend compares Nov 12 – Nov 25, 2026 (1 post) with Oct 1 – Nov 11, 2026 (1,234 posts).');
  });

  it('draws sparklines inside their box, highest value at the top', () => {
    const { line, area } = sparkPaths([0, 2, 4], 100, 20, 0);
    expect(line).toBe('M0 20 L50 10 L100 0');
    expect(area).toBe('M0 20 L50 10 L100 0 L100 20 L0 20 Z');
    // All zero: a flat line on the floor; one value: a flat line across.
    expect(sparkPaths([0, 0], 10, 10, 0).line).toBe('M0 10 L10 10');
    expect(sparkPaths([3], 10, 10, 0).line).toBe('M0 0 L10 0');
    expect(sparkPaths([], 10, 10)).toEqual({ line: '', area: '' });
  });
});

describe('the chart', () => {
  const series: TopicSeries = {
    reason: null,
    grouping: 'day',
    buckets: [1000, 2000, 3000],
    lines: [
      { text: null, kind: null, points: [3, 2, 1] },
      { text: 'brew', kind: 'hashtag', points: [1, 0, 1] },
      { text: 'latte', kind: 'word', points: [0, 2, 0] },
    ],
  };

  it('draws the topics as lines, and the path’s posts below a picked path', () => {
    const top = chartData(series, []);
    expect(top.volume).toBeNull();
    expect(top.lines).toEqual([
      { name: '#brew', points: [1, 0, 1] },
      { name: 'latte', points: [0, 2, 0] },
    ]);
    const deeper = chartData(series, [{ kind: 'word', text: 'coffee' }, { kind: 'hashtag', text: 'morning' }]);
    expect(deeper.volume).toEqual({ name: 'All posts with coffee + #morning', points: [3, 2, 1] });
    expect(deeper.lines).toHaveLength(2);
  });

  it("gives a bucket's first and last millisecond, the last one by its grouping", () => {
    expect(bucketRange([1000, 2000, 3000], 0, 'day')).toEqual({ start: 1000, end: 1999 });
    expect(bucketRange([1000, 2000, 3000], 2, 'hour')).toEqual({ start: 3000, end: 3000 + 3_600_000 - 1 });
    expect(bucketRange([0], 0, 'week')).toEqual({ start: 0, end: 7 * 86_400_000 - 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../state/query-state';
import {
  ariaSort,
  displayName,
  formatAverage,
  formatCount,
  formatEngagementRate,
  handle,
  hasPageFilters,
  influencerParams,
  influencersCsvUrl,
  influencerSort,
  pageCount,
  perPageOf,
  rangeLabel,
  safeHttpUrl,
  stepPost,
  toggleSort,
  truncatePostText,
} from './influencers-data';
import { row } from './fixtures';

describe('sorting', () => {
  it('falls back to engagement;desc for a missing or foreign sort', () => {
    expect(influencerSort(null)).toEqual({ type: 'engagement', direction: 'desc' });
    expect(influencerSort({ type: 'created_at', direction: 'asc' })).toEqual({ type: 'engagement', direction: 'desc' });
    expect(influencerSort({ type: 'followers', direction: 'asc' })).toEqual({ type: 'followers', direction: 'asc' });
  });

  it('flips the direction of the current column and starts others with their first direction', () => {
    const cur = { type: 'engagement', direction: 'desc' as const };
    expect(toggleSort(cur, 'engagement')).toEqual({ type: 'engagement', direction: 'asc' });
    expect(toggleSort({ type: 'engagement', direction: 'asc' }, 'engagement')).toEqual({ type: 'engagement', direction: 'desc' });
    expect(toggleSort(cur, 'followers')).toEqual({ type: 'followers', direction: 'desc' });
    expect(toggleSort(cur, 'name')).toEqual({ type: 'name', direction: 'asc' });
  });

  it('tells assistive tech which column sorts and how', () => {
    const cur = { type: 'reach', direction: 'asc' as const };
    expect(ariaSort(cur, 'reach')).toBe('ascending');
    expect(ariaSort({ ...cur, direction: 'desc' }, 'reach')).toBe('descending');
    expect(ariaSort(cur, 'posts')).toBe('none');
  });
});

describe('request parameters', () => {
  it('carry the sort, search and advanced filters under the URL keys', () => {
    const q = parseQuery('search=rust&bio=dev&location=Paris&followers_count=100&followers_op=lesser&posts_count=3&sort=reach;asc');
    expect(influencerParams(q)).toEqual({
      sort: 'reach;asc',
      search: 'rust',
      bio: 'dev',
      location: 'Paris',
      followers_count: 100,
      followers_op: 'lesser',
      posts_count: 3,
      posts_op: 'greater',
    });
    expect(influencerParams(parseQuery(''))).toEqual({ sort: 'engagement;desc' });
  });

  it('know when a search or filter is set', () => {
    expect(hasPageFilters(parseQuery(''))).toBe(false);
    expect(hasPageFilters(parseQuery('search=a'))).toBe(true);
    expect(hasPageFilters(parseQuery('impressions_count=0'))).toBe(true);
  });

  it('keep perPage within what the API serves', () => {
    expect(perPageOf(parseQuery(''))).toBe(25);
    expect(perPageOf(parseQuery('perPage=500'))).toBe(100);
    expect(perPageOf(parseQuery('perPage=10'))).toBe(10);
  });

  it('build the CSV address without paging', () => {
    const url = influencersCsvUrl('a b', { days: 30, platforms: 'twt,ig', page: 2, perPage: 25, sort: 'engagement;desc', search: '', bio: undefined });
    expect(url).toBe('/api/v1/trackers/a%20b/influencers/export.csv?days=30&platforms=twt%2Cig&sort=engagement%3Bdesc');
    expect(influencersCsvUrl('h', {})).toBe('/api/v1/trackers/h/influencers/export.csv');
  });
});

describe('paging', () => {
  it('counts pages and labels the shown range', () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
    expect(rangeLabel(1, 25, 25, 1234)).toBe('1–25 of 1,234');
    expect(rangeLabel(2, 25, 1, 26)).toBe('26–26 of 26');
    expect(rangeLabel(1, 25, 0, 0)).toBe('0 of 0');
  });
});

describe('figures', () => {
  it('shorten counts above 10,000 and show - when empty', () => {
    expect(formatCount(10_000)).toBe('10,000');
    expect(formatCount(12_345)).toBe('12.3k');
    expect(formatCount(null)).toBe('-');
    expect(formatAverage(12.345)).toBe('12.3');
    expect(formatAverage(2)).toBe('2');
    expect(formatAverage(25_600.4)).toBe('25.6k');
    expect(formatAverage(undefined)).toBe('-');
    expect(formatEngagementRate(3.456)).toBe('3.5%');
    expect(formatEngagementRate(null)).toBe('-');
  });
});

describe('accounts', () => {
  it('name anonymised facebook accounts as Facebook user without handle', () => {
    const fb = row({ platform: 'facebook', anonymized: true, name: '', username: '' });
    expect(displayName(fb)).toBe('Facebook user');
    expect(handle(fb)).toBe('');
    expect(displayName(row({ name: '' }))).toBe('alice');
    expect(handle(row())).toBe('@alice');
    expect(handle(row({ platform: 'news', username: 'example.com' }))).toBe('example.com');
  });

  it('link only http(s) addresses', () => {
    expect(safeHttpUrl('https://x.com/alice')).toBe('https://x.com/alice');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
  });
});

describe('account posts', () => {
  it('cut post text over 400 characters to 397 and an ellipsis', () => {
    const exact = 'a'.repeat(400);
    expect(truncatePostText(exact)).toBe(exact);
    const long = 'b'.repeat(401);
    const cut = truncatePostText(long);
    expect(cut).toBe(`${'b'.repeat(397)}…`);
    expect(Array.from(cut)).toHaveLength(398);
    // Characters, not UTF-16 units: an emoji is not split.
    expect(truncatePostText('😀'.repeat(401))).toBe(`${'😀'.repeat(397)}…`);
  });

  it('step Prev and Next across pages and stop at the ends', () => {
    expect(stepPost({ page: 1, index: 0 }, -1, 50, 120, 50)).toBeNull();
    expect(stepPost({ page: 1, index: 0 }, 1, 50, 120, 50)).toEqual({ page: 1, index: 1 });
    expect(stepPost({ page: 1, index: 49 }, 1, 50, 120, 50)).toEqual({ page: 2, index: 0 });
    expect(stepPost({ page: 2, index: 0 }, -1, 50, 120, 50)).toEqual({ page: 1, index: 49 });
    expect(stepPost({ page: 3, index: 19 }, 1, 20, 120, 50)).toBeNull();
    expect(stepPost({ page: 1, index: 2 }, 1, 3, 3, 50)).toBeNull();
  });
});

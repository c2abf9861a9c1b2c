import { describe, expect, it } from 'vitest';
import { autoRefreshOn, bucketRange, nextRefreshFrequency, shares, sideGrouping, timelineSeries, truncate } from './data';
import { fullOrder, groupsFor, moveChart, PANELS } from './panels';
import { rangeOf } from './SideView';

describe('refresh rules', () => {
  it('moves by 5 s within 60–120 s: slower without change, faster with change', () => {
    expect(nextRefreshFrequency(60, false)).toBe(65);
    expect(nextRefreshFrequency(60, true)).toBe(60);
    expect(nextRefreshFrequency(120, false)).toBe(120);
    expect(nextRefreshFrequency(100, true)).toBe(95);
  });

  it('runs only while the tracker runs and the range is relative or ends today', () => {
    const now = new Date(2024, 4, 10, 12).getTime();
    expect(autoRefreshOn('running', { kind: 'days', days: 14 }, now)).toBe(true);
    expect(autoRefreshOn('paused', { kind: 'days', days: 14 }, now)).toBe(false);
    expect(autoRefreshOn('running', { kind: 'custom', start: '2024-05-01', end: '2024-05-10' }, now)).toBe(true);
    expect(autoRefreshOn('running', { kind: 'custom', start: '2024-05-01', end: '2024-05-09' }, now)).toBe(false);
  });
});

describe('timeline shaping', () => {
  const b = (t: number, posts: number, engagement: number) => ({ t, posts, engagement, reach: 0, impressions: 0 });
  it('keeps counts or runs totals, with the chosen ERI metric', () => {
    const buckets = [b(1, 2, 10), b(2, 0, 5), b(3, 3, 1)];
    expect(timelineSeries(buckets, null, false).map((p) => p.posts)).toEqual([2, 0, 3]);
    expect(timelineSeries(buckets, null, true).map((p) => p.posts)).toEqual([2, 2, 5]);
    expect(timelineSeries(buckets, 'Engagements', true).map((p) => p.eri)).toEqual([10, 15, 16]);
    expect(timelineSeries(buckets, null, false)[0].eri).toBeNull();
  });

  it('opens a bucket as its precise range and maps the side-view grouping', () => {
    expect(bucketRange([{ t: 100 }, { t: 200 }], 0, 50)).toEqual({ start: 100, end: 199 });
    expect(bucketRange([{ t: 100 }, { t: 200 }], 1, 50)).toEqual({ start: 200, end: 249 });
    expect(sideGrouping('minutes')).toBe('hour');
    expect(sideGrouping('week')).toBe('day');
    expect(sideGrouping('month')).toBe('month');
    const day = rangeOf(new Date(2024, 0, 15, 13, 45).getTime(), 'day');
    expect(day.start).toBe(new Date(2024, 0, 15).getTime());
    expect(day.end).toBe(new Date(2024, 0, 16).getTime() - 1);
  });

  it('shares and truncation', () => {
    expect(shares([1, 1, 2])).toEqual([25, 25, 50]);
    expect(shares([0, 0])).toEqual([0, 0]);
    expect(truncate('a'.repeat(201))).toBe('a'.repeat(200) + '…');
    expect(truncate('short')).toBe('short');
  });
});

describe('requests and customization', () => {
  it('asks for geography, sources, post types and viewer sentiment only with their platforms', () => {
    expect(groupsFor(['yt'])).not.toContain('locations');
    expect(groupsFor(['yt'])).toContain('viewerSentiments');
    expect(groupsFor(['yt'])).not.toContain('devices');
    expect(groupsFor(['twt'])).toEqual(expect.arrayContaining(['locations', 'devices', 'postTypes']));
    expect(groupsFor(['news'])).not.toContain('viewerSentiments');
    expect(groupsFor(['news'])).toContain('locations');
  });

  it('fills the saved order with every panel and moves by drag and drop', () => {
    const order = fullOrder({ order: [{ chart: 'demographics', hide: true }, { chart: 'gone', hide: false }] });
    expect(order.length).toBe(PANELS.length);
    expect(order[0]).toEqual({ chart: 'demographics', hide: true });
    const moved = moveChart(order, 'posts', 'demographics');
    expect(moved[0].chart).toBe('posts');
    expect(moved[1].chart).toBe('demographics');
    expect(moveChart(order, 'posts', 'nope')).toBe(order);
  });
});

import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TopicItem, TopicLayer, TopicPost, TopicPosts, TopicSeries } from '../../api/queries/topics';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { TrackerShell } from '../shell';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { SIDE_VIEW_ERROR } from './topics-data';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// jsdom draws no canvas: the chart library is replaced by a stand-in that keeps the last option
// and lets a test click a point of the plot.
const chartMock = vi.hoisted(() => {
  const state = {
    option: null as Record<string, unknown> | null,
    zrClick: null as ((e: { offsetX: number; offsetY: number }) => void) | null,
  };
  const instance = {
    on: () => undefined,
    getZr: () => ({
      on: (name: string, fn: (e: { offsetX: number; offsetY: number }) => void) => {
        if (name === 'click') state.zrClick = fn;
      },
      setCursorStyle: () => undefined,
    }),
    setOption: (o: Record<string, unknown>) => {
      state.option = o;
    },
    resize: () => undefined,
    dispose: () => undefined,
    // The plot is 100 px a bucket from x = 0.
    containPixel: () => true,
    convertFromPixel: (_f: unknown, [x, y]: number[]) => [Math.floor(x / 100), y],
  };
  return { state, instance };
});

vi.mock('../dashboard/charts/Chart', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../dashboard/charts/Chart')>()),
  loadCharts: () => Promise.resolve({ echarts: { init: () => chartMock.instance } }),
}));

const tracker = trackerFixture();
const BASE = `/trackers/${tracker.hash}/topics`;
const PAGE_URL = `/hashtag-tracking/trending-topics/${tracker.hash}/${tracker.friendly}`;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 12);

function item(text: string, over: Partial<TopicItem> = {}): TopicItem {
  return { text, kind: 'word', count: 10, share: 0.1, trend: 0, change: 0, spark: [1, 2, 3], ...over };
}

function layer(over: Partial<TopicLayer> = {}): TopicLayer {
  return {
    reason: null,
    kind: 'word',
    posts: 40,
    total: 3,
    page: 1,
    perPage: 20,
    grouping: 'day',
    buckets: [T0, T0 + DAY, T0 + 2 * DAY],
    items: [
      item('coffee', { count: 12_345, share: 1, trend: 5.25, change: 1.5 }),
      item('<b>latte</b>', { count: 24, share: 0.6, trend: -2.4, change: -0.4 }),
      item('newcomer', { count: 6, share: 0.125, trend: 3, change: null }),
    ],
    window: { currentStart: T0, currentEnd: T0 + 3 * DAY - 1, baselineStart: T0 - 12 * DAY, baselineEnd: T0 - 1, currentPosts: 40, baselinePosts: 1234 },
    ...over,
  };
}

function series(c: ApiCall): TopicSeries {
  const items = (c.query.get('items') ?? '').split(',').filter(Boolean);
  return {
    reason: null,
    grouping: 'day',
    buckets: [T0, T0 + DAY, T0 + 2 * DAY],
    lines: [{ text: null, kind: null, points: [4, 5, 6] }, ...items.map((i) => ({ kind: i.split(':')[0], text: i.split(':')[1], points: [1, 0, 2] }))],
  };
}

function post(n: number, over: Partial<TopicPost> = {}): TopicPost {
  return {
    id: n,
    platform: 'twitter',
    externalId: `p${n}`,
    createdAt: T0 + n * 60_000,
    authorUsername: `fan${n}`,
    authorName: `Fan ${n}`,
    authorAvatar: null,
    authorFollowers: 0,
    text: `coffee post ${n}`,
    title: null,
    url: `https://x.com/fan${n}/status/${n}`,
    likes: n,
    shares: 0,
    comments: 0,
    views: 0,
    dislikes: 0,
    engagement: n,
    sentiment: 'neutral',
    ...over,
  };
}

type Answer = { status?: number; body?: unknown };

function open({
  url = PAGE_URL,
  list = () => ({ body: layer() }),
  posts = (c) => {
    const page = Number(c.query.get('page') ?? 1);
    const body: TopicPosts = { reason: null, total: 25, page, perPage: 20, posts: Array.from({ length: page === 1 ? 20 : 5 }, (_, i) => post((page - 1) * 20 + i + 1)) };
    return { body };
  },
  t = tracker,
}: {
  url?: string;
  list?: (c: ApiCall) => Answer | Promise<Answer>;
  posts?: (c: ApiCall) => Answer;
  t?: typeof tracker;
} = {}) {
  const calls = mockApi({
    'GET /me': () => ({ body: meFixture() }),
    [`GET /trackers/${t.hash}`]: () => ({ body: t }),
    [`GET /trackers/${t.hash}/total-posts`]: () => ({ body: { count: { posts: 12 } } }),
    [`GET ${BASE}`]: list,
    [`GET ${BASE}/series`]: (c) => ({ body: series(c) }),
    [`GET ${BASE}/posts`]: posts,
    // The dashboard a redirect lands on.
    [`GET /trackers/${t.hash}/dashboard/top-stats`]: () => ({ body: { posts: 0, users: 0, engagement: 0, reach: 0, impressions: 0, engagementRate: null } }),
  });
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  return calls;
}

const layerCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === BASE);
const location = () => screen.getByTestId('location').textContent ?? '';
const table = () => screen.findByTestId('topics-table', {}, { timeout: 5000 });
const rowOf = (label: string) => document.querySelector(`tr[data-topic="${label}"]`) as HTMLElement;
const crumbs = () => screen.getByTestId('topic-breadcrumb').textContent?.replace(/\s+/g, ' ').trim();

describe('trending topics page', () => {
  it('lists the layer with formatted figures, topic text as text, and asks with the page filters', async () => {
    const calls = open();
    await table();
    const coffee = rowOf('coffee');
    expect(within(coffee).getByTestId('topic-count')).toHaveTextContent('12.3k');
    expect(within(coffee).getByTestId('topic-share')).toHaveTextContent('100.0%');
    expect(within(coffee).getByTestId('trend-score')).toHaveTextContent('▲+5.3');
    expect(within(coffee).getByTestId('share-change')).toHaveTextContent('+150%');
    expect(within(coffee).getByText(/Very unusual rise: trend score \+5\.3/)).toBeInTheDocument();
    const latte = rowOf('<b>latte</b>');
    expect(within(latte).getByTestId('topic-link')).toHaveTextContent('<b>latte</b>');
    expect(latte.querySelector('b')).toBeNull();
    expect(within(latte).getByTestId('trend-score')).toHaveTextContent('▼-2.4');
    expect(within(latte).getByTestId('share-change')).toHaveTextContent('-40%');
    expect(within(rowOf('newcomer')).getByTestId('share-change')).toHaveTextContent('New');
    expect(screen.getByTestId('topics-range')).toHaveTextContent('1–3 of 3 topics');
    expect(screen.getByTestId('layer-posts')).toHaveTextContent('40 posts in this range');
    expect(screen.getByTestId('trend-legend')).toHaveTextContent(
      "Trend score: how unusual the topic's share of posts is now against the tracker's earlier posts; above 2 is unusual, above 4 very unusual.",
    );
    expect(screen.getByTestId('trend-window')).toHaveTextContent(/Trend compares Nov 1[12] – Nov 1[34], 2026 \(40 posts\) with Oct 3[01] – Nov 1[01], 2026 \(1,234 posts\)\./);
    expect(screen.getByRole('columnheader', { name: 'Posts' })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('tab', { name: 'Words' })).toHaveAttribute('aria-selected', 'true');
    expect(crumbs()).toBe('All topics');

    const q = layerCalls(calls)[0].query;
    expect(q.get('kind')).toBe('word');
    expect(q.get('sort')).toBe('count;desc');
    expect(q.get('page')).toBe('1');
    expect(q.get('days')).toBe('14');
    // news is not one of the page's platforms.
    expect(q.get('platforms')).toBe('twt');
    expect(q.has('path')).toBe(false);

    // The chart: the first topics of the page, as lines only at the first layer.
    await waitFor(() => expect(calls.some((c) => c.path === `${BASE}/series`)).toBe(true));
    const s = calls.find((c) => c.path === `${BASE}/series`)!.query;
    expect(s.get('items')).toBe('word:coffee,word:<b>latte</b>,word:newcomer');
    expect(s.has('path')).toBe(false);
    expect(s.get('days')).toBe('14');
    const legend = await screen.findByTestId('chart-legend');
    expect(within(legend).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['coffee', '<b>latte</b>', 'newcomer']);
  });

  it('shows skeleton rows until the layer arrives', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    open({ list: async () => (await gate, { body: layer() }) });
    expect((await screen.findAllByTestId('skeleton-row', {}, { timeout: 5000 })).length).toBeGreaterThan(0);
    expect(screen.getByText('Loading topics…')).toBeInTheDocument();
    release();
    await table();
    expect(screen.queryByTestId('skeleton-row')).toBeNull();
  });

  it('sorts by posts and trend both ways through the URL, back on page 1', async () => {
    const calls = open({ url: `${PAGE_URL}?page=2`, list: () => ({ body: layer({ total: 45, page: 2 }) }) });
    await table();
    fireEvent.click(within(screen.getByTestId('topics-table')).getByRole('button', { name: 'Posts' }));
    await waitFor(() => expect(location()).toContain('sort=count%3Basc'));
    expect(location()).not.toContain('page=');
    await waitFor(() => expect(layerCalls(calls).at(-1)!.query.get('sort')).toBe('count;asc'));
    expect(screen.getByRole('columnheader', { name: 'Posts' })).toHaveAttribute('aria-sort', 'ascending');
    fireEvent.click(screen.getByRole('button', { name: 'Trend' }));
    await waitFor(() => expect(location()).toContain('sort=trend%3Bdesc'));
    expect(screen.getByRole('columnheader', { name: /Trend/ })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: 'Posts' })).toHaveAttribute('aria-sort', 'none');
    fireEvent.click(screen.getByRole('button', { name: 'Trend' }));
    await waitFor(() => expect(layerCalls(calls).at(-1)!.query.get('sort')).toBe('trend;asc'));
  });

  it('pages 20 at a time with Prev and Next', async () => {
    const calls = open({ list: (c) => ({ body: layer({ total: 45, page: Number(c.query.get('page')) }) }) });
    await table();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Prev' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(location()).toContain('page=2'));
    await waitFor(() => expect(screen.getByTestId('topics-range')).toHaveTextContent('21–23 of 45 topics'));
    expect(layerCalls(calls).at(-1)!.query.get('page')).toBe('2');
  });

  it('switches between words and hashtags by click and by the arrow keys', async () => {
    const calls = open({ list: (c) => ({ body: layer({ kind: c.query.get('kind')!, items: [item(c.query.get('kind') === 'hashtag' ? 'brew' : 'coffee', { kind: c.query.get('kind')! })] }) }) });
    await table();
    const hashtags = screen.getByRole('tab', { name: 'Hashtags' });
    expect(hashtags).toHaveAttribute('tabindex', '-1');
    fireEvent.click(hashtags);
    await waitFor(() => expect(location()).toContain('kind=hashtag'));
    await waitFor(() => expect(rowOf('#brew')).not.toBeNull());
    expect(layerCalls(calls).at(-1)!.query.get('kind')).toBe('hashtag');
    expect(screen.getByRole('tab', { name: 'Hashtags' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', 'topics-tab-hashtag');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Hashtags' }), { key: 'ArrowLeft' });
    await waitFor(() => expect(location()).not.toContain('kind='));
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Words' }));
    await waitFor(() => expect(rowOf('coffee')).not.toBeNull());
  });

  it('drills down two layers, the last without links, and back through the breadcrumb', async () => {
    const calls = open({
      list: (c) => {
        const path = c.query.get('path') ?? '';
        const kind = c.query.get('kind')!;
        const items = !path ? [item('coffee')] : path === 'word:coffee' ? [item('brew', { kind: 'hashtag' }), item('latte')] : [item('morning', { kind })];
        return { body: layer({ kind, items, total: items.length, posts: path ? 15 : 40 }) };
      },
    });
    await table();
    fireEvent.click(within(rowOf('coffee')).getByTestId('topic-link'));
    await waitFor(() => expect(location()).toContain('path=word%3Acoffee'));
    await waitFor(() => expect(rowOf('#brew')).not.toBeNull());
    expect(crumbs()).toBe('All topics › coffee');
    expect(screen.getByTestId('layer-posts')).toHaveTextContent('15 posts with coffee');
    expect(layerCalls(calls).at(-1)!.query.get('path')).toBe('word:coffee');
    // Deeper layers chart the path's own posts too.
    await waitFor(() => expect(calls.filter((c) => c.path === `${BASE}/series`).at(-1)!.query.get('path')).toBe('word:coffee'));
    expect(await within(await screen.findByTestId('chart-legend')).findByText('All posts with coffee')).toBeInTheDocument();

    const link = within(rowOf('#brew')).getByTestId('topic-link');
    expect(link).toHaveAttribute('href', expect.stringContaining('path=word%3Acoffee%2Chashtag%3Abrew'));
    fireEvent.click(link);
    await waitFor(() => expect(rowOf('morning')).not.toBeNull());
    expect(crumbs()).toBe('All topics › coffee › #brew');
    expect(layerCalls(calls).at(-1)!.query.get('path')).toBe('word:coffee,hashtag:brew');
    expect(screen.queryByTestId('topic-link')).toBeNull();
    expect(within(rowOf('morning')).getByTestId('topic-text')).toHaveTextContent('morning');

    fireEvent.click(within(screen.getByTestId('topic-breadcrumb')).getByRole('link', { name: 'coffee' }));
    await waitFor(() => expect(crumbs()).toBe('All topics › coffee'));
    expect(location()).toContain('path=word%3Acoffee');
    expect(location()).not.toContain('hashtag%3Abrew');
    fireEvent.click(within(screen.getByTestId('topic-breadcrumb')).getByRole('link', { name: 'All topics' }));
    await waitFor(() => expect(crumbs()).toBe('All topics'));
    expect(location()).not.toContain('path=');
  });

  it('opens a reloaded layer from the URL', async () => {
    const calls = open({ url: `${PAGE_URL}?kind=hashtag&path=word%3Acoffee%2Chashtag%3Abrew&sort=trend%3Basc&page=2` });
    await table();
    const q = layerCalls(calls)[0].query;
    expect(q.get('kind')).toBe('hashtag');
    expect(q.get('path')).toBe('word:coffee,hashtag:brew');
    expect(q.get('sort')).toBe('trend;asc');
    expect(q.get('page')).toBe('2');
    expect(crumbs()).toBe('All topics › coffee › #brew');
  });

  it("lists a topic's posts in the side view with Show More, and closes on Escape", async () => {
    const calls = open({ url: `${PAGE_URL}?path=word%3Aespresso` });
    await table();
    fireEvent.click(within(rowOf('coffee')).getByRole('button', { name: 'View posts mentioning coffee' }));
    const side = await screen.findByTestId('topic-side-view');
    expect(within(side).getByRole('heading')).toHaveTextContent('Posts mentioning espresso › coffee');
    await waitFor(() => expect(within(side).getAllByRole('listitem')).toHaveLength(20));
    expect(within(side).getByTestId('side-view-count')).toHaveTextContent('25 posts');
    expect(within(side).getByText('coffee post 1')).toBeInTheDocument();
    expect(within(side).getAllByRole('link', { name: 'View post' })[0]).toHaveAttribute('href', 'https://x.com/fan1/status/1');
    const asked = calls.filter((c) => c.path === `${BASE}/posts`);
    expect(asked[0].query.get('path')).toBe('word:espresso,word:coffee');
    expect(asked[0].query.get('days')).toBe('14');
    fireEvent.click(within(side).getByRole('button', { name: 'Show More' }));
    await waitFor(() => expect(within(side).getAllByRole('listitem')).toHaveLength(25));
    expect(within(side).queryByRole('button', { name: 'Show More' })).toBeNull();
    expect(calls.filter((c) => c.path === `${BASE}/posts`).at(-1)!.query.get('page')).toBe('2');
    fireEvent.keyDown(side, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('topic-side-view')).toBeNull());
  });

  it('lists a time bucket’s posts from the chart’s data table, under the path, by the bucket’s own range', async () => {
    const calls = open({ url: `${PAGE_URL}?path=word%3Acoffee&start=2026-11-12&end=2026-11-14` });
    await table();
    const chart = await screen.findByTestId('topic-trends-chart');
    fireEvent.click(within(chart).getAllByRole('button', { name: 'Posts' })[1]);
    const side = await screen.findByTestId('topic-side-view');
    expect(within(side).getByRole('heading')).toHaveTextContent(/^Posts from .+ with coffee$/);
    const q = calls.filter((c) => c.path === `${BASE}/posts`).at(-1)!.query;
    expect(q.get('start')).toBe(String(T0 + DAY));
    expect(q.get('end')).toBe(String(T0 + 2 * DAY - 1));
    expect(q.get('path')).toBe('word:coffee');
    expect(q.has('days')).toBe(false);
    expect(q.get('platforms')).toBe('twt');
  });

  it('opens the posts of the bucket clicked in the chart; the first layer draws lines, deeper ones the path as bars too', async () => {
    const seriesTypes = () => ((chartMock.state.option?.series ?? []) as { type: string; name: string }[]).map((x) => `${x.type}:${x.name}`);
    open();
    await table();
    await waitFor(() => expect(seriesTypes()).toEqual(['line:coffee', 'line:<b>latte</b>', 'line:newcomer']));
    cleanup();
    const calls = open({ url: `${PAGE_URL}?path=word%3Acoffee` });
    await table();
    await waitFor(() => expect(seriesTypes()[0]).toBe('bar:All posts with coffee'));
    // The third column of the plot: the last bucket, to the end of its day.
    act(() => chartMock.state.zrClick!({ offsetX: 250, offsetY: 10 }));
    const side = await screen.findByTestId('topic-side-view');
    expect(within(side).getByRole('heading')).toHaveTextContent(/^Posts from .+ with coffee$/);
    const q = calls.filter((c) => c.path === `${BASE}/posts`).at(-1)!.query;
    expect(q.get('start')).toBe(String(T0 + 2 * DAY));
    expect(q.get('end')).toBe(String(T0 + 3 * DAY - 1));
    expect(q.get('path')).toBe('word:coffee');
  });

  it('shows the one error sentence in the side view when its posts fail or there are none', async () => {
    open({ posts: () => ({ status: 500, body: { error: { code: 'internal', message: 'Internal error' } } }) });
    await table();
    fireEvent.click(screen.getByRole('button', { name: 'View posts mentioning coffee' }));
    const side = await screen.findByTestId('topic-side-view');
    expect(await within(side).findByRole('alert')).toHaveTextContent(SIDE_VIEW_ERROR);
    cleanup();
    open({ posts: () => ({ body: { reason: null, total: 0, page: 1, perPage: 20, posts: [] } }) });
    await table();
    fireEvent.click(screen.getByRole('button', { name: 'View posts mentioning coffee' }));
    expect(await within(await screen.findByTestId('topic-side-view')).findByRole('alert')).toHaveTextContent(SIDE_VIEW_ERROR);
  });

  it('asks the user to choose one of the page’s platforms when the API says none is chosen', async () => {
    open({ list: () => ({ body: layer({ reason: 'no platform chosen', posts: 0, total: 0, items: [], window: null, buckets: [] }) }) });
    const [main] = await screen.findAllByTestId('no-platform', {}, { timeout: 5000 });
    expect(main).toHaveTextContent('Choose a platform to see trending topics.');
    expect(main).toHaveTextContent('Trending topics are counted on Twitter posts: choose it in the platform filter above.');
    expect(screen.queryByTestId('topics-table')).toBeNull();
  });

  it('shows the server message with Try again when the layer fails', async () => {
    open({ list: () => ({ status: 400, body: { error: { code: 'invalid_query', message: 'A path holds at most 2 terms.' } } }) });
    const alert = await within(await screen.findByRole('tabpanel', {}, { timeout: 5000 })).findByRole('alert');
    expect(alert).toHaveTextContent('A path holds at most 2 terms.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows the empty states of a range without posts and of a layer without topics', async () => {
    open({ list: () => ({ body: layer({ posts: 0, total: 0, items: [] }) }) });
    expect(await within(await screen.findByRole('tabpanel', {}, { timeout: 5000 })).findByText("We couldn't find any posts.")).toBeInTheDocument();
    cleanup();
    open({ url: `${PAGE_URL}?kind=hashtag&path=word%3Acoffee`, list: () => ({ body: layer({ posts: 3, total: 0, items: [] }) }) });
    expect(await screen.findByText('No other hashtags appear with coffee.', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('is not shown for a tracker of news, blogs and forums only: the dashboard opens instead', async () => {
    const news = trackerFixture({ platforms: { twt: 0, ig: 0, yt: 0, fb: 0, tt: 0, news: 1, blogs: 1, forums: 0, bsky: 0, mastodon: 0 } });
    const calls = open({ t: news, url: `${PAGE_URL}?days=30` });
    await waitFor(() => expect(location()).toBe(`/hashtag-tracking/dashboard/${news.hash}/${news.friendly}?days=30`), { timeout: 5000 });
    expect(layerCalls(calls)).toHaveLength(0);
  });
});

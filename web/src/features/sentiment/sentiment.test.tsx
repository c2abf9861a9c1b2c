import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PostItem } from '../../api/queries/posts';
import type { SentimentKeywords, SentimentOverview } from '../../api/queries/sentiment';
import type { Tracker } from '../../api/types';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { postItem } from '../influencers/fixtures';
import { TrackerShell } from '../shell';
import { meFixture, trackerFixture } from '../trackers/fixtures';

// The chart library draws on a canvas jsdom lacks: a stand-in records what the page asks of it
// and lets a test end a brush as a drag across the chart would.
const chart = vi.hoisted(() => ({
  handlers: {} as Record<string, (p: unknown) => void>,
  options: [] as unknown[],
  actions: [] as { type: string }[],
}));
vi.mock('./echarts-brush', () => ({
  echarts: {
    init: () => ({
      on: (event: string, fn: (p: unknown) => void) => {
        chart.handlers[event] = fn;
      },
      setOption: (o: unknown) => chart.options.push(o),
      dispatchAction: (a: { type: string }) => chart.actions.push(a),
      resize: () => undefined,
      dispose: () => undefined,
    }),
  },
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  chart.handlers = {};
  chart.options = [];
  chart.actions = [];
});
beforeEach(() => {
  document.cookie = 'hark_csrf=tok123';
});

const tracker = trackerFixture();
const T = `/trackers/${tracker.hash}`;
const PAGE_URL = `/hashtag-tracking/sentiment/${tracker.hash}/${tracker.friendly}`;
const DAY = 86_400_000;
const t0 = Date.UTC(2024, 10, 1);

function overview(over: Partial<SentimentOverview> = {}): SentimentOverview {
  return {
    reason: null,
    score: 0.32,
    total: 25_000,
    counts: { positive: 12_345, slightPositive: 2_000, neutral: 6_655, slightNegative: 1_000, negative: 3_000 },
    grouping: 'day',
    points: [0, 1, 2, 3].map((i) => ({ t: t0 + i * DAY, positive: 10 + i, slightPositive: 2, neutral: 5, slightNegative: 1, negative: 3 })),
    start: t0,
    end: t0 + 4 * DAY - 1,
    ...over,
  };
}

function keywords(over: Partial<SentimentKeywords> = {}): SentimentKeywords {
  return {
    reason: null,
    positive: [
      { text: 'wonderful', kind: 'word', count: 120, total: 130, z: 5.2 },
      { text: '#latteart', kind: 'hashtag', count: 40, total: 42, z: 3.1 },
    ],
    negative: [{ text: 'burnt', kind: 'word', count: 90, total: 95, z: 4.4 }],
    positivePosts: 14_345,
    negativePosts: 4_000,
    posts: 25_000,
    ...over,
  };
}

const items: PostItem[] = [
  postItem(1, { post: { ...postItem(1).post, text: 'love this <b>wonderful</b> coffee' }, sentimentBucket: 'positive', engagement: 12_500, reach: 40 }),
  postItem(2, { sentimentBucket: 'negative' }),
];

type Answer = { status?: number; body?: unknown };

function open({
  t = tracker,
  sentiment = () => ({ body: overview() }),
  kw = () => ({ body: keywords() }),
  posts = () => ({ body: { posts: items, total: 45, totalCapped: false, page: 1, perPage: 20, lastVisited: null, canManage: true, canExport: true } }),
  routes = {},
  url = PAGE_URL,
}: {
  t?: Tracker;
  sentiment?: (c: ApiCall) => Answer;
  kw?: (c: ApiCall) => Answer;
  posts?: (c: ApiCall) => Answer;
  routes?: Record<string, (c: ApiCall) => Answer>;
  url?: string;
} = {}) {
  const calls = mockApi({
    'GET /me': () => ({ body: meFixture() }),
    [`GET ${T}`]: () => ({ body: t }),
    [`GET ${T}/total-posts`]: () => ({ body: { count: { posts: 12 } } }),
    [`GET ${T}/sentiment`]: sentiment,
    [`GET ${T}/sentiment/keywords`]: kw,
    [`GET ${T}/posts`]: posts,
    ...routes,
  });
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  return calls;
}

const of = (calls: ApiCall[], path: string) => calls.filter((c) => c.method === 'GET' && c.path === `${T}/${path}`);
const last = (calls: ApiCall[], path: string) => of(calls, path).at(-1)!;
const location = () => screen.getByTestId('location').textContent ?? '';
const table = () => screen.findByTestId('sentiment-posts-table', {}, { timeout: 10_000 });

describe('sentiment page', () => {
  it('shows the score, the buckets with counts and shares, the keywords and the posts', async () => {
    const calls = open();
    const score = await screen.findByTestId('sentiment-score', {}, { timeout: 10_000 });
    expect(score).toHaveTextContent('+0.32');
    expect(score).toHaveAttribute('data-tone', 'positive');
    expect(screen.getByTestId('sentiment-total')).toHaveTextContent('25k');
    expect(screen.getByTestId('count-positive')).toHaveTextContent('12.3k');
    expect(screen.getByTestId('share-positive')).toHaveTextContent('49.4%');
    expect(screen.getByTestId('count-slight_negative')).toHaveTextContent('1,000');
    expect(within(screen.getByRole('list', { name: 'Posts per sentiment' })).getByText('Slightly Positive')).toBeInTheDocument();
    // The three calls ask with the header's filters: the sentiment platforms and 14 days.
    for (const path of ['sentiment', 'sentiment/keywords', 'posts']) {
      const q = last(calls, path).query;
      expect(q.get('platforms')).toBe('twt');
      expect(q.get('days')).toBe('14');
    }
    expect(last(calls, 'posts').query.get('perPage')).toBe('20');
    expect(last(calls, 'posts').query.get('sort')).toBe('created_at;desc');
    expect(last(calls, 'posts').query.get('background')).toBe('1');
    // Keywords, hashtags as they are, counts short.
    const positive = await screen.findByRole('region', { name: 'Positive' });
    expect(within(positive).getByRole('button', { name: 'wonderful: 120 positive posts' })).toBeInTheDocument();
    expect(within(positive).getByRole('button', { name: '#latteart: 40 positive posts' })).toBeInTheDocument();
    expect(within(positive).getByText('14.3k positive posts')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Negative' })).getByText('burnt')).toBeInTheDocument();
    // Posts: text as text, counts short, the label of the sentiment.
    const t = await table();
    const row = t.querySelector('tr[data-post="twitter;p1"]') as HTMLElement;
    expect(within(row).getByText('love this <b>wonderful</b> coffee')).toBeInTheDocument();
    expect(within(row).getByText('12.5k')).toBeInTheDocument();
    expect(within(row).getByText('Positive')).toBeInTheDocument();
    expect(screen.getByTestId('sentiment-posts-range')).toHaveTextContent('1–2 of 45 posts');
    expect(screen.getByTestId('sentiment-page-of')).toHaveTextContent('Page 1 of 3');
    expect(screen.getByRole('button', { name: 'Edit Sentiment Keywords' })).toBeInTheDocument();
  });

  it('turns a brush across the chart into a period', async () => {
    const calls = open();
    await waitFor(() => expect(chart.handlers.brushEnd).toBeDefined(), { timeout: 10_000 });
    // Brushing is on without a toolbox button.
    await waitFor(() => expect(chart.actions).toContainEqual(expect.objectContaining({ type: 'takeGlobalCursor', key: 'brush' })));
    act(() => chart.handlers.brushEnd({ areas: [{ coordRange: [2, 1] }] }));
    await screen.findByTestId('selection-chip');
    await waitFor(() => {
      const q = last(calls, 'sentiment').query;
      expect(q.get('start')).toBe(String(t0 + DAY));
      expect(q.get('end')).toBe(String(t0 + 3 * DAY - 1));
    });
    // A click without a drag (no area) changes nothing.
    const before = calls.length;
    act(() => chart.handlers.brushEnd({ areas: [] }));
    expect(calls.length).toBe(before);
  });

  it('narrows every view to a selected period, and its chip removes it', async () => {
    const calls = open();
    await screen.findByTestId('sentiment-chart', {}, { timeout: 10_000 });
    // The data table's row selects one bucket without a pointer.
    fireEvent.click(screen.getByRole('button', { name: `Select ${new Date(t0 + DAY).getDate()} Nov 2024` }));
    const chip = await screen.findByTestId('selection-chip');
    expect(chip).toHaveTextContent(/^Selected: /);
    await waitFor(() => {
      for (const path of ['sentiment', 'sentiment/keywords', 'posts']) {
        const q = last(calls, path).query;
        expect(q.get('start')).toBe(String(t0 + DAY));
        expect(q.get('end')).toBe(String(t0 + 2 * DAY - 1));
        expect(q.has('days')).toBe(false);
        expect(q.get('platforms')).toBe('twt');
      }
    });
    fireEvent.click(within(chip).getByRole('button', { name: 'Remove the selected period' }));
    await waitFor(() => expect(screen.queryByTestId('selection-chip')).not.toBeInTheDocument());
    await waitFor(() => expect(last(calls, 'sentiment').query.get('days')).toBe('14'));
    expect(last(calls, 'posts').query.has('start')).toBe(false);
  });

  it('narrows the table to a keyword with its sentiment, and the chip clears it', async () => {
    const calls = open();
    fireEvent.click(await screen.findByRole('button', { name: 'burnt: 90 negative posts' }, { timeout: 10_000 }));
    await waitFor(() => expect(location()).toContain('search=burnt'));
    expect(location()).toContain('sentiment=slight_negative%2Cnegative');
    await waitFor(() => {
      const q = last(calls, 'posts').query;
      expect(q.get('search')).toBe('burnt');
      expect(q.get('sentiment')).toBe('slight_negative,negative');
    });
    // The score and keywords are not narrowed by it.
    expect(last(calls, 'sentiment').query.has('search')).toBe(false);
    const chip = await screen.findByTestId('table-filter-chip');
    expect(chip).toHaveTextContent('Keyword: burnt · Negative');
    expect(screen.getByRole('button', { name: 'burnt: 90 negative posts' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(within(chip).getByRole('button', { name: 'Clear the posts filter' }));
    await waitFor(() => expect(location()).not.toContain('search='));
    await waitFor(() => expect(last(calls, 'posts').query.has('search')).toBe(false));
  });

  it('sorts by a column both ways with aria-sort, and pages', async () => {
    const calls = open();
    await table();
    const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
    expect(header('Date')).toHaveAttribute('aria-sort', 'descending');
    fireEvent.click(within(header('Engagements')).getByRole('button'));
    await waitFor(() => expect(last(calls, 'posts').query.get('sort')).toBe('rts_likes;desc'));
    expect(location()).toContain('sort=engagements%3Bdesc');
    expect(header('Engagements')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Date')).toHaveAttribute('aria-sort', 'none');
    fireEvent.click(within(header('Engagements')).getByRole('button'));
    await waitFor(() => expect(last(calls, 'posts').query.get('sort')).toBe('rts_likes;asc'));
    expect(header('Engagements')).toHaveAttribute('aria-sort', 'ascending');
    for (const [name, field] of [
      ['User', 'full_name;asc'],
      ['Post', 'post_text;asc'],
      ['Reach', 'followers;desc'],
      ['Sentiment', 'sentiment;desc'],
    ]) {
      fireEvent.click(within(header(name)).getByRole('button'));
      await waitFor(() => expect(last(calls, 'posts').query.get('sort')).toBe(field));
    }
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(last(calls, 'posts').query.get('page')).toBe('2'));
  });

  it('opens a post in the detail side view', async () => {
    open();
    await table();
    fireEvent.click(screen.getByText('love this <b>wonderful</b> coffee'));
    const detail = await screen.findByTestId('post-detail');
    expect(within(detail).getByText('love this <b>wonderful</b> coffee')).toBeInTheDocument();
  });

  it('says so when no platform of the page is chosen', async () => {
    open({
      sentiment: () => ({ body: overview({ reason: 'no platform chosen', total: 0, score: 0, points: [], start: null, end: null }) }),
      kw: () => ({ body: keywords({ reason: 'no platform chosen', positive: [], negative: [], posts: 0 }) }),
    });
    const box = await screen.findByTestId('no-platform', {}, { timeout: 10_000 });
    expect(box).toHaveTextContent('No platform chosen');
    expect(screen.queryByTestId('sentiment-posts-table')).not.toBeInTheDocument();
  });

  it('shows empty states for a range without posts', async () => {
    open({
      sentiment: () => ({ body: overview({ total: 0, score: 0, counts: { positive: 0, slightPositive: 0, neutral: 0, slightNegative: 0, negative: 0 }, points: [] }) }),
      kw: () => ({ body: keywords({ positive: [], negative: [], posts: 0, positivePosts: 0, negativePosts: 0 }) }),
      posts: () => ({ body: { posts: [], total: 0, totalCapped: false, page: 1, perPage: 20, lastVisited: null, canManage: true, canExport: true } }),
    });
    expect(await screen.findByTestId('sentiment-score', {}, { timeout: 10_000 })).toHaveTextContent('0.00');
    expect(screen.getByText('No posts to score')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText("We couldn't find any posts.").length).toBe(3));
  });

  it('reports a failed call with a retry', async () => {
    let fail = true;
    const calls = open({
      sentiment: () => (fail ? { status: 500, body: { error: { code: 'internal', message: 'The database is unavailable.' } } } : { body: overview() }),
    });
    const alerts = await screen.findAllByRole('alert', {}, { timeout: 10_000 });
    expect(alerts[0]).toHaveTextContent('The database is unavailable.');
    fail = false;
    fireEvent.click(within(alerts[0]).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('sentiment-score')).toHaveTextContent('+0.32');
    expect(of(calls, 'sentiment').length).toBeGreaterThanOrEqual(2);
  });

  it('after Save and Reanalyze shows the progress, then refetches every view when it is done', async () => {
    let saved = false;
    let polls = 0;
    const running = { ...tracker, sentimentKeywords: { positive: [], neutral: [], negative: ['wonderful'] }, reanalysis: { processed: 0, total: 0, removed: 0, done: false } };
    const done = { ...running, reanalysis: { processed: 45, total: 45, removed: 0, done: true } };
    const calls = open({
      sentiment: () => ({ body: saved && polls > 1 ? overview({ score: -0.5 }) : overview() }),
      routes: {
        [`GET ${T}`]: () => {
          if (saved) polls += 1;
          return { body: saved ? (polls > 1 ? done : running) : tracker };
        },
        [`PUT ${T}/sentiment-keywords`]: () => {
          saved = true;
          return { body: running };
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Sentiment Keywords' }, { timeout: 10_000 }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Sentiment Keywords' }));
    const input = dialog.getByLabelText('Negative keyword 1');
    fireEvent.change(input, { target: { value: 'wonderful' } });
    fireEvent.blur(input);
    fireEvent.click(dialog.getByRole('button', { name: 'Save and Reanalyze' }));
    // The page's own progress line while the server works.
    expect(await screen.findByTestId('sentiment-reanalysis')).toHaveTextContent(/Re-analysis queued…|Updating the page…/);
    // The tracker is polled until done; then the score and the rest are asked again.
    await waitFor(() => expect(screen.getByTestId('sentiment-score')).toHaveTextContent('-0.50'), { timeout: 10_000 });
    await waitFor(() => expect(screen.queryByTestId('sentiment-reanalysis')).not.toBeInTheDocument());
    expect(await screen.findByText('Re-analysis done: the page shows the updated sentiment.')).toBeInTheDocument();
    expect(of(calls, 'sentiment/keywords').length).toBeGreaterThanOrEqual(2);
    expect(of(calls, 'posts').length).toBeGreaterThanOrEqual(2);
  }, 20_000);

  it('sends a news-only tracker to its dashboard', async () => {
    const news = trackerFixture({ platforms: { ...tracker.platforms, twt: 0 } });
    open({ t: news, routes: { [`GET /trackers/${news.hash}/dashboard/top-stats`]: () => ({ body: {} }) } });
    await waitFor(() => expect(location()).toBe(`/hashtag-tracking/dashboard/${news.hash}/${news.friendly}`), { timeout: 10_000 });
  });
});

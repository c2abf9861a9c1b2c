import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { TrackerShell } from '../shell';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const empty = {
  'top-stats': { posts: 0, users: 0, engagement: 0, reach: 0, impressions: 0, engagementRate: null },
  timeline: { grouping: 'hour', buckets: [], logs: [] },
  locations: { countries: [], states: [] },
  'top-posts': { posts: [] },
  sentiments: { positive: 0, neutral: 0, negative: 0, shareOfVoice: [] },
  devices: { items: [] },
  genders: { items: [] },
  'post-types': { items: [] },
  'viewer-sentiments': { likes: 0, dislikes: 0 },
  influencers: { byEngagement: [], byPosts: [] },
  topics: { hashtags: [], keywords: [] },
  'top-pages': { topWebsites: [], topDomains: [], topLinks: [] },
} as Record<string, unknown>;

function open(tracker = trackerFixture(), answers: Record<string, unknown> = {}) {
  const routes: Record<string, (c: ApiCall) => { body: unknown }> = {
    'GET /me': () => ({ body: meFixture() }),
    [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 12 } } }),
  };
  for (const [k, v] of Object.entries({ ...empty, ...answers })) {
    routes[`GET /trackers/${tracker.hash}/dashboard/${k}`] = () => ({ body: v });
  }
  const calls = mockApi(routes);
  renderRoute(<TrackerShell />, {
    path: '/hashtag-tracking/:page/:hash/:friendly?',
    url: `/hashtag-tracking/dashboard/${tracker.hash}/${tracker.friendly}`,
  });
  return calls;
}

const dashboardCalls = (calls: ApiCall[]) => calls.filter((c) => c.path.includes('/dashboard/')).map((c) => c.path.split('/').pop());

describe('dashboard', () => {
  it('asks only for the groups its platforms need and shows the numbers and empty states', async () => {
    const tracker = trackerFixture({ platforms: { twt: 0, ig: 0, yt: 1, fb: 0, tt: 0, news: 0, blogs: 0, forums: 0, bsky: 0, mastodon: 0 } });
    const calls = open(tracker, {
      'top-stats': { posts: 1234, users: 56, engagement: 789, reach: 1000, impressions: 5, engagementRate: 78.9 },
      'viewer-sentiments': { likes: 9, dislikes: 1 },
    });
    await waitFor(() => expect(screen.getByTestId('dashboard-grid')).toHaveAttribute('data-loading', ''), { timeout: 5000 });
    const asked = dashboardCalls(calls);
    // youtube only: no geography, no sources or post types, but viewer sentiment.
    expect(asked).toContain('viewer-sentiments');
    expect(asked).not.toContain('locations');
    expect(asked).not.toContain('devices');
    expect(asked).not.toContain('post-types');
    expect(screen.getByText('1,234')).toBeInTheDocument();
    expect(screen.getByText('78.9%')).toBeInTheDocument();
    // Single platform: every panel is 12 wide.
    const grid = screen.getByTestId('dashboard-grid');
    const sections = grid.querySelectorAll(':scope > section[data-panel]');
    for (const s of Array.from(sections)) expect(s.className).toContain('col-span-12');
    const titles = Array.from(sections).map((s) => s.querySelector('h2')!.textContent);
    expect(titles).toContain('Video Like/Dislike Ratio');
    // Location is listed but empty: geography is not requested without a location-bearing platform.
    const location = grid.querySelector('[data-panel="geography"]') as HTMLElement;
    expect(within(location).getByText("We couldn't find any posts.")).toBeInTheDocument();
    expect(titles).not.toContain('Top Devices and Apps');
    const posts = grid.querySelector('[data-panel="posts"]') as HTMLElement;
    expect(within(posts).getByText("We couldn't find any posts.")).toBeInTheDocument();
    expect(within(posts).getByText('Add more search terms or expand the date range to see more.')).toBeInTheDocument();
  });

  it('sends facebook=0 to the influencer query only when facebook is anonymised', async () => {
    const platforms = { twt: 1, ig: 0, yt: 0, fb: 1, tt: 0, news: 0, blogs: 0, forums: 0, bsky: 0, mastodon: 0 } as const;
    const plain = open(trackerFixture({ platforms }));
    await waitFor(() => expect(screen.getByTestId('dashboard-grid')).toHaveAttribute('data-loading', ''), { timeout: 5000 });
    expect(plain.find((c) => c.path.endsWith('/dashboard/influencers'))!.query.get('facebook')).toBeNull();
    cleanup();
    const calls = open(trackerFixture({ platforms, anonymizeFacebook: true }));
    await waitFor(() => expect(screen.getByTestId('dashboard-grid')).toHaveAttribute('data-loading', ''), { timeout: 5000 });
    const inf = calls.find((c) => c.path.endsWith('/dashboard/influencers'))!;
    expect(inf.query.get('facebook')).toBe('0');
    expect(dashboardCalls(calls)).toEqual(expect.arrayContaining(['locations', 'devices', 'post-types']));
  });

  it('narrows every group to the subtracker chosen in the header, kept in the URL', async () => {
    const tracker = trackerFixture({
      subtrackers: [
        { label: 'cargo', value: 'abc/cargo?subtracker=1' },
        { label: 'ships', value: 'abc/cargo?subtracker=2' },
      ],
    });
    const calls = open(tracker);
    await waitFor(() => expect(screen.getByTestId('dashboard-grid')).toHaveAttribute('data-loading', ''), { timeout: 5000 });
    expect(calls.filter((c) => c.path.includes('/dashboard/')).every((c) => !c.query.has('subtracker'))).toBe(true);
    const before = calls.length;
    fireEvent.change(screen.getByLabelText('Subtracker'), { target: { value: '2' } });
    await waitFor(() => expect(calls.slice(before).some((c) => c.path.endsWith('/dashboard/top-stats'))).toBe(true));
    const after = calls.slice(before).filter((c) => c.path.includes('/dashboard/'));
    expect(after.length).toBeGreaterThan(5);
    for (const c of after) expect(c.query.get('subtracker')).toBe('2');
    expect(screen.getByTestId('location')).toHaveTextContent('subtracker=2');
    expect((screen.getByLabelText('Subtracker') as HTMLSelectElement).value).toBe('2');
  });

  it('lists states under the countries of the Location panel', async () => {
    open(trackerFixture(), {
      locations: {
        countries: [{ country: 'US', numeric: '840', name: 'United States', count: 40 }],
        states: [
          { state: 'US-TX', name: 'Texas', country: 'US', count: 12 },
          { state: 'CA-ON', name: 'Ontario', country: 'CA', count: 3 },
        ],
      },
    });
    const states = await screen.findByRole('list', { name: 'States by posts' }, { timeout: 5000 });
    expect(states).toHaveTextContent('Texas');
    expect(states).toHaveTextContent('Ontario');
    expect(within(states).getAllByRole('listitem')).toHaveLength(2);
  });

  it('shows the preview state while the first sample is collected', async () => {
    open(trackerFixture({ isPreviewMode: true }));
    const preview = await screen.findByTestId('preview-mode');
    expect(preview).toHaveTextContent('Collecting posts...');
    expect(preview).toHaveTextContent('Wait for the magic to happen!');
  });
});

describe('the timeline’s Download CSV', () => {
  function openAt(search: string, tracker = trackerFixture(), me = meFixture()) {
    const routes: Record<string, (c: ApiCall) => { body: unknown }> = {
      'GET /me': () => ({ body: me }),
      [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
      [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 12 } } }),
    };
    for (const [k, v] of Object.entries(empty)) routes[`GET /trackers/${tracker.hash}/dashboard/${k}`] = () => ({ body: v });
    mockApi(routes);
    // The page's own address: reads (and download links) of a share-link visitor carry its link.
    const url = `/hashtag-tracking/dashboard/${tracker.hash}/${tracker.friendly}${search}`;
    window.history.replaceState(null, '', url);
    renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  }

  afterEach(() => window.history.replaceState(null, '', '/'));

  it('downloads the timeline of the dashboard’s filters and grouping', async () => {
    openAt('?days=30&grouping=week&platforms=twt');
    const timeline = await screen.findByRole('region', { name: 'Timeline' });
    const link = await within(timeline).findByRole('link', { name: 'Download CSV' });
    expect(link).toHaveAttribute('download');
    const url = new URL(link.getAttribute('href')!, 'http://localhost');
    expect(url.pathname).toBe('/api/v1/trackers/abc123/dashboard/timeline');
    expect(url.searchParams.get('format')).toBe('csv');
    expect(url.searchParams.get('grouping')).toBe('week');
    expect(url.searchParams.get('days')).toBe('30');
    expect(url.searchParams.get('platforms')).toBe('twt');
    expect(url.searchParams.get('tz')).toBeTruthy();
  });

  it('a share-link visitor with Export reports downloads through the link; without it there is none', async () => {
    const visitor = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false, permission: 0 });
    const link = (exportReports: boolean) =>
      trackerFixture({ permission: 1, isOwner: false, shared: true, linkSharing: { editDateRange: false, exportReports, viewPredictions: false } });
    openAt('?shareHash=s1', link(true), visitor);
    const timeline = await screen.findByRole('region', { name: 'Timeline' });
    const a = await within(timeline).findByRole('link', { name: 'Download CSV' });
    expect(new URL(a.getAttribute('href')!, 'http://localhost').searchParams.get('shareHash')).toBe('s1');
    cleanup();
    openAt('?shareHash=s1', link(false), visitor);
    const other = await screen.findByRole('region', { name: 'Timeline' });
    await waitFor(() => expect(screen.getByTestId('dashboard-grid')).toHaveAttribute('data-loading', ''), { timeout: 5000 });
    expect(within(other).queryByRole('link', { name: 'Download CSV' })).toBeNull();
  });
});

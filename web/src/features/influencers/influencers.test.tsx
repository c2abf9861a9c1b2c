import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InfluencerPage } from '../../api/queries/influencers';
import type { Tag } from '../../api/types';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { TrackerShell } from '../shell';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { postItem, row } from './fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const tracker = trackerFixture();
const BASE = `/trackers/${tracker.hash}/influencers`;
const PAGE_URL = `/hashtag-tracking/influencers/${tracker.hash}/${tracker.friendly}`;

const alice = row({
  key: 'twitter;alice',
  name: 'Alice <b>Liddell</b>',
  username: 'alice',
  bio: 'Rustacean <img src=x onerror=alert(1)>',
  location: 'Oxford',
  verified: true,
  posts: 12,
  engagement: 12_345,
  avgEngagement: 1028.75,
  followers: 2_500_000,
  reach: 9_999,
  engagementRate: 3.456,
  impressions: null,
  tags: [1],
});
const anon = row({ key: 'facebook;123', platform: 'facebook', author: '123', name: '', username: '', anonymized: true, engagementRate: null, impressions: 15_000 });

function page(over: Partial<InfluencerPage> = {}): InfluencerPage {
  return { total: 2, page: 1, perPage: 25, canTag: true, canExport: true, influencers: [alice, anon], ...over };
}

type Answer = { status?: number; body?: unknown };

function open({
  url = PAGE_URL,
  list = () => ({ body: page() }),
  tags = [{ id: 1, name: 'vip', color: '#c0392b' }],
  routes = {},
}: {
  url?: string;
  list?: (c: ApiCall) => Answer | Promise<Answer>;
  tags?: Tag[];
  routes?: Record<string, (c: ApiCall) => Answer>;
} = {}) {
  const calls = mockApi({
    'GET /me': () => ({ body: meFixture() }),
    [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 12 } } }),
    'GET /influencer-tags': () => ({ body: { tags } }),
    [`GET ${BASE}`]: list,
    [`GET ${BASE}/posts`]: () => ({ body: { influencer: null, total: 0, posts: [] } }),
    ...routes,
  });
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  return calls;
}

const listCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === BASE);
const location = () => screen.getByTestId('location').textContent ?? '';
const table = () => screen.findByTestId('influencers-table', {}, { timeout: 5000 });
const rowOf = (key: string) => document.querySelector(`tr[data-account="${key}"]`) as HTMLElement;

describe('influencers page', () => {
  it('lists accounts with formatted figures, text rendered as text, and asks with the defaults', async () => {
    const calls = open();
    await table();
    const r = rowOf('twitter;alice');
    expect(within(r).getByTestId('account-name').textContent).toBe('Alice <b>Liddell</b>');
    expect(within(r).getByText('Rustacean <img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(r.querySelector('img[src="x"]')).toBeNull();
    expect(within(r).getByText('@alice')).toBeInTheDocument();
    expect(within(r).getByText('Oxford')).toBeInTheDocument();
    expect(within(r).getByText('Verified')).toBeInTheDocument();
    const cells = Array.from(r.querySelectorAll('td')).map((td) => td.textContent);
    // Posts, Engagement, Avg. Engagement, Followers, Reach, Eng. Rate, Impressions
    expect(cells.slice(1, 8)).toEqual(['12', '12.3k', '1,028.8', '2.5M', '9,999', '3.5%', '-']);
    expect(await within(r).findByText('vip')).toBeInTheDocument();
    const fb = rowOf('facebook;123');
    expect(within(fb).getByTestId('account-name').textContent).toBe('Facebook user');
    expect(Array.from(fb.querySelectorAll('td')).map((td) => td.textContent).slice(6, 8)).toEqual(['-', '15k']);
    expect(screen.getByTestId('influencers-range')).toHaveTextContent('1–2 of 2 accounts');

    const q = listCalls(calls)[0].query;
    expect(q.get('page')).toBe('1');
    expect(q.get('perPage')).toBe('25');
    expect(q.get('sort')).toBe('engagement;desc');
    expect(q.get('days')).toBe('30');
    expect(q.get('platforms')).toBe('twt,news');
    const engagement = screen.getByRole('columnheader', { name: /^Engagement/ });
    expect(engagement).toHaveAttribute('aria-sort', 'descending');
  });

  it('shows skeleton rows until the first page arrives', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    open({ list: async () => (await gate, { body: page() }) });
    expect((await screen.findAllByTestId('skeleton-row', {}, { timeout: 5000 })).length).toBeGreaterThan(0);
    expect(screen.getByRole('status')).toHaveTextContent('Loading accounts…');
    release();
    await table();
    expect(screen.queryByTestId('skeleton-row')).toBeNull();
  });

  it('sorts by a clicked column through the URL, flipping on the second click, back to page 1', async () => {
    const calls = open({ url: `${PAGE_URL}?page=2`, list: () => ({ body: page({ total: 60, page: 2 }) }) });
    await table();
    fireEvent.click(screen.getByRole('button', { name: /^Followers/ }));
    await waitFor(() => expect(location()).toContain('sort=followers%3Bdesc'));
    expect(location()).not.toContain('page=');
    await waitFor(() => expect(listCalls(calls).at(-1)!.query.get('sort')).toBe('followers;desc'));
    expect(screen.getByRole('columnheader', { name: /^Followers/ })).toHaveAttribute('aria-sort', 'descending');
    fireEvent.click(screen.getByRole('button', { name: /^Followers/ }));
    await waitFor(() => expect(location()).toContain('sort=followers%3Basc'));
    expect(screen.getByRole('columnheader', { name: /^Followers/ })).toHaveAttribute('aria-sort', 'ascending');
    fireEvent.click(screen.getByRole('button', { name: /^Name/ }));
    await waitFor(() => expect(location()).toContain('sort=name%3Basc'));
  });

  it('pages with Prev and Next in the URL', async () => {
    const calls = open({ list: (c) => ({ body: page({ total: 60, page: Number(c.query.get('page')) }) }) });
    await table();
    expect(screen.getByTestId('influencers-range')).toHaveTextContent('1–2 of 60 accounts');
    expect(screen.getByRole('button', { name: 'Prev' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(location()).toContain('page=2'));
    await waitFor(() => expect(listCalls(calls).at(-1)!.query.get('page')).toBe('2'));
    await waitFor(() => expect(screen.getByTestId('influencers-range')).toHaveTextContent('26–27 of 60 accounts'));
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Prev' }));
    await waitFor(() => expect(location()).not.toContain('page='));
  });

  it('sends the search and advanced filters, and Reset clears them', async () => {
    const calls = open({ url: `${PAGE_URL}?search=rust&bio=dev&location=Paris&followers_count=100&followers_op=lesser&sort=reach;asc` });
    await table();
    const q = listCalls(calls)[0].query;
    expect(q.get('search')).toBe('rust');
    expect(q.get('bio')).toBe('dev');
    expect(q.get('location')).toBe('Paris');
    expect(q.get('followers_count')).toBe('100');
    expect(q.get('followers_op')).toBe('lesser');
    // Settings start open when a filter is set.
    expect(screen.getByRole('button', { name: 'Hide Settings' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('textbox', { name: 'Bio contains' })).toHaveValue('dev');
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(location()).not.toContain('search='));
    for (const k of ['bio=', 'location=', 'followers_count', 'followers_op']) expect(location()).not.toContain(k);
    expect(location()).toContain('sort=reach%3Basc');
    expect(screen.getByRole('textbox', { name: 'Bio contains' })).toHaveValue('');
    expect(screen.getByRole('searchbox', { name: 'Filter Accounts and Bios' })).toHaveValue('');
    await waitFor(() => expect(listCalls(calls).at(-1)!.query.get('bio')).toBeNull());
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled();
  });

  it('writes an advanced filter to the URL on blur', async () => {
    open();
    await table();
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const count = screen.getByRole('spinbutton', { name: 'Engagement count' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Engagement operator' }), { target: { value: 'lesser' } });
    fireEvent.change(count, { target: { value: '50' } });
    fireEvent.blur(count);
    await waitFor(() => expect(location()).toContain('engagement_count=50&engagement_op=lesser'));
  });

  it('offers Export → CSV of the same query only when the caller may export', async () => {
    open({ url: `${PAGE_URL}?search=rust&page=2` });
    await table();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Export' }), { key: 'Enter' });
    const csv = await screen.findByRole('menuitem', { name: 'CSV' });
    const href = new URL(csv.getAttribute('href')!, 'http://localhost');
    expect(href.pathname).toBe(`/api/v1${BASE}/export.csv`);
    expect(href.searchParams.get('search')).toBe('rust');
    expect(href.searchParams.get('sort')).toBe('engagement;desc');
    expect(href.searchParams.get('page')).toBeNull();
    cleanup();
    open({ list: () => ({ body: page({ canExport: false, canTag: false }) }) });
    await table();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  });

  it('shows the server message when the list fails, and the empty state when nothing matches', async () => {
    open({ list: () => ({ status: 503, body: { error: { code: 'busy', message: 'The database is busy.' } } }) });
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('The database is busy.');
    cleanup();
    open({ url: `${PAGE_URL}?search=nobody`, list: () => ({ body: page({ total: 0, influencers: [] }) }) });
    expect(await screen.findByText('No accounts match these filters.', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});

describe('influencer tags', () => {
  it('are offered per row and managed only to callers who may tag', async () => {
    open({ list: () => ({ body: page({ canTag: false }) }) });
    await table();
    expect(screen.queryByRole('button', { name: /Influencer tags of/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Manage tags' })).toBeNull();
    // Viewers still see their own tags on accounts.
    expect(await within(rowOf('twitter;alice')).findByText('vip')).toBeInTheDocument();
    cleanup();
    open();
    await table();
    expect(screen.getByRole('button', { name: 'Influencer tags of Alice <b>Liddell</b>' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage tags' })).toBeInTheDocument();
  });

  it('tag and untag an account from its menu without opening the side view', async () => {
    const tags = [
      { id: 1, name: 'vip', color: '#c0392b' },
      { id: 2, name: 'press', color: '#2980b9' },
    ];
    const calls = open({ tags, routes: { [`PUT ${BASE}/tags`]: () => ({ body: { updated: 1 } }) } });
    await table();
    fireEvent.click(screen.getByRole('button', { name: 'Influencer tags of Alice <b>Liddell</b>' }));
    const menu = await screen.findByTestId('influencer-tag-menu');
    expect(within(menu).getByRole('checkbox', { name: 'vip' })).toBeChecked();
    fireEvent.click(within(menu).getByRole('checkbox', { name: 'press' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ accounts: ['twitter;alice'], add: [2], remove: [] });
    await waitFor(() => expect(within(screen.getByTestId('influencer-tag-menu')).getByRole('checkbox', { name: 'press' })).toBeChecked());
    expect(screen.queryByTestId('influencer-side-view')).toBeNull();
  });

  it('create a tag inline and show the server message or the fallback on failure', async () => {
    let answer: Answer = { status: 409, body: { error: { code: 'tag_exists', message: 'You already have a tag with this name.' } } };
    const calls = open({ tags: [], routes: { 'POST /influencer-tags': () => answer, [`PUT ${BASE}/tags`]: () => ({ body: { updated: 1 } }) } });
    await table();
    fireEvent.click(screen.getByRole('button', { name: 'Influencer tags of Alice <b>Liddell</b>' }));
    const menu = await screen.findByTestId('influencer-tag-menu');
    expect(within(menu).getByRole('button', { name: 'Go to Account Watchlist to create your first tag' })).toBeInTheDocument();
    const create = within(menu).getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    fireEvent.change(within(menu).getByRole('textbox', { name: 'New tag name' }), { target: { value: '  vip  ' } });
    fireEvent.click(create);
    expect(await within(menu).findByRole('alert')).toHaveTextContent('You already have a tag with this name.');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ name: 'vip', color: '#c0392b' });
    answer = { status: 500 };
    fireEvent.click(create);
    await waitFor(() => expect(within(menu).getByRole('alert')).toHaveTextContent('An unknown error occurred.'));
    answer = { status: 201, body: { id: 7, name: 'vip', color: '#c0392b' } };
    fireEvent.click(create);
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ accounts: ['twitter;alice'], add: [7], remove: [] }));
  });

  it('rename and delete (after confirming) in Manage tags, opened by the watchlist link action', async () => {
    const calls = open({
      url: `${PAGE_URL}?action=influencer-tags&influencerTags=1`,
      routes: {
        'PATCH /influencer-tags/1': () => ({ body: { id: 1, name: 'VIPs', color: '#047878' } }),
        'DELETE /influencer-tags/1': () => ({ status: 204 }),
      },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Manage tags' }, { timeout: 5000 });
    await waitFor(() => expect(location()).not.toContain('action='));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit tag vip' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit tag' });
    fireEvent.change(within(edit).getByRole('textbox', { name: 'Tag name' }), { target: { value: 'VIPs' } });
    fireEvent.click(within(edit).getByRole('radio', { name: 'Forest' }));
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    const back = await screen.findByRole('dialog', { name: 'Manage tags' });
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ name: 'VIPs', color: '#047878' });
    fireEvent.click(within(back).getByRole('button', { name: 'Delete tag vip' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete tag' });
    expect(confirm).toHaveTextContent('It is removed from every account.');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/influencer-tags/1')).toBe(true));
    // The deleted tag leaves the header's influencer tag filter.
    await waitFor(() => expect(location()).not.toContain('influencerTags='));
  });
});

describe('side view', () => {
  it('opens on a row click or Enter with the profile and the posts, and closes on Escape', async () => {
    const calls = open({
      list: () => ({ body: page({ influencers: [{ ...alice, profileUrl: 'https://x.com/alice' }, anon] }) }),
      routes: { [`GET ${BASE}/posts`]: () => ({ body: { influencer: null, total: 2, posts: [postItem(1), postItem(2)] } }) },
    });
    await table();
    fireEvent.click(within(rowOf('twitter;alice')).getByText('Oxford'));
    const side = await screen.findByTestId('influencer-side-view');
    expect(within(side).getByRole('heading', { name: 'Alice <b>Liddell</b>' })).toBeInTheDocument();
    expect(within(side).getByRole('link', { name: 'View profile' })).toHaveAttribute('href', 'https://x.com/alice');
    expect(within(side).getByRole('link', { name: 'View profile' })).toHaveAttribute('target', '_blank');
    expect(await within(side).findByText('Post number 1')).toBeInTheDocument();
    const q = calls.find((c) => c.path === `${BASE}/posts`)!.query;
    expect(q.get('account')).toBe('twitter;alice');
    expect(q.get('sort')).toBe('created_at;desc');
    expect(q.get('perPage')).toBe('50');
    expect(q.get('days')).toBe('30');
    fireEvent.keyDown(side, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('influencer-side-view')).toBeNull());
    rowOf('facebook;123').focus();
    fireEvent.keyDown(rowOf('facebook;123'), { key: 'Enter' });
    const fb = await screen.findByTestId('influencer-side-view');
    expect(within(fb).getByRole('heading', { name: 'Facebook user' })).toBeInTheDocument();
    expect(within(fb).queryByRole('link', { name: 'View profile' })).toBeNull();
  });
});

import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shareWall, type MediaWall, type MediaWallSettings, type WallPost } from '../../api/queries/media-wall';
import type { Me, Tracker } from '../../api/types';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { TrackerShell } from '../shell';
import { meFixture, trackerFixture } from '../trackers/fixtures';
import { DEFAULT_SETTINGS, FULLSCREEN_UNSUPPORTED, SHARE_WARNING, SHARE_WARNING_DETAIL } from './wall-data';
import { columnCount, estimateRowHeight, rowsToMount } from './WallGrid';

// Each card renders its media: counting the media's renders by post counts the cards' renders.
const mediaRenders = vi.hoisted(() => new Map<string, number>());
vi.mock('./WallMedia', async (importOriginal) => {
  const real = await importOriginal<typeof import('./WallMedia')>();
  function CountedWallMedia(props: Parameters<typeof real.WallMedia>[0]) {
    mediaRenders.set(props.post.key, (mediaRenders.get(props.post.key) ?? 0) + 1);
    return <real.WallMedia {...props} />;
  }
  return { ...real, WallMedia: CountedWallMedia };
});

beforeEach(() => {
  mediaRenders.clear();
  // jsdom does not scroll; the grid's virtualizer writes the offset it reads.
  vi.stubGlobal('scrollTo', vi.fn());
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
  Object.defineProperty(window, 'scrollY', { value: 0, configurable: true, writable: true });
});

/**
 * A page of `width` px: jsdom lays nothing out, so the grid gets the width of its columns, and its
 * top moves up as the page scrolls (its rows keep their estimated height).
 */
function layOut(width: number) {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(width);
  vi.spyOn(HTMLUListElement.prototype, 'getBoundingClientRect').mockImplementation(() => new DOMRect(0, -window.scrollY, width, 0));
}

/** The page scrolled to `y` (the grid reads scrollY on the scroll event). */
async function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true, writable: true });
  await act(async () => {
    window.dispatchEvent(new Event('scroll'));
  });
}

const tracker = trackerFixture({ platforms: { twt: 1, ig: 1, yt: 0, fb: 0, tt: 0, news: 1, blogs: 0, forums: 0, bsky: 0, mastodon: 0 } });
const WALL = `/trackers/${tracker.hash}/media-wall`;
const NOW = Date.now();

function post(n: number, over: Partial<WallPost> = {}): WallPost {
  return {
    key: `twt;${n}`,
    platform: 'twt',
    url: `https://x.com/u${n}/status/${n}`,
    createdAt: NOW - n * 60_000,
    author: { name: `Fan ${n}`, username: `fan${n}`, avatarUrl: null },
    title: null,
    text: `Sunset number ${n}`,
    engagement: n,
    likes: n,
    comments: 0,
    shares: 0,
    views: 0,
    isRetweet: false,
    visibility: 1,
    media: [{ kind: 'photo', url: `/demo-media/p${n}.jpg`, thumbnailUrl: `/demo-media/p${n}-thumb.jpg` }],
    ...over,
  };
}

function wall(over: Partial<MediaWall> = {}): MediaWall {
  return {
    posts: [post(1), post(2, { text: '' }), post(3, { media: [{ kind: 'video', url: '/demo-media/v3.mp4', thumbnailUrl: null }] })],
    queue: [],
    queueTotal: 0,
    moderation: false,
    canModerate: true,
    canManage: true,
    settings: DEFAULT_SETTINGS,
    ...over,
  };
}

type Answer = { status?: number; body?: unknown };

function open({
  search = '',
  me = meFixture({ isTrackerOwner: true, permission: 4 }),
  t = tracker,
  answer = () => ({ body: wall() }),
  extra = {},
}: {
  search?: string;
  me?: Me;
  t?: Tracker;
  answer?: (c: ApiCall) => Answer;
  extra?: Record<string, (c: ApiCall) => Answer>;
} = {}) {
  const url = `/hashtag-tracking/media-wall/${t.hash}/${t.friendly}${search}`;
  window.history.replaceState(null, '', url);
  const calls = mockApi({
    'GET /me': () => ({ body: me }),
    [`GET /trackers/${t.hash}`]: () => ({ body: t }),
    [`GET /trackers/${t.hash}/total-posts`]: () => ({ body: { count: { posts: 3 } } }),
    [`GET ${WALL}`]: answer,
    ...extra,
  });
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
  return calls;
}

const grid = () => screen.findByTestId('wall-grid', {}, { timeout: 5000 });
const toolbar = () => screen.getByRole('toolbar', { name: 'Media wall controls' });
const wallCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === WALL);

describe('media wall page', () => {
  it('shows the posts with media and every control to the owner', async () => {
    const calls = open();
    await grid();
    const cards = screen.getAllByRole('article');
    expect(cards.map((c) => c.getAttribute('data-post-key'))).toEqual(['twt;1', 'twt;2', 'twt;3']);
    expect(within(cards[0]).getByText('Sunset number 1')).toBeInTheDocument();
    expect(within(cards[1]).getByText('[No Caption]')).toBeInTheDocument();
    const video = within(cards[2]).getByTestId('wall-video') as HTMLVideoElement;
    expect(video).toHaveTextContent('Your browser does not support the video tag.');
    expect(video.loop && video.autoplay && video.muted).toBe(true);
    expect(video).toHaveAttribute('playsinline');

    const bar = toolbar();
    expect(within(bar).getByRole('searchbox', { name: 'Find a Post' })).toBeInTheDocument();
    const select = within(bar).getByRole('combobox', { name: 'Post visibility' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Public', 'Only You', 'All Posts']);
    expect(within(bar).getByRole('switch', { name: 'Media Wall Moderation' })).toHaveAttribute('aria-checked', 'false');
    expect(within(bar).getByRole('button', { name: 'Share Moderation' })).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Settings' })).toHaveAttribute('title', 'Advanced Settings');
    expect(within(bar).getByRole('button', { name: 'Full Screen' })).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Embed' })).toBeInTheDocument();

    // The wall asks with the page's platforms (news shows no media wall) and nothing else saved.
    const q = wallCalls(calls)[0].query;
    expect(q.get('platforms')).toBe('twt,ig');
    expect([...q.keys()].sort()).toEqual(['platforms']);
    // No date range on this page.
    expect(screen.queryByRole('button', { name: /Last 14 days/ })).toBeNull();
  });

  it('shows a video title above its caption, and not twice', async () => {
    const titled = [
      post(1, { platform: 'yt', title: 'Kestrel Coffee almond croissant review - worth it?', text: 'We tried it so you do not have to.' }),
      post(2, { title: 'Sunset number 2', text: 'Sunset number 2 over the bay' }),
    ];
    open({ answer: () => ({ body: wall({ posts: titled }) }) });
    await grid();
    const cards = screen.getAllByRole('article');
    expect(within(cards[0]).getByRole('heading', { name: 'Kestrel Coffee almond croissant review - worth it?' })).toBeInTheDocument();
    expect(within(cards[0]).getByText('We tried it so you do not have to.')).toBeInTheDocument();
    expect(within(cards[1]).queryByRole('heading')).toBeNull();
  });

  it('shows a viewer the wall with only Full Screen', async () => {
    open({ me: meFixture({ isAdmin: false, permission: 1 }), t: trackerFixture({ ...tracker, permission: 1, isOwner: false }), answer: () => ({ body: wall({ canModerate: false, canManage: false }) }) });
    await grid();
    const buttons = within(toolbar()).getAllByRole('button').map((b) => b.textContent?.trim());
    expect(buttons).toEqual(['Full Screen']);
    expect(within(toolbar()).queryByRole('searchbox')).toBeNull();
    expect(screen.queryByRole('checkbox', { name: /^Select post/ })).toBeNull();
  });

  it('searches trimmed words, filters by visibility, and clears the search', async () => {
    const calls = open();
    await grid();
    const box = screen.getByRole('searchbox', { name: 'Find a Post' });
    fireEvent.change(box, { target: { value: '  beach sunset ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(wallCalls(calls).at(-1)!.query.get('search')).toBe('beach sunset'));
    fireEvent.change(screen.getByRole('combobox', { name: 'Post visibility' }), { target: { value: '-1' } });
    await waitFor(() => expect(wallCalls(calls).at(-1)!.query.get('visibility')).toBe('-1'));
    expect(screen.getByTestId('location').textContent).toContain('visibility=-1');
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(wallCalls(calls).at(-1)!.query.has('search')).toBe(false));
  });

  it('turns moderation on (back to Public), then approves and rejects waiting posts', async () => {
    let moderation = false;
    let queue = [post(7, { visibility: 2 }), post(8, { visibility: 2 }), post(9, { visibility: 2 })];
    const calls = open({
      search: '?visibility=0',
      answer: () => ({ body: wall({ moderation, queue, queueTotal: queue.length }) }),
      extra: {
        [`PUT ${WALL}/moderation`]: (c) => {
          moderation = (c.body as { enabled: boolean }).enabled;
          return { body: { moderation, published: 0 } };
        },
        [`POST ${WALL}/visibility`]: (c) => {
          const b = c.body as { posts: string[] };
          queue = queue.filter((p) => !b.posts.includes(p.key));
          return { body: { count: b.posts.length } };
        },
      },
    });
    await screen.findByTestId('media-wall');
    const sw = await screen.findByRole('switch', { name: 'Media Wall Moderation' });
    await waitFor(() => expect(sw).not.toBeDisabled());
    fireEvent.click(sw);
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === `${WALL}/moderation`)).toBe(true));
    expect(calls.find((c) => c.path === `${WALL}/moderation`)!.body).toEqual({ enabled: true });
    await waitFor(() => expect(screen.getByTestId('location').textContent).not.toContain('visibility'));
    expect(screen.getByRole('combobox', { name: 'Post visibility' })).toHaveValue('1');

    const q = await screen.findByTestId('wall-queue');
    await waitFor(() => expect(within(q).getByTestId('queue-total')).toHaveTextContent('3'));
    fireEvent.click(within(q).getByRole('button', { name: 'Approve post by @fan7' }));
    await waitFor(() => expect(calls.filter((c) => c.path === `${WALL}/visibility`)).toHaveLength(1));
    expect(calls.find((c) => c.path === `${WALL}/visibility`)!.body).toEqual({ posts: ['twt;7'], visibility: 1 });
    expect(await screen.findByText('Approved 1 post(s).')).toBeInTheDocument();

    // Several at once.
    await waitFor(() => expect(within(q).queryByRole('button', { name: 'Approve post by @fan7' })).toBeNull());
    fireEvent.click(within(q).getByRole('checkbox', { name: 'Select waiting post by @fan8' }));
    fireEvent.click(within(q).getByRole('checkbox', { name: 'Select waiting post by @fan9' }));
    fireEvent.click(within(q).getByRole('button', { name: 'Reject selected (2)' }));
    await waitFor(() => expect(calls.filter((c) => c.path === `${WALL}/visibility`)).toHaveLength(2));
    expect(calls.filter((c) => c.path === `${WALL}/visibility`)[1].body).toEqual({ posts: ['twt;8', 'twt;9'], visibility: 0 });
    await waitFor(() => expect(within(q).getByTestId('queue-total')).toHaveTextContent('0'));
  });

  it('hides one post from the wall', async () => {
    const calls = open({ extra: { [`POST ${WALL}/visibility`]: () => ({ body: { count: 1 } }) } });
    await grid();
    fireEvent.click(screen.getByRole('button', { name: 'Hide post by @fan2' }));
    await waitFor(() => expect(calls.find((c) => c.path === `${WALL}/visibility`)?.body).toEqual({ posts: ['twt;2'], visibility: 0 }));
  });

  it('deletes the selected posts after a confirm, with Undo', async () => {
    const calls = open({
      extra: {
        [`POST /trackers/${tracker.hash}/posts/delete`]: (c) => ({ body: { count: (c.body as { posts: string[] }).posts.length } }),
        [`POST /trackers/${tracker.hash}/posts/undo-delete`]: () => ({ body: { count: 1 } }),
      },
    });
    await grid();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select post by @fan1' }));
    const bar = screen.getByRole('region', { name: 'Selected posts' });
    expect(bar).toHaveTextContent('1 selected');
    fireEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete posts' });
    expect(dialog).toHaveAttribute('data-modal', 'mediaWallBulkDelete');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Successfully deleted 1 post(s).')).toBeInTheDocument();
    expect(calls.find((c) => c.path.endsWith('/posts/delete'))!.body).toEqual({ posts: ['twt;1'] });
    expect(document.querySelector('[data-post-key="twt;1"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/posts/undo-delete'))?.body).toEqual({ posts: ['twt;1'] }));
    await waitFor(() => expect(document.querySelector('[data-post-key="twt;1"]')).not.toBeNull());
  });

  it('checks and saves the Advanced Settings', async () => {
    let saved: MediaWallSettings | null = null;
    const calls = open({
      extra: {
        [`PUT ${WALL}/settings`]: (c) => {
          saved = c.body as MediaWallSettings;
          return { body: saved };
        },
      },
    });
    await grid();
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Advanced Settings' });
    fireEvent.change(within(dialog).getByLabelText('Update frequency (seconds)'), { target: { value: '10' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter a whole number of seconds from 20 to 120.')).toBeInTheDocument();
    expect(saved).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Update frequency (seconds)'), { target: { value: '45' } });
    fireEvent.change(within(dialog).getByLabelText('Number of posts'), { target: { value: '120' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Slideshow/ }));
    fireEvent.click(within(dialog).getByRole('radio', { name: /Light/ }));
    fireEvent.change(within(dialog).getByLabelText('Sort by'), { target: { value: 'engagement' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Exclude retweets' }));
    fireEvent.change(within(dialog).getByLabelText('Exclude users'), { target: { value: '@spam, bot' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Advanced Settings' })).toBeNull());
    expect(saved).toEqual({
      displayMode: 'slideshow',
      theme: 'light',
      displayText: true,
      updateFrequency: 45,
      postCount: 120,
      sortBy: 'engagement',
      excludeRetweets: true,
      excludeUsers: ['spam', 'bot'],
    });
    // The wall is asked again after the save.
    await waitFor(() => expect(wallCalls(calls).length).toBeGreaterThan(1));
  });

  it('shares the moderation link with its warning and resets it after a confirm', async () => {
    let key = 'k1';
    const link = () => ({ body: { key, url: `http://h/hashtag-tracking/media-wall/abc123/rust-lang?moderationKey=${key}` } });
    const calls = open({
      extra: {
        [`GET ${WALL}/moderation-link`]: link,
        [`POST ${WALL}/moderation-link`]: () => {
          key = 'k2';
          return link();
        },
      },
    });
    await grid();
    fireEvent.click(screen.getByRole('button', { name: 'Share Moderation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share Moderation' });
    const field = await within(dialog).findByLabelText('Moderation link');
    expect(field).toHaveValue('http://h/hashtag-tracking/media-wall/abc123/rust-lang?moderationKey=k1');
    expect(dialog).toHaveTextContent(`${SHARE_WARNING} ${SHARE_WARNING_DETAIL}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset link' }));
    const step = within(dialog).getByRole('group', { name: 'Reset the link' });
    // Escape cancels the step only.
    fireEvent.keyDown(step, { key: 'Escape' });
    await waitFor(() => expect(within(dialog).queryByRole('group', { name: 'Reset the link' })).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Share Moderation' })).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset link' }));
    fireEvent.click(within(within(dialog).getByRole('group', { name: 'Reset the link' })).getByRole('button', { name: 'Reset link' }));
    await waitFor(() => expect(field).toHaveValue('http://h/hashtag-tracking/media-wall/abc123/rust-lang?moderationKey=k2'));
    expect(calls.filter((c) => c.method === 'POST' && c.path === `${WALL}/moderation-link`)).toHaveLength(1);
  });

  it('locks the wall with the upgrade modal when the plan lacks it', async () => {
    open({ answer: () => ({ status: 403, body: { error: { code: 'upgrade_required', message: 'Upgrade to use the media wall.' } } }) });
    const dialog = await screen.findByRole('dialog', { name: 'The media wall is not part of your plan' }, { timeout: 5000 });
    expect(dialog).toHaveAttribute('data-modal', 'mediaWallUpgrade');
    expect(within(dialog).getByRole('link', { name: 'Upgrade your account to unlock' })).toHaveAttribute('href', '/pricing');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('wall-locked')).toBeInTheDocument();
    fireEvent.click(within(toolbar()).getByRole('button', { name: 'Upgrade to unlock' }));
    expect(await screen.findByRole('dialog', { name: 'The media wall is not part of your plan' })).toBeInTheDocument();
  });

  it("does not ask for a wall the owner's own plan lacks", async () => {
    const calls = open({ me: meFixture({ isTrackerOwner: true, permission: 4, features: { xls: true, linkSharing: true, mediaWall: false } }) });
    await screen.findByTestId('wall-locked', {}, { timeout: 5000 });
    expect(wallCalls(calls)).toHaveLength(0);
  });

  it('says so when full screen is not supported', async () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    open();
    await grid();
    const el = screen.getByTestId('media-wall') as unknown as { requestFullscreen?: unknown };
    el.requestFullscreen = undefined;
    fireEvent.click(screen.getByRole('button', { name: 'Full Screen' }));
    expect(alert).toHaveBeenCalledWith(FULLSCREEN_UNSUPPORTED);
  });

  it('falls back to the thumbnail once, then leaves the post out', async () => {
    open();
    await grid();
    const img = () => document.querySelector('[data-post-key="twt;1"] img[data-stage]') as HTMLImageElement;
    expect(img().getAttribute('src')).toBe('/demo-media/p1.jpg');
    fireEvent.error(img());
    expect(img().getAttribute('src')).toBe('/demo-media/p1-thumb.jpg');
    fireEvent.error(img());
    await waitFor(() => expect(document.querySelector('[data-post-key="twt;1"]')).toBeNull());
    expect(document.querySelector('[data-post-key="twt;2"]')).not.toBeNull();
  });

  it('turns a carousel every 2.5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const media = [1, 2, 3].map((i) => ({ kind: 'carousel' as const, url: `/demo-media/c${i}.jpg`, thumbnailUrl: null }));
    open({ answer: () => ({ body: wall({ posts: [post(1, { media })] }) }) });
    await grid();
    const carousel = document.querySelector('[data-carousel]')!;
    expect(carousel.getAttribute('data-index')).toBe('0');
    await act(async () => vi.advanceTimersByTime(2500));
    expect(carousel.getAttribute('data-index')).toBe('1');
    await act(async () => vi.advanceTimersByTime(2500));
    expect(carousel.getAttribute('data-index')).toBe('2');
  });

  it('reads the wall through a moderation link and shows moderation without management', async () => {
    const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false, permission: 0 });
    const calls = open({
      search: '?moderationKey=mk1',
      me: signedOut,
      t: trackerFixture({ ...tracker, permission: 0, isOwner: false }),
      answer: () => ({ body: wall({ canModerate: true, canManage: false }) }),
    });
    await grid();
    const bar = toolbar();
    expect(within(bar).getByRole('switch', { name: 'Media Wall Moderation' })).toBeInTheDocument();
    expect(within(bar).getByRole('combobox', { name: 'Post visibility' })).toBeInTheDocument();
    for (const name of ['Settings', 'Share Moderation', 'Embed']) expect(within(bar).queryByRole('button', { name })).toBeNull();
    expect(screen.getByRole('button', { name: 'Hide post by @fan1' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select post by @fan1' }));
    expect(within(screen.getByRole('region', { name: 'Selected posts' })).queryByRole('button', { name: 'Delete' })).toBeNull();
    for (const c of calls.filter((c) => c.path === WALL || c.path === `/trackers/${tracker.hash}`)) expect(c.query.get('moderationKey'), c.path).toBe('mk1');
  });

  it('says a reset moderation link no longer works instead of asking to sign in', async () => {
    const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false, permission: 0 });
    const url = `/hashtag-tracking/media-wall/${tracker.hash}/${tracker.friendly}?moderationKey=old`;
    window.history.replaceState(null, '', url);
    mockApi({
      'GET /me': () => ({ body: signedOut }),
      [`GET /trackers/${tracker.hash}`]: () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'Sign in to continue.' } } }),
    });
    renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url });
    expect(await screen.findByRole('heading', { name: 'This moderation link is no longer valid.' })).toBeInTheDocument();
  });

  it('an embed shows the saved look with no controls at all', async () => {
    const signedOut = meFixture({ isLoggedIn: false, id: null, email: null, name: null, isAdmin: false, permission: 0 });
    const calls = open({
      search: '?embed=1&embedKey=e1&theme=light&displayMode=slideshow',
      me: signedOut,
      t: trackerFixture({ ...tracker, permission: 1, isOwner: false, shared: true }),
      answer: () => ({ body: wall({ canModerate: false, canManage: false }) }),
    });
    await grid();
    expect(screen.getByTestId('media-wall')).toHaveAttribute('data-theme', 'dark');
    expect(screen.queryByRole('toolbar')).toBeNull();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(wallCalls(calls)[0].query.get('embedKey')).toBe('e1');
  });

  it('runs a slideshow: Next, Prev and the arrow keys', async () => {
    open({ answer: () => ({ body: wall({ settings: { ...DEFAULT_SETTINGS, displayMode: 'slideshow' } }) }) });
    const show = await screen.findByTestId('wall-slideshow', {}, { timeout: 5000 });
    const current = () => show.querySelector('[aria-roledescription="slide"]')!.getAttribute('data-post-key');
    expect(current()).toBe('twt;1');
    expect(screen.getByTestId('slide-position')).toHaveTextContent('1 / 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next post' }));
    expect(current()).toBe('twt;2');
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    expect(current()).toBe('twt;3');
    fireEvent.keyDown(document.body, { key: 'ArrowLeft' });
    expect(current()).toBe('twt;2');
    fireEvent.click(screen.getByRole('button', { name: 'Previous post' }));
    expect(current()).toBe('twt;1');
  });

  it('asks for 50 more when the slideshow reaches the end of a full wall', async () => {
    const many = Array.from({ length: 50 }, (_, i) => post(i + 1));
    const calls = open({
      answer: (c) => {
        const n = Number(c.query.get('count') ?? 50);
        return { body: wall({ posts: n > 50 ? [...many, ...Array.from({ length: 50 }, (_, i) => post(i + 51))] : many, settings: { ...DEFAULT_SETTINGS, displayMode: 'slideshow' } }) };
      },
    });
    await screen.findByTestId('wall-slideshow', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Previous post' }));
    expect(screen.getByTestId('slide-position')).toHaveTextContent('50 / 50');
    fireEvent.click(screen.getByRole('button', { name: 'Next post' }));
    await waitFor(() => expect(wallCalls(calls).at(-1)!.query.get('count')).toBe('100'));
    await waitFor(() => expect(screen.getByTestId('slide-position')).toHaveTextContent('51 / 100'));
  });

  it('refreshes at the saved pace, 5 s slower after a refresh with nothing new and 5 s quicker after new posts', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let n = 0;
    const calls = open({
      answer: () => {
        n += 1;
        // The third answer brings a new post.
        const posts = n >= 3 ? [post(0), post(1), post(2)] : [post(1), post(2)];
        return { body: wall({ posts }) };
      },
    });
    await grid();
    const count = () => wallCalls(calls).length;
    expect(count()).toBe(1);
    await waitFor(() => expect(screen.getByTestId('wall-status')).toHaveTextContent('every 30 seconds'));
    await act(async () => vi.advanceTimersByTime(30_000));
    await waitFor(() => expect(count()).toBe(2));
    // Nothing new: the next wait is 35 s.
    const status = screen.getByTestId('wall-status');
    await waitFor(() => expect(status).toHaveTextContent('every 35 seconds'));
    // The query takes its new interval in an effect: let it run before the clock jumps.
    await act(async () => undefined);
    await act(async () => vi.advanceTimersByTime(34_000));
    expect(count()).toBe(2);
    await act(async () => vi.advanceTimersByTime(1_500));
    await waitFor(() => expect(count()).toBe(3));
    // A new post came: 35 - 5 = 30 s.
    await waitFor(() => expect(status).toHaveTextContent('every 30 seconds'));
    await act(async () => undefined);
    await act(async () => vi.advanceTimersByTime(29_000));
    expect(count()).toBe(3);
    await act(async () => vi.advanceTimersByTime(1_500));
    await waitFor(() => expect(count()).toBe(4));
  });

  describe('a grid of 500 posts', () => {
    const many = Array.from({ length: 500 }, (_, i) => post(i + 1));
    // jsdom lays nothing out: the grid is given a width of four columns, its rows keep their estimate.
    const WIDTH = 1040;
    const ROW = estimateRowHeight(WIDTH, 4, true, true) + 16;
    const shownCards = () => document.querySelectorAll('[data-testid="wall-grid"] article[data-post-key]');

    it('mounts only the rows near the screen, and selection and bulk actions still reach every post', async () => {
      layOut(WIDTH);
      const calls = open({
        answer: () => ({ body: wall({ posts: many, settings: { ...DEFAULT_SETTINGS, postCount: 500 } }) }),
        extra: { [`POST ${WALL}/visibility`]: (c) => ({ body: { count: (c.body as { posts: string[] }).posts.length } }) },
      });
      const list = await grid();
      expect(screen.getByTestId('wall-status')).toHaveTextContent('500 posts');
      expect(list).toHaveAttribute('data-count', '500');
      expect(list).toHaveAttribute('data-columns', '4');
      // Four rows (two on a 768 px screen, two beyond it) of four cards: 16, not 500.
      expect(shownCards()).toHaveLength(16);
      const first = list.querySelector('li[data-key="twt;1"]')!;
      expect(first).toHaveAttribute('aria-setsize', '500');
      expect(first).toHaveAttribute('aria-posinset', '1');

      // Select the first post, scroll down to the 61st row: the first card is gone, the selection stays.
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select post by @fan1' }));
      await scrollTo(60 * ROW);
      expect(document.querySelector('[data-post-key="twt;1"]')).toBeNull();
      expect(shownCards().length).toBeLessThan(40);
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select post by @fan241' }));
      const bar = screen.getByRole('region', { name: 'Selected posts' });
      expect(bar).toHaveTextContent('2 selected');

      // Every post at once, most of them never mounted.
      fireEvent.click(within(bar).getByRole('button', { name: 'Select all 500' }));
      expect(bar).toHaveTextContent('500 selected');
      fireEvent.click(within(bar).getByRole('button', { name: 'Show' }));
      const visibilityCalls = () => calls.filter((c) => c.path === `${WALL}/visibility`);
      await waitFor(() => expect(visibilityCalls()).toHaveLength(1));
      const all = visibilityCalls()[0].body as { posts: string[]; visibility: number };
      expect(all.visibility).toBe(1);
      expect(all.posts).toHaveLength(500);
      expect(new Set(all.posts)).toEqual(new Set(many.map((p) => p.key)));

      // One on screen and one scrolled away, hidden together.
      await waitFor(() => expect(within(bar).getByRole('button', { name: 'Show' })).not.toBeDisabled());
      fireEvent.click(within(bar).getByRole('button', { name: 'Clear selection' }));
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select post by @fan241' }));
      await scrollTo(0);
      expect(document.querySelector('[data-post-key="twt;241"]')).toBeNull();
      expect(screen.getByRole('region', { name: 'Selected posts' })).toHaveTextContent('1 selected');
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select post by @fan1' }));
      const again = screen.getByRole('region', { name: 'Selected posts' });
      expect(again).toHaveTextContent('2 selected');
      fireEvent.click(within(again).getByRole('button', { name: 'Hide' }));
      await waitFor(() => expect(visibilityCalls()).toHaveLength(2));
      expect(visibilityCalls()[1].body).toEqual({ posts: ['twt;1', 'twt;241'], visibility: 0 });
    });

    it('keeps the focused card in the page while its row is scrolled away', async () => {
      layOut(WIDTH);
      open({ answer: () => ({ body: wall({ posts: many, settings: { ...DEFAULT_SETTINGS, postCount: 500 } }) }) });
      await grid();
      const box = screen.getByRole('checkbox', { name: 'Select post by @fan2' });
      act(() => box.focus());
      await scrollTo(80 * ROW);
      expect(document.activeElement).toBe(box);
      expect(box.isConnected).toBe(true);
      // Its row, a spacer for the rows between, then the rows on screen.
      const list = screen.getByTestId('wall-grid');
      expect(list.querySelector('li[role="none"]')).not.toBeNull();
      expect(list.querySelector('[data-post-key="twt;321"]')).not.toBeNull();
      expect(list.querySelector('[data-post-key="twt;5"]')).toBeNull();
      // Once the focus leaves, the row goes.
      act(() => box.blur());
      await scrollTo(80 * ROW + 1);
      expect(document.querySelector('[data-post-key="twt;2"]')).toBeNull();
    });
  });

  it('re-renders only the new card when a refresh brings a post', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let n = 0;
    open({
      answer: () => {
        n += 1;
        return { body: wall({ posts: n >= 2 ? [post(0), post(1), post(2), post(3)] : [post(1), post(2), post(3)] }) };
      },
    });
    await grid();
    await waitFor(() => expect(screen.getByTestId('wall-status')).toHaveTextContent('every 30 seconds'));
    const before = new Map(mediaRenders);
    expect(before.get('twt;1')).toBeGreaterThan(0);
    await act(async () => vi.advanceTimersByTime(30_000));
    await waitFor(() => expect(document.querySelector('[data-post-key="twt;0"]')).not.toBeNull());
    await waitFor(() => expect(screen.getByTestId('wall-status')).toHaveTextContent('every 25 seconds'));
    expect(mediaRenders.get('twt;0')).toBeGreaterThan(0);
    for (const key of ['twt;1', 'twt;2', 'twt;3']) expect(mediaRenders.get(key), key).toBe(before.get(key));
  });
});

describe('the grid and its data', () => {
  it('counts columns of at least 240 px with 16 px gaps, as auto-fill does', () => {
    expect(columnCount(0)).toBe(1);
    expect(columnCount(200)).toBe(1);
    expect(columnCount(495)).toBe(1);
    expect(columnCount(496)).toBe(2);
    expect(columnCount(1040)).toBe(4);
    expect(columnCount(1344)).toBe(5);
  });

  it('mounts the focused row with the range, in order', () => {
    const range = { startIndex: 10, endIndex: 12, overscan: 1, count: 100 };
    expect(rowsToMount(range, null)).toEqual([9, 10, 11, 12, 13]);
    expect(rowsToMount(range, 11)).toEqual([9, 10, 11, 12, 13]);
    expect(rowsToMount(range, 0)).toEqual([0, 9, 10, 11, 12, 13]);
    expect(rowsToMount(range, 60)).toEqual([9, 10, 11, 12, 13, 60]);
    expect(rowsToMount(range, 100)).toEqual([9, 10, 11, 12, 13]);
  });

  it('keeps the unchanged posts of a refresh as they were, matched by key', () => {
    const before = wall({ posts: [post(1), post(2)], queue: [post(9, { visibility: 2 })] });
    const next = JSON.parse(JSON.stringify(wall({ posts: [post(0), post(1), post(2, { likes: 99 })], queue: [post(9, { visibility: 2 })] }))) as MediaWall;
    const shared = shareWall(before, next) as MediaWall;
    expect(shared.posts.map((p) => p.key)).toEqual(['twt;0', 'twt;1', 'twt;2']);
    expect(shared.posts[1]).toBe(before.posts[0]);
    expect(shared.posts[2]).not.toBe(before.posts[1]);
    expect(shared.posts[2].likes).toBe(99);
    expect(shared.posts[2].media).toBe(before.posts[1].media);
    expect(shared.queue).toBe(before.queue);
    // The same answer again is the previous one.
    expect(shareWall(before, JSON.parse(JSON.stringify(before)))).toBe(before);
  });
});

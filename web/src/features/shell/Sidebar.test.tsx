import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me, Tracker } from '../../api/types';
import { computeAccess } from '../../state/access';
import { keepOnNavigation, parseQuery, toSearch, type TrackerPage } from '../../state/query-state';
import { trackerPath } from '../../state/routes';
import { Sidebar, type PostCount } from './Sidebar';
import { flags, makeMe, makeTracker } from './test-fixtures';

function renderSidebar(opts: { tracker?: Tracker; me?: Me | undefined; search?: string; page?: TrackerPage; postCount?: PostCount; trackers?: Tracker[]; count?: number } = {}) {
  const tracker = opts.tracker ?? makeTracker();
  const query = parseQuery(opts.search ?? '');
  const access = computeAccess(opts.me, tracker, { demo: query.demo, embed: query.embed, moderationKey: !!query.moderationKey, shareHash: !!query.shareHash });
  const list = opts.trackers ?? [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ trackers: list, count: opts.count ?? list.length }), { status: 200 })),
  );
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const page = opts.page ?? 'dashboard';
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <Sidebar
          tracker={tracker}
          access={access}
          page={page}
          query={query}
          hrefFor={(p) => trackerPath(p, tracker.hash, tracker.friendly) + toSearch(keepOnNavigation(query), p)}
          postCount={opts.postCount ?? { status: 'ok', count: 12345 }}
          onHistorical={() => undefined}
          collapsed={false}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const link = (name: string) => screen.queryByRole('link', { name });

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Sidebar', () => {
  it('shows every entry to the owner, with hrefs keeping share and demo parameters', () => {
    renderSidebar({ me: makeMe(), tracker: makeTracker({ platforms: flags(['twt', 'ig', 'news']) }), search: '?shareHash=s1&search=x&page=3' });
    expect(link('Go to Tracker List')).toHaveAttribute('href', '/mytracks/hashtag');
    expect(link('Dashboard')).toHaveAttribute('href', '/hashtag-tracking/dashboard/abc123/rust-lang?shareHash=s1');
    expect(link('Posts')).toHaveAttribute('href', '/hashtag-tracking/posts/abc123/rust-lang?shareHash=s1');
    expect(link('Influencers')).toBeInTheDocument();
    expect(link('Trending Topics')).toHaveAttribute('href', '/hashtag-tracking/trending-topics/abc123/rust-lang?shareHash=s1');
    expect(link('Sentiment')).toBeInTheDocument();
    expect(link('Media Wall')).toBeInTheDocument();
    expect(link('Tracker Settings')).toHaveAttribute('href', '/edit/abc123/rust-lang?shareHash=s1');
    expect(link('Notification Settings')).toHaveAttribute('href', '/hashtag-tracking/notifications/abc123/rust-lang?shareHash=s1');
    expect(screen.getByRole('button', { name: 'Historical Data' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tracker Quick Switcher' })).toBeInTheDocument();
    expect(link('Dashboard')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('Tracker Active')).toBeInTheDocument();
  });

  it('hides trending topics, sentiment and media wall for a news/blogs/forums tracker', () => {
    renderSidebar({ me: makeMe(), tracker: makeTracker({ platforms: flags(['news', 'blogs', 'forums']) }) });
    expect(link('Trending Topics')).toBeNull();
    expect(link('Sentiment')).toBeNull();
    expect(link('Media Wall')).toBeNull();
    expect(link('Posts')).toBeInTheDocument();
  });

  it('applies per-page platform rules: sentiment needs twitter, instagram or facebook', () => {
    renderSidebar({ me: makeMe(), tracker: makeTracker({ platforms: flags(['tt', 'news']) }) });
    expect(link('Trending Topics')).toBeInTheDocument();
    expect(link('Media Wall')).toBeInTheDocument();
    expect(link('Sentiment')).toBeNull();
  });

  it('signed-out visitors get no settings, historical data or quick switcher', () => {
    renderSidebar({ me: makeMe({ isLoggedIn: false, isTrackerOwner: false, permission: 0 }), tracker: makeTracker({ permission: 0, isOwner: false }) });
    expect(link('Tracker Settings')).toBeNull();
    expect(link('Notification Settings')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Historical Data' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Tracker Quick Switcher' })).toBeNull();
  });

  it('a viewer sees no historical data; an editor does but gets no settings', () => {
    const t = makeTracker({ permission: 1, isOwner: false });
    const { unmount } = renderSidebar({ me: makeMe({ isTrackerOwner: false, permission: 1 }), tracker: t });
    expect(screen.queryByRole('button', { name: 'Historical Data' })).toBeNull();
    expect(link('Tracker Settings')).toBeNull();
    unmount();
    renderSidebar({ me: makeMe({ isTrackerOwner: false, permission: 2 }), tracker: { ...t, permission: 2 } });
    expect(screen.getByRole('button', { name: 'Historical Data' })).toBeInTheDocument();
    expect(link('Tracker Settings')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Tracker Quick Switcher' })).toBeNull();
  });

  it('an administrator (permission 3) gets the settings entries', () => {
    renderSidebar({ me: makeMe({ isTrackerOwner: false, permission: 3 }), tracker: makeTracker({ permission: 3, isOwner: false }) });
    expect(link('Tracker Settings')).toBeInTheDocument();
    expect(link('Notification Settings')).toBeInTheDocument();
  });

  it('demo mode offers Go to Dashboard and keeps demo=true on links', () => {
    renderSidebar({ me: makeMe({ isLoggedIn: false }), tracker: makeTracker({ permission: 0, isOwner: false }), search: '?demo=true' });
    expect(link('Go to Dashboard')).toBeInTheDocument();
    expect(link('Go to Tracker List')).toBeNull();
    expect(link('Posts')).toHaveAttribute('href', '/hashtag-tracking/posts/abc123/rust-lang?demo=true');
  });

  it("a shared link's visitor gets this tracker's pages only, each keeping the shareHash", () => {
    renderSidebar({
      me: makeMe({ isLoggedIn: false, isTrackerOwner: false, permission: 0 }),
      tracker: makeTracker({ permission: 1, isOwner: false, shared: true, platforms: flags(['twt']) }),
      search: '?shareHash=s1&days=7',
    });
    expect(link('Go to Tracker List')).toBeNull();
    expect(link('Posts')).toHaveAttribute('href', '/hashtag-tracking/posts/abc123/rust-lang?days=7&shareHash=s1');
    expect(link('Influencers')).toHaveAttribute('href', '/hashtag-tracking/influencers/abc123/rust-lang?days=7&shareHash=s1');
    expect(link('Tracker Settings')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Historical Data' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Tracker Quick Switcher' })).toBeNull();
  });

  it("a moderation link's holder gets the media wall entry only, keeping the key", () => {
    renderSidebar({
      me: makeMe({ isLoggedIn: false, isTrackerOwner: false, permission: 0, isAdmin: false }),
      tracker: makeTracker({ permission: 1, isOwner: false, shared: true, platforms: flags(['twt', 'ig']) }),
      search: '?moderationKey=mk1',
      page: 'media-wall',
    });
    const nav = screen.getByRole('navigation');
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['Media Wall']);
    expect(link('Media Wall')).toHaveAttribute('href', '/hashtag-tracking/media-wall/abc123/rust-lang?moderationKey=mk1');
    expect(link('Media Wall')).toHaveAttribute('aria-current', 'page');
    for (const name of ['Dashboard', 'Posts', 'Influencers', 'Trending Topics', 'Sentiment', 'Tracker Settings', 'Notification Settings', 'Go to Tracker List'])
      expect(link(name), name).toBeNull();
    expect(screen.queryByRole('button', { name: 'Historical Data' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Tracker Quick Switcher' })).toBeNull();
  });

  it('a moderation key does not narrow the sidebar of a caller with access of their own', () => {
    renderSidebar({ me: makeMe(), tracker: makeTracker({ platforms: flags(['twt']) }), search: '?moderationKey=mk1', page: 'media-wall' });
    expect(link('Dashboard')).toBeInTheDocument();
    expect(link('Posts')).toBeInTheDocument();
    expect(link('Tracker Settings')).toBeInTheDocument();
  });

  it("shows the post count, '...' while loading and nothing when it fails", () => {
    const { unmount } = renderSidebar({ me: makeMe(), postCount: { status: 'ok', count: 12345 } });
    expect(screen.getByTestId('post-count')).toHaveTextContent('12.3k');
    unmount();
    const r2 = renderSidebar({ me: makeMe(), postCount: { status: 'loading' } });
    expect(screen.getByTestId('post-count')).toHaveTextContent('...');
    r2.unmount();
    renderSidebar({ me: makeMe(), postCount: { status: 'error' } });
    expect(screen.queryByTestId('post-count')).toBeNull();
    expect(link('Posts')).toBeInTheDocument();
  });

  it('shows a red Paused status for a paused tracker', () => {
    renderSidebar({ me: makeMe(), tracker: makeTracker({ status: 'paused' }) });
    expect(screen.getByText('Paused')).toBeInTheDocument();
    expect(screen.queryByText('Tracker Active')).toBeNull();
  });
});

describe('Tracker quick switcher', () => {
  it('lists the other trackers for the same section and offers the full list past 100', async () => {
    const others = [makeTracker(), makeTracker({ id: 2, hash: 'zz9', friendly: 'other', title: 'Other tracker' })];
    renderSidebar({ me: makeMe(), page: 'posts', trackers: others, count: 150 });
    const trigger = screen.getByRole('button', { name: 'Tracker Quick Switcher' });
    trigger.focus();
    // Radix opens its menu on keyboard Enter.
    const { fireEvent } = await import('@testing-library/react');
    fireEvent.keyDown(trigger, { key: 'Enter' });
    const menu = await screen.findByRole('menu');
    const other = await within(menu).findByRole('menuitem', { name: 'Other tracker' });
    expect(other).toHaveAttribute('href', '/hashtag-tracking/posts/zz9/other');
    expect(within(menu).queryByRole('menuitem', { name: 'Rust tracker' })).toBeNull();
    expect(within(menu).getByRole('menuitem', { name: 'see full tracker list' })).toHaveAttribute('href', '/mytracks/hashtag');
  });
});

/// <reference types="vite/client" />
// Tracker page shell: resolves /hashtag-tracking/{page}/{hash}/{friendly}, loads the tracker and
// the caller's permission, and frames the page with the top bar, sidebar and header (an embed,
// `embed=1`, goes without the top bar and sidebar; a chart embed without the header too).
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useMe } from '../../api/queries/me';
import { useTotalPosts } from '../../api/queries/shell';
import { useTracker } from '../../api/queries/trackers';
import type { Me, Tracker } from '../../api/types';
import { HeaderMark } from '../../components/Logo';
import { SampleDataNotice } from '../../components/SampleDataNotice';
import { TooltipProvider } from '../../components/Tooltip';
import { allowedPages, computeAccess, pageAvailable, selectedPlatforms } from '../../state/access';
import { includesToday, resolveRange } from '../../state/date-range';
import { filterQuery } from '../../state/filter-query';
import { defaultDays, keepOnNavigation, parseQuery, toSearch, type TrackerPage } from '../../state/query-state';
import { resolveShellRoute, trackerPath } from '../../state/routes';
import { useTrackerQuery } from '../../state/use-tracker-query';
import { ShellContext, type ShellContextValue } from './context';
import { PreviewController } from '../preview/PreviewController';
import { BackfillNotice } from './BackfillNotice';
import { HistoricalModal } from './HistoricalModal';
import { Sidebar, type PostCount } from './Sidebar';
import { TrackerHeader } from './TrackerHeader';
import { ReanalysisNotice, SentimentModelNotice } from './ReanalysisNotice';
import { SIDEBAR_COLLAPSE_QUERY, useMediaQuery } from './use-media';
import { EmbedFrame, EmbedLoading, EmbedUnavailable } from './EmbedFrame';
import { EmbedLocked, isTrialExpired, TrackerLocked } from './TrackerLocked';

// Each page's code, fetched on demand; the page being opened starts fetching while the tracker
// itself loads (not after), so the two requests overlap.
const LOADERS = {
  dashboard: () => import('../dashboard'),
  posts: () => import('../posts'),
  influencers: () => import('../influencers'),
  topics: () => import('../topics'),
  sentiment: () => import('../sentiment'),
  mediaWall: () => import('../media-wall'),
  notifications: () => import('../notifications'),
};
const DashboardPage = lazy(LOADERS.dashboard);
const PostsPage = lazy(LOADERS.posts);
const InfluencersPage = lazy(LOADERS.influencers);
const TopicsPage = lazy(LOADERS.topics);
const SentimentPage = lazy(LOADERS.sentiment);
const MediaWallPage = lazy(LOADERS.mediaWall);
const NotificationsPage = lazy(LOADERS.notifications);

const PAGE_LOADERS: Record<TrackerPage, () => Promise<unknown>> = {
  dashboard: LOADERS.dashboard,
  realtime: LOADERS.dashboard,
  posts: LOADERS.posts,
  influencers: LOADERS.influencers,
  'trending-topics': LOADERS.topics,
  sentiment: LOADERS.sentiment,
  'media-wall': LOADERS.mediaWall,
  notifications: LOADERS.notifications,
};

const PAGES: Record<TrackerPage, ComponentType> = {
  dashboard: DashboardPage,
  realtime: DashboardPage,
  posts: PostsPage,
  influencers: InfluencersPage,
  'trending-topics': TopicsPage,
  sentiment: SentimentPage,
  'media-wall': MediaWallPage,
  notifications: NotificationsPage,
};

// The user menu comes from the auth feature when present; the top bar keeps a slot for it.
const userMenuModules = import.meta.glob<{ UserMenu?: ComponentType }>('../../components/UserMenu.tsx', { eager: true });
const UserMenu: ComponentType | null = Object.values(userMenuModules)[0]?.UserMenu ?? null;

export function TrackerShell() {
  const params = useParams();
  const location = useLocation();
  const segments = params.hash
    ? [params.page ?? '', params.hash, params.friendly ?? ''].filter(Boolean)
    : (params['*'] ?? '').split('/');
  const route = resolveShellRoute(segments);
  if (route.kind === 'redirect-list') return <Navigate to="/mytracks/hashtag" replace />;
  if (route.kind === 'redirect-page') {
    return <Navigate to={trackerPath(route.page, route.hash, route.friendly) + location.search} replace />;
  }
  return <TrackerLoader key={route.hash} page={route.page} hash={route.hash} friendly={route.friendly} />;
}

function TrackerLoader({ page, hash, friendly }: { page: TrackerPage; hash: string; friendly: string | null }) {
  const location = useLocation();
  const tracker = useTracker(hash);
  const me = useMe(hash);
  useEffect(() => {
    // A failed fetch is retried (and reported) by the lazy page itself.
    PAGE_LOADERS[page]().catch(() => undefined);
  }, [page]);

  // An embed (embed=1) is framed in another site: never the app's chrome, never a sign-in redirect.
  const embed = parseQuery(location.search).embed;
  if (embed && tracker.isPending) return <EmbedFrame><EmbedLoading /></EmbedFrame>;
  if (tracker.isPending) return <ShellFrame><FullPageLoading /></ShellFrame>;
  if (tracker.isError) {
    const err = tracker.error;
    // The owner's trial has ended: the tracker is locked, and none of its page is loaded.
    if (isTrialExpired(err)) {
      if (embed) return <EmbedFrame><EmbedLocked message={err.message} /></EmbedFrame>;
      return <ShellFrame><TrackerLocked message={err.message} signedIn={!!me.data?.isLoggedIn} /></ShellFrame>;
    }
    if (embed) {
      return (
        <EmbedFrame>
          {err instanceof ApiError && [401, 403, 404].includes(err.status) ? (
            <EmbedUnavailable />
          ) : (
            <ErrorPanel message={err instanceof ApiError ? err.message : 'Sorry, an error occurred please try again.'} onRetry={() => tracker.refetch()} />
          )}
        </EmbedFrame>
      );
    }
    // A shared link that no longer opens the tracker (revoked, mistyped, tracker gone) says so,
    // rather than sending the visitor to sign in; so does a media wall moderation link that was reset.
    const linkParams = new URLSearchParams(location.search);
    if ((linkParams.has('shareHash') || linkParams.has('moderationKey')) && err instanceof ApiError && [401, 403, 404].includes(err.status)) {
      return (
        <ShellFrame>
          <SharedLinkInvalid signedIn={!!me.data?.isLoggedIn} next={location.pathname} moderation={!linkParams.has('shareHash')} />
        </ShellFrame>
      );
    }
    if (err instanceof ApiError && err.status === 401) {
      return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
    }
    if (err instanceof ApiError && err.status === 404) return <ShellFrame><TrackerNotFound /></ShellFrame>;
    return (
      <ShellFrame>
        <ErrorPanel message={err instanceof ApiError ? err.message : 'Sorry, an error occurred please try again.'} onRetry={() => tracker.refetch()} />
      </ShellFrame>
    );
  }
  const t = tracker.data;
  // Unknown or unavailable sections go to the dashboard; a missing friendly segment is filled in.
  if (!pageAvailable(page, t.platforms)) return <Navigate to={trackerPath('dashboard', hash, t.friendly) + location.search} replace />;
  if (!friendly && t.friendly) return <Navigate to={trackerPath(page, hash, t.friendly) + location.search} replace />;
  return <TrackerPageView page={page} tracker={t} me={me.data} />;
}

function TrackerPageView({ page, tracker, me }: { page: TrackerPage; tracker: Tracker; me: Me | undefined }) {
  const { state: query, update } = useTrackerQuery(page);
  const collapsed = useMediaQuery(SIDEBAR_COLLAPSE_QUERY);
  const now = useNow(60_000);
  const withKey = !!query.moderationKey;
  const withShare = !!query.shareHash;
  const access = useMemo(
    () => computeAccess(me, tracker, { demo: query.demo, embed: query.embed, moderationKey: withKey, shareHash: withShare }),
    [me, tracker, query.demo, query.embed, withKey, withShare],
  );
  const platforms = useMemo(() => selectedPlatforms(query.platforms, page, tracker.platforms), [query.platforms, page, tracker.platforms]);
  const range = useMemo(() => resolveRange(query.date ?? { kind: 'days', days: defaultDays(page) }, tracker, now), [query.date, page, tracker, now]);
  const filters = useMemo(() => filterQuery(query, page, tracker), [query, page, tracker]);
  const hrefFor = useCallback(
    (target: TrackerPage) => trackerPath(target, tracker.hash, tracker.friendly) + toSearch(keepOnNavigation(query), target),
    [tracker.hash, tracker.friendly, query],
  );

  // action=historical-data opens the modal on load for a signed-in user above viewer.
  const [historicalOpen, setHistoricalOpen] = useState(false);
  useEffect(() => {
    if (query.action === 'historical-data' && access.canSeeHistorical) setHistoricalOpen(true);
  }, [query.action, access.canSeeHistorical]);

  // Posts count for the sidebar: all platforms of the posts page with the header's date and tags.
  const postsFilters = useMemo(() => filterQuery(query, 'posts', tracker), [query, tracker]);
  const live = tracker.status === 'running' && includesToday(range, now);
  // The sidebar is not part of an embed: no embed asks for its total (a chart's key, or the media
  // wall's, does not open it anyway).
  const chartEmbed = query.embed && !!query.chart;
  // Nor does a moderation link, which shows no Posts entry.
  const total = useTotalPosts(tracker.hash, postsFilters, { poll: live, enabled: !query.embed && !access.moderationOnly });
  const postCount: PostCount = total.isError ? { status: 'error' } : total.data === undefined ? { status: 'loading' } : { status: 'ok', count: total.data };
  // Awaits the pending total-posts request (refetch joins one in flight).
  const refetchTotal = total.refetch;
  const fetchTotal = useCallback(async () => (await refetchTotal({ cancelRefetch: false })).data ?? 0, [refetchTotal]);

  const value: ShellContextValue = {
    tracker,
    me,
    access,
    page,
    query,
    update,
    now,
    range,
    platforms,
    filters,
    hrefFor,
    openHistorical: () => setHistoricalOpen(true),
  };
  const Page = PAGES[page];

  // A moderation link opens the media wall only: any other page goes back to the wall (keeping the key).
  const allowed = allowedPages(access);
  if (allowed && !allowed.includes(page)) {
    if (pageAvailable('media-wall', tracker.platforms)) return <Navigate to={hrefFor('media-wall')} replace />;
    return (
      <ShellFrame>
        <MediaWallUnavailable />
      </ShellFrame>
    );
  }

  if (access.embed) {
    return (
      <ShellContext.Provider value={value}>
        <EmbedFrame>
          <main className="min-w-0" id="main">
            {/* A chart embed is the chart alone, and so is the media wall (a display filling its
                frame); other page embeds keep a compact header. */}
            {(chartEmbed && (page === 'dashboard' || page === 'realtime')) || page === 'media-wall' ? null : <TrackerHeader />}
            {tracker.isDemo ? <SampleDataNotice className="border-b" /> : null}
            <Suspense fallback={<EmbedLoading />}>
              <Page />
            </Suspense>
          </main>
        </EmbedFrame>
      </ShellContext.Provider>
    );
  }

  return (
    <ShellContext.Provider value={value}>
      <ShellFrame>
        <PreviewController tracker={tracker} me={me} access={access} fetchTotal={fetchTotal} onHistorical={() => access.canSeeHistorical && setHistoricalOpen(true)}>
        <div className="flex min-h-[calc(100vh-3.5rem)]">
          <Sidebar
            tracker={tracker}
            access={access}
            page={page}
            query={query}
            hrefFor={hrefFor}
            postCount={postCount}
            onHistorical={() => setHistoricalOpen(true)}
            collapsed={collapsed}
          />
          <main className="min-w-0 flex-1" id="main">
            <TrackerHeader />
            {tracker.isDemo ? <SampleDataNotice className="border-b" /> : null}
            <ReanalysisNotice reanalysis={tracker.reanalysis ?? null} />
            <SentimentModelNotice progress={tracker.sentimentModel ?? null} />
            <BackfillNotice hash={tracker.hash} active={!!tracker.isBackfilling && access.canSeeHistorical} />
            <Suspense fallback={<PageLoading />}>
              <Page />
            </Suspense>
          </main>
        </div>
        </PreviewController>
        {access.canSeeHistorical ? (
          <HistoricalModal
            open={historicalOpen}
            onOpenChange={setHistoricalOpen}
            hash={tracker.hash}
            title={tracker.title}
            trial={access.trial}
            isAdmin={access.isAdmin}
          />
        ) : null}
      </ShellFrame>
    </ShellContext.Provider>
  );
}

function useNow(refreshMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), refreshMs);
    return () => clearInterval(id);
  }, [refreshMs]);
  return now;
}

function ShellFrame({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  const signedOut = me.data ? !me.data.isLoggedIn : false;
  return (
    <TooltipProvider>
      <div className="min-h-screen bg-slate-100 text-slate-900">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <div className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-slate-200 bg-white px-4">
          <Link to="/" className="rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
            <HeaderMark />
          </Link>
          <div data-slot="user-menu">
            {signedOut ? (
              <Link
                to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`}
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:border-slate-400 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              >
                Sign in
              </Link>
            ) : UserMenu ? (
              <UserMenu />
            ) : null}
          </div>
        </div>
        {children}
      </div>
    </TooltipProvider>
  );
}

function FullPageLoading() {
  return (
    <div className="flex min-h-[calc(100vh-3.5rem)]" aria-busy="true" aria-label="Loading tracker">
      <div className="hidden w-60 shrink-0 border-r border-slate-200 bg-white p-4 min-[1050px]:block">
        {Array.from({ length: 7 }, (_, i) => (
          <div key={i} className="mb-3 h-8 animate-pulse rounded bg-slate-100" />
        ))}
      </div>
      <div className="flex-1">
        <div className="border-b border-slate-200 bg-white px-6 py-5">
          <div className="h-6 w-72 animate-pulse rounded bg-slate-200" />
          <div className="mt-4 h-9 w-[28rem] max-w-full animate-pulse rounded bg-slate-100" />
        </div>
        <PageLoading />
      </div>
    </div>
  );
}

function PageLoading() {
  return (
    <div className="grid grid-cols-12 gap-4 p-6" aria-busy="true">
      <p className="sr-only">Loading...</p>
      {[12, 6, 6, 12].map((w, i) => (
        <div key={i} className={`h-40 animate-pulse rounded-xl bg-white ${w === 12 ? 'col-span-12' : 'col-span-12 lg:col-span-6'}`} />
      ))}
    </div>
  );
}

export function TrackerNotFound() {
  return (
    <div className="flex min-h-[calc(100vh-3.5rem)] items-center justify-center p-6">
      <div className="max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">Tracker not found</h1>
        <p className="mt-2 text-sm text-slate-600">This tracker does not exist, was deleted, or is not shared with you.</p>
        <Link
          to="/mytracks/hashtag"
          className="mt-6 inline-flex rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          Go to Tracker List
        </Link>
      </div>
    </div>
  );
}

/** A shared link (or a media wall moderation link) that does not open the tracker: what happened and a way in. */
export function SharedLinkInvalid({ signedIn, next, moderation = false }: { signedIn: boolean; next: string; moderation?: boolean }) {
  return (
    <div className="flex min-h-[calc(100vh-3.5rem)] items-center justify-center p-6">
      <div role="alert" className="max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">{moderation ? 'This moderation link is no longer valid.' : 'This shared link is no longer valid.'}</h1>
        <p className="mt-2 text-sm text-slate-600">
          The link may have been {moderation ? 'reset' : 'revoked'} or mistyped. Ask the person who shared it for a new link
          {signedIn ? '.' : ', or sign in if you have access to this tracker.'}
        </p>
        <Link
          to={signedIn ? '/mytracks/hashtag' : `/login?next=${encodeURIComponent(next)}`}
          className="mt-6 inline-flex rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {signedIn ? 'Go to Tracker List' : 'Sign in'}
        </Link>
      </div>
    </div>
  );
}

/** A moderation link to a tracker whose media wall is not available (no social platform tracked). */
function MediaWallUnavailable() {
  return (
    <div className="flex min-h-[calc(100vh-3.5rem)] items-center justify-center p-6">
      <div role="alert" className="max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">The media wall is not available</h1>
        <p className="mt-2 text-sm text-slate-600">This tracker follows no platform with a media wall, so the moderation link has nothing to show.</p>
      </div>
    </div>
  );
}

function ErrorPanel({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="flex min-h-[calc(100vh-3.5rem)] items-center justify-center p-6">
      <div role="alert" className="max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-lg font-semibold text-slate-900">The tracker could not be loaded</h1>
        <p className="mt-2 text-sm text-slate-600">{message}</p>
        <button
          type="button"
          onClick={onRetry}
          className="mt-6 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          Try again
        </button>
      </div>
    </div>
  );
}

import { useEffect } from 'react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useTrackers } from '../../api/queries/trackers';
import type { Tracker } from '../../api/types';
import { AppHeader } from '../../components/AppHeader';
import { Button } from '../../components/Button';
import { PlatformBadges } from '../../components/PlatformBadges';
import { LoadingState } from '../../components/Spinner';
import { StatusDot } from '../../components/StatusDot';
import { formatCount, formatDay } from '../../lib/dates';
import { DemoLink, RequireSignIn } from '../auth';
import { dashboardPath, editPath } from './tracker-form';

/** The list asks for 100 trackers a page, as the tracker list call does. */
const PER_PAGE = 100;

const linkButton =
  'inline-flex h-9 items-center gap-1.5 rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2';

export function TrackerListPage() {
  return (
    <RequireSignIn>
      <TrackerList />
    </RequireSignIn>
  );
}

function TrackerList() {
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const list = useTrackers(page);
  const account = location.pathname.startsWith('/mytracks/account');

  useEffect(() => {
    // A failed list fetch is only logged (tracker-lifecycle.md section 8).
    if (list.isError) console.error('tracker list failed', list.error);
  }, [list.isError, list.error]);

  if (list.error instanceof ApiError && list.error.status === 401) {
    // The session ended since /me was read.
    return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }

  const trackers = list.data?.trackers ?? [];
  const count = list.data?.count ?? trackers.length;
  const pages = Math.max(1, Math.ceil(count / PER_PAGE));
  const goTo = (p: number) => setParams(p > 1 ? { page: String(p) } : {});

  return (
    <div className="min-h-screen bg-slate-50">
      <AppHeader />
      <main className="mx-auto max-w-6xl px-4 py-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-2xl font-semibold text-slate-900">{account ? 'Trackers' : 'My Trackers'}</h1>
            <p className="mt-1 text-sm text-slate-500">
              {list.isPending ? 'Loading your trackers…' : `${count} ${count === 1 ? 'tracker' : 'trackers'}`}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <DemoLink />
            <Link to="/new/ht/step1" className={linkButton}>
              <span aria-hidden="true">+</span> Add Tracker
            </Link>
          </div>
        </div>

        <section aria-label="Trackers" className="mt-6">
          {list.isPending ? (
            <LoadingState label="Loading trackers…" />
          ) : trackers.length === 0 ? (
            <EmptyState />
          ) : (
            <ul className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
              {trackers.map((t) => (
                <TrackerRow key={t.hash} tracker={t} />
              ))}
            </ul>
          )}
          {pages > 1 && (
            <nav aria-label="Pagination" className="mt-4 flex items-center justify-between text-sm text-slate-600">
              <span>
                Page {page} of {pages}
              </span>
              <div className="flex gap-2">
                <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => goTo(page - 1)}>
                  Previous
                </Button>
                <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => goTo(page + 1)}>
                  Next
                </Button>
              </div>
            </nav>
          )}
        </section>
      </main>
    </div>
  );
}

function TrackerRow({ tracker: t }: { tracker: Tracker }) {
  return (
    <li className="group relative flex flex-wrap items-center gap-x-6 gap-y-2 px-5 py-4 hover:bg-slate-50" data-testid="tracker-row">
      <div className="min-w-0 flex-1 basis-64">
        <div className="flex items-center gap-3">
          <Link
            to={dashboardPath(t)}
            className="truncate text-base font-semibold text-slate-900 after:absolute after:inset-0 hover:text-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            {t.title}
          </Link>
        </div>
        <p className="mt-1 truncate font-mono text-xs text-slate-500" title={t.searchDisplay}>
          {t.searchDisplay}
        </p>
      </div>
      <div className="w-40">
        <PlatformBadges platforms={t.platforms} />
      </div>
      <div className="w-28">
        <StatusDot status={t.status} />
      </div>
      <dl className="flex gap-6 text-sm">
        <div className="w-20">
          <dt className="text-xs text-slate-500">Posts</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{formatCount(t.totalPosts)}</dd>
        </div>
        <div className="w-28">
          <dt className="text-xs text-slate-500">Created</dt>
          <dd className="text-slate-700">{formatDay(t.created)}</dd>
        </div>
      </dl>
      {t.permission >= 2 && (
        <Link
          to={editPath(t)}
          aria-label={`Settings for ${t.title}`}
          className="relative z-10 rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <svg viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor" aria-hidden="true">
            <path fillRule="evenodd" d="M8.34 1.8A1 1 0 0 1 9.32 1h1.36a1 1 0 0 1 .98.8l.28 1.4c.5.2.97.47 1.4.8l1.35-.46a1 1 0 0 1 1.18.45l.68 1.18a1 1 0 0 1-.2 1.25l-1.07.95a6 6 0 0 1 0 1.62l1.07.95a1 1 0 0 1 .2 1.25l-.68 1.18a1 1 0 0 1-1.18.45l-1.35-.46c-.43.33-.9.6-1.4.8l-.28 1.4a1 1 0 0 1-.98.8H9.32a1 1 0 0 1-.98-.8l-.28-1.4a6 6 0 0 1-1.4-.8l-1.35.46a1 1 0 0 1-1.18-.45l-.68-1.18a1 1 0 0 1 .2-1.25l1.07-.95a6 6 0 0 1 0-1.62l-1.07-.95a1 1 0 0 1-.2-1.25l.68-1.18a1 1 0 0 1 1.18-.45l1.35.46c.43-.33.9-.6 1.4-.8l.28-1.4ZM10 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Z" clipRule="evenodd" />
          </svg>
        </Link>
      )}
    </li>
  );
}

function EmptyState() {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
      <svg viewBox="0 0 48 48" className="mx-auto h-12 w-12 text-slate-300" fill="none" aria-hidden="true">
        <path d="M8 24a16 16 0 0 1 32 0" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
        <path d="M16 24a8 8 0 0 1 16 0" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
        <circle cx="24" cy="31" r="4" fill="currentColor" />
      </svg>
      <h2 className="mt-4 text-base font-semibold text-slate-900">No trackers yet</h2>
      <p className="mx-auto mt-1 max-w-sm text-sm text-slate-500">
        A tracker collects posts that mention your hashtags and keywords across social platforms and the web.
      </p>
      <Link to="/new/ht/step1" className={`${linkButton} mt-6`}>
        Create your first tracker
      </Link>
    </div>
  );
}

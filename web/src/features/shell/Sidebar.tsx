// Tracker sidebar (tracker-lifecycle spec, section 2 "Sidebar").
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useState, type ComponentType, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTrackers } from '../../api/queries/trackers';
import type { Tracker } from '../../api/types';
import {
  IconArrowLeft,
  IconBell,
  IconChevronDown,
  IconDashboard,
  IconHistory,
  IconImage,
  IconMenu,
  IconPosts,
  IconSettings,
  IconSmile,
  IconTrending,
  IconUsers,
  IconX,
} from '../../components/icons';
import { formatCount } from '../../lib/dates';
import { pageAvailable, type Access } from '../../state/access';
import { keepShareAndDemo, toSearch, type QueryState, type TrackerPage } from '../../state/query-state';
import { editPath, trackerPath } from '../../state/routes';

export const QUICK_SWITCHER_PAGE_SIZE = 100;

export type PostCount = { status: 'loading' } | { status: 'error' } | { status: 'ok'; count: number };

export interface SidebarProps {
  tracker: Tracker;
  access: Access;
  page: TrackerPage;
  query: QueryState;
  hrefFor: (page: TrackerPage) => string;
  postCount: PostCount;
  onHistorical: () => void;
  /** Icon rail (under 1050 px) instead of the full column. */
  collapsed: boolean;
}

interface Entry {
  key: string;
  label: string;
  icon: ComponentType<{ size?: number }>;
  href: string;
  active?: boolean;
  extra?: ReactNode;
  disabled?: boolean;
}

export function Sidebar(props: SidebarProps) {
  const { collapsed } = props;
  const [open, setOpen] = useState(false);
  if (!collapsed) {
    return (
      <aside className="sticky top-14 h-[calc(100vh-3.5rem)] w-60 shrink-0 overflow-y-auto border-r border-slate-200 bg-white" aria-label="Tracker navigation">
        <SidebarBody {...props} rail={false} />
      </aside>
    );
  }
  return (
    <>
      <aside className="sticky top-14 h-[calc(100vh-3.5rem)] w-14 shrink-0 border-r border-slate-200 bg-white" aria-label="Tracker navigation">
        <button
          type="button"
          className="mx-auto mt-2 flex h-10 w-10 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
          aria-label="Expand sidebar"
          aria-expanded={open}
          onClick={() => setOpen(true)}
        >
          <IconMenu />
        </button>
        {!open ? <SidebarBody {...props} rail /> : null}
      </aside>
      {open ? (
        <div className="fixed inset-0 z-40" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
          <div className="absolute inset-0 bg-slate-900/30" onClick={() => setOpen(false)} aria-hidden="true" />
          <aside className="absolute left-0 top-0 h-full w-64 overflow-y-auto bg-white shadow-xl" aria-label="Tracker navigation (expanded)">
            <div className="flex justify-end p-2">
              <button
                type="button"
                autoFocus
                className="flex h-9 w-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
                aria-label="Collapse sidebar"
                onClick={() => setOpen(false)}
              >
                <IconX />
              </button>
            </div>
            <SidebarBody {...props} rail={false} />
          </aside>
        </div>
      ) : null}
    </>
  );
}

function SidebarBody({ tracker, access, page, query, hrefFor, postCount, onHistorical, rail }: SidebarProps & { rail: boolean }) {
  const friendly = tracker.friendly;
  const keep = toSearch(keepShareAndDemo(query), 'dashboard');
  const isDashboard = page === 'dashboard' || page === 'realtime';
  const all: Entry[] = [
    { key: 'dashboard', label: 'Dashboard', icon: IconDashboard, href: hrefFor('dashboard'), active: isDashboard },
    {
      key: 'posts',
      label: 'Posts',
      icon: IconPosts,
      href: hrefFor('posts'),
      active: page === 'posts',
      extra: <PostCountBadge count={postCount} />,
    },
    { key: 'influencers', label: 'Influencers', icon: IconUsers, href: hrefFor('influencers'), active: page === 'influencers' },
  ];
  if (pageAvailable('trending-topics', tracker.platforms))
    all.push({ key: 'topics', label: 'Trending Topics', icon: IconTrending, href: hrefFor('trending-topics'), active: page === 'trending-topics' });
  if (pageAvailable('sentiment', tracker.platforms))
    all.push({ key: 'sentiment', label: 'Sentiment', icon: IconSmile, href: hrefFor('sentiment'), active: page === 'sentiment' });
  if (pageAvailable('media-wall', tracker.platforms))
    all.push({ key: 'media-wall', label: 'Media Wall', icon: IconImage, href: hrefFor('media-wall'), active: page === 'media-wall' });

  // A moderation link opens the media wall only: the sidebar offers no page the key does not open.
  const entries = access.moderationOnly ? all.filter((e) => e.key === 'media-wall') : all;

  const settings: Entry[] = [];
  if (access.canSeeSettings) {
    settings.push({ key: 'edit', label: 'Tracker Settings', icon: IconSettings, href: editPath(tracker.hash, friendly) + keep, disabled: access.demo });
    settings.push({
      key: 'notifications',
      label: 'Notification Settings',
      icon: IconBell,
      href: trackerPath('notifications', tracker.hash, friendly) + keep,
      active: page === 'notifications',
      disabled: access.demo,
    });
  }

  // A visitor of a shared link (or of a moderation link) has no tracker list: the sidebar holds
  // this tracker's pages only.
  const back = access.demo
    ? { label: 'Go to Dashboard', href: '/' }
    : (access.shared || access.moderationOnly) && !access.isLoggedIn
      ? null
      : { label: 'Go to Tracker List', href: '/mytracks/hashtag' };

  return (
    <nav className={rail ? 'flex flex-col items-center gap-1 py-2' : 'flex flex-col gap-1 p-3'}>
      {back ? <SidebarLink entry={{ key: 'back', label: back.label, icon: IconArrowLeft, href: back.href }} rail={rail} muted /> : null}
      {!rail ? (
        <div className="mb-2 mt-1 rounded-lg border border-slate-200 bg-slate-50 p-3">
          <p className="truncate text-sm font-semibold text-slate-900" title={tracker.title}>
            {tracker.title}
          </p>
          <TrackerStatus status={tracker.status} />
          {access.canSwitchTrackers ? <QuickSwitcher tracker={tracker} page={page} query={query} /> : null}
        </div>
      ) : (
        <span className="my-1 flex h-8 items-center" title={tracker.status === 'paused' ? 'Paused' : 'Tracker Active'}>
          <StatusDot status={tracker.status} />
          <span className="sr-only">{tracker.status === 'paused' ? 'Paused' : 'Tracker Active'}</span>
        </span>
      )}
      <ul className={rail ? 'flex flex-col items-center gap-1' : 'flex flex-col gap-0.5'}>
        {entries.map((e) => (
          <li key={e.key} className="relative">
            <SidebarLink entry={e} rail={rail} />
          </li>
        ))}
      </ul>
      {settings.length || access.canSeeHistorical ? <hr className={rail ? 'my-2 w-8 border-slate-200' : 'my-2 border-slate-200'} /> : null}
      <ul className={rail ? 'flex flex-col items-center gap-1' : 'flex flex-col gap-0.5'}>
        {settings.map((e) => (
          <li key={e.key}>
            <SidebarLink entry={e} rail={rail} />
          </li>
        ))}
        {access.canSeeHistorical ? (
          <li>
            <button
              type="button"
              onClick={onHistorical}
              disabled={access.embed}
              className={`${itemClass(false, rail)} w-full disabled:cursor-not-allowed disabled:opacity-50`}
              title={rail ? 'Historical Data' : undefined}
            >
              <IconHistory />
              <span className={rail ? 'sr-only' : ''}>Historical Data</span>
            </button>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

function itemClass(active: boolean | undefined, rail: boolean, muted = false) {
  const base = rail
    ? 'flex h-10 w-10 items-center justify-center rounded-md'
    : 'flex items-center gap-3 rounded-md px-3 py-2 text-sm';
  const tone = active
    ? 'bg-brand-50 font-semibold text-brand-700'
    : muted
      ? 'text-slate-500 hover:bg-slate-100 hover:text-slate-800'
      : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900';
  return `${base} ${tone} focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600`;
}

function SidebarLink({ entry, rail, muted }: { entry: Entry; rail: boolean; muted?: boolean }) {
  const Icon = entry.icon;
  if (entry.disabled) {
    return (
      <a aria-disabled="true" className={`${itemClass(false, rail)} cursor-not-allowed opacity-50`} title={rail ? entry.label : undefined}>
        <Icon />
        <span className={rail ? 'sr-only' : ''}>{entry.label}</span>
      </a>
    );
  }
  return (
    <>
      <Link
        to={entry.href}
        aria-current={entry.active ? 'page' : undefined}
        className={itemClass(entry.active, rail, muted)}
        title={rail ? entry.label : undefined}
      >
        <Icon />
        <span className={rail ? 'sr-only' : 'flex-1'}>{entry.label}</span>
      </Link>
      {entry.extra && !rail ? <span className="pointer-events-none absolute right-3 top-1/2 -translate-y-1/2">{entry.extra}</span> : null}
    </>
  );
}

function PostCountBadge({ count }: { count: PostCount }) {
  if (count.status === 'error') return null;
  const text = count.status === 'loading' ? '...' : formatCount(count.count);
  return (
    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium tabular-nums text-slate-600" data-testid="post-count" title="Posts in the selected range">
      {text}
    </span>
  );
}

function StatusDot({ status }: { status: Tracker['status'] }) {
  return <span className={`inline-block h-2.5 w-2.5 rounded-full ${status === 'paused' ? 'bg-red-500' : 'bg-green-500'}`} aria-hidden="true" />;
}

export function TrackerStatus({ status }: { status: Tracker['status'] }) {
  return (
    <p className="mt-1 flex items-center gap-2 text-xs text-slate-600">
      <StatusDot status={status} />
      {status === 'paused' ? 'Paused' : 'Tracker Active'}
    </p>
  );
}

/** Owner only: the caller's other trackers, opening the same section. */
function QuickSwitcher({ tracker, page, query }: { tracker: Tracker; page: TrackerPage; query: QueryState }) {
  const [open, setOpen] = useState(false);
  const list = useTrackers(1, true);
  const others = (list.data?.trackers ?? []).filter((t) => t.hash !== tracker.hash);
  const keep = toSearch(keepShareAndDemo(query), page);
  const section: TrackerPage = page === 'notifications' ? 'dashboard' : page;
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen}>
      <DropdownMenu.Trigger
        className="mt-3 flex w-full items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-left text-xs text-slate-700 hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-brand-600"
        aria-label="Tracker Quick Switcher"
      >
        <span>Switch tracker</span>
        <IconChevronDown size={14} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          className="z-50 max-h-80 w-64 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg"
        >
          {list.isLoading ? <div className="px-3 py-2 text-slate-500">Loading...</div> : null}
          {list.isError ? <div className="px-3 py-2 text-slate-500">Trackers could not be loaded.</div> : null}
          {list.isSuccess && others.length === 0 ? <div className="px-3 py-2 text-slate-500">No other trackers.</div> : null}
          {others.map((t) => (
            <DropdownMenu.Item key={t.hash} asChild>
              <Link
                to={trackerPath(pageAvailable(section, t.platforms) ? section : 'dashboard', t.hash, t.friendly) + keep}
                className="flex items-center gap-2 rounded-md px-3 py-2 text-slate-700 outline-none data-[highlighted]:bg-slate-100"
              >
                <StatusDot status={t.status} />
                <span className="truncate">{t.title}</span>
              </Link>
            </DropdownMenu.Item>
          ))}
          {(list.data?.count ?? 0) > QUICK_SWITCHER_PAGE_SIZE ? (
            <DropdownMenu.Item asChild>
              <Link to="/mytracks/hashtag" className="block rounded-md px-3 py-2 font-medium text-brand-700 outline-none data-[highlighted]:bg-slate-100">
                see full tracker list
              </Link>
            </DropdownMenu.Item>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

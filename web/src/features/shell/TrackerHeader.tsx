// Tracker page header (dashboard-and-shell spec, section 2 "Tracker page header").
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useTags } from '../../api/queries/trackers';
import { useHideAuthMetrics, useInfluencerTags } from '../../api/queries/shell';
import { IconChevronDown, IconCode, IconExternal, IconHistory, IconShare, IconSliders, IconUsers } from '../../components/icons';
import { Tooltip } from '../../components/Tooltip';
import { trialLockedPlatforms } from '../../state/access';
import { applyTagFilters, clearTagFilters, setCustomRange, setDays, setPlatforms, setSubtracker, tagFilters } from '../../state/query-state';
import { defaultDays } from '../../state/query-state';
import { editPath, showsSubHeader } from '../../state/routes';
import { ExportMenu } from '../exports/ExportMenu';
import { useShell } from './context';
import { DateRangePicker } from './DateRangePicker';
import { EmbedDialog } from './EmbedDialog';
import { embedPageLabel, embedPageOf, fullTrackerHref } from './embed';
import { PlatformCheckboxes } from './PlatformCheckboxes';
import { historicalButton } from './historical';
import { ShareModal } from './ShareModal';
import { TagFilter } from './TagFilter';
import { TeamModal } from './TeamModal';
import { MANAGE_INFLUENCER_TAGS_ACTION } from './tag-filter';

// The Customize panel (with its drag-and-drop code) loads on first open.
const CustomizePanel = lazy(() => import('./CustomizePanel').then((m) => ({ default: m.CustomizePanel })));

export const SUBTRACKER_WIDTH = 180;

const button =
  'inline-flex h-9 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 shadow-sm hover:border-slate-400 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50';

export function TrackerHeader() {
  const shell = useShell();
  const { tracker, access, page, query, update, now, range, platforms, openHistorical } = shell;
  const location = useLocation();
  const [shareOpen, setShareOpen] = useState(false);
  const [teamOpen, setTeamOpen] = useState(false);
  const [embedOpen, setEmbedOpen] = useState(false);
  // The posts page and the media wall have an Embed button of their own.
  const embedPage = page === 'posts' || page === 'media-wall' ? null : embedPageOf(page);
  const [customizeOpen, setCustomizeOpenState] = useState(false);
  // Once opened it stays mounted, so a pending debounced save is never cut short.
  const [customizeUsed, setCustomizeUsed] = useState(false);
  const setCustomizeOpen = (o: boolean) => {
    if (o) setCustomizeUsed(true);
    setCustomizeOpenState(o);
  };
  const isDashboard = page === 'dashboard' || page === 'realtime';
  const historical = historicalButton(!!tracker.isBackfilling);
  const previewLocked = page === 'posts' && tracker.isPreviewMode;

  return (
    <header className="border-b border-slate-200 bg-white">
      <div className={`flex flex-wrap items-center gap-x-4 gap-y-3 ${access.embed ? 'px-4 py-2' : 'px-6 py-4'}`}>
        <div className="flex min-w-0 flex-1 items-center gap-3">
          {/* The title is text: React escapes it, so no markup from the title reaches the page. */}
          {access.embed ? (
            // In a frame the title opens the full tracker (this page without the embed) in a new tab.
            <h1 className="min-w-0 truncate text-lg font-semibold text-slate-900" title={tracker.title}>
              <a
                href={fullTrackerHref(window.location.origin, location.pathname, location.search)}
                target="_blank"
                rel="noopener"
                className="inline-flex max-w-full items-center gap-2 rounded hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              >
                <span className="truncate">{tracker.title}</span>
                <IconExternal size={14} className="shrink-0 text-slate-400" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </h1>
          ) : (
            <h1 className="truncate text-xl font-semibold text-slate-900" title={tracker.title}>
              {tracker.title}
            </h1>
          )}
          {access.demo ? <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-bold tracking-wide text-amber-800">DEMO</span> : null}
          {access.shared && !access.moderationOnly && !access.embed ? (
            <span className="shrink-0 rounded bg-slate-100 px-2 py-0.5 text-xs font-bold tracking-wide text-slate-600" title="You are viewing this tracker through a shared link.">
              SHARED
            </span>
          ) : null}
          {access.moderationOnly && !access.embed ? (
            <span className="shrink-0 rounded bg-slate-100 px-2 py-0.5 text-xs font-bold tracking-wide text-slate-600" title="You are moderating this media wall through a moderation link.">
              MODERATION LINK
            </span>
          ) : null}
          {access.canEditTracker && !access.embed ? (
            <Link
              to={editPath(tracker.hash, tracker.friendly) + location.search}
              className="shrink-0 rounded text-xs font-bold tracking-wide text-brand-700 hover:text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              EDIT TRACKER
            </Link>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {access.demo ? <CreateOwnTracker /> : null}
          {access.canSeeHistorical ? (
            <button type="button" className={button} disabled={historical.disabled || access.embed} onClick={openHistorical}>
              <IconHistory size={16} />
              {historical.label}
            </button>
          ) : null}
          {isDashboard && access.canExport ? <HeaderExportMenu /> : null}
          {access.canManage ? (
            <button type="button" className={button} disabled={access.embed} onClick={() => setShareOpen(true)} aria-haspopup="dialog">
              <IconShare size={16} />
              Share
            </button>
          ) : null}
          {access.canEmbed && embedPage ? (
            <button type="button" className={button} onClick={() => setEmbedOpen(true)} aria-haspopup="dialog">
              <IconCode size={16} />
              Embed
            </button>
          ) : null}
          {access.canManageTeam ? (
            <button type="button" className={button} disabled={access.embed} onClick={() => setTeamOpen(true)} aria-haspopup="dialog">
              <IconUsers size={16} />
              Team
            </button>
          ) : null}
          {/* The layout is the owner's and administrators' to change: others have nothing to do there. */}
          {isDashboard && access.canManage ? (
            <button type="button" className={button} disabled={access.embed} onClick={() => setCustomizeOpen(true)} aria-haspopup="dialog">
              <IconSliders size={16} />
              Customize
            </button>
          ) : null}
        </div>
      </div>
      {showsSubHeader(page) ? (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-3 border-t border-slate-100 bg-slate-50/60 px-6 py-3">
          {/* The media wall shows the newest posts whatever the date range: no picker there. */}
          {page === 'media-wall' ? null : (
            <DateRangePicker
              tracker={tracker}
              selection={query.date ?? { kind: 'days', days: defaultDays(page) }}
              range={range}
              now={now}
              disabled={!access.canEditDates || previewLocked}
              onDays={(d) => update(setDays(d))}
              onCustom={(s, e) => update(setCustomRange(s, e))}
            />
          )}
          <PlatformCheckboxes
            page={page}
            flags={tracker.platforms}
            selected={platforms}
            trial={access.trial}
            trialLocked={trialLockedPlatforms(shell.me)}
            disabled={previewLocked}
            onChange={(sel) => update(setPlatforms(sel))}
          />
          <div className="ml-auto flex flex-wrap items-center gap-3">
            {tracker.subtrackers?.length && !access.embed ? <SubtrackerSelect /> : null}
            {/* Tags do not narrow the media wall (it shows the newest posts with media). */}
            {page !== 'media-wall' && ((access.canManage && !access.embed) || query.postTags.length || query.influencerTags.length) ? (
              <HeaderTagFilter disabled={previewLocked} />
            ) : null}
            {access.canManage && !access.embed ? <HideAuthMetrics /> : null}
          </div>
        </div>
      ) : null}
      {access.canManage ? (
        <ShareModal open={shareOpen} onOpenChange={setShareOpen} hash={tracker.hash} search={location.search} friendly={tracker.friendly} />
      ) : null}
      {access.canEmbed && embedPage && embedOpen ? (
        <EmbedDialog open onOpenChange={setEmbedOpen} hash={tracker.hash} target={{ page: embedPage }} label={embedPageLabel(embedPage)} />
      ) : null}
      {access.canManageTeam ? <TeamModal open={teamOpen} onOpenChange={setTeamOpen} hash={tracker.hash} meId={shell.me?.id ?? null} /> : null}
      {isDashboard && access.canManage && (customizeOpen || customizeUsed) ? (
        <Suspense fallback={null}>
          <CustomizePanel open={customizeOpen} onOpenChange={setCustomizeOpen} tracker={tracker} platforms={platforms} canEdit={access.canManage} canChooseColumns={access.canManage} />
        </Suspense>
      ) : null}
    </header>
  );
}

/** Exports of the dashboard, for who may export; disabled in a frame and in preview mode. */
function HeaderExportMenu() {
  const { tracker, me, access, query, filters } = useShell();
  return (
    <ExportMenu
      hash={tracker.hash}
      filters={filters}
      shareHash={access.shared ? query.shareHash : null}
      grouping={query.grouping}
      eri={query.eridropdown}
      cumulative={query.cumulative}
      signedIn={access.isLoggedIn}
      xls={!!me?.features?.xls}
      disabled={access.embed || tracker.isPreviewMode}
      disabledReason={access.embed ? 'Exports are not available in an embedded view.' : 'Exports open once the preview has ended.'}
    />
  );
}

function CreateOwnTracker() {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="inline-flex h-9 items-center gap-2 rounded-md bg-brand-600 px-3 text-sm font-medium text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
        Create My Own Tracker
        <IconChevronDown size={14} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={4} className="z-50 w-52 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg">
          <DropdownMenu.Item asChild>
            <Link to="/new/ht/step1" className="block rounded-md px-3 py-2 text-slate-700 outline-none data-[highlighted]:bg-slate-100">
              Add Tracker
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild>
            <Link to="/advanced" className="block rounded-md px-3 py-2 text-slate-700 outline-none data-[highlighted]:bg-slate-100">
              Add Advanced Tracker
            </Link>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * Choosing a subtracker narrows the tracker pages to its posts: it sets the `subtracker` filter
 * of the URL query (the option value `{hash}/{friendly}?subtracker=N` names the same state), which
 * every dashboard request sends on.
 */
function SubtrackerSelect() {
  const { tracker, query, update } = useShell();
  return (
    <select
      aria-label="Subtracker"
      style={{ width: SUBTRACKER_WIDTH }}
      value={query.subtracker === null ? '' : String(query.subtracker)}
      onChange={(e) => update(setSubtracker(e.target.value ? Number(e.target.value) : null))}
      className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-700 shadow-sm focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <option value="">All Subtrackers</option>
      {tracker.subtrackers.map((s, i) => (
        <option key={s.value} value={String(subtrackerNumber(s.value) ?? i + 1)}>
          {s.label}
        </option>
      ))}
    </select>
  );
}

/** The subtracker number a dropdown value carries (`…?subtracker=N`). */
export function subtrackerNumber(value: string): number | null {
  const m = /[?&]subtracker=(\d+)/.exec(value);
  return m ? Number(m[1]) : null;
}

function HeaderTagFilter({ disabled }: { disabled: boolean }) {
  const { tracker, access, query, update, hrefFor } = useShell();
  const [opened, setOpened] = useState(false);
  // Post tags load for the owner or an admin only; influencer tags for a signed-in caller.
  const postTags = useTags(tracker.hash, access.canManage);
  const infTags = useInfluencerTags(access.isLoggedIn && opened);
  return (
    <TagFilter
      applied={tagFilters(query)}
      postTags={{ tags: postTags.data?.tags ?? [], loading: postTags.isLoading, error: postTags.isError }}
      influencerTags={{
        tags: infTags.data?.tags ?? [],
        loading: infTags.isLoading || (access.isLoggedIn && !opened),
        error: infTags.isError,
      }}
      canCreate={access.canManage}
      createHref={hrefFor('posts')}
      watchlistHref={withAction(hrefFor('influencers'), MANAGE_INFLUENCER_TAGS_ACTION)}
      disabled={disabled}
      onOpen={() => setOpened(true)}
      onApply={(f) => {
        update(applyTagFilters(f));
        window.scrollTo?.({ top: 0 });
      }}
      onClear={() => update(clearTagFilters)}
    />
  );
}

/** A page address with the one-shot `action` parameter (opens a modal there). */
function withAction(href: string, action: string): string {
  return `${href}${href.includes('?') ? '&' : '?'}action=${encodeURIComponent(action)}`;
}

function HideAuthMetrics() {
  const { tracker } = useShell();
  const m = useHideAuthMetrics(tracker.hash);
  return (
    <Tooltip content={m.isError ? 'The setting could not be saved.' : null}>
      <label className="inline-flex cursor-pointer select-none items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="h-4 w-4 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          checked={!!tracker.hideAuthMetrics}
          onChange={(e) => m.mutate(e.target.checked)}
        />
        Hide Authenticated Metrics
      </label>
    </Tooltip>
  );
}


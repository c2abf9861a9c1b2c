// Who may see and do what on a tracker page, and which platforms a page shows.
// Pure functions of the tracker, the caller (GET /me?tracker=) and the query flags.
import type { Me, PlatformCode, PlatformFlags, Tracker } from '../api/types';
import { PLATFORM_CODES, type TrackerPage } from './query-state';

export const WEB_PLATFORMS: PlatformCode[] = ['news', 'blogs', 'forums'];
/** Platforms a trial cannot switch on when GET /me does not say (the plan catalogue's default). */
export const TRIAL_LOCKED: PlatformCode[] = ['tt', 'fb', 'yt'];

/**
 * The platforms a trial account cannot switch on, as this instance's plan catalogue has them
 * (`me.trialLockedPlatforms`); the default list while /me has not loaded or does not carry them.
 * Codes this app does not know are left out.
 */
export function trialLockedPlatforms(me: { trialLockedPlatforms?: readonly string[] | null } | undefined | null): PlatformCode[] {
  const list = me?.trialLockedPlatforms;
  if (!Array.isArray(list)) return TRIAL_LOCKED;
  return list.filter((c): c is PlatformCode => (PLATFORM_CODES as string[]).includes(c));
}

/** Why a trial-locked platform is locked ('listening for specified ... accounts is not available on trial'). */
export function trialLockText(platformLabel: string): string {
  return `listening for specified ${platformLabel} accounts is not available on trial`;
}

/** Platforms each page supports; the other pages support them all. */
export const PAGE_PLATFORMS: Partial<Record<TrackerPage, PlatformCode[]>> = {
  'trending-topics': ['twt', 'ig', 'fb', 'yt', 'tt', 'bsky', 'mastodon'],
  sentiment: ['twt', 'ig', 'fb', 'bsky', 'mastodon'],
  'media-wall': ['twt', 'ig', 'fb', 'yt', 'tt', 'bsky', 'mastodon'],
};

export function pagePlatforms(page: TrackerPage): PlatformCode[] {
  return PAGE_PLATFORMS[page] ?? PLATFORM_CODES;
}

export function trackerPlatforms(flags: PlatformFlags | undefined | null): PlatformCode[] {
  if (!flags) return [];
  return PLATFORM_CODES.filter((c) => flags[c] === 1);
}

export function hasSocialPlatform(flags: PlatformFlags | undefined | null): boolean {
  return trackerPlatforms(flags).some((c) => !WEB_PLATFORMS.includes(c));
}

/** Trending topics, sentiment and media wall need a social platform the page allows. */
export function pageAvailable(page: TrackerPage, flags: PlatformFlags | undefined | null): boolean {
  const allowed = PAGE_PLATFORMS[page];
  if (!allowed) return true;
  return hasSocialPlatform(flags) && trackerPlatforms(flags).some((c) => allowed.includes(c));
}

/** The platforms the page may filter on: the tracker's, limited to what the page supports. */
export function availablePlatforms(page: TrackerPage, flags: PlatformFlags | undefined | null): PlatformCode[] {
  const allowed = pagePlatforms(page);
  return trackerPlatforms(flags).filter((c) => allowed.includes(c));
}

/** The effective selection: the URL's platforms that are available, or all available ones. */
export function selectedPlatforms(
  chosen: PlatformCode[] | null,
  page: TrackerPage,
  flags: PlatformFlags | undefined | null,
): PlatformCode[] {
  const available = availablePlatforms(page, flags);
  if (!chosen) return available;
  const picked = available.filter((c) => chosen.includes(c));
  return picked.length ? picked : available;
}

/**
 * Toggling a platform checkbox. The last checked platform cannot be unchecked (the toggle is
 * reverted: the same selection comes back) and unavailable platforms cannot be checked.
 * Returns null when the result is every available platform (the URL default).
 */
export function togglePlatform(
  current: PlatformCode[],
  code: PlatformCode,
  page: TrackerPage,
  flags: PlatformFlags | undefined | null,
): { selection: PlatformCode[]; reverted: boolean } {
  const available = availablePlatforms(page, flags);
  if (!available.includes(code)) return { selection: current, reverted: true };
  if (current.includes(code)) {
    if (current.length <= 1) return { selection: current, reverted: true };
    return { selection: current.filter((c) => c !== code), reverted: false };
  }
  return { selection: available.filter((c) => c === code || current.includes(c)), reverted: false };
}

export interface Access {
  isLoggedIn: boolean;
  isAdmin: boolean;
  isOwner: boolean;
  trial: boolean;
  permission: number;
  demo: boolean;
  embed: boolean;
  /** EDIT TRACKER link in the header: editors and above (the search form is theirs to change). */
  canEditTracker: boolean;
  /** Tracker Settings and Notification Settings in the sidebar. */
  canSeeSettings: boolean;
  /** Historical Data button and sidebar entry. */
  canSeeHistorical: boolean;
  /** Date range picker enabled. */
  canEditDates: boolean;
  /** Post tags, share, customize and the hide-authenticated-metrics toggle. */
  canManage: boolean;
  /** The Team dialog: owners and administrators, not through a share link nor in demo mode. */
  canManageTeam: boolean;
  /** Tracker quick switcher in the sidebar. */
  canSwitchTrackers: boolean;
  /** The caller reads through the tracker's share link (a visitor without access of their own). */
  shared: boolean;
  /** The timeline's prediction toggle (a shared link shows it only with 'View predictions'). */
  canViewPredictions: boolean;
  /** Downloads and embeds outside the lists (which say canExport themselves): not through a link without 'Export reports'. */
  canDownload: boolean;
  /**
   * Exports (POST /exports): owners and administrators, viewers of a tracker that shares exports,
   * and a share link with 'Export reports' (the server's rule). Inside a frame the Export menu
   * shows but stays disabled.
   */
  canExport: boolean;
  /** The Embed dialogs (GET /embed): who may export, never inside a frame. */
  canEmbed: boolean;
  /**
   * The caller reads through the media wall's moderation link (`moderationKey`) with no access of
   * their own: the key opens the tracker and its media wall only, so the shell offers nothing else.
   */
  moderationOnly: boolean;
}

/** Which pages a caller may open; null when every available page is theirs. */
export function allowedPages(access: Pick<Access, 'moderationOnly'>): TrackerPage[] | null {
  return access.moderationOnly ? ['media-wall'] : null;
}

export function computeAccess(
  me: Me | undefined | null,
  tracker: Pick<Tracker, 'permission' | 'isOwner' | 'unlockDate'> & Partial<Pick<Tracker, 'shared' | 'linkSharing' | 'isDemo' | 'shareExports'>>,
  flags: { demo: boolean; embed: boolean; moderationKey?: boolean; shareHash?: boolean },
): Access {
  const isLoggedIn = !!me?.isLoggedIn;
  // GET /me?tracker= is authoritative; the tracker's own fields cover a /me still loading.
  const permission = isLoggedIn ? Math.max(me!.permission ?? 0, tracker.permission ?? 0) : (tracker.permission ?? 0);
  const isAdmin = isLoggedIn && !!me!.isAdmin;
  const isOwner = isLoggedIn && (!!me!.isTrackerOwner || !!tracker.isOwner || permission >= 4);
  const managing = isLoggedIn && (isOwner || isAdmin || permission >= 3);
  const shared = !!tracker.shared;
  const link = tracker.linkSharing;
  // A moderation key gives no rights beyond the wall. The server answers its holder as it does a
  // link visitor (\`shared\`, reading as a viewer); only a caller with access of their own, or one
  // who also came through the share link (which opens every page), sees more than the wall.
  const moderationOnly = !!flags.moderationKey && !flags.shareHash && !flags.demo && !isAdmin && !isOwner && (shared || permission < 1);
  const canExport = shared
    ? !!link?.exportReports
    : isLoggedIn && (isAdmin || permission >= 3 || (!!tracker.shareExports && permission >= 1));
  return {
    isLoggedIn,
    isAdmin,
    isOwner,
    trial: isLoggedIn && !!me!.trial,
    permission,
    demo: flags.demo,
    embed: flags.embed,
    canEditTracker: flags.demo || (isLoggedIn && !shared && permission >= 2),
    canSeeSettings: managing && permission >= 3,
    canSeeHistorical: isLoggedIn && permission >= 2,
    canEditDates: !!tracker.unlockDate || (shared && !!link?.editDateRange) || isOwner || isAdmin,
    canManage: managing,
    canManageTeam: managing && !shared && !flags.demo && !tracker.isDemo,
    canSwitchTrackers: isOwner,
    shared,
    canViewPredictions: !shared || !!link?.viewPredictions,
    canDownload: !shared || !!link?.exportReports,
    canExport,
    canEmbed: !flags.embed && canExport,
    moderationOnly,
  };
}

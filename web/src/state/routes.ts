// Tracker page paths and the resolution of /hashtag-tracking/... into a page or a redirect.
import { isTrackerPage, type TrackerPage } from './query-state';

/** Sections of the old public links mapped to the pages of this app. */
const ALIASES: Record<string, TrackerPage> = { streaming: 'posts', media: 'media-wall' };

export function trackerPath(page: TrackerPage, hash: string, friendly?: string | null): string {
  const base = `/hashtag-tracking/${page}/${encodeURIComponent(hash)}`;
  return friendly ? `${base}/${encodeURIComponent(friendly)}` : base;
}

export function editPath(hash: string, friendly?: string | null): string {
  return friendly ? `/edit/${encodeURIComponent(hash)}/${encodeURIComponent(friendly)}` : `/edit/${encodeURIComponent(hash)}`;
}

export type ShellRoute =
  | { kind: 'page'; page: TrackerPage; hash: string; friendly: string | null }
  | { kind: 'redirect-list' }
  | { kind: 'redirect-page'; page: TrackerPage; hash: string; friendly: string | null };

/**
 * Path segments after /hashtag-tracking/. Without a hash the tracker list is the target; an
 * unknown page (or extra segments) goes to the tracker's dashboard.
 */
export function resolveShellRoute(segments: string[]): ShellRoute {
  const parts = segments.filter(Boolean);
  if (parts.length < 2) return { kind: 'redirect-list' };
  const [section, hash, friendly = null] = parts;
  if (parts.length > 3) return { kind: 'redirect-page', page: 'dashboard', hash, friendly };
  if (isTrackerPage(section)) return { kind: 'page', page: section, hash, friendly };
  const alias = ALIASES[section];
  if (alias) return { kind: 'redirect-page', page: alias, hash, friendly };
  return { kind: 'redirect-page', page: 'dashboard', hash, friendly };
}

/** Pages that show the header filters (date, platforms, tags…). */
export function showsSubHeader(page: TrackerPage): boolean {
  return page !== 'notifications';
}

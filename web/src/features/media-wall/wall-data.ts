// The media wall's rules as pure functions: refresh pace, settings (defaults, the form, its
// validation), the view (saved settings with the address's overrides), the wall query,
// selection, image fallback, carousels and the slideshow's steps.
import type { Query } from '../../api/client';
import type { MediaWallSettings, WallMedia, WallPost } from '../../api/queries/media-wall';
import type { PlatformCode } from '../../api/types';
import type { MediaWallParams, WallVisibility } from '../../state/query-state';

// ---- constants of the spec ----

export const REFRESH_DEFAULT_S = 30;
export const REFRESH_MIN_S = 20;
export const REFRESH_MAX_S = 120;
/** The pace quickens by this much when new posts arrived, and slows by it when none did. */
export const REFRESH_STEP_S = 5;
export const POST_COUNT_DEFAULT = 50;
export const POST_COUNT_MAX = 500;
/** The slideshow asks for this many more posts when it has shown all it holds. */
export const SLIDESHOW_STEP = 50;
export const SLIDE_MS = 6_000;
export const CAROUSEL_MS = 2_500;
export const EXCLUDE_USERS_MAX = 100;
export const USERNAME_MAX = 100;
export const SEARCH_MAX = 200;

export const FULLSCREEN_UNSUPPORTED = 'Your browser does not support full screen mode.';
export const SHARE_WARNING = 'Be careful who you share this with!';
export const SHARE_WARNING_DETAIL = 'Anyone with this link can moderate this media wall without signing in.';
export const MODERATION_LINK_INVALID = 'This moderation link is no longer valid.';
export const VISIBILITY_OPTIONS: { value: WallVisibility; label: string }[] = [
  { value: 1, label: 'Public' },
  { value: 0, label: 'Only You' },
  { value: -1, label: 'All Posts' },
];

export const DEFAULT_SETTINGS: MediaWallSettings = {
  displayMode: 'grid',
  theme: 'dark',
  displayText: true,
  updateFrequency: REFRESH_DEFAULT_S,
  postCount: POST_COUNT_DEFAULT,
  sortBy: 'date',
  excludeRetweets: false,
  excludeUsers: [],
};

// ---- refresh pace ----

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

/** A refresh interval in whole seconds within 20–120 (the default for anything unreadable). */
/** The title a card shows above the text (a video's, an article's), unless the text already opens
 * with it. */
export function cardTitle(post: Pick<WallPost, 'title' | 'text'>): string | null {
  const title = post.title?.trim();
  if (!title) return null;
  return post.text.trim().toLowerCase().startsWith(title.toLowerCase()) ? null : title;
}

export function clampFrequency(seconds: number | null | undefined): number {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return REFRESH_DEFAULT_S;
  return clamp(Math.round(seconds), REFRESH_MIN_S, REFRESH_MAX_S);
}

/** The next wait: 5 s shorter after a refresh that brought new posts, 5 s longer otherwise. */
export function nextRefreshSeconds(current: number, newPosts: boolean): number {
  return clampFrequency(clampFrequency(current) + (newPosts ? -REFRESH_STEP_S : REFRESH_STEP_S));
}

/** Keys of `next` that `previous` did not hold (none on a first load, when there is no previous). */
export function arrivedKeys(previous: readonly string[] | null, next: readonly string[]): string[] {
  if (previous === null) return [];
  const seen = new Set(previous);
  return next.filter((k) => !seen.has(k));
}

// ---- settings ----

/** The settings form: numbers as typed, excluded users as one text. */
export interface SettingsForm {
  displayMode: MediaWallSettings['displayMode'];
  theme: MediaWallSettings['theme'];
  displayText: boolean;
  updateFrequency: string;
  postCount: string;
  sortBy: MediaWallSettings['sortBy'];
  excludeRetweets: boolean;
  excludeUsers: string;
}

export type SettingsErrors = Partial<Record<'updateFrequency' | 'postCount' | 'excludeUsers', string>>;

export function settingsToForm(s: MediaWallSettings): SettingsForm {
  return {
    displayMode: s.displayMode,
    theme: s.theme,
    displayText: s.displayText,
    updateFrequency: String(s.updateFrequency),
    postCount: String(s.postCount),
    sortBy: s.sortBy,
    excludeRetweets: s.excludeRetweets,
    excludeUsers: s.excludeUsers.join(', '),
  };
}

/** Usernames as typed (commas, spaces or lines between them): '@' dropped, each once. */
export function parseUsernames(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of text.split(/[\s,]+/)) {
    const name = raw.trim().replace(/^@+/, '');
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(name);
  }
  return out;
}

function wholeNumber(text: string): number | null {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : null;
}

/** The form as settings to save, or what is wrong with it (field by field). */
export function validateSettingsForm(form: SettingsForm): { settings: MediaWallSettings; errors: null } | { settings: null; errors: SettingsErrors } {
  const errors: SettingsErrors = {};
  const frequency = wholeNumber(form.updateFrequency);
  if (frequency === null || frequency < REFRESH_MIN_S || frequency > REFRESH_MAX_S) {
    errors.updateFrequency = `Enter a whole number of seconds from ${REFRESH_MIN_S} to ${REFRESH_MAX_S}.`;
  }
  const count = wholeNumber(form.postCount);
  if (count === null || count < 1 || count > POST_COUNT_MAX) {
    errors.postCount = `Enter a whole number of posts from 1 to ${POST_COUNT_MAX}.`;
  }
  const users = parseUsernames(form.excludeUsers);
  if (users.length > EXCLUDE_USERS_MAX) errors.excludeUsers = `Exclude at most ${EXCLUDE_USERS_MAX} users.`;
  else if (users.some((u) => [...u].length > USERNAME_MAX)) errors.excludeUsers = `A username has at most ${USERNAME_MAX} characters.`;
  if (Object.keys(errors).length) return { settings: null, errors };
  return {
    settings: {
      displayMode: form.displayMode,
      theme: form.theme,
      displayText: form.displayText,
      updateFrequency: frequency!,
      postCount: count!,
      sortBy: form.sortBy,
      excludeRetweets: form.excludeRetweets,
      excludeUsers: users,
    },
    errors: null,
  };
}

/** Settings as the server sent them, with anything missing or out of range back to its default. */
export function normalizeSettings(s: Partial<MediaWallSettings> | null | undefined): MediaWallSettings {
  const d = DEFAULT_SETTINGS;
  if (!s) return d;
  return {
    displayMode: s.displayMode === 'slideshow' ? 'slideshow' : 'grid',
    theme: s.theme === 'light' ? 'light' : 'dark',
    displayText: s.displayText ?? d.displayText,
    updateFrequency: clampFrequency(s.updateFrequency),
    postCount: Number.isFinite(s.postCount) ? clamp(Math.round(s.postCount!), 1, POST_COUNT_MAX) : d.postCount,
    sortBy: s.sortBy === 'engagement' ? 'engagement' : 'date',
    excludeRetweets: s.excludeRetweets ?? d.excludeRetweets,
    excludeUsers: Array.isArray(s.excludeUsers) ? s.excludeUsers : d.excludeUsers,
  };
}

// ---- the view ----

export interface WallView {
  displayMode: MediaWallSettings['displayMode'];
  theme: MediaWallSettings['theme'];
  displayText: boolean;
}

/** The saved look, with the address's overrides on top (an embed shows the saved one only). */
export function wallView(saved: MediaWallSettings, overrides: MediaWallParams, embed: boolean): WallView {
  if (embed) return { displayMode: saved.displayMode, theme: saved.theme, displayText: saved.displayText };
  return {
    displayMode: overrides.displayMode ?? saved.displayMode,
    theme: overrides.theme ?? saved.theme,
    displayText: overrides.displayText ?? saved.displayText,
  };
}

/**
 * GET /media-wall's query. What it leaves out the server takes from the saved settings; `count`
 * goes only when the slideshow asked for more than the saved number.
 */
export function wallQuery(v: {
  platforms: PlatformCode[];
  subtracker: number | null;
  search: string;
  visibility: WallVisibility;
  excludeUsers: string[] | null;
  count: number | null;
}): Query {
  const q: Query = { platforms: v.platforms.join(',') };
  if (v.subtracker !== null) q.subtracker = v.subtracker;
  const search = v.search.trim().slice(0, SEARCH_MAX);
  if (search) q.search = search;
  if (v.visibility !== 1) q.visibility = v.visibility;
  if (v.excludeUsers !== null) q.excludeUsers = v.excludeUsers.join(',');
  if (v.count !== null) q.count = v.count;
  return q;
}

/** Whether a post belongs on the wall under the visibility filter (the queue is shown apart). */
export function matchesVisibility(visibility: number, filter: WallVisibility): boolean {
  if (filter === -1) return visibility === 0 || visibility === 1;
  return visibility === filter;
}

// ---- selection ----

export function toggleKey(selection: ReadonlySet<string>, key: string, on: boolean): Set<string> {
  const next = new Set(selection);
  if (on) next.add(key);
  else next.delete(key);
  return next;
}

/** Every key selected, or none when they all are already. */
export function toggleAll(selection: ReadonlySet<string>, keys: readonly string[]): Set<string> {
  return keys.length > 0 && keys.every((k) => selection.has(k)) ? new Set() : new Set(keys);
}

/** The selection without the posts no longer shown (deleted, hidden, moderated). */
export function pruneSelection(selection: ReadonlySet<string>, shown: readonly string[]): Set<string> {
  const keep = new Set(shown);
  const next = new Set([...selection].filter((k) => keep.has(k)));
  return next.size === selection.size ? (selection as Set<string>) : next;
}

// ---- media ----

/** Which source an image shows: its own, then (after an error) the thumbnail, then none. */
export type ImageStage = 'main' | 'thumbnail' | 'failed';

/** The stage after a load error: the thumbnail once when there is a different one, then failed. */
export function nextImageStage(stage: ImageStage, media: Pick<WallMedia, 'url' | 'thumbnailUrl'>): ImageStage {
  if (stage === 'main' && media.thumbnailUrl && media.thumbnailUrl !== media.url) return 'thumbnail';
  return 'failed';
}

export function imageSource(stage: ImageStage, media: Pick<WallMedia, 'url' | 'thumbnailUrl'>): string | null {
  if (stage === 'main') return media.url;
  if (stage === 'thumbnail') return media.thumbnailUrl;
  return null;
}

export function isVideo(m: Pick<WallMedia, 'kind' | 'url'>): boolean {
  return m.kind === 'video' || m.kind === 'reel' || (m.kind === 'gif' && /\.(mp4|webm)(\?|$)/i.test(m.url));
}

/** A post whose media turn by themselves: a carousel (or any post) with more than one. */
export function isCarousel(post: Pick<WallPost, 'media'>): boolean {
  return post.media.length > 1;
}

export function nextIndex(index: number, length: number): number {
  return length <= 0 ? 0 : (index + 1) % length;
}

export function previousIndex(index: number, length: number): number {
  return length <= 0 ? 0 : (index - 1 + length) % length;
}

// ---- slideshow ----

/**
 * The slideshow's next step from `index`. At the last post it asks for 50 more when the wall
 * may hold more (it got as many as it asked for, under 500), and starts over otherwise.
 */
export function slideshowNext(index: number, loaded: number, asked: number): { index: number; grow: boolean } {
  if (index + 1 < loaded) return { index: index + 1, grow: false };
  if (loaded >= asked && asked < POST_COUNT_MAX) return { index, grow: true };
  return { index: 0, grow: false };
}

export function grownCount(count: number): number {
  return Math.min(POST_COUNT_MAX, count + SLIDESHOW_STEP);
}

// ---- text ----

/** "5m", "3h", "2d", then the date. */
export function timeAgo(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return 'now';
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  if (s < 7 * 86_400) return `${Math.floor(s / 86_400)}d`;
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }).format(new Date(ms));
}

/** The visibility change's notice: what happened to how many posts. */
export function visibilityMessage(count: number, visibility: 0 | 1, queue: boolean): string {
  if (queue) return visibility === 1 ? `Approved ${count} post(s).` : `Rejected ${count} post(s).`;
  return visibility === 1 ? `${count} post(s) shown on the wall.` : `${count} post(s) hidden from the wall.`;
}

// The tracker form's values and their mapping to and from the API (TrackerInput / Tracker).
import type { PerPlatformLists, PlatformFlags, SearchRow, Tracker, TrackerInput } from '../../api/types';
import { emptyPlatforms, formatList, initialRows, normalizeRows, parseList, rowsForEditing, validate } from './search-builder';

export type ListPlatform = keyof PerPlatformLists;
export const LIST_PLATFORMS: { code: ListPlatform; label: string }[] = [
  { code: 'twt', label: 'Twitter' },
  { code: 'ig', label: 'Instagram' },
  { code: 'yt', label: 'YouTube' },
  { code: 'fb', label: 'Facebook' },
  { code: 'tt', label: 'TikTok' },
  { code: 'web', label: 'Web (news, blogs, forums)' },
  { code: 'bsky', label: 'Bluesky' },
  { code: 'mastodon', label: 'Mastodon' },
];

export const LANGUAGES: { code: string; label: string }[] = [
  { code: '', label: 'Any language' },
  { code: 'en', label: 'English' },
  { code: 'es', label: 'Spanish' },
  { code: 'fr', label: 'French' },
  { code: 'de', label: 'German' },
  { code: 'pt', label: 'Portuguese' },
  { code: 'it', label: 'Italian' },
  { code: 'nl', label: 'Dutch' },
  { code: 'ja', label: 'Japanese' },
  { code: 'ar', label: 'Arabic' },
  { code: 'hi', label: 'Hindi' },
  { code: 'tr', label: 'Turkish' },
];

export interface TrackerFormValues {
  title: string;
  rows: SearchRow[];
  platforms: PlatformFlags;
  excludeRetweets: boolean;
  verifiedUsers: boolean;
  verifiedTiktokUsers: boolean;
  language: string;
  /** Comma separated country codes. */
  countryLocations: string;
  /** Number as typed; blank means no limit. */
  volumeLimit: string;
  /** Comma or newline separated subtracker terms. */
  subtrackers: string;
  usernames: Record<ListPlatform, string>;
  ignore: Record<ListPlatform, string>;
}

const emptyLists = (): Record<ListPlatform, string> => ({ twt: '', ig: '', yt: '', fb: '', tt: '', web: '', bsky: '', mastodon: '' });

export function emptyValues(): TrackerFormValues {
  return {
    title: '',
    rows: initialRows(),
    platforms: emptyPlatforms(),
    excludeRetweets: false,
    verifiedUsers: false,
    verifiedTiktokUsers: false,
    language: '',
    countryLocations: '',
    volumeLimit: '',
    subtrackers: '',
    usernames: emptyLists(),
    ignore: emptyLists(),
  };
}

function listsToText(lists: Partial<PerPlatformLists> | undefined): Record<ListPlatform, string> {
  const out = emptyLists();
  for (const { code } of LIST_PLATFORMS) out[code] = formatList(lists?.[code]);
  return out;
}

function textToLists(text: Record<ListPlatform, string>): PerPlatformLists {
  const out = {} as PerPlatformLists;
  for (const { code } of LIST_PLATFORMS) out[code] = parseList(text[code] ?? '');
  return out;
}

export function valuesFromTracker(t: Tracker): TrackerFormValues {
  return {
    title: t.title ?? '',
    rows: rowsForEditing(t.search?.rows ?? []),
    platforms: { ...emptyPlatforms(), ...t.platforms },
    excludeRetweets: Boolean(t.excludeRetweets),
    verifiedUsers: Boolean(t.verifiedUsers),
    verifiedTiktokUsers: Boolean(t.verifiedTiktokUsers),
    language: t.language ?? '',
    countryLocations: formatList(t.countryLocations),
    volumeLimit: t.volumeLimit === null || t.volumeLimit === undefined ? '' : String(t.volumeLimit),
    subtrackers: formatList((t.subtrackers ?? []).map((s) => s.label)),
    usernames: listsToText(t.usernames),
    ignore: listsToText(t.ignore),
  };
}

/** Parses the volume limit; blank → null, anything else must be a positive whole number. */
export function parseVolumeLimit(text: string): number | null | 'invalid' {
  const t = text.trim();
  if (t === '') return null;
  if (!/^\d+$/.test(t) || Number(t) <= 0) return 'invalid';
  return Number(t);
}

/** The request body: blank terms dropped, empty rows removed, lists split. */
export function toInput(v: TrackerFormValues): TrackerInput {
  const volume = parseVolumeLimit(v.volumeLimit);
  const input: TrackerInput = {
    platforms: { ...v.platforms },
    search: { rows: normalizeRows(v.rows) },
    excludeRetweets: v.platforms.twt === 1 ? v.excludeRetweets : false,
    verifiedUsers: v.platforms.twt === 1 ? v.verifiedUsers : false,
    verifiedTiktokUsers: v.platforms.tt === 1 ? v.verifiedTiktokUsers : false,
    language: v.language || null,
    countryLocations: parseList(v.countryLocations).map((c) => c.toUpperCase()),
    volumeLimit: volume === 'invalid' ? null : volume,
    usernames: textToLists(v.usernames),
    ignore: textToLists(v.ignore),
    subtrackers: parseList(v.subtrackers),
  };
  const title = v.title.trim();
  if (title) input.title = title;
  return input;
}

/** Whether the form differs from what was saved (compared as request bodies). */
export function hasChanges(current: TrackerFormValues, saved: TrackerFormValues): boolean {
  return JSON.stringify(toInput(current)) !== JSON.stringify(toInput(saved));
}

export const editStorageKey = (hash: string) => `hark.edit.${hash}`;

/** Keeps the current search in local storage before it is edited. */
export function rememberSearch(storage: Pick<Storage, 'setItem'>, t: Tracker): void {
  try {
    storage.setItem(
      editStorageKey(t.hash),
      JSON.stringify({ search: t.search, platforms: t.platforms, title: t.title, savedAt: Date.now() }),
    );
  } catch {
    // Storage may be full or disabled; editing still works.
  }
}

export type TrackerKind = 'ht' | 'sl';

/**
 * Where to go after a tracker is deleted (tracker-lifecycle.md, "Deleting a tracker"): the
 * settings area goes to /mytracks/account; otherwise a referrer containing 'from' goes back to the
 * creation step, else the tracker list.
 */
export function deleteDestination(opts: { referrer: string; fromSettingsArea: boolean; kind: TrackerKind }): string {
  if (opts.fromSettingsArea) return '/mytracks/account';
  if (opts.referrer.includes('from')) return opts.kind === 'sl' ? '/new/sl/step1' : '/new/ht/step1';
  return '/mytracks/hashtag';
}

export const dashboardPath = (t: { hash: string; friendly: string }) =>
  `/hashtag-tracking/dashboard/${encodeURIComponent(t.hash)}/${encodeURIComponent(t.friendly)}`;

export const editPath = (t: { hash: string; friendly: string }) =>
  `/edit/${encodeURIComponent(t.hash)}/${encodeURIComponent(t.friendly)}`;

export interface FormErrors {
  search?: string;
  platforms?: string;
  volumeLimit?: string;
}

export const MSG_VOLUME = 'Enter a positive whole number of posts, or leave it blank for no limit.';

/** Every client-side rule of the form; shown only after a save attempt. */
export function validateForm(v: TrackerFormValues): FormErrors {
  const e: FormErrors = { ...validate(v.rows, v.platforms) };
  if (parseVolumeLimit(v.volumeLimit) === 'invalid') e.volumeLimit = MSG_VOLUME;
  return e;
}

export function formHasErrors(e: FormErrors): boolean {
  return Boolean(e.search || e.platforms || e.volumeLimit);
}

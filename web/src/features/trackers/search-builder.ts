// The search builder of a tracker (tracker-lifecycle.md section 5), as pure functions so the form
// and its tests share one definition: rows of terms, counts, normalisation and validation.
import type { PlatformCode, PlatformFlags, SearchRow } from '../../api/types';
import { TRIAL_LOCKED } from '../../state/access';

export const TITLE_PREFIX = 'Real-time Tracker: ';
export const DEFAULT_MAX_SEARCHES = 5;
export const MSG_NO_TERM = 'At least one search term must be entered.';
export const MSG_NO_PLATFORM = 'At least one platform must be selected.';

export const PLATFORM_ORDER: PlatformCode[] = ['twt', 'ig', 'yt', 'fb', 'tt', 'news', 'blogs', 'forums', 'bsky', 'mastodon'];

export interface BuilderLimits {
  maxSearches: number;
  maxIgnored: number;
}

/** The first row of a fresh form: one include row with a single blank input. */
export function initialRows(): SearchRow[] {
  return [{ type: '+', searches: [''] }];
}

export function emptyPlatforms(): PlatformFlags {
  return { twt: 0, ig: 0, yt: 0, fb: 0, tt: 0, news: 0, blogs: 0, forums: 0, bsky: 0, mastodon: 0 };
}

const nonBlank = (terms: string[]) => terms.filter((t) => t.trim() !== '').length;

/** The larger of the product and the sum of the non-blank terms per include row (0 when none). */
export function searchCount(rows: SearchRow[]): number {
  const sizes = rows.filter((r) => r.type === '+').map((r) => nonBlank(r.searches)).filter((n) => n > 0);
  if (sizes.length === 0) return 0;
  const product = sizes.reduce((a, n) => a * n, 1);
  const sum = sizes.reduce((a, n) => a + n, 0);
  return Math.max(product, sum);
}

/** Non-blank terms in exclude rows. */
export function ignoreCount(rows: SearchRow[]): number {
  return rows.filter((r) => r.type === '-').reduce((a, r) => a + nonBlank(r.searches), 0);
}

/**
 * Add-row and add-input controls are hidden once the include count reaches maxSearches or the
 * exclude count reaches maxIgnored.
 */
export function canAddMore(rows: SearchRow[], limits: BuilderLimits): boolean {
  return searchCount(rows) < limits.maxSearches && !ignoredFull(rows, limits);
}

/**
 * The excluded terms have reached maxIgnored. A plan without excluded terms (0) is not full while
 * none are typed: it keeps the include controls and only loses the 'Do not include' choice.
 */
export function ignoredFull(rows: SearchRow[], limits: BuilderLimits): boolean {
  const n = ignoreCount(rows);
  return n > 0 && n >= limits.maxIgnored;
}

/** The 'Do not include' choice is offered only while the exclude count is below maxIgnored. */
export function canExclude(rows: SearchRow[], limits: BuilderLimits): boolean {
  return ignoreCount(rows) < limits.maxIgnored;
}

/** Label of a row: the first is fixed, later rows switch between include and exclude. */
export function rowLabel(index: number, type: SearchRow['type']): string {
  if (index === 0) return 'That include';
  return type === '+' ? 'And include' : 'Do not include';
}

/** Input width: 150 px, growing 5 px per character beyond 10. */
export function inputWidth(value: string): number {
  return 150 + Math.max(0, value.length - 10) * 5;
}

/**
 * Trims a term; a term longer than one character loses a leading '@', as often as it has one
 * (`@@nasa` is `nasa`), as the server saves it.
 */
export function normalizeTerm(term: string): string {
  let t = term.trim();
  while ([...t].length > 1 && t.startsWith('@')) t = t.slice(1).trim();
  return t;
}

/** What is saved: blank terms dropped, terms normalised, rows left empty removed. */
export function normalizeRows(rows: SearchRow[]): SearchRow[] {
  return rows
    .map((r) => ({ type: r.type, searches: r.searches.map(normalizeTerm).filter((t) => t !== '') }))
    .filter((r) => r.searches.length > 0);
}

export function firstTerm(rows: SearchRow[]): string | null {
  const row = normalizeRows(rows).find((r) => r.type === '+');
  return row ? row.searches[0] : null;
}

export function defaultTitle(rows: SearchRow[]): string {
  const t = firstTerm(rows);
  return t ? TITLE_PREFIX + t : '';
}

// ---- row updates (each returns new rows) ----

export function addRow(rows: SearchRow[]): SearchRow[] {
  return [...rows, { type: '+', searches: ['', ''] }];
}

export function removeRow(rows: SearchRow[], index: number): SearchRow[] {
  if (index === 0) return rows;
  return rows.filter((_, i) => i !== index);
}

export function setRowType(rows: SearchRow[], index: number, type: SearchRow['type']): SearchRow[] {
  if (index === 0) return rows;
  return rows.map((r, i) => (i === index ? { ...r, type } : r));
}

export function addInput(rows: SearchRow[], index: number): SearchRow[] {
  return rows.map((r, i) => (i === index ? { ...r, searches: [...r.searches, ''] } : r));
}

export function setTerm(rows: SearchRow[], index: number, termIndex: number, value: string): SearchRow[] {
  return rows.map((r, i) =>
    i === index ? { ...r, searches: r.searches.map((t, j) => (j === termIndex ? value : t)) } : r,
  );
}

/** Removes one input; a row keeps at least one input. */
export function removeInput(rows: SearchRow[], index: number, termIndex: number): SearchRow[] {
  return rows.map((r, i) => {
    if (i !== index) return r;
    const searches = r.searches.filter((_, j) => j !== termIndex);
    return { ...r, searches: searches.length ? searches : [''] };
  });
}

/** Rows for the edit form: the saved rows, with the first row an include row. */
export function rowsForEditing(rows: SearchRow[]): SearchRow[] {
  const clean = rows.filter((r) => r.searches.length > 0).map((r) => ({ ...r, searches: [...r.searches] }));
  if (clean.length === 0 || clean[0].type !== '+') return [{ type: '+', searches: [''] }, ...clean];
  return clean;
}

// ---- platforms and warnings ----

export function anyPlatform(platforms: PlatformFlags): boolean {
  return PLATFORM_ORDER.some((p) => platforms[p] === 1);
}

/** Instagram only searches hashtags: warn when instagram is on and a term has '#' or '@'. */
export function showInstagramWarning(rows: SearchRow[], platforms: PlatformFlags): boolean {
  return platforms.ig === 1 && rows.some((r) => r.searches.some((t) => t.includes('#') || t.includes('@')));
}

export function showExcludeRetweets(platforms: PlatformFlags): boolean {
  return platforms.twt === 1;
}

export interface TrialAccess {
  trial: boolean;
  allowFacebook: boolean;
  allowTiktok: boolean;
  allowYoutube: boolean;
  /**
   * The platforms a trial cannot switch on (GET /me's `trialLockedPlatforms`, from the instance's
   * plan catalogue); tiktok, facebook and youtube when not given.
   */
  trialLocked?: readonly PlatformCode[];
}

export type PlatformLock = 'trial' | 'not_allowed' | null;

/**
 * Whether a platform checkbox is locked while it is off. On trial, the trial-locked platforms are
 * locked ('trial'); facebook, tiktok and youtube also need the account's allowance flag, on trial
 * or not ('not_allowed'), as the server holds it to.
 */
export function platformLock(code: PlatformCode, on: boolean, access: TrialAccess): PlatformLock {
  if (on) return null;
  if (access.trial && (access.trialLocked ?? TRIAL_LOCKED).includes(code)) return 'trial';
  if (code !== 'tt' && code !== 'fb' && code !== 'yt') return null;
  const allowed = code === 'fb' ? access.allowFacebook : code === 'tt' ? access.allowTiktok : access.allowYoutube;
  return allowed ? null : 'not_allowed';
}

// ---- validation ----

export interface BuilderErrors {
  search?: string;
  platforms?: string;
}

export function validate(rows: SearchRow[], platforms: PlatformFlags): BuilderErrors {
  const errors: BuilderErrors = {};
  if (!normalizeRows(rows).some((r) => r.type === '+')) errors.search = MSG_NO_TERM;
  if (!anyPlatform(platforms)) errors.platforms = MSG_NO_PLATFORM;
  return errors;
}

/** Errors are shown only after a save attempt. */
export function visibleErrors(rows: SearchRow[], platforms: PlatformFlags, attempts: number): BuilderErrors {
  return attempts > 0 ? validate(rows, platforms) : {};
}

export function hasErrors(e: BuilderErrors): boolean {
  return Boolean(e.search || e.platforms);
}

// ---- lists typed as text (usernames, ignore lists, locations, subtrackers) ----

/** Splits a comma or newline separated list, trimming and dropping blanks. */
export function parseList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function formatList(items: string[] | undefined | null): string {
  return (items ?? []).join(', ');
}

// Date-range rules of the tracker header (dashboard-and-shell spec, section 5 "Date picker").
// Everything here is pure: the current time is always passed in.
import { endOfDay, format, isSameDay, isSameYear, startOfDay } from 'date-fns';
import type { DateSelection } from './query-state';

export const DAY_MS = 86_400_000;

export interface TrackerTimes {
  created: number;
  firstDataPoint: number | null;
  status: 'running' | 'paused';
  lastCached: number | null;
  lastPaused: number | null;
}

export interface Shortcut {
  label: string;
  /** null: All Time */
  days: number | null;
}

export const SHORTCUTS: Shortcut[] = [
  { label: 'Past Day', days: 1 },
  { label: 'Past Week', days: 7 },
  { label: 'Past 2 Weeks', days: 14 },
  { label: 'Past Month', days: 30 },
  { label: 'Past 3 Months', days: 90 },
  { label: 'Past Year', days: 365 },
  { label: 'All Time', days: null },
];

export const PLACEHOLDER = 'Pick a range';

export interface Range {
  start: number;
  end: number;
}

/** The earlier of the first data point and the creation time. */
export function trackerStart(t: TrackerTimes): number {
  return t.firstDataPoint !== null && t.firstDataPoint !== undefined
    ? Math.min(t.firstDataPoint, t.created)
    : t.created;
}

/** Running: now. Paused: the later of lastCached and lastPaused (lastCached without a pause time). */
export function rangeEnd(t: TrackerTimes, now: number): number {
  if (t.status !== 'paused') return now;
  const candidates = [t.lastCached, t.lastPaused].filter((v): v is number => typeof v === 'number');
  if (!candidates.length) return now;
  return Math.min(Math.max(...candidates), now);
}

/** A relative window of N days. A paused tracker's window ends at 23:59:59 of its last cached day. */
export function relativeWindow(t: TrackerTimes, days: number, now: number): Range {
  const end = t.status === 'paused' ? endOfDay(rangeEnd(t, now)).getTime() : now;
  return { start: end - days * DAY_MS, end };
}

export interface ShortcutState {
  disabled: boolean;
  tooltip: string | null;
}

export function shortcutTooltip(days: number): string {
  return `This view will be available after the tracker has been running for ${days} day(s).`;
}

/** A shortcut whose start falls before the tracker's start is disabled, with a tooltip. */
export function shortcutState(t: TrackerTimes, s: Shortcut, now: number): ShortcutState {
  if (s.days === null) return { disabled: false, tooltip: null };
  const { start } = relativeWindow(t, s.days, now);
  if (start < trackerStart(t)) return { disabled: true, tooltip: shortcutTooltip(s.days) };
  return { disabled: false, tooltip: null };
}

/** Days before the tracker start or after the range end cannot be picked. */
export function isDayDisabled(day: Date, t: TrackerTimes, now: number): boolean {
  return endOfDay(day).getTime() < startOfDay(trackerStart(t)).getTime() || startOfDay(day).getTime() > rangeEnd(t, now);
}

export function toIsoDay(ms: number | Date): string {
  return format(ms, 'yyyy-MM-dd');
}

export function fromIsoDay(day: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d);
}

/**
 * Turns picked days into instants: the start at 00:00:00.000; the end at the current time when
 * it is today, else 23:59:59.999. The start is clamped to the tracker start and the end to the
 * range end.
 */
export function normalizePicked(from: Date, to: Date, t: TrackerTimes, now: number): Range {
  let a = from;
  let b = to;
  if (a.getTime() > b.getTime()) [a, b] = [b, a];
  const start = Math.max(startOfDay(a).getTime(), trackerStart(t));
  const endRaw = isSameDay(b, now) ? now : endOfDay(b).getTime();
  const end = Math.max(start, Math.min(endRaw, rangeEnd(t, now)));
  return { start, end };
}

/** Picked days → the start/end query values, clamped to the pickable bounds. */
export function pickedToQuery(from: Date, to: Date, t: TrackerTimes, now: number): { start: string; end: string } {
  const r = normalizePicked(from, to, t, now);
  return { start: toIsoDay(r.start), end: toIsoDay(r.end) };
}

/** The All Time shortcut as a custom range from the tracker start to the range end. */
export function allTimeQuery(t: TrackerTimes, now: number): { start: string; end: string } {
  return { start: toIsoDay(trackerStart(t)), end: toIsoDay(rangeEnd(t, now)) };
}

/** The instants a date selection stands for. */
export function resolveRange(sel: DateSelection, t: TrackerTimes, now: number): Range {
  if (sel.kind === 'days') return relativeWindow(t, sel.days, now);
  return normalizePicked(fromIsoDay(sel.start), fromIsoDay(sel.end), t, now);
}

/** Whether the range reaches today (drives polling of live counts). */
export function includesToday(r: Range, now: number): boolean {
  return r.end >= startOfDay(now).getTime() && r.start <= now;
}

/** 'Mar 3 – Mar 17'; the year shows only when the range crosses years. */
export function formatRange(r: Range | null): string {
  if (!r) return PLACEHOLDER;
  if (isSameYear(r.start, r.end)) return `${format(r.start, 'MMM d')} – ${format(r.end, 'MMM d')}`;
  return `${format(r.start, 'MMM d, yyyy')} – ${format(r.end, 'MMM d, yyyy')}`;
}

/** The shortcut a selection corresponds to, if any. */
export function activeShortcut(sel: DateSelection, t: TrackerTimes, now: number): Shortcut | null {
  if (sel.kind === 'days') return SHORTCUTS.find((s) => s.days === sel.days) ?? null;
  const all = allTimeQuery(t, now);
  return sel.start === all.start && sel.end === all.end ? SHORTCUTS[SHORTCUTS.length - 1] : null;
}

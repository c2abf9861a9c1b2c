// How an account's plan and trial read on the pages (the Accounts table, the pricing page).
import type { PlanFeatures } from '../../api/types';

const dayMonth = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
const dayMonthYear = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** "10 Dec", with the year when it is not this year's. */
export function shortDate(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  return (d.getFullYear() === new Date(now).getFullYear() ? dayMonth : dayMonthYear).format(d);
}

/** Days a trial lasts unless the administrator chooses another length (tracker-lifecycle.md section 9). */
export const TRIAL_DAYS = 14;

export interface TrialFields {
  trial: boolean;
  trialExpires: number | null;
  trialExpired: boolean;
}

/** "Trial until 10 Dec", "Trial ended", or "—" for an account not on a trial. */
export function trialLabel(a: TrialFields, now = Date.now()): string {
  if (!a.trial) return '—';
  if (a.trialExpired || (a.trialExpires !== null && a.trialExpires <= now)) return 'Trial ended';
  return a.trialExpires === null ? 'Trial' : `Trial until ${shortDate(a.trialExpires, now)}`;
}

export function trialActive(a: TrialFields, now = Date.now()): boolean {
  return a.trial && !a.trialExpired && (a.trialExpires === null || a.trialExpires > now);
}

/** What a plan includes, in the order the pages list it. */
export function planIncludes(p: PlanFeatures): { label: string; included: boolean }[] {
  return [
    { label: 'XLS export', included: p.xls },
    { label: 'Link sharing', included: p.linkSharing },
    { label: 'Media wall', included: p.mediaWall },
  ];
}


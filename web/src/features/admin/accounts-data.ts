// The Accounts page's pure parts: its URL state, how an account's plan and trial read in the
// table, and the edit form (values, checks, and the PATCH body it makes).
import type { Account, AccountChange, PlanView } from '../../api/queries/admin';

export { planIncludes, shortDate, trialActive, trialLabel } from '../plans/plan-text';

export interface AccountsState {
  search: string;
  page: number;
}

export function parseAccountsState(params: URLSearchParams): AccountsState {
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return { search: (params.get('search') ?? '').trim(), page: Number.isFinite(page) && page > 1 ? page : 1 };
}

/** The query string of a state; defaults are left out. */
export function accountsSearchParams(s: AccountsState): Record<string, string> {
  const out: Record<string, string> = {};
  if (s.search) out.search = s.search;
  if (s.page > 1) out.page = String(s.page);
  return out;
}

/** A new search starts again from the first page. */
export const withSearch = (search: string): AccountsState => ({ search: search.trim(), page: 1 });
export const withPage = (s: AccountsState, page: number): AccountsState => ({ ...s, page: Math.max(1, page) });

/** "Professional · 25"; a plan outside the catalogue reads "Plan 0". */
export function planLabel(a: Pick<Account, 'plan' | 'planName'>): string {
  return a.planName ? `${a.planName} · ${a.plan}` : `Plan ${a.plan}`;
}

export const TRIAL_DAYS_RANGE = [1, 365] as const;
export const MAX_SEARCHES_RANGE = [1, 1000] as const;
export const MAX_IGNORED_RANGE = [0, 1000] as const;

/** The edit form's values, numbers as typed. */
export interface AccountForm {
  plan: number;
  trial: boolean;
  /** Days of a new trial from today; blank keeps a running trial's end. */
  trialDays: string;
  maxSearches: string;
  maxIgnored: string;
  isAdmin: boolean;
}

export function formFromAccount(a: Account, defaultTrialDays: number): AccountForm {
  return {
    plan: a.plan,
    trial: a.trial,
    // A running or ended trial keeps its end unless days are entered; a new one starts with the default length.
    trialDays: a.trial ? '' : String(defaultTrialDays),
    maxSearches: String(a.maxSearches),
    maxIgnored: String(a.maxIgnored),
    isAdmin: a.isAdmin,
  };
}

/** Choosing a plan takes its limits, as the server does. */
export function withPlan(form: AccountForm, plan: PlanView): AccountForm {
  return { ...form, plan: plan.number, maxSearches: String(plan.maxSearches), maxIgnored: String(plan.maxIgnored) };
}

function wholeNumber(text: string): number | null {
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
}

export type FormErrors = Partial<Record<'trialDays' | 'maxSearches' | 'maxIgnored', string>>;

export function validateForm(form: AccountForm, a: Account): FormErrors {
  const errors: FormErrors = {};
  const inRange = (text: string, [lo, hi]: readonly [number, number]) => {
    const n = wholeNumber(text);
    return n !== null && n >= lo && n <= hi;
  };
  if (form.trial && (form.trialDays.trim() !== '' || !a.trial) && !inRange(form.trialDays, TRIAL_DAYS_RANGE)) {
    errors.trialDays = 'Enter 1 to 365 days.';
  }
  if (!inRange(form.maxSearches, MAX_SEARCHES_RANGE)) errors.maxSearches = 'Enter 1 to 1000.';
  if (!inRange(form.maxIgnored, MAX_IGNORED_RANGE)) errors.maxIgnored = 'Enter 0 to 1000.';
  return errors;
}

/**
 * The PATCH body for a valid form: only what changed. After a new plan the limits are sent as
 * shown, so the account ends with what the form says.
 */
export function changeFromForm(a: Account, form: AccountForm): AccountChange {
  const change: AccountChange = {};
  const planChanged = form.plan !== a.plan;
  if (planChanged) change.plan = form.plan;
  const searches = Number(form.maxSearches.trim());
  const ignored = Number(form.maxIgnored.trim());
  if (planChanged || searches !== a.maxSearches) change.maxSearches = searches;
  if (planChanged || ignored !== a.maxIgnored) change.maxIgnored = ignored;
  if (!form.trial) {
    if (a.trial) change.trial = false;
  } else if (form.trialDays.trim() !== '') {
    change.trialDays = Number(form.trialDays.trim());
  }
  if (form.isAdmin !== a.isAdmin) change.isAdmin = form.isAdmin;
  return change;
}

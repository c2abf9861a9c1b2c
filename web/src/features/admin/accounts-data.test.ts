import { describe, expect, it } from 'vitest';
import type { Account, PlanView } from '../../api/queries/admin';
import {
  accountsSearchParams,
  changeFromForm,
  formFromAccount,
  parseAccountsState,
  planLabel,
  shortDate,
  trialLabel,
  validateForm,
  withPage,
  withPlan,
  withSearch,
} from './accounts-data';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 26, 12);

function account(over: Partial<Account> = {}): Account {
  return {
    id: 2, email: 'bo@example.com', name: 'Bo', createdAt: NOW - 30 * DAY, isAdmin: false, plan: 100,
    planName: 'Self-hosted (everything)', trial: false, trialExpires: null, trialExpired: false,
    maxSearches: 50, maxIgnored: 50, trackers: 1, ...over,
  };
}

const professional: PlanView = { number: 25, name: 'Professional', maxSearches: 10, maxIgnored: 25, xls: false, linkSharing: false, mediaWall: false };

describe('URL state', () => {
  it('reads search and page with defaults and writes only what differs', () => {
    expect(parseAccountsState(new URLSearchParams(''))).toEqual({ search: '', page: 1 });
    expect(parseAccountsState(new URLSearchParams('search=%20bo%20&page=3'))).toEqual({ search: 'bo', page: 3 });
    expect(parseAccountsState(new URLSearchParams('page=-2'))).toEqual({ search: '', page: 1 });
    expect(parseAccountsState(new URLSearchParams('page=x'))).toEqual({ search: '', page: 1 });
    expect(accountsSearchParams({ search: '', page: 1 })).toEqual({});
    expect(accountsSearchParams({ search: 'bo', page: 2 })).toEqual({ search: 'bo', page: '2' });
  });

  it('a new search goes back to the first page', () => {
    expect(withSearch(' ann ')).toEqual({ search: 'ann', page: 1 });
    expect(withPage({ search: 'ann', page: 1 }, 0)).toEqual({ search: 'ann', page: 1 });
    expect(withPage({ search: 'ann', page: 1 }, 2)).toEqual({ search: 'ann', page: 2 });
  });
});

describe('labels', () => {
  it('reads the trial as running, ended or none', () => {
    expect(trialLabel(account(), NOW)).toBe('—');
    expect(trialLabel(account({ trial: true, trialExpires: Date.UTC(2026, 11, 10, 12) }), NOW)).toBe('Trial until 10 Dec');
    expect(trialLabel(account({ trial: true, trialExpires: Date.UTC(2027, 0, 3, 12) }), NOW)).toBe('Trial until 3 Jan 2027');
    expect(trialLabel(account({ trial: true, trialExpires: NOW - DAY, trialExpired: true }), NOW)).toBe('Trial ended');
    // Past its end while the page was open.
    expect(trialLabel(account({ trial: true, trialExpires: NOW - 1 }), NOW)).toBe('Trial ended');
    expect(shortDate(Date.UTC(2026, 11, 10, 12), NOW)).toBe('10 Dec');
  });

  it('names the plan with its number', () => {
    expect(planLabel(account({ plan: 25, planName: 'Professional' }))).toBe('Professional · 25');
    expect(planLabel(account({ plan: 0, planName: null }))).toBe('Plan 0');
  });
});

describe('edit form', () => {
  it('sends nothing when nothing changed', () => {
    const a = account({ trial: true, trialExpires: NOW + 5 * DAY });
    expect(changeFromForm(a, formFromAccount(a, 14))).toEqual({});
  });

  it('a new plan sends the plan and its limits as shown', () => {
    const a = account();
    const form = withPlan(formFromAccount(a, 14), professional);
    expect(form.maxSearches).toBe('10');
    expect(changeFromForm(a, form)).toEqual({ plan: 25, maxSearches: 10, maxIgnored: 25 });
    expect(changeFromForm(a, { ...form, maxIgnored: '30' })).toEqual({ plan: 25, maxSearches: 10, maxIgnored: 30 });
  });

  it('starts a trial with its days, keeps a running one unless days are entered, and ends one', () => {
    const none = account();
    const start = { ...formFromAccount(none, 14), trial: true };
    expect(start.trialDays).toBe('14');
    expect(changeFromForm(none, { ...start, trialDays: '3' })).toEqual({ trialDays: 3 });
    const running = account({ trial: true, trialExpires: NOW + 5 * DAY });
    expect(formFromAccount(running, 14).trialDays).toBe('');
    expect(changeFromForm(running, { ...formFromAccount(running, 14), trialDays: '30' })).toEqual({ trialDays: 30 });
    expect(changeFromForm(running, { ...formFromAccount(running, 14), trial: false })).toEqual({ trial: false });
  });

  it('checks the ranges the server accepts', () => {
    const a = account();
    const form = formFromAccount(a, 14);
    expect(validateForm(form, a)).toEqual({});
    expect(validateForm({ ...form, trial: true, trialDays: '0' }, a)).toEqual({ trialDays: 'Enter 1 to 365 days.' });
    expect(validateForm({ ...form, trial: true, trialDays: '' }, a)).toEqual({ trialDays: 'Enter 1 to 365 days.' });
    // A running trial may leave the days blank.
    const running = account({ trial: true, trialExpires: NOW + DAY });
    expect(validateForm({ ...formFromAccount(running, 14) }, running)).toEqual({});
    expect(validateForm({ ...form, maxSearches: '0', maxIgnored: '1001' }, a)).toEqual({ maxSearches: 'Enter 1 to 1000.', maxIgnored: 'Enter 0 to 1000.' });
    expect(validateForm({ ...form, maxSearches: '2.5', maxIgnored: '0' }, a)).toEqual({ maxSearches: 'Enter 1 to 1000.' });
    // A trial switched off needs no days.
    expect(validateForm({ ...form, trial: false, trialDays: 'x' }, a)).toEqual({});
  });

  it('sends the administrator flag only when it changes', () => {
    const a = account();
    expect(changeFromForm(a, { ...formFromAccount(a, 14), isAdmin: true })).toEqual({ isAdmin: true });
  });
});

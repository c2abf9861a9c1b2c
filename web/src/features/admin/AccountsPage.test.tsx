import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account, AccountChange, PlanCatalogue } from '../../api/queries/admin';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { meFixture } from '../trackers/fixtures';
import { SELF_ADMIN_NOTE } from './AccountEditor';
import { AccountsPage, NOT_ADMIN_TEXT } from './AccountsPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  document.cookie = 'hark_csrf=tok123';
});

const DAY = 86_400_000;

const catalogue: PlanCatalogue = {
  trialDays: 14,
  plans: [
    { number: 15, name: 'Individual', maxSearches: 5, maxIgnored: 5, xls: false, linkSharing: false, mediaWall: false },
    { number: 25, name: 'Professional', maxSearches: 10, maxIgnored: 25, xls: false, linkSharing: false, mediaWall: false },
    { number: 35, name: 'Corporate', maxSearches: 20, maxIgnored: 50, xls: true, linkSharing: true, mediaWall: true },
    { number: 100, name: 'Self-hosted (everything)', maxSearches: 50, maxIgnored: 50, xls: true, linkSharing: true, mediaWall: true },
  ],
};

function account(over: Partial<Account>): Account {
  return {
    id: 1, email: 'ada@example.com', name: 'Ada', createdAt: Date.UTC(2026, 0, 5), isAdmin: true, plan: 100,
    planName: 'Self-hosted (everything)', trial: false, trialExpires: null, trialExpired: false,
    maxSearches: 50, maxIgnored: 50, trackers: 3, ...over,
  };
}

const ada = account({});
const bo = account({ id: 2, email: 'bo@example.com', name: 'Bo Brewer', isAdmin: false, trackers: 1 });
const cy = account({ id: 3, email: 'cy@example.com', name: 'Cy', isAdmin: false, plan: 0, planName: null, trial: true, trialExpires: Date.now() - DAY, trialExpired: true, trackers: 0 });

type Answer = { status?: number; body?: unknown };

function setup(opts: { isAdmin?: boolean; url?: string; patch?: (c: ApiCall) => Answer; list?: (c: ApiCall) => Answer } = {}) {
  const all = [ada, bo, cy];
  const calls = mockApi({
    'GET /me': () => ({ body: meFixture({ id: 1, isAdmin: opts.isAdmin ?? true }) }),
    'GET /admin/plans': () => ({ body: catalogue }),
    'GET /admin/users':
      opts.list ??
      ((c) => {
        const q = (c.query.get('search') ?? '').toLowerCase();
        const accounts = all.filter((a) => a.email.includes(q) || a.name.toLowerCase().includes(q));
        return { body: { accounts, total: accounts.length, page: Number(c.query.get('page') ?? 1), perPage: 50 } };
      }),
    'PATCH /admin/users/2':
      opts.patch ??
      ((c) => {
        const b = c.body as AccountChange;
        const plan = catalogue.plans.find((p) => p.number === b.plan);
        return {
          body: {
            ...bo,
            ...(plan ? { plan: plan.number, planName: plan.name } : {}),
            maxSearches: b.maxSearches ?? bo.maxSearches,
            maxIgnored: b.maxIgnored ?? bo.maxIgnored,
            ...(b.trialDays ? { trial: true, trialExpires: Date.now() + b.trialDays * DAY } : {}),
          },
        };
      }),
  });
  renderRoute(<AccountsPage />, { path: '/admin/accounts', url: opts.url ?? '/admin/accounts' });
  return calls;
}

const row = async (email: string) => (await screen.findByText(email)).closest('tr') as HTMLElement;
const lists = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/admin/users');

describe('Accounts page', () => {
  it('lists the accounts with plan, trial, limits, trackers and the admin badge', async () => {
    setup();
    const first = await row('ada@example.com');
    expect(within(first).getByText('Admin')).toBeInTheDocument();
    expect(within(first).getByText('(you)')).toBeInTheDocument();
    expect(within(first).getByTestId('account-plan')).toHaveTextContent('Self-hosted (everything) · 100');
    expect(within(first).getByTestId('account-trial')).toHaveTextContent('—');
    expect(within(first).getByTestId('account-limits')).toHaveTextContent('50 searches · 50 ignored');
    const third = await row('cy@example.com');
    expect(within(third).getByTestId('account-plan')).toHaveTextContent('Plan 0');
    expect(within(third).getByTestId('account-trial')).toHaveTextContent('Trial ended');
    expect(within(third).queryByText('Admin')).toBeNull();
    expect(screen.getByTestId('accounts-count')).toHaveTextContent('3 accounts');
  });

  it('keeps the search in the URL, asks the server with it and says when nothing matches', async () => {
    const calls = setup({ url: '/admin/accounts?search=bo' });
    await row('bo@example.com');
    expect(lists(calls)[0].query.get('search')).toBe('bo');
    expect(screen.getByRole('searchbox', { name: 'Search by address or name' })).toHaveValue('bo');
    expect(screen.queryByText('ada@example.com')).toBeNull();

    const box = screen.getByRole('searchbox', { name: 'Search by address or name' });
    fireEvent.change(box, { target: { value: 'nobody' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/accounts?search=nobody'));
    expect(await screen.findByText('No accounts match')).toBeInTheDocument();
    expect(lists(calls).at(-1)!.query.get('search')).toBe('nobody');
    expect(lists(calls).at(-1)!.query.get('page')).toBe('1');
  });

  it('debounces typing before searching', async () => {
    const calls = setup();
    await row('bo@example.com');
    const before = lists(calls).length;
    const box = screen.getByRole('searchbox', { name: 'Search by address or name' });
    fireEvent.change(box, { target: { value: 'c' } });
    fireEvent.change(box, { target: { value: 'cy' } });
    expect(lists(calls)).toHaveLength(before);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/accounts?search=cy'));
    await waitFor(() => expect(screen.queryByText('bo@example.com')).toBeNull());
    expect(lists(calls).filter((c) => c.query.get('search') === 'c')).toHaveLength(0);
  });

  it('edits an account: the plan shows what it includes and sets its limits; Save sends only the changes and the row updates', async () => {
    const calls = setup();
    fireEvent.click(within(await row('bo@example.com')).getByRole('button', { name: 'Edit bo@example.com' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit account' }));
    const plan = dialog.getByLabelText('Plan');
    expect(plan).toHaveValue('100');
    fireEvent.change(plan, { target: { value: '25' } });
    const includes = dialog.getByTestId('plan-includes');
    expect(includes).toHaveTextContent('XLS export(not included)');
    expect(includes).toHaveTextContent('Link sharing(not included)');
    expect(includes).toHaveTextContent('10 searches and 25 ignored terms');
    expect(dialog.getByLabelText('Max searches')).toHaveValue('10');
    expect(dialog.getByLabelText('Max ignored terms')).toHaveValue('25');

    const days = dialog.getByLabelText('Days from today');
    expect(days).toBeDisabled();
    fireEvent.click(dialog.getByLabelText('On a trial'));
    expect(days).toBeEnabled();
    expect(days).toHaveValue('14');
    fireEvent.change(days, { target: { value: '3' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.path).toBe('/admin/users/2');
    expect(patch.body).toEqual({ plan: 25, maxSearches: 10, maxIgnored: 25, trialDays: 3 });
    const updated = await row('bo@example.com');
    expect(within(updated).getByTestId('account-plan')).toHaveTextContent('Professional · 25');
    expect(within(updated).getByTestId('account-trial')).toHaveTextContent(/^Trial until \d{1,2} [A-Z][a-z]{2}/);
    expect(within(updated).getByTestId('account-limits')).toHaveTextContent('10 searches · 25 ignored');
    expect(screen.getByText('Saved the changes to bo@example.com.')).toBeInTheDocument();
  });

  it('checks the numbers before sending and shows a refusal inside the dialog', async () => {
    const calls = setup({
      patch: () => ({ status: 422, body: { error: { code: 'validation_failed', message: 'Searches: 1 to 1000.' } } }),
    });
    fireEvent.click(within(await row('bo@example.com')).getByRole('button', { name: 'Edit bo@example.com' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit account' }));
    fireEvent.change(dialog.getByLabelText('Max searches'), { target: { value: '0' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));
    expect(await dialog.findByText('Enter 1 to 1000.')).toBeInTheDocument();
    expect(dialog.getByLabelText('Max searches')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    fireEvent.change(dialog.getByLabelText('Max searches'), { target: { value: '12' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('Searches: 1 to 1000.');
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ maxSearches: 12 });
    // The dialog stays open with what was typed.
    expect(dialog.getByLabelText('Max searches')).toHaveValue('12');
    expect(within(await row('bo@example.com')).getByTestId('account-limits')).toHaveTextContent('50 searches');
  });

  it('does not let administrators take their own rights, and closes with Escape', async () => {
    setup();
    fireEvent.click(within(await row('ada@example.com')).getByRole('button', { name: 'Edit ada@example.com' }));
    const el = await screen.findByRole('dialog', { name: 'Edit account' });
    const admin = within(el).getByLabelText('Instance administrator');
    expect(admin).toBeChecked();
    expect(admin).toBeDisabled();
    expect(within(el).getByText(SELF_ADMIN_NOTE)).toBeInTheDocument();
    fireEvent.keyDown(el, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(await row('bo@example.com')).getByRole('button', { name: 'Edit bo@example.com' }));
    const other = await screen.findByRole('dialog', { name: 'Edit account' });
    expect(within(other).getByLabelText('Instance administrator')).toBeEnabled();
  });

  it('shows a failed load with Try again', async () => {
    let n = 0;
    setup({
      list: () =>
        ++n === 1
          ? { status: 500, body: { error: { code: 'internal', message: 'Sorry, an error occurred please try again.' } } }
          : { body: { accounts: [bo], total: 1, page: 1, perPage: 50 } },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, an error occurred please try again.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('bo@example.com')).toBeInTheDocument();
  });

  it('pages through the accounts, keeping the page in the URL', async () => {
    const calls = setup({
      list: (c) => ({ body: { accounts: [c.query.get('page') === '2' ? cy : bo], total: 60, page: Number(c.query.get('page')), perPage: 50 } }),
    });
    await row('bo@example.com');
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await row('cy@example.com');
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/accounts?page=2');
    expect(lists(calls).at(-1)!.query.get('perPage')).toBe('50');
  });

  it('tells someone who is not an instance administrator that the page is not for them', async () => {
    const calls = setup({ isAdmin: false });
    expect(await screen.findByText(NOT_ADMIN_TEXT)).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/admin/'))).toBe(false);
  });
});

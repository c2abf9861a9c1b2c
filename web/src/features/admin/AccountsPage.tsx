// /admin/accounts: the instance administrator's list of accounts with their plan, trial and
// limits; a search by address or name and the page are kept in the URL; each row opens the
// edit dialog.
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ACCOUNTS_PER_PAGE, useAccounts, usePlanCatalogue, type Account } from '../../api/queries/admin';
import { useMe } from '../../api/queries/me';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { LoadError } from '../../components/LoadError';
import { SearchInput } from '../../components/SearchInput';
import { LoadingState } from '../../components/Spinner';
import { formatDay } from '../../lib/dates';
import { loadErrorMessage } from '../../lib/errors';
import { RequireSignIn } from '../auth';
import { AccountEditor } from './AccountEditor';
import { AdminFrame as Page, NotAdmin } from './AdminFrame';
import { accountsSearchParams, parseAccountsState, planLabel, trialActive, trialLabel, withPage, withSearch } from './accounts-data';

export { NOT_ADMIN_TEXT } from './AdminFrame';

export function AccountsPage() {
  return (
    <RequireSignIn>
      <Accounts />
    </RequireSignIn>
  );
}

function Accounts() {
  const me = useMe();
  const isAdmin = me.data?.isAdmin === true;
  const [params, setParams] = useSearchParams();
  const state = parseAccountsState(params);
  const list = useAccounts(state.search, state.page, isAdmin);
  const catalogue = usePlanCatalogue(isAdmin);
  const [editing, setEditing] = useState<Account | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  if (me.isPending) return <Page><LoadingState label="Loading…" /></Page>;
  if (!isAdmin) return <NotAdmin title="Accounts" />;

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ACCOUNTS_PER_PAGE));
  const accounts = list.data?.accounts ?? [];
  const go = (next: ReturnType<typeof withPage>, replace = false) => setParams(accountsSearchParams(next), { replace });

  return (
    <Page>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Accounts</h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            Every account on this server with its plan, trial and limits. The plan decides what an account may use: XLS
            export, the link-sharing options and the media wall.
          </p>
        </div>
        <SearchInput
          value={state.search}
          onChange={(v) => {
            if (v !== state.search) go(withSearch(v), true);
          }}
          placeholder="Search by address or name"
          clearLabel="Clear the search"
        />
      </div>

      <p className="mt-4 text-sm text-slate-500" aria-live="polite" data-testid="accounts-count">
        {list.isPending ? 'Loading accounts…' : `${total} ${total === 1 ? 'account' : 'accounts'}${state.search ? ` matching “${state.search}”` : ''}`}
      </p>
      {saved ? (
        <p role="status" className="mt-2 text-sm text-emerald-700">
          {saved}
        </p>
      ) : null}

      <section aria-label="Accounts" className="mt-3">
        {list.isPending ? (
          <LoadingState label="Loading accounts…" />
        ) : list.isError && !list.data ? (
          <div className="rounded-lg border border-slate-200 bg-white">
            <LoadError error={list.error} onRetry={() => list.refetch()} />
          </div>
        ) : accounts.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
            <h2 className="text-base font-semibold text-slate-900">No accounts match</h2>
            <p className="mx-auto mt-1 max-w-sm text-sm text-slate-500">Try another part of an address or a name.</p>
          </div>
        ) : (
          <div className={`overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm transition-opacity ${list.isPlaceholderData ? 'opacity-60' : ''}`}>
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-3">Account</th>
                  <th scope="col" className="px-4 py-3">Plan</th>
                  <th scope="col" className="px-4 py-3">Trial</th>
                  <th scope="col" className="px-4 py-3">Limits</th>
                  <th scope="col" className="px-4 py-3 text-right">Trackers</th>
                  <th scope="col" className="px-4 py-3">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {accounts.map((a) => (
                  <AccountRow key={a.id} account={a} self={a.id === me.data?.id} onEdit={() => { setSaved(null); setEditing(a); }} canEdit={catalogue.isSuccess} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.isError && list.data ? <Alert className="mt-3">{loadErrorMessage(list.error)}</Alert> : null}
        {catalogue.isError ? <Alert className="mt-3">The plan catalogue did not load, so accounts cannot be edited. Reload the page to try again.</Alert> : null}

        {pages > 1 && (
          <nav aria-label="Pagination" className="mt-4 flex items-center justify-between text-sm text-slate-600">
            <span>
              Page {state.page} of {pages}
            </span>
            <div className="flex gap-2">
              <Button variant="secondary" size="sm" disabled={state.page <= 1} onClick={() => go(withPage(state, state.page - 1))}>
                Previous
              </Button>
              <Button variant="secondary" size="sm" disabled={state.page >= pages} onClick={() => go(withPage(state, state.page + 1))}>
                Next
              </Button>
            </div>
          </nav>
        )}
      </section>

      {catalogue.data ? (
        <AccountEditor
          account={editing}
          catalogue={catalogue.data}
          selfId={me.data?.id ?? null}
          onClose={() => setEditing(null)}
          onSaved={(a) => {
            setEditing(null);
            setSaved(`Saved the changes to ${a.email}.`);
          }}
        />
      ) : null}
    </Page>
  );
}

function AccountRow({ account: a, self, onEdit, canEdit }: { account: Account; self: boolean; onEdit: () => void; canEdit: boolean }) {
  const trial = trialLabel(a);
  return (
    <tr data-testid="account-row" className="align-top hover:bg-slate-50">
      <td className="px-4 py-3">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900">{a.name || '—'}</span>
          {a.isAdmin && (
            <span className="inline-flex items-center rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700 ring-1 ring-inset ring-brand-200">
              Admin
            </span>
          )}
          {self && <span className="text-xs text-slate-500">(you)</span>}
        </div>
        <div className="text-slate-600">{a.email}</div>
        <div className="text-xs text-slate-400">Joined {formatDay(a.createdAt)}</div>
      </td>
      <td className="whitespace-nowrap px-4 py-3 text-slate-800" data-testid="account-plan">
        {planLabel(a)}
      </td>
      <td className="whitespace-nowrap px-4 py-3" data-testid="account-trial">
        <span className={trial === 'Trial ended' ? 'font-medium text-amber-700' : trialActive(a) ? 'text-slate-800' : 'text-slate-400'}>{trial}</span>
      </td>
      <td className="whitespace-nowrap px-4 py-3 text-slate-700" data-testid="account-limits">
        {a.maxSearches} searches · {a.maxIgnored} ignored
      </td>
      <td className="px-4 py-3 text-right tabular-nums text-slate-800">{a.trackers}</td>
      <td className="px-4 py-3 text-right">
        <Button variant="secondary" size="sm" onClick={onEdit} disabled={!canEdit} aria-label={`Edit ${a.email}`}>
          Edit
        </Button>
      </td>
    </tr>
  );
}

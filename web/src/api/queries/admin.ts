// The instance administrator's Accounts page: the plan catalogue, the accounts with their plan,
// trial and limits, and changes to one account.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, patch } from '../client';
import type { Narrowed, Schema } from '../types';
import { meKey } from './me';

export type PlanCatalogue = Schema<'PlanCatalogue'>;
export type PlanView = Schema<'PlanView'>;
export type Account = Schema<'Account'>;
export type AccountList = Schema<'AccountList'>;
/** An audit entry; `detail`'s fields depend on `action` (see features/admin/audit-data.ts). */
export type AuditEntry = Narrowed<'AuditEntry', { detail: Record<string, unknown> }>;
export type AuditPage = Omit<Schema<'AuditPage'>, 'entries'> & { entries: AuditEntry[] };

/** PATCH body: a field left out keeps its value; `trialDays` starts a trial of that many days from now. */
export interface AccountChange {
  plan?: number;
  trial?: boolean;
  trialDays?: number;
  maxSearches?: number;
  maxIgnored?: number;
  isAdmin?: boolean;
}

export const ACCOUNTS_PER_PAGE = 50;

export const adminKeys = {
  plans: ['admin', 'plans'] as const,
  accounts: ['admin', 'accounts'] as const,
  accountList: (search: string, page: number) => ['admin', 'accounts', search, page] as const,
  audit: ['admin', 'audit'] as const,
  trackerAudit: (hash: string) => ['trackers', 'audit', hash] as const,
};

/** GET /admin/plans */
export function usePlanCatalogue(enabled = true) {
  return useQuery({
    queryKey: adminKeys.plans,
    queryFn: () => get<PlanCatalogue>('/admin/plans'),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** GET /admin/users: one page of accounts matching the search (address or name). */
export function useAccounts(search: string, page: number, enabled = true) {
  return useQuery({
    queryKey: adminKeys.accountList(search, page),
    queryFn: () => get<AccountList>('/admin/users', { search, page, perPage: ACCOUNTS_PER_PAGE }),
    enabled,
    // The table keeps the last page while the next search or page loads.
    placeholderData: keepPreviousData,
  });
}

/**
 * PATCH /admin/users/{id}. The answer replaces the row in every cached page; a change to the
 * administrator's own account also reads /me again.
 */
export function useEditAccount(selfId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: AccountChange }) => patch<Account>(`/admin/users/${id}`, change),
    onSuccess: (account) => {
      qc.setQueriesData<AccountList>({ queryKey: adminKeys.accounts }, (list) =>
        list ? { ...list, accounts: list.accounts.map((a) => (a.id === account.id ? account : a)) } : list,
      );
      if (account.id === selfId) void qc.invalidateQueries({ queryKey: meKey() });
    },
  });
}

/** An audit log, a page of 50 at a time, each older page from where the last ended. */
function useAuditPages(key: readonly unknown[], path: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => get<AuditPage>(path, pageParam === null ? undefined : { before: pageParam }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled,
  });
}

/** GET /admin/audit: the audit log of every tracker, newest first. */
export function useAuditLog(enabled = true) {
  return useAuditPages(adminKeys.audit, '/admin/audit', enabled);
}

/** GET /trackers/{hash}/audit: one tracker's audit log (its owner and administrators). */
export function useTrackerAudit(hash: string, enabled = true) {
  return useAuditPages(adminKeys.trackerAudit(hash), `/trackers/${encodeURIComponent(hash)}/audit`, enabled);
}

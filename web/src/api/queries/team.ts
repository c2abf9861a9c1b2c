// A tracker's team (the Team dialog): members and their rank, invitations with their sign-up
// link, handing the tracker on; and the public side of an invitation link (the join page).
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { del, get, patch, post } from '../client';
import type { Me, Schema } from '../types';
import { meKey } from './me';
import { trackerKeys } from './trackers';

export type Team = Schema<'Team'>;
export type Member = Schema<'Member'>;
export type Invitation = Schema<'Invitation'>;
export type Invited = Schema<'Invited'>;
export type InvitationView = Schema<'InvitationView'>;

export const teamKey = (hash: string) => ['trackers', 'team', hash] as const;
export const invitationKey = (token: string) => ['invitation', token] as const;
const path = (hash: string) => `/trackers/${encodeURIComponent(hash)}`;

export function useTeam(hash: string, enabled = true) {
  return useQuery({
    queryKey: teamKey(hash),
    queryFn: () => get<Team>(`${path(hash)}/members`),
    enabled,
    retry: false,
    staleTime: 0,
  });
}

/**
 * The caller's own standing on the tracker changed (rank, removal, ownership handed on): the
 * tracker and the caller's permission are read again so the page shows what they may now do.
 */
function refreshOwnAccess(qc: QueryClient, hash: string) {
  void qc.invalidateQueries({ queryKey: trackerKeys.one(hash) });
  void qc.invalidateQueries({ queryKey: meKey(hash) });
  void qc.invalidateQueries({ queryKey: ['trackers', 'list'] });
}

function updateTeam(qc: QueryClient, hash: string, change: (t: Team) => Team) {
  const t = qc.getQueryData<Team>(teamKey(hash));
  if (t) qc.setQueryData<Team>(teamKey(hash), change(t));
}

/** POST /members: an account joins at once; another address gets an invitation and its link. */
export function useInvite(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; permission: number }) => post<Invited>(`${path(hash)}/members`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: teamKey(hash) }),
  });
}

export interface RankChange {
  userId: number;
  permission: number;
}

/**
 * PATCH /members/{userId}. The new rank shows at once; when the server refuses, that member's
 * rank goes back to what it was.
 */
export function useSetRank(hash: string, selfId: number | null) {
  const qc = useQueryClient();
  const setRank = (userId: number, permission: number) =>
    updateTeam(qc, hash, (t) => ({ ...t, members: t.members.map((m) => (m.userId === userId ? { ...m, permission } : m)) }));
  return useMutation({
    mutationFn: ({ userId, permission }: RankChange) => patch<Member>(`${path(hash)}/members/${userId}`, { permission }),
    onMutate: async ({ userId, permission }) => {
      await qc.cancelQueries({ queryKey: teamKey(hash) });
      const before = qc.getQueryData<Team>(teamKey(hash))?.members.find((m) => m.userId === userId)?.permission;
      setRank(userId, permission);
      return { before };
    },
    onError: (_e, { userId }, ctx) => {
      if (ctx?.before !== undefined) setRank(userId, ctx.before);
    },
    onSuccess: (member) => {
      setRank(member.userId, member.permission);
      if (member.userId === selfId) refreshOwnAccess(qc, hash);
    },
  });
}

/** DELETE /members/{userId}: the account loses its access to the tracker. */
export function useRemoveMember(hash: string, selfId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => del<void>(`${path(hash)}/members/${userId}`),
    onSuccess: (_v, userId) => {
      updateTeam(qc, hash, (t) => ({ ...t, members: t.members.filter((m) => m.userId !== userId) }));
      if (userId === selfId) refreshOwnAccess(qc, hash);
    },
  });
}

/** DELETE /invitations/{id}: the sign-up link stops working. */
export function useWithdrawInvitation(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => del<void>(`${path(hash)}/invitations/${id}`),
    onSuccess: (_v, id) => updateTeam(qc, hash, (t) => ({ ...t, invitations: t.invitations.filter((i) => i.id !== id) })),
  });
}

/** POST /owner: the member becomes the owner; the caller stays on the team as an administrator. */
export function useTransferOwnership(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => post<Team>(`${path(hash)}/owner`, { userId }),
    onSuccess: (team) => {
      qc.setQueryData(teamKey(hash), team);
      refreshOwnAccess(qc, hash);
    },
  });
}

/** GET /invitations/{token} (public): what the sign-up link offers; 404 once it no longer works. */
export function useInvitation(token: string) {
  return useQuery({
    queryKey: invitationKey(token),
    queryFn: () => get<InvitationView>(`/invitations/${encodeURIComponent(token)}`),
    retry: false,
    staleTime: 0,
  });
}

/**
 * POST /invitations/{token}/accept: `{name, password}` makes the invited address's account and
 * signs it in; `{}` accepts for the account already signed in with that address.
 */
export function useAcceptInvitation(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; password: string } | Record<string, never>) =>
      post<Me>(`/invitations/${encodeURIComponent(token)}/accept`, body),
    onSuccess: (me) => {
      // A new session (or a new tracker for this one): what was read before no longer holds.
      qc.removeQueries({ queryKey: ['me'] });
      qc.removeQueries({ queryKey: ['trackers'] });
      qc.setQueryData(meKey(), me);
    },
  });
}

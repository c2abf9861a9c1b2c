// The Share dialog's calls: the tracker's sharing (GET, made on the first look), changes to it
// (PUT: custom URL, link-sharing toggles, share-exports, unlock-date), revoking the link and
// sending it by e-mail.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { get, post, put } from '../client';
import type { Schema, Tracker } from '../types';
import { trackerKeys } from './trackers';

export type ShareView = Schema<'ShareView'>;
export type LinkSharing = Schema<'LinkSharing'>;
export type ShareEmailInput = Schema<'ShareEmailInput'>;
export type ShareEmailSent = Schema<'ShareEmailSent'>;

/** PUT body: a field left out keeps its value; customUrl "" goes back to the friendly name. */
export interface ShareChange {
  customUrl?: string;
  linkSharing?: LinkSharing;
  shareExports?: boolean;
  unlockDate?: boolean;
}

export const shareKey = (hash: string) => ['trackers', 'share', hash] as const;
const shareMutationKey = (hash: string) => ['share-change', hash] as const;
const path = (hash: string) => `/trackers/${encodeURIComponent(hash)}/share`;

export function useShare(hash: string, enabled = true) {
  return useQuery({
    queryKey: shareKey(hash),
    queryFn: () => get<ShareView>(path(hash)),
    enabled,
    retry: false,
    staleTime: 0,
  });
}

/** The cached tracker follows the sharing, so the page (date picker, link) agrees with the dialog. */
function storeView(qc: QueryClient, hash: string, view: ShareView) {
  qc.setQueryData(shareKey(hash), view);
  const t = qc.getQueryData<Tracker>(trackerKeys.one(hash));
  if (t) {
    qc.setQueryData<Tracker>(trackerKeys.one(hash), {
      ...t,
      shareHash: view.shareHash,
      customUrl: view.customUrl,
      linkSharing: view.linkSharing,
      shareExports: view.shareExports,
      unlockDate: view.unlockDate,
    });
  }
}

/** Toggle fields of a change, applied to a view (the custom URL waits for the server). */
function applyToggles(view: ShareView, change: ShareChange): ShareView {
  return {
    ...view,
    ...(change.linkSharing ? { linkSharing: change.linkSharing } : {}),
    ...(change.shareExports !== undefined ? { shareExports: change.shareExports } : {}),
    ...(change.unlockDate !== undefined ? { unlockDate: change.unlockDate } : {}),
  };
}

/**
 * PUT /trackers/{hash}/share. Toggles show at once and go back when the server refuses; the
 * answer replaces the cached view once no other change is still on its way.
 */
export function useEditShare(hash: string) {
  const qc = useQueryClient();
  const key = shareKey(hash);
  return useMutation({
    mutationKey: shareMutationKey(hash),
    // One change at a time, in the order made: each sends the whole set of switches, so two on
    // their way at once could reach the server in the other order and undo the later one.
    scope: { id: `share:${hash}` },
    mutationFn: (change: ShareChange) => put<ShareView>(path(hash), change),
    onMutate: async (change) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<ShareView>(key);
      if (previous) qc.setQueryData<ShareView>(key, applyToggles(previous, change));
      return { previous };
    },
    onError: (_err, change, ctx) => {
      const now = qc.getQueryData<ShareView>(key);
      if (!now || !ctx?.previous) return;
      // Only the fields this change touched go back; another toggle made meanwhile stays.
      const p = ctx.previous;
      qc.setQueryData<ShareView>(
        key,
        applyToggles(now, {
          linkSharing: change.linkSharing ? p.linkSharing : undefined,
          shareExports: change.shareExports !== undefined ? p.shareExports : undefined,
          unlockDate: change.unlockDate !== undefined ? p.unlockDate : undefined,
        }),
      );
    },
    onSuccess: (view) => {
      // This mutation still counts itself while its callbacks run.
      if (qc.isMutating({ mutationKey: shareMutationKey(hash) }) <= 1) storeView(qc, hash, view);
      else {
        const now = qc.getQueryData<ShareView>(key);
        // Keep the toggles still on their way; take the rest (link, custom URL) from the answer.
        if (now) qc.setQueryData<ShareView>(key, { ...view, linkSharing: now.linkSharing, shareExports: now.shareExports, unlockDate: now.unlockDate });
      }
    },
  });
}

/** POST /trackers/{hash}/share/revoke: a new share hash; the old link stops working. */
export function useRevokeShare(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => post<ShareView>(`${path(hash)}/revoke`),
    onSuccess: (view) => storeView(qc, hash, view),
  });
}

/**
 * POST /trackers/{hash}/share/email: the server mails the link (the given page query kept, the
 * share hash added) to each comma-separated address. Nothing cached changes.
 */
export function useShareByEmail(hash: string) {
  return useMutation({
    mutationFn: (input: ShareEmailInput) => post<ShareEmailSent>(`${path(hash)}/email`, input),
  });
}

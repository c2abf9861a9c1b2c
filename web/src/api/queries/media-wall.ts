// Hooks of the media wall: the wall itself (posts, moderation queue, saved settings), its
// settings, the moderation toggle, post visibility, and the moderation link.
import { keepPreviousData, replaceEqualDeep, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, get, type Query } from '../client';
import type { Narrowed, Schema } from '../types';

export type WallMediaKind = 'photo' | 'video' | 'gif' | 'carousel' | 'reel';

/** One picture or video of a wall post, at an address of Hark's own. */
export type WallMedia = Narrowed<'WallMedia', { kind: WallMediaKind }>;

/** A post of the wall or its queue: `key` (`platform;id`) names it in visibility changes and
 * deletes; `visibility` is 1 public, 0 hidden, 2 waiting in the moderation queue. */
export type WallPost = Narrowed<'WallPost', { media: WallMedia[] }>;

/** The wall's settings as saved on the tracker. */
export type MediaWallSettings = Narrowed<
  'MediaWallSettings',
  { displayMode: 'grid' | 'slideshow'; theme: 'dark' | 'light'; sortBy: 'date' | 'engagement' }
>;

/** GET /media-wall: the posts, the moderation queue, who may do what, and the saved settings. */
export type MediaWall = Narrowed<'MediaWall', { posts: WallPost[]; queue: WallPost[]; settings: MediaWallSettings }>;

export type ModerationLink = Schema<'ModerationLink'>;
export type ModerationInput = Schema<'ModerationInput'>;
export type ModerationState = Schema<'ModerationState'>;
/** 1 approves or shows, 0 rejects or hides. */
export type VisibilityInput = Narrowed<'VisibilityInput', { visibility: 0 | 1 }>;
export type VisibilityResult = Schema<'VisibilityResult'>;

export const mediaWallKeys = {
  all: (hash: string) => ['media-wall', hash] as const,
  wall: (hash: string, q: string) => ['media-wall', hash, 'wall', q] as const,
  link: (hash: string) => ['media-wall', hash, 'link'] as const,
};

const base = (hash: string) => `/trackers/${encodeURIComponent(hash)}/media-wall`;

/**
 * The next answer of the same wall, with every post that did not change kept as the object it was
 * (matched by key: new posts arrive at the top and move the others, where the usual sharing by
 * position would find nothing equal). The wall's cards then render again only for posts that
 * arrived or changed.
 */
export function shareWall(previous: unknown, next: unknown): unknown {
  const shared = replaceEqualDeep(previous, next);
  if (!previous || shared === previous || !isWall(previous) || !isWall(shared)) return shared;
  const before = new Map<string, WallPost>();
  for (const p of [...previous.posts, ...previous.queue]) before.set(p.key, p);
  const keep = (list: WallPost[]) => {
    let changed = false;
    const out = list.map((p) => {
      const old = before.get(p.key);
      const kept = old && old !== p ? replaceEqualDeep(old, p) : p;
      if (kept !== p) changed = true;
      return kept;
    });
    return changed ? out : list;
  };
  const posts = keep(shared.posts);
  const queue = keep(shared.queue);
  return posts === shared.posts && queue === shared.queue ? shared : { ...shared, posts, queue };
}

function isWall(v: unknown): v is MediaWall {
  return typeof v === 'object' && v !== null && Array.isArray((v as MediaWall).posts) && Array.isArray((v as MediaWall).queue);
}

/**
 * GET /media-wall. `refreshMs` polls it (the wall's own adaptive pace); the previous answer stays
 * on screen while another view loads, so the wall never blanks.
 */
export function useMediaWall(hash: string, query: Query, opts: { enabled?: boolean; refreshMs?: number | false } = {}) {
  const key = JSON.stringify(query);
  return useQuery({
    queryKey: mediaWallKeys.wall(hash, key),
    queryFn: () => get<MediaWall>(base(hash), query),
    enabled: opts.enabled ?? true,
    placeholderData: keepPreviousData,
    structuralSharing: shareWall,
    refetchInterval: opts.refreshMs ?? false,
    retry: false,
  });
}

function useRefreshWall(hash: string) {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: mediaWallKeys.all(hash) });
}

/** PUT /media-wall/settings: answered with the settings as saved. */
export function useSaveWallSettings(hash: string) {
  const refresh = useRefreshWall(hash);
  return useMutation({
    mutationFn: (settings: MediaWallSettings) => api<MediaWallSettings>('PUT', `${base(hash)}/settings`, settings),
    onSuccess: refresh,
  });
}

/** PUT /media-wall/moderation; turning it off publishes the queue (`published` posts). */
export function useSetModeration(hash: string) {
  const refresh = useRefreshWall(hash);
  return useMutation({
    mutationFn: (enabled: boolean) => api<ModerationState>('PUT', `${base(hash)}/moderation`, { enabled } satisfies ModerationInput),
    onSuccess: refresh,
  });
}

/** POST /media-wall/visibility: 1 approves or shows, 0 rejects or hides. */
export function useSetWallVisibility(hash: string) {
  const refresh = useRefreshWall(hash);
  return useMutation({
    mutationFn: (v: VisibilityInput) => api<VisibilityResult>('POST', `${base(hash)}/visibility`, v),
    onSettled: refresh,
  });
}

/** GET /media-wall/moderation-link (made the first time it is asked for). */
export function useModerationLink(hash: string, enabled: boolean) {
  return useQuery({
    queryKey: mediaWallKeys.link(hash),
    queryFn: () => get<ModerationLink>(`${base(hash)}/moderation-link`),
    enabled,
    retry: false,
    staleTime: 0,
  });
}

/** POST /media-wall/moderation-link: a new key; the old link stops working. */
export function useRotateModerationLink(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<ModerationLink>('POST', `${base(hash)}/moderation-link`),
    onSuccess: (link) => qc.setQueryData(mediaWallKeys.link(hash), link),
  });
}

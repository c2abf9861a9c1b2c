// The real-time preview's state machine (tracker-lifecycle.md section 4): posts stream in over a
// websocket and are shown in batches every 2.5 s; 'fetching complete' then 'processing complete'
// end it. It fails after 180 s overall, after 60 s without a first post, or on the third
// disconnect (reconnecting 1 to 5 s after each). Posts are merged, de-duplicated and sorted.

export const PREVIEW_FLUSH_MS = 2500;
export const PREVIEW_TIMEOUT_MS = 180_000;
export const FIRST_POST_TIMEOUT_MS = 60_000;
export const MAX_DISCONNECTS = 3;
export const RECONNECT_MIN_MS = 1000;
export const RECONNECT_MAX_MS = 5000;

export const ERR_TIMEOUT = 'preview timed out';
export const ERR_FIRST_POST = 'preview timed out, first posts not found within 1 minute';
export const errMaxDisconnects = (n: number) => `hit max disconnect events (${n}/${MAX_DISCONNECTS})`;

/** The fields of a streamed post the preview needs; the rest is kept as sent. */
export interface PreviewPost {
  platform: string;
  id: string;
  createdAt: number;
  [field: string]: unknown;
}

export type PreviewPhase = 'connecting' | 'streaming' | 'fetched' | 'complete' | 'error';

export interface PreviewState {
  phase: PreviewPhase;
  /** Shown posts: merged, one per post, newest first. */
  posts: PreviewPost[];
  /** Received since the last flush. */
  pending: PreviewPost[];
  startedAt: number;
  firstPostAt: number | null;
  disconnects: number;
  /** Posts stored, from 'processing complete'. */
  total: number | null;
  error: string | null;
  /** Sources that could not be read. */
  sourceErrors: string[];
}

export type PreviewAction =
  | { type: 'open' }
  | { type: 'message'; data: unknown; now: number }
  | { type: 'flush' }
  | { type: 'disconnect' }
  | { type: 'tick'; now: number };

export function initialPreview(now: number): PreviewState {
  return { phase: 'connecting', posts: [], pending: [], startedAt: now, firstPostAt: null, disconnects: 0, total: null, error: null, sourceErrors: [] };
}

export function isFinished(s: PreviewState): boolean {
  return s.phase === 'complete' || s.phase === 'error';
}

const key = (p: PreviewPost) => `${p.platform};${p.id}`;

/** Both lists as one: a post seen twice keeps its latest copy; newest first. */
export function mergePosts(shown: PreviewPost[], incoming: PreviewPost[]): PreviewPost[] {
  const byKey = new Map<string, PreviewPost>();
  for (const p of shown) byKey.set(key(p), p);
  for (const p of incoming) byKey.set(key(p), p);
  return [...byKey.values()].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** Delay before reconnect attempt `n` (1-based): 1 s, 2 s, … at most 5 s. */
export function reconnectDelay(n: number): number {
  return Math.min(RECONNECT_MAX_MS, Math.max(RECONNECT_MIN_MS, n * 1000));
}

function validPosts(v: unknown): PreviewPost[] {
  if (!Array.isArray(v)) return [];
  return v.filter(
    (p): p is PreviewPost =>
      !!p && typeof p === 'object' && typeof (p as PreviewPost).id === 'string' && typeof (p as PreviewPost).platform === 'string' &&
      typeof (p as PreviewPost).createdAt === 'number',
  );
}

function flush(s: PreviewState): PreviewState {
  return s.pending.length === 0 ? s : { ...s, posts: mergePosts(s.posts, s.pending), pending: [] };
}

export function previewReducer(s: PreviewState, a: PreviewAction): PreviewState {
  if (isFinished(s)) return s;
  switch (a.type) {
    case 'open':
      return s.phase === 'connecting' ? { ...s, phase: 'streaming' } : s;
    case 'flush':
      return flush(s);
    case 'disconnect': {
      const disconnects = s.disconnects + 1;
      if (disconnects >= MAX_DISCONNECTS) return { ...flush(s), disconnects, phase: 'error', error: errMaxDisconnects(disconnects) };
      return { ...s, disconnects, phase: 'connecting' };
    }
    case 'tick': {
      if (a.now - s.startedAt >= PREVIEW_TIMEOUT_MS) return { ...flush(s), phase: 'error', error: ERR_TIMEOUT };
      if (s.firstPostAt === null && s.phase !== 'fetched' && a.now - s.startedAt >= FIRST_POST_TIMEOUT_MS) {
        return { ...s, phase: 'error', error: ERR_FIRST_POST };
      }
      return s;
    }
    case 'message': {
      const m = a.data as { type?: string; posts?: unknown; total?: unknown; connector?: unknown; message?: unknown } | null;
      switch (m?.type) {
        case 'posts': {
          const posts = validPosts(m.posts);
          if (posts.length === 0) return s;
          return { ...s, phase: s.phase === 'connecting' ? 'streaming' : s.phase, pending: [...s.pending, ...posts], firstPostAt: s.firstPostAt ?? a.now };
        }
        case 'source_error':
          return { ...s, sourceErrors: [...s.sourceErrors, `${String(m.connector)}: ${String(m.message)}`] };
        case 'fetching_complete':
          return { ...flush(s), phase: 'fetched' };
        case 'processing_complete': {
          const done = flush(s);
          const total = typeof m.total === 'number' ? m.total : done.posts.length;
          return { ...done, phase: 'complete', total };
        }
        default:
          return s;
      }
    }
  }
}

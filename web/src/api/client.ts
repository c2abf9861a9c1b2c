// The only place in the app that calls fetch. Every error becomes an ApiError carrying the
// server's stable code and message.
import type { FieldError } from './types';

export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    public fields: FieldError[] = [],
  ) {
    super(message);
  }
}

function readCookie(name: string): string | null {
  const m = document.cookie.match(new RegExp('(?:^|; )' + name + '=([^;]*)'));
  return m ? decodeURIComponent(m[1]) : null;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * The share link a read of a tracker goes through: a visitor of a shared link has no session, so
 * every read of that tracker's pages carries the page address's `shareHash`. It applies to API
 * paths of the same tracker as the page (`/trackers/{hash}/…` under
 * `/hashtag-tracking/{page}/{hash}/…`) and is added here once rather than by each call.
 */
export function shareHashFor(apiPath: string, page: { pathname: string; search: string }): string | null {
  return pageParamFor('shareHash', apiPath, page);
}

/**
 * The embed key a read of a tracker goes through: an embedded chart or page (`embed=1`) is opened
 * by the `embedKey` of its address, which the server accepts like a share link for the reads of
 * that one chart or page. Same rule as the share link: only for the page's own tracker.
 */
export function embedKeyFor(apiPath: string, page: { pathname: string; search: string }): string | null {
  return pageParamFor('embedKey', apiPath, page);
}

/**
 * The moderation key a call goes through: the media wall's moderation link
 * (`?moderationKey=…`) lets a visitor without a session moderate one tracker's wall. The server
 * accepts it on the tracker itself and on its media wall calls (changes as well as reads), so it
 * goes on exactly those, for the page's own tracker.
 */
export function moderationKeyFor(apiPath: string, page: { pathname: string; search: string }): string | null {
  if (!/^\/trackers\/[^/?#]+(\/media-wall(\/[^?#]*)?)?$/.test(apiPath)) return null;
  return pageParamFor('moderationKey', apiPath, page);
}

function pageParamFor(name: string, apiPath: string, page: { pathname: string; search: string }): string | null {
  const value = new URLSearchParams(page.search).get(name);
  if (!value) return null;
  const pageHash = /^\/hashtag-tracking\/[^/]+\/([^/?#]+)/.exec(page.pathname)?.[1];
  const apiHash = /^\/trackers\/([^/?#]+)/.exec(apiPath)?.[1];
  if (!pageHash || !apiHash) return null;
  return safeDecode(pageHash) === safeDecode(apiHash) ? value : null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function pageLocation(): { pathname: string; search: string } {
  return typeof window === 'undefined' ? { pathname: '', search: '' } : window.location;
}

/**
 * The query of a call, with the page's share link and embed key added to reads and its
 * moderation key to every call, when they apply.
 */
function callQuery(method: string, path: string, query?: Query): Query | undefined {
  const page = pageLocation();
  const read = method === 'GET';
  const shareHash = read ? shareHashFor(path, page) : null;
  const embedKey = read ? embedKeyFor(path, page) : null;
  const moderationKey = moderationKeyFor(path, page);
  if (!shareHash && !embedKey && !moderationKey) return query;
  return {
    ...query,
    ...(shareHash ? { shareHash } : {}),
    ...(embedKey ? { embedKey } : {}),
    ...(moderationKey ? { moderationKey } : {}),
  };
}

/**
 * The address of a GET the browser makes itself (a CSV download link): `/api/v1` + path + query,
 * with the share link like every read.
 */
export function apiHref(path: string, query?: Query): string {
  return withQuery(`/api/v1${path}`, callQuery('GET', path, query));
}

/** A body sent as it is (a file upload) rather than as JSON. */
class RawBody {
  constructor(
    public data: Blob,
    public contentType: string,
  ) {}
}

export async function api<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body instanceof RawBody) headers['Content-Type'] = body.contentType;
  else if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') {
    const token = readCookie('hark_csrf');
    if (token) headers['X-CSRF-Token'] = token;
  }
  let res: Response;
  try {
    res = await fetch(withQuery(`/api/v1${path}`, callQuery(method, path, query)), {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : body instanceof RawBody ? body.data : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'Sorry, an error occurred please try again.');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const err = (json as { error?: { code?: string; message?: string; fields?: FieldError[] } } | null)?.error;
    throw new ApiError(
      res.status,
      err?.code ?? 'unknown',
      err?.message ?? 'An unknown error occurred.',
      err?.fields ?? [],
    );
  }
  return json as T;
}

export const get = <T>(path: string, query?: Query) => api<T>('GET', path, undefined, query);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});
export const put = <T>(path: string, body?: unknown) => api<T>('PUT', path, body ?? {});
export const patch = <T>(path: string, body?: unknown) => api<T>('PATCH', path, body ?? {});
export const del = <T>(path: string) => api<T>('DELETE', path);
/** POST of a file or blob as the raw request body (imports), with the CSRF header like every POST. */
export const postRaw = <T>(path: string, body: Blob | File, contentType: string, query?: Query) =>
  api<T>('POST', path, new RawBody(body, contentType), query);

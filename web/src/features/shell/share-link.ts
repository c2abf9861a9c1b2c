// The shared dashboard link and the custom URL as typed (dashboard-and-shell spec, section 2:
// "The current query string is kept and a shareHash parameter is added").

/** Query parameters that never travel in a shared link: the old link's hash, one-shot actions. */
const DROPPED = ['shareHash', 'action'];

/**
 * origin + the share view's path + the page's query (filters, grouping…) with the link's
 * shareHash last. An older shareHash in the page's query is replaced.
 */
export function shareLinkUrl(origin: string, path: string, shareHash: string, search: string): string {
  const params = new URLSearchParams(sharedQuery(search));
  params.set('shareHash', shareHash);
  return `${origin}${path}?${params.toString()}`;
}

/**
 * The page's query as a shared link keeps it, without the leading '?' and without shareHash: what
 * the share-by-e-mail call sends (the server adds the link's own shareHash).
 */
export function sharedQuery(search: string): string {
  const params = new URLSearchParams(search);
  for (const k of DROPPED) params.delete(k);
  return params.toString();
}

/** A custom URL as the field keeps it: spaces go as they are typed (the server drops them too). */
export function cleanCustomUrl(text: string): string {
  return text.replace(/\s+/g, '');
}

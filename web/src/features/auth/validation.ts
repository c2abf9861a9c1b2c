// Client-side checks mirroring the server's account rules (docs/api.md): password 8–200 characters,
// e-mail containing '@' and at most 254 characters.
export interface AccountErrors {
  name?: string;
  email?: string;
  password?: string;
}

export function validateAccount(v: { name?: string; email: string; password: string }, needName: boolean): AccountErrors {
  const e: AccountErrors = {};
  if (needName && !(v.name ?? '').trim()) e.name = 'Enter your name.';
  const email = v.email.trim();
  if (!email.includes('@') || email.length > 254) e.email = 'Enter a valid e-mail address.';
  if (v.password.length < 8 || v.password.length > 200) e.password = 'The password must be 8 to 200 characters long.';
  return e;
}

/** Where to go after signing in: a same-site path from ?next=, else the tracker list. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  if (next && next.startsWith('/') && !next.startsWith('//')) return next;
  return '/mytracks/hashtag';
}

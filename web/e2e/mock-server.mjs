// A small in-memory stand-in for `hark serve`, implementing the parts of docs/api.md the sign-in
// and tracker pages use. Only for working on the UI while the real server is not built
// (HARK_E2E_MOCK=1); the browser tests are meant to run against the real binary.
import { createServer } from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
const port = Number(arg('--port'));
const webDir = arg('--web-dir');

const users = [];
const sessions = new Map();
const trackers = [];
let nextId = 1;

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}
const fail = (res, status, code, message, fields) => send(res, status, { error: { code, message, ...(fields ? { fields } : {}) } });

function cookies(req) {
  return Object.fromEntries((req.headers.cookie ?? '').split(/;\s*/).filter(Boolean).map((c) => c.split('=')));
}

function meOf(user) {
  return {
    isLoggedIn: Boolean(user), id: user?.id ?? null, email: user?.email ?? null, name: user?.name ?? null,
    isAdmin: Boolean(user?.admin), trial: process.env.HARK_MOCK_TRIAL === '1', trialExpires: null, plan: 40, isPaidUser: true, maxSearches: 5,
    maxIgnored: 5, allowFacebook: true, allowTiktok: true, allowYoutube: true, isTrackerOwner: false, permission: 0, csrfToken: 'mock',
    trialDays: 14, trialLockedPlatforms: ['tt', 'fb', 'yt'],
  };
}

function trackerOut(t) {
  const inc = t.search.rows.filter((r) => r.type === '+');
  const exc = t.search.rows.filter((r) => r.type === '-').flatMap((r) => r.searches);
  const display = inc.map((r) => (r.searches.length > 1 ? `(${r.searches.join(' OR ')})` : r.searches[0])).join(' AND ') + exc.map((x) => ` -${x}`).join('');
  const sizes = inc.map((r) => r.searches.length);
  return {
    ...t, searchDisplay: display, searchCount: sizes.length ? Math.max(sizes.reduce((a, b) => a * b, 1), sizes.reduce((a, b) => a + b, 0)) : 0,
    ignoreCount: exc.length, subtrackers: (t.subtrackers ?? []).map((s) => ({ label: s, value: s })),
  };
}

function clean(rows) {
  return (rows ?? [])
    .map((r) => ({ type: r.type, searches: r.searches.map((s) => s.trim()).map((s) => (s.length > 1 && s.startsWith('@') ? s.slice(1) : s)).filter(Boolean) }))
    .filter((r) => r.searches.length);
}

function validateInput(body) {
  const fields = [];
  const rows = clean(body.search?.rows);
  if (!rows.some((r) => r.type === '+')) fields.push({ field: 'search', code: 'search_terms_required', message: 'At least one search term must be entered.' });
  if (!Object.values(body.platforms ?? {}).some((v) => v === 1)) fields.push({ field: 'platforms', code: 'platforms_required', message: 'At least one platform must be selected.' });
  return { rows, fields };
}

async function readBody(req) {
  let s = '';
  for await (const c of req) s += c;
  return s ? JSON.parse(s) : {};
}

createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const p = url.pathname;
  if (!p.startsWith('/api/')) {
    let file = path.join(webDir, p);
    if (!file.startsWith(webDir) || !existsSync(file) || statSync(file).isDirectory()) file = path.join(webDir, 'index.html');
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    return res.end(readFileSync(file));
  }
  const sid = cookies(req).hark_session;
  const user = sessions.get(sid);
  const m = req.method;
  // CSRF as in docs/api.md: writes echo the hark_csrf cookie (set by GET /me) in X-CSRF-Token.
  if (m !== 'GET' && (!cookies(req).hark_csrf || req.headers['x-csrf-token'] !== cookies(req).hark_csrf)) {
    return fail(res, 403, 'csrf_failed', 'The security token is missing or wrong. Reload the page.');
  }
  const body = m === 'GET' || m === 'DELETE' ? {} : await readBody(req);
  const signIn = (u) => {
    const s = randomBytes(8).toString('hex');
    sessions.set(s, u);
    return { 'Set-Cookie': `hark_session=${s}; Path=/; HttpOnly` };
  };
  if (p === '/api/v1/health') return send(res, 200, { status: 'ok' });
  if (p === '/api/v1/setup' && m === 'GET') return send(res, 200, { needsSetup: users.length === 0 });
  if (p === '/api/v1/setup' && m === 'POST') {
    if (users.length) return fail(res, 409, 'already_set_up', 'This instance is already set up.');
    const u = { id: 1, name: body.name, email: body.email, password: body.password, admin: true };
    users.push(u);
    return send(res, 201, meOf(u), signIn(u));
  }
  if (p === '/api/v1/auth/login') {
    const u = users.find((x) => x.email === body.email && x.password === body.password);
    if (!u) return fail(res, 401, 'invalid_credentials', 'Invalid email or password.');
    return send(res, 200, meOf(u), signIn(u));
  }
  if (p === '/api/v1/auth/logout') {
    sessions.delete(sid);
    return send(res, 204);
  }
  if (p === '/api/v1/me') return send(res, 200, { ...meOf(user), permission: user && url.searchParams.get('tracker') ? 4 : 0 }, cookies(req).hark_csrf ? {} : { 'Set-Cookie': `hark_csrf=${randomBytes(8).toString('hex')}; Path=/` });
  if (!user) return fail(res, 401, 'unauthorized', 'Sign in first.');
  if (p === '/api/v1/trackers' && m === 'GET') return send(res, 200, { trackers: trackers.map(trackerOut).reverse(), count: trackers.length });
  if (p === '/api/v1/trackers' && m === 'POST') {
    const { rows, fields } = validateInput(body);
    if (fields.length) return fail(res, 422, 'validation_failed', fields[0].message, fields);
    const id = nextId++;
    const first = rows[0].searches[0];
    const t = {
      id, hash: randomBytes(5).toString('hex'), friendly: first.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase() || 'tracker',
      title: body.title || `Real-time Tracker: ${first}`, status: 'running', created: Date.now(), end: null, lastCached: null, lastPaused: null,
      firstDataPoint: null, platforms: body.platforms, search: { rows }, excludeRetweets: Boolean(body.excludeRetweets), verifiedUsers: false,
      verifiedTiktokUsers: false, language: body.language ?? null, countryLocations: body.countryLocations ?? [], volumeLimit: body.volumeLimit ?? null,
      usernames: { twt: [], ig: [], yt: [], fb: [], tt: [], web: [], ...body.usernames }, ignore: { twt: [], ig: [], yt: [], fb: [], tt: [], web: [], ...body.ignore },
      subtrackers: body.subtrackers ?? [], highlights: [], hideAuthMetrics: false, customConfig: { order: [], columns: 2 }, shareExports: false,
      unlockDate: false, isSubTracker: false, isPreviewMode: false, isDemo: false, totalPosts: 0,
      linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false }, customUrl: null, shareHash: null, lastEditMode: null,
      permission: 4, isOwner: true, ownerName: user.name,
    };
    trackers.push(t);
    return send(res, 201, trackerOut(t));
  }
  const mt = p.match(/^\/api\/v1\/trackers\/([^/]+)(?:\/([a-z-]+))?$/);
  const t = mt && trackers.find((x) => x.hash === mt[1]);
  if (mt && !t) return fail(res, 404, 'tracker_not_found', 'Tracker not found.');
  if (t && !mt[2] && m === 'GET') return send(res, 200, trackerOut(t));
  if (t && !mt[2] && m === 'PATCH') {
    const { rows, fields } = validateInput(body);
    if (fields.length) return fail(res, 422, 'validation_failed', fields[0].message, fields);
    Object.assign(t, { search: { rows }, platforms: body.platforms, title: body.title || t.title, lastEditMode: body.mode });
    return send(res, 200, trackerOut(t));
  }
  if (t && !mt[2] && m === 'DELETE') {
    trackers.splice(trackers.indexOf(t), 1);
    return send(res, 200, { status: 'success' });
  }
  if (t && mt[2] === 'pause') return send(res, 200, trackerOut(Object.assign(t, { status: 'paused', lastPaused: Date.now() })));
  if (t && mt[2] === 'restart') return send(res, 200, trackerOut(Object.assign(t, { status: 'running' })));
  if (t && mt[2] === 'total-posts') return send(res, 200, { count: { posts: 0 } });
  if (t && mt[2] === 'logs') return send(res, 200, { logs: [{ action: 'tracker_created', createdAt: t.created }] });
  if (t && mt[2] === 'tags') return send(res, 200, { tags: [] });
  return fail(res, 404, 'not_found', 'Not found.');
}).listen(port, '127.0.0.1');

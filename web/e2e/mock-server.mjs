// A small in-memory stand-in for `hark serve`, implementing the parts of docs/api.md the sign-in,
// tracker and notification settings pages use (test messages really go to the webhook, Slack and
// HARK_SMTP_URL addresses, so the page's browser test runs its whole path). Only for working on
// the UI while the real server is not built (HARK_E2E_MOCK=1); the browser tests are meant to run
// against the real binary.
import { createServer } from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';

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

// ---- notifications (docs/api.md, Notifications): settings, test messages, history, unsubscribe ----
const notifications = new Map(); // tracker hash -> { settings, webhookSecret, history: [] }
const unsubscribeTokens = new Map(); // token -> { hash, email }
let nextDelivery = 1;

function notificationsOf(t, owner) {
  if (!notifications.has(t.hash)) {
    const me = [owner.email];
    notifications.set(t.hash, {
      settings: {
        alerts: {
          frequency: 'realtime', recipients: me, negativeSentiment: false, spike: true, spikeSensitivity: 'medium', spikeMinPosts: 10,
          influencers: {
            twitterFollowers: 0, twitterRetweets: 0, twitterVerified: false, tiktokFollowers: 0, tiktokVerified: false, instagramFollowers: 0,
            instagramLikes: 0, youtubeFollowers: 0, youtubeViews: 0, facebookFans: 0, facebookLikes: 0,
          },
        },
        report: { enabled: true, frequency: 'weekly', recipients: me, sendWithoutUpdates: false },
        webhook: { url: null },
        slack: { url: null },
      },
      webhookSecret: null,
      history: [],
    });
  }
  return notifications.get(t.hash);
}

function nextReportAt(report) {
  if (!report.enabled) return null;
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  if (report.frequency === 'daily') d.setUTCDate(d.getUTCDate() + 1);
  else if (report.frequency === 'monthly') d.setUTCMonth(d.getUTCMonth() + 1, 1);
  else d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return d.getTime();
}

const notificationsView = (n) => ({
  settings: n.settings, webhookSecret: n.webhookSecret, mailConfigured: Boolean(process.env.HARK_SMTP_URL),
  nextReportAt: nextReportAt(n.settings.report), timeZone: 'UTC',
});

const isEmail = (a) => /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\.]+(\.[^\s@<>()[\],;:"\\.]+)+$/.test(a);

function checkSettings(s) {
  for (const list of [s?.alerts?.recipients, s?.report?.recipients]) {
    if (!Array.isArray(list)) return { code: 'invalid_json', message: 'The settings are incomplete.' };
    const bad = list.find((a) => !isEmail(a.trim()));
    if (bad !== undefined) return { code: 'invalid_email', message: `'${bad}' is not an e-mail address.` };
    if (list.length > 20) return { code: 'validation_failed', message: 'Alert recipients: at most 20 addresses.' };
  }
  const min = s.alerts.spikeMinPosts;
  if (!Number.isInteger(min) || min < 1 || min > 1_000_000) return { code: 'validation_failed', message: "Spike alerts' minimum posts must be between 1 and 1,000,000." };
  for (const [name, url] of [['The webhook address', s.webhook?.url], ['The Slack webhook address', s.slack?.url]]) {
    if (url && !/^https?:\/\/[^/\s]/i.test(url)) return { code: 'validation_failed', message: `${name} must start with http:// or https:// and name a host.` };
  }
  return null;
}

/** A plain-text message through the SMTP server of HARK_SMTP_URL (no TLS, no login: e2e/smtp.mjs). */
function sendMail(to, subject, body, headers) {
  const u = new URL(process.env.HARK_SMTP_URL);
  const from = /<([^>]+)>/.exec(process.env.HARK_MAIL_FROM ?? '')?.[1] ?? 'hark@example.org';
  const data = [
    `From: ${process.env.HARK_MAIL_FROM ?? from}`, `To: ${to}`, `Subject: ${subject}`, ...headers, 'Content-Type: text/plain; charset=utf-8', '', body, '.', '',
  ].join('\r\n');
  const steps = ['EHLO mock', `MAIL FROM:<${from}>`, `RCPT TO:<${to}>`, 'DATA', data, 'QUIT'];
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(u.port), u.hostname);
    let i = -1;
    let buf = '';
    sock.on('data', (d) => {
      buf += d;
      if (!/^\d{3} /m.test(buf.split('\r\n').filter(Boolean).at(-1) ?? '')) return;
      const code = Number(buf.slice(0, 3));
      buf = '';
      if (code >= 400) return sock.destroy(new Error(`the mail server refused: ${code}`));
      i += 1;
      if (i < steps.length) sock.write(steps[i].endsWith('\r\n') ? steps[i] : `${steps[i]}\r\n`);
      else sock.end();
    });
    sock.on('close', () => (i >= steps.length - 1 ? resolve() : reject(new Error('the mail server closed the connection'))));
    sock.on('error', reject);
  });
}

async function deliverTest(req, t, n, destination) {
  const { settings } = n;
  const subject = `Test alert from Hark for ${t.title}`;
  const record = (channel, recipient, error) => {
    const now = Date.now();
    const d = {
      id: nextDelivery++, kind: 'test', channel, recipient, subject, reason: '', status: error ? 'failed' : 'sent', attempts: 1, error: error ?? null,
      createdAt: now, sentAt: error ? null : now, nextAttemptAt: null,
    };
    n.history.unshift(d);
    return d;
  };
  if (destination === 'email') {
    let last = null;
    for (const to of settings.alerts.recipients) {
      const token = randomBytes(12).toString('hex');
      unsubscribeTokens.set(token, { hash: t.hash, email: to });
      const base = `http://${req.headers.host}`;
      try {
        await sendMail(to, subject, `This is a test of the alerts of ${t.title}.\r\n\r\nUnsubscribe: ${base}/unsubscribe?token=${token}`, [
          `List-Unsubscribe: <${base}/api/v1/unsubscribe?token=${token}>`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
        ]);
        last = record('email', to);
      } catch (e) {
        last = record('email', to, e.message);
      }
    }
    return last;
  }
  const url = settings[destination].url;
  const payload = destination === 'slack'
    ? { text: subject, blocks: [{ type: 'header', text: { type: 'plain_text', text: subject } }] }
    : { id: nextDelivery, kind: 'test', subject, createdAt: Date.now(), tracker: { hash: t.hash, title: t.title }, data: {} };
  const body = JSON.stringify(payload);
  const headers = { 'Content-Type': 'application/json' };
  if (destination === 'webhook') headers['X-Hark-Signature'] = `sha256=${createHmac('sha256', n.webhookSecret).update(body).digest('hex')}`;
  try {
    const res = await fetch(url, { method: 'POST', headers, body });
    return record(destination, new URL(url).host, res.ok ? null : `HTTP ${res.status} from ${new URL(url).host}`);
  } catch (e) {
    return record(destination, new URL(url).host, e.message);
  }
}

async function readBody(req) {
  let s = '';
  for await (const c of req) s += c;
  try {
    return s ? JSON.parse(s) : {};
  } catch {
    return { raw: s }; // an NDJSON import
  }
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
  // POST /unsubscribe goes without one, as on the server (mail clients' one-click unsubscribe).
  if (m !== 'GET' && p !== '/api/v1/unsubscribe' && (!cookies(req).hark_csrf || req.headers['x-csrf-token'] !== cookies(req).hark_csrf)) {
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
  if (p === '/api/v1/unsubscribe') {
    const found = unsubscribeTokens.get(url.searchParams.get('token') ?? '');
    const t = found && trackers.find((x) => x.hash === found.hash);
    if (!t) return fail(res, 404, 'not_found', 'This unsubscribe link is not valid.');
    const { settings } = notifications.get(t.hash);
    const keep = (list) => list.filter((a) => a.toLowerCase() !== found.email.toLowerCase());
    if (m === 'POST') Object.assign(settings, { alerts: { ...settings.alerts, recipients: keep(settings.alerts.recipients) }, report: { ...settings.report, recipients: keep(settings.report.recipients) } });
    const subscribed = settings.alerts.recipients.concat(settings.report.recipients).some((a) => a.toLowerCase() === found.email.toLowerCase());
    return send(res, 200, { email: found.email, tracker: t.title, subscribed });
  }
  if (!user) return fail(res, 401, 'unauthorized', 'Sign in first.');
  const mn = p.match(/^\/api\/v1\/trackers\/([^/]+)\/notifications(?:\/(test|history))?$/);
  if (mn) {
    const t = trackers.find((x) => x.hash === mn[1]);
    if (!t) return fail(res, 404, 'tracker_not_found', 'Tracker not found.');
    const n = notificationsOf(t, users[0]);
    if (!mn[2] && m === 'GET') return send(res, 200, notificationsView(n));
    if (!mn[2] && m === 'PUT') {
      const bad = checkSettings(body);
      if (bad) return fail(res, 422, bad.code, bad.message);
      const tidy = (list) => list.map((a) => a.trim()).filter((a, i, all) => all.findIndex((b) => b.toLowerCase() === a.toLowerCase()) === i);
      n.settings = {
        ...body,
        alerts: { ...body.alerts, recipients: tidy(body.alerts.recipients) },
        report: { ...body.report, recipients: tidy(body.report.recipients) },
        webhook: { url: body.webhook?.url?.trim() || null },
        slack: { url: body.slack?.url?.trim() || null },
      };
      if (n.settings.webhook.url && !n.webhookSecret) n.webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
      return send(res, 200, notificationsView(n));
    }
    if (mn[2] === 'test' && m === 'POST') {
      const d = body.destination;
      if (d === 'email' && !process.env.HARK_SMTP_URL) return fail(res, 503, 'mail_not_configured', 'E-mail is not set up on this Hark server.');
      if (d === 'email' ? !n.settings.alerts.recipients.length : !n.settings[d]?.url) return fail(res, 422, 'destination_not_set', 'This destination is not set.');
      return send(res, 200, { delivery: await deliverTest(req, t, n, d) });
    }
    if (mn[2] === 'history') {
      const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
      return send(res, 200, { items: n.history.slice((page - 1) * 20, page * 20), total: n.history.length, page, perPage: 20 });
    }
  }
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
  if (t && mt[2] === 'import') return send(res, 200, { imported: (body.raw ?? '').split('\n').filter((l) => l.trim()).length, errors: [] });
  return fail(res, 404, 'not_found', 'Not found.');
}).listen(port, '127.0.0.1');

// End to end: exports to Google Sheets against a real server and a fake Google (e2e/fake-google.mjs:
// the OAuth grant of a service account, the Sheets and Drive calls, the spreadsheet's page).
//
// - With no key set, Google Sheets is on the Export menus but disabled, saying why; the
//   Integrations page is the instance administrator's alone; a key the server refuses says why.
// - The administrator uploads the service account's key on /settings/integrations (file input,
//   API base URL under Advanced), tests the connection (a verified JWT grant), then exports the
//   dashboard: its progress on the button, 'Your spreadsheet is ready' 2000 ms after the job is
//   done, 'Open spreadsheet' opening the fake's page in a new tab. The fake holds the sheets asked
//   for and the posts of the dashboard, and a writer permission for the administrator.
// - From the posts page with a search, the Posts sheet holds the searched posts only.
// - A share-link visitor with 'Export reports' exports through the link (anyone may read it).
// - An account on plan 15 (no XLS) exports to a spreadsheet too; its XLS stays locked.
// - A spreadsheet Google refuses to make resets silently.
// - The timeline's Download CSV: a byte order mark, the header, and the posts of the dashboard.
// - Removing the key (a confirm that Escape cancels): a page that still offers it is told why not.
// - A restart: an XLS job cut short by a stopped server is made by the next one on the same data,
//   and the dashboard reloaded shows its progress, then its completion.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api as apiAt, dashboardSettled as settled, launchBrowser, ndjson, ownerWithTracker, shot, startServer, waitUntil } from './harness.mjs';
import { startFakeGoogle } from './fake-google.mjs';

const DAY = 86_400_000;
const OWNER = { email: 'owner@example.com', password: 'correct horse battery', name: 'Olive Owner' };
const NOT_SET_UP = 'An administrator has not set up Google Sheets yet.';
let browser;
let server;
let google;
let tmp;

before(async () => {
  browser = await launchBrowser();
  google = await startFakeGoogle();
  server = await startServer();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'hark-sheets-'));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await google?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const api = (ctx, ...call) => apiAt(ctx, server.url, ...call);

function posts(now) {
  return Array.from({ length: 30 }, (_, i) => ({
    platform: 'twitter',
    id: String(8100 + i),
    text: i % 4 === 0 ? `Fresh sourdough this morning #bread ${i}` : `bread notes ${i}, crumb & crust <${i % 3}>`,
    createdAt: now - (i % 12) * DAY - i * 60_000,
    author: { username: `baker${i % 5}`, name: `Baker ${i % 5}` },
    counts: { likes: i * 3, retweets: i % 7, replies: i % 3 },
  }));
}

/** A service account's JSON key (RS256 pair made here), whose grants the fake takes. */
function serviceAccountKey() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const clientEmail = 'hark-exports@hark-e2e.iam.gserviceaccount.com';
  const privateKeyId = randomBytes(20).toString('hex');
  google.addAccount({ clientEmail, privateKeyId, publicKey });
  const key = {
    type: 'service_account',
    project_id: 'hark-e2e',
    private_key_id: privateKeyId,
    private_key: privateKey,
    client_email: clientEmail,
    client_id: '101234567890123456789',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: google.tokenUri,
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
    universe_domain: 'googleapis.com',
  };
  return { clientEmail, projectId: key.project_id, text: JSON.stringify(key, null, 2) };
}

/**
 * Errors a page throws, and API answers of 400 and above it gets (but the tracker list's question
 * whether a demo tracker exists, which a server started with --no-demo answers 404).
 */
function watch(page) {
  const seen = { errors: [], failed: [] };
  page.on('pageerror', (e) => seen.errors.push(e.message));
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/v1/') && r.status() >= 400 && !(r.status() === 404 && path === '/api/v1/demo')) seen.failed.push(`${r.status()} ${path}`);
  });
  return seen;
}

/** A second account through the CLI, signed in in a new browser context. */
async function signedIn(email, name) {
  const env = { ...process.env };
  if (!server.databaseUrl.startsWith('sqlite://')) env.HARK_DATABASE_URL = server.databaseUrl;
  execFileSync(server.bin, ['user', 'add', '--data-dir', server.dataDir, '--email', email, '--name', name], { input: 'correct horse battery\n', env });
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const login = await api(ctx, 'POST', '/auth/login', { email, password: 'correct horse battery' });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return ctx;
}

/** Every post of a view through the API (the list's own filters): their texts. */
async function apiPostTexts(ctx, hash, query) {
  const out = [];
  for (let page = 1; ; page++) {
    const q = new URLSearchParams({ ...query, perPage: '1000', page: String(page) });
    const res = await api(ctx, 'GET', `/trackers/${hash}/posts?${q}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    out.push(...res.body.posts.map((p) => p.post.text));
    if (out.length >= res.body.total || res.body.posts.length === 0) return { texts: out, total: res.body.total };
  }
}

/** The rows of a spreadsheet's sheet after its header row, as plain values (empty rows left out). */
function dataRows(id, title) {
  const rows = google.values(id, title);
  assert.ok(rows, `the spreadsheet ${id} has a sheet "${title}" (it has ${google.spreadsheets.get(id)?.sheets.map((s) => s.title).join(', ')})`);
  return rows.slice(1).filter((r) => r.some((v) => v !== null && v !== ''));
}

/** Each API text is in exactly one row of the sheet, and the sheet has no other rows. */
function assertSameTexts(rows, texts) {
  assert.equal(rows.length, texts.length, `the Posts sheet has ${rows.length} rows for ${texts.length} posts`);
  const rowText = rows.map((r) => r.filter((v) => typeof v === 'string'));
  for (const t of texts) assert.ok(rowText.some((cells) => cells.includes(t)), `a row holds the post "${t}"`);
}

/** The spreadsheet made for a job: its id, from the job's file URL (Google's address of it). */
function spreadsheetOf(fileUrl) {
  const m = /\/spreadsheets\/d\/([^/]+)\/edit$/.exec(new URL(fileUrl).pathname);
  assert.ok(m, `a spreadsheet address: ${fileUrl}`);
  assert.ok(google.spreadsheets.has(m[1]), `the fake made ${m[1]}`);
  return m[1];
}

/**
 * Export → Google Sheets on a page whose menu `open` opens: the job asked for (its POST), its
 * progress on the button, the moment it was seen ready, and the notice after it. Returns
 * `{ request, job, readyAt, noticeAt, notice }`.
 */
async function exportToSheets(page, { open, trigger, hash, shotName }) {
  let readyAt = null;
  let readyJob = null;
  const onResponse = async (r) => {
    if (!/^\/api\/v1\/exports\/[0-9a-f]{32}$/.test(new URL(r.url()).pathname)) return;
    const at = Date.now();
    const j = await r.json().catch(() => null);
    if (j?.state === 'ready' && readyAt === null) {
      readyAt = at;
      readyJob = j;
    }
  };
  page.on('response', onResponse);
  const asked = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === `/api/v1/trackers/${hash}/exports`);
  await open();
  const request = await asked;
  // The progress on the button: 'Google Sheets N%'.
  await page.waitForFunction(
    (sel) => {
      const b = document.querySelector(sel);
      return b?.getAttribute('aria-busy') === 'true' && /^Google Sheets \d+%$/.test(b.textContent.trim());
    },
    trigger,
    { polling: 'raf', timeout: 10_000 },
  );
  if (shotName) await shot(page, shotName, { fullPage: false });
  const notice = page.getByTestId('notice').filter({ hasText: 'Your spreadsheet is ready' });
  await notice.waitFor({ timeout: 60_000 });
  const noticeAt = Date.now();
  page.off('response', onResponse);
  assert.ok(readyAt !== null, 'the page saw the job ready');
  return { request, job: readyJob, readyAt, noticeAt, notice };
}

describe('Google Sheets exports', () => {
  let owner;
  let hash;
  let friendly;
  let key;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    let imported;
    ({ hash, friendly, imported } = await ownerWithTracker(owner, server.url, { title: 'Bread club', term: 'bread', posts: posts(Date.now()), owner: OWNER }));
    assert.equal(imported, 30);
    key = serviceAccountKey();
  });

  after(async () => {
    await owner?.close();
  });

  test('with no key set, Google Sheets is offered but disabled, and the Integrations page is the administrator’s; a refused key says why', async () => {
    assert.deepEqual((await api(owner, 'GET', '/exports/capabilities')).body, { sheets: false });
    const page = await owner.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?days=30`);
    await settled(page);
    await page.getByTestId('export-menu').click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const items = await menu.getByRole('menuitem').allTextContents();
    assert.deepEqual(items.map((t) => t.replace(/(Google Sheets|PDF|XLS).*/, '$1')), ['Google Sheets', 'PDF', 'XLS']);
    const item = menu.getByRole('menuitem', { name: /^Google Sheets/ });
    await waitUntil(async () => (await item.getAttribute('aria-disabled')) === 'true', { what: 'Google Sheets disabled' });
    assert.equal(await item.getAttribute('title'), NOT_SET_UP);
    await page.waitForTimeout(300);
    await shot(page, 'sheets-01-dashboard-menu-not-set-up', { fullPage: false });
    // A click does nothing.
    await item.click({ force: true });
    await page.keyboard.press('Escape');
    assert.equal((await api(owner, 'GET', `/trackers/${hash}/exports`)).body.exports.length, 0);

    // The posts page's menu: Google Sheets, CSV, PDF, the first disabled with the same words.
    await page.goto(`${server.url}/hashtag-tracking/posts/${hash}/${friendly}`);
    await page.getByTestId('posts-total').waitFor();
    await page.getByTestId('posts-export-menu').click();
    const sheetsItem = page.getByTestId('export-sheets');
    await sheetsItem.waitFor();
    assert.equal(await sheetsItem.isDisabled(), true);
    assert.equal(await sheetsItem.getAttribute('title'), NOT_SET_UP);
    await page.keyboard.press('Escape');

    // Another account is told the page is not theirs, and the API refuses them.
    const other = await signedIn('nadia@example.com', 'Nadia Nobody');
    const otherPage = await other.newPage();
    await otherPage.goto(`${server.url}/settings/integrations`);
    await otherPage.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
    await otherPage.getByRole('alert').getByText('Only an instance administrator can manage integrations.').waitFor();
    assert.equal((await apiAt(other, server.url, 'GET', '/admin/integrations/google-sheets')).status, 403);
    await shot(otherPage, 'sheets-02-integrations-not-admin', { fullPage: false });
    await other.close();

    // The administrator's page, from the user menu; a key the server refuses says why.
    await page.goto(`${server.url}/mytracks/hashtag`);
    await page.getByRole('button', { name: /^Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Integrations' }).click();
    await page.waitForURL((u) => new URL(u).pathname === '/settings/integrations');
    const card = page.getByRole('region', { name: 'Google Sheets' });
    await card.getByTestId('sheets-status').getByText('Not set up').waitFor();
    await shot(page, 'sheets-03-integrations-not-set-up');
    const refusedWait = page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === '/api/v1/admin/integrations/google-sheets');
    await card.getByLabel('Service account key file').setInputFiles({
      name: 'not-a-service-account.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ type: 'authorized_user', client_id: 'x', client_secret: 'y', refresh_token: 'z' })),
    });
    await card.getByTestId('sheets-key-chosen').getByText('This does not look like a service account key.').waitFor();
    await card.getByRole('button', { name: 'Save' }).click();
    const refused = await refusedWait;
    assert.equal(refused.status(), 422);
    const error = (await refused.json()).error;
    assert.equal(error.code, 'invalid_key');
    await card.getByRole('alert').filter({ hasText: error.message }).waitFor();
    await shot(page, 'sheets-04-integrations-refused-key', { fullPage: false });
    assert.equal((await api(owner, 'GET', '/admin/integrations/google-sheets')).body.configured, false);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, ['422 /api/v1/admin/integrations/google-sheets']);
    await page.close();
  });

  test('the administrator uploads the key, tests it, and exports the dashboard to a spreadsheet that opens in a new tab', async () => {
    const page = await owner.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/settings/integrations`);
    const card = page.getByRole('region', { name: 'Google Sheets' });
    await card.getByTestId('sheets-status').waitFor();
    await card.getByLabel('Service account key file').setInputFiles({ name: 'hark-e2e-3f2a.json', mimeType: 'application/json', buffer: Buffer.from(key.text) });
    await card.getByTestId('sheets-key-chosen').getByText(`Service account ${key.clientEmail} of project ${key.projectId}`).waitFor();
    await card.getByText('Advanced').click();
    await card.getByLabel('API base URL (optional)').fill(google.url);
    await shot(page, 'sheets-05-integrations-key-chosen');
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByTestId('sheets-status').getByText(`Set up: service account ${key.clientEmail} of project ${key.projectId}`).waitFor();
    await card.getByText('The key was saved. Test the connection to make sure it works.').waitFor();
    const view = await api(owner, 'GET', '/admin/integrations/google-sheets');
    assert.equal(view.status, 200);
    assert.equal(view.body.configured, true);
    assert.equal(view.body.clientEmail, key.clientEmail);
    assert.equal(view.body.projectId, key.projectId);
    assert.equal(view.body.apiBase, google.url);
    assert.equal(view.body.check.state, 'unchecked');
    assert.ok(!JSON.stringify(view.body).includes('PRIVATE KEY'), 'the key is never sent back');

    // The connection test: a grant the fake verified (signature, issuer, audience, scope, expiry).
    assert.equal(google.grants.length, 0);
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText('The connection works.').waitFor({ timeout: 30_000 });
    await card.getByTestId('sheets-check').getByText('OK: Google accepted the key.').waitFor();
    assert.equal(google.grants.length, 1);
    assert.deepEqual(google.rejectedGrants, []);
    const grant = google.grants[0];
    assert.equal(grant.header.kid, JSON.parse(key.text).private_key_id);
    assert.equal(grant.claims.iss, key.clientEmail);
    assert.equal(grant.claims.aud, google.tokenUri);
    assert.equal(grant.claims.exp - grant.claims.iat, 3600);
    assert.equal(grant.claims.scope, 'https://www.googleapis.com/auth/spreadsheets https://www.googleapis.com/auth/drive.file');
    await shot(page, 'sheets-06-integrations-set-up');
    assert.deepEqual((await api(owner, 'GET', '/exports/capabilities')).body, { sheets: true });

    // The dashboard: Export → Google Sheets.
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?days=30&grouping=day`);
    await settled(page);
    const button = page.getByTestId('export-menu');
    await button.click();
    const item = page.getByRole('menuitem', { name: /^Google Sheets/ });
    await item.waitFor();
    assert.equal(await item.getAttribute('aria-disabled'), null);
    await page.waitForTimeout(300);
    await shot(page, 'sheets-07-dashboard-menu', { fullPage: false });
    const { request, job, readyAt, noticeAt, notice } = await exportToSheets(page, {
      open: () => item.click(),
      trigger: '[data-testid="export-menu"]',
      hash,
      shotName: 'sheets-08-dashboard-progress',
    });
    assert.deepEqual(request.postDataJSON(), { kind: 'sheets', source: 'dashboard', grouping: 'day' });
    const q = new URL(request.url()).searchParams;
    assert.equal(q.get('days'), '30');
    assert.equal(q.get('platforms'), 'twt');
    // The notice waits 2000 ms after the job is seen ready.
    assert.ok(noticeAt - readyAt >= 1950, `the notice came ${noticeAt - readyAt} ms after the job was ready`);
    await page.getByRole('button', { name: 'Export' }).waitFor();
    await shot(page, 'sheets-09-dashboard-ready-notice', { fullPage: false });

    // What the fake was asked: a spreadsheet with the sheets of a report, the posts, the writer.
    const id = spreadsheetOf(job.fileUrl);
    const made = google.creates.find((c) => c.spreadsheetId === id).body;
    assert.ok(made.properties.title, 'the spreadsheet has a title');
    assert.equal(made.properties.timeZone, new URL(request.url()).searchParams.get('tz'));
    const titles = made.sheets.map((s) => s.properties.title);
    for (const t of ['Key statistics', 'Timeline', 'Posts']) assert.ok(titles.includes(t), `a "${t}" sheet among ${titles.join(', ')}`);
    assert.ok(google.batchUpdates.some((b) => b.spreadsheetId === id), 'cells were written');
    const { texts, total } = await apiPostTexts(owner, hash, { days: '30', platforms: 'twt', tz: q.get('tz') });
    assert.equal(total, 30);
    assertSameTexts(dataRows(id, 'Posts'), texts);
    // The header row is bold; dates are serial days formatted as date and time.
    const cells = google.cells(id, 'Posts');
    assert.ok(cells[0].every((c) => c?.format?.textFormat?.bold === true), 'the header cells are bold');
    const dates = cells.slice(1).flat().filter((c) => c?.format?.numberFormat?.type === 'DATE_TIME');
    assert.ok(dates.length >= 30, `${dates.length} date cells`);
    for (const d of dates) assert.ok(typeof d.value === 'number' && d.value > 40_000 && d.value < 80_000, `a serial day: ${d.value}`);
    const shared = google.permissions.filter((p) => p.fileId === id);
    assert.deepEqual(shared.map((p) => p.body), [{ type: 'user', role: 'writer', emailAddress: OWNER.email }]);
    assert.equal(shared[0].query.sendNotificationEmail, 'false');

    // 'Open spreadsheet' opens Google's page of it in a new tab, with no handle on this one.
    const link = notice.getByRole('link', { name: /^Open spreadsheet/ });
    assert.equal(await link.getAttribute('href'), job.fileUrl);
    assert.match(await link.getAttribute('rel'), /noopener/);
    const tabWait = owner.waitForEvent('page');
    await link.click();
    const tab = await tabWait;
    await tab.waitForLoadState();
    assert.equal(tab.url(), job.fileUrl);
    await tab.getByRole('heading', { level: 1 }).waitFor();
    // Its page shows the tracker's title (atop the Key statistics sheet).
    assert.match(await tab.locator('body').textContent(), /Bread club/);
    assert.equal(await tab.evaluate(() => window.opener), null);
    await shot(tab, 'sheets-10-spreadsheet-opened', { fullPage: false });
    await tab.close();
    await page.getByTestId('notice').filter({ hasText: 'Your spreadsheet is ready' }).waitFor({ state: 'detached' });

    // The owner's job, listed and done, with Google's address.
    const list = await api(owner, 'GET', `/trackers/${hash}/exports`);
    const mine = list.body.exports.find((j) => j.token === job.token);
    assert.equal(mine.kind, 'sheets');
    assert.equal(mine.state, 'ready');
    assert.equal(mine.fileUrl, job.fileUrl);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();
  });

  test('from the posts page with a search, the Posts sheet holds the searched posts only', async () => {
    const page = await owner.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/posts/${hash}/${friendly}?days=30&search=sourdough`);
    await page.getByTestId('posts-total').waitFor();
    await page.getByTestId('posts-export-menu').click();
    const sheetsItem = page.getByTestId('export-sheets');
    await sheetsItem.waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'sheets-11-posts-menu', { fullPage: false });
    const { request, job } = await exportToSheets(page, { open: () => sheetsItem.click(), trigger: '[data-testid="posts-export-menu"]', hash });
    assert.deepEqual(request.postDataJSON(), { kind: 'sheets', source: 'posts' });
    const q = new URL(request.url()).searchParams;
    assert.equal(q.get('search'), 'sourdough');
    assert.equal(q.get('days'), '30');
    assert.equal(q.get('page'), null);
    await shot(page, 'sheets-12-posts-ready-notice', { fullPage: false });

    const id = spreadsheetOf(job.fileUrl);
    const { texts } = await apiPostTexts(owner, hash, { days: '30', platforms: q.get('platforms'), tz: q.get('tz'), search: 'sourdough' });
    assert.equal(texts.length, 8);
    const rows = dataRows(id, 'Posts');
    assertSameTexts(rows, texts);
    assert.ok(!rows.flat().some((v) => typeof v === 'string' && v.startsWith('bread notes')), 'no post outside the search');
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();
  });

  test('a share-link visitor with Export reports exports through the link; anyone with its address may read it', async () => {
    const change = await api(owner, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: false, exportReports: true, viewPredictions: false } });
    assert.equal(change.status, 200, JSON.stringify(change.body));
    const shareHash = change.body.shareHash;
    const visitor = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await visitor.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?shareHash=${shareHash}`);
    await settled(page);
    await page.getByText('SHARED').waitFor();
    await page.getByTestId('export-menu').click();
    const item = page.getByRole('menuitem', { name: /^Google Sheets/ });
    const { request, job, notice } = await exportToSheets(page, { open: () => item.click(), trigger: '[data-testid="export-menu"]', hash });
    assert.equal(new URL(request.url()).searchParams.get('shareHash'), shareHash);
    const id = spreadsheetOf(job.fileUrl);
    assert.deepEqual(google.permissions.filter((p) => p.fileId === id).map((p) => p.body), [{ type: 'anyone', role: 'reader' }]);
    // The link's view: the default two weeks, which hold every post here.
    assert.equal(dataRows(id, 'Posts').length, 30);

    const tabWait = visitor.waitForEvent('page');
    await notice.getByRole('link', { name: /^Open spreadsheet/ }).click();
    const tab = await tabWait;
    await tab.getByRole('heading', { level: 1 }).waitFor();
    assert.match(await tab.locator('body').textContent(), /Bread club/);
    await tab.close();
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    assert.equal((await api(owner, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false } })).status, 200);
    await visitor.close();
  });

  test('an account on plan 15 (no XLS) exports to a spreadsheet as any other does, while XLS stays locked', async () => {
    const pat = await signedIn('pat@example.com', 'Pat Plain');
    const found = await api(owner, 'GET', '/admin/users?search=pat');
    const id = found.body.accounts.find((a) => a.email === 'pat@example.com').id;
    const set = await api(owner, 'PATCH', `/admin/users/${id}`, { plan: 15 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal((await api(pat, 'GET', '/me')).body.features.xls, false);
    const t = await api(pat, 'POST', '/trackers', { title: 'Pat bakes', platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['bread'] }] } });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    const imp = await api(pat, 'POST', `/trackers/${t.body.hash}/import?format=ndjson`, undefined, ndjson(posts(Date.now()).slice(0, 6)));
    assert.equal(imp.body.imported, 6, JSON.stringify(imp.body));

    const page = await pat.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${t.body.hash}/${t.body.friendly}`);
    await settled(page);
    await page.getByTestId('export-menu').click();
    const item = page.getByRole('menuitem', { name: /^Google Sheets/ });
    await item.waitFor();
    // Google Sheets is open to this plan; XLS keeps its lock.
    assert.equal(await item.textContent(), 'Google SheetsA spreadsheet to share online');
    assert.equal(await item.getAttribute('aria-disabled'), null);
    assert.equal(await page.getByRole('menuitem', { name: /^XLS/ }).textContent(), 'XLSUpgrade your account to unlock');
    const { request, job } = await exportToSheets(page, { open: () => item.click(), trigger: '[data-testid="export-menu"]', hash: t.body.hash });
    assert.equal(request.postDataJSON().kind, 'sheets');
    assert.equal(await page.getByRole('dialog').count(), 0, 'no sample modal');
    const sheet = spreadsheetOf(job.fileUrl);
    assert.equal(dataRows(sheet, 'Posts').length, 6);
    assert.deepEqual(google.permissions.filter((p) => p.fileId === sheet).map((p) => p.body), [{ type: 'user', role: 'writer', emailAddress: 'pat@example.com' }]);
    // XLS is still refused to this plan.
    const refused = await api(pat, 'POST', `/trackers/${t.body.hash}/exports?days=14`, { kind: 'xlsx', source: 'dashboard' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'upgrade_required');

    // The posts page's Google Sheets is open to it too.
    await page.goto(`${server.url}/hashtag-tracking/posts/${t.body.hash}/${t.body.friendly}`);
    await page.getByTestId('posts-total').waitFor();
    await page.getByTestId('posts-export-menu').click();
    const postsItem = page.getByTestId('export-sheets');
    await postsItem.waitFor();
    assert.equal(await postsItem.textContent(), 'Google Sheets');
    assert.equal(await postsItem.getAttribute('title'), null);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await pat.close();
  });

  test('a spreadsheet Google refuses to make resets silently', async () => {
    const page = await owner.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await settled(page);
    google.failNext('create', 400, Infinity);
    const made = google.creates.length;
    // The button is busy for as long as the job takes, which may be very little: watched as it changes.
    await page.evaluate(() => {
      const b = document.querySelector('[data-testid="export-menu"]');
      window.__busySeen = false;
      new MutationObserver(() => {
        if (b.getAttribute('aria-busy') === 'true') window.__busySeen = true;
      }).observe(b, { attributes: true, attributeFilter: ['aria-busy'] });
    });
    await page.getByTestId('export-menu').click();
    const asked = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/api/v1/trackers/${hash}/exports`);
    await page.getByRole('menuitem', { name: /^Google Sheets/ }).click();
    const { token } = await (await asked).json();
    await waitUntil(async () => (await api(owner, 'GET', `/exports/${token}`)).body.state === 'failed', { what: 'the job failed', timeoutMs: 90_000 });
    await page.locator('[data-testid="export-menu"]:not([aria-busy])').waitFor({ timeout: 10_000 });
    assert.equal(await page.evaluate(() => window.__busySeen), true, 'the button was busy meanwhile');
    const failed = (await api(owner, 'GET', `/exports/${token}`)).body;
    assert.match(failed.error ?? '', /400/);
    await page.waitForTimeout(2500);
    assert.equal(await page.getByTestId('notice').count(), 0, 'no notice');
    assert.equal(google.creates.length, made);
    google.failNext('create', 0);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();
  });

  test('the timeline downloads as a CSV of the dashboard’s posts', async () => {
    const page = await owner.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?days=30&grouping=day`);
    await settled(page);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const link = timeline.getByRole('link', { name: 'Download CSV' });
    const href = new URL(await link.getAttribute('href'), server.url);
    assert.equal(href.pathname, `/api/v1/trackers/${hash}/dashboard/timeline`);
    assert.equal(href.searchParams.get('format'), 'csv');
    assert.equal(href.searchParams.get('grouping'), 'day');
    assert.equal(href.searchParams.get('days'), '30');
    await shot(page, 'sheets-13-timeline-csv', { fullPage: false });
    const downloadWait = page.waitForEvent('download');
    await link.click();
    const download = await downloadWait;
    const file = path.join(tmp, 'timeline.csv');
    await download.saveAs(file);
    const bytes = readFileSync(file);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a UTF-8 byte order mark');
    const lines = bytes.subarray(3).toString('utf8').split(/\r?\n/).filter(Boolean);
    assert.equal(lines[0], 'Start,Posts,Engagement,Reach,Impressions');
    const sum = lines.slice(1).reduce((a, l) => a + Number(l.split(',')[1]), 0);
    const stat = Number((await page.locator('[data-stat="Posts"]').textContent()).replace(/[^0-9]/g, ''));
    assert.equal(stat, 30);
    assert.equal(sum, stat);

    // Through a share link only with 'Export reports'.
    const share = await api(owner, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false } });
    const visitor = await browser.newContext();
    const csvPath = `/api/v1/trackers/${hash}/dashboard/timeline?days=30&grouping=day&format=csv&shareHash=${share.body.shareHash}`;
    assert.equal((await visitor.request.get(server.url + csvPath)).status(), 403);
    await api(owner, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: false, exportReports: true, viewPredictions: false } });
    const allowed = await visitor.request.get(server.url + csvPath);
    assert.equal(allowed.status(), 200);
    assert.match((await allowed.body()).subarray(3).toString('utf8'), /^Start,Posts,Engagement,Reach,Impressions/);
    await api(owner, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false } });
    // A visitor without it has no Download CSV.
    const vpage = await visitor.newPage();
    await vpage.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?shareHash=${share.body.shareHash}`);
    await settled(vpage);
    assert.equal(await vpage.getByRole('region', { name: 'Timeline' }).getByRole('link', { name: 'Download CSV' }).count(), 0);
    await visitor.close();
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();
  });

  test('removing the key (a confirm that Escape cancels) turns the exports off; a page still offering it is told why', async () => {
    const dash = await owner.newPage();
    await dash.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await settled(dash);
    await dash.getByTestId('export-menu').click();
    await dash.getByRole('menuitem', { name: /^Google Sheets/ }).waitFor();
    await dash.keyboard.press('Escape');

    const page = await owner.newPage();
    await page.goto(`${server.url}/settings/integrations`);
    const card = page.getByRole('region', { name: 'Google Sheets' });
    await card.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the Google Sheets key?' });
    await dialog.waitFor();
    await shot(page, 'sheets-14-remove-confirm', { fullPage: false });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await api(owner, 'GET', '/admin/integrations/google-sheets')).body.configured, true);
    await card.getByRole('button', { name: 'Remove' }).click();
    await dialog.getByRole('button', { name: 'Remove key' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByTestId('sheets-status').getByText('Not set up').waitFor();
    assert.deepEqual((await api(owner, 'GET', '/exports/capabilities')).body, { sheets: false });

    // The dashboard opened before still offers it: the server says why not.
    await dash.getByTestId('export-menu').click();
    await dash.getByRole('menuitem', { name: /^Google Sheets/ }).click();
    const notice = dash.getByTestId('notice');
    await notice.getByText('Google Sheets is not set up on this server.').waitFor();
    await dash.locator('[data-testid="export-menu"]:not([aria-busy])').waitFor();
    await shot(dash, 'sheets-15-not-set-up-notice', { fullPage: false });
    await page.close();
    await dash.close();
  });
});

describe('an export job across a restart', () => {
  const env = { HARK_EXPORT_LEASE_SECS: '3', HARK_EXPORT_STEP_DELAY_MS: '400' };
  let first;
  let second;
  let ctx;

  after(async () => {
    await ctx?.close();
    await second?.stop();
    await first?.stop();
  });

  test('an XLS job cut short by a stopped server is made by the next one, and the reloaded dashboard follows it', async () => {
    first = await startServer({ env });
    ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const { hash, friendly, imported } = await ownerWithTracker(ctx, first.url, { title: 'Rye club', term: 'bread', posts: posts(Date.now()), owner: OWNER });
    assert.equal(imported, 30);
    const page = await ctx.newPage();
    const dashboard = `${first.url}/hashtag-tracking/dashboard/${hash}/${friendly}?days=30`;
    await page.goto(dashboard);
    await settled(page);

    const asked = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/api/v1/trackers/${hash}/exports`);
    const popupWait = page.waitForEvent('popup');
    await page.getByTestId('export-menu').click();
    await page.getByRole('menuitem', { name: /^XLS/ }).click();
    const { token } = await (await asked).json();
    // The export window follows the job too; this test follows it from the dashboard.
    await (await popupWait).close();

    const running = await waitUntil(
      async () => {
        const j = (await apiAt(ctx, first.url, 'GET', `/exports/${token}`)).body;
        return j?.state === 'running' && j.done > 0 ? j : null;
      },
      { intervalMs: 100, what: 'the job running with a step done' },
    );
    assert.ok(running.done < running.total, `cut short at ${running.done} of ${running.total}`);
    await first.stop({ keep: true, signal: 'SIGKILL' });

    second = await startServer({ env, reuse: first });
    assert.equal(second.url, first.url);
    await page.reload();
    await settled(page);
    // The job is taken up again: its progress on the button, then its completion.
    const button = page.getByTestId('export-menu');
    await page.waitForFunction(() => {
      const b = document.querySelector('[data-testid="export-menu"]');
      return b?.getAttribute('aria-busy') === 'true' && /^XLS \d+%$/.test(b.textContent.trim());
    }, null, { timeout: 20_000 });
    await shot(page, 'sheets-16-restart-progress', { fullPage: false });
    const notice = page.getByTestId('notice').filter({ hasText: 'Your XLS is ready.' });
    await notice.waitFor({ timeout: 90_000 });
    assert.equal((await button.textContent()).trim(), 'Export');
    const href = await notice.getByRole('link', { name: 'Download' }).getAttribute('href');
    assert.equal(href, `/export/hashtag/${token}.xlsx`);
    await shot(page, 'sheets-17-restart-done', { fullPage: false });

    const done = (await apiAt(ctx, second.url, 'GET', `/exports/${token}`)).body;
    assert.equal(done.state, 'ready');
    assert.equal(done.done, done.total);
    const file = await ctx.request.get(`${second.url}${done.fileUrl}`);
    assert.equal(file.status(), 200);
    const bytes = await file.body();
    assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK');
    assert.ok(bytes.length > 1000);
  });
});

// End to end: a trial account on a low plan meeting each upgrade prompt and plan lock of the app,
// against a real server. The instance administrator sets the account's plan, trial and limits
// through the Accounts API (/admin/users); the accounts themselves come from the CLI. A
// self-hosted account (plan 100, every feature, no trial) does the same things unhindered, so the
// gating is checked both ways:
//
//  - Export → XLS: the locked item ('Upgrade your account to unlock'), the sample modal with its
//    upgrade link to /pricing and no job asked for; PDF open to both, Google Sheets not locked by
//    the plan. Self-hosted: the workbook.
//  - Share: the link-sharing lock below plan 35 and 'Upgrade to export reports' on a trial's
//    tracker, the server refusing both; self-hosted: the switches save.
//  - Trial platform locks (TikTok, Facebook, YouTube): the header's checkboxes with their tooltip
//    and Contact us link (also in a popover opened from the keyboard), the tracker form, the
//    server's refusal; self-hosted: open.
//  - maxSearches and maxIgnored: the form's add controls go at the limit, which it names with the
//    way to upgrade; the server refuses more.
//  - Historical data: the trial modal (See plans), also from ?action=historical-data and the
//    sidebar; self-hosted: the backfill form.
//  - A search that finds nothing (a fake X that answers nothing): the trial's no-data modal offers
//    historical data and says why three platforms are locked; self-hosted: the two-week text.
//  - The trial ends: 'Your 14-Day Trial has expired', once a session; its trackers are locked
//    (the owner and a viewer each told so, no panel read), but not to the instance administrator.
// The media wall's lock and its upgrade modal are walked through in media-wall.test.mjs.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api as apiAt, dashboardSettled as settled, launchBrowser, ndjson, shot, startServer, waitUntil } from './harness.mjs';

const DAY = 86_400_000;
const PASSWORD = 'correct horse battery';
const X_TOKEN = 'e2e-plans-token';
const TRIAL_LOCKED = ['YouTube', 'Facebook', 'TikTok'];
let browser;
let server;
let fake;

const api = (ctx, ...call) => apiAt(ctx, server.url, ...call);

/** A stand-in for the X API v2 that never finds anything (a preview then ends with no data). */
function startEmptyX() {
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${X_TOKEN}`) return send(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
    if (url.pathname === '/2/tweets/counts/recent') return send(200, { data: [], meta: { total_tweet_count: 0 } });
    if (url.pathname === '/2/tweets/search/recent') return send(200, { meta: { result_count: 0 } });
    send(404, { title: 'Not Found Error', type: 'about:blank', status: 404, detail: 'Not found' });
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

/** Runs SQL on the server's database (what no endpoint offers: a trial that has already ended). */
function sql(statement) {
  const u = server.databaseUrl;
  if (u.startsWith('sqlite://')) execFileSync('sqlite3', [u.slice('sqlite://'.length), statement]);
  else execFileSync('psql', [u, '-qc', statement]);
}

function posts(now, word) {
  return Array.from({ length: 16 }, (_, i) => ({
    platform: 'twitter',
    id: `${word.length}${4200 + i}`,
    text: i % 3 === 0 ? `Morning ${word} #${word} number ${i}` : `${word} notes ${i}`,
    createdAt: now - (i % 8) * DAY - i * 60_000,
    author: { username: `${word}fan${i % 4}`, name: `${word} fan ${i % 4}` },
    counts: { likes: i * 2, retweets: i % 5, replies: i % 3 },
  }));
}

/**
 * Errors a page throws, and API answers of 400 and above it gets (but the tracker list's look for
 * the demo tracker, which this server runs without).
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

/** The bodies of the 403 answers a page gets (each a promise), to tell a locked tracker's apart. */
function lockedAnswers(page) {
  const bodies = [];
  page.on('response', (r) => {
    if (r.status() === 403 && new URL(r.url()).pathname.startsWith('/api/v1/')) bodies.push(r.json().catch(() => null));
  });
  return bodies;
}

const OWNER_LOCKED = 'Your 14-Day Trial has expired. Upgrade now to access your trackers.';
const OTHERS_LOCKED = "This tracker is locked: its owner's trial has expired.";

/**
 * A page of a locked tracker: its failed API answers are the tracker's own read (403
 * trial_expired with `message`), at least once, and nothing else (no panel read after it).
 */
function assertOnlyLocked(seen, bodies, hash, message) {
  assert.ok(seen.failed.length >= 1, 'the tracker read was refused');
  assert.deepEqual(seen.failed, seen.failed.map(() => `403 /api/v1/trackers/${hash}`));
  assert.equal(bodies.length, seen.failed.length);
  for (const b of bodies) assert.deepEqual(b, { error: { code: 'trial_expired', message } });
}

const dashboardOf = (t, query = '') => `${server.url}/hashtag-tracking/dashboard/${t.hash}/${t.friendly}${query}`;
const isFocused = (locator) => locator.evaluate((el) => el === document.activeElement);

describe('a trial account meeting each upgrade prompt', () => {
  let admin;
  /** `{ ctx, id, tracker }` of the trial account (plan 15) and of the self-hosted one (plan 100). */
  let trial;
  let selfHosted;

  /** An account made with the CLI and signed in in its own browser context, with a tracker of imported posts. */
  async function account(email, name, word) {
    const env = { ...process.env };
    if (!server.databaseUrl.startsWith('sqlite://')) env.HARK_DATABASE_URL = server.databaseUrl;
    execFileSync(server.bin, ['user', 'add', '--data-dir', server.dataDir, '--email', email, '--name', name], { input: `${PASSWORD}\n`, env });
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const login = await api(ctx, 'POST', '/auth/login', { email, password: PASSWORD });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const found = await api(admin, 'GET', `/admin/users?search=${encodeURIComponent(email)}`);
    const id = found.body.accounts.find((a) => a.email === email).id;
    const title = `${name.split(' ')[0]}'s ${word}`;
    const t = await api(ctx, 'POST', '/trackers', { title, platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: [word] }] } });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    const imp = await api(ctx, 'POST', `/trackers/${t.body.hash}/import?format=ndjson`, undefined, ndjson(posts(Date.now(), word)));
    assert.equal(imp.body.imported, 16, JSON.stringify(imp.body));
    return { ctx, id, name, tracker: { hash: t.body.hash, friendly: t.body.friendly, title } };
  }

  /** The administrator's change to an account (PATCH /admin/users/{id}). */
  async function setAccount(id, change) {
    const r = await api(admin, 'PATCH', `/admin/users/${id}`, change);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  }

  /** Plan 15 on a 14-day trial, with 3 searches and 1 excluded term (a plan's own limits are 5 and 5). */
  const TRIAL_PLAN = { plan: 15, trialDays: 14, maxSearches: 3, maxIgnored: 1 };

  before(async () => {
    browser = await launchBrowser();
    fake = await startEmptyX();
    server = await startServer();
    admin = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const setup = await api(admin, 'POST', '/setup', { email: 'ada@example.com', password: PASSWORD, name: 'Ada Admin' });
    assert.equal(setup.status, 201, JSON.stringify(setup.body));
    const x = await api(admin, 'PUT', '/admin/connectors/twitter', { enabled: true, baseUrl: `http://127.0.0.1:${fake.address().port}`, values: { bearer_token: X_TOKEN } });
    assert.equal(x.status, 200, JSON.stringify(x.body));

    trial = await account('tess@example.com', 'Tess Trial', 'matcha');
    selfHosted = await account('sam@example.com', 'Sam Selfhost', 'chai');
    const set = await setAccount(trial.id, TRIAL_PLAN);
    assert.deepEqual([set.plan, set.trial, set.trialExpired, set.maxSearches, set.maxIgnored], [15, true, false, 3, 1]);
    assert.ok(Math.abs(set.trialExpires - (Date.now() + 14 * DAY)) < 5 * 60_000, `a 14-day trial: ${set.trialExpires}`);

    // What each account's /me says it may use.
    const tm = (await api(trial.ctx, 'GET', '/me')).body;
    assert.deepEqual([tm.plan, tm.trial, tm.isAdmin, tm.maxSearches, tm.maxIgnored], [15, true, false, 3, 1]);
    assert.deepEqual(tm.features, { xls: false, linkSharing: false, mediaWall: true });
    const sm = (await api(selfHosted.ctx, 'GET', '/me')).body;
    assert.deepEqual([sm.plan, sm.trial, sm.isAdmin, sm.maxSearches, sm.maxIgnored], [100, false, false, 5, 50]);
    assert.deepEqual(sm.features, { xls: true, linkSharing: true, mediaWall: true });
  });

  after(async () => {
    await admin?.close();
    await trial?.ctx.close();
    await selfHosted?.ctx.close();
    await browser?.close();
    await server?.stop();
    fake?.close();
  });

  test('Export → XLS: the trial gets the sample and the way to upgrade, no report; the self-hosted account gets the workbook', async () => {
    const page = await trial.ctx.newPage();
    const seen = watch(page);
    const { hash } = trial.tracker;
    await page.goto(dashboardOf(trial.tracker));
    await settled(page);

    // The locked item says so; PDF is on every plan.
    await page.getByTestId('export-menu').click();
    const xls = page.getByRole('menuitem', { name: /^XLS/ });
    await xls.waitFor();
    assert.equal(await xls.textContent(), 'XLSUpgrade your account to unlock');
    // Google Sheets is not behind the plan (only not set up on this server): no lock, no upgrade text.
    const sheetsItem = page.getByRole('menuitem', { name: /^Google Sheets/ });
    await sheetsItem.getByText('Not set up on this server').waitFor();
    assert.equal(await sheetsItem.textContent(), 'Google SheetsNot set up on this server');
    assert.equal(await page.getByRole('menuitem', { name: /^PDF/ }).textContent(), 'PDFA report to view, print or share');
    assert.equal(await page.getByRole('menuitem', { name: /^PDF/ }).getAttribute('aria-disabled'), null);
    await page.waitForTimeout(300); // the menu's entry animation
    await shot(page, 'plans-01-xls-item-locked', { fullPage: false });

    // Choosing it opens the sample modal: no job, no export window.
    let popups = 0;
    page.on('popup', () => popups++);
    await xls.click();
    const dialog = page.getByRole('dialog', { name: 'XLS reports are not part of your plan' });
    await dialog.waitFor();
    assert.match(await dialog.textContent(), /Your plan does not include XLS reports of a dashboard\. A sample shows what one holds/);
    const upgrade = dialog.getByRole('link', { name: 'Upgrade your account to unlock' });
    assert.equal(await upgrade.getAttribute('href'), '/pricing');
    assert.equal(await dialog.getByRole('link', { name: 'Download a sample' }).getAttribute('href'), '/api/v1/exports/sample.xlsx');
    await shot(page, 'plans-02-xls-sample-modal', { fullPage: false });
    await page.waitForTimeout(500);
    assert.equal(popups, 0, 'no export window');
    assert.equal((await api(trial.ctx, 'GET', `/trackers/${hash}/exports`)).body.exports.length, 0, 'no job');
    const refused = await api(trial.ctx, 'POST', `/trackers/${hash}/exports?days=14`, { kind: 'xlsx', source: 'dashboard' });
    assert.equal(refused.status, 403);
    assert.deepEqual([refused.body.error.code, refused.body.error.message], ['upgrade_required', 'Upgrade your account to export XLS reports.']);

    // The upgrade link: the pricing page, with what this account's plan includes.
    await upgrade.click();
    await page.waitForURL((u) => new URL(u).pathname === '/pricing');
    const yours = page.getByRole('region', { name: 'Your account' });
    await yours.waitFor();
    assert.match(await yours.textContent(), /Plan15TrialTrial until .*Limits per tracker3 searches · 1 ignored terms/);
    assert.deepEqual(await yours.getByRole('list', { name: 'What your plan includes' }).getByRole('listitem').allTextContents(), [
      'XLS export(not included)',
      'Link sharing(not included)',
      'Media wall(included)',
    ]);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();

    // The self-hosted account: the same item makes the workbook in a new window.
    const sp = await selfHosted.ctx.newPage();
    const spSeen = watch(sp);
    await sp.goto(dashboardOf(selfHosted.tracker));
    await settled(sp);
    await sp.getByTestId('export-menu').click();
    const own = sp.getByRole('menuitem', { name: /^XLS/ });
    assert.equal(await own.textContent(), 'XLSEvery panel and post, as a workbook');
    const popupWait = sp.waitForEvent('popup');
    await own.click();
    const popup = await popupWait;
    assert.equal(new URL(popup.url()).pathname, `/hashtag-tracking/export/${selfHosted.tracker.hash}/xls/14`);
    await popup.getByText('Your XLS is ready.').waitFor({ timeout: 60_000 });
    assert.equal(await sp.getByRole('dialog').count(), 0, 'no sample modal');
    const jobs = (await api(selfHosted.ctx, 'GET', `/trackers/${selfHosted.tracker.hash}/exports`)).body.exports;
    assert.deepEqual(jobs.map((j) => [j.kind, j.state]), [['xlsx', 'ready']]);
    await popup.close();
    assert.deepEqual(spSeen.errors, []);
    assert.deepEqual(spSeen.failed, []);
    await sp.close();
  });

  test('Share: link sharing locked below plan 35 and Export reports locked on a trial tracker; the self-hosted account changes both', async () => {
    const page = await trial.ctx.newPage();
    const seen = watch(page);
    const { hash } = trial.tracker;
    const openShare = async () => {
      await page.goto(dashboardOf(trial.tracker));
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      const share = page.getByRole('dialog', { name: 'Share this dashboard' });
      await share.getByRole('switch', { name: 'Edit date range' }).waitFor();
      return share;
    };
    const sw = (share, name) => share.getByRole('switch', { name });
    const saved = async (ctx, h) => (await api(ctx, 'GET', `/trackers/${h}/share`)).body;

    // Plan 15 on a trial: both locks.
    let share = await openShare();
    const lock = share.getByTestId('link-sharing-lock');
    assert.equal((await lock.textContent()).trim(), 'Upgrade your account to unlock');
    assert.equal(await lock.getByRole('link', { name: 'Upgrade your account to unlock' }).getAttribute('href'), '/pricing');
    for (const name of ['Edit date range', 'Export reports', 'View predictions']) assert.equal(await sw(share, name).isDisabled(), true, name);
    for (const name of ['Share exports', 'Unlock date range']) assert.equal(await sw(share, name).isDisabled(), false, name);
    const exportLock = share.getByTestId('export-lock');
    assert.equal(await exportLock.textContent(), 'Upgrade to export reports');
    assert.equal(await exportLock.getByRole('link', { name: 'Upgrade to export reports' }).getAttribute('href'), '/pricing');
    assert.equal(await sw(share, 'Export reports').getAttribute('aria-describedby'), await exportLock.evaluate((el) => el.closest('[id]').id));
    // A click on a locked switch changes nothing.
    await sw(share, 'Edit date range').click({ force: true });
    await page.waitForTimeout(400);
    assert.equal(await sw(share, 'Edit date range').getAttribute('aria-checked'), 'false');
    assert.deepEqual((await saved(trial.ctx, hash)).linkSharing, { editDateRange: false, exportReports: false, viewPredictions: false });
    await share.getByRole('group', { name: 'Link sharing' }).scrollIntoViewIfNeeded();
    await shot(page, 'plans-03-share-locked', { fullPage: false });
    for (const linkSharing of [
      { editDateRange: true, exportReports: false, viewPredictions: false },
      { editDateRange: false, exportReports: true, viewPredictions: false },
    ]) {
      const refused = await api(trial.ctx, 'PUT', `/trackers/${hash}/share`, { linkSharing });
      assert.equal(refused.status, 403, JSON.stringify(linkSharing));
      assert.deepEqual([refused.body.error.code, refused.body.error.message], ['upgrade_required', 'Upgrade your account to unlock']);
    }
    // The tracker's own switches are not the plan's.
    await sw(share, 'Unlock date range').click();
    await waitUntil(async () => (await saved(trial.ctx, hash)).unlockDate, { what: 'unlock date saved' });
    await sw(share, 'Unlock date range').click();
    await waitUntil(async () => !(await saved(trial.ctx, hash)).unlockDate, { what: 'unlock date off again' });

    // Plan 35, still on the trial: the link-sharing options open, Export reports stays locked.
    await setAccount(trial.id, { plan: 35, maxSearches: 3, maxIgnored: 1 });
    share = await openShare();
    assert.equal(await share.getByTestId('link-sharing-lock').count(), 0);
    for (const name of ['Edit date range', 'View predictions']) assert.equal(await sw(share, name).isDisabled(), false, name);
    assert.equal(await sw(share, 'Export reports').isDisabled(), true);
    assert.equal(await share.getByTestId('export-lock').textContent(), 'Upgrade to export reports');
    await sw(share, 'Edit date range').click();
    await waitUntil(async () => (await saved(trial.ctx, hash)).linkSharing.editDateRange, { what: 'Edit date range saved' });
    // The server may have stored the change before the page has its answer: the switch is waited for.
    await waitUntil(async () => (await sw(share, 'Edit date range').getAttribute('aria-checked')) === 'true', { what: 'Edit date range shown on' });
    await share.getByRole('group', { name: 'Link sharing' }).scrollIntoViewIfNeeded();
    await shot(page, 'plans-04-share-export-reports-locked', { fullPage: false });
    const refused = await api(trial.ctx, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: true, exportReports: true, viewPredictions: false } });
    assert.equal(refused.status, 403);
    assert.deepEqual([refused.body.error.code, refused.body.error.message], ['upgrade_required', 'Upgrade to export reports']);
    assert.equal((await saved(trial.ctx, hash)).linkSharing.exportReports, false);
    // The lock's link: the pricing page.
    await share.getByTestId('export-lock').getByRole('link').click();
    await page.waitForURL((u) => new URL(u).pathname === '/pricing');
    await page.getByRole('region', { name: 'Your account' }).waitFor();
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();
    await setAccount(trial.id, { plan: 15, maxSearches: 3, maxIgnored: 1 });

    // The self-hosted account: no lock, and every switch saves.
    const sp = await selfHosted.ctx.newPage();
    const spSeen = watch(sp);
    await sp.goto(dashboardOf(selfHosted.tracker));
    await sp.getByRole('button', { name: 'Share', exact: true }).click();
    const own = sp.getByRole('dialog', { name: 'Share this dashboard' });
    await sw(own, 'Export reports').waitFor();
    assert.equal(await own.getByTestId('link-sharing-lock').count(), 0);
    assert.equal(await own.getByTestId('export-lock').count(), 0);
    assert.equal(await own.getByText('Download the posts and influencers as CSV.').count(), 1);
    for (const name of ['Edit date range', 'Export reports', 'View predictions']) assert.equal(await sw(own, name).isDisabled(), false, name);
    await sw(own, 'Export reports').click();
    await waitUntil(async () => (await saved(selfHosted.ctx, selfHosted.tracker.hash)).linkSharing.exportReports, { what: 'Export reports saved' });
    await sw(own, 'View predictions').click();
    await waitUntil(async () => (await saved(selfHosted.ctx, selfHosted.tracker.hash)).linkSharing.viewPredictions, { what: 'View predictions saved' });
    await waitUntil(async () => (await sw(own, 'Export reports').getAttribute('aria-checked')) === 'true', { what: 'Export reports shown on' });
    assert.deepEqual(spSeen.errors, []);
    assert.deepEqual(spSeen.failed, []);
    await sp.close();
  });

  test('trial platform locks: the header checkboxes and the tracker form lock TikTok, Facebook and YouTube; the self-hosted account picks them', async () => {
    const page = await trial.ctx.newPage();
    const seen = watch(page);
    await page.goto(dashboardOf(trial.tracker));
    await settled(page);

    // The header: a lock beside each of the three, with the reason and a Contact us link.
    const header = page.getByRole('group', { name: 'Platforms' });
    assert.equal(await header.getByRole('checkbox', { name: 'Twitter' }).isChecked(), true);
    for (const label of TRIAL_LOCKED) {
      assert.equal(await header.getByRole('checkbox', { name: label }).isDisabled(), true, label);
      assert.equal(await header.getByRole('button', { name: `${label} is locked on trial` }).count(), 1, label);
    }
    assert.equal(await header.getByRole('checkbox', { name: 'Instagram' }).isDisabled(), true);
    assert.equal(await header.getByRole('button', { name: 'Instagram is locked on trial' }).count(), 0, 'not a trial lock');
    await header.getByRole('button', { name: 'TikTok is locked on trial' }).hover();
    const tip = page.getByRole('tooltip');
    await tip.waitFor();
    assert.equal(await tip.textContent(), 'listening for specified TikTok accounts is not available on trial. Contact us');
    await page.waitForTimeout(300);
    await shot(page, 'plans-05-header-platform-lock', { fullPage: false });
    // The tooltip stays open under the pointer: its link goes to the contact page.
    const contact = page.locator('[data-radix-popper-content-wrapper]').getByRole('link', { name: 'Contact us' }).first();
    assert.equal(await contact.getAttribute('href'), '/contact-us');
    await contact.click();
    await page.waitForURL((u) => new URL(u).pathname === '/contact-us');
    await page.getByRole('heading', { name: 'Contact us', level: 1 }).waitFor();

    // From the keyboard: Enter on the lock opens a popover with the same text, the focus on its
    // Contact us link; Escape closes it and gives the focus back to the lock; Enter on the link
    // goes to the contact page.
    await page.goBack();
    await settled(page);
    const tiktokLock = header.getByRole('button', { name: 'TikTok is locked on trial' });
    await tiktokLock.focus();
    await page.keyboard.press('Enter');
    const pop = page.getByRole('dialog', { name: 'listening for specified TikTok accounts is not available on trial' });
    await pop.waitFor();
    assert.equal(await pop.textContent(), 'listening for specified TikTok accounts is not available on trial. Contact us');
    const popContact = pop.getByRole('link', { name: 'Contact us' });
    assert.equal(await popContact.getAttribute('href'), '/contact-us');
    await waitUntil(() => isFocused(popContact), { what: 'focus on the popover’s Contact us', timeoutMs: 5_000 });
    await page.waitForTimeout(300);
    await shot(page, 'plans-05b-header-platform-lock-popover', { fullPage: false });
    await page.keyboard.press('Escape');
    await pop.waitFor({ state: 'detached' });
    await waitUntil(() => isFocused(tiktokLock), { what: 'focus back on the lock', timeoutMs: 5_000 });
    await page.keyboard.press('Enter');
    await waitUntil(() => isFocused(popContact), { what: 'focus on the popover’s Contact us again', timeoutMs: 5_000 });
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => new URL(u).pathname === '/contact-us');
    await page.getByRole('heading', { name: 'Contact us', level: 1 }).waitFor();

    // The tracker form: the three boxes locked, each with its reason and a Contact us link.
    await page.goto(`${server.url}/new/ht/step1`);
    const form = page.getByRole('group', { name: 'Platforms' });
    await form.getByRole('checkbox', { name: 'Twitter' }).waitFor();
    assert.equal(await form.getByRole('checkbox', { name: 'Twitter' }).isDisabled(), false);
    for (const label of TRIAL_LOCKED) {
      assert.equal(await form.getByRole('checkbox', { name: label }).isDisabled(), true, label);
      assert.equal(await form.getByRole('button', { name: `listening for specified ${label} accounts is not available on trial` }).count(), 1, label);
    }
    const contacts = form.getByRole('link', { name: 'Contact us' });
    assert.equal(await contacts.count(), 3);
    for (const href of await contacts.evaluateAll((els) => els.map((e) => e.getAttribute('href')))) assert.equal(href, '/contact-us');
    await form.getByRole('button', { name: 'listening for specified Facebook accounts is not available on trial' }).hover();
    await page.getByRole('tooltip').getByText('listening for specified Facebook accounts is not available on trial').waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'plans-06-form-platform-lock', { fullPage: false });
    // The server refuses a locked platform too.
    const refused = await api(trial.ctx, 'POST', '/trackers', { platforms: { twt: 1, tt: 1 }, search: { rows: [{ type: '+', searches: ['matcha'] }] } });
    assert.equal(refused.status, 422);
    assert.deepEqual(refused.body.error.fields.map((f) => [f.field, f.code, f.message]), [
      ['platforms', 'platform_locked', 'listening for specified TikTok accounts is not available on trial'],
    ]);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();

    // The self-hosted account: no locks, and the boxes check.
    const sp = await selfHosted.ctx.newPage();
    const spSeen = watch(sp);
    await sp.goto(dashboardOf(selfHosted.tracker));
    await settled(sp);
    assert.equal(await sp.getByRole('group', { name: 'Platforms' }).getByRole('button', { name: /locked on trial/ }).count(), 0);
    await sp.goto(`${server.url}/new/ht/step1`);
    const own = sp.getByRole('group', { name: 'Platforms' });
    for (const label of TRIAL_LOCKED) {
      await own.getByRole('checkbox', { name: label }).check();
      assert.equal(await own.getByRole('checkbox', { name: label }).isChecked(), true, label);
    }
    assert.equal(await own.getByRole('button', { name: /not available on trial/ }).count(), 0);
    assert.equal(await own.getByRole('link', { name: 'Contact us' }).count(), 0);
    const made = await api(selfHosted.ctx, 'POST', '/trackers', { title: 'Sam everywhere', platforms: { twt: 1, tt: 1, fb: 1, yt: 1 }, search: { rows: [{ type: '+', searches: ['chai'] }] } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.ok([200, 204].includes((await api(selfHosted.ctx, 'DELETE', `/trackers/${made.body.hash}`)).status));
    assert.deepEqual(spSeen.errors, []);
    assert.deepEqual(spSeen.failed, []);
    await sp.close();
  });

  test('search limits: the add controls go once maxSearches or maxIgnored is reached; the self-hosted account keeps adding', async () => {
    const page = await trial.ctx.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/new/ht/step1`);
    const counts = page.getByTestId('search-counts');
    const addTerm = (row) => page.getByRole('button', { name: `Add a term to row ${row}` });
    const addRow = page.getByRole('button', { name: '+ Add row' });
    await page.getByRole('textbox', { name: 'Row 1 term 1' }).fill('matcha');
    assert.equal(await counts.textContent(), 'Searches 1 of 3 · Excluded terms 0 of 1');

    // One excluded term is the limit: the add controls go.
    await addRow.click();
    await page.getByRole('combobox', { name: 'Row 2 type' }).selectOption('-');
    await page.getByRole('textbox', { name: 'Row 2 term 1' }).fill('decaf');
    assert.equal(await counts.textContent(), 'Searches 1 of 3 · Excluded terms 1 of 1');
    assert.equal(await addRow.count(), 0);
    assert.equal(await addTerm(1).count(), 0);
    assert.equal(await addTerm(2).count(), 0);
    const limit = page.getByTestId('search-limit');
    assert.equal(await limit.textContent(), 'Your plan allows 1 excluded term. Upgrade your account to unlock');
    assert.equal(await limit.getByRole('link', { name: 'Upgrade your account to unlock' }).getAttribute('href'), '/pricing');
    await shot(page, 'plans-07-ignored-limit', { fullPage: false });
    await page.getByRole('button', { name: 'Remove row 2', exact: true }).click();
    await addRow.waitFor();
    assert.equal(await limit.count(), 0);

    // Three searches: the same.
    await addTerm(1).click();
    await page.getByRole('textbox', { name: 'Row 1 term 2' }).fill('hojicha');
    await addTerm(1).click();
    await page.getByRole('textbox', { name: 'Row 1 term 3' }).fill('sencha');
    assert.equal(await counts.textContent(), 'Searches 3 of 3 · Excluded terms 0 of 1');
    assert.equal(await addRow.count(), 0);
    assert.equal(await addTerm(1).count(), 0);
    assert.equal(await limit.textContent(), 'Your plan allows 3 searches. Upgrade your account to unlock');
    await shot(page, 'plans-08-search-limit', { fullPage: false });

    // The server holds the same limits.
    const tooMany = await api(trial.ctx, 'POST', '/trackers', { platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['a1', 'a2', 'a3', 'a4'] }] } });
    assert.equal(tooMany.status, 422);
    assert.deepEqual(tooMany.body.error.fields.map((f) => [f.code, f.message]), [['too_many_searches', 'Your plan allows 3 searches; this search makes 4.']]);
    const tooManyIgnored = await api(trial.ctx, 'POST', '/trackers', {
      platforms: { twt: 1 },
      search: { rows: [{ type: '+', searches: ['matcha'] }, { type: '-', searches: ['decaf', 'iced'] }] },
    });
    assert.equal(tooManyIgnored.status, 422);
    assert.deepEqual(tooManyIgnored.body.error.fields.map((f) => [f.code, f.message]), [['too_many_ignored', 'Your plan allows 1 excluded term.']]);

    // No excluded terms at all (0): the include controls stay, the exclude choice goes.
    await setAccount(trial.id, { maxIgnored: 0 });
    await page.reload();
    await page.getByRole('textbox', { name: 'Row 1 term 1' }).fill('matcha');
    assert.equal(await counts.textContent(), 'Searches 1 of 3 · Excluded terms 0 of 0');
    assert.equal(await limit.count(), 0);
    await addRow.click();
    assert.deepEqual(await page.getByRole('combobox', { name: 'Row 2 type' }).locator('option').allTextContents(), ['And include']);
    await setAccount(trial.id, { maxIgnored: 1 });
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();

    // The self-hosted account: 5 searches and 50 excluded terms.
    const sp = await selfHosted.ctx.newPage();
    await sp.goto(`${server.url}/new/ht/step1`);
    await sp.getByRole('textbox', { name: 'Row 1 term 1' }).fill('chai');
    for (const [n, term] of [[2, 'masala'], [3, 'latte']]) {
      await sp.getByRole('button', { name: 'Add a term to row 1' }).click();
      await sp.getByRole('textbox', { name: `Row 1 term ${n}` }).fill(term);
    }
    await sp.getByRole('button', { name: '+ Add row' }).click();
    await sp.getByRole('combobox', { name: 'Row 2 type' }).selectOption('-');
    await sp.getByRole('textbox', { name: 'Row 2 term 1' }).fill('decaf');
    assert.equal(await sp.getByTestId('search-counts').textContent(), 'Searches 3 of 5 · Excluded terms 1 of 50');
    await sp.getByRole('button', { name: 'Add a term to row 1' }).waitFor();
    await sp.getByRole('button', { name: '+ Add row' }).waitFor();
    assert.equal(await sp.getByTestId('search-limit').count(), 0);
    // The limit meets this account too, at its own numbers.
    for (const [n, term] of [[4, 'cardamom'], [5, 'ginger']]) {
      await sp.getByRole('button', { name: 'Add a term to row 1' }).click();
      await sp.getByRole('textbox', { name: `Row 1 term ${n}` }).fill(term);
    }
    assert.equal(await sp.getByTestId('search-limit').textContent(), 'Your plan allows 5 searches. Upgrade your account to unlock');
    await sp.close();
  });

  test('historical data: the trial modal with See plans (header, sidebar, ?action=historical-data); the self-hosted account gets the backfill form', async () => {
    const page = await trial.ctx.newPage();
    const seen = watch(page);
    const { hash, title } = trial.tracker;
    await page.goto(dashboardOf(trial.tracker));
    await settled(page);
    const header = page.locator('header', { has: page.getByRole('heading', { level: 1 }) });
    await header.getByRole('button', { name: 'Historical Data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Historical Data' });
    await dialog.getByText('Upgrade to add posts published before that.').waitFor();
    assert.equal(await dialog.getByText('Historical data is not included in the trial.').count(), 1);
    assert.equal(
      (await dialog.locator('[data-mode="trial"] p').first().textContent()).replace(/\s+/g, ' ').trim(),
      `Your trial tracker ${title} collects posts from the moment it was created. Upgrade to add posts published before that.`,
    );
    assert.equal(await dialog.getByRole('link', { name: 'See plans' }).getAttribute('href'), '/pricing');
    assert.equal(await dialog.getByRole('button', { name: 'Start backfill' }).count(), 0);
    await shot(page, 'plans-09-historical-trial', { fullPage: false });
    const refused = await api(trial.ctx, 'POST', `/trackers/${hash}/backfill`, { start: new Date(Date.now() - 10 * DAY).toISOString().slice(0, 10), end: new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10) });
    assert.equal(refused.status, 403);
    assert.deepEqual([refused.body.error.code, refused.body.error.message], ['upgrade_required', 'Historical data is not included in the trial.']);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The sidebar's entry opens the same; so does the address's action.
    await page.getByRole('complementary', { name: 'Tracker navigation' }).getByRole('button', { name: 'Historical Data' }).click();
    await dialog.locator('[data-mode="trial"]').waitFor();
    await dialog.getByRole('link', { name: 'See plans' }).click();
    await page.waitForURL((u) => new URL(u).pathname === '/pricing');
    await page.goto(dashboardOf(trial.tracker, '?action=historical-data'));
    await dialog.locator('[data-mode="trial"]').waitFor();
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();

    // The self-hosted account: an X source serves the tracker, so the backfill form opens.
    const sp = await selfHosted.ctx.newPage();
    const spSeen = watch(sp);
    await sp.goto(dashboardOf(selfHosted.tracker));
    await settled(sp);
    await sp.locator('header', { has: sp.getByRole('heading', { level: 1 }) }).getByRole('button', { name: 'Historical Data' }).click();
    const own = sp.getByRole('dialog', { name: 'Historical Data' });
    await own.getByRole('button', { name: 'Start backfill' }).waitFor();
    assert.equal(await own.getByText('Collect posts published before this tracker started.').count(), 1);
    assert.equal(await own.getByText('Historical data is not included in the trial.').count(), 0);
    assert.equal(await own.getByRole('link', { name: 'See plans' }).count(), 0);
    assert.deepEqual(spSeen.errors, []);
    assert.deepEqual(spSeen.failed, []);
    await sp.close();
  });

  test('a search that finds nothing: the trial’s no-data modal offers historical data; the self-hosted account reads the two-week text', async () => {
    /** A new tracker through the form, for a term the fake X never finds; answers its modal. */
    const nothingFound = async (page, term) => {
      await page.goto(`${server.url}/new/ht/step1`);
      await page.getByRole('textbox', { name: 'Row 1 term 1' }).fill(term);
      await page.getByRole('checkbox', { name: 'Twitter' }).check();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL((u) => /^\/hashtag-tracking\/dashboard\//.test(new URL(u).pathname));
      const modal = page.locator('[data-modal="noDataFound"]');
      await modal.getByRole('heading', { name: 'Ruh roh, no data found. Try again?' }).waitFor({ timeout: 90_000 });
      return modal;
    };

    const page = await trial.ctx.newPage();
    const seen = watch(page);
    const modal = await nothingFound(page, 'zzznomatcha');
    await modal.getByText("We didn't find any posts mentioning this search term within the last 24 hours...").waitFor();
    assert.equal(await modal.getByText('New trackers contain a sample of post from the last 2 weeks').count(), 0);
    for (const label of TRIAL_LOCKED) assert.equal(await modal.getByRole('checkbox', { name: label }).isDisabled(), true, label);
    const note = modal.getByTestId('platform-lock-note');
    assert.equal(await note.textContent(), 'listening for specified YouTube, Facebook and TikTok accounts is not available on trial. Contact us');
    assert.equal(await note.getByRole('link', { name: 'Contact us' }).getAttribute('href'), '/contact-us');
    assert.equal(await modal.getByRole('button', { name: 'Keep collecting' }).count(), 1);
    await shot(page, 'plans-10-no-data-trial', { fullPage: false });
    await modal.getByRole('button', { name: 'Get historical data' }).click();
    const historical = page.getByRole('dialog', { name: 'Historical Data' });
    await historical.locator('[data-mode="trial"]').waitFor();
    assert.equal(await historical.getByRole('link', { name: 'See plans' }).getAttribute('href'), '/pricing');
    assert.equal(await modal.count(), 0);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();

    const sp = await selfHosted.ctx.newPage();
    const spSeen = watch(sp);
    const own = await nothingFound(sp, 'zzznochai');
    await own.getByText('New trackers contain a sample of post from the last 2 weeks, but this search term returned no results.').waitFor();
    assert.equal(await own.getByRole('button', { name: 'Get historical data' }).count(), 0);
    for (const label of TRIAL_LOCKED) assert.equal(await own.getByRole('checkbox', { name: label }).isDisabled(), false, label);
    assert.equal(await own.getByTestId('platform-lock-note').count(), 0);
    await own.getByRole('button', { name: 'Keep collecting' }).click();
    await own.waitFor({ state: 'detached' });
    assert.deepEqual(spSeen.errors, []);
    assert.deepEqual(spSeen.failed, []);
    await sp.close();
  });

  test('the trial ends: told once a session, with the ways to upgrade; its trackers are locked (but to the administrator); the self-hosted account is not', async () => {
    const { hash } = trial.tracker;
    // Sam (self-hosted) views Tess's tracker, so a member meets the lock too.
    const added = await api(trial.ctx, 'POST', `/trackers/${hash}/members`, { email: 'sam@example.com', permission: 1 });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    sql(`UPDATE users SET trial_expires = ${Date.now() - DAY} WHERE email = 'tess@example.com'`);
    const me = (await api(trial.ctx, 'GET', '/me')).body;
    assert.deepEqual([me.trial, me.trialExpired, me.trialDays], [true, true, 14]);
    assert.deepEqual([...me.trialLockedPlatforms].sort(), ['fb', 'tt', 'yt']);

    const page = await trial.ctx.newPage();
    const seen = watch(page);
    const refusals = lockedAnswers(page);
    await page.goto(`${server.url}/mytracks/hashtag`);
    const notice = page.getByRole('dialog', { name: 'Your 14-Day Trial has expired' });
    await notice.waitFor();
    assert.match(await notice.textContent(), /Upgrade now to access your trackers\./);
    const seePlans = notice.getByRole('link', { name: 'See plans' });
    assert.equal(await seePlans.getAttribute('href'), '/pricing');
    assert.equal(await notice.getByRole('link', { name: 'Contact us' }).getAttribute('href'), '/contact-us');
    await waitUntil(() => isFocused(seePlans), { what: 'the focus on See plans' });
    await shot(page, 'plans-11-trial-expired', { fullPage: false });
    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'detached' });
    // The list still shows the tracker; opening it finds it locked, with the owner's message.
    await page.getByRole('link', { name: trial.tracker.title, exact: true }).click();
    await page.waitForURL((u) => new URL(u).pathname.startsWith(`/hashtag-tracking/dashboard/${hash}`));
    const locked = page.getByTestId('tracker-locked');
    await locked.getByRole('heading', { level: 1, name: 'This tracker is locked' }).waitFor();
    assert.equal(await locked.getByTestId('tracker-locked-message').textContent(), OWNER_LOCKED);
    assert.equal(await locked.getByRole('link', { name: 'See plans' }).getAttribute('href'), '/pricing');
    assert.equal(await locked.getByRole('link', { name: 'Contact us' }).getAttribute('href'), '/contact-us');
    await page.waitForTimeout(500);
    assert.equal(await page.getByTestId('dashboard-grid').count(), 0, 'no panels');
    assert.equal(await page.getByRole('alert').count(), 0, 'not the generic error');
    assert.equal(await notice.count(), 0, 'not again in the same session');
    await shot(page, 'plans-12-tracker-locked', { fullPage: false });
    // The way out is in reach of the keyboard.
    await locked.getByRole('link', { name: 'See plans' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => new URL(u).pathname === '/pricing');
    // The account's pricing page says the trial is over.
    assert.match(await page.getByRole('region', { name: 'Your account' }).textContent(), /TrialTrial ended/);
    assert.deepEqual(seen.errors, []);
    // The one failure is the tracker's own 403 trial_expired: none of its panels was asked for.
    assertOnlyLocked(seen, await Promise.all(refusals), hash, OWNER_LOCKED);
    await page.close();

    // A member (Sam, viewer) is told the tracker is locked, in the words for anybody but the owner.
    const vp = await selfHosted.ctx.newPage();
    const vSeen = watch(vp);
    const vRefusals = lockedAnswers(vp);
    await vp.goto(dashboardOf(trial.tracker));
    const vLocked = vp.getByTestId('tracker-locked');
    await vLocked.getByRole('heading', { level: 1, name: 'This tracker is locked' }).waitFor();
    assert.equal(await vLocked.getByTestId('tracker-locked-message').textContent(), OTHERS_LOCKED);
    await vp.waitForTimeout(500);
    assert.equal(await vp.getByTestId('dashboard-grid').count(), 0, 'no panels');
    await shot(vp, 'plans-13-tracker-locked-viewer', { fullPage: false });
    assert.deepEqual(vSeen.errors, []);
    assertOnlyLocked(vSeen, await Promise.all(vRefusals), hash, OTHERS_LOCKED);
    await vp.close();

    // The instance administrator still opens it.
    const ap = await admin.newPage();
    const aSeen = watch(ap);
    await ap.goto(dashboardOf(trial.tracker));
    await settled(ap);
    await ap.getByRole('heading', { level: 1, name: trial.tracker.title }).waitFor();
    assert.equal(await ap.getByTestId('tracker-locked').count(), 0);
    assert.deepEqual(aSeen.errors, []);
    assert.deepEqual(aSeen.failed, []);
    await ap.close();

    const sp = await selfHosted.ctx.newPage();
    await sp.goto(`${server.url}/mytracks/hashtag`);
    await sp.getByRole('heading', { name: 'My Trackers' }).waitFor();
    await sp.waitForTimeout(500);
    assert.equal(await sp.getByRole('dialog').count(), 0);
    await sp.close();
  });
});

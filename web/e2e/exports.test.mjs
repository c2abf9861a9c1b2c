// End to end: XLS exports as background jobs against a real server — the owner chooses Export → XLS
// on the dashboard; the export page opens in a new window at /hashtag-tracking/export/…/xls/…,
// follows the job and downloads the workbook (a zip: "PK"), while the dashboard's button shows the
// progress and goes back to idle. A share-link visitor with 'Export reports' does the same; a viewer
// of a tracker that does not share exports has no Export menu; an account on plan 15 gets the
// sample modal, whose sample downloads.
//
// PDF reports: Export → PDF on the dashboard (with the timeline's grouping, metric and running
// totals) shows 'PDF 40%' on the button while the job is made, then 'Your PDF is ready to be
// viewed' with 'View PDF', which opens the report (application/pdf, "%PDF") in a new window; the
// posts page makes one of its list as searched (the next click on PDF opening it); a share-link
// visitor makes one through the link; the export address of a PDF shows the report in its window.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api as apiAt, dashboardSettled as settled, launchBrowser, ndjson, ownerWithTracker, rewriteAnswers, shot, startServer, waitUntil } from './harness.mjs';

const DAY = 86_400_000;
let browser;
let server;
let tmp;

before(async () => {
  browser = await launchBrowser();
  server = await startServer();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'hark-exports-'));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const api = (ctx, ...call) => apiAt(ctx, server.url, ...call);

function posts(now) {
  const out = [];
  for (let i = 0; i < 30; i++) {
    out.push({
      platform: 'twitter',
      id: String(9100 + i),
      text: i % 4 === 0 ? `Fresh sourdough this morning #bread #baking ${i}` : `bread notes ${i} https://example.com/loaf/${i % 5}`,
      createdAt: now - (i % 12) * DAY - i * 60_000,
      author: { username: `baker${i % 5}`, name: `Baker ${i % 5}` },
      counts: { likes: i * 3, retweets: i % 7, replies: i % 3 },
    });
  }
  return out;
}

/** A second account through the CLI, signed in in a new browser context: `{ ctx, id }`. */
async function signedIn(email, name) {
  const env = { ...process.env };
  if (!server.databaseUrl.startsWith('sqlite://')) env.HARK_DATABASE_URL = server.databaseUrl;
  execFileSync(server.bin, ['user', 'add', '--data-dir', server.dataDir, '--email', email, '--name', name], { input: 'correct horse battery\n', env });
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const login = await api(ctx, 'POST', '/auth/login', { email, password: 'correct horse battery' });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return ctx;
}

/** Errors a page throws, and API answers of 400 and above it gets. */
function watch(page) {
  const seen = { errors: [], failed: [] };
  page.on('pageerror', (e) => seen.errors.push(e.message));
  page.on('response', (r) => {
    if (r.url().includes('/api/v1/') && r.status() >= 400) seen.failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  return seen;
}

/** Saves a download and checks it is a workbook: a zip ("PK") named *.xlsx. Returns its bytes. */
async function savedWorkbook(download, name) {
  assert.match(download.suggestedFilename(), /\.xlsx$/, download.suggestedFilename());
  const file = path.join(tmp, name);
  await download.saveAs(file);
  const bytes = readFileSync(file);
  assert.ok(bytes.length > 1000, `a workbook of ${bytes.length} bytes`);
  assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK');
  return bytes;
}

/**
 * Export → XLS on a dashboard page: the export window that opens, and its download. The button
 * shows its progress meanwhile (it stays busy at least until this window's first look at the job).
 */
async function exportXls(page) {
  const button = page.getByTestId('export-menu');
  await button.click();
  const item = page.getByRole('menuitem', { name: /^XLS/ });
  await item.waitFor();
  const popupWait = page.waitForEvent('popup');
  // Listened for from the window's first moment: the file may come before this test looks.
  const downloadWait = popupWait.then((p) => p.waitForEvent('download', { timeout: 60_000 }));
  const clickedAt = Date.now();
  await item.click();
  // Busy, with its percent ("XLS 0%"), for at least the 150 ms before the window opens.
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid="export-menu"]');
    return b?.getAttribute('aria-busy') === 'true' && /^XLS \d+%$/.test(b.textContent.trim());
  }, null, { polling: 'raf', timeout: 5000 });
  const popup = await popupWait;
  const opened = new URL(popup.url());
  assert.ok(Date.now() - clickedAt >= 150, 'the window opens no sooner than 150 ms after the click');
  const download = await downloadWait;
  // Back to idle once this window has seen the job finish.
  await page.locator('[data-testid="export-menu"]:not([aria-busy])').waitFor({ timeout: 10_000 });
  assert.equal((await button.textContent()).trim(), 'Export');
  return { popup, opened, download };
}

describe('XLS exports', () => {
  let owner;
  let hash;
  let friendly;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    let imported;
    ({ hash, friendly, imported } = await ownerWithTracker(owner, server.url, { title: 'Bread club', term: 'bread', posts: posts(Date.now()) }));
    assert.equal(imported, 30);
  });

  after(async () => {
    await owner?.close();
  });

  test('the owner exports the dashboard as XLS: a new window follows the job and downloads the workbook', async () => {
    const page = await owner.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?days=30`);
    await settled(page);
    await page.locator('[data-testid="chart-timeline"] [data-chart-ready="true"]').waitFor();

    // The menu, from the keyboard: Google Sheets (not set up on this server), PDF, then XLS.
    await page.getByTestId('export-menu').focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await menu.getByText('Not set up on this server').waitFor();
    assert.deepEqual(await menu.getByRole('menuitem').allTextContents(), [
      'Google SheetsNot set up on this server',
      'PDFA report to view, print or share',
      'XLSEvery panel and post, as a workbook',
    ]);
    await page.waitForTimeout(300); // the menu's entry animation
    await shot(page, 'exports-01-dashboard-menu', { fullPage: false });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    const { popup, opened, download } = await exportXls(page);
    const popupSeen = watch(popup);
    assert.equal(opened.pathname, `/hashtag-tracking/export/${hash}/xls/30`);
    const token = opened.searchParams.get('job');
    assert.match(token ?? '', /^[0-9a-f]{32}$/);
    assert.equal(opened.searchParams.get('platforms'), 'twt');
    assert.ok(opened.searchParams.get('tz'));
    await savedWorkbook(download, 'owner.xlsx');
    assert.equal(new URL(download.url()).pathname, `/export/hashtag/${token}.xlsx`);

    // The export page: the tracker, what was made, done.
    await popup.getByRole('heading', { level: 1, name: 'Bread club' }).waitFor();
    await popup.getByText('Your XLS is ready.').waitFor();
    assert.equal(await popup.getByTestId('export-details').textContent(), 'Past Month');
    assert.equal(await popup.getByRole('link', { name: 'Download again' }).getAttribute('href'), `/export/hashtag/${token}.xlsx`);
    await shot(popup, 'exports-02-export-page-ready', { fullPage: false });

    // The job is the owner's, listed and finished.
    const list = await api(owner, 'GET', `/trackers/${hash}/exports`);
    assert.equal(list.status, 200);
    const mine = list.body.exports.find((j) => j.token === token);
    assert.equal(mine?.state, 'ready');

    // Its progress as the page shows it while the job is made (the answer held at 9 of 20 steps).
    const progress = await owner.newPage();
    const releaseProgress = await rewriteAnswers(progress, `**/api/v1/exports/${token}`, (real) => ({ ...real, state: 'running', done: 9, total: 20, fileUrl: null }));
    await progress.goto(`${server.url}${opened.pathname}${opened.search}`);
    const bar = progress.getByRole('progressbar', { name: 'XLS export progress' });
    await bar.waitFor();
    await waitUntil(async () => (await bar.getAttribute('aria-valuenow')) === '45', { what: 'the bar at 45%' });
    await progress.getByText('Preparing your XLS…').waitFor();
    await progress.waitForTimeout(600); // the bar's width transition
    await shot(progress, 'exports-03-export-page-progress', { fullPage: false });
    await releaseProgress();
    await progress.close();

    // A reload of the finished page does not download again.
    let again = 0;
    popup.on('download', () => again++);
    await popup.reload();
    await popup.getByText('Your XLS is ready.').waitFor();
    await popup.waitForTimeout(500);
    assert.equal(again, 0);

    await popup.close();

    // The dashboard's button while a job is made (this window's answers held at 9 of 20 steps).
    const release = await rewriteAnswers(page, '**/api/v1/exports/*', (real) => ({ ...real, state: 'running', done: 9, total: 20, fileUrl: null }));
    const secondPopup = page.waitForEvent('popup');
    const otherDownload = secondPopup.then((p) => p.waitForEvent('download', { timeout: 60_000 }));
    await page.getByTestId('export-menu').click();
    await page.getByRole('menuitem', { name: /^XLS/ }).click();
    await page.getByRole('button', { name: 'XLS 45%' }).waitFor();
    await shot(page, 'exports-05-dashboard-progress', { fullPage: false });
    const other = await secondPopup;
    // Once the job is seen as it is, the button is idle again; the other window has the file.
    await release();
    await page.getByRole('button', { name: 'Export' }).waitFor({ timeout: 10_000 });
    await savedWorkbook(await otherDownload, 'second.xlsx');
    await other.close();

    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    assert.deepEqual(popupSeen.errors, []);
    await page.close();
  });

  test('when the new window is blocked the dashboard downloads the file itself', async () => {
    const page = await owner.newPage();
    const seen = watch(page);
    // A popup blocker: window.open gives no window.
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await settled(page);
    const downloadWait = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByTestId('export-menu').click();
    await page.getByRole('menuitem', { name: /^XLS/ }).click();
    const download = await downloadWait;
    await savedWorkbook(download, 'blocked.xlsx');
    const notice = page.getByTestId('notice');
    await notice.getByText('Your XLS is ready.').waitFor();
    assert.match(await notice.getByRole('link', { name: 'Download' }).getAttribute('href'), /^\/export\/hashtag\/[0-9a-f]{32}\.xlsx$/);
    await page.getByRole('button', { name: 'Export' }).waitFor();
    await shot(page, 'exports-06-blocked-window-notice', { fullPage: false });
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();
  });

  test('with tag filters the export route is /tagFiltered and keeps them', async () => {
    const tag = await api(owner, 'POST', `/trackers/${hash}/tags`, { name: 'Loaves' });
    assert.equal(tag.status, 201, JSON.stringify(tag.body));
    const page = await owner.newPage();
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?postTags=${tag.body.id}&postTagFilterMode=any`);
    await settled(page);
    const { popup, opened, download } = await exportXls(page);
    assert.equal(opened.pathname, `/hashtag-tracking/export/${hash}/xls/14/tagFiltered`);
    assert.equal(opened.searchParams.get('postTags'), String(tag.body.id));
    assert.equal(opened.searchParams.get('postTagFilterMode'), 'any');
    await savedWorkbook(download, 'tagged.xlsx');
    await popup.getByText('Your XLS is ready.').waitFor();
    assert.equal(await popup.getByTestId('export-details').textContent(), 'Past 2 Weeks · Filtered by tags');
    await popup.close();
    await page.close();
  });

  test('a share-link visitor with Export reports exports too', async () => {
    const change = await api(owner, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: false, exportReports: true, viewPredictions: false } });
    assert.equal(change.status, 200, JSON.stringify(change.body));
    const shareHash = change.body.shareHash;
    assert.ok(shareHash);

    const visitor = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await visitor.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?shareHash=${shareHash}`);
    await settled(page);
    await page.getByText('SHARED').waitFor();
    const { popup, opened, download } = await exportXls(page);
    assert.equal(opened.pathname, `/hashtag-tracking/export/${hash}/xls/14`);
    assert.equal(opened.searchParams.get('shareHash'), shareHash);
    await savedWorkbook(download, 'visitor.xlsx');
    assert.equal(new URL(download.url()).searchParams.get('shareHash'), shareHash);
    await popup.getByText('Your XLS is ready.').waitFor();
    await popup.getByRole('heading', { level: 1, name: 'Bread club' }).waitFor();
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);

    // With 'Export reports' off the menu is gone and the server refuses.
    const off = await api(owner, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false } });
    assert.equal(off.status, 200);
    await page.reload();
    await settled(page);
    assert.equal(await page.getByTestId('export-menu').count(), 0);
    await visitor.close();
  });

  test('a viewer of a tracker that does not share exports sees no Export menu', async () => {
    const vera = await signedIn('vera@example.com', 'Vera Viewer');
    const added = await api(owner, 'POST', `/trackers/${hash}/members`, { email: 'vera@example.com', permission: 1 });
    assert.ok([200, 201].includes(added.status), JSON.stringify(added.body));
    const page = await vera.newPage();
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'Bread club' }).waitFor();
    assert.equal(await page.getByTestId('export-menu').count(), 0);
    const refused = await api(vera, 'POST', `/trackers/${hash}/exports?days=14`, { kind: 'xlsx', source: 'dashboard' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'forbidden');
    await vera.close();
  });

  test('an account on plan 15 gets the sample modal, and its sample downloads', async () => {
    const pat = await signedIn('pat@example.com', 'Pat Plain');
    const found = await api(owner, 'GET', '/admin/users?search=pat');
    const id = found.body.accounts[0].id;
    const set = await api(owner, 'PATCH', `/admin/users/${id}`, { plan: 15 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const t = await api(pat, 'POST', '/trackers', { title: 'Pat bakes', platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['rye'] }] } });
    assert.equal(t.status, 201, JSON.stringify(t.body));

    const page = await pat.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${t.body.hash}/${t.body.friendly}`);
    await settled(page);
    await page.getByTestId('export-menu').click();
    const item = page.getByRole('menuitem', { name: /^XLS/ });
    await item.getByText('Upgrade your account to unlock').waitFor();
    await item.click();
    const dialog = page.getByRole('dialog', { name: 'XLS reports are not part of your plan' });
    await dialog.waitFor();
    const upgrade = dialog.getByRole('link', { name: 'Upgrade your account to unlock' });
    assert.equal(await upgrade.getAttribute('href'), '/pricing');
    await shot(page, 'exports-04-sample-modal', { fullPage: false });

    const downloadWait = page.waitForEvent('download');
    await dialog.getByRole('link', { name: 'Download a sample' }).click();
    const download = await downloadWait;
    assert.equal(download.suggestedFilename(), 'hark-sample-report.xlsx');
    await savedWorkbook(download, 'sample.xlsx');
    // No job was asked for, and the server would refuse one.
    assert.equal((await api(pat, 'GET', `/trackers/${t.body.hash}/exports`)).body.exports.length, 0);
    const refused = await api(pat, 'POST', `/trackers/${t.body.hash}/exports?days=14`, { kind: 'xlsx', source: 'dashboard' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'upgrade_required');
    // The upgrade link goes to the pricing page.
    await upgrade.click();
    await page.waitForURL((u) => new URL(u).pathname === '/pricing');
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await pat.close();
  });
});

const OWNER = { email: 'owner@example.com', password: 'correct horse battery', name: 'Olive Owner' };
const hasPoppler = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The owner signed in a new context (the first account, made here when no test has made it yet). */
async function ownerContext(options = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 }, ...options });
  const setup = await api(ctx, 'POST', '/setup', OWNER);
  if (setup.status !== 201) {
    const login = await api(ctx, 'POST', '/auth/login', { email: OWNER.email, password: OWNER.password });
    assert.equal(login.status, 200, JSON.stringify(login.body));
  }
  return ctx;
}

function ryePosts(now) {
  return Array.from({ length: 24 }, (_, i) => ({
    platform: 'twitter',
    id: String(9700 + i),
    text: i % 3 === 0 ? `Rye sourdough out of the oven ${i} #rye` : `rye crumb notes ${i}`,
    createdAt: now - (i % 10) * DAY - i * 90_000,
    author: { username: `miller${i % 4}`, name: `Miller ${i % 4}` },
    counts: { likes: i * 2, retweets: i % 5, replies: i % 2 },
  }));
}

/** The POST that asks for an export of `hash`, as the page sends it. */
const exportRequest = (page, hash) =>
  page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === `/api/v1/trackers/${hash}/exports`);

/**
 * `click` opens the report in a new window: the window, and its response (200, application/pdf,
 * at /export/hashtag/{token}.pdf). Chromium's viewer takes the document over (the response's body
 * is then the viewer's page), so the file itself is the same address fetched again: it starts with
 * %PDF. Returns `{ popup, url, bytes, text, pageSize }` (the text and page size when poppler is here).
 */
async function openReport(ctx, click, name) {
  const popupWait = ctx.waitForEvent('page');
  const responseWait = ctx.waitForEvent('response', (r) => /^\/export\/hashtag\/[0-9a-f]{32}\.pdf$/.test(new URL(r.url()).pathname));
  await click();
  const [popup, response] = await Promise.all([popupWait, responseWait]);
  assert.equal(response.status(), 200);
  assert.equal(response.headers()['content-type'], 'application/pdf');
  assert.equal(response.frame().page(), popup, 'the report is the new window’s document');
  const url = new URL(response.url());
  await popup.waitForURL((u) => new URL(u).pathname === url.pathname);
  const again = await ctx.request.get(response.url());
  assert.equal(again.status(), 200);
  assert.equal(again.headers()['content-type'], 'application/pdf');
  assert.match(again.headers()['content-disposition'] ?? '', /^inline/);
  const bytes = await again.body();
  assert.equal(bytes.subarray(0, 4).toString('latin1'), '%PDF');
  assert.ok(bytes.length > 2000, `a report of ${bytes.length} bytes`);
  let text = null;
  let pageSize = null;
  if (hasPoppler) {
    const file = path.join(tmp, `${name}.pdf`);
    writeFileSync(file, bytes);
    text = execFileSync('pdftotext', ['-layout', file, '-'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString('utf8');
    pageSize = /Page size:\s+(.*)/.exec(execFileSync('pdfinfo', [file], { stdio: ['ignore', 'pipe', 'ignore'] }).toString('utf8'))?.[1] ?? null;
  }
  return { popup, url, bytes, text, pageSize };
}

describe('PDF reports', () => {
  let owner;
  let hash;
  let friendly;

  before(async () => {
    // A4 here (en-GB); the visitor below reads in en-US and gets Letter.
    owner = await ownerContext({ locale: 'en-GB' });
    const t = await api(owner, 'POST', '/trackers', { title: 'Rye club', platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['rye'] }] } });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    ({ hash, friendly } = t.body);
    const imp = await api(owner, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson(ryePosts(Date.now())));
    assert.equal(imp.body.imported, 24, JSON.stringify(imp.body));
  });

  after(async () => {
    await owner?.close();
  });

  test('the owner makes a PDF of the dashboard: PDF loading, the ready notice, View PDF opens the report', async () => {
    const page = await owner.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?days=30&grouping=day&eridropdown=Reach&cumulative=1`);
    await settled(page);
    await page.locator('[data-testid="chart-timeline"] [data-chart-ready="true"]').waitFor();

    // The job's answers held at 6 of 15 steps, so its loading state can be looked at.
    const release = await rewriteAnswers(page, '**/api/v1/exports/*', (real) => ({ ...real, state: 'running', done: 6, total: 15, fileUrl: null }));
    const button = page.getByTestId('export-menu');
    await button.click();
    const item = page.getByRole('menuitem', { name: /^PDF/ });
    await item.waitFor();
    await page.waitForTimeout(300); // the menu's entry animation
    await shot(page, 'exports-07-dashboard-menu-with-pdf', { fullPage: false });
    const asked = exportRequest(page, hash);
    await item.click();
    const request = await asked;
    // The timeline as the dashboard shows it, and A4 for an en-GB browser.
    assert.deepEqual(request.postDataJSON(), { kind: 'pdf', source: 'dashboard', grouping: 'day', eri: 'Reach', cumulative: true, paper: 'a4' });
    const q = new URL(request.url()).searchParams;
    assert.equal(q.get('days'), '30');
    assert.equal(q.get('platforms'), 'twt');
    await page.getByRole('button', { name: 'PDF 40%' }).waitFor();
    assert.equal(await button.getAttribute('data-pdf-loading'), 'true');
    assert.equal(await button.getAttribute('aria-busy'), 'true');
    await shot(page, 'exports-08-dashboard-pdf-loading', { fullPage: false });
    // No window opens by itself.
    assert.equal(owner.pages().length, 1);

    // Let the job be seen as it is: idle again, and the notice.
    await release();
    const notice = page.getByTestId('notice');
    await notice.getByText('Your PDF is ready to be viewed').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Export' }).waitFor();
    assert.equal(await button.getAttribute('data-pdf-loading'), null);
    await shot(page, 'exports-09-dashboard-pdf-ready', { fullPage: false });

    const report = await openReport(owner, () => notice.getByRole('button', { name: 'View PDF' }).click(), 'dashboard');
    assert.equal(report.url.searchParams.get('shareHash'), null);
    if (report.text !== null) {
      assert.match(report.text, /Rye club/);
      assert.match(report.text, /Posts and reach by day, cumulative\./);
      assert.match(report.pageSize, /\(A4\)/);
    }
    await report.popup.waitForTimeout(1500); // the viewer draws its first page
    await shot(report.popup, 'exports-10-pdf-report-window', { fullPage: false });
    await report.popup.close();

    // Opened and reset: the notice has gone and PDF asks for a new report.
    assert.equal(await page.getByTestId('notice').count(), 0);
    await button.click();
    await page.getByRole('menuitem', { name: /^PDF/ }).getByText('A report to view, print or share').waitFor();
    await page.keyboard.press('Escape');

    // The owner's job, listed and finished.
    const list = await api(owner, 'GET', `/trackers/${hash}/exports`);
    const token = report.url.pathname.match(/([0-9a-f]{32})\.pdf$/)[1];
    assert.equal(list.body.exports.find((j) => j.token === token)?.state, 'ready');
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();
  });

  test('the posts page makes a PDF of its list as searched; the next click on PDF opens it', async () => {
    const page = await owner.newPage();
    const seen = watch(page);
    await page.goto(`${server.url}/hashtag-tracking/posts/${hash}/${friendly}?search=sourdough&sort=engagement;desc`);
    await page.getByTestId('posts-total').waitFor();
    const exportButton = page.getByRole('button', { name: 'Export' });
    await exportButton.click();
    const pdfItem = page.getByTestId('export-pdf');
    await pdfItem.waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'exports-11-posts-menu-with-pdf', { fullPage: false });
    assert.equal(await page.getByTestId('export-csv').textContent(), 'CSV');

    const asked = exportRequest(page, hash);
    await pdfItem.click();
    const request = await asked;
    assert.deepEqual(request.postDataJSON(), { kind: 'pdf', source: 'posts', cumulative: false, paper: 'a4' });
    const q = new URL(request.url()).searchParams;
    assert.equal(q.get('search'), 'sourdough');
    assert.equal(q.get('sort'), 'engagement;desc');
    assert.equal(q.get('days'), '30');
    assert.equal(q.get('page'), null);

    const notice = page.getByTestId('notice');
    await notice.getByText('Your PDF is ready to be viewed').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Export' }).waitFor();
    await shot(page, 'exports-12-posts-pdf-ready', { fullPage: false });

    // The url held, the next click on PDF opens it and resets the job.
    await exportButton.click();
    await pdfItem.getByText('Ready to view').waitFor();
    const report = await openReport(owner, () => pdfItem.click(), 'posts');
    if (report.text !== null) {
      assert.match(report.text, /posts of the list matching “sourdough”/);
      assert.doesNotMatch(report.text, /crumb notes/);
    }
    await report.popup.close();
    assert.equal(await page.getByTestId('notice').count(), 0);
    await exportButton.click();
    assert.equal(await pdfItem.getByText('Ready to view').count(), 0);
    await page.keyboard.press('Escape');
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();
  });

  test('a share-link visitor with Export reports makes a PDF through the link', async () => {
    const change = await api(owner, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: false, exportReports: true, viewPredictions: false } });
    assert.equal(change.status, 200, JSON.stringify(change.body));
    const shareHash = change.body.shareHash;
    assert.ok(shareHash);

    const visitor = await browser.newContext({ viewport: { width: 1360, height: 900 }, locale: 'en-US' });
    const page = await visitor.newPage();
    const seen = watch(page);
    const jobs = [];
    page.on('response', async (r) => {
      if (/^\/api\/v1\/exports\/[0-9a-f]{32}$/.test(new URL(r.url()).pathname)) jobs.push(await r.json().catch(() => null));
    });
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?shareHash=${shareHash}`);
    await settled(page);
    await page.getByText('SHARED').waitFor();
    await page.getByTestId('export-menu').click();
    const asked = exportRequest(page, hash);
    await page.getByRole('menuitem', { name: /^PDF/ }).click();
    const request = await asked;
    assert.equal(new URL(request.url()).searchParams.get('shareHash'), shareHash);
    // Letter for an en-US browser.
    assert.equal(request.postDataJSON().paper, 'letter');
    const notice = page.getByTestId('notice');
    await notice.getByText('Your PDF is ready to be viewed').waitFor({ timeout: 60_000 });
    // The job's file URL carries the link (the ready answer's body is read after the page has it).
    await waitUntil(async () => jobs.some((j) => j?.state === 'ready'), { timeoutMs: 10_000, what: "the ready job's answer" });
    const done = jobs.find((j) => j?.state === 'ready');
    assert.match(done.fileUrl, new RegExp(`^/export/hashtag/[0-9a-f]{32}\\.pdf\\?shareHash=${shareHash}$`));

    const report = await openReport(visitor, () => notice.getByRole('button', { name: 'View PDF' }).click(), 'visitor');
    assert.deepEqual(report.url.searchParams.getAll('shareHash'), [shareHash]);
    if (report.pageSize !== null) assert.match(report.pageSize, /\(letter\)/);
    await report.popup.close();
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);

    const off = await api(owner, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: false, exportReports: false, viewPredictions: false } });
    assert.equal(off.status, 200);
    await visitor.close();
  });

  test('the export address of a PDF follows its job and shows the report in its window', async () => {
    const page = await owner.newPage();
    const seen = watch(page);
    // Its progress first (the answers held at 6 of 15 steps), with the app's H mark.
    const release = await rewriteAnswers(page, '**/api/v1/exports/*', (real) => ({ ...real, state: 'running', done: 6, total: 15, fileUrl: null }));
    const asked = exportRequest(page, hash);
    await page.goto(`${server.url}/hashtag-tracking/export/${hash}/pdf/30?platforms=twt&grouping=week`);
    const request = await asked;
    assert.deepEqual(request.postDataJSON(), { kind: 'pdf', source: 'dashboard', grouping: 'week', cumulative: false, paper: 'a4' });
    await page.getByRole('heading', { level: 1, name: 'Rye club' }).waitFor();
    const bar = page.getByRole('progressbar', { name: 'PDF export progress' });
    await waitUntil(async () => (await bar.getAttribute('aria-valuenow')) === '40', { what: 'the bar at 40%' });
    assert.equal((await page.getByRole('banner').textContent()).trim(), 'HHark');
    await page.waitForTimeout(600);
    await shot(page, 'exports-13-export-page-pdf-progress', { fullPage: false });

    const responseWait = owner.waitForEvent('response', (r) => /^\/export\/hashtag\/[0-9a-f]{32}\.pdf$/.test(new URL(r.url()).pathname));
    await release();
    const response = await responseWait;
    assert.equal(response.headers()['content-type'], 'application/pdf');
    assert.equal(response.frame().page(), page);
    await page.waitForURL((u) => /^\/export\/hashtag\/[0-9a-f]{32}\.pdf$/.test(new URL(u).pathname));
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.failed, []);
    await page.close();
  });
});

// End to end: the demo tracker (sample-data notice, readable while signed out) and importing an
// NDJSON file of posts from Tracker Settings — against a real server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, screenshotDir, shot, startServer, waitUntil } from './harness.mjs';

const ACCOUNT = { name: 'Ida Importer', email: 'ida@example.com', password: 'correct horse battery' };

let browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

const pathname = (page) => new URL(page.url()).pathname;

/** Full-page screenshot from the top, so the sticky top bar is not painted mid-page. */
async function topShot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, name);
}

async function getJson(url) {
  const res = await fetch(url);
  return { status: res.status, body: res.ok ? await res.json() : null };
}

describe('demo tracker', () => {
  let server;
  before(async () => {
    server = await startServer({ demo: true });
  });
  after(async () => {
    await server?.stop();
  });

  test('a first visit offers setup and the demo, which is labelled as sample data', async () => {
    // The server creates the demo tracker and backfills it in the background.
    const demo = await waitUntil(
      async () => {
        const r = await getJson(`${server.url}/api/v1/demo`);
        return r.status === 200 ? r.body : null;
      },
      { what: 'GET /api/v1/demo' },
    );
    await waitUntil(
      async () => {
        const r = await getJson(`${server.url}/api/v1/trackers/${demo.hash}/total-posts`);
        return r.status === 200 && r.body.count.posts > 0;
      },
      { what: 'demo posts' },
    );

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // A fresh instance with its demo: the first visit still offers to set up the first account
    // (the demo's owner is a system account), and offers the demo beside it.
    await page.goto(server.url + '/');
    await page.getByRole('heading', { name: 'Set up Hark' }).waitFor();
    const link = page.getByRole('link', { name: 'Explore the demo tracker' });
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), `/hashtag-tracking/dashboard/${demo.hash}/${demo.friendly}?demo=true`);
    await topShot(page, 'demo-01-login-link');
    await link.click();

    await page.waitForURL((u) => new URL(u).pathname === `/hashtag-tracking/dashboard/${demo.hash}/${demo.friendly}`, { timeout: 15_000 });
    assert.equal(new URL(page.url()).searchParams.get('demo'), 'true');
    const notice = page.getByTestId('sample-data-notice');
    await notice.waitFor();
    assert.match(await notice.innerText(), /Sample data — this demo tracker is fed by Hark’s built-in generator, not by a real platform\./);
    await page.getByRole('heading', { level: 1, name: demo.title }).waitFor();
    // Demo mode (spec: a DEMO badge, an edit link and the 'Create My Own Tracker' menu); read-only:
    // nothing that shares, manages or collects.
    const header = page.locator('header', { has: page.getByRole('heading', { level: 1 }) });
    await header.getByText('DEMO', { exact: true }).waitFor();
    await header.getByRole('link', { name: 'EDIT TRACKER' }).waitFor();
    for (const name of ['Share', 'Team', 'Customize', 'Historical Data']) {
      assert.equal(await header.getByRole('button', { name, exact: true }).count(), 0, name);
    }
    await header.getByRole('button', { name: 'Create My Own Tracker' }).click();
    const add = page.getByRole('menuitem', { name: 'Add Tracker', exact: true });
    await add.waitFor();
    assert.equal(await add.getAttribute('href'), '/new/ht/step1');
    assert.equal(await page.getByRole('menuitem', { name: 'Add Advanced Tracker' }).getAttribute('href'), '/advanced');
    await topShot(page, 'demo-02b-create-menu');
    await page.keyboard.press('Escape');

    // The sidebar's Posts count shows a number once total-posts answers.
    const count = page.getByTestId('post-count');
    await waitUntil(async () => /\d/.test(await count.innerText()), { timeout: 15_000, what: 'sidebar post count' });
    await page.waitForLoadState('networkidle');
    await topShot(page, 'demo-02-dashboard');

    // Another page of the demo tracker keeps the notice and does not send the visitor to sign in.
    await page.getByRole('link', { name: /^Posts/ }).first().click();
    await page.waitForURL((u) => new URL(u).pathname.startsWith(`/hashtag-tracking/posts/${demo.hash}`), { timeout: 15_000 });
    await notice.waitFor();
    assert.notEqual(pathname(page), '/login');
    await topShot(page, 'demo-03-posts');

    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('import posts', () => {
  let server;
  let tmp;
  before(async () => {
    // No demo here: its live feed would also match a "coffee" tracker and move the counts.
    server = await startServer();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'hark-import-'));
  });
  after(async () => {
    await server?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test('uploads an NDJSON file on Tracker Settings and the tracker counts the matching posts', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(server.url + '/setup');
    await page.getByRole('heading', { name: 'Set up Hark' }).waitFor();
    // Without a demo tracker there is no demo link.
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('link', { name: 'Explore the demo tracker' }).count(), 0);
    await page.getByLabel('Name').fill(ACCOUNT.name);
    await page.getByLabel('Email').fill(ACCOUNT.email);
    await page.getByLabel('Password').fill(ACCOUNT.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((u) => new URL(u).pathname === '/mytracks/hashtag', { timeout: 15_000 });

    // Create the tracker through the API with the session's cookies and CSRF token.
    const csrf = (await context.cookies()).find((c) => c.name === 'hark_csrf')?.value;
    assert.ok(csrf, 'hark_csrf cookie');
    const created = await page.request.post(`${server.url}/api/v1/trackers`, {
      headers: { 'X-CSRF-Token': csrf },
      data: {
        platforms: { twt: 1, ig: 0, yt: 0, fb: 0, tt: 0, news: 0, blogs: 0, forums: 0 },
        search: { rows: [{ type: '+', searches: ['coffee'] }] },
      },
    });
    assert.equal(created.status(), 201, await created.text());
    const tracker = await created.json();

    // Three valid twitter posts (two about coffee) and one line that is not JSON.
    const now = Date.now();
    const post = (id, text, ago) =>
      JSON.stringify({ platform: 'twitter', id, text, createdAt: now - ago, author: { username: 'ann', name: 'Ann' } });
    const file = path.join(tmp, 'posts.ndjson');
    writeFileSync(
      file,
      [post('1', 'great coffee today', 60_000), post('2', 'Coffee with friends', 120_000), post('3', 'tea is fine too', 180_000), '{not json'].join('\n') + '\n',
    );

    await page.goto(`${server.url}/edit/${tracker.hash}/${tracker.friendly}`);
    await page.getByRole('heading', { name: 'Tracker Settings' }).waitFor();
    const section = page.getByRole('region', { name: 'Import posts' });
    await section.waitFor();
    await section.scrollIntoViewIfNeeded();
    await section.getByLabel('File').setInputFiles(file);
    assert.equal(await section.getByLabel('Format').inputValue(), 'ndjson');
    await topShot(page, 'import-01-file-chosen');
    await section.getByRole('button', { name: 'Import' }).click();

    // Either the summary or the server's error shows; an error fails with its message.
    const result = section.getByTestId('import-result');
    const failure = section.getByRole('alert');
    await result.or(failure).first().waitFor({ timeout: 30_000 });
    if (await failure.count()) {
      await topShot(page, 'import-02-failed');
      assert.fail(`import refused: ${(await failure.allInnerTexts()).join(' | ')}`);
    }
    const summary = await result.innerText();
    assert.match(summary, /\b2 posts imported \(2 new\)/);
    assert.match(summary, /\b1 did not match this tracker's search/);
    assert.match(summary, /\b1 invalid line\b/);
    assert.match(summary, /4 lines read/);
    await result.getByRole('row', { name: /Line 4/ }).waitFor();
    await topShot(page, 'import-02-result');
    await section.screenshot({ path: path.join(screenshotDir, 'import-02-result-section.png') });

    // The tracker now holds the two matching posts.
    const total = await page.request.get(`${server.url}/api/v1/trackers/${tracker.hash}/total-posts`);
    assert.equal((await total.json()).count.posts, 2);

    await page.goto(`${server.url}/hashtag-tracking/posts/${tracker.hash}/${tracker.friendly}`);
    const count = page.getByTestId('post-count');
    await waitUntil(async () => (await count.innerText()).trim() === '2', { timeout: 15_000, what: 'sidebar post count 2' });
    await page.waitForLoadState('networkidle');
    await topShot(page, 'import-03-posts-page');

    // Custom sentiment keywords: "friends" is negative for this tracker; Save and Reanalyze applies
    // it to the stored posts.
    const bucketOf = async (id) => {
      const r = await page.request.get(`${server.url}/api/v1/trackers/${tracker.hash}/posts?days=30`);
      const items = (await r.json()).posts ?? [];
      return items.find((i) => i.post.id === id)?.sentimentBucket;
    };
    assert.notEqual(await bucketOf('2'), 'negative');
    await page.goto(`${server.url}/hashtag-tracking/sentiment/${tracker.hash}/${tracker.friendly}`);
    await page.getByRole('button', { name: 'Edit Sentiment Keywords' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Sentiment Keywords' });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Save and Reanalyze' }).isDisabled(), true);
    await dialog.getByLabel('Negative keyword 1', { exact: true }).fill('friends');
    await dialog.getByLabel('Negative keyword 1', { exact: true }).press('Tab');
    await dialog.screenshot({ path: path.join(screenshotDir, 'import-04-sentiment-keywords.png') });
    await dialog.getByRole('button', { name: 'Save and Reanalyze' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await waitUntil(async () => (await bucketOf('2')) === 'negative', { timeout: 20_000, what: 'post 2 re-analysed as negative' });
    // The lists come back when the modal opens again.
    await page.getByRole('button', { name: 'Edit Sentiment Keywords' }).click();
    assert.equal(await dialog.getByLabel('Negative keyword 1', { exact: true }).inputValue(), 'friends');
    await page.keyboard.press('Escape');

    assert.deepEqual(errors, []);
    await context.close();
  });
});

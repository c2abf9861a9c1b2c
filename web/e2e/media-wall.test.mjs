// End to end: the media wall against a real server — the demo tracker's wall as a grid (dark and
// light) and a slideshow; settings saved on the tracker and kept across a reload; moderation (a
// post arriving afterwards waits in the queue, approve one, reject one, the visibility dropdown);
// moderation through the moderation link in a signed-out browser, and the link refused once it is
// reset; the wall embedded in a plain page on another port, with no controls; bulk delete with Undo;
// the lock and upgrade modal of a plan without the media wall.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { api as apiAt, freePort, launchBrowser, ndjson, ownerWithTracker, shot, startServer, waitUntil } from './harness.mjs';

const MINUTE = 60_000;
let browser;
let server;
let host;
let hostHtml = '';

before(async () => {
  browser = await launchBrowser();
  server = await startServer({ demo: true });
  // The other site of the embed: one plain page on a port of its own.
  const port = await freePort();
  const srv = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(hostHtml);
  });
  await new Promise((resolve) => srv.listen(port, '127.0.0.1', resolve));
  host = { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => srv.close(r)) };
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await host?.close();
});

const api = (ctx, ...call) => apiAt(ctx, server.url, ...call);

/** Posts of the test's own tracker, each with a demo picture Hark serves itself. */
function mediaPosts(now, from, n, prefix = 'Latte art') {
  return Array.from({ length: n }, (_, i) => ({
    platform: 'twitter',
    id: String(from + i),
    text: `${prefix} ${from + i} #coffee`,
    createdAt: now - i * MINUTE - 30_000,
    author: { username: `barista${from + i}`, name: `Barista ${from + i}` },
    counts: { likes: i * 2, retweets: i, replies: 1 },
    media: [{ kind: 'photo', url: `/demo-media/photo/wall-${from + i}.svg` }],
  }));
}

/** API answers of 400 and above a page saw (other than those a test expects). */
function failedCalls(page) {
  const failed = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/v1/') && r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  return failed;
}

const cards = (scope) => scope.locator('[data-testid="wall-grid"] article[data-post-key]');
const cardKeys = (scope) => cards(scope).evaluateAll((els) => els.map((e) => e.getAttribute('data-post-key')));

describe('media wall', () => {
  /** The server's wall holds `n` public posts and the page shows them all (it says which if not). */
  async function expectWall(page, n) {
    const served = (await api(owner, 'GET', `/trackers/${hash}/media-wall`)).body.posts.map((p) => p.key);
    assert.equal(served.length, n, `served ${served}`);
    await waitUntil(async () => (await cards(page).count()) === n || null, { what: `${n} posts shown`, timeoutMs: 10_000 }).catch(async (e) => {
      throw new Error(`${e.message}: shown ${await cardKeys(page)}, served ${served}`);
    });
  }

  let owner;
  let demo;
  let hash;
  let friendly;
  let wallPath;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    ({ hash, friendly } = await ownerWithTracker(owner, server.url, { title: 'Coffee wall', term: 'coffee', posts: mediaPosts(Date.now(), 100, 8) }));
    wallPath = `${server.url}/hashtag-tracking/media-wall/${hash}/${friendly}`;
    demo = await waitUntil(
      async () => {
        const r = await api(owner, 'GET', '/demo');
        return r.status === 200 ? r.body : null;
      },
      { what: 'GET /api/v1/demo' },
    );
    // The demo's backfill has put posts with media on its wall.
    await waitUntil(
      async () => {
        const r = await api(owner, 'GET', `/trackers/${demo.hash}/media-wall`);
        return r.status === 200 && r.body.posts.length >= 12 ? r.body : null;
      },
      { what: 'demo posts with media', timeoutMs: 180_000 },
    );
  });

  after(async () => {
    await owner?.close();
  });

  test('the demo wall as a grid, dark and light, and as a slideshow', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const failed = failedCalls(page);
    const demoWall = `${server.url}/hashtag-tracking/media-wall/${demo.hash}/${demo.friendly}`;
    await page.goto(demoWall);
    const wall = page.getByTestId('media-wall');
    await cards(page).first().waitFor();
    assert.equal(await wall.getAttribute('data-theme'), 'dark');
    assert.equal(await wall.getAttribute('data-mode'), 'grid');
    assert.ok((await cards(page).count()) >= 12);
    // The pictures are Hark's own and load.
    await waitUntil(
      async () => (await page.locator('[data-testid="wall-grid"] img[data-stage="main"]').evaluateAll((imgs) => imgs.slice(0, 6).every((i) => i.complete && i.naturalWidth > 0))) || null,
      { what: 'the first pictures', timeoutMs: 15_000 },
    );
    // Every control of an administrator.
    const bar = page.getByRole('toolbar', { name: 'Media wall controls' });
    await bar.getByRole('searchbox', { name: 'Find a Post' }).waitFor();
    for (const name of ['Share Moderation', 'Settings', 'Full Screen', 'Embed']) await bar.getByRole('button', { name, exact: true }).waitFor();
    assert.equal(await bar.getByRole('button', { name: 'Settings' }).getAttribute('title'), 'Advanced Settings');
    assert.equal(await bar.getByRole('switch', { name: 'Media Wall Moderation' }).getAttribute('aria-checked'), 'false');
    await page.waitForTimeout(600);
    await shot(page, 'media-wall-01-grid-dark', { fullPage: false });

    // The search: trimmed words, a clear button.
    // The search also finds words in a post's author fields (the author's location is not on
    // the card): a word of the first card whose matches all show it on their cards.
    const firstText = (await cards(page).first().locator('p.line-clamp-4').textContent()) ?? '';
    let word = null;
    for (const w of new Set(firstText.split(/[^A-Za-z]+/).filter((w) => w.length >= 5))) {
      const r = await api(owner, 'GET', `/trackers/${demo.hash}/media-wall?search=${encodeURIComponent(w)}`);
      assert.equal(r.status, 200);
      const shows = (p) => [p.text, p.title ?? '', p.author.name, p.author.username].join(' ').toLowerCase().includes(w.toLowerCase());
      if (r.body.posts.length > 0 && r.body.posts.every(shows)) {
        word = w;
        break;
      }
    }
    assert.ok(word, `a word of "${firstText}" whose matches show it`);
    await bar.getByRole('searchbox', { name: 'Find a Post' }).fill(`  ${word}  `);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => new URL(u).searchParams.get('search') === word);
    await waitUntil(async () => (await cards(page).count()) > 0 && (await cards(page).evaluateAll((els, w) => els.every((e) => e.textContent.toLowerCase().includes(w.toLowerCase())), word)), { what: `posts with "${word}"`, timeoutMs: 30_000 });
    await bar.getByRole('button', { name: 'Clear search' }).click();
    await page.waitForURL((u) => !new URL(u).searchParams.has('search'));

    // Light theme for this view only (the saved look stays dark).
    await page.goto(`${demoWall}?theme=light`);
    await cards(page).first().waitFor();
    assert.equal(await wall.getAttribute('data-theme'), 'light');
    await page.waitForTimeout(600);
    await shot(page, 'media-wall-02-grid-light', { fullPage: false });

    // The slideshow: one post at a time, Next and Prev, the arrow keys.
    await page.goto(`${demoWall}?displayMode=slideshow`);
    const show = page.getByTestId('wall-slideshow');
    await show.waitFor();
    const slideKey = () => show.locator('[aria-roledescription="slide"]').getAttribute('data-post-key');
    const first = await slideKey();
    assert.match(await page.getByTestId('slide-position').textContent(), /^1 \/ \d+$/);
    await page.getByRole('button', { name: 'Next post' }).click();
    await waitUntil(async () => (await slideKey()) !== first || null, { what: 'the next slide' });
    assert.match(await page.getByTestId('slide-position').textContent(), /^2 \/ /);
    await page.getByRole('button', { name: 'Pause slideshow' }).click();
    await page.locator('body').press('ArrowLeft');
    await waitUntil(async () => (await slideKey()) === first || null, { what: 'back to the first slide' });
    await page.locator('body').press('ArrowRight');
    assert.match(await page.getByTestId('slide-position').textContent(), /^2 \/ /);
    await page.waitForTimeout(700);
    await shot(page, 'media-wall-03-slideshow', { fullPage: false });

    // Full screen: the wall itself, or the browser's word that it cannot.
    let alerted = null;
    page.once('dialog', async (d) => {
      alerted = d.message();
      await d.dismiss();
    });
    await page.getByRole('button', { name: 'Full Screen' }).click();
    await waitUntil(async () => alerted ?? ((await page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid'))) || null), { what: 'full screen' });
    if (alerted) assert.equal(alerted, 'Your browser does not support full screen mode.');
    else {
      await page.getByRole('button', { name: 'Exit Full Screen' }).click();
      await waitUntil(async () => (await page.evaluate(() => document.fullscreenElement === null)) || null, { what: 'full screen to end' });
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(failed, []);
    await page.close();
  });

  test('settings are saved on the tracker and survive a reload', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(wallPath);
    await cards(page).first().waitFor();
    assert.equal(await cards(page).count(), 8);
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Advanced Settings' });
    await dialog.getByLabel('Update frequency (seconds)').fill('5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter a whole number of seconds from 20 to 120.').waitFor();
    await dialog.getByLabel('Update frequency (seconds)').fill('45');
    await dialog.getByLabel('Number of posts').fill('6');
    await dialog.getByText('Slideshow', { exact: true }).click();
    await dialog.getByText('Light', { exact: true }).click();
    await dialog.getByRole('checkbox', { name: 'Show post text' }).uncheck();
    await dialog.getByLabel('Exclude users').fill('@Barista107, barista106');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const saved = await api(owner, 'GET', `/trackers/${hash}/media-wall`);
    assert.deepEqual(saved.body.settings, {
      displayMode: 'slideshow',
      theme: 'light',
      displayText: false,
      updateFrequency: 45,
      postCount: 6,
      sortBy: 'date',
      excludeRetweets: false,
      excludeUsers: ['barista107', 'barista106'],
    });
    assert.equal(saved.body.posts.length, 6);

    await page.reload();
    const wall = page.getByTestId('media-wall');
    await page.getByTestId('wall-slideshow').waitFor();
    assert.equal(await wall.getAttribute('data-theme'), 'light');
    assert.equal(await wall.getAttribute('data-mode'), 'slideshow');
    assert.match(await page.getByTestId('slide-position').textContent(), /^1 \/ 6$/);
    // The dialog opens on what was saved.
    await page.getByRole('button', { name: 'Settings' }).click();
    assert.equal(await dialog.getByLabel('Number of posts').inputValue(), '6');
    assert.equal(await dialog.getByLabel('Exclude users').inputValue(), 'barista107, barista106');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Back to the defaults for the tests that follow.
    const reset = await api(owner, 'PUT', `/trackers/${hash}/media-wall/settings`, {
      displayMode: 'grid',
      theme: 'dark',
      displayText: true,
      updateFrequency: 30,
      postCount: 50,
      sortBy: 'date',
      excludeRetweets: false,
      excludeUsers: [],
    });
    assert.equal(reset.status, 200);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('moderation: the queue, approve and reject, the visibility dropdown', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${wallPath}?visibility=0`);
    const bar = page.getByRole('toolbar', { name: 'Media wall controls' });
    const visibility = bar.getByRole('combobox', { name: 'Post visibility' });
    assert.equal(await visibility.inputValue(), '0');
    await page.getByTestId('wall-empty').getByText('No hidden posts.').waitFor();

    // Turning moderation on saves it, refreshes the wall and goes back to Public.
    const toggle = bar.getByRole('switch', { name: 'Media Wall Moderation' });
    await toggle.click();
    await waitUntil(async () => (await toggle.getAttribute('aria-checked')) === 'true' || null, { what: 'moderation on' });
    await page.waitForURL((u) => !new URL(u).searchParams.has('visibility'));
    await waitUntil(async () => (await visibility.inputValue()) === '1' || null, { what: 'visibility back to Public' });
    assert.equal((await api(owner, 'GET', `/trackers/${hash}/media-wall`)).body.moderation, true);
    const queue = page.getByTestId('wall-queue');
    await queue.getByText('No posts are waiting.', { exact: false }).waitFor();

    // Posts arriving afterwards wait in the queue.
    const imp = await api(owner, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson(mediaPosts(Date.now(), 300, 3, 'Fresh cortado')));
    assert.equal(imp.body.imported, 3);
    await page.reload();
    await waitUntil(async () => (await queue.getByTestId('queue-total').textContent()) === '3' || null, { what: 'three posts waiting', timeoutMs: 15_000 });
    assert.ok(!(await cardKeys(page)).some((k) => /;30[0-2]$/.test(k)), 'waiting posts are not on the wall');
    await page.waitForTimeout(600);
    await shot(page, 'media-wall-04-queue', { fullPage: false });

    // Approve one: it joins the wall. Reject one: it is hidden.
    await queue.getByRole('button', { name: 'Approve post by @barista300' }).click();
    await page.getByRole('article', { name: 'Post by @barista300' }).waitFor();
    await queue.getByRole('button', { name: 'Reject post by @barista301' }).click();
    await waitUntil(async () => (await queue.getByTestId('queue-total').textContent()) === '1' || null, { what: 'one post left waiting' });
    assert.equal(await page.getByRole('article', { name: 'Post by @barista301' }).count(), 0);

    // Only You: the hidden post; All Posts: hidden and public together.
    await visibility.selectOption({ label: 'Only You' });
    await page.waitForURL((u) => new URL(u).searchParams.get('visibility') === '0');
    await page.getByRole('article', { name: 'Post by @barista301' }).waitFor();
    assert.equal(await cards(page).count(), 1);
    await visibility.selectOption({ label: 'All Posts' });
    await page.waitForURL((u) => new URL(u).searchParams.get('visibility') === '-1');
    await waitUntil(async () => (await cards(page).count()) === 10 || null, { what: 'all ten posts' });
    assert.equal(await page.getByRole('article', { name: 'Post by @barista301' }).getAttribute('data-visibility'), '0');

    // Show it again from the wall, select it with the last one waiting and approve in bulk.
    await page.getByRole('button', { name: 'Show post by @barista301' }).click();
    await waitUntil(async () => (await page.getByRole('article', { name: 'Post by @barista301' }).getAttribute('data-visibility')) === '1' || null, { what: 'the post shown' });
    await queue.getByRole('checkbox', { name: 'Select waiting post by @barista302' }).check();
    await queue.getByRole('button', { name: 'Approve selected (1)' }).click();
    await waitUntil(async () => (await queue.getByTestId('queue-total').textContent()) === '0' || null, { what: 'the queue emptied' });

    // Turning moderation off clears the visibility filter too.
    await toggle.click();
    await waitUntil(async () => (await toggle.getAttribute('aria-checked')) === 'false' || null, { what: 'moderation off' });
    await page.waitForURL((u) => !new URL(u).searchParams.has('visibility'));
    await queue.waitFor({ state: 'detached' });
    await expectWall(page, 11);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('moderation through the moderation link, signed out; a reset link is refused', async () => {
    const page = await owner.newPage();
    await page.goto(wallPath);
    await cards(page).first().waitFor();
    await page.getByRole('button', { name: 'Share Moderation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share Moderation' });
    const linkField = dialog.getByLabel('Moderation link');
    await linkField.waitFor();
    const link = await linkField.inputValue();
    const linkUrl = new URL(link);
    assert.equal(linkUrl.pathname, `/hashtag-tracking/media-wall/${hash}/${friendly}`);
    assert.ok(linkUrl.searchParams.get('moderationKey'));
    await dialog.getByText('Be careful who you share this with!').waitFor();
    await dialog.getByText('Anyone with this link can moderate this media wall without signing in.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied!' }).waitFor();
    await dialog.getByRole('button', { name: 'Copy', exact: true }).waitFor({ timeout: 4000 });
    await shot(page, 'media-wall-05-share-moderation', { fullPage: false });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // A signed-out browser opens the link: the wall with its moderation, nothing to manage.
    const anon = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const visitor = await anon.newPage();
    const errors = [];
    visitor.on('pageerror', (e) => errors.push(e.message));
    await visitor.goto(link);
    await cards(visitor).first().waitFor();
    const bar = visitor.getByRole('toolbar', { name: 'Media wall controls' });
    await bar.getByRole('combobox', { name: 'Post visibility' }).waitFor();
    const toggle = bar.getByRole('switch', { name: 'Media Wall Moderation' });
    await toggle.waitFor();
    for (const name of ['Settings', 'Share Moderation', 'Embed']) assert.equal(await bar.getByRole('button', { name, exact: true }).count(), 0, name);
    await bar.getByRole('button', { name: 'Full Screen' }).waitFor();
    // The key opens the wall only: the sidebar holds the Media Wall entry alone, the header nothing to manage.
    const nav = visitor.getByRole('complementary', { name: 'Tracker navigation' });
    await nav.getByRole('link', { name: 'Media Wall' }).waitFor();
    for (const name of ['Dashboard', 'Posts', 'Influencers', 'Trending Topics', 'Sentiment', 'Tracker Settings', 'Notification Settings', 'Go to Tracker List']) {
      assert.equal(await nav.getByRole('link', { name, exact: true }).count(), 0, name);
    }
    assert.deepEqual(await nav.getByRole('link').allTextContents(), ['Media Wall']);
    for (const name of ['Share', 'Historical Data', 'Team', 'Customize']) assert.equal(await visitor.getByRole('button', { name, exact: true }).count(), 0, name);
    await visitor.getByText('MODERATION LINK', { exact: true }).waitFor();
    await shot(visitor, 'media-wall-07-moderation-link-visitor', { fullPage: false });
    // Another page under the key goes back to the wall, keeping the key.
    await visitor.goto(link.replace('/hashtag-tracking/media-wall/', '/hashtag-tracking/posts/'));
    await visitor.waitForURL((u) => new URL(u).pathname === linkUrl.pathname && new URL(u).searchParams.get('moderationKey') === linkUrl.searchParams.get('moderationKey'));
    await cards(visitor).first().waitFor();

    // The visitor hides a post, turns moderation on and off, and sees no Delete for a selection.
    await visitor.getByRole('button', { name: 'Hide post by @barista100' }).click();
    await waitUntil(async () => (await visitor.getByRole('article', { name: 'Post by @barista100' }).count()) === 0 || null, { what: 'the post hidden' });
    const hidden = await waitUntil(async () => {
      const r = await api(owner, 'GET', `/trackers/${hash}/media-wall?visibility=0`);
      return r.body.posts.length ? r.body.posts : null;
    }, { what: 'the hidden post saved' });
    assert.deepEqual(hidden.map((p) => p.author.username), ['barista100']);
    await toggle.click();
    await waitUntil(async () => (await toggle.getAttribute('aria-checked')) === 'true' || null, { what: 'moderation on by link' });
    await visitor.getByTestId('wall-queue').waitFor();
    await toggle.click();
    await waitUntil(async () => (await toggle.getAttribute('aria-checked')) === 'false' || null, { what: 'moderation off by link' });
    await visitor.getByRole('checkbox', { name: 'Select post by @barista101' }).check();
    const selected = visitor.getByRole('region', { name: 'Selected posts' });
    await selected.getByRole('button', { name: 'Show' }).waitFor();
    assert.equal(await selected.getByRole('button', { name: 'Delete' }).count(), 0);
    // Back on the wall for the tests that follow.
    await visitor.getByRole('combobox', { name: 'Post visibility' }).selectOption({ label: 'Only You' });
    await visitor.getByRole('button', { name: 'Show post by @barista100' }).click();
    await waitUntil(async () => (await api(owner, 'GET', `/trackers/${hash}/media-wall?visibility=0`)).body.posts.length === 0 || null, { what: 'the post shown again' });

    // The link is reset: the old one is refused, the new one works.
    await page.getByRole('button', { name: 'Share Moderation' }).click();
    await linkField.waitFor();
    await dialog.getByRole('button', { name: 'Reset link' }).click();
    const step = dialog.getByRole('group', { name: 'Reset the link' });
    await step.getByText('The current link stops working', { exact: false }).waitFor();
    await step.getByRole('button', { name: 'Reset link' }).click();
    await waitUntil(async () => ((await linkField.inputValue()) !== link ? true : null), { what: 'a new link' });
    const fresh = await linkField.inputValue();
    await page.keyboard.press('Escape');

    await visitor.goto(link);
    await visitor.getByRole('heading', { name: 'This moderation link is no longer valid.' }).waitFor();
    assert.equal(await visitor.getByTestId('media-wall').count(), 0);
    await visitor.goto(fresh);
    await cards(visitor).first().waitFor();
    await visitor.getByRole('switch', { name: 'Media Wall Moderation' }).waitFor();
    assert.deepEqual(errors, []);
    await anon.close();
    await page.close();
  });

  test('the wall embedded on another site shows no controls', async () => {
    const page = await owner.newPage();
    await page.goto(wallPath);
    await cards(page).first().waitFor();
    await page.getByRole('button', { name: 'Embed', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Embed the media wall' });
    const code = await dialog.getByLabel('Embed code').inputValue();
    assert.match(code, /height="100%"/);
    const embedUrl = new URL(await dialog.getByLabel('Embed address').inputValue());
    assert.equal(embedUrl.pathname, `/hashtag-tracking/media-wall/${hash}/${friendly}`);
    assert.equal(embedUrl.searchParams.get('embed'), '1');
    await page.keyboard.press('Escape');
    await page.close();

    // The iframe fills a box of the host page (its height is 100% of it).
    hostHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Coffee Fest</title>
<style>body{margin:0;font-family:Georgia,serif;background:#f6f1e9;color:#3b2f2a}header{padding:16px 28px;background:#3b2f2a;color:#f6f1e9}
.screen{height:760px;margin:20px 28px;border-radius:10px;overflow:hidden;box-shadow:0 2px 8px rgba(0,0,0,.2)}iframe{border:0;display:block}</style></head>
<body><header><h1>Coffee Fest — live from the floor</h1></header><div class="screen">${code}</div></body></html>`;
    const anon = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const visitor = await anon.newPage();
    const errors = [];
    visitor.on('pageerror', (e) => errors.push(e.message));
    await visitor.goto(host.url);
    const frame = visitor.frameLocator('iframe[src*="/hashtag-tracking/media-wall/"]');
    await cards(frame).first().waitFor();
    assert.equal(await cards(frame).count(), 11);
    assert.equal(await frame.getByTestId('media-wall').getAttribute('data-theme'), 'dark');
    assert.equal(await frame.getByRole('toolbar').count(), 0);
    assert.equal(await frame.getByRole('button').count(), 0);
    assert.equal(await frame.getByRole('checkbox').count(), 0);
    assert.equal(await frame.getByRole('link', { name: 'Sign in' }).count(), 0);
    assert.equal(await frame.getByRole('complementary', { name: /^Tracker navigation/ }).count(), 0);
    // The title opens the full wall (no embed parameters) in a new tab.
    const title = frame.getByRole('heading', { level: 1 }).getByRole('link', { name: /Coffee wall/ });
    assert.equal(await title.getAttribute('target'), '_blank');
    const full = new URL(await title.getAttribute('href'));
    assert.equal(full.pathname, `/hashtag-tracking/media-wall/${hash}/${friendly}`);
    assert.equal(full.searchParams.get('embedKey'), null);
    const box = await visitor.locator('iframe').boundingBox();
    assert.ok(box && box.height > 700, `the frame fills its box (${box?.height})`);
    await visitor.waitForTimeout(800);
    await shot(visitor, 'media-wall-06-embed', { fullPage: false });
    assert.deepEqual(errors, []);
    await anon.close();
  });

  test('bulk delete from the wall, with Undo', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(wallPath);
    await cards(page).first().waitFor();
    await expectWall(page, 11);
    const before = await cardKeys(page);
    await page.getByRole('checkbox', { name: 'Select post by @barista104' }).check();
    await page.getByRole('checkbox', { name: 'Select post by @barista105' }).check();
    const selected = page.getByRole('region', { name: 'Selected posts' });
    await selected.getByText('2 selected').waitFor();
    await selected.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete posts' });
    await dialog.getByText('Delete 2 selected post(s)', { exact: false }).waitFor();
    assert.equal(await dialog.getAttribute('data-modal'), 'mediaWallBulkDelete');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const notice = page.getByTestId('notice');
    await notice.getByText('Successfully deleted 2 post(s).').waitFor();
    assert.equal(await cards(page).count(), 9);
    assert.equal((await api(owner, 'GET', `/trackers/${hash}/media-wall`)).body.posts.length, 9);

    await notice.getByRole('button', { name: 'Undo' }).click();
    await waitUntil(async () => (await cards(page).count()) === 11 || null, { what: 'the posts back' });
    assert.deepEqual(await cardKeys(page), before);
    // The wall shows them back at once; the server's undo may still be on its way.
    await waitUntil(async () => (await api(owner, 'GET', `/trackers/${hash}/media-wall`)).body.posts.length === 11 || null, { what: 'the undo saved', timeoutMs: 10_000 });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a plan without the media wall: the lock and the upgrade modal', async () => {
    // An account from the CLI, put on plan 15 (no media wall, no trial) by the administrator.
    const email = 'lowplan@example.com';
    const env = { ...process.env };
    if (!server.databaseUrl.startsWith('sqlite://')) env.HARK_DATABASE_URL = server.databaseUrl;
    execFileSync(server.bin, ['user', 'add', '--data-dir', server.dataDir, '--email', email, '--name', 'Lou Lowplan'], { input: 'correct horse battery\n', env });
    const found = await api(owner, 'GET', `/admin/users?search=${encodeURIComponent(email)}`);
    const id = found.body.accounts.find((a) => a.email === email).id;
    const set = await api(owner, 'PATCH', `/admin/users/${id}`, { plan: 15 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    assert.equal((await api(ctx, 'POST', '/auth/login', { email, password: 'correct horse battery' })).status, 200);
    assert.equal((await api(ctx, 'GET', '/me')).body.features.mediaWall, false);
    const t = await api(ctx, 'POST', '/trackers', { platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['matcha'] }] } });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    const refused = await api(ctx, 'GET', `/trackers/${t.body.hash}/media-wall`);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'upgrade_required');

    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/hashtag-tracking/media-wall/${t.body.hash}/${t.body.friendly}`);
    const dialog = page.getByRole('dialog', { name: 'The media wall is not part of your plan' });
    await dialog.waitFor();
    assert.equal(await dialog.getAttribute('data-modal'), 'mediaWallUpgrade');
    assert.equal(await dialog.getByRole('link', { name: 'Upgrade your account to unlock' }).getAttribute('href'), '/pricing');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('wall-locked').waitFor();
    await shot(page, 'media-wall-08-locked', { fullPage: false });
    const bar = page.getByRole('toolbar', { name: 'Media wall controls' });
    await bar.getByRole('button', { name: 'Upgrade to unlock' }).click();
    await dialog.waitFor();
    assert.deepEqual(errors, []);
    await ctx.close();
  });
});

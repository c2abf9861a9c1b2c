// End to end: a new tracker's preview against a fake of the X API v2 on 127.0.0.1.
// (a) creating a tracker opens its dashboard in preview mode and the real-time preview streams the
//     sample into it, batch after batch, until preview mode ends;
// (b) a search that finds nothing opens the no-data modal, and searching again from it replaces
//     the tracker with a new preview;
// plus the high-volume warning, the 4-step flow without websockets, and the historical data modal.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { api as apiAt, launchBrowser, setupInBrowser, shot, startServer, waitUntil } from './harness.mjs';

const ACCOUNT = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const TOKEN = 'e2e-bearer-token';
const TWEETS = 30;
/** Pages are small and slow so the sample arrives over several flushes. */
const PAGE = 5;
const PAGE_DELAY_MS = 4000;
/** The fake's count for this word is above the high-volume threshold (500,000). */
const VIRAL = 'viral';

let server;
let browser;
let fake;
let fakeUrl;

function startFakeX() {
  const now = Date.now();
  const tweets = [];
  for (let i = 0; i < TWEETS; i++) {
    tweets.push({
      id: String(1_800_000_000_000_000_000n + BigInt(i)),
      text: `${i % 2 ? 'Latte art' : 'Espresso shot'} number ${i + 1} #coffee ${i % 3 === 0 ? 'viral' : ''}`,
      author_id: String(100 + (i % 4)),
      created_at: new Date(now - (TWEETS - i) * 40 * 60_000).toISOString(),
      lang: 'en',
      public_metrics: { retweet_count: i % 3, reply_count: 1, like_count: i, quote_count: 0, impression_count: 100 + i },
      edit_history_tweet_ids: [],
    });
  }
  tweets.reverse();
  const users = [0, 1, 2, 3].map((i) => ({
    id: String(100 + i), name: `Barista ${i}`, username: `barista${i}`, verified: false,
    public_metrics: { followers_count: 1000 * (i + 1), following_count: 10, tweet_count: 50, listed_count: 1 },
  }));
  const wordOf = (q) => (q || '').split(/\s+/)[0].replace(/[#()]/g, '').toLowerCase();
  const srv = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
    const word = wordOf(url.searchParams.get('query'));
    const from = Date.parse(url.searchParams.get('start_time') || new Date(now - 86_400_000).toISOString());
    const to = Date.parse(url.searchParams.get('end_time') || new Date(Date.now() + 60_000).toISOString());
    let hits = tweets.filter((t) => t.text.toLowerCase().includes(word) && Date.parse(t.created_at) >= from && Date.parse(t.created_at) < to);
    if (url.pathname === '/2/tweets/counts/recent') {
      return send(200, { data: [], meta: { total_tweet_count: word === VIRAL ? 900_000 : hits.length } });
    }
    if (url.pathname !== '/2/tweets/search/recent') return send(404, { title: 'Not Found Error', type: 'about:blank', status: 404, detail: 'Not found' });
    const since = url.searchParams.get('since_id');
    const below = url.searchParams.get('next_token');
    if (since) hits = hits.filter((t) => BigInt(t.id) > BigInt(since));
    if (below) hits = hits.filter((t) => BigInt(t.id) < BigInt(below));
    await new Promise((r) => setTimeout(r, PAGE_DELAY_MS));
    const page = hits.slice(0, Math.min(PAGE, Number(url.searchParams.get('max_results') || PAGE)));
    if (page.length === 0) return send(200, { meta: { result_count: 0 } });
    const meta = { newest_id: page[0].id, oldest_id: page[page.length - 1].id, result_count: page.length };
    if (hits.length > page.length) meta.next_token = page[page.length - 1].id;
    send(200, { data: page, includes: { users }, meta });
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

/** Matching tweets of the last two weeks for a word, as the fake holds them. */
const expected = (word) => Array.from({ length: TWEETS }, (_, i) => `${i % 2 ? 'Latte art' : 'Espresso shot'} ${i % 3 === 0 ? 'viral' : ''}`)
  .filter((t) => t.toLowerCase().includes(word)).length;

let context;
let page;

const api = (method, path, body) => apiAt(context, server.url, method, path, body);

async function totalPosts(hash) {
  return (await api('GET', `/trackers/${hash}/total-posts?days=14`)).body?.count?.posts ?? -1;
}

async function createTracker(term) {
  await page.goto(server.url + '/new/ht/step1');
  await page.getByRole('textbox', { name: 'Row 1 term 1' }).fill(term);
  await page.getByRole('checkbox', { name: 'Twitter' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL((u) => /^\/hashtag-tracking\/dashboard\//.test(new URL(u).pathname));
  const [, , , hash, friendly] = new URL(page.url()).pathname.split('/');
  return { hash, friendly };
}

before(async () => {
  fake = await startFakeX();
  fakeUrl = `http://127.0.0.1:${fake.address().port}`;
  server = await startServer();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await setupInBrowser(page, server.url, ACCOUNT);
  assert.ok((await context.cookies()).some((c) => c.name === 'hark_csrf'), 'hark_csrf cookie');
  const r = await api('PUT', '/admin/connectors/twitter', { enabled: true, baseUrl: fakeUrl, values: { bearer_token: TOKEN } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  fake?.close();
});

test('a new tracker’s real-time preview streams posts into its dashboard', async () => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { hash } = await createTracker('espresso');
  const want = expected('espresso');
  const preview = page.getByTestId('preview-mode');
  await preview.waitFor();
  await page.getByText('Collecting a sample of posts for your new tracker.', { exact: false }).waitFor();

  // The first batch lands while the sample is still being fetched.
  const list = page.getByTestId('preview-posts');
  await list.waitFor({ timeout: 30_000 });
  const first = await list.locator('[data-post-id]').count();
  assert.ok(first > 0 && first < want, `a first batch of ${first} of ${want}`);
  assert.equal(await page.locator('[data-preview-phase]').getAttribute('data-preview-phase'), 'streaming');
  await page.locator('[data-panel="topStats"] [data-stat="Posts"]').waitFor();
  await shot(page, 'preview-01-in-progress', { fullPage: false });
  const ids = await list.locator('[data-post-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-post-id')));
  assert.deepEqual(ids, [...ids].sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : -1)), 'newest first');

  // The end: preview mode goes off, the completion notice shows and the dashboard holds the sample.
  await page.getByText(/^Preview complete: \d+ posts from the last 2 weeks\./).waitFor({ timeout: 60_000 });
  await preview.waitFor({ state: 'detached' });
  assert.equal((await api('GET', `/trackers/${hash}`)).body.isPreviewMode, false);
  assert.equal(await totalPosts(hash), want, 'each sampled post stored once');
  await waitUntil(async () => ((await page.locator('[data-panel="topStats"] [data-stat="Posts"]').textContent()) === String(want) ? true : null), {
    timeoutMs: 20_000,
    what: 'the dashboard counting the sample',
  });
  await shot(page, 'preview-02-complete', { fullPage: false });
  assert.deepEqual(errors, []);
});

test('a search that finds nothing opens the no-data modal; searching again starts a new preview', async () => {
  const { hash } = await createTracker('zzzunheardof');
  const modal = page.locator('[data-modal="noDataFound"]');
  await modal.getByText('Ruh roh, no data found. Try again?').waitFor({ timeout: 60_000 });
  await modal.getByText('New trackers contain a sample of post from the last 2 weeks, but this search term returned no results.').waitFor();
  const search = modal.getByRole('button', { name: 'Search' });
  assert.equal(await search.isDisabled(), true, 'nothing typed yet');
  await modal.getByRole('textbox', { name: 'Search term' }).fill('latte');
  assert.equal(await search.isEnabled(), true);
  await shot(page, 'preview-03-no-data', { fullPage: false });
  await search.click();
  await page.waitForURL((u) => {
    const p = new URL(u).pathname;
    return p.startsWith('/hashtag-tracking/dashboard/') && !p.includes(hash);
  });
  const [, , , newHash] = new URL(page.url()).pathname.split('/');
  assert.equal((await api('GET', `/trackers/${hash}`)).status, 404, 'the empty tracker was deleted');
  await page.getByTestId('preview-posts').waitFor({ timeout: 30_000 });
  await page.getByText(/^Preview complete: \d+ posts/).waitFor({ timeout: 60_000 });
  assert.equal(await totalPosts(newHash), expected('latte'));
});

test('a high-volume term warns; editing the keywords deletes it and returns to the form', async () => {
  const { hash } = await createTracker(VIRAL);
  const modal = page.locator('[data-modal="highVolumeWarning"]');
  await modal.getByText('This keyword has extremely high volume and will consume your data limits very quickly...').waitFor({ timeout: 30_000 });
  await modal.getByText('900,000').waitFor();
  await shot(page, 'preview-04-high-volume', { fullPage: false });
  await modal.getByRole('button', { name: 'Edit keywords' }).click();
  await page.waitForURL((u) => new URL(u).pathname === '/new/ht/step1');
  assert.equal(await page.getByRole('textbox', { name: 'Row 1 term 1' }).inputValue(), VIRAL);
  assert.equal((await api('GET', `/trackers/${hash}`)).status, 404);
});

test('without websockets the 4-step preview runs on the form', async () => {
  const p2 = await context.newPage();
  await p2.addInitScript(() => {
    delete window.WebSocket;
  });
  const errors = [];
  p2.on('pageerror', (e) => errors.push(e.message));
  await p2.goto(server.url + '/new/ht/step1');
  await p2.getByRole('textbox', { name: 'Row 1 term 1' }).fill('shot');
  await p2.getByRole('checkbox', { name: 'Twitter' }).check();
  await p2.getByRole('button', { name: 'Save' }).click();
  await p2.getByText('Step 2 of 4: Collecting a sample of posts').waitFor();
  await p2.waitForURL((u) => /^\/hashtag-tracking\/dashboard\//.test(new URL(u).pathname), { timeout: 60_000 });
  const [, , , hash] = new URL(p2.url()).pathname.split('/');
  await p2.getByText(/^Preview complete: \d+ posts/).waitFor();
  assert.equal(await p2.getByTestId('preview-mode').count(), 0);
  assert.equal(await totalPosts(hash), expected('shot'));
  assert.deepEqual(errors, []);
  await p2.close();
});

test('historical data: backfill step 1 starts a backfill whose progress shows; action=historical-data opens it', async () => {
  const list = await api('GET', '/trackers');
  const t = list.body.trackers.find((x) => x.friendly.startsWith('espresso'));
  await page.goto(`${server.url}/hashtag-tracking/dashboard/${t.hash}/${t.friendly}?action=historical-data`);
  const modal = page.locator('[data-modal="backfillStep1"]');
  await modal.getByRole('button', { name: 'Start backfill' }).waitFor();
  await modal.getByRole('button', { name: 'Estimate volume' }).click();
  await modal.getByText(/^About \d+ posts\.$/).waitFor();
  await shot(page, 'preview-05-historical-data', { fullPage: false });
  await modal.getByRole('button', { name: 'Start backfill' }).click();
  await modal.getByText(/^Backfill (in Progress|finished): \d+ posts collected/).waitFor();
  await shot(page, 'preview-06-backfill-progress', { fullPage: false });
  await page.keyboard.press('Escape');
  await waitUntil(async () => ((await api('GET', `/trackers/${t.hash}/collection`)).body.backfillInProgress ? null : true), {
    timeoutMs: 60_000,
    what: 'the backfill to finish',
  });
  await page.locator('#main').getByRole('button', { name: 'Historical Data' }).waitFor({ timeout: 20_000 });
});

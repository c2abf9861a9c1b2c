// End to end: an administrator sets up the X connector against a fake of the X API v2 recent
// search on 127.0.0.1, checks it, creates a tracker, and watches the scheduler fill it: the
// Collection section of Tracker Settings and the dashboard show the collected posts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { launchBrowser, setupInBrowser, shot, startServer, waitUntil } from './harness.mjs';

const ACCOUNT = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const TOKEN = 'e2e-bearer-token';
const TWEETS = 30;
const OLD_TWEETS = 10;

let server;
let browser;
let fake;
let fakeUrl;
const requests = [];

/** The X recent search as documented: newest first, meta with newest_id/next_token, since_id. */
function startFakeX() {
  const now = Date.now();
  const tweets = Array.from({ length: TWEETS }, (_, i) => ({
    id: String(1_800_000_000_000_000_000n + BigInt(i)),
    text: `Morning espresso number ${i + 1} #coffee`,
    author_id: String(100 + (i % 4)),
    created_at: new Date(now - (TWEETS - i) * 5 * 60_000).toISOString(),
    lang: 'en',
    public_metrics: { retweet_count: i % 3, reply_count: 1, like_count: i, quote_count: 0, impression_count: 100 + i },
    edit_history_tweet_ids: [],
  })).reverse();
  // Older posts: before the new tracker's two-week preview sample, reached only by a backfill.
  const DAY = 86_400_000;
  for (let i = 0; i < OLD_TWEETS; i++) {
    tweets.push({
      id: String(1_700_000_000_000_000_000n + BigInt(i)),
      text: `Old espresso memory ${i + 1}`,
      author_id: '100',
      created_at: new Date(now - 20 * DAY - i * 3_600_000).toISOString(),
      lang: 'en',
      public_metrics: { retweet_count: 0, reply_count: 0, like_count: 1, quote_count: 0, impression_count: 10 },
      edit_history_tweet_ids: [],
    });
  }
  const users = [0, 1, 2, 3].map((i) => ({
    id: String(100 + i), name: `Barista ${i}`, username: `barista${i}`, verified: false,
    public_metrics: { followers_count: 1000 * (i + 1), following_count: 10, tweet_count: 50, listed_count: 1 },
  }));
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    requests.push(url.searchParams);
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/2/tweets/counts/recent') {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
      const word = (url.searchParams.get('query') || '').split(/\s+/)[0].toLowerCase();
      const from = Date.parse(url.searchParams.get('start_time') || new Date(Date.now() - 7 * 86_400_000).toISOString());
      const to = Date.parse(url.searchParams.get('end_time') || new Date().toISOString());
      const n = tweets.filter((t) => t.text.toLowerCase().includes(word) && Date.parse(t.created_at) >= from && Date.parse(t.created_at) < to).length;
      return send(200, { data: [], meta: { total_tweet_count: n } });
    }
    if (url.pathname !== '/2/tweets/search/recent') return send(404, { title: 'Not Found Error', type: 'about:blank', status: 404, detail: 'Not found' });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
    const since = url.searchParams.get('since_id');
    const below = url.searchParams.get('next_token');
    const max = Number(url.searchParams.get('max_results') || 10);
    const word = (url.searchParams.get('query') || '').split(/\s+/)[0].replace(/^#/, '').toLowerCase();
    let hits = tweets.filter((t) => t.text.toLowerCase().includes(word));
    if (since) hits = hits.filter((t) => BigInt(t.id) > BigInt(since));
    if (below) hits = hits.filter((t) => BigInt(t.id) < BigInt(below));
    // Without a window the fake answers for the last day only.
    const from = Date.parse(url.searchParams.get('start_time') || new Date(Date.now() - 86_400_000).toISOString());
    const to = Date.parse(url.searchParams.get('end_time') || new Date(Date.now() + 60_000).toISOString());
    hits = hits.filter((t) => Date.parse(t.created_at) >= from && Date.parse(t.created_at) < to);
    const page = hits.slice(0, max);
    if (page.length === 0) return send(200, { meta: { result_count: 0 } });
    const meta = { newest_id: page[0].id, oldest_id: page[page.length - 1].id, result_count: page.length };
    if (hits.length > max) meta.next_token = page[page.length - 1].id;
    send(200, { data: page, includes: { users }, meta });
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

before(async () => {
  fake = await startFakeX();
  fakeUrl = `http://127.0.0.1:${fake.address().port}`;
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  fake?.close();
});

test('connector set up in the browser collects a new tracker’s posts', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await setupInBrowser(page, server.url, ACCOUNT);

  // Connectors, from the account menu.
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Connectors' }).click();
  await page.waitForURL((u) => new URL(u).pathname === '/settings/connectors');
  const card = page.getByRole('region', { name: 'X (Twitter) API v2' });
  await card.getByText('Not configured', { exact: true }).waitFor();
  await shot(page, 'collection-01-connectors');

  await card.getByRole('checkbox', { name: 'Collect from this source' }).check();
  await card.getByLabel('Base URL').fill(fakeUrl);
  await card.getByLabel('Bearer token', { exact: true }).fill('wrong-token');
  await card.getByRole('button', { name: 'Save' }).click();
  await card.getByText('Not checked yet', { exact: true }).waitFor();
  await card.getByRole('button', { name: 'Check connection' }).click();
  await card.getByText('credentials rejected: Unauthorized').waitFor();
  await shot(page, 'collection-02-connector-error', { fullPage: false });

  await card.getByLabel('Bearer token', { exact: true }).fill(TOKEN);
  await card.getByRole('button', { name: 'Save' }).click();
  await card.getByText('Not checked yet', { exact: true }).waitFor();
  assert.equal(await card.getByLabel('Bearer token', { exact: true }).inputValue(), '', 'the saved secret is not shown again');
  await card.getByRole('button', { name: 'Check connection' }).click();
  await card.getByText('Working', { exact: true }).waitFor();
  await shot(page, 'collection-03-connector-working', { fullPage: false });

  // A tracker for "espresso" on twitter.
  await page.goto(server.url + '/new/ht/step1');
  await page.getByRole('textbox', { name: 'Row 1 term 1' }).fill('espresso');
  await page.getByRole('checkbox', { name: 'Twitter' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL((u) => /^\/hashtag-tracking\/dashboard\//.test(new URL(u).pathname));
  const [, , , hash, friendly] = new URL(page.url()).pathname.split('/');

  // The scheduler picks the tracker up and stores every matching post once.
  const total = await waitUntil(
    async () => {
      const r = await page.request.get(`${server.url}/api/v1/trackers/${hash}/total-posts`);
      const body = await r.json();
      const n = body.count?.posts ?? body.posts ?? body.total ?? 0;
      return n >= TWEETS ? n : null;
    },
    { timeoutMs: 90_000, intervalMs: 1000, what: 'collected posts' },
  );
  assert.equal(total, TWEETS);
  assert.ok(requests.some((q) => q.get('query')?.startsWith('espresso')), 'the tracker’s term was searched');

  await page.goto(`${server.url}/edit/${hash}/${friendly}`);
  const section = page.getByRole('region', { name: 'Collection' });
  await section.getByText('X (Twitter) API v2').waitFor();
  await section.getByRole('cell', { name: String(TWEETS), exact: true }).waitFor();
  await section.getByText('None', { exact: true }).waitFor();
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'collection-04-tracker-status', { fullPage: false });

  // Historical data: a backfill of the 25 days before today lands the older posts.
  const backfill = page.getByRole('form', { name: 'Historical data' });
  await backfill.getByLabel('From').fill(new Date(Date.now() - 25 * 86_400_000).toISOString().slice(0, 10));
  await backfill.getByRole('button', { name: 'Estimate volume' }).click();
  await backfill.getByText(/^About \d+ posts\.$/).waitFor();
  await backfill.getByRole('button', { name: 'Start backfill' }).click();
  await backfill.getByRole('button', { name: 'Backfill in Progress' }).waitFor();
  await shot(page, 'collection-05-backfill-started', { fullPage: false });
  const withOld = await waitUntil(
    async () => {
      const r = await page.request.get(`${server.url}/api/v1/trackers/${hash}/total-posts?days=30`);
      const n = (await r.json()).count?.posts ?? 0;
      return n >= TWEETS + OLD_TWEETS ? n : null;
    },
    { timeoutMs: 60_000, intervalMs: 1000, what: 'backfilled posts' },
  );
  assert.equal(withOld, TWEETS + OLD_TWEETS);
  assert.ok(requests.some((q) => q.get('start_time')), 'the backfill asked for its window');
  await page.reload();
  await section.getByText('Finished').waitFor({ timeout: 20_000 });
  await backfill.getByRole('button', { name: 'Start backfill' }).waitFor();
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'collection-06-backfill-finished', { fullPage: false });

  await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?days=30`);
  await page.waitForLoadState('networkidle');
  await page.locator('#main').getByRole('button', { name: 'Historical Data' }).waitFor();
  await shot(page, 'collection-07-dashboard');
  assert.deepEqual(errors, []);
  await context.close();
});

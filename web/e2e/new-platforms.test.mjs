// End to end: Bluesky and Mastodon across the product. An administrator reads what each new
// connector needs on the Connectors page, points Mastodon at a fake server on 127.0.0.1 (shaped
// like GET /api/v1/timelines/tag/:hashtag), chooses the filtered stream for X, then creates a
// tracker with the Bluesky and Mastodon checkboxes; the scheduler fills it with the fake's
// statuses, which the posts page shows under the Mastodon filter.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { launchBrowser, screenshotDir, setupInBrowser, shot, startServer, waitUntil } from './harness.mjs';

const ACCOUNT = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };
const STATUSES = 12;

let server;
let browser;
let fake;
let fakeUrl;
const requests = [];

function startFakeMastodon() {
  const now = Date.now();
  const statuses = Array.from({ length: STATUSES }, (_, i) => {
    const n = i + 1;
    return {
      id: String(110_000_000_000_000_000n + BigInt(n)),
      created_at: new Date(now - (STATUSES - n) * 60_000).toISOString(),
      uri: `https://social.example/users/barista/statuses/${n}`,
      url: `https://social.example/@barista/${n}`,
      content: `<p>Cup number ${n} of the day <a href="https://social.example/tags/espresso" class="mention hashtag" rel="tag">#<span>espresso</span></a></p>`,
      spoiler_text: '', visibility: 'public', language: 'en', sensitive: false,
      replies_count: 1, reblogs_count: n % 3, favourites_count: n, in_reply_to_id: null, reblog: null,
      account: { id: '7', username: 'barista', acct: 'barista', display_name: 'The Barista', url: 'https://social.example/@barista',
        avatar: 'https://social.example/avatars/barista.png', followers_count: 420, note: '<p>Coffee all day</p>' },
      media_attachments: [], mentions: [], tags: [{ name: 'espresso', url: 'https://social.example/tags/espresso' }], emojis: [],
    };
  }).reverse();
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    requests.push(url);
    const m = url.pathname.match(/^\/api\/v1\/timelines\/tag\/([^/]+)$/);
    res.setHeader('content-type', 'application/json');
    if (!m) {
      res.writeHead(404);
      return res.end(JSON.stringify({ error: 'Record not found' }));
    }
    const limit = Math.min(Number(url.searchParams.get('limit') || 20), 40);
    const minId = url.searchParams.get('min_id');
    let hits = m[1] === 'espresso' ? statuses : [];
    if (minId) hits = hits.filter((s) => BigInt(s.id) > BigInt(minId)).slice(-limit);
    else hits = hits.slice(0, limit);
    res.setHeader('x-ratelimit-limit', '300');
    res.setHeader('x-ratelimit-remaining', '299');
    res.setHeader('x-ratelimit-reset', new Date(Date.now() + 300_000).toISOString());
    res.writeHead(200);
    res.end(JSON.stringify(hits));
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

before(async () => {
  fake = await startFakeMastodon();
  fakeUrl = `http://127.0.0.1:${fake.address().port}`;
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  fake?.close();
});

test('Bluesky and Mastodon: connectors, tracker form and collected posts', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await setupInBrowser(page, server.url, ACCOUNT);

  await page.goto(server.url + '/settings/connectors');
  const bsky = page.getByRole('region', { name: 'Bluesky (Jetstream)' });
  await bsky.getByText('No key needed. Reads one live stream for every running tracker.').waitFor();
  const masto = page.getByRole('region', { name: 'Mastodon hashtag timelines' });
  await masto.getByText('Needs: servers. Polls each running tracker on a schedule.').waitFor();
  // Jetstream is a websocket: an https address is refused before saving.
  await bsky.getByLabel('Base URL').fill('https://jetstream.example');
  await bsky.getByRole('button', { name: 'Save' }).click();
  await bsky.getByText('Enter an address starting with ws:// or wss://.').waitFor();

  // X: the administrator chooses the filtered stream.
  const x = page.getByRole('region', { name: 'X (Twitter) API v2' });
  await x.getByRole('radio', { name: 'Recent search (polling)' }).waitFor();
  assert.equal(await x.getByRole('radio', { name: 'Recent search (polling)' }).isChecked(), true);
  await x.getByLabel('Bearer token', { exact: true }).fill('e2e-token');
  await x.getByRole('radio', { name: 'Filtered stream' }).check();
  await x.getByRole('button', { name: 'Save' }).click();
  await x.getByText('Reads one live stream for every running tracker.', { exact: false }).waitFor();

  await masto.getByRole('checkbox', { name: 'Collect from this source' }).check();
  await masto.getByLabel('Servers').fill(fakeUrl);
  await masto.getByRole('button', { name: 'Save' }).click();
  await masto.getByText('Not checked yet', { exact: true }).waitFor();
  await masto.scrollIntoViewIfNeeded();
  await shot(page, 'new-platforms-01-connectors');
  for (const [card, name] of [[x, 'x'], [bsky, 'bluesky'], [masto, 'mastodon']]) {
    await card.screenshot({ path: path.join(screenshotDir, `new-platforms-01-connector-${name}.png`) });
  }

  // The tracker form has a checkbox with a badge for each new platform.
  await page.goto(server.url + '/new/ht/step1');
  await page.getByRole('textbox', { name: 'Row 1 term 1' }).fill('#espresso');
  await page.getByRole('checkbox', { name: 'Bluesky' }).check();
  await page.getByRole('checkbox', { name: 'Mastodon' }).check();
  await page.getByRole('group', { name: 'Platforms' }).scrollIntoViewIfNeeded();
  await shot(page, 'new-platforms-02-tracker-form', { fullPage: false });
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL((u) => /^\/hashtag-tracking\/dashboard\//.test(new URL(u).pathname));
  const [, , , hash, friendly] = new URL(page.url()).pathname.split('/');

  const total = await waitUntil(
    async () => {
      const r = await page.request.get(`${server.url}/api/v1/trackers/${hash}/total-posts`);
      const body = await r.json();
      const n = body.count?.posts ?? 0;
      return n >= STATUSES ? n : null;
    },
    { timeoutMs: 90_000, intervalMs: 1000, what: 'collected statuses' },
  );
  assert.equal(total, STATUSES);
  assert.ok(requests.some((u) => u.pathname === '/api/v1/timelines/tag/espresso'), 'the hashtag timeline was read');

  // The header filter and the posts page know the new platforms.
  await page.goto(`${server.url}/hashtag-tracking/posts/${hash}/${friendly}`);
  await page.getByRole('checkbox', { name: 'Mastodon', exact: true }).waitFor();
  await page.getByText('Cup number 12 of the day #espresso').first().waitFor();
  await shot(page, 'new-platforms-03-posts', { fullPage: false });
  assert.deepEqual(errors, []);
  await context.close();
});

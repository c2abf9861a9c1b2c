// End to end: three servers on one PostgreSQL database, with nothing in front of them but the
// browser choosing one. The account is created on the first server's setup page; the same browser
// session makes a tracker and imports posts through the second, reads the dashboard and the posts
// page on the third and the first. The second is then killed with SIGKILL; the session goes on on
// the others, which show the posts imported after it died. Runs on PostgreSQL only (the embedded
// SQLite database is for one server).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, dashboardSettled, launchBrowser, ndjson, setupInBrowser, shot, startServer, waitUntil } from './harness.mjs';

const onPostgres = Boolean(process.env.HARK_E2E_POSTGRES_URL);
// Every server of a cluster seals secrets with the same key.
const env = { HARK_SECRET_KEY: '3c'.repeat(32) };

let browser;
const servers = [];

function posts(from, to, now) {
  const list = [];
  for (let i = from; i <= to; i++) {
    list.push({ platform: 'twitter', id: String(i), text: `cluster coffee post ${i}`, createdAt: now - i * 3_600_000, author: { username: `barista${i % 3}`, name: `Barista ${i % 3}` }, counts: { likes: i } });
  }
  return list;
}

describe('several servers', { skip: onPostgres ? false : 'needs PostgreSQL (HARK_E2E_POSTGRES_URL)' }, () => {
  before(async () => {
    browser = await launchBrowser();
    const first = await startServer({ env });
    servers.push(first);
    servers.push(await startServer({ join: first, env }));
    servers.push(await startServer({ join: first, env }));
  });

  after(async () => {
    await browser?.close();
    // The joined servers first: the first one's stop removes the database.
    for (const s of servers.slice().reverse()) await s?.stop();
  });

  test('one browser session across three servers; one is killed and the others go on', async () => {
    const [a, b, c] = servers;
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await setupInBrowser(page, a.url, { name: 'Nora Node', email: 'nora@example.com', password: 'correct horse battery' });

    // Through the second server, with the session the first one started.
    const made = await api(ctx, b.url, 'POST', '/trackers', { platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['coffee'] }] }, title: 'Cluster coffee' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { hash, friendly } = made.body;
    const now = Date.now();
    const imported = await api(ctx, b.url, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson(posts(1, 6, now)));
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    assert.equal(imported.body.imported, 6);

    // The third server's dashboard and the first one's posts page.
    await page.goto(`${c.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await dashboardSettled(page);
    await page.getByText('Cluster coffee').first().waitFor();
    await page.goto(`${a.url}/hashtag-tracking/posts/${hash}/${friendly}`);
    const total = page.getByTestId('posts-total');
    await waitUntil(async () => (await total.innerText()) === '6 posts', { what: '6 posts on the first server' });
    await shot(page, 'nodes-posts-first-server');

    // The second server dies as a crash would; the others carry on with the same session.
    await b.stop({ signal: 'SIGKILL' });
    const more = await api(ctx, c.url, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson(posts(7, 9, now)));
    assert.equal(more.status, 200, JSON.stringify(more.body));
    await page.reload();
    await waitUntil(async () => (await total.innerText()) === '9 posts', { what: 'the posts imported on the third server, shown by the first' });
    await page.getByText('cluster coffee post 9').first().waitFor();
    await page.goto(`${c.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await dashboardSettled(page);
    await shot(page, 'nodes-dashboard-third-server');

    // Each live server answers its health check for itself.
    for (const s of [a, c]) {
      const h = await (await fetch(`${s.url}/healthz`)).json();
      assert.equal(h.status, 'ok', JSON.stringify(h));
      assert.equal(h.node, `127.0.0.1:${s.port}`);
      assert.equal(h.database.backend, 'postgres');
    }
    await ctx.close();
  });
});

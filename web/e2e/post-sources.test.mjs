// End to end: a post added by address that Hark has not stored is fetched from its platform (a
// fake of X's documented tweet lookup, GET /2/tweets?ids=, on 127.0.0.1); and the Facebook
// anonymisation setting on Tracker Settings hides Facebook authors on the posts page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { api as apiAt, launchBrowser, shot, startServer, waitUntil } from './harness.mjs';

const TOKEN = 'e2e-lookup-token';
let server;
let browser;
let fake;
let fakeUrl;
const lookups = [];

function startFakeX() {
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
    if (url.pathname === '/2/tweets') {
      const id = url.searchParams.get('ids');
      lookups.push(id);
      if (id !== '1860000000000000001') {
        return send(200, { errors: [{ value: id, detail: `Could not find tweet with ids: [${id}].`, title: 'Not Found Error',
          resource_type: 'tweet', parameter: 'ids', resource_id: id, type: 'https://api.twitter.com/2/problems/resource-not-found' }] });
      }
      return send(200, {
        data: [{ id, text: 'A flat white and a good book #coffee', author_id: '501', created_at: new Date(Date.now() - 3_600_000).toISOString(),
          lang: 'en', public_metrics: { retweet_count: 3, reply_count: 2, like_count: 40, quote_count: 1, impression_count: 900 }, edit_history_tweet_ids: [id] }],
        includes: { users: [{ id: '501', name: 'Latte Larry', username: 'lattelarry', verified: false,
          public_metrics: { followers_count: 4200, following_count: 12, tweet_count: 300, listed_count: 2 } }] },
      });
    }
    // The scheduler's recent search: nothing new.
    if (url.pathname === '/2/tweets/search/recent') return send(200, { meta: { result_count: 0 } });
    send(404, { title: 'Not Found', type: 'about:blank', status: 404, detail: 'Not Found' });
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

before(async () => {
  fake = await startFakeX();
  fakeUrl = `http://127.0.0.1:${fake.address().port}`;
  browser = await launchBrowser();
  server = await startServer();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  fake?.close();
});

/** JSON API calls with the context's cookies and CSRF token. */
const api = (ctx, ...call) => apiAt(ctx, server.url, ...call);

test('a post added by address is fetched from X; facebook anonymisation hides authors', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const setup = await api(ctx, 'POST', '/setup', { email: 'ada@example.com', password: 'correct horse battery', name: 'Ada Admin' });
  assert.equal(setup.status, 201, JSON.stringify(setup.body));
  const saved = await api(ctx, 'PUT', '/admin/connectors/twitter', { enabled: true, baseUrl: fakeUrl, values: { bearer_token: TOKEN } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const t = await api(ctx, 'POST', '/trackers', { platforms: { twt: 1, fb: 1 }, search: { rows: [{ type: '+', searches: ['coffee'] }] } });
  assert.equal(t.status, 201, JSON.stringify(t.body));
  const { hash, friendly } = t.body;
  const line = { platform: 'facebook', id: '9911', text: 'Coffee morning at the community hall', createdAt: Date.now() - 7_200_000,
    author: { username: 'hallpage', name: 'Community Hall', avatarUrl: 'https://img.example/hall.png' } };
  const imp = await api(ctx, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, JSON.stringify(line) + '\n');
  assert.equal(imp.body.imported, 1, JSON.stringify(imp.body));

  const page = await ctx.newPage();
  const postsUrl = `${server.url}/hashtag-tracking/posts/${hash}/${friendly}`;
  await page.goto(postsUrl);
  await page.getByTestId('posts-total').waitFor();
  assert.equal(await page.getByTestId('posts-total').innerText(), '1 posts');
  await page.getByRole('button', { name: 'Add Posts' }).click();
  const modal = page.locator('[data-modal="addPostsModal"]');
  await modal.getByLabel('Post URL 1').fill('https://x.com/lattelarry/status/1860000000000000001');
  await modal.getByRole('button', { name: '+ Add another URL' }).click();
  await modal.getByLabel('Post URL 2').fill('https://x.com/lattelarry/status/1860000000000000002');
  await modal.getByRole('button', { name: 'Add Posts' }).click();
  await modal.getByText('Some posts were not added successfully').waitFor();
  assert.equal(await modal.getByTestId('add-post-error').innerText(), 'X has no post at this address (deleted, private or never posted).');
  await shot(page, 'post-sources-01-fetched', { fullPage: false });
  await page.keyboard.press('Escape');
  await waitUntil(async () => (await page.getByTestId('posts-total').innerText()) === '2 posts', { what: 'fetched post listed' });
  await page.getByText('A flat white and a good book #coffee').waitFor();
  assert.deepEqual(lookups, ['1860000000000000001', '1860000000000000002']);
  assert.equal(await page.getByText('Community Hall', { exact: true }).count() > 0, true);

  // Tracker Settings → Privacy.
  await page.goto(`${server.url}/edit/${hash}/${friendly}`);
  const box = page.getByRole('checkbox', { name: /Anonymise Facebook posts/ });
  await box.waitFor();
  assert.equal(await box.isChecked(), false);
  await box.click();
  await waitUntil(async () => (await box.isChecked()) || null, { what: 'box checked' });
  await waitUntil(async () => (await api(ctx, 'GET', `/trackers/${hash}`)).body.anonymizeFacebook === true, { what: 'setting saved' });
  await page.getByRole('heading', { name: 'Privacy' }).scrollIntoViewIfNeeded();
  await shot(page, 'post-sources-02-privacy', { fullPage: false });
  await page.goto(postsUrl);
  await page.getByText('Coffee morning at the community hall').waitFor();
  assert.equal(await page.getByText('Community Hall', { exact: true }).count(), 0, 'the facebook author is hidden');
  await page.getByText('Facebook user').first().waitFor();
  await page.getByText('Latte Larry').first().waitFor();
  await shot(page, 'post-sources-03-anonymised', { fullPage: false });
  await ctx.close();
});

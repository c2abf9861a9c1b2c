// End to end: embedding against a real server — the owner copies the timeline chart's and the
// posts page's iframe code from their Embed dialogs; a plain HTML page on another port holds both;
// a signed-out browser opening it sees the timeline alone in one frame and the posts list in the
// other, with the page frame's header opening the full tracker in a new tab; the app's other
// pages refuse to be framed; revoking the share link turns both embeds off.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { allowCspRefusal, api as apiAt, freePort, launchBrowser, shot, startServer, waitUntil, ownerWithTracker } from './harness.mjs';

const DAY = 86_400_000;
// The test frames a page that is not an embed on purpose: the browser refuses it.
allowCspRefusal(/Framing .* violates the following Content Security Policy directive: "frame-ancestors 'none'"/);
let browser;
let server;
let host;
let hostHtml = '';

before(async () => {
  browser = await launchBrowser();
  server = await startServer();
  // The other site: one plain page, served from 127.0.0.1 on a port of its own.
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

function posts(now) {
  const out = [];
  for (let i = 0; i < 12; i++) {
    out.push({
      platform: 'twitter',
      id: String(7000 + i),
      text: `Espresso note ${i} #coffee`,
      createdAt: now - i * DAY - 60_000,
      author: { username: `barista${i % 3}`, name: `Barista ${i % 3}` },
      counts: { likes: i, retweets: 1, replies: 0 },
    });
  }
  return out;
}

function page(body) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>The Coffee Gazette</title>
<style>
  body { font-family: Georgia, serif; margin: 0; background: #f6f1e9; color: #3b2f2a; }
  header { padding: 18px 32px; background: #3b2f2a; color: #f6f1e9; }
  main { max-width: 1100px; margin: 0 auto; padding: 8px 32px 32px; }
  h2 { font-size: 18px; margin: 24px 0 8px; }
  iframe { display: block; background: #fff; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
</style></head>
<body><header><h1>The Coffee Gazette</h1></header><main>${body}</main></body>
</html>`;
}

/** API answers of 400 and above seen by a page and its frames. */
function failedCalls(p) {
  const failed = [];
  p.on('response', (r) => {
    if (r.url().includes('/api/v1/') && r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
  });
  return failed;
}

describe('embedding a chart and a page', () => {
  let owner;
  let hash;
  let friendly;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    let imported;
    ({ hash, friendly, imported } = await ownerWithTracker(owner, server.url, { title: 'Coffee talk', term: 'coffee', posts: posts(Date.now()) }));
    assert.equal(imported, 12);
  });

  after(async () => {
    await owner?.close();
  });

  test('copy the codes, frame them on another site signed out, then revoke', async () => {
    const p = await owner.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await p.locator('[data-testid="chart-timeline"] [data-chart-ready="true"]').waitFor();

    // The timeline's Embed dialog: the code, its address and height, Copy with its active state.
    await p.getByRole('button', { name: 'Embed Timeline' }).click();
    const dialog = p.getByRole('dialog', { name: 'Embed Timeline' });
    const codeBox = dialog.getByLabel('Embed code');
    await codeBox.waitFor();
    const chartCode = await codeBox.inputValue();
    const chartUrl = new URL(await dialog.getByLabel('Embed address').inputValue());
    assert.equal(chartUrl.pathname, `/hashtag-tracking/dashboard/${hash}/${friendly}`);
    assert.equal(chartUrl.searchParams.get('embed'), '1');
    assert.equal(chartUrl.searchParams.get('chart'), 'timeline');
    assert.match(chartUrl.searchParams.get('embedKey') ?? '', /^[0-9a-f]{32}$/);
    assert.match(chartCode, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/hashtag-tracking\/dashboard\/[^"]+embed=1&amp;chart=timeline&amp;embedKey=[0-9a-f]+" title="Coffee talk" width="100%" height="400"/);
    assert.equal(await dialog.getByTestId('embed-height').textContent(), '400 px');
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied!' }).waitFor();
    await dialog.getByRole('button', { name: 'Copy', exact: true }).waitFor({ timeout: 4000 });
    await shot(p, 'embed-01-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Show preview' }).click();
    await p.frameLocator('iframe[title="Embed preview"]').locator('[data-testid="chart-timeline"] [data-chart-ready="true"]').waitFor();
    await p.waitForTimeout(800); // the chart's entry animation
    await shot(p, 'embed-02-dialog-preview', { fullPage: false });
    await p.keyboard.press('Escape');

    // The posts page's own Embed button gives the page's code.
    await p.goto(`${server.url}/hashtag-tracking/posts/${hash}/${friendly}`);
    await p.getByTestId('posts-total').getByText('12 posts').waitFor();
    await p.getByRole('button', { name: 'Embed', exact: true }).click();
    const postsDialog = p.getByRole('dialog', { name: 'Embed the posts page' });
    const postsCode = await postsDialog.getByLabel('Embed code').inputValue();
    const postsUrl = new URL(await postsDialog.getByLabel('Embed address').inputValue());
    assert.equal(postsUrl.pathname, `/hashtag-tracking/posts/${hash}/${friendly}`);
    assert.equal(postsUrl.searchParams.get('chart'), null);
    assert.notEqual(postsUrl.searchParams.get('embedKey'), chartUrl.searchParams.get('embedKey'));
    assert.match(postsCode, /height="400"/);
    await p.keyboard.press('Escape');

    // Only embed addresses may be framed by other sites.
    const plainUrl = `${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`;
    const plainRes = await owner.request.get(plainUrl);
    assert.match(plainRes.headers()['content-security-policy'], /; frame-ancestors 'none'$/);
    assert.equal(plainRes.headers()['x-frame-options'], 'DENY');
    const embedRes = await owner.request.get(chartUrl.href);
    assert.match(embedRes.headers()['content-security-policy'], /; frame-ancestors \*$/);
    assert.equal(embedRes.headers()['x-frame-options'], undefined);

    hostHtml = page(`
      <h2>How much coffee we talk about</h2>
      ${chartCode}
      <h2>What people say</h2>
      ${postsCode}
      <h2>The tracker itself (not an embed)</h2>
      <iframe id="plain" src="${plainUrl}" title="Not an embed" width="100%" height="120" frameborder="0"></iframe>`);

    // A signed-out browser on the other site.
    const anon = await browser.newContext({ viewport: { width: 1200, height: 1400 } });
    const visitor = await anon.newPage();
    const visitorErrors = [];
    visitor.on('pageerror', (e) => visitorErrors.push(e.message));
    const failed = failedCalls(visitor);
    await visitor.goto(host.url);
    const chartFrame = visitor.frameLocator('iframe[src*="chart=timeline"]');
    const postsFrame = visitor.frameLocator(`iframe[src*="/hashtag-tracking/posts/"]`);

    // The chart frame: the timeline and nothing else of the dashboard.
    await chartFrame.locator('[data-testid="chart-timeline"] [data-chart-ready="true"]').waitFor();
    await chartFrame.locator('[data-testid="dashboard-grid"][data-loading=""]').waitFor();
    assert.deepEqual(await chartFrame.locator('[data-testid="dashboard-grid"] > section[data-panel]').evaluateAll((s) => s.map((e) => e.getAttribute('data-panel'))), ['timeline']);
    assert.equal(await chartFrame.getByRole('heading', { level: 1 }).count(), 0);
    assert.equal(await chartFrame.getByRole('link', { name: 'Sign in' }).count(), 0);
    assert.equal(await chartFrame.getByRole('complementary', { name: /^Tracker navigation/ }).count(), 0);
    assert.equal(await chartFrame.getByLabel('Prediction').count(), 0);

    // The page frame: the posts list under a compact header, nothing to manage.
    await postsFrame.getByTestId('posts-total').getByText('12 posts').waitFor();
    await postsFrame.getByText('Espresso note 0 #coffee').first().waitFor();
    for (const frame of [chartFrame, postsFrame]) {
      for (const name of ['Share', 'Historical Data', 'Customize', 'Team', 'Export', 'Add Posts', 'New tag']) {
        const b = frame.getByRole('button', { name, exact: true });
        assert.ok((await b.count()) === 0 || (await b.isDisabled()), name);
      }
      assert.equal(await frame.getByRole('button', { name: 'Embed', exact: true }).count(), 0);
    }
    assert.equal(await postsFrame.getByRole('complementary', { name: /^Tracker navigation/ }).count(), 0);
    assert.equal(await postsFrame.getByLabel(/^Select post/).count(), 0);
    assert.equal(await postsFrame.getByRole('link', { name: 'Sign in' }).count(), 0);

    // The tracker without embed=1 is refused in a frame: Chromium leaves no app in it.
    const plainFrame = await (await visitor.$('#plain')).contentFrame();
    // Chromium swaps a refused frame for its error page.
    await waitUntil(async () => plainFrame.url().startsWith('chrome-error:') || null, { timeoutMs: 10_000, what: `the refused frame (at ${plainFrame.url()})` });
    assert.equal(await plainFrame.locator('#root').count(), 0);

    await visitor.waitForTimeout(1000); // the chart's entry animation
    await shot(visitor, 'embed-03-host-page');

    // The page frame's header opens the full tracker (no embed parameters) in a new tab; a
    // signed-out visitor meets the sign-in page there, on the way to it.
    const title = postsFrame.getByRole('heading', { level: 1 }).getByRole('link');
    assert.equal(await title.getAttribute('target'), '_blank');
    assert.equal(await title.getAttribute('rel'), 'noopener');
    const [tab] = await Promise.all([anon.waitForEvent('page'), title.click()]);
    await tab.waitForLoadState();
    await waitUntil(async () => new URL(tab.url()).pathname === '/login' || new URL(tab.url()).pathname.startsWith('/hashtag-tracking/') || null, { what: 'the new tab' });
    const opened = new URL(tab.url());
    const target = opened.pathname === '/login' ? new URL(opened.searchParams.get('next'), server.url) : opened;
    assert.equal(target.origin, server.url);
    assert.equal(target.pathname, `/hashtag-tracking/posts/${hash}/${friendly}`);
    for (const k of ['embed', 'embedKey', 'chart']) assert.equal(target.searchParams.get(k), null, k);
    await tab.close();

    assert.deepEqual(failed, [], 'the embeds asked for nothing their keys do not open');

    // Every other chart and page embeds the same way and asks only for what its key opens.
    const charts = ['geography', 'sources', 'demographics', 'influencers', 'posts', 'post_type', 'sentiment', 'totalPosts', 'links', 'viewer_sentiment', 'topics'];
    const panelOf = { totalPosts: 'topStats' };
    for (const chart of charts) {
      const code = await api(owner, 'GET', `/trackers/${hash}/embed?chart=${chart}`);
      assert.equal(code.status, 200, `${chart}: ${JSON.stringify(code.body)}`);
      const tab = await anon.newPage();
      const tabFailed = failedCalls(tab);
      await tab.goto(code.body.url);
      await tab.locator('[data-testid="dashboard-grid"][data-loading=""]').waitFor();
      await tab.waitForLoadState('networkidle');
      const shown = await tab.locator('[data-testid="dashboard-grid"] > section[data-panel]').evaluateAll((s) => s.map((e) => e.getAttribute('data-panel')));
      assert.deepEqual(shown, [panelOf[chart] ?? chart], chart);
      assert.deepEqual(tabFailed, [], chart);
      await tab.close();
    }
    for (const name of ['dashboard', 'influencers', 'trending-topics', 'sentiment', 'media-wall']) {
      const code = await api(owner, 'GET', `/trackers/${hash}/embed?page=${name}`);
      assert.equal(code.status, 200, `${name}: ${JSON.stringify(code.body)}`);
      assert.equal(code.body.height, name === 'media-wall' ? '100%' : '400', name);
      const tab = await anon.newPage();
      const tabFailed = failedCalls(tab);
      await tab.goto(code.body.url);
      await tab.getByRole('heading', { level: 1 }).getByRole('link', { name: /Coffee talk/ }).waitFor();
      await tab.waitForLoadState('networkidle');
      assert.equal(new URL(tab.url()).pathname, `/hashtag-tracking/${name}/${hash}/${friendly}`, name);
      assert.equal(await tab.getByRole('complementary', { name: /^Tracker navigation/ }).count(), 0, name);
      assert.equal(await tab.getByRole('link', { name: 'Sign in' }).count(), 0, name);
      assert.deepEqual(tabFailed, [], name);
      await tab.close();
    }
    assert.equal((await api(owner, 'GET', `/trackers/${hash}/embed?chart=shareOfVoice`)).status, 422);
    assert.deepEqual(visitorErrors, []);

    // Revoking the share link turns every embed off.
    const revoked = await api(owner, 'POST', `/trackers/${hash}/share/revoke`);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    await visitor.reload();
    await chartFrame.getByRole('alert').getByText('This embed is no longer available.').waitFor();
    await postsFrame.getByRole('alert').getByText('This embed is no longer available.').waitFor();
    assert.equal(await chartFrame.getByRole('link', { name: 'Sign in' }).count(), 0);
    assert.ok(!visitor.url().includes('/login'));
    await shot(visitor, 'embed-04-host-page-revoked');

    // A fresh code from the dialog works again.
    await p.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await p.getByRole('button', { name: 'Embed Timeline' }).click();
    const fresh = new URL(await p.getByRole('dialog', { name: 'Embed Timeline' }).getByLabel('Embed address').inputValue());
    assert.notEqual(fresh.searchParams.get('embedKey'), chartUrl.searchParams.get('embedKey'));
    const anonTab = await anon.newPage();
    await anonTab.goto(fresh.href);
    await anonTab.locator('[data-testid="chart-timeline"] [data-chart-ready="true"]').waitFor();

    assert.deepEqual(errors, []);
    await anon.close();
    await p.close();
  });
});

// End to end: hardening against a real server. The app's pages (dashboard, posts with a post's
// detail, media wall, embed, the administrator's pages and their dialogs) load under the server's
// content security policy without a single violation; a tracker title, post texts and author
// names carrying <script> and <img onerror> show as the text they are and run nothing; and the
// instance administrator reads the audit log (empty at first, then a share-link change, a revoke,
// a bulk delete and a deleted tracker), reached from the user menu by keyboard, and the tracker's
// settings show its own entries. A server started with a lower public rate limit answers the
// visitor over it 429 with Retry-After.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api as apiAt, dashboardSettled, launchBrowser, ownerWithTracker, shot, startServer, takeCspRefusals } from './harness.mjs';

let browser;
let server;

before(async () => {
  browser = await launchBrowser();
  server = await startServer();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (ctx, ...call) => apiAt(ctx, server.url, ...call);

const TITLE = 'Brew <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>';
const TEXT = 'coffee <img src=x onerror="window.__pwned=3"> and <script>window.__pwned=4</script> beans';
const NAME = 'Ann <b onmouseover="window.__pwned=5">Bold</b>';

function posts(now) {
  return [1, 2, 3].map((i) => ({
    platform: 'twitter',
    id: String(i),
    text: i === 1 ? TEXT : `plain coffee post ${i}`,
    createdAt: now - i * 3_600_000,
    author: { username: `ann${i}`, name: i === 1 ? NAME : `Ann ${i}` },
    counts: { likes: 10 * i },
    media: i === 1 ? [{ kind: 'photo', url: '/demo-media/photo/hardening-1.svg' }] : [],
  }));
}

/** A page that records every content security policy violation and uncaught error. */
async function watched(ctx) {
  const page = await ctx.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`error: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return { page, problems };
}

async function assertInert(page, where) {
  assert.equal(await page.evaluate(() => window.__pwned ?? null), null, `${where}: an injected handler or script ran`);
  assert.equal(await page.locator('img[src="x"]').count(), 0, `${where}: markup from user text reached the page`);
}

describe('hardening', () => {
  let admin;
  let hash;
  let friendly;

  before(async () => {
    admin = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    let imported;
    ({ hash, friendly, imported } = await ownerWithTracker(admin, server.url, {
      term: 'coffee',
      title: TITLE,
      posts: posts(Date.now()),
      owner: { email: 'ada@example.com', password: 'correct horse battery', name: 'Ada Admin' },
    }));
    assert.equal(imported, 3);
  });

  after(async () => {
    await admin?.close();
  });

  test('pages load under the content security policy and user text stays text', async () => {
    const { page, problems } = await watched(admin);
    const res = await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    const csp = res.headers()['content-security-policy'];
    assert.match(csp, /script-src 'self';/);
    assert.doesNotMatch(csp.replace("style-src 'self' 'unsafe-inline'", ''), /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'$/);
    await dashboardSettled(page);
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await assertInert(page, 'dashboard');

    // Dialogs (Share, Customize) mount and lay out under the policy too.
    await page.getByRole('button', { name: 'Share' }).first().click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/hashtag-tracking/posts/${hash}/${friendly}?days=30`);
    await page.getByTestId('posts-total').waitFor();
    await page.getByText(TEXT).first().waitFor();
    await page.getByText(NAME).first().waitFor();
    await assertInert(page, 'posts');
    await page.getByText(TEXT).first().click();
    await page.getByTestId('post-detail').waitFor();
    await page.getByTestId('post-detail').getByText(TEXT).waitFor();
    await assertInert(page, 'post detail');
    await shot(page, 'hardening-posts-inert');

    await page.goto(`${server.url}/hashtag-tracking/media-wall/${hash}/${friendly}`);
    await page.getByText(TEXT).first().waitFor();
    await assertInert(page, 'media wall');

    // An embed may be framed and keeps the same script policy.
    const embed = await api(admin, 'GET', `/trackers/${hash}/embed?chart=timeline`);
    assert.equal(embed.status, 200, JSON.stringify(embed.body));
    const framed = await page.goto(embed.body.url);
    assert.match(framed.headers()['content-security-policy'], /script-src 'self';.*frame-ancestors \*$/);
    await page.locator('[data-embed="true"]').waitFor();
    await page.waitForLoadState('networkidle');
    await assertInert(page, 'embed');

    assert.deepEqual(problems, []);
    await page.close();
  });

  test("every browser test fails on a refusal of the policy: the harness's watch sees one", async () => {
    // What the harness watches on every page of every test: a script the policy forbids, run.
    const page = await admin.newPage();
    await page.goto(`${server.url}/`);
    assert.deepEqual(takeCspRefusals(), []);
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__pwned = 1';
      document.body.appendChild(s);
    });
    let seen = [];
    for (let i = 0; i < 40 && seen.length === 0; i++) {
      await page.waitForTimeout(50);
      seen = takeCspRefusals();
    }
    await page.waitForTimeout(300);
    seen.push(...takeCspRefusals());
    assert.ok(seen.length >= 1, 'the refusal was seen');
    assert.match(seen.join('\n'), /inline script/i);
    assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
    await page.close();
  });

  test('the administrator reads the audit log from the user menu', async () => {
    const { page, problems } = await watched(admin);
    await page.goto(`${server.url}/mytracks/hashtag`);
    // By keyboard: the account menu, down to Audit log, Enter.
    const menu = page.getByRole('button', { name: /Account menu for/ });
    await menu.focus();
    await page.keyboard.press('Enter');
    const item = page.getByRole('menuitem', { name: 'Audit log' });
    await item.waitFor();
    for (let i = 0; i < 8 && !(await item.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => new URL(u).pathname === '/admin/audit');
    await page.getByRole('heading', { name: 'No changes recorded yet' }).waitFor();
    await shot(page, 'hardening-audit-empty');

    // Changes: a share-link switch and custom URL, a revoke, a bulk delete, a deleted tracker.
    const share = await api(admin, 'PUT', `/trackers/${hash}/share`, { customUrl: 'brew-notes', unlockDate: true });
    assert.equal(share.status, 200, JSON.stringify(share.body));
    assert.equal((await api(admin, 'POST', `/trackers/${hash}/share/revoke`, {})).status, 200);
    const del = await api(admin, 'POST', `/trackers/${hash}/posts/delete`, { posts: ['twitter;2', 'twitter;3'] });
    assert.equal(del.body.count, 2, JSON.stringify(del.body));
    const gone = await api(admin, 'POST', '/trackers', { title: 'Old tea', platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['tea'] }] } });
    assert.equal((await api(admin, 'DELETE', `/trackers/${gone.body.hash}`)).status, 200);

    await page.reload();
    const rows = page.getByTestId('audit-row');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 4);
    assert.deepEqual(await page.getByTestId('audit-action').allTextContents(), ['Tracker deleted', 'Posts deleted', 'Share link revoked', 'Share link changed']);
    assert.equal(await rows.nth(1).getByTestId('audit-detail').textContent(), '2 posts hidden from the tracker (bulk delete)');
    assert.equal(await rows.nth(3).getByTestId('audit-detail').textContent(), 'Unlock date range on, Custom URL set to “brew-notes”');
    assert.equal(await page.getByTestId('audit-count').textContent(), '4 entries');
    // The deleted tracker is named without a link; the other is a link, and its title stays text.
    assert.equal(await rows.nth(0).getByRole('link').count(), 0);
    assert.equal(await rows.nth(0).getByText('Old tea').count(), 1);
    const link = rows.nth(1).getByRole('link', { name: TITLE });
    await assertInert(page, 'audit log');
    await shot(page, 'hardening-audit-log');
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => new URL(u).pathname.startsWith(`/hashtag-tracking/dashboard/${hash}`));

    // The tracker's settings show its own entries to its owner and administrators.
    await page.goto(`${server.url}/edit/${hash}/${friendly}`);
    const section = page.getByRole('region', { name: 'Audit log' });
    await section.getByTestId('audit-row').first().waitFor();
    assert.deepEqual(await section.getByTestId('audit-action').allTextContents(), ['Posts deleted', 'Share link revoked', 'Share link changed']);
    await section.scrollIntoViewIfNeeded();
    await shot(page, 'hardening-tracker-audit', { fullPage: false });

    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a server started with a lower public rate limit refuses the visitor over it', async () => {
    const limited = await startServer({ env: { HARK_PUBLIC_RATE_LIMIT: '5' } });
    try {
      const ctx = await browser.newContext();
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await ctx.request.get(`${limited.url}/api/v1/me`));
      // Five a minute, less the start's health check: a few answers, then refusals.
      const statuses = answers.map((r) => r.status());
      const ok = statuses.filter((st) => st === 200).length;
      assert.ok(ok >= 3 && ok <= 5, String(statuses));
      assert.deepEqual(statuses.slice(ok), Array(6 - ok).fill(429), String(statuses));
      const refused = answers[5];
      assert.ok(Number(refused.headers()['retry-after']) >= 1, JSON.stringify(refused.headers()));
      assert.equal((await refused.json()).error.code, 'rate_limited');
      // The app's own files are not limited.
      const page = await ctx.newPage();
      const res = await page.goto(`${limited.url}/login`);
      assert.equal(res.status(), 200);
      await ctx.close();
    } finally {
      await limited.stop();
    }
  });

  test('the audit log is closed to other accounts and the API refuses them', async () => {
    const ctx = await browser.newContext();
    const res = await ctx.request.get(`${server.url}/api/v1/admin/audit`);
    assert.equal(res.status(), 401);
    assert.equal((await res.json()).error.code, 'unauthorized');
    await ctx.close();
  });
});

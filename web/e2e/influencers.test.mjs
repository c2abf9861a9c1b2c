// End to end: the influencers page against a real server — ranking, search, settings filters, sort
// and paging kept in the URL, an influencer tag put on an account and filtered by, the account side
// view with Prev/Next by the arrow keys, the CSV read back; and what a viewer may do.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { api as apiAt, launchBrowser, shot, startServer, waitUntil, ndjson } from './harness.mjs';

const DAY = 86_400_000;
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

/** 30 accounts: acct0 posts 1 time … the engagement grows with the account number. */
function posts(now) {
  const out = [];
  for (let a = 0; a < 30; a++) {
    const n = 1 + (a % 4);
    for (let i = 0; i < n; i++) {
      out.push({
        platform: 'twitter',
        id: `${a}-${i}`,
        text: `coffee post ${i} of account ${a}`,
        createdAt: now - (i + 1) * DAY - a * 60_000,
        author: {
          username: `acct${a}`,
          name: a === 7 ? 'José Café' : `Account ${a}`,
          followers: 100 * (a + 1),
          bio: a === 7 ? 'Roaster in São Paulo' : a % 2 ? 'coffee fan' : 'tea drinker',
          location: a % 3 === 0 ? 'Lisbon' : 'Berlin',
        },
        counts: { likes: a * 10 + i, retweets: i },
      });
    }
  }
  return out;
}

describe('influencers page', () => {
  let owner;
  let hash;
  let friendly;
  const base = () => `${server.url}/hashtag-tracking/influencers/${hash}/${friendly}`;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    const setup = await api(owner, 'POST', '/setup', { email: 'owner@example.com', password: 'correct horse battery', name: 'Olive Owner' });
    assert.equal(setup.status, 201, JSON.stringify(setup.body));
    const t = await api(owner, 'POST', '/trackers', { platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['coffee'] }] } });
    assert.equal(t.status, 201);
    ({ hash, friendly } = t.body);
    const list = posts(Date.now());
    const imp = await api(owner, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson(list));
    assert.equal(imp.body.imported, list.length, JSON.stringify(imp.body));
  });

  after(async () => {
    await owner?.close();
  });

  const rows = (page) => page.locator('tbody tr[data-account]');
  const firstAccount = (page) => rows(page).first().getAttribute('data-account');

  test('ranking, search, settings, sort and paging live in the URL', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(base());
    const range = page.getByTestId('influencers-range');
    await range.waitFor();
    assert.match(await range.innerText(), /1.25 of 30/);
    assert.equal(await rows(page).count(), 25);
    // Engagement, highest first: acct27 (4 posts of ~270 likes).
    assert.equal(await firstAccount(page), 'twitter;acct27');
    await shot(page, 'influencers-01-list-1400');

    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('page') === '2');
    await waitUntil(async () => (await rows(page).count()) === 5, { what: 'second page' });

    // Sort by followers, lowest first (two clicks), back on page 1.
    await page.getByRole('button', { name: 'Followers', exact: true }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('sort') === 'followers;desc' && !new URL(u).searchParams.has('page'));
    await waitUntil(async () => (await firstAccount(page)) === 'twitter;acct29', { what: 'followers desc' });
    await page.getByRole('button', { name: 'Followers', exact: true }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('sort') === 'followers;asc');
    await waitUntil(async () => (await firstAccount(page)) === 'twitter;acct0', { what: 'followers asc' });
    assert.match(await page.locator('th[aria-sort="ascending"]').innerText(), /^Followers/);

    // Search names and bios, accents aside; a reload shows the same view.
    await page.getByPlaceholder('Filter Accounts and Bios').fill('jose sao paulo');
    await page.waitForURL((u) => new URL(u).searchParams.get('search') === 'jose sao paulo');
    await waitUntil(async () => (await rows(page).count()) === 1 && (await firstAccount(page)) === 'twitter;acct7', { what: 'search' });
    await page.reload();
    await range.waitFor();
    assert.equal(await firstAccount(page), 'twitter;acct7');
    assert.equal(await page.getByPlaceholder('Filter Accounts and Bios').inputValue(), 'jose sao paulo');

    // Settings: bio, location and a count filter; Reset clears them.
    await page.getByPlaceholder('Filter Accounts and Bios').fill('');
    await page.waitForURL((u) => !new URL(u).searchParams.has('search'));
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Hide Settings' }).waitFor();
    await page.getByLabel('Bio contains').fill('fan');
    await page.getByLabel('Location').fill('lisbon');
    await page.getByLabel('Posts count').fill('2');
    await page.getByLabel('Posts count').press('Tab');
    await page.waitForURL((u) => {
      const q = new URL(u).searchParams;
      return q.get('bio') === 'fan' && q.get('location') === 'lisbon' && q.get('posts_count') === '2';
    });
    // Odd accounts (fans) in Lisbon (a % 3 == 0) with more than 2 posts (a % 4 >= 2): 3, 15, 27.
    await waitUntil(async () => (await rows(page).count()) === 3, { what: 'settings filters' });
    await shot(page, 'influencers-02-settings');
    await page.getByRole('button', { name: 'Reset' }).click();
    await waitUntil(async () => (await rows(page).count()) === 25, { what: 'reset' });
    const q = new URL(page.url()).searchParams;
    assert.equal(q.has('bio') || q.has('location') || q.has('posts_count'), false, page.url());
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('tag an account, filter by the tag in the header', async () => {
    const page = await owner.newPage();
    await page.goto(base());
    await page.getByTestId('influencers-range').waitFor();
    await page.getByLabel('Influencer tags of Account 27', { exact: true }).click();
    const menu = page.getByTestId('influencer-tag-menu');
    await menu.waitFor();
    await menu.getByLabel('New tag name').fill('Key people');
    await menu.getByRole('button', { name: 'Create', exact: true }).click();
    // The new tag is put on the account.
    await waitUntil(async () => (await rows(page).first().innerText()).includes('Key people'), { what: 'tag chip' });
    await page.keyboard.press('Escape');
    const tags = await api(owner, 'GET', '/influencer-tags');
    const id = tags.body.tags.find((t) => t.name === 'Key people').id;
    await page.goto(`${base()}?influencerTags=${id}&influencerTagFilterMode=any`);
    await page.getByTestId('influencers-range').waitFor();
    await waitUntil(async () => (await rows(page).count()) === 1, { what: 'tag filter' });
    assert.equal(await firstAccount(page), 'twitter;acct27');
    await shot(page, 'influencers-03-tagged');
    await page.close();
  });

  test('side view: profile, sortable posts, single post with arrow keys', async () => {
    const page = await owner.newPage();
    await page.goto(`${base()}?search=acct27`);
    await waitUntil(async () => (await firstAccount(page)) === 'twitter;acct27', { what: 'row' });
    await rows(page).first().click();
    const panel = page.getByTestId('influencer-side-view');
    await panel.waitFor();
    assert.match(await panel.innerText(), /Account 27/);
    assert.equal(await panel.getByRole('link', { name: /View profile/ }).getAttribute('href'), 'https://x.com/acct27');
    const postRows = panel.locator('[data-testid="account-posts"] tbody tr');
    await waitUntil(async () => (await postRows.count()) === 4, { what: 'account posts' });
    // Newest first by default; engagement lowest first after two clicks.
    assert.equal(await postRows.first().getAttribute('data-post'), 'twitter;27-0');
    await panel.getByRole('button', { name: 'Engagements' }).click();
    await panel.getByRole('button', { name: 'Engagements' }).click();
    await waitUntil(async () => (await postRows.first().getAttribute('data-post')) === 'twitter;27-0', { what: 'engagement asc' });
    await shot(page, 'influencers-04-side-view', { fullPage: false });
    await postRows.first().click();
    const single = panel.getByTestId('single-post-text');
    await single.waitFor();
    assert.match(await single.innerText(), /coffee post 0 of account 27/);
    await page.keyboard.press('ArrowRight');
    await waitUntil(async () => /coffee post 1 of account 27/.test(await single.innerText()), { what: 'next post' });
    await page.keyboard.press('ArrowLeft');
    await waitUntil(async () => /coffee post 0 of account 27/.test(await single.innerText()), { what: 'previous post' });
    await panel.getByRole('button', { name: 'Post List' }).click();
    await waitUntil(async () => (await postRows.count()) === 4, { what: 'back to the list' });
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await page.close();
  });

  test('export CSV and read it back', async () => {
    const page = await owner.newPage();
    await page.goto(`${base()}?sort=posts;desc`);
    await page.getByTestId('influencers-range').waitFor();
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    assert.match(download.suggestedFilename(), new RegExp(`${hash}.*influencers\\.csv$`));
    assert.equal(await download.failure(), null);
    const text = fs.readFileSync(await download.path(), 'utf8');
    const lines = text.trim().split('\n');
    assert.match(lines[0], /^Platform,Name,Username,Profile,Bio,Location,Posts,Engagement/);
    assert.equal(lines.length, 31);
    // Four posts each for acct3, 7, 11 …; ties by account name as text.
    assert.match(lines[1], /^twitter,Account 11,acct11,https:\/\/x\.com\/acct11,coffee fan,Berlin,4,/);
    await page.close();
  });

  test('narrow window (900 px)', async () => {
    const ctx = await browser.newContext({ viewport: { width: 900, height: 900 }, storageState: await owner.storageState() });
    const page = await ctx.newPage();
    await page.goto(base());
    await page.getByTestId('influencers-range').waitFor();
    assert.equal(await rows(page).count(), 25);
    await shot(page, 'influencers-05-list-900');
    await ctx.close();
  });

  /** Runs SQL on the server's database (what no endpoint offers: memberships, share-exports, demo). */
  function sql(statement) {
    const u = server.databaseUrl;
    if (u.startsWith('sqlite://')) execFileSync('sqlite3', [u.slice('sqlite://'.length), statement]);
    else execFileSync('psql', [u, '-qc', statement]);
  }

  test('a viewer sees the list only; with shared exports, Export too', async () => {
    const env = { ...process.env };
    if (!server.databaseUrl.startsWith('sqlite://')) env.HARK_DATABASE_URL = server.databaseUrl;
    execFileSync(server.bin, ['user', 'add', '--data-dir', server.dataDir, '--email', 'vic@example.com', '--name', 'Vic Viewer'], { input: 'correct horse battery\n', env });
    sql(`INSERT INTO tracker_members (tracker_id, user_id, permission) SELECT t.id, u.id, 1 FROM trackers t, users u WHERE t.hash = '${hash}' AND u.email = 'vic@example.com'`);
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    const login = await api(ctx, 'POST', '/auth/login', { email: 'vic@example.com', password: 'correct horse battery' });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const page = await ctx.newPage();
    await page.goto(base());
    await page.getByTestId('influencers-range').waitFor();
    assert.equal(await rows(page).count(), 25);
    assert.equal(await page.getByLabel(/^Influencer tags of/).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Manage tags' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Export' }).count(), 0);
    await shot(page, 'influencers-06-viewer');
    sql(`UPDATE trackers SET share_exports = TRUE WHERE hash = '${hash}'`);
    await page.reload();
    await page.getByTestId('influencers-range').waitFor();
    assert.equal(await page.getByLabel(/^Influencer tags of/).count(), 0);
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    assert.equal(await download.failure(), null);
    assert.equal(fs.readFileSync(await download.path(), 'utf8').trim().split('\n').length, 31);
    sql(`UPDATE trackers SET share_exports = FALSE WHERE hash = '${hash}'`);
    await ctx.close();
  });

  test('the demo tracker: an anonymous visitor sees the list only', async () => {
    sql(`UPDATE trackers SET is_demo = TRUE WHERE hash = '${hash}'`);
    const anon = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await anon.newPage();
    await page.goto(`${base()}?demo=true`);
    await page.getByTestId('influencers-range').waitFor();
    assert.equal(await rows(page).count(), 25);
    for (const name of ['Export', 'Manage tags']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
    assert.equal(await page.getByLabel(/^Influencer tags of/).count(), 0);
    await rows(page).first().click();
    await page.getByTestId('influencer-side-view').waitFor();
    assert.equal((await api(anon, 'GET', `/trackers/${hash}/influencers/export.csv`)).status, 401);
    assert.ok([401, 403].includes((await api(anon, 'PUT', `/trackers/${hash}/influencers/tags`, { accounts: ['twitter;acct1'], add: [1] })).status));
    sql(`UPDATE trackers SET is_demo = FALSE WHERE hash = '${hash}'`);
    await anon.close();
  });
});

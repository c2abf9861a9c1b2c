// End to end: the posts page against a real server — search, filters, sort and paging kept in the
// URL, the detail side view, tags (create, assign, filter ANY/ALL, delete), sentiment edit, bulk
// delete and undo, ignore and undo, add posts by address, CSV export; and what a viewer, a
// share-exports visitor and an anonymous visitor may do.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { api as apiAt, clickOutsideUntilClosed, launchBrowser, shot, startServer, waitUntil, ndjson } from './harness.mjs';

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

/** JSON API calls with the context's cookies and CSRF token. */
const api = (ctx, ...call) => apiAt(ctx, server.url, ...call);

function posts(now) {
  const out = [];
  // 30 posts over the last 29 days: enough for two pages.
  for (let i = 0; i < 30; i++) {
    out.push({
      platform: 'twitter',
      id: String(1000 + i),
      text: i === 3 ? 'Flat white coffee in Lisbon, lovely and wonderful' : `coffee note number ${i}`,
      createdAt: now - i * DAY - 60_000 - i * 1000,
      author: { username: `user${i % 5}`, name: `User ${i % 5}`, location: i === 7 ? 'Porto' : undefined },
      counts: { likes: i * 3, retweets: i, replies: 1, impressions: 20_000 + i },
      ...(i === 5 ? { flags: { isRetweet: true, retweetOf: 'user1' } } : {}),
      ...(i === 2
        ? {
            media: [
              { kind: 'video', url: 'https://video.example/low.mp4', bitrate: 256000, thumbnailUrl: 'https://img.example/t.jpg' },
              { kind: 'video', url: 'https://video.example/mid.mp4', bitrate: 832000 },
            ],
          }
        : {}),
    });
  }
  out.push({ platform: 'twitter', id: '9001', text: 'coffee but awful and terrible, I hate it', createdAt: now - 2 * DAY, author: { username: 'grumpy', name: 'Grumpy Gus' }, counts: { likes: 1 } });
  return out;
}

/** Runs SQL on the server's database (what no endpoint offers: memberships, share-exports). */
function sql(statement) {
  const u = server.databaseUrl;
  if (u.startsWith('sqlite://')) execFileSync('sqlite3', [u.slice('sqlite://'.length), statement]);
  else execFileSync('psql', [u, '-qc', statement]);
}

/** A second account through the CLI, signed in in a new browser context. */
async function signedIn(email) {
  const env = { ...process.env };
  if (!server.databaseUrl.startsWith('sqlite://')) env.HARK_DATABASE_URL = server.databaseUrl;
  execFileSync(server.bin, ['user', 'add', '--data-dir', server.dataDir, '--email', email, '--name', 'Vic Viewer'], { input: 'correct horse battery\n', env });
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
  const login = await api(ctx, 'POST', '/auth/login', { email, password: 'correct horse battery' });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return ctx;
}

describe('posts page', () => {
  let owner;
  let hash;
  let friendly;
  const base = () => `${server.url}/hashtag-tracking/posts/${hash}/${friendly}`;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
    const setup = await api(owner, 'POST', '/setup', { email: 'owner@example.com', password: 'correct horse battery', name: 'Olive Owner' });
    assert.equal(setup.status, 201, JSON.stringify(setup.body));
    const t = await api(owner, 'POST', '/trackers', { platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['coffee'] }] } });
    assert.equal(t.status, 201);
    ({ hash, friendly } = t.body);
    const imp = await api(owner, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson(posts(Date.now())));
    assert.equal(imp.body.imported, 31, JSON.stringify(imp.body));
  });

  after(async () => {
    await owner?.close();
  });

  test('list, search, filters, sort and paging live in the URL', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(base());
    const total = page.getByTestId('posts-total');
    await total.waitFor();
    assert.equal(await total.innerText(), '31 posts');
    assert.equal(await page.locator('tbody tr').count(), 25);
    assert.equal(await page.getByTestId('page-of').innerText(), 'Page 1 of 2');
    // Newest first.
    assert.equal(await page.locator('tbody tr').first().getAttribute('data-post'), 'twitter;1000');
    assert.equal(await page.getByPlaceholder('Search Posts, Users, Locations').count(), 1);
    await shot(page, 'posts-01-table');

    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('page') === '2');
    await waitUntil(async () => (await page.locator('tbody tr').count()) === 6, { what: 'second page' });

    // A filter goes back to page 1.
    // URL-bound checkboxes change when the URL does: click, then wait for it.
    await page.getByLabel('Exclude Retweets').click();
    await page.waitForURL((u) => new URL(u).searchParams.get('excludeRT') === '1' && !new URL(u).searchParams.has('page'));
    await waitUntil(async () => (await total.innerText()) === '30 posts', { what: 'retweet excluded' });

    // Search by location, then by text; a reload shows the same view.
    await page.getByPlaceholder('Search Posts, Users, Locations').fill('lisbon');
    await page.waitForURL((u) => new URL(u).searchParams.get('search') === 'lisbon');
    await waitUntil(async () => (await total.innerText()) === '1 posts', { what: 'search result' });
    await page.reload();
    await total.waitFor();
    assert.equal(await total.innerText(), '1 posts');
    assert.equal(await page.locator('tbody tr').first().getAttribute('data-post'), 'twitter;1003');
    assert.equal(await page.getByLabel('Exclude Retweets').isChecked(), true);

    // Sort by engagement; sentiment filter.
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.waitForURL((u) => !new URL(u).search);
    await page.getByLabel('Sort posts').selectOption('engagement;desc');
    await page.waitForURL((u) => new URL(u).searchParams.get('sort') === 'engagement;desc');
    await waitUntil(async () => (await page.locator('tbody tr').first().getAttribute('data-post')) === 'twitter;1029', { what: 'sorted' });
    await page.getByRole('button', { name: /^Sentiment/ }).click();
    await page.getByLabel('Negative', { exact: true }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL((u) => new URL(u).searchParams.get('sentiment') === 'negative');
    await waitUntil(async () => (await page.locator('tbody tr').first().getAttribute('data-post')) === 'twitter;9001', { what: 'negative only' });
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.waitForURL((u) => !new URL(u).search);

    // User A–Z: by the lowercased name, then oldest first ('Grumpy Gus', then User 0's oldest).
    await page.getByLabel('Sort posts').selectOption('user;asc');
    await page.waitForURL((u) => new URL(u).searchParams.get('sort') === 'user;asc');
    const firstRows = async () => {
      const rows = page.locator('tbody tr');
      return [await rows.nth(0).getAttribute('data-post'), await rows.nth(1).getAttribute('data-post')].join(' ');
    };
    await waitUntil(async () => (await firstRows()) === 'twitter;9001 twitter;1025', { what: 'user order' });
    await shot(page, 'posts-02b-user-sort');
    await page.getByRole('button', { name: 'Reset' }).click();

    // Card view.
    await page.getByRole('button', { name: 'Card view for posts' }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('view') === 'card');
    await page.getByTestId('posts-cards').waitFor();
    await shot(page, 'posts-02-cards');
    await page.getByRole('button', { name: 'Table view for posts' }).click();
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('detail side view with counts, media and notes; Escape and overlay close it', async () => {
    const page = await owner.newPage();
    await page.goto(`${base()}?search=number%202`);
    await page.getByTestId('posts-total').waitFor();
    await page.locator('tr[data-post="twitter;1002"] td button').first().click();
    const panel = page.getByTestId('post-detail');
    await panel.waitFor();
    // Counts above 10,000 are shown short.
    assert.match(await panel.innerText(), /Impressions\s+20k/);
    assert.match(await panel.innerText(), /Retweets\s+2/);
    // The twitter mp4 of at least 320000 bit/s.
    // (The address does not resolve, so the thumbnail shows with a link to the file.)
    assert.equal(await panel.getByTestId('video-link').getAttribute('href'), 'https://video.example/mid.mp4');
    await shot(page, 'posts-03-detail', { fullPage: false });
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await page.goto(`${base()}?search=number%205`);
    await page.getByTestId('posts-total').waitFor();
    await page.locator('tr[data-post="twitter;1005"] td button').first().click();
    await panel.waitFor();
    assert.match(await panel.innerText(), /Retweeted from @user1/);
    await clickOutsideUntilClosed(page, panel, { x: 20, y: 450 });
    await page.close();
  });

  test('tags: create, assign, filter ANY and ALL, untag hides, delete', async () => {
    const page = await owner.newPage();
    await page.goto(base());
    await page.getByTestId('posts-total').waitFor();
    // First tag from the post's tag menu empty state.
    await page.getByLabel('Tags of post twitter;1000').click();
    await page.getByRole('button', { name: 'Click here to create your first tag!' }).click();
    const modal = page.locator('[data-modal="createTag"]');
    await modal.waitFor();
    assert.equal(await modal.getByRole('button', { name: 'Create' }).isDisabled(), true);
    await modal.getByLabel('Tag name').fill('x'.repeat(50));
    assert.equal((await modal.getByLabel('Tag name').inputValue()).length, 45);
    await modal.getByLabel('Tag name').fill('Praise');
    assert.equal(await modal.getByLabel('Tomato').isChecked(), true);
    await shot(page, 'posts-04-create-tag', { fullPage: false });
    await modal.getByRole('button', { name: 'Create' }).click();
    await modal.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'New tag' }).click();
    await page.locator('[data-modal="createTag"]').getByLabel('Tag name').fill('Follow up');
    await page.locator('[data-modal="createTag"]').getByLabel('Peacock').check({ force: true });
    await page.locator('[data-modal="createTag"]').getByRole('button', { name: 'Create' }).click();
    await page.locator('[data-modal="createTag"]').waitFor({ state: 'detached' });

    const tagPost = async (key, name) => {
      await page.getByLabel(`Tags of post ${key}`).click();
      const menu = page.getByTestId('tag-menu');
      const box = menu.getByRole('checkbox', { name, exact: true });
      await box.click();
      await waitUntil(async () => (await box.count()) === 1 && (await box.isChecked()), { what: `tag ${name}` });
      await page.keyboard.press('Escape');
    };
    await tagPost('twitter;1000', 'Praise');
    await tagPost('twitter;1001', 'Praise');
    await tagPost('twitter;1001', 'Follow up');
    await shot(page, 'posts-05-tagged');

    const tags = (await api(owner, 'GET', `/trackers/${hash}/tags`)).body.tags;
    const praise = tags.find((t) => t.name === 'Praise').id;
    const follow = tags.find((t) => t.name === 'Follow up').id;
    await page.goto(`${base()}?postTags=${praise},${follow}&postTagFilterMode=any`);
    await waitUntil(async () => (await page.getByTestId('posts-total').innerText()) === '2 posts', { what: 'ANY' });
    await page.goto(`${base()}?postTags=${praise},${follow}`);
    await waitUntil(async () => (await page.getByTestId('posts-total').innerText()) === '1 posts', { what: 'ALL' });
    // Untagging under an active filter hides the post and lowers the count.
    await page.getByLabel('Tags of post twitter;1001').click();
    await page.getByTestId('tag-menu').getByRole('checkbox', { name: 'Follow up', exact: true }).click();
    await waitUntil(async () => (await page.locator('tr[data-post="twitter;1001"]').count()) === 0, { what: 'hidden after untag' });
    await page.keyboard.press('Escape');
    await page.getByText('We couldn').first().waitFor();
    // Deleting a tag drops it from the filter.
    await page.goto(`${base()}?postTags=${praise}`);
    await waitUntil(async () => (await page.getByTestId('posts-total').innerText()) === '2 posts', { what: 'Praise filter' });
    await page.getByLabel('Tags of post twitter;1000').click();
    await page.getByRole('button', { name: 'Edit tag Praise' }).click();
    await page.locator('[data-modal="editTag"]').getByRole('button', { name: 'Delete tag' }).click();
    await page.locator('[data-modal="confirmDeleteTag"]').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((u) => !new URL(u).searchParams.has('postTags'));
    await waitUntil(async () => (await page.getByTestId('posts-total').innerText()) === '31 posts', { what: 'filter dropped' });
    await page.close();
  });

  test('sentiment edit hides the post after a second under a sentiment filter', async () => {
    const page = await owner.newPage();
    await page.goto(`${base()}?sentiment=negative`);
    await page.locator('tr[data-post="twitter;9001"]').waitFor();
    await page.locator('tr[data-post="twitter;9001"] td button').first().click();
    await page.getByLabel('Edit sentiment').selectOption('positive');
    await page.locator('tr[data-post="twitter;9001"]').waitFor({ state: 'detached', timeout: 5000 });
    const r = await api(owner, 'GET', `/trackers/${hash}/posts?days=30&sentiment=positive&search=grumpy`);
    assert.equal(r.body.total, 1);
    assert.equal(r.body.posts[0].sentimentEdited, true);
    await page.close();
  });

  test('bulk delete with undo, ignore with undo', async () => {
    const page = await owner.newPage();
    await page.goto(base());
    await page.getByTestId('posts-total').waitFor();
    const before = (await api(owner, 'GET', `/trackers/${hash}/stats?days=30`)).body;
    await page.getByLabel('Select post twitter;1000').check();
    await page.getByLabel('Select post twitter;1001').check();
    await page.getByRole('region', { name: 'Selected posts' }).getByRole('button', { name: 'Delete' }).click();
    await page.locator('[data-modal="postBulkDelete"]').getByRole('button', { name: 'Delete' }).click();
    const notice = page.getByTestId('notice');
    await notice.getByText('Successfully deleted 2 post(s).').waitFor();
    await shot(page, 'posts-06-deleted-undo', { fullPage: false });
    assert.equal(await page.locator('tr[data-post="twitter;1000"]').count(), 0);
    assert.equal(await page.getByTestId('posts-total').innerText(), '29 posts');
    const mid = (await api(owner, 'GET', `/trackers/${hash}/stats?days=30`)).body;
    assert.equal(mid.posts, before.posts - 2);
    await notice.getByRole('button', { name: 'Undo' }).click();
    await page.locator('tr[data-post="twitter;1000"]').waitFor();
    await waitUntil(async () => (await page.getByTestId('posts-total').innerText()) === '31 posts', { what: 'undo' });
    // The page shows the posts again at once; the undo request may still be on its way.
    let back;
    await waitUntil(async () => {
      back = (await api(owner, 'GET', `/trackers/${hash}/stats?days=30`)).body;
      return back.posts === before.posts;
    }, { what: 'undo stored' });
    assert.deepEqual(back, before);

    // Ignore the author of a post, then undo.
    await page.locator('tr[data-post="twitter;1003"] td button').first().click();
    await page.getByRole('button', { name: "Don't collect any more posts from this user" }).click();
    await notice.getByText('Successfully ignored 1 user(s).').waitFor();
    const imp = await api(owner, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson([{ platform: 'twitter', id: '7001', text: 'more coffee', createdAt: Date.now(), author: { username: 'user3' } }]));
    assert.equal(imp.body.imported, 0, 'no posts from an ignored user');
    await notice.getByRole('button', { name: 'Undo' }).click();
    await waitUntil(async () => {
      const r = await api(owner, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson([{ platform: 'twitter', id: '7002', text: 'more coffee', createdAt: Date.now(), author: { username: 'user3' } }]));
      return r.body.imported === 1;
    }, { what: 'collected again after undo' });
    // That post arrived after the owner's last visit: marked new, with the notice.
    await page.goto(base());
    await page.getByTestId('notice').getByText('1 new post(s) since your last visit').waitFor();
    assert.equal(await page.locator('tr[data-post="twitter;7002"]').getByText('New', { exact: true }).count(), 1);
    await page.close();
  });

  test('add posts by address, CSV export and embed code', async () => {
    const other = await api(owner, 'POST', '/trackers', { platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['tea'] }] } });
    await api(owner, 'POST', `/trackers/${other.body.hash}/import?format=ndjson`, undefined, ndjson([
      { platform: 'twitter', id: '5001', text: 'green tea', createdAt: Date.now() },
      { platform: 'twitter', id: '5002', text: 'tea with coffee', createdAt: Date.now() },
    ]));
    const page = await owner.newPage();
    await page.goto(base());
    await page.getByTestId('posts-total').waitFor();
    const before = Number((await page.getByTestId('posts-total').innerText()).split(' ')[0]);
    await page.getByRole('button', { name: 'Add Posts' }).click();
    const modal = page.locator('[data-modal="addPostsModal"]');
    await modal.getByLabel('Post URL 1').fill('https://x.com/a/status/5001');
    await modal.getByRole('button', { name: '+ Add another URL' }).click();
    await modal.getByLabel('Post URL 2').fill('https://x.com/a/status/5002');
    await modal.getByRole('button', { name: 'Add Posts' }).click();
    await modal.getByText('Some posts were not added successfully').waitFor();
    assert.equal(await modal.getByTestId('add-post-error').innerText(), 'Post did not contain search terms/criteria');
    await shot(page, 'posts-07-add-posts', { fullPage: false });
    await page.keyboard.press('Escape');
    await waitUntil(async () => (await page.getByTestId('posts-total').innerText()) === `${before + 1} posts`, { what: 'added post listed' });

    // CSV of the current view.
    await page.goto(`${base()}?search=lisbon`);
    await page.getByTestId('posts-total').waitFor();
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const csv = await (await download.createReadStream()).toArray();
    const text = Buffer.concat(csv).toString('utf8');
    const lines = text.trim().split('\n');
    assert.equal(lines.length, 2, text);
    assert.match(lines[0], /^Date \(UTC\),Platform,Name,Username/);
    assert.match(lines[1], /Flat white coffee in Lisbon/);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Embed' }).click();
    const code = await page.getByLabel('Embed code').inputValue();
    assert.match(code, /height="400"/);
    assert.match(code, new RegExp(`/hashtag-tracking/posts/${hash}/`));
    await page.close();
  });

  test('a viewer reads only; with shared exports exports and embeds; signed out sees nothing', async () => {
    const viewer = await signedIn('vic@example.com');
    sql(`INSERT INTO tracker_members (tracker_id, user_id, permission) SELECT t.id, u.id, 1 FROM trackers t, users u WHERE t.hash = '${hash}' AND u.email = 'vic@example.com'`);
    const page = await viewer.newPage();
    await page.goto(base());
    await page.getByTestId('posts-total').waitFor();
    for (const name of ['Embed', 'Add Posts', 'Export', 'New tag']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
    assert.equal(await page.getByLabel(/^Select post/).count(), 0);
    assert.equal(await page.getByLabel(/^Tags of post/).count(), 0);
    await page.locator('tbody tr td button').first().click();
    await page.getByTestId('post-detail').waitFor();
    assert.equal(await page.getByLabel('Edit sentiment').count(), 0);
    assert.equal(await page.getByRole('button', { name: "Don't collect any more posts from this user" }).count(), 0);
    await shot(page, 'posts-08-viewer-detail', { fullPage: false });
    await page.keyboard.press('Escape');
    // The API refuses too.
    assert.equal((await api(viewer, 'POST', `/trackers/${hash}/posts/delete`, { posts: ['twitter;1000'] })).status, 403);
    assert.equal((await api(viewer, 'PUT', `/trackers/${hash}/posts/sentiment`, { post: 'twitter;1000', sentiment: 'negative' })).status, 403);
    assert.equal((await api(viewer, 'GET', `/trackers/${hash}/posts/export.csv`)).status, 403);

    // Shared exports: Export and Embed, still no editing.
    sql(`UPDATE trackers SET share_exports = TRUE WHERE hash = '${hash}'`);
    await page.reload();
    await page.getByTestId('posts-total').waitFor();
    await page.getByRole('button', { name: 'Embed' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Export' }).count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Add Posts' }).count(), 0);
    assert.equal(await page.getByLabel(/^Select post/).count(), 0);
    await shot(page, 'posts-09-share-exports');
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
    assert.match(text.split('\n')[0], /^\uFEFFDate \(UTC\),Platform/);
    assert.equal((await api(viewer, 'PUT', `/trackers/${hash}/posts/tags`, { posts: ['twitter;1000'], add: [1] })).status, 403);
    await viewer.close();

    // Signed out: the private tracker's posts are not readable.
    const anon = await browser.newContext();
    assert.equal((await api(anon, 'GET', `/trackers/${hash}/posts`)).status, 401);
    await anon.close();
  });

  test('the demo tracker: an anonymous visitor gets the limited view', async () => {
    sql(`UPDATE trackers SET is_demo = TRUE WHERE hash = '${hash}'`);
    const anon = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await anon.newPage();
    await page.goto(`${base()}?demo=true`);
    await page.getByTestId('posts-total').waitFor();
    for (const name of ['Embed', 'Add Posts', 'Export', 'New tag']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
    assert.equal(await page.getByLabel(/^Select post/).count(), 0);
    await page.locator('tbody tr td button').first().click();
    await page.getByTestId('post-detail').waitFor();
    assert.equal(await page.getByLabel('Edit sentiment').count(), 0);
    await shot(page, 'posts-10-anonymous-demo', { fullPage: false });
    assert.equal((await api(anon, 'GET', `/trackers/${hash}/posts/export.csv`)).status, 401);
    assert.ok([401, 403].includes((await api(anon, 'POST', `/trackers/${hash}/posts/delete`, { posts: ['twitter;1000'] })).status));
    const list = await api(anon, 'GET', `/trackers/${hash}/posts?days=30&postTags=1`);
    assert.equal(list.status, 200);
    assert.ok(list.body.posts.every((p) => p.tags.length === 0), 'no tags for anonymous visitors');
    sql(`UPDATE trackers SET is_demo = FALSE WHERE hash = '${hash}'`);
    await anon.close();
  });
});

// End to end: the trending topics page against a real server — words and hashtags tabs (keyboard
// too), sorting by posts and trend both ways, paging, three drill-down layers and back through the
// breadcrumb (the layer kept over a reload, a header filter change and Back), the tab and layer
// returned by Back and Forward and kept over a reload, the topic posts side
// view with Show More, the chart's time-bucket side view, the side view's error sentence, and no
// page for a news-only tracker.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api as apiAt, clickOutsideUntilClosed, launchBrowser, shot, startServer, waitUntil, ndjson } from './harness.mjs';

const DAY = 86_400_000;
const SECOND = 1000;
const SIDE_VIEW_ERROR = 'Sorry, an error occurred. Please try again later.';
/** The chart drawn for the layer shown (not the one before it, kept while the next loads). */
const DRAWN = '[data-testid="chart-body"][aria-busy="false"] [data-chart-drawn="true"]';
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
const letter = (i) => String.fromCharCode(97 + i);

/**
 * 40 posts in the page's default range (the last 14 days) and 40 in the eight weeks before it.
 * Every post says coffee. Recent: espresso in 24, surge in 20 (once before), newcomer in 6 (never
 * before), fading in 5 (30 before), and 25 words (quarka … quarky) in one post each; #brew in 15,
 * #morning in 8, both in 5. The words are 30 in all: two pages.
 */
function recentPost(i, now) {
  const words = ['coffee'];
  if (i < 24) words.push('espresso');
  if (i % 2 === 0) words.push('surge');
  if (i >= 30 && i < 35) words.push('fading');
  if (i >= 34) words.push('newcomer');
  if (i < 25) words.push(`quark${letter(i)}`);
  const tags = [];
  if (i < 15) tags.push('#brew');
  if (i >= 10 && i < 18) tags.push('#morning');
  return {
    platform: 'twitter',
    id: `r${i}`,
    text: [...words, ...tags].join(' '),
    createdAt: now - (i % 10) * DAY - (i + 1) * SECOND,
    author: { username: `fan${i}`, name: `Coffee Fan ${i}` },
    counts: { likes: i, retweets: 1 },
  };
}

function olderPost(j, now) {
  const words = ['coffee'];
  if (j < 24) words.push('espresso');
  if (j === 0) words.push('surge');
  if (j < 30) words.push('fading');
  const tags = [];
  if (j < 15) tags.push('#brew');
  if (j < 8) tags.push('#morning');
  return {
    platform: 'twitter',
    id: `o${j}`,
    text: [...words, ...tags].join(' '),
    createdAt: now - (15 + j) * DAY,
    author: { username: `old${j}`, name: `Old Fan ${j}` },
    counts: { likes: j },
  };
}

describe('trending topics page', () => {
  let owner;
  let hash;
  let friendly;
  const recent = [];
  const base = () => `${server.url}/hashtag-tracking/trending-topics/${hash}/${friendly}`;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1400, height: 900 }, timezoneId: 'UTC' });
    const setup = await api(owner, 'POST', '/setup', { email: 'owner@example.com', password: 'correct horse battery', name: 'Olive Owner' });
    assert.equal(setup.status, 201, JSON.stringify(setup.body));
    const t = await api(owner, 'POST', '/trackers', { platforms: { twt: 1, ig: 1 }, search: { rows: [{ type: '+', searches: ['coffee'] }] } });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    ({ hash, friendly } = t.body);
    const now = Date.now();
    for (let i = 0; i < 40; i++) recent.push(recentPost(i, now));
    const list = [...recent, ...Array.from({ length: 40 }, (_, j) => olderPost(j, now))];
    const imp = await api(owner, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson(list));
    assert.equal(imp.body.imported, list.length, JSON.stringify(imp.body));
  });

  after(async () => {
    await owner?.close();
  });

  const rows = (page) => page.locator('[data-testid="topics-table"] tbody tr');
  const topics = (page) => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-topic')));
  const firstTopic = async (page) => (await topics(page))[0];
  const params = (page) => new URL(page.url()).searchParams;
  const crumbs = (page) => page.getByTestId('topic-breadcrumb').evaluate((n) => n.textContent.replace(/\s+/g, ' ').trim());
  const waitTopics = (page, check, what) => waitUntil(async () => check(await topics(page)), { what, timeoutMs: 10_000 });

  test('tabs, sorting both ways and paging', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(base());
    const range = page.getByTestId('topics-range');
    await range.waitFor();
    assert.equal(await range.innerText(), '1–20 of 30 topics');
    assert.deepEqual((await topics(page)).slice(0, 5), ['coffee', 'espresso', 'surge', 'newcomer', 'fading']);
    const row = (label) => page.locator(`tr[data-topic="${label}"]`);
    assert.equal(await row('coffee').getByTestId('topic-share').innerText(), '100.0%');
    assert.equal(await row('espresso').getByTestId('topic-count').innerText(), '24');
    assert.equal(await row('espresso').getByTestId('topic-share').innerText(), '60.0%');
    assert.equal(await row('newcomer').getByTestId('share-change').innerText(), 'New');
    assert.match(await row('surge').getByTestId('trend-score').innerText(), /▲\s*\+\d+\.\d/);
    assert.match(await row('fading').getByTestId('trend-score').innerText(), /▼\s*-\d+\.\d/);
    assert.match(await row('fading').getByTestId('share-change').innerText(), /^-\d+%$/);
    assert.match(await page.getByTestId('trend-legend').innerText(), /above 2 is unusual, above 4 very unusual\. Trend compares .+ \(40 posts\) with .+ \(40 posts\)\./);
    assert.equal(await page.getByRole('columnheader', { name: /Posts/ }).first().getAttribute('aria-sort'), 'descending');
    await page.locator(DRAWN).waitFor();
    await shot(page, 'topics-01-words-1400');

    // The trend score's explanation on the header's info button.
    await page.getByRole('button', { name: 'What the trend score means' }).hover();
    const tip = page.getByRole('tooltip');
    await tip.waitFor();
    assert.match(await tip.innerText(), /above 4 very unusual/i);
    await shot(page, 'topics-02-trend-tooltip', { fullPage: false });
    await page.mouse.move(0, 0);

    // Posts lowest first (ties A–Z), then trend highest and lowest first.
    await page.getByRole('button', { name: 'Posts', exact: true }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('sort') === 'count;asc');
    await waitTopics(page, (t) => t[0] === 'quarka', 'posts ascending');
    assert.match(await page.locator('th[aria-sort="ascending"]').innerText(), /^Posts/);
    await page.getByRole('button', { name: 'Trend', exact: true }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('sort') === 'trend;desc');
    await waitTopics(page, (t) => t[0] === 'surge', 'trend descending');
    await page.getByRole('button', { name: 'Trend', exact: true }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('sort') === 'trend;asc');
    await waitTopics(page, (t) => t[0] === 'fading', 'trend ascending');
    assert.match(await page.locator('th[aria-sort="ascending"]').innerText(), /Trend/);

    // Paging, 20 a page.
    await page.getByRole('button', { name: 'Posts', exact: true }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('sort') === 'count;desc');
    await waitTopics(page, (t) => t[0] === 'coffee', 'posts descending');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('page') === '2');
    await waitUntil(async () => (await range.innerText()) === '21–30 of 30 topics', { what: 'second page' });
    assert.equal(await rows(page).count(), 10);
    assert.ok(await page.getByRole('button', { name: 'Next' }).isDisabled());
    await page.getByRole('button', { name: 'Prev' }).click();
    await waitUntil(async () => (await range.innerText()) === '1–20 of 30 topics', { what: 'first page again' });

    // Hashtags by the keyboard: arrow keys move between the tabs.
    await page.getByRole('tab', { name: 'Words' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => new URL(u).searchParams.get('kind') === 'hashtag');
    await waitTopics(page, (t) => t.join() === '#brew,#morning', 'hashtags');
    assert.equal(await page.getByRole('tab', { name: 'Hashtags' }).getAttribute('aria-selected'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Hashtags');
    assert.equal(await range.innerText(), '1–2 of 2 topics');
    await page.keyboard.press('ArrowLeft');
    await page.waitForURL((u) => !new URL(u).searchParams.has('kind'));
    await waitTopics(page, (t) => t[0] === 'coffee', 'words again');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('three layers, back through the breadcrumb; the layer survives a reload, a header filter and Back', async () => {
    const page = await owner.newPage();
    await page.goto(base());
    await page.getByTestId('topics-range').waitFor();
    assert.equal(await crumbs(page), 'All topics');

    // Layer 2: the words of posts with coffee.
    await page.locator('tr[data-topic="coffee"]').getByTestId('topic-link').click();
    await page.waitForURL((u) => new URL(u).searchParams.get('path') === 'word:coffee');
    await waitTopics(page, (t) => t[0] === 'espresso' && !t.includes('coffee'), 'layer 2');
    assert.equal(await crumbs(page), 'All topics › coffee');
    assert.equal(await page.getByTestId('topics-range').innerText(), '1–20 of 29 topics');
    assert.equal(await page.getByTestId('layer-posts').innerText(), '40 posts with coffee');

    // Its hashtags, then layer 3 under #brew.
    await page.getByRole('tab', { name: 'Hashtags' }).click();
    await waitTopics(page, (t) => t.join() === '#brew,#morning', 'layer 2 hashtags');
    await page.locator('tr[data-topic="#brew"]').getByTestId('topic-link').click();
    await page.waitForURL((u) => new URL(u).searchParams.get('path') === 'word:coffee,hashtag:brew');
    await waitTopics(page, (t) => t.join() === '#morning', 'layer 3');
    assert.equal(await crumbs(page), 'All topics › coffee › #brew');
    assert.equal(await page.getByTestId('layer-posts').innerText(), '15 posts with coffee + #brew');
    assert.equal(await page.locator('tr[data-topic="#morning"]').getByTestId('topic-count').innerText(), '5');
    // The last layer does not drill further.
    assert.equal(await page.getByTestId('topic-link').count(), 0);
    await page.getByRole('tab', { name: 'Words' }).click();
    await waitTopics(page, (t) => t[0] === 'espresso' && t.length === 17, 'layer 3 words');
    assert.equal(await page.getByTestId('topic-link').count(), 0);
    await page.locator(DRAWN).waitFor();
    await shot(page, 'topics-03-layer-3');

    // A reload shows the same layer; so does a header filter change.
    await page.reload();
    await waitTopics(page, (t) => t[0] === 'espresso' && t.length === 17, 'layer 3 after reload');
    assert.equal(await crumbs(page), 'All topics › coffee › #brew');
    // (A click, not uncheck(): the box follows the URL, which changes a moment after the click.)
    await page.getByLabel('Instagram').click();
    await page.waitForURL((u) => {
      const q = new URL(u).searchParams;
      return q.get('platforms') === 'twt' && q.get('path') === 'word:coffee,hashtag:brew';
    });
    assert.equal(await page.getByLabel('Instagram').isChecked(), false);
    assert.equal(await crumbs(page), 'All topics › coffee › #brew');
    await waitTopics(page, (t) => t[0] === 'espresso' && t.length === 17, 'layer 3 after the platform change');

    // The breadcrumb goes back to any layer; Back returns to the layer before.
    await page.getByTestId('topic-breadcrumb').getByRole('link', { name: 'coffee' }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('path') === 'word:coffee');
    assert.equal(await crumbs(page), 'All topics › coffee');
    await waitTopics(page, (t) => t[0] === 'espresso' && t.length === 20, 'layer 2 again');
    assert.ok(await page.locator('tr[data-topic="espresso"]').getByTestId('topic-link').isVisible());
    await page.getByTestId('topic-breadcrumb').getByRole('link', { name: 'All topics' }).click();
    await page.waitForURL((u) => !new URL(u).searchParams.has('path'));
    await waitTopics(page, (t) => t[0] === 'coffee', 'layer 1 again');
    assert.equal(await crumbs(page), 'All topics');
    await page.goBack();
    await waitTopics(page, (t) => t[0] === 'espresso' && !t.includes('coffee'), 'layer 2 by Back');
    assert.equal(await crumbs(page), 'All topics › coffee');
    await page.close();
  });

  test('Back and Forward return the tab and the layer, and a reload keeps them', async () => {
    const page = await owner.newPage();
    await page.goto(base());
    await page.getByTestId('topics-range').waitFor();
    const selected = (name) =>
      waitUntil(async () => (await page.getByRole('tab', { name }).getAttribute('aria-selected')) === 'true', { what: `${name} tab selected`, timeoutMs: 10_000 });
    const at = (kind, path) =>
      page.waitForURL((u) => {
        const q = new URL(u).searchParams;
        return q.get('kind') === kind && q.get('path') === path;
      });

    // The hashtags tab, then the layer under #brew: two history entries.
    await page.getByRole('tab', { name: 'Hashtags' }).click();
    await at('hashtag', null);
    await waitTopics(page, (t) => t.join() === '#brew,#morning', 'hashtags');
    await page.locator('tr[data-topic="#brew"]').getByTestId('topic-link').click();
    await at('hashtag', 'hashtag:brew');
    await waitTopics(page, (t) => t.join() === '#morning', 'layer under #brew');
    assert.equal(await crumbs(page), 'All topics › #brew');

    // Back: the hashtags of the first layer, then the words; Forward: the same again.
    await page.goBack();
    await at('hashtag', null);
    await waitTopics(page, (t) => t.join() === '#brew,#morning', 'hashtags by Back');
    await selected('Hashtags');
    assert.equal(await crumbs(page), 'All topics');
    await page.goBack();
    await at(null, null);
    await waitTopics(page, (t) => t[0] === 'coffee', 'words by Back');
    await selected('Words');
    await page.goForward();
    await at('hashtag', null);
    await waitTopics(page, (t) => t.join() === '#brew,#morning', 'hashtags by Forward');
    await selected('Hashtags');
    await page.goForward();
    await at('hashtag', 'hashtag:brew');
    await waitTopics(page, (t) => t.join() === '#morning', 'layer under #brew by Forward');
    await selected('Hashtags');
    assert.equal(await crumbs(page), 'All topics › #brew');

    // A reload shows the same tab and layer.
    await page.reload();
    await waitTopics(page, (t) => t.join() === '#morning', 'layer under #brew after reload');
    await selected('Hashtags');
    assert.equal(await crumbs(page), 'All topics › #brew');
    assert.equal(params(page).get('kind'), 'hashtag');
    assert.equal(params(page).get('path'), 'hashtag:brew');
    await page.close();
  });

  test('side views: a topic’s posts with Show More, a time bucket’s posts, the error sentence', async () => {
    const page = await owner.newPage();
    await page.goto(base());
    await page.getByTestId('topics-range').waitFor();
    const side = page.getByTestId('topic-side-view');
    const listed = side.locator('[data-testid="side-view-posts"] > li');

    // Coffee is in all 40 recent posts: 20, then Show More for the rest.
    await page.getByRole('button', { name: 'View posts mentioning coffee' }).click();
    await side.waitFor();
    assert.equal(await side.getByRole('heading').innerText(), 'Posts mentioning coffee');
    await waitUntil(async () => (await listed.count()) === 20, { what: 'first 20 posts' });
    assert.equal(await side.getByTestId('side-view-count').innerText(), '40 posts');
    assert.match(await listed.first().innerText(), /Coffee Fan 0[\s\S]*coffee espresso surge quarka #brew/);
    await shot(page, 'topics-04-side-view', { fullPage: false });
    await side.getByRole('button', { name: 'Show More' }).click();
    await waitUntil(async () => (await listed.count()) === 40, { what: 'all 40 posts' });
    assert.equal(await side.getByRole('button', { name: 'Show More' }).count(), 0);
    await page.keyboard.press('Escape');
    await side.waitFor({ state: 'detached' });

    // Layer 2 (coffee): a click in the chart's last column lists today's posts with coffee.
    await page.locator('tr[data-topic="coffee"]').getByTestId('topic-link').click();
    await waitTopics(page, (t) => t[0] === 'espresso', 'layer 2');
    const chart = page.locator(DRAWN);
    await chart.waitFor();
    const box = await chart.boundingBox();
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
    await page.getByText('Click to see these posts').waitFor();
    await shot(page, 'topics-08-chart-tooltip', { fullPage: false });
    // From the right edge leftwards: the first click inside the plot is in the last column.
    const asked = [];
    page.on('request', (r) => r.url().includes('/topics/posts') && asked.push(r.url()));
    for (let dx = 8; dx <= 100 && asked.length === 0; dx += 4) {
      await page.mouse.click(box.x + box.width - dx, box.y + box.height / 2);
      await page.waitForTimeout(60);
    }
    assert.equal(asked.length, 1);
    const q = new URL(asked[0]).searchParams;
    const today = new Date();
    today.setUTCHours(0, 0, 0, 0);
    assert.equal(q.get('start'), String(today.getTime()));
    assert.match(q.get('end'), /^\d{13}$/);
    assert.equal(q.get('path'), 'word:coffee');
    assert.equal(q.has('days'), false);
    await side.waitFor();
    const expected = recent.filter((p) => p.createdAt >= today.getTime()).length;
    assert.ok(expected > 0);
    assert.match(await side.getByRole('heading').innerText(), /^Posts from .+ with coffee$/);
    await waitUntil(async () => (await listed.count()) === expected, { what: "today's posts" });
    assert.equal(await side.getByTestId('side-view-count').innerText(), `${expected} ${expected === 1 ? 'post' : 'posts'}`);
    await shot(page, 'topics-05-bucket-side-view', { fullPage: false });
    // The overlay closes it.
    await clickOutsideUntilClosed(page, side, { x: 40, y: 450 });

    // A bucket without posts (the range's first day, through the chart's data table) says so.
    await page.getByText('Data table').click();
    await page.locator('[data-testid="topic-trends-chart"] table').getByRole('button', { name: 'Posts' }).first().click();
    await side.waitFor();
    await waitUntil(async () => (await side.getByTestId('side-view-error').count()) === 1, { what: 'empty bucket' });
    assert.equal(await side.getByTestId('side-view-error').innerText(), SIDE_VIEW_ERROR);
    await page.keyboard.press('Escape');
    await side.waitFor({ state: 'detached' });

    // A failed load says the same.
    await page.route('**/api/v1/trackers/*/topics/posts**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Internal error' } }) }),
    );
    await page.getByRole('button', { name: 'View posts mentioning espresso' }).click();
    await side.waitFor();
    await waitUntil(async () => (await side.getByTestId('side-view-error').count()) === 1, { what: 'error sentence' });
    assert.equal(await side.getByTestId('side-view-error').innerText(), SIDE_VIEW_ERROR);
    await shot(page, 'topics-06-side-view-error', { fullPage: false });
    await page.unroute('**/api/v1/trackers/*/topics/posts**');
    await page.keyboard.press('Escape');
    await page.close();
  });

  test('narrow window (900 px)', async () => {
    const ctx = await browser.newContext({ viewport: { width: 900, height: 900 }, timezoneId: 'UTC', storageState: await owner.storageState() });
    const page = await ctx.newPage();
    await page.goto(`${base()}?path=word%3Acoffee`);
    await page.getByTestId('topics-range').waitFor();
    assert.equal(await rows(page).count(), 20);
    await page.locator(DRAWN).waitFor();
    await shot(page, 'topics-07-layer-2-900');
    await ctx.close();
  });

  test('a news-only tracker has no trending topics page', async () => {
    const t = await api(owner, 'POST', '/trackers', { platforms: { news: 1 }, search: { rows: [{ type: '+', searches: ['coffee'] }] } });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    const page = await owner.newPage();
    await page.goto(`${server.url}/hashtag-tracking/trending-topics/${t.body.hash}/${t.body.friendly}?days=30`);
    await page.waitForURL((u) => new URL(u).pathname === `/hashtag-tracking/dashboard/${t.body.hash}/${t.body.friendly}`);
    assert.equal(new URL(page.url()).searchParams.get('days'), '30');
    const nav = page.getByRole('complementary', { name: 'Tracker navigation' });
    await nav.getByRole('link', { name: /^Dashboard/ }).first().waitFor();
    assert.equal(await nav.getByRole('link', { name: /^Trending Topics/ }).count(), 0);
    await page.close();
  });
});

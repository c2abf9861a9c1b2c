// End to end: the sentiment page against a real server — the score and its five buckets, a period
// dragged across Sentiment Over Time narrowing every view (and its chip removing it from the
// keyboard), a significant keyword narrowing the posts table, the table's sort both ways and
// paging, the keyword editor's "Save and Reanalyze" with its progress and the page refreshed
// afterwards, and no sentiment page for a news-only tracker.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api as apiAt, launchBrowser, shot, startServer, waitUntil, ndjson } from './harness.mjs';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
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

// One text per bucket (the learned model's scores: 0.98, 0.73, 0.02, -0.68, -0.96) and how many a day.
const TEXTS = [
  ['love this wonderful coffee', 3],
  ['nice coffee but slow service', 1],
  ['just had a coffee', 2],
  ['the coffee was a bit weak', 1],
  ['burnt awful terrible coffee', 2],
];

/** Six days of nine posts (18 positive, 6 slightly positive, 12 neutral, 6 slightly negative, 12
 * negative); likes 0…53 by post number. */
function posts(now) {
  const out = [];
  for (let d = 0; d < 6; d++) {
    let k = 0;
    for (const [text, n] of TEXTS) {
      for (let r = 0; r < n; r++, k++) {
        const i = out.length;
        out.push({
          platform: 'twitter',
          id: `s${i}`,
          text,
          // Noon-ish of each of the six days before today.
          createdAt: now - (d + 1) * DAY + k * HOUR,
          author: { username: `user${i}`, name: `User ${String(i).padStart(2, '0')}`, followers: 10 * i },
          counts: { likes: i, retweets: 0 },
        });
      }
    }
  }
  return out;
}

describe('sentiment page', () => {
  let owner;
  let hash;
  let friendly;
  let today;
  // Seven days back from now: a bar per day, wide enough to drag across.
  const url = (extra = '') => `${server.url}/hashtag-tracking/sentiment/${hash}/${friendly}?days=7${extra}`;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const setup = await api(owner, 'POST', '/setup', { email: 'owner@example.com', password: 'correct horse battery', name: 'Olive Owner' });
    assert.equal(setup.status, 201, JSON.stringify(setup.body));
    const t = await api(owner, 'POST', '/trackers', { platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['coffee'] }] } });
    assert.equal(t.status, 201);
    ({ hash, friendly } = t.body);
    // From noon, each day's posts stay in that day (the browser's zone is the server's).
    today = new Date();
    today.setHours(12, 0, 0, 0);
    const list = posts(today.getTime());
    const imp = await api(owner, 'POST', `/trackers/${hash}/import?format=ndjson`, undefined, ndjson(list));
    assert.equal(imp.body.imported, list.length, JSON.stringify(imp.body));
  });

  after(async () => {
    await owner?.close();
  });

  const score = (page) => page.getByTestId('sentiment-score');
  const total = (page) => page.getByTestId('sentiment-total');
  const rows = (page) => page.locator('[data-testid="sentiment-posts-table"] tbody tr');
  const rangeText = (page) => page.getByTestId('sentiment-posts-range');
  const firstPost = (page) => rows(page).first().getAttribute('data-post');

  /** Waits for the views to settle (no panel dimmed while a new answer loads, the chart's bars grown). */
  const settled = async (page) => {
    await waitUntil(async () => (await page.locator('[aria-busy="true"]').count()) === 0, { what: 'views to settle', timeoutMs: 15_000 });
    await page.waitForTimeout(500);
    await page.evaluate(() => window.scrollTo(0, 0));
  };
  /** The chart's data table: per bucket, its cells (bucket, the five sentiments, total). */
  const chartTable = (page) =>
    page.locator('[data-testid="sentiment-chart"] tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].slice(0, 7).map((td) => td.textContent)));

  test('score, buckets, chart and keywords', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url());
    await waitUntil(async () => (await score(page).innerText()) === '+0.11', { what: 'score' });
    assert.equal(await total(page).innerText(), '54');
    const counts = { positive: '18', slight_positive: '6', neutral: '12', slight_negative: '6', negative: '12' };
    for (const [b, n] of Object.entries(counts)) assert.equal(await page.getByTestId(`count-${b}`).innerText(), n, b);
    assert.equal(await page.getByTestId('share-positive').innerText(), '33.3%');
    assert.equal(await page.getByTestId('share-negative').innerText(), '22.2%');
    // The chart: a legend of the five buckets, by day.
    await page.locator('[data-testid="sentiment-chart"] [data-chart-ready="true"]').waitFor();
    assert.equal(await page.getByTestId('grouping').innerText(), 'By day');
    const days = (await chartTable(page)).filter((r) => r[6] !== '0');
    assert.equal(days.length, 6);
    assert.ok(days.every((r) => r.slice(1).join() === '3,1,2,1,2,9'), JSON.stringify(days));
    // Keywords: the positive and negative words, the search term left out.
    const positive = page.locator('[data-keywords="positive"]');
    const negative = page.locator('[data-keywords="negative"]');
    await positive.locator('[data-keyword="wonderful"]').waitFor();
    await negative.locator('[data-keyword="terrible"]').waitFor();
    assert.equal(await page.locator('[data-keyword="coffee"]').count(), 0);
    assert.match(await positive.locator('[data-keyword="love"]').innerText(), /love\s+18/);
    await rows(page).first().waitFor();
    assert.equal(await rows(page).count(), 20);
    await settled(page);
    await shot(page, 'sentiment-01-page');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a period dragged across the chart narrows every view; its chip removes it', async () => {
    const page = await owner.newPage();
    const calls = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith(`/api/v1/trackers/${hash}/`)) calls.push(u);
    });
    await page.goto(url());
    await waitUntil(async () => (await total(page).innerText()) === '54', { what: 'total' });
    const plot = page.locator('[data-testid="sentiment-chart"] [data-chart-ready="true"]');
    await plot.waitFor();
    await settled(page);
    const box = await plot.boundingBox();
    // Across the last three of the eight day bars (the plot spans nearly the whole box).
    const y = box.y + box.height * 0.6;
    calls.length = 0;
    await page.mouse.move(box.x + box.width * 0.6, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.8, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.97, y, { steps: 5 });
    await page.mouse.up();
    const chip = page.getByTestId('selection-chip');
    await chip.waitFor();
    assert.match(await chip.innerText(), /^Selected: \d{1,2} [A-Z][a-z]{2}( – \d{1,2} [A-Z][a-z]{2})?/);
    // Every call asks for the period in milliseconds.
    for (const path of ['sentiment', 'sentiment/keywords', 'posts']) {
      await waitUntil(
        () => calls.some((u) => u.pathname.endsWith(`/${path}`) && /^\d{13}$/.test(u.searchParams.get('start') ?? '') && /^\d{13}$/.test(u.searchParams.get('end') ?? '')),
        { what: `${path} narrowed`, timeoutMs: 10_000 },
      );
    }
    await settled(page);
    // Two of those days hold posts (today holds none).
    const narrowed = await total(page).innerText();
    assert.ok(Number(narrowed) > 0 && Number(narrowed) < 54, narrowed);
    await waitUntil(async () => (await rangeText(page).innerText()).endsWith(`of ${narrowed} posts`), { what: 'table narrowed' });
    await shot(page, 'sentiment-02-selected');

    // The chip's button, from the keyboard.
    await chip.getByRole('button', { name: 'Remove the selected period' }).focus();
    await page.keyboard.press('Enter');
    await chip.waitFor({ state: 'detached' });
    await waitUntil(async () => (await total(page).innerText()) === '54', { what: 'whole range again' });
    await waitUntil(async () => (await rangeText(page).innerText()) === '1–20 of 54 posts', { what: 'table whole again' });
    await page.close();
  });

  test('a keyword narrows the table; sort both ways; paging', async () => {
    const page = await owner.newPage();
    await page.goto(url());
    await waitUntil(async () => (await rangeText(page).innerText()) === '1–20 of 54 posts', { what: 'table' });
    // Paging: 54 posts, 20 a page.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('page') === '2');
    // The label follows the URL once the page renders; the rows follow the response.
    await waitUntil(async () => (await page.getByTestId('sentiment-page-of').innerText()) === 'Page 2 of 3', { what: 'page 2 label' });
    await waitUntil(async () => (await rangeText(page).innerText()) === '21–40 of 54 posts', { what: 'page 2' });
    assert.equal(await rows(page).count(), 20);
    await page.getByRole('button', { name: 'Next' }).click();
    await waitUntil(async () => (await rows(page).count()) === 14, { what: 'page 3' });
    assert.equal(await page.getByRole('button', { name: 'Next' }).isDisabled(), true);
    await page.getByRole('button', { name: 'Prev' }).click();
    await page.waitForURL((u) => new URL(u).searchParams.get('page') === '2');

    // Engagements: highest first, then lowest first.
    const eng = page.getByRole('button', { name: /^Engagements/ });
    await eng.click();
    // A new sort starts on page 1.
    await page.waitForURL((u) => new URL(u).searchParams.get('sort') === 'engagements;desc' && !new URL(u).searchParams.has('page'));
    await waitUntil(async () => (await firstPost(page)) === 'twitter;s53', { what: 'engagement desc' });
    assert.match(await page.locator('th[aria-sort="descending"]').innerText(), /^Engagements/);
    await eng.click();
    await page.waitForURL((u) => new URL(u).searchParams.get('sort') === 'engagements;asc');
    await waitUntil(async () => (await firstPost(page)) === 'twitter;s0', { what: 'engagement asc' });
    assert.equal(await page.locator('th[aria-sort="ascending"]').count(), 1);
    // User: A–Z first, then Z–A.
    const user = page.getByRole('button', { name: /^User/ });
    await user.click();
    await waitUntil(async () => (await rows(page).first().getByTestId('post-author').innerText()) === 'User 00', { what: 'user asc' });
    await user.click();
    await waitUntil(async () => (await rows(page).first().getByTestId('post-author').innerText()) === 'User 53', { what: 'user desc' });

    // A keyword: its posts of that sentiment, with a chip that clears it.
    await page.locator('[data-keywords="positive"] [data-keyword="wonderful"]').click();
    await page.waitForURL((u) => {
      const q = new URL(u).searchParams;
      return q.get('search') === 'wonderful' && q.get('sentiment') === 'positive,slight_positive';
    });
    await waitUntil(async () => (await rangeText(page).innerText()) === '1–18 of 18 posts', { what: 'keyword filter' });
    const texts = await rows(page).getByTestId('post-text').allInnerTexts();
    assert.ok(texts.every((t) => t === 'love this wonderful coffee'), texts.join('|'));
    const chip = page.getByTestId('table-filter-chip');
    assert.equal(await chip.innerText(), 'Keyword: wonderful · Positive');
    assert.equal(await page.locator('[data-keyword="wonderful"]').getAttribute('aria-pressed'), 'true');
    await settled(page);
    await shot(page, 'sentiment-03-keyword');
    // The post's detail side view.
    await rows(page).first().getByTestId('post-text').click();
    const detail = page.getByTestId('post-detail');
    await detail.waitFor();
    assert.match(await detail.innerText(), /love this wonderful coffee/);
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await chip.getByRole('button', { name: 'Clear the posts filter' }).click();
    await waitUntil(async () => (await rangeText(page).innerText()) === '1–20 of 54 posts', { what: 'filter cleared' });
    assert.equal(new URL(page.url()).searchParams.has('search'), false);
    await page.close();
  });

  test('Save and Reanalyze: the progress shows, then every view has the new buckets', async () => {
    const page = await owner.newPage();
    await page.goto(url());
    await waitUntil(async () => (await score(page).innerText()) === '+0.11', { what: 'score' });
    await page.getByRole('button', { name: 'Edit Sentiment Keywords' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Sentiment Keywords' });
    await dialog.waitFor();
    const again = dialog.getByRole('button', { name: 'Save and Reanalyze' });
    assert.equal(await again.isDisabled(), true);
    assert.equal(await dialog.getByRole('button', { name: 'Save', exact: true }).isDisabled(), true);
    const input = dialog.getByRole('textbox', { name: 'Negative keyword 1' });
    await input.fill('wonderful');
    await input.press('Tab');
    await again.click();
    // The progress: the page's own line (and the shell's notice while the server works).
    await page.getByTestId('sentiment-reanalysis').waitFor({ timeout: 10_000 });
    await shot(page, 'sentiment-04-reanalyzing', { fullPage: false });
    // Afterwards: the eighteen "wonderful" posts are negative in every view.
    await waitUntil(async () => (await score(page).innerText()) === '-0.56', { what: 'new score', timeoutMs: 30_000 });
    await page.getByTestId('sentiment-reanalysis').waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await page.getByTestId('count-positive').innerText(), '0');
    assert.equal(await page.getByTestId('count-negative').innerText(), '30');
    await waitUntil(async () => {
      const days = (await chartTable(page)).filter((r) => r[6] !== '0');
      return days.length === 6 && days.every((r) => r.slice(1).join() === '0,1,2,1,5,9');
    }, { what: 'chart buckets' });
    await page.locator('[data-keywords="positive"] [data-keyword="wonderful"]').waitFor({ state: 'detached' });
    const row = rows(page).filter({ hasText: 'love this wonderful coffee' }).first();
    await waitUntil(async () => (await row.getByTestId('post-sentiment').innerText()) === 'Negative', { what: 'table row' });
    await settled(page);
    await shot(page, 'sentiment-05-reanalyzed');
    await page.close();
  });

  test('a news-only tracker has no sentiment page', async () => {
    const t = await api(owner, 'POST', '/trackers', { platforms: { news: 1 }, search: { rows: [{ type: '+', searches: ['tea'] }] } });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    const page = await owner.newPage();
    await page.goto(`${server.url}/hashtag-tracking/sentiment/${t.body.hash}/${t.body.friendly}`);
    await page.waitForURL((u) => new URL(u).pathname === `/hashtag-tracking/dashboard/${t.body.hash}/${t.body.friendly}`);
    await page.getByRole('link', { name: 'Dashboard' }).first().waitFor();
    assert.equal(await page.getByRole('link', { name: 'Sentiment', exact: true }).count(), 0);
    await page.close();
  });
});

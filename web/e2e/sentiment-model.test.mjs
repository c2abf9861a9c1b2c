// End to end: what the learned sentiment model shows a user — the post detail says when a post's
// language left it to the lexicon (and not for English), and the tracker pages show the progress of
// scoring stored posts with a new model while the server works through them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, ownerWithTracker, rewriteAnswers, shot, startServer, waitUntil } from './harness.mjs';

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

const NOTE = 'sentiment estimated from a lexicon';

describe('learned sentiment model', () => {
  let owner;
  let hash;
  let friendly;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const now = Date.now();
    ({ hash, friendly } = await ownerWithTracker(owner, server.url, {
      term: 'coffee',
      posts: [
        { platform: 'twitter', id: 'en1', text: 'This coffee is great, I love it', createdAt: now - 3_600_000, author: { username: 'ann', name: 'Ann' } },
        {
          platform: 'twitter',
          id: 'fr1',
          text: "Le café coffee est délicieux, j'adore ce café du matin",
          createdAt: now - 7_200_000,
          author: { username: 'brigitte', name: 'Brigitte' },
        },
      ],
    }));
  });

  after(async () => {
    await owner?.close();
  });

  test('the post detail names the lexicon for a post the model does not cover', async () => {
    const page = await owner.newPage();
    await page.goto(`${server.url}/hashtag-tracking/posts/${hash}/${friendly}`);
    await page.locator('tr[data-post="twitter;fr1"] td button').first().click();
    const panel = page.getByTestId('post-detail');
    await panel.getByText(NOTE).waitFor();
    await shot(page, 'sentiment-model-01-lexicon-note');
    await page.goto(`${server.url}/hashtag-tracking/posts/${hash}/${friendly}`);
    await page.locator('tr[data-post="twitter;en1"] td button').first().click();
    await panel.getByText('This coffee is great, I love it').first().waitFor();
    assert.equal(await panel.getByText(NOTE).count(), 0);
    assert.equal(await panel.getByText('Positive', { exact: true }).count(), 1, 'the model calls it positive');
    await page.close();
  });

  test('the tracker pages show a new model scoring stored posts, then leave', async () => {
    const page = await owner.newPage();
    let progress = { processed: 1_200, total: 4_800 };
    const release = await rewriteAnswers(page, (u) => new URL(u).pathname === `/api/v1/trackers/${hash}`, (t) => ({ ...t, sentimentModel: progress }));
    await page.goto(`${server.url}/hashtag-tracking/sentiment/${hash}/${friendly}`);
    const notice = page.getByRole('status').filter({ hasText: 'Updating sentiment with the new model' });
    await notice.waitFor();
    assert.match(await notice.innerText(), /1,200 of 4,800 stored posts scored/);
    assert.match(await notice.innerText(), /25%/);
    await shot(page, 'sentiment-model-02-progress', { fullPage: false });
    // The page follows the run and drops the notice when it ends.
    progress = null;
    await waitUntil(async () => (await notice.count()) === 0, { what: 'notice gone', timeoutMs: 15_000 });
    await release();
    await page.close();
  });
});

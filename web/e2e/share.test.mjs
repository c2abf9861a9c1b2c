// End to end: sharing a tracker against a real server — the owner opens Share, sets a custom URL
// and the link-sharing switches; a signed-out browser opens the copied link, reads the dashboard
// and the posts page through it with only what the link allows (date range, exports,
// predictions); Escape in the revoke confirm step cancels it and the link still works; the owner
// revokes the link and the old one stops working.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api as apiAt, launchBrowser, shot, startServer, waitUntil, dashboardSettled as settled, ownerWithTracker } from './harness.mjs';

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

function posts(now) {
  const out = [];
  for (let i = 0; i < 24; i++) {
    out.push({
      platform: 'twitter',
      id: String(5000 + i),
      text: i % 3 === 0 ? `Great coffee morning #coffee number ${i}` : `coffee thoughts ${i}`,
      createdAt: now - i * DAY - 60_000,
      author: { username: `brewer${i % 4}`, name: `Brewer ${i % 4}` },
      counts: { likes: i * 2, retweets: i, replies: 1 },
    });
  }
  return out;
}

/** API answers of 400 and above seen by a page (a visitor's page should ask for nothing it may not read). */
function failedCalls(page) {
  const failed = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/v1/') && r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  return failed;
}

describe('sharing a tracker', () => {
  let owner;
  let hash;
  let friendly;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    let imported;
    ({ hash, friendly, imported } = await ownerWithTracker(owner, server.url, { term: 'coffee', posts: posts(Date.now()) }));
    assert.equal(imported, 24);
  });

  after(async () => {
    await owner?.close();
  });

  test('share, visit signed out, change what the link allows, revoke', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?days=30`);
    await settled(page);

    // The Share dialog loads the sharing; the link keeps the page's query and adds the shareHash.
    await page.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this dashboard' });
    const linkInput = dialog.getByLabel('Dashboard link');
    await linkInput.waitFor();
    const first = new URL(await linkInput.inputValue());
    assert.equal(first.pathname, `/hashtag-tracking/dashboard/${hash}/${friendly}`);
    assert.equal(first.searchParams.get('days'), '30');
    const firstHash = first.searchParams.get('shareHash');
    assert.match(firstHash ?? '', /^[0-9a-f]{16,}$/);
    // This server has no SMTP server: the e-mail section is off and says why (mail.test.mjs sends).
    assert.ok(await dialog.getByLabel('Email addresses').isDisabled());
    assert.ok(await dialog.getByRole('button', { name: 'Send', exact: true }).isDisabled());
    await dialog.getByText('E-mail is not set up on this Hark server').waitFor();

    // Custom URL: spaces go as typed, saved a second after typing stops; the link follows.
    const custom = dialog.getByLabel('Custom URL');
    await custom.fill('morning coffee');
    assert.equal(await custom.inputValue(), 'morningcoffee');
    await dialog.getByTestId('custom-url-status').getByText('Saved').waitFor({ timeout: 10_000 });
    await waitUntil(async () => new URL(await linkInput.inputValue()).pathname.endsWith('/morningcoffee'), { what: 'link with the custom URL' });
    // A refused custom URL shows the server's message and keeps the text.
    await custom.fill('bad/url');
    await dialog.getByText("A custom URL may hold letters, digits, '-' and '_' only.").waitFor({ timeout: 10_000 });
    assert.equal(await custom.inputValue(), 'bad/url');
    await custom.fill('morningcoffee');
    await dialog.getByText("A custom URL may hold letters, digits, '-' and '_' only.").waitFor({ state: 'detached', timeout: 10_000 });

    // Switches: Export reports on; View predictions on and off again.
    const sw = (name) => dialog.getByRole('switch', { name });
    for (const name of ['Edit date range', 'Export reports', 'View predictions', 'Share exports', 'Unlock date range']) {
      assert.equal(await sw(name).getAttribute('aria-checked'), 'false', name);
    }
    await sw('Export reports').click();
    await sw('View predictions').click();
    await sw('View predictions').click();
    await waitUntil(async () => {
      const s = (await api(owner, 'GET', `/trackers/${hash}/share`)).body;
      return s.linkSharing.exportReports && !s.linkSharing.viewPredictions && s.customUrl === 'morningcoffee';
    }, { what: 'saved switches' });
    // The server may have stored the last change before the page has its answer: the switches are waited for.
    await waitUntil(
      async () => (await sw('Export reports').getAttribute('aria-checked')) === 'true' && (await sw('View predictions').getAttribute('aria-checked')) === 'false',
      { what: 'switches shown as saved' },
    );
    await shot(page, 'share-01-modal', { fullPage: false });

    // Copy puts the link on the clipboard-ready button state.
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied!' }).waitFor();
    const link = await linkInput.inputValue();
    assert.ok(link.includes('/morningcoffee?') && link.includes(`shareHash=${firstHash}`), link);

    // A signed-out browser opens the link.
    const anon = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
    const visitor = await anon.newPage();
    const visitorErrors = [];
    visitor.on('pageerror', (e) => visitorErrors.push(e.message));
    const failed = failedCalls(visitor);
    await visitor.goto(link);
    await visitor.getByRole('heading', { level: 1 }).waitFor();
    await settled(visitor);
    assert.equal(await visitor.$eval('[data-stat="Posts"]', (e) => e.textContent), '24');
    for (const name of ['Share', 'Customize', 'Historical Data']) assert.equal(await visitor.getByRole('button', { name }).count(), 0, name);
    assert.equal(await visitor.getByRole('link', { name: 'EDIT TRACKER' }).count(), 0);
    assert.equal(await visitor.getByRole('link', { name: 'Go to Tracker List' }).count(), 0);
    await visitor.getByRole('link', { name: 'Sign in' }).waitFor();
    assert.ok(await visitor.getByRole('button', { name: /^Date range:/ }).isDisabled(), 'date range locked without Edit date range');
    assert.equal(await visitor.getByLabel('Prediction').count(), 0);
    await visitor.locator('[data-testid="chart-timeline"] [data-chart-ready="true"]').waitFor();
    await visitor.waitForTimeout(1000); // the chart's entry animation
    await shot(visitor, 'share-02-visitor-dashboard', { fullPage: false });

    // The posts page keeps the shareHash; Export reports is on, so the CSV downloads.
    await visitor.getByRole('link', { name: /^Posts/ }).first().click();
    await visitor.waitForURL((u) => new URL(u).pathname.startsWith(`/hashtag-tracking/posts/${hash}`));
    assert.equal(new URL(visitor.url()).searchParams.get('shareHash'), firstHash);
    // 30 days is the posts page's default, so the address leaves it out.
    assert.ok([null, '30'].includes(new URL(visitor.url()).searchParams.get('days')));
    await visitor.getByTestId('posts-total').getByText('24 posts').waitFor();
    // A link with Export reports may embed (share-exports visitors export and embed).
    await visitor.getByRole('button', { name: 'Embed', exact: true }).click();
    const embedCode = await visitor.getByRole('dialog', { name: 'Embed the posts page' }).getByLabel('Embed code').inputValue();
    assert.match(embedCode, /embed=1&amp;embedKey=[0-9a-f]+/);
    await visitor.keyboard.press('Escape');
    assert.equal(await visitor.getByRole('button', { name: 'Add Posts' }).count(), 0);
    assert.equal(await visitor.getByRole('button', { name: 'New tag' }).count(), 0);
    assert.equal(await visitor.getByLabel(/^Select post/).count(), 0);
    await visitor.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([visitor.waitForEvent('download'), visitor.getByTestId('export-csv').click()]);
    const csv = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
    assert.match(csv.split('\n')[0], /^\uFEFFDate \(UTC\),Platform/);
    assert.equal(csv.trim().split('\n').length, 25);
    await shot(visitor, 'share-03-visitor-posts', { fullPage: false });

    // The owner turns Export reports off and Edit date range and View predictions on.
    await sw('Export reports').click();
    await sw('Edit date range').click();
    await sw('View predictions').click();
    await waitUntil(async () => {
      const s = (await api(owner, 'GET', `/trackers/${hash}/share`)).body;
      return !s.linkSharing.exportReports && s.linkSharing.editDateRange && s.linkSharing.viewPredictions;
    }, { what: 'second round of switches' });
    await visitor.reload();
    await visitor.getByTestId('posts-total').getByText('24 posts').waitFor();
    assert.equal(await visitor.getByRole('button', { name: 'Export' }).count(), 0);
    assert.equal(await visitor.getByRole('button', { name: 'Embed', exact: true }).count(), 0);
    assert.ok(await visitor.getByRole('button', { name: /^Date range:/ }).isEnabled(), 'date range open with Edit date range');
    await visitor.getByRole('link', { name: 'Dashboard' }).click();
    await settled(visitor);
    await visitor.waitForTimeout(1000);
    await shot(visitor, 'share-05-visitor-date-range-open', { fullPage: false });
    await visitor.getByLabel('Prediction').check();
    await visitor.getByTestId('prediction-controls').getByText(/Daily posts forecast|could not be computed/).waitFor({ timeout: 15_000 });
    // The visitor picks another range: the link's share stays in the address.
    await visitor.getByRole('button', { name: /^Date range:/ }).click();
    await visitor.getByRole('button', { name: 'Past Week' }).click();
    await visitor.waitForURL((u) => new URL(u).searchParams.get('days') === '7');
    assert.equal(new URL(visitor.url()).searchParams.get('shareHash'), firstHash);
    await settled(visitor);
    // The tracker's other pages read through the link too, each keeping the shareHash.
    for (const [name, section] of [['Influencers', 'influencers'], ['Trending Topics', 'trending-topics'], ['Sentiment', 'sentiment'], ['Media Wall', 'media-wall']]) {
      await visitor.getByRole('link', { name }).click();
      await visitor.waitForURL((u) => new URL(u).pathname.startsWith(`/hashtag-tracking/${section}/${hash}`));
      assert.equal(new URL(visitor.url()).searchParams.get('shareHash'), firstHash, name);
      await visitor.waitForLoadState('networkidle');
      assert.equal(await visitor.getByText('This shared link is no longer valid.').count(), 0, name);
    }
    assert.deepEqual(failed, [], 'the visitor asked for nothing it may not read');

    // Escape in the revoke confirm step cancels the step only: the dialog stays, the focus goes
    // back to Revoke link, and the link (its share hash) is unchanged and still opens.
    const revokeButton = dialog.getByRole('button', { name: 'Revoke link' });
    await revokeButton.click();
    const revokeStep = dialog.getByRole('group', { name: 'Revoke the link' });
    await revokeStep.getByText('Revoke? The current link stops working.').waitFor();
    await waitUntil(() => revokeStep.getByRole('button', { name: 'Cancel' }).evaluate((e) => e === document.activeElement), { what: 'focus on Cancel' });
    await page.keyboard.press('Escape');
    await revokeStep.waitFor({ state: 'detached' });
    assert.ok(await dialog.isVisible(), 'the dialog stays open');
    await waitUntil(() => revokeButton.evaluate((e) => e === document.activeElement), { what: 'focus back on Revoke link' });
    assert.equal(await linkInput.inputValue(), link);
    assert.equal((await api(owner, 'GET', `/trackers/${hash}/share`)).body.shareHash, firstHash);
    await visitor.goto(link);
    await settled(visitor);
    assert.equal(await visitor.$eval('[data-stat="Posts"]', (e) => e.textContent), '24');
    assert.equal(await visitor.getByText('This shared link is no longer valid.').count(), 0);

    // Revoke: a confirm step, then a new link; the old one stops working.
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await dialog.getByText('Revoke? The current link stops working.').waitFor();
    await shot(page, 'share-06-revoke-confirm', { fullPage: false });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('Link revoked: the link above is the new one.').waitFor();
    const renewed = await linkInput.inputValue();
    const secondHash = new URL(renewed).searchParams.get('shareHash');
    assert.ok(secondHash && secondHash !== firstHash);
    assert.ok(new URL(renewed).pathname.endsWith('/morningcoffee'));

    await visitor.goto(link);
    const gone = visitor.getByRole('alert');
    await gone.getByRole('heading', { name: 'This shared link is no longer valid.' }).waitFor();
    assert.match(await gone.getByRole('link', { name: 'Sign in' }).getAttribute('href'), /^\/login\?next=/);
    assert.equal(new URL(visitor.url()).pathname, `/hashtag-tracking/dashboard/${hash}/morningcoffee`);
    await shot(visitor, 'share-04-link-revoked', { fullPage: false });
    await visitor.goto(renewed);
    await settled(visitor);
    assert.equal(await visitor.$eval('[data-stat="Posts"]', (e) => e.textContent), '24');

    // Non-owners get no sharing settings through the API.
    assert.equal((await api(anon, 'GET', `/trackers/${hash}/share`)).status, 401);
    assert.deepEqual(visitorErrors, []);
    assert.deepEqual(errors, []);
    await anon.close();
    await page.close();
  });
});

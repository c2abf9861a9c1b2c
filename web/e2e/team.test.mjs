// End to end: a tracker's team against a real server — the owner opens Team and invites an
// address without an account, copies its sign-up link; a signed-out browser opens the link,
// makes the account and lands signed in on the tracker as a viewer without edit controls; the
// owner raises them to editor (EDIT TRACKER appears, Share and Team do not), thinks better of
// removing them (Escape in the confirm step keeps them), then removes them (the tracker is no
// longer found for them); invited again with an account they join at once,
// and the owner hands them the tracker.
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
  for (let i = 0; i < 12; i++) {
    out.push({
      platform: 'twitter',
      id: String(7000 + i),
      text: `Team coffee notes ${i} #coffee`,
      createdAt: now - i * DAY - 60_000,
      author: { username: `taster${i % 3}`, name: `Taster ${i % 3}` },
      counts: { likes: i, retweets: 1, replies: 0 },
    });
  }
  return out;
}

/** What the tracker header offers the caller. */
async function headerControls(page) {
  const header = page.locator('header', { has: page.getByRole('heading', { level: 1 }) });
  const count = (role, name) => header.getByRole(role, { name, exact: true }).count();
  return {
    edit: (await count('link', 'EDIT TRACKER')) > 0,
    historical: (await count('button', 'Historical Data')) > 0,
    share: (await count('button', 'Share')) > 0,
    team: (await count('button', 'Team')) > 0,
    customize: (await count('button', 'Customize')) > 0,
  };
}

describe('a tracker team', () => {
  let owner;
  let hash;
  let friendly;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1360, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    let imported;
    ({ hash, friendly, imported } = await ownerWithTracker(owner, server.url, { title: 'Coffee team', term: 'coffee', posts: posts(Date.now()) }));
    assert.equal(imported, 12);
  });

  after(async () => {
    await owner?.close();
  });

  test('invite by link, join as a viewer, become an editor, get removed, join again and take the tracker over', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const dashboard = `${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`;
    await page.goto(dashboard);
    await settled(page);
    assert.deepEqual(await headerControls(page), { edit: true, historical: true, share: true, team: true, customize: true });

    // The Team dialog: the owner alone, nobody invited yet.
    await page.getByRole('button', { name: 'Team', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Team' });
    await dialog.getByText('No members yet').waitFor();
    assert.match(await dialog.getByTestId('team-owner').textContent(), /Olive Owner.*\(you\).*owner@example\.com.*Owner/);

    // The owner's own address is refused under the field.
    const email = dialog.getByLabel('Email address');
    await email.fill('owner@example.com');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await dialog.getByRole('alert').getByText("This address is the tracker's owner.").waitFor();
    assert.equal(await email.getAttribute('aria-invalid'), 'true');

    // An address without an account gets an invitation and its sign-up link, shown once.
    await email.fill('vera@example.com');
    assert.equal(await dialog.getByLabel('Rank', { exact: true }).inputValue(), '1');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    const linkInput = dialog.getByLabel('Sign-up link');
    await linkInput.waitFor();
    const link = await linkInput.inputValue();
    assert.match(link, new RegExp(`^${server.url.replace(/[.]/g, '\\.')}/join/[0-9a-f]{32,}$`));
    await dialog.getByText('The link is shown once').waitFor();
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await dialog.getByRole('button', { name: 'Copied!' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    const pending = dialog.getByTestId('team-invitation');
    await pending.waitFor();
    assert.match(await pending.textContent(), /vera@example\.com.*Viewer · link expires/);
    await shot(page, 'team-01-dialog-invited', { fullPage: false });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // A fresh signed-out browser opens the link and makes the account.
    const guest = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const vera = await guest.newPage();
    const veraErrors = [];
    vera.on('pageerror', (e) => veraErrors.push(e.message));
    await vera.goto(link);
    await vera.getByRole('heading', { name: "You're invited" }).waitFor();
    assert.equal(await vera.getByTestId('invitation-summary').textContent(), 'Olive Owner invited you to Coffee team as a viewer.');
    assert.equal(await vera.getByLabel('Email').inputValue(), 'vera@example.com');
    assert.equal(await vera.getByLabel('Email').getAttribute('readonly'), '');
    await vera.getByLabel('Name').fill('Vera Viewer');
    await vera.getByLabel('Password').fill('short');
    await vera.getByRole('button', { name: 'Create account and join' }).click();
    await vera.getByText('The password must be 8 to 200 characters long.').waitFor();
    await vera.getByLabel('Password').fill('espresso shots');
    await shot(vera, 'team-02-join-page', { fullPage: false });
    await vera.getByRole('button', { name: 'Create account and join' }).click();

    // Signed in, on the tracker's dashboard, as a viewer: nothing to edit.
    await vera.waitForURL((u) => new URL(u).pathname === `/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await vera.getByRole('button', { name: 'Account menu for Vera Viewer' }).waitFor();
    await settled(vera);
    assert.equal(await vera.$eval('[data-stat="Posts"]', (e) => e.textContent), '12');
    assert.deepEqual(await headerControls(vera), { edit: false, historical: false, share: false, team: false, customize: false });
    assert.equal(await vera.getByRole('button', { name: 'Historical Data' }).count(), 0, 'no Historical Data in the sidebar either');
    assert.equal(await vera.getByRole('link', { name: 'Tracker Settings' }).count(), 0);
    await vera.locator('[data-testid="chart-timeline"] [data-chart-ready="true"]').waitFor();
    await vera.waitForTimeout(1000); // the chart's entry animation
    await shot(vera, 'team-03-viewer-dashboard', { fullPage: false });
    // The link worked once: opening it again says so.
    const again = await guest.newPage();
    await again.goto(link);
    await again.getByRole('heading', { name: 'This invitation link no longer works' }).waitFor();
    await again.close();

    // The posts page: no selection, no tags, no post actions.
    await vera.getByRole('link', { name: /^Posts/ }).first().click();
    await vera.getByTestId('posts-total').getByText('12 posts').waitFor();
    assert.equal(await vera.getByLabel(/^Select post/).count(), 0);
    for (const name of ['New tag', 'Add Posts', 'Embed', 'Export']) assert.equal(await vera.getByRole('button', { name, exact: true }).count(), 0, name);
    assert.equal(await vera.getByRole('button', { name: /^Tags of post/ }).count(), 0, 'no tag menu on the posts');
    await shot(vera, 'team-04-viewer-posts', { fullPage: false });

    // The owner sees Vera on the team (the invitation is gone) and makes her an editor.
    await page.getByRole('button', { name: 'Team', exact: true }).click();
    const rank = dialog.getByLabel('Rank of Vera Viewer');
    await rank.waitFor();
    assert.equal(await rank.inputValue(), '1');
    assert.equal(await dialog.getByTestId('team-invitation').count(), 0);
    await rank.selectOption('2');
    await waitUntil(async () => (await api(owner, 'GET', `/trackers/${hash}/members`)).body.members.find((m) => m.email === 'vera@example.com')?.permission === 2, {
      what: 'Vera an editor',
    });
    assert.equal(await rank.inputValue(), '2');

    await vera.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await settled(vera);
    assert.deepEqual(await headerControls(vera), { edit: true, historical: true, share: false, team: false, customize: false });
    await vera.locator('[data-testid="chart-timeline"] [data-chart-ready="true"]').waitFor();
    await vera.waitForTimeout(1000);
    await shot(vera, 'team-05-editor-dashboard', { fullPage: false });
    // The editor's EDIT TRACKER opens the search form they may change.
    await vera.getByRole('link', { name: 'EDIT TRACKER' }).click();
    await vera.getByRole('heading', { name: 'Tracker Settings' }).waitFor();
    await vera.getByRole('button', { name: 'Save' }).waitFor();
    assert.equal(await vera.getByRole('button', { name: 'Delete' }).count(), 0);

    // From the keyboard, Escape in the confirm step cancels it: the Team dialog stays open, the
    // focus is back on Remove and Vera is still on the team.
    const removeVera = dialog.getByRole('button', { name: 'Remove Vera Viewer' });
    const confirm = dialog.getByRole('group', { name: 'Remove Vera Viewer' });
    const focused = (locator) => locator.evaluate((el) => el === document.activeElement);
    await removeVera.focus();
    await page.keyboard.press('Enter');
    await confirm.getByText('Remove Vera Viewer? They lose access to this tracker.').waitFor();
    await waitUntil(() => focused(confirm.getByRole('button', { name: 'Cancel' })), { what: 'the focus on Cancel' });
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await waitUntil(() => focused(removeVera), { what: 'the focus back on Remove' });
    assert.ok(await dialog.isVisible(), 'the Team dialog stays open');
    assert.equal(await dialog.getByLabel('Rank of Vera Viewer').inputValue(), '2');
    await page.waitForTimeout(300);
    const kept = await api(owner, 'GET', `/trackers/${hash}/members`);
    assert.ok(kept.body.members.some((m) => m.email === 'vera@example.com'), 'Vera was not removed');
    await vera.goto(dashboard);
    await settled(vera);
    assert.equal(await vera.$eval('[data-stat="Posts"]', (e) => e.textContent), '12');

    // The owner removes Vera after a confirm step; her tracker page no longer finds it.
    await removeVera.click();
    await confirm.getByText('Remove Vera Viewer? They lose access to this tracker.').waitFor();
    await shot(page, 'team-06-remove-confirm', { fullPage: false });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('No members yet').waitFor();
    await vera.goto(dashboard);
    await vera.getByRole('heading', { name: 'Tracker not found' }).waitFor();
    assert.equal(await vera.getByText('Coffee team').count(), 0);

    // Vera has an account now: inviting her again adds her at once, without a link.
    await dialog.getByLabel('Email address').fill('vera@example.com');
    await dialog.getByLabel('Rank', { exact: true }).selectOption('2');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await dialog.getByText('Vera Viewer has an account and joined the team as Editor.').waitFor();
    assert.equal(await dialog.getByLabel('Sign-up link').count(), 0);
    await dialog.getByLabel('Rank of Vera Viewer').waitFor();

    // The owner hands the tracker to Vera and stays on the team as an administrator.
    await dialog.getByRole('button', { name: 'Make owner: Vera Viewer' }).click();
    const handOver = dialog.getByRole('group', { name: 'Make Vera Viewer the owner' });
    await handOver.getByText('You stay on the team as an administrator').waitFor();
    await shot(page, 'team-07-transfer-confirm', { fullPage: false });
    await handOver.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText('Vera Viewer now owns the tracker. You stay on the team as an administrator.').waitFor();
    assert.match(await dialog.getByTestId('team-owner').textContent(), /Vera Viewer/);
    assert.equal(await dialog.getByLabel('Rank of Olive Owner').inputValue(), '3');
    assert.equal(await dialog.getByRole('button', { name: /^Make owner/ }).count(), 0);
    const mine = await api(owner, 'GET', `/trackers/${hash}`);
    assert.equal(mine.body.isOwner, false);
    assert.equal(mine.body.permission, 3);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // As an administrator the old owner still shares and manages the team.
    assert.deepEqual(await headerControls(page), { edit: true, historical: true, share: true, team: true, customize: true });
    await vera.goto(dashboard);
    await settled(vera);
    assert.deepEqual(await headerControls(vera), { edit: true, historical: true, share: true, team: true, customize: true });

    // Only owners and administrators read the team: the old owner, now an administrator, still
    // does; a stranger does not.
    assert.equal((await api(owner, 'GET', `/trackers/${hash}/members`)).body.canTransfer, false);
    const stranger = await browser.newContext();
    assert.equal((await api(stranger, 'GET', `/trackers/${hash}/members`)).status, 401);
    await stranger.close();
    assert.deepEqual(veraErrors, []);
    assert.deepEqual(errors, []);
    await guest.close();
    await page.close();
  });
});

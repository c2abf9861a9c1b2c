// End to end: first-run setup, tracker creation with the search builder, the tracker pages,
// editing with the save-changes modal, deletion, sign out and sign in — against a real server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, shot, startServer } from './harness.mjs';

const ACCOUNT = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const path = (page) => new URL(page.url()).pathname;

async function expectPath(page, re) {
  await page.waitForURL((u) => re.test(new URL(u).pathname), { timeout: 15_000 });
  assert.match(path(page), re);
}

test('setup, create, browse, edit, delete, sign out and sign in', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  // First visit: the instance needs its first account.
  await page.goto(server.url + '/');
  await expectPath(page, /^\/setup$/);
  await page.getByRole('heading', { name: 'Set up Hark' }).waitFor();
  await shot(page, '01-setup');
  await page.getByLabel('Name').fill(ACCOUNT.name);
  await page.getByLabel('Email').fill(ACCOUNT.email);
  await page.getByLabel('Password').fill(ACCOUNT.password);
  await page.getByRole('button', { name: 'Create account' }).click();

  // Empty tracker list.
  await expectPath(page, /^\/mytracks\/hashtag$/);
  await page.getByText('No trackers yet').waitFor();
  await shot(page, '02-empty-list');

  // New tracker: saving with no terms shows the inline errors.
  await page.getByRole('link', { name: 'Add Tracker' }).click();
  await expectPath(page, /^\/new\/ht\/step1$/);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('At least one search term must be entered.').waitFor();
  await page.getByText('At least one platform must be selected.').waitFor();
  await shot(page, '03-new-tracker-errors');

  await page.getByRole('textbox', { name: 'Row 1 term 1' }).fill('#rustlang');
  await page.getByRole('button', { name: 'Add a term to row 1' }).click();
  await page.getByRole('textbox', { name: 'Row 1 term 2' }).fill('@rustconf');
  await page.getByRole('checkbox', { name: 'Twitter' }).check();
  await page.getByRole('checkbox', { name: 'Instagram' }).check();
  await page.getByText('Instagram can only be searched by hashtag.').waitFor();
  await page.getByRole('checkbox', { name: 'Exclude Retweets' }).check();
  await page.getByRole('checkbox', { name: 'News' }).check();
  assert.equal(await page.getByText('At least one search term must be entered.').count(), 0);
  await shot(page, '04-new-tracker-filled');
  await page.getByRole('button', { name: 'Save' }).click();

  await expectPath(page, /^\/hashtag-tracking\/dashboard\/[^/]+\/[^/]+$/);
  const [, , , hash, friendly] = path(page).split('/');
  assert.ok(hash && friendly);
  await page.waitForLoadState('networkidle');
  await shot(page, '05-dashboard-after-create');

  // The list shows the tracker and links to its dashboard.
  await page.goto(server.url + '/mytracks/hashtag');
  const link = page.getByRole('link', { name: 'Real-time Tracker: #rustlang', exact: true });
  await link.waitFor();
  const row = page.getByTestId('tracker-row');
  assert.equal(await row.count(), 1);
  await row.getByText('Tracker Active').waitFor();
  await shot(page, '06-list-with-tracker');
  await link.click();
  await expectPath(page, new RegExp(`^/hashtag-tracking/dashboard/${hash}/${friendly}$`));

  // Switch pages through the sidebar.
  const nav = page.getByRole('complementary', { name: 'Tracker navigation' });
  for (const [name, section] of [
    ['Posts', 'posts'],
    ['Influencers', 'influencers'],
    ['Trending Topics', 'trending-topics'],
    ['Sentiment', 'sentiment'],
    ['Media Wall', 'media-wall'],
    ['Dashboard', 'dashboard'],
  ]) {
    await nav.getByRole('link', { name: new RegExp(`^${name}`) }).first().click();
    await expectPath(page, new RegExp(`^/hashtag-tracking/${section}/${hash}`));
    await page.waitForLoadState('networkidle');
    if (section === 'posts' || section === 'influencers') await shot(page, `07-${section}`);
  }

  // Tracker Settings: edit a term, save, apply only to future data.
  await nav.getByRole('link', { name: 'Tracker Settings' }).click();
  await expectPath(page, new RegExp(`^/edit/${hash}/${friendly}$`));
  const term = page.getByRole('textbox', { name: 'Row 1 term 1' });
  assert.equal(await term.inputValue(), '#rustlang');
  const stored = await page.evaluate((h) => localStorage.getItem(`hark.edit.${h}`), hash);
  assert.ok(stored && JSON.parse(stored).search.rows[0].searches.includes('#rustlang'));
  await term.fill('#rust');
  await shot(page, '08-settings-edited');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'Save changes' });
  await modal.waitFor();
  await modal.getByRole('button', { name: 'Re-analyze previous data' }).waitFor();
  await shot(page, '09-save-changes-modal', { fullPage: false });
  await modal.getByRole('button', { name: 'Apply only to future data' }).click();
  await expectPath(page, new RegExp(`^/hashtag-tracking/dashboard/${hash}/`));

  // The edit stuck.
  await page.goto(`${server.url}/edit/${hash}/${friendly}`);
  assert.equal(await page.getByRole('textbox', { name: 'Row 1 term 1' }).inputValue(), '#rust');

  // Pause and restart.
  await page.getByRole('button', { name: 'Pause tracker' }).click();
  await page.getByRole('button', { name: 'Restart tracker' }).waitFor();
  await page.getByRole('region', { name: 'Status' }).getByText('Paused').waitFor();
  await page.getByRole('button', { name: 'Restart tracker' }).click();
  await page.getByRole('button', { name: 'Pause tracker' }).waitFor();

  // Delete with confirmation.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete tracker?' });
  await confirm.waitFor();
  await shot(page, '10-delete-confirm', { fullPage: false });
  await confirm.getByRole('button', { name: 'Delete tracker' }).click();
  await expectPath(page, /^\/mytracks\/hashtag$/);
  await page.getByText('No trackers yet').waitFor();
  assert.equal(await page.getByTestId('tracker-row').count(), 0);

  // Sign out, then sign in again.
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expectPath(page, /^\/login$/);
  await page.getByLabel('Email').fill(ACCOUNT.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').waitFor();
  const message = await page.getByRole('alert').innerText();
  assert.ok(message.length > 0);
  await shot(page, '11-login-error');
  await page.getByLabel('Password').fill(ACCOUNT.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expectPath(page, /^\/mytracks\/hashtag$/);
  await page.getByRole('button', { name: /Account menu/ }).waitFor();

  // A second visit to / goes straight to the list; /setup sends to sign in or the list.
  await page.goto(server.url + '/');
  await expectPath(page, /^\/mytracks\/hashtag$/);

  assert.deepEqual(errors, []);
  await context.close();
});

test('signed-out visitors are sent to sign in; demo form is read-only', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(server.url + '/new/ht/step1');
  await expectPath(page, /^\/login$/);
  assert.equal(new URL(page.url()).searchParams.get('next'), '/new/ht/step1');
  await shot(page, '12-login');

  // Demo mode: the search form is read-only and has no Save button, even signed out.
  await page.goto(server.url + '/new/ht/step1?demo=true');
  const term = page.getByRole('textbox', { name: 'Row 1 term 1' });
  await term.waitFor();
  assert.equal(await term.getAttribute('readonly'), '');
  assert.equal(await page.getByRole('button', { name: 'Save' }).count(), 0);
  assert.equal(await page.getByRole('checkbox', { name: 'Twitter' }).isDisabled(), true);
  await shot(page, '13-demo-form');
  await context.close();
});

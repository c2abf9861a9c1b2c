// End to end: plans and trials against a real server — the instance administrator opens Accounts
// from the user menu, finds a second account by search (kept in the URL), moves it to plan 25
// with a 3-day trial; that account's Share dialog then locks the link-sharing switches with
// 'Upgrade your account to unlock' (and the server refuses the change), and the Accounts page is
// closed to it. Once its trial has ended (set in the database: the API only starts trials) it is
// told so once a session and its tracker is locked; back on plan 35 its switches open again.
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api as apiAt, launchBrowser, shot, startServer, waitUntil } from './harness.mjs';

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

/** Runs SQL on the server's database (what no endpoint offers: a trial that has already ended). */
function sql(statement) {
  const u = server.databaseUrl;
  if (u.startsWith('sqlite://')) execFileSync('sqlite3', [u.slice('sqlite://'.length), statement]);
  else execFileSync('psql', [u, '-qc', statement]);
}

/** A second account through the CLI, signed in in a new browser context. */
async function signedIn(email, name) {
  const env = { ...process.env };
  if (!server.databaseUrl.startsWith('sqlite://')) env.HARK_DATABASE_URL = server.databaseUrl;
  execFileSync(server.bin, ['user', 'add', '--data-dir', server.dataDir, '--email', email, '--name', name], { input: 'correct horse battery\n', env });
  const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const login = await api(ctx, 'POST', '/auth/login', { email, password: 'correct horse battery' });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return ctx;
}

/** "29 Nov" (with the year when it is not this year's), as the Accounts page writes a trial's end. */
function shortDate(ms) {
  const d = new Date(ms);
  const opts = d.getFullYear() === new Date().getFullYear() ? { day: 'numeric', month: 'short' } : { day: 'numeric', month: 'short', year: 'numeric' };
  return new Intl.DateTimeFormat('en-GB', opts).format(d);
}

describe('plans and trials', () => {
  let admin;
  let vic;
  let hash;
  let friendly;

  before(async () => {
    admin = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const setup = await api(admin, 'POST', '/setup', { email: 'ada@example.com', password: 'correct horse battery', name: 'Ada Admin' });
    assert.equal(setup.status, 201, JSON.stringify(setup.body));
    // Two more accounts, so the search has something to leave out.
    (await signedIn('pat@example.com', 'Pat Plain')).close();
    vic = await signedIn('vic@example.com', 'Vic Visitor');
    const t = await api(vic, 'POST', '/trackers', { title: 'Tea notes', platforms: { twt: 1 }, search: { rows: [{ type: '+', searches: ['tea'] }] } });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    ({ hash, friendly } = t.body);
  });

  after(async () => {
    await admin?.close();
    await vic?.close();
  });

  test('the administrator sets a plan and a trial; the account meets the upgrade prompts', async () => {
    const page = await admin.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // From the user menu to the Accounts page.
    await page.goto(`${server.url}/mytracks/hashtag`);
    await page.getByRole('button', { name: 'Account menu for Ada Admin' }).click();
    await page.getByRole('menuitem', { name: 'Accounts' }).click();
    await page.waitForURL((u) => new URL(u).pathname === '/admin/accounts');
    await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
    const rows = page.getByTestId('account-row');
    await waitUntil(async () => (await rows.count()) === 3, { what: 'three accounts' });
    assert.equal(await page.getByTestId('accounts-count').textContent(), '3 accounts');
    const adaRow = rows.filter({ hasText: 'ada@example.com' });
    assert.match(await adaRow.textContent(), /Ada Admin.*Admin.*\(you\)/);
    assert.equal(await adaRow.getByTestId('account-plan').textContent(), 'Self-hosted (everything) · 100');
    assert.equal(await adaRow.getByTestId('account-trial').textContent(), '—');
    await shot(page, 'admin-01-accounts', { fullPage: false });

    // The search is typed, waits for a pause, and lands in the URL.
    await page.getByRole('searchbox', { name: 'Search by address or name' }).fill('vic');
    await page.waitForURL((u) => new URL(u).searchParams.get('search') === 'vic');
    await waitUntil(async () => (await rows.count()) === 1 && (await rows.first().textContent()).includes('vic@example.com'), { what: 'only Vic' });
    assert.equal(await page.getByTestId('accounts-count').textContent(), '1 account matching “vic”');
    // A reload keeps it.
    await page.reload();
    await rows.filter({ hasText: 'vic@example.com' }).waitFor();
    assert.equal(await page.getByRole('searchbox', { name: 'Search by address or name' }).inputValue(), 'vic');
    assert.equal(await rows.count(), 1);

    // Plan 25 and a 3-day trial.
    await page.getByRole('button', { name: 'Edit vic@example.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit account' });
    await dialog.getByText('Vic Visitor · vic@example.com').waitFor();
    assert.equal(await dialog.getByLabel('Plan').inputValue(), '100');
    await dialog.getByLabel('Plan').selectOption('25');
    const includes = dialog.getByTestId('plan-includes');
    assert.match(await includes.textContent(), /XLS export\(not included\).*Link sharing\(not included\).*Media wall\(not included\)/);
    assert.equal(await dialog.getByLabel('Max searches').inputValue(), '10');
    assert.equal(await dialog.getByLabel('Max ignored terms').inputValue(), '25');
    await dialog.getByLabel('On a trial').check();
    await dialog.getByLabel('Days from today').fill('3');
    assert.equal(await dialog.getByLabel('Instance administrator').isChecked(), false);
    await shot(page, 'admin-02-edit-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Saved the changes to vic@example.com.').waitFor();
    const vicRow = rows.filter({ hasText: 'vic@example.com' });
    assert.equal(await vicRow.getByTestId('account-plan').textContent(), 'Professional · 25');
    assert.equal(await vicRow.getByTestId('account-trial').textContent(), `Trial until ${shortDate(Date.now() + 3 * DAY)}`);
    assert.equal(await vicRow.getByTestId('account-limits').textContent(), '10 searches · 25 ignored');
    await shot(page, 'admin-03-saved', { fullPage: false });

    const stored = (await api(admin, 'GET', '/admin/users?search=vic')).body.accounts[0];
    assert.equal(stored.plan, 25);
    assert.equal(stored.trial, true);
    assert.ok(Math.abs(stored.trialExpires - (Date.now() + 3 * DAY)) < 5 * 60_000, `trial ends in 3 days: ${stored.trialExpires}`);
    assert.deepEqual([stored.maxSearches, stored.maxIgnored], [10, 25]);

    // The administrator cannot take their own rights.
    await page.getByRole('searchbox', { name: 'Search by address or name' }).fill('');
    await page.getByRole('searchbox', { name: 'Search by address or name' }).press('Enter');
    await waitUntil(async () => (await rows.count()) === 3, { what: 'every account again' });
    assert.equal(new URL(page.url()).search, '');
    await page.getByRole('button', { name: 'Edit ada@example.com' }).click();
    assert.equal(await dialog.getByLabel('Instance administrator').isDisabled(), true);
    await dialog.getByText('You cannot take away your own administrator rights').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Vic, on plan 25: the Share dialog locks the link-sharing switches.
    const vp = await vic.newPage();
    const vicErrors = [];
    vp.on('pageerror', (e) => vicErrors.push(e.message));
    await vp.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await vp.getByRole('button', { name: 'Share', exact: true }).click();
    const share = vp.getByRole('dialog', { name: 'Share this dashboard' });
    const lock = share.getByTestId('link-sharing-lock');
    await lock.waitFor();
    assert.equal((await lock.textContent()).trim(), 'Upgrade your account to unlock');
    assert.equal(await lock.getByRole('link', { name: 'Upgrade your account to unlock' }).getAttribute('href'), '/pricing');
    for (const name of ['Edit date range', 'Export reports', 'View predictions']) {
      assert.equal(await share.getByRole('switch', { name }).isDisabled(), true, name);
    }
    assert.equal(await share.getByRole('switch', { name: 'Share exports' }).isDisabled(), false);
    await share.getByRole('group', { name: 'Link sharing' }).scrollIntoViewIfNeeded();
    await shot(vp, 'admin-04-share-locked', { fullPage: false });
    const refused = await api(vic, 'PUT', `/trackers/${hash}/share`, { linkSharing: { editDateRange: true, exportReports: false, viewPredictions: false } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'upgrade_required');
    // The link goes to the pricing page, which says what the plan includes.
    await lock.getByRole('link', { name: 'Upgrade your account to unlock' }).click();
    await vp.waitForURL((u) => new URL(u).pathname === '/pricing');
    const yours = vp.getByRole('region', { name: 'Your account' });
    await yours.waitFor();
    assert.match(await yours.textContent(), /Trial until/);
    assert.match(await yours.textContent(), /10 searches · 25 ignored terms/);
    assert.match(await yours.getByRole('list', { name: 'What your plan includes' }).textContent(), /Link sharing\(not included\)/);
    await shot(vp, 'admin-05-pricing', { fullPage: false });

    // The Accounts page is not Vic's.
    await vp.goto(`${server.url}/admin/accounts`);
    await vp.getByText('Only an instance administrator can see this page.').waitFor();
    assert.equal((await api(vic, 'GET', '/admin/users')).status, 403);

    // The trial ends (moved into the past in the database): the next session is told once.
    sql(`UPDATE users SET trial_expires = ${Date.now() - DAY} WHERE email = 'vic@example.com'`);
    const later = await vic.newPage();
    later.on('pageerror', (e) => vicErrors.push(e.message));
    await later.goto(`${server.url}/mytracks/hashtag`);
    const notice = later.getByRole('dialog', { name: 'Your 14-Day Trial has expired' });
    await notice.waitFor();
    assert.equal(await notice.getByRole('link', { name: 'See plans' }).getAttribute('href'), '/pricing');
    assert.equal(await notice.getByRole('link', { name: 'Contact us' }).getAttribute('href'), '/contact-us');
    await shot(later, 'admin-06-trial-ended', { fullPage: false });
    await later.keyboard.press('Escape');
    await notice.waitFor({ state: 'detached' });
    await later.reload();
    await later.getByRole('heading', { name: 'My Trackers' }).waitFor();
    await later.waitForTimeout(500);
    assert.equal(await notice.count(), 0, 'not again in the same session');
    // Meanwhile the account's tracker is locked: its dashboard says so instead of loading.
    await later.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await later.getByRole('heading', { level: 1, name: 'This tracker is locked' }).waitFor();
    assert.equal(await later.getByTestId('tracker-locked-message').textContent(), 'Your 14-Day Trial has expired. Upgrade now to access your trackers.');
    assert.equal(await later.getByTestId('dashboard-grid').count(), 0);
    await page.reload();
    await waitUntil(async () => (await rows.filter({ hasText: 'vic@example.com' }).getByTestId('account-trial').textContent()) === 'Trial ended', {
      what: 'Trial ended on the Accounts page',
    });

    // Back on plan 35 (the trial ended by the administrator), the switches open again.
    await page.getByRole('button', { name: 'Edit vic@example.com' }).click();
    await dialog.getByLabel('Plan').selectOption('35');
    await dialog.getByLabel('On a trial').uncheck();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await rows.filter({ hasText: 'vic@example.com' }).getByTestId('account-trial').textContent(), '—');
    await later.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await later.getByRole('button', { name: 'Share', exact: true }).click();
    const open = later.getByRole('dialog', { name: 'Share this dashboard' });
    await open.getByRole('switch', { name: 'Edit date range' }).waitFor();
    assert.equal(await open.getByRole('switch', { name: 'Edit date range' }).isDisabled(), false);
    assert.equal(await open.getByTestId('link-sharing-lock').count(), 0);

    assert.deepEqual(errors, []);
    assert.deepEqual(vicErrors, []);
    await page.close();
    await vp.close();
    await later.close();
  });
});

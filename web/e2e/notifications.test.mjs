// End to end: notification settings against a real server, a real SMTP server (e2e/smtp.mjs) and a
// small HTTP receiver on 127.0.0.1 standing in for a webhook and for Slack (the server runs with
// HARK_WEBHOOKS_ALLOW_PRIVATE=1 so it may call it). The owner opens the page from the sidebar, finds
// the spec's defaults, sets every option, saves, and finds every value again after a reload; turns
// the spike alert and the report off and on again; sends a test to each destination: the mail
// arrives with its List-Unsubscribe headers, the webhook gets a POST signed with the secret the page
// shows, Slack a Block Kit body, and the history lists the three. The mail's unsubscribe link,
// opened signed out, takes the address off the lists. A viewer is refused the page; made an
// administrator, they get it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import path from 'node:path';
import { api as apiAt, launchBrowser, ownerWithTracker, screenshotDir, shot, startServer, waitUntil } from './harness.mjs';
import { header, startSmtp } from './smtp.mjs';

const DAY = 86_400_000;
const TITLE = 'Brand watch';
const OWNER = 'owner@example.com';
let browser;
let server;
let smtp;
let receiver;

/** An HTTP server on 127.0.0.1 that answers 200 "ok" (as Slack does) and keeps every request. */
async function startReceiver() {
  const requests = [];
  const srv = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method, path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${srv.address().port}`;
  return { url, requests, stop: () => new Promise((resolve) => srv.close(() => resolve())) };
}

before(async () => {
  smtp = await startSmtp();
  receiver = await startReceiver();
  browser = await launchBrowser();
  server = await startServer({ env: { ...smtp.env, HARK_WEBHOOKS_ALLOW_PRIVATE: '1' } });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
  await receiver?.stop();
});

const api = (ctx, ...call) => apiAt(ctx, server.url, ...call);

function posts(now) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    out.push({
      platform: 'twitter',
      id: String(8100 + i),
      text: `Brand news ${i} #brand`,
      createdAt: now - i * DAY - 60_000,
      author: { username: `fan${i % 2}`, name: `Fan ${i % 2}`, followers: 100 * (i + 1) },
      counts: { likes: i, retweets: 1, replies: 0 },
    });
  }
  return out;
}

// Every threshold of the Influencer alerts: its field's label, the value typed, the settings key.
const THRESHOLDS = [
  ['Twitter Followers ≥', '10,000', 'twitterFollowers', 10000],
  ['Twitter Retweets ≥', '50', 'twitterRetweets', 50],
  ['TikTok Followers ≥', '20000', 'tiktokFollowers', 20000],
  ['Instagram Followers ≥', '5000', 'instagramFollowers', 5000],
  ['Instagram Likes ≥', '300', 'instagramLikes', 300],
  ['YouTube Subscribers ≥', '1000', 'youtubeFollowers', 1000],
  ['YouTube Views ≥', '7500', 'youtubeViews', 7500],
  ['Facebook Fans ≥', '700', 'facebookFans', 700],
  ['Facebook Likes ≥', '80', 'facebookLikes', 80],
];
const VERIFIED = [
  ['Twitter Verified accounts', 'twitterVerified'],
  ['TikTok Verified accounts', 'tiktokVerified'],
];

/** What the page saves once every option is set. */
function wanted() {
  return {
    alerts: {
      frequency: 'hourly',
      recipients: [OWNER, 'alerts@example.org'],
      negativeSentiment: true,
      spike: true,
      spikeSensitivity: 'high',
      spikeMinPosts: 25,
      influencers: {
        ...Object.fromEntries(THRESHOLDS.map(([, , key, n]) => [key, n])),
        ...Object.fromEntries(VERIFIED.map(([, key]) => [key, true])),
      },
    },
    report: { enabled: true, frequency: 'daily', recipients: ['reports@example.org'], sendWithoutUpdates: true },
    webhook: { url: `${receiver.url}/hook` },
    slack: { url: `${receiver.url}/slack` },
  };
}

const region = (page, name) => page.getByRole('region', { name, exact: true });
const destination = (page, name) => region(page, 'Destinations').getByRole('group', { name, exact: true });
const saveButton = (page) => page.getByTestId('save-bar').getByRole('button', { name: 'Save', exact: true });

/** Picks an option of a segmented control by its label, as a pointer does. */
async function choose(scope, name) {
  const radio = scope.getByRole('radio', { name, exact: true });
  await scope.locator('label', { has: scope.page().getByRole('radio', { name, exact: true }) }).click();
  assert.ok(await radio.isChecked(), `${name} is chosen`);
}

async function switchOn(scope, name) {
  const sw = scope.getByRole('switch', { name, exact: true });
  return (await sw.getAttribute('aria-checked')) === 'true';
}

async function setSwitch(scope, name, on) {
  if ((await switchOn(scope, name)) !== on) await scope.getByRole('switch', { name, exact: true }).click();
  assert.equal(await switchOn(scope, name), on, name);
}

/** A screenshot of the whole page as one tall window shows it (sticky bars where they belong). */
async function wholePage(page, name) {
  const size = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height });
  await shot(page, name, { fullPage: false });
  await page.setViewportSize(size);
}

async function save(page) {
  await saveButton(page).click();
  await page.getByTestId('save-bar').getByText('Your notification settings were saved.').waitFor();
  assert.ok(await saveButton(page).isDisabled(), 'nothing left to save');
}

/** The line beside a destination's Send test once the test is answered. */
async function testResult(page, name, key) {
  const line = destination(page, name).getByTestId(`test-result-${key}`);
  return waitUntil(
    async () => {
      const text = (await line.textContent()).trim();
      return text && text !== 'Sending…' ? text : null;
    },
    { timeoutMs: 30_000, what: `the ${name} test's result` },
  );
}

describe('notification settings', () => {
  let owner;
  let hash;
  let friendly;
  let secret;
  let unsubscribeToken;
  const pageUrl = () => `${server.url}/hashtag-tracking/notifications/${hash}/${friendly}`;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1360, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    ({ hash, friendly } = await ownerWithTracker(owner, server.url, { title: TITLE, term: 'brand', posts: posts(Date.now()) }));
  });

  after(async () => {
    await owner?.close();
  });

  test('the owner sets every option, saves, and finds every value after a reload', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await page.getByRole('link', { name: 'Notification Settings' }).click();
    await page.waitForURL((u) => new URL(u).pathname === `/hashtag-tracking/notifications/${hash}/${friendly}`);
    await page.getByRole('form', { name: 'Notification settings' }).waitFor();

    // A new tracker's defaults (tracker-lifecycle spec): realtime alerts to the owner, spike on,
    // negative sentiment off, a weekly report to the owner, not sent without new posts.
    const alerts = region(page, 'Alerts');
    const report = region(page, 'Periodic report');
    assert.ok(await alerts.getByRole('radio', { name: 'Realtime', exact: true }).isChecked());
    assert.equal(await alerts.getByLabel('Alert recipients').inputValue(), OWNER);
    assert.equal(await switchOn(alerts, 'Activity spike alert'), true);
    assert.equal(await switchOn(alerts, 'Negative sentiment alert'), false);
    assert.equal(await alerts.getByLabel('Twitter Followers ≥').inputValue(), '');
    assert.equal(await switchOn(report, 'Send a periodic report'), true);
    assert.ok(await report.getByRole('radio', { name: 'Weekly', exact: true }).isChecked());
    assert.equal(await report.getByLabel('Report recipients').inputValue(), OWNER);
    assert.equal(await switchOn(report, 'Send even when there are no new posts'), false);
    await report.getByTestId('next-report').getByText(/^Next report: /).waitFor();
    assert.equal(await page.getByText(/has not set up an SMTP server/).count(), 0, 'the server has an SMTP server');
    assert.ok(await saveButton(page).isDisabled(), 'nothing to save yet');
    // No webhook or Slack address yet: nothing to test there.
    assert.ok(await destination(page, 'Webhook').getByRole('button', { name: 'Send test' }).isDisabled());
    assert.ok(await destination(page, 'Slack').getByRole('button', { name: 'Send test' }).isDisabled());

    // An address that is not one is refused under its field, and nothing is saved.
    await alerts.getByLabel('Alert recipients').fill(`${OWNER}\nnot-an-address`);
    await saveButton(page).click();
    await alerts.getByText("'not-an-address' is not an e-mail address.").waitFor();
    assert.equal(await alerts.getByLabel('Alert recipients').getAttribute('aria-invalid'), 'true');
    assert.equal((await api(owner, 'GET', `/trackers/${hash}/notifications`)).body.settings.alerts.recipients.join(), OWNER);

    // Every option.
    await choose(alerts, 'Hourly digest');
    await alerts.getByLabel('Alert recipients').fill(`${OWNER}\nalerts@example.org`);
    await setSwitch(alerts, 'Negative sentiment alert', true);
    await setSwitch(alerts, 'Activity spike alert', true);
    await alerts.getByLabel('Spike sensitivity').selectOption('high');
    await alerts.getByLabel('Minimum posts in 2 hours').fill('25');
    for (const [label, typed] of THRESHOLDS) await alerts.getByLabel(label, { exact: true }).fill(typed);
    for (const [label] of VERIFIED) await alerts.getByLabel(label, { exact: true }).check();
    await setSwitch(report, 'Send a periodic report', true);
    await choose(report, 'Daily');
    await report.getByLabel('Report recipients').fill('reports@example.org');
    await setSwitch(report, 'Send even when there are no new posts', true);
    await destination(page, 'Webhook').getByLabel('Webhook URL').fill(`${receiver.url}/hook`);
    await destination(page, 'Slack').getByLabel('Slack incoming-webhook URL').fill(`${receiver.url}/slack`);
    // Tests wait for the changes to be saved.
    const emailTest = destination(page, 'E-mail').getByRole('button', { name: 'Send test' });
    assert.ok(await emailTest.isDisabled());
    await destination(page, 'E-mail').getByText('Save your changes first.').waitFor();
    await save(page);

    // The webhook got its signing secret.
    secret = await destination(page, 'Webhook').getByLabel('Signing secret').inputValue();
    assert.match(secret, /^\S{16,}$/);
    await destination(page, 'Webhook').getByText(/X-Hark-Signature: sha256=/).waitFor();
    assert.deepEqual((await api(owner, 'GET', `/trackers/${hash}/notifications`)).body.settings, wanted());
    await wholePage(page, 'notifications');

    // After a reload every value is still there.
    await page.reload();
    await page.getByRole('form', { name: 'Notification settings' }).waitFor();
    assert.ok(await alerts.getByRole('radio', { name: 'Hourly digest', exact: true }).isChecked());
    assert.equal(await alerts.getByLabel('Alert recipients').inputValue(), `${OWNER}\nalerts@example.org`);
    assert.equal(await switchOn(alerts, 'Negative sentiment alert'), true);
    assert.equal(await switchOn(alerts, 'Activity spike alert'), true);
    assert.equal(await alerts.getByLabel('Spike sensitivity').inputValue(), 'high');
    assert.equal(await alerts.getByLabel('Minimum posts in 2 hours').inputValue(), '25');
    for (const [label, , , n] of THRESHOLDS) assert.equal(await alerts.getByLabel(label, { exact: true }).inputValue(), String(n), label);
    for (const [label] of VERIFIED) assert.ok(await alerts.getByLabel(label, { exact: true }).isChecked(), label);
    assert.equal(await switchOn(report, 'Send a periodic report'), true);
    assert.ok(await report.getByRole('radio', { name: 'Daily', exact: true }).isChecked());
    assert.equal(await report.getByLabel('Report recipients').inputValue(), 'reports@example.org');
    assert.equal(await switchOn(report, 'Send even when there are no new posts'), true);
    await report.getByTestId('next-report').getByText(/^Next report: /).waitFor();
    assert.equal(await destination(page, 'Webhook').getByLabel('Webhook URL').inputValue(), `${receiver.url}/hook`);
    assert.equal(await destination(page, 'Webhook').getByLabel('Signing secret').inputValue(), secret);
    assert.equal(await destination(page, 'Slack').getByLabel('Slack incoming-webhook URL').inputValue(), `${receiver.url}/slack`);
    assert.ok(await saveButton(page).isDisabled());

    // The switches that were on go off and come back: the spike alert and the report.
    await setSwitch(alerts, 'Activity spike alert', false);
    await setSwitch(report, 'Send a periodic report', false);
    await save(page);
    await page.reload();
    await page.getByRole('form', { name: 'Notification settings' }).waitFor();
    assert.equal(await switchOn(alerts, 'Activity spike alert'), false);
    assert.equal(await switchOn(report, 'Send a periodic report'), false);
    await report.getByTestId('next-report').getByText('No report is scheduled.').waitFor();
    // Cancel puts the saved values back.
    await setSwitch(alerts, 'Activity spike alert', true);
    await page.getByTestId('save-bar').getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await switchOn(alerts, 'Activity spike alert'), false);
    await setSwitch(alerts, 'Activity spike alert', true);
    await setSwitch(report, 'Send a periodic report', true);
    await save(page);
    await report.getByTestId('next-report').getByText(/^Next report: /).waitFor();
    assert.deepEqual((await api(owner, 'GET', `/trackers/${hash}/notifications`)).body.settings, wanted());
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('Send test reaches the mailbox, the webhook and Slack, and the history lists them', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pageUrl());
    await page.getByRole('form', { name: 'Notification settings' }).waitFor();

    // E-mail: to the alert recipients, with the headers of a one-click unsubscribe.
    await destination(page, 'E-mail').getByRole('button', { name: 'Send test' }).click();
    assert.equal(await testResult(page, 'E-mail', 'email'), 'Sent');
    const [mail] = await smtp.waitFor((m) => m.to.includes('alerts@example.org'));
    await smtp.waitFor((m) => m.to.includes(OWNER));
    assert.match(header(mail.raw, 'From'), /hark@example\.org/);
    assert.ok(header(mail.raw, 'Subject'), 'the test mail has a subject');
    const listUnsubscribe = header(mail.raw, 'List-Unsubscribe');
    assert.match(listUnsubscribe ?? '', /^<https?:\/\/[^>]*\/unsubscribe\?token=[^>]+>$/);
    assert.equal(header(mail.raw, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
    unsubscribeToken = decodeURIComponent(/[?&]token=([^&>]+)/.exec(listUnsubscribe)[1]);

    // Webhook: a POST of JSON signed with the secret the page shows.
    await destination(page, 'Webhook').getByRole('button', { name: 'Send test' }).click();
    assert.equal(await testResult(page, 'Webhook', 'webhook'), 'Sent');
    const hook = await waitUntil(async () => receiver.requests.find((r) => r.path === '/hook'), { what: 'the webhook request' });
    assert.equal(hook.method, 'POST');
    assert.match(hook.headers['content-type'], /application\/json/);
    const signature = hook.headers['x-hark-signature'];
    assert.match(signature ?? '', /^sha256=[0-9a-f]{64}$/);
    assert.equal(signature, `sha256=${createHmac('sha256', secret).update(hook.body).digest('hex')}`, 'the HMAC of the body under the page’s secret');
    const event = JSON.parse(hook.body);
    assert.equal(event.kind, 'test');
    assert.equal(event.tracker.hash, hash);

    // Slack: a Block Kit message.
    await destination(page, 'Slack').getByRole('button', { name: 'Send test' }).click();
    assert.equal(await testResult(page, 'Slack', 'slack'), 'Sent');
    const slack = await waitUntil(async () => receiver.requests.find((r) => r.path === '/slack'), { what: 'the Slack request' });
    assert.equal(slack.method, 'POST');
    const message = JSON.parse(slack.body);
    assert.ok(Array.isArray(message.blocks) && message.blocks.length > 0, slack.body);

    // The history lists the three tests, sent.
    const history = region(page, 'Alert history');
    const rows = history.locator('tr[data-kind="test"]');
    const channels = await waitUntil(
      async () => {
        const found = await rows.evaluateAll((trs) => trs.map((tr) => tr.cells[2].textContent));
        const joined = found.join(' | ');
        return ['E-mail', 'Webhook', 'Slack'].every((c) => joined.includes(c)) ? found : null;
      },
      { timeoutMs: 40_000, what: 'the three tests in the history' },
    );
    assert.ok(channels.length >= 3, channels.join(' | '));
    for (const status of await rows.getByTestId('history-status').allTextContents()) assert.equal(status, 'Sent');
    assert.match(await history.locator('tr[data-kind="test"]').first().textContent(), /Test/);
    await history.getByText('alerts@example.org').first().waitFor();
    await history.getByText('127.0.0.1').first().waitFor();
    await history.scrollIntoViewIfNeeded();
    await history.screenshot({ path: path.join(screenshotDir, 'notifications-history.png') });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the mail’s unsubscribe link, opened signed out, takes the address off the lists', async () => {
    assert.ok(unsubscribeToken, 'the test mail carried an unsubscribe link');
    const anon = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await anon.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/unsubscribe?token=${encodeURIComponent(unsubscribeToken)}`);
    const done = page.getByTestId('unsubscribed');
    await done.waitFor();
    assert.equal(await done.textContent(), `You will no longer receive alerts or reports about ${TITLE} at alerts@example.org.`);
    await page.getByRole('heading', { level: 1, name: 'You are unsubscribed' }).waitFor();
    await shot(page, 'notifications-unsubscribed', { fullPage: false });
    const settings = (await api(owner, 'GET', `/trackers/${hash}/notifications`)).body.settings;
    assert.deepEqual(settings.alerts.recipients, [OWNER]);
    assert.deepEqual(settings.report.recipients, ['reports@example.org']);

    // A made-up token is refused with the server's message.
    await page.goto(`${server.url}/unsubscribe?token=not-a-token`);
    await page.getByRole('heading', { level: 1, name: 'This link no longer works' }).waitFor();
    assert.equal(await page.getByRole('alert').count(), 1);
    assert.deepEqual(errors, []);
    await anon.close();
  });

  test('a viewer is refused the page; an administrator gets it', { skip: process.env.HARK_E2E_MOCK === '1' && 'needs the server binary' }, async () => {
    // A second account through the CLI, signed in in its own browser context.
    const env = { ...process.env };
    if (!server.databaseUrl.startsWith('sqlite://')) env.HARK_DATABASE_URL = server.databaseUrl;
    execFileSync(server.bin, ['user', 'add', '--data-dir', server.dataDir, '--email', 'vera@example.com', '--name', 'Vera Viewer'], {
      input: 'correct horse battery\n',
      env,
    });
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const login = await api(ctx, 'POST', '/auth/login', { email: 'vera@example.com', password: 'correct horse battery' });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const added = await api(owner, 'POST', `/trackers/${hash}/members`, { email: 'vera@example.com', permission: 1 });
    assert.ok([200, 201].includes(added.status), JSON.stringify(added.body));
    const userId = added.body.member.userId;

    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Notification Settings' }).count(), 0, 'no sidebar entry for a viewer');
    await page.goto(pageUrl());
    await page.getByText('Only the tracker’s owner and its administrators can see and change its notifications.').waitFor();
    assert.equal(await page.getByRole('form', { name: 'Notification settings' }).count(), 0);
    await shot(page, 'notifications-viewer', { fullPage: false });
    for (const [method, p, body] of [
      ['GET', `/trackers/${hash}/notifications`],
      ['PUT', `/trackers/${hash}/notifications`, wanted()],
      ['POST', `/trackers/${hash}/notifications/test`, { destination: 'webhook' }],
      ['GET', `/trackers/${hash}/notifications/history`],
    ]) {
      const refused = await api(ctx, method, p, body);
      assert.equal(refused.status, 403, `${method} ${p}`);
      assert.equal(refused.body.error.code, 'forbidden');
    }
    const stranger = await browser.newContext();
    assert.equal((await api(stranger, 'GET', `/trackers/${hash}/notifications`)).status, 401);
    await stranger.close();

    // Raised to administrator: the page is theirs.
    const raised = await api(owner, 'PATCH', `/trackers/${hash}/members/${userId}`, { permission: 3 });
    assert.equal(raised.status, 200, JSON.stringify(raised.body));
    await page.goto(pageUrl());
    await page.getByRole('form', { name: 'Notification settings' }).waitFor();
    assert.equal(await region(page, 'Alerts').getByLabel('Alert recipients').inputValue(), OWNER);
    assert.deepEqual(errors, []);
    await ctx.close();
  });
});

// End to end: mail through a real SMTP server (e2e/smtp.mjs) — the owner sends the dashboard link
// by e-mail from the Share dialog; both addresses get it, and the link in the message opens the
// dashboard signed out. The owner invites a new address in the Team dialog; the invitation arrives
// with its /join/ link, and a fresh browser opens it and makes the account.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { api as apiAt, launchBrowser, screenshotDir, shot, startServer, dashboardSettled as settled, ownerWithTracker } from './harness.mjs';
import { header, links, startSmtp, textBody } from './smtp.mjs';

const DAY = 86_400_000;
let browser;
let server;
let smtp;

before(async () => {
  smtp = await startSmtp();
  browser = await launchBrowser();
  server = await startServer({ env: smtp.env });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

const api = (ctx, ...call) => apiAt(ctx, server.url, ...call);

function posts(now) {
  const out = [];
  for (let i = 0; i < 9; i++) {
    out.push({
      platform: 'twitter',
      id: String(9100 + i),
      text: `Tea tasting notes ${i} #tea`,
      createdAt: now - i * DAY - 60_000,
      author: { username: `steeper${i % 3}`, name: `Steeper ${i % 3}` },
      counts: { likes: i, retweets: 1, replies: 0 },
    });
  }
  return out;
}

describe('mail', () => {
  let owner;
  let hash;
  let friendly;

  before(async () => {
    owner = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    let imported;
    ({ hash, friendly, imported } = await ownerWithTracker(owner, server.url, { title: 'Tea talk', term: 'tea', posts: posts(Date.now()) }));
    assert.equal(imported, 9);
  });

  after(async () => {
    await owner?.close();
  });

  test('share the dashboard link by e-mail; the mailed link opens the dashboard signed out', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}?days=30`);
    await settled(page);

    await page.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this dashboard' });
    const field = dialog.getByLabel('Email addresses');
    await field.waitFor();
    const send = dialog.getByRole('button', { name: 'Send', exact: true });
    assert.ok(await field.isEnabled(), 'the server has an SMTP server');
    assert.ok(await send.isDisabled(), 'nothing to send yet');
    const shown = await dialog.getByLabel('Dashboard link').inputValue();
    const section = dialog.locator('section', { has: page.getByRole('heading', { name: 'Share by e-mail' }) });

    // A bad address: the server names it under the field, the text stays, nothing is sent.
    await field.fill('ann@example.org, not-an-address');
    await send.click();
    await dialog.getByRole('alert').getByText(/not-an-address/).waitFor();
    assert.equal(await field.inputValue(), 'ann@example.org, not-an-address');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(smtp.messages.length, 0);
    await section.screenshot({ path: path.join(screenshotDir, 'mail-00-share-refused.png') });

    // Two addresses: "Sent!" on the button, the field empties, a line says how many.
    await field.fill('ann@example.org, Bob@Example.org');
    await send.click();
    await dialog.getByRole('button', { name: 'Sent!' }).waitFor();
    await dialog.getByTestId('share-email-status').getByText('Sent to 2 addresses.').waitFor();
    assert.equal(await field.inputValue(), '');
    await section.screenshot({ path: path.join(screenshotDir, 'mail-01-share-sent.png') });
    await shot(page, 'mail-02-share-dialog', { fullPage: false });
    // The button's active state lasts 3 seconds.
    await dialog.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 5_000 });

    // Each address got one message with the dialog's link, query and shareHash included.
    const mails = await smtp.waitFor((m) => m.to.includes('ann@example.org') || m.to.includes('bob@example.org'), { count: 2 });
    assert.deepEqual(mails.map((m) => m.to).flat().sort(), ['ann@example.org', 'bob@example.org']);
    for (const m of mails) {
      assert.match(header(m.raw, 'From'), /hark@example\.org/);
      assert.match(header(m.raw, 'Subject'), /Olive Owner shared the tracker "Tea talk" with you/);
      const found = links(textBody(m.raw));
      assert.ok(found.includes(shown), `${shown} in ${found.join(' ')}`);
    }
    const mailed = new URL(shown);
    assert.equal(mailed.searchParams.get('days'), '30');
    assert.match(mailed.searchParams.get('shareHash') ?? '', /^[0-9a-f]{16,}$/);

    // The link from the message opens the dashboard in a signed-out browser.
    const anon = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const visitor = await anon.newPage();
    const visitorErrors = [];
    visitor.on('pageerror', (e) => visitorErrors.push(e.message));
    await visitor.goto(links(textBody(mails[0].raw)).find((l) => l.includes('shareHash=')));
    await visitor.getByRole('heading', { level: 1, name: 'Tea talk' }).waitFor();
    await settled(visitor);
    assert.equal(await visitor.$eval('[data-stat="Posts"]', (e) => e.textContent), '9');
    await visitor.getByRole('link', { name: 'Sign in' }).waitFor();
    assert.equal(await visitor.getByRole('button', { name: 'Share' }).count(), 0);
    assert.deepEqual(visitorErrors, []);
    assert.deepEqual(errors, []);
    await anon.close();
    await page.close();
  });

  test('a team invitation arrives by e-mail and its link makes the account', async () => {
    const page = await owner.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await settled(page);

    await page.getByRole('button', { name: 'Team', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Team' });
    await dialog.getByLabel('Email address').fill('nina@example.org');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await dialog.getByText('We e-mailed the sign-up link to nina@example.org.').waitFor();
    const shown = await dialog.getByLabel('Sign-up link').inputValue();
    assert.equal(await dialog.getByText(/could not be sent/).count(), 0);
    await shot(page, 'mail-03-team-invited', { fullPage: false });

    const [mail] = await smtp.waitFor((m) => m.to.includes('nina@example.org'));
    assert.match(header(mail.raw, 'From'), /hark@example\.org/);
    const join = links(textBody(mail.raw)).find((l) => new URL(l).pathname.startsWith('/join/'));
    assert.ok(join, textBody(mail.raw));
    assert.equal(join, shown);

    const guest = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const nina = await guest.newPage();
    const ninaErrors = [];
    nina.on('pageerror', (e) => ninaErrors.push(e.message));
    await nina.goto(join);
    await nina.getByRole('heading', { name: "You're invited" }).waitFor();
    assert.equal(await nina.getByLabel('Email').inputValue(), 'nina@example.org');
    await nina.getByLabel('Name').fill('Nina New');
    await nina.getByLabel('Password').fill('oolong leaves');
    await nina.getByRole('button', { name: 'Create account and join' }).click();
    await nina.waitForURL((u) => new URL(u).pathname === `/hashtag-tracking/dashboard/${hash}/${friendly}`);
    await nina.getByRole('button', { name: 'Account menu for Nina New' }).waitFor();
    await settled(nina);
    assert.equal(await nina.$eval('[data-stat="Posts"]', (e) => e.textContent), '9');
    const team = await api(owner, 'GET', `/trackers/${hash}/members`);
    assert.ok(team.body.members.some((m) => m.email === 'nina@example.org' && m.permission === 1), JSON.stringify(team.body));
    assert.deepEqual(ninaErrors, []);
    assert.deepEqual(errors, []);
    await guest.close();
    await page.close();
  });
});

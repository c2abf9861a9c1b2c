// The notification settings page inside the tracker shell: the saved settings shown, every option
// changed and saved whole, bad input refused in the browser and by the server, Cancel, the test
// messages (only for saved destinations and a clean form), the history with its states, pages and
// empty state, refreshing every 30 s, and the page's refusal and load error.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HistoryItem, HistoryPage, NotificationSettings, NotificationsView } from '../../api/queries/notifications';
import { mockApi, renderRoute, type ApiCall } from '../../lib/test-utils';
import { TrackerShell } from '../shell';
import { meFixture, trackerFixture } from '../trackers/fixtures';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const tracker = trackerFixture({ title: 'Brand tracker' });
const BASE = `/trackers/${tracker.hash}/notifications`;
const PAGE_URL = `/hashtag-tracking/notifications/${tracker.hash}/${tracker.friendly}`;

function settings(over: Partial<NotificationSettings> = {}): NotificationSettings {
  return {
    alerts: {
      frequency: 'realtime',
      recipients: ['owner@example.org'],
      negativeSentiment: false,
      spike: true,
      spikeSensitivity: 'medium',
      spikeMinPosts: 10,
      influencers: {
        twitterFollowers: 0,
        twitterRetweets: 0,
        twitterVerified: false,
        tiktokFollowers: 0,
        tiktokVerified: false,
        instagramFollowers: 5000,
        instagramLikes: 0,
        youtubeFollowers: 0,
        youtubeViews: 0,
        facebookFans: 0,
        facebookLikes: 0,
      },
    },
    report: { enabled: true, frequency: 'weekly', recipients: ['owner@example.org'], sendWithoutUpdates: false },
    webhook: { url: 'https://hooks.example.org/hark' },
    slack: { url: null },
    ...over,
  };
}

function view(over: Partial<NotificationsView> = {}): NotificationsView {
  return {
    settings: settings(),
    webhookSecret: 'whsec_0123456789abcdef',
    mailConfigured: true,
    nextReportAt: Date.UTC(2025, 11, 1, 0, 0),
    timeZone: 'UTC',
    ...over,
  };
}

function item(over: Partial<HistoryItem> = {}): HistoryItem {
  const t = Date.now() - 5 * 60_000;
  return {
    id: 1,
    kind: 'spike',
    channel: 'email',
    recipient: 'owner@example.org',
    subject: 'Activity spike on Brand tracker: 412 posts in 2 hours',
    reason: '412 posts in the 2 hours to 14:00 against 35 usual (z 9.4)',
    status: 'sent',
    attempts: 1,
    error: null,
    createdAt: t,
    sentAt: t + 1000,
    nextAttemptAt: null,
    ...over,
  };
}

// The page is a lazily loaded module and its form is large: the first render takes a while on a
// loaded machine (role queries walk the whole form), hence the 20 s per test.
const EMPTY_HISTORY: HistoryPage = { items: [], total: 0, page: 1, perPage: 20 };
type Answer = { status?: number; body?: unknown };

function open(
  opts: {
    initial?: NotificationsView;
    get?: () => Answer;
    put?: (c: ApiCall) => Answer | Promise<Answer>;
    test?: (c: ApiCall) => Answer;
    history?: (c: ApiCall) => Answer;
    url?: string;
  } = {},
) {
  let current = opts.initial ?? view();
  const calls = mockApi({
    'GET /me': () => ({ body: meFixture({ isTrackerOwner: true, permission: 4 }) }),
    [`GET /trackers/${tracker.hash}`]: () => ({ body: tracker }),
    [`GET /trackers/${tracker.hash}/total-posts`]: () => ({ body: { count: { posts: 12 } } }),
    [`GET ${BASE}`]: () => opts.get?.() ?? { body: current },
    [`PUT ${BASE}`]: (c) => {
      if (opts.put) return opts.put(c);
      current = { ...current, settings: c.body as NotificationSettings };
      return { body: current };
    },
    [`POST ${BASE}/test`]: (c) => opts.test?.(c) ?? { body: { delivery: item({ kind: 'test', channel: (c.body as { destination: 'email' }).destination }) } },
    [`GET ${BASE}/history`]: (c) => opts.history?.(c) ?? { body: EMPTY_HISTORY },
  });
  renderRoute(<TrackerShell />, { path: '/hashtag-tracking/:page/:hash/:friendly?', url: opts.url ?? PAGE_URL });
  return calls;
}

const form = () => screen.findByRole('form', { name: 'Notification settings' }, { timeout: 15_000 });
const region = (name: string) => screen.getByRole('region', { name });
const group = (name: string) => within(region('Destinations')).getByRole('group', { name });
const saveButton = () => screen.getByRole('button', { name: 'Save' });
const puts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'PUT' && c.path === BASE);
const historyReads = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === `${BASE}/history`);
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });

describe('notification settings', { timeout: 20_000 }, () => {
  it('shows the saved settings', async () => {
    open();
    await form();
    const alerts = region('Alerts');
    expect(within(alerts).getByRole('radio', { name: 'Realtime' })).toBeChecked();
    expect(within(alerts).getByRole('radio', { name: 'Off' })).not.toBeChecked();
    expect(within(alerts).getByText('Each alert is sent as soon as it happens.')).toBeInTheDocument();
    expect(within(alerts).getByLabelText('Alert recipients')).toHaveValue('owner@example.org');
    expect(within(alerts).getByRole('switch', { name: 'Negative sentiment alert' })).toHaveAttribute('aria-checked', 'false');
    const spike = within(alerts).getByRole('switch', { name: 'Activity spike alert' });
    expect(spike).toHaveAttribute('aria-checked', 'true');
    expect(spike).toHaveAccessibleDescription(
      'Alerts when the last 2 hours have far more posts than the same hours of the past 4 weeks; one alert per burst.',
    );
    expect(within(alerts).getByLabelText('Spike sensitivity')).toHaveValue('medium');
    expect(within(alerts).getByLabelText('Minimum posts in 2 hours')).toHaveValue('10');
    expect(within(alerts).getByLabelText('Instagram Followers ≥')).toHaveValue('5000');
    // 0 shows as empty: off.
    expect(within(alerts).getByLabelText('Twitter Followers ≥')).toHaveValue('');
    expect(within(alerts).getByLabelText('Twitter Verified accounts')).not.toBeChecked();

    const report = region('Periodic report');
    expect(within(report).getByRole('switch', { name: 'Send a periodic report' })).toHaveAttribute('aria-checked', 'true');
    expect(within(report).getByRole('radio', { name: 'Weekly' })).toBeChecked();
    expect(within(report).getByLabelText('Report recipients')).toHaveValue('owner@example.org');
    expect(within(report).getByRole('switch', { name: 'Send even when there are no new posts' })).toHaveAttribute('aria-checked', 'false');
    expect(within(report).getByTestId('next-report')).toHaveTextContent('Next report: Mon, Dec 1, 2025, 12:00 AM UTC');
    expect(within(report).getByTestId('next-report')).toHaveTextContent('The PDF report of the period is attached to each mail.');

    const dest = region('Destinations');
    expect(within(dest).getByLabelText('Webhook URL')).toHaveValue('https://hooks.example.org/hark');
    expect(within(dest).getByLabelText('Signing secret')).toHaveValue('whsec_0123456789abcdef');
    expect(within(dest).getByText(/X-Hark-Signature: sha256=…/)).toBeInTheDocument();
    expect(within(dest).getByLabelText('Slack incoming-webhook URL')).toHaveValue('');
    expect(within(dest).queryByText(/has not set up an SMTP server/)).toBeNull();

    expect(saveButton()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(screen.getByTestId('save-bar')).toHaveTextContent('All changes saved.');
    // The old read-only summary is gone.
    expect(screen.queryByText('Thresholds')).toBeNull();
  });

  it('says when the server cannot send e-mail, and offers no e-mail test', async () => {
    open({ initial: view({ mailConfigured: false, webhookSecret: null, settings: settings({ webhook: { url: null } }), nextReportAt: null }) });
    await form();
    expect(within(region('Destinations')).getByText(/The server administrator has not set up an SMTP server/)).toBeInTheDocument();
    expect(within(group('E-mail')).getByRole('button', { name: 'Send test' })).toBeDisabled();
    expect(within(group('E-mail')).getByText('No SMTP server is set up.')).toBeInTheDocument();
    expect(within(group('Webhook')).queryByLabelText('Signing secret')).toBeNull();
    expect(within(group('Webhook')).getByText('A signing secret is made when a webhook address is saved.')).toBeInTheDocument();
    expect(within(region('Periodic report')).getByTestId('next-report')).toHaveTextContent('No report is scheduled.');
  });

  it('saves every option changed, whole, and confirms', async () => {
    const calls = open();
    await form();
    const alerts = region('Alerts');
    fireEvent.click(within(alerts).getByRole('radio', { name: 'Hourly digest' }));
    expect(within(alerts).getByText('Alerts of the past hour are gathered into one message each hour.')).toBeInTheDocument();
    type(within(alerts).getByLabelText('Alert recipients'), 'ann@example.org,\n Bob@Example.org; ann@example.org\n\n');
    fireEvent.click(within(alerts).getByRole('switch', { name: 'Negative sentiment alert' }));
    fireEvent.change(within(alerts).getByLabelText('Spike sensitivity'), { target: { value: 'high' } });
    type(within(alerts).getByLabelText('Minimum posts in 2 hours'), '25');
    type(within(alerts).getByLabelText('Twitter Followers ≥'), '10,000');
    type(within(alerts).getByLabelText('Twitter Retweets ≥'), '50');
    fireEvent.click(within(alerts).getByLabelText('Twitter Verified accounts'));
    type(within(alerts).getByLabelText('TikTok Followers ≥'), '20000');
    fireEvent.click(within(alerts).getByLabelText('TikTok Verified accounts'));
    type(within(alerts).getByLabelText('Instagram Followers ≥'), '');
    type(within(alerts).getByLabelText('Instagram Likes ≥'), '300');
    type(within(alerts).getByLabelText('YouTube Subscribers ≥'), '1000');
    type(within(alerts).getByLabelText('YouTube Views ≥'), '5000');
    type(within(alerts).getByLabelText('Facebook Fans ≥'), '700');
    type(within(alerts).getByLabelText('Facebook Likes ≥'), '80');
    const report = region('Periodic report');
    fireEvent.click(within(report).getByRole('switch', { name: 'Send a periodic report' }));
    fireEvent.click(within(report).getByRole('radio', { name: 'Monthly' }));
    expect(within(report).getByText('Save to update the schedule.')).toBeInTheDocument();
    type(within(report).getByLabelText('Report recipients'), 'boss@example.org');
    fireEvent.click(within(report).getByRole('switch', { name: 'Send even when there are no new posts' }));
    type(group('Webhook').querySelector('input')!, ' http://127.0.0.1:9999/hook ');
    type(within(group('Slack')).getByLabelText('Slack incoming-webhook URL'), 'https://hooks.slack.com/services/T0/B0/x');

    expect(screen.getByTestId('save-bar')).toHaveTextContent('You have changes that are not saved.');
    expect(saveButton()).toBeEnabled();
    fireEvent.click(saveButton());
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0].body).toEqual({
      alerts: {
        frequency: 'hourly',
        recipients: ['ann@example.org', 'Bob@Example.org'],
        negativeSentiment: true,
        spike: true,
        spikeSensitivity: 'high',
        spikeMinPosts: 25,
        influencers: {
          twitterFollowers: 10000,
          twitterRetweets: 50,
          twitterVerified: true,
          tiktokFollowers: 20000,
          tiktokVerified: true,
          instagramFollowers: 0,
          instagramLikes: 300,
          youtubeFollowers: 1000,
          youtubeViews: 5000,
          facebookFans: 700,
          facebookLikes: 80,
        },
      },
      report: { enabled: false, frequency: 'monthly', recipients: ['boss@example.org'], sendWithoutUpdates: true },
      webhook: { url: 'http://127.0.0.1:9999/hook' },
      slack: { url: 'https://hooks.slack.com/services/T0/B0/x' },
    });
    expect(await screen.findByText('Your notification settings were saved.')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    // The form now holds what the server kept.
    expect(within(alerts).getByLabelText('Alert recipients')).toHaveValue('ann@example.org\nBob@Example.org');
    expect(within(alerts).getByLabelText('Twitter Followers ≥')).toHaveValue('10000');
  });

  it('keeps what is typed while the save is under way; the answer becomes what is saved', async () => {
    let answer!: (a: Answer) => void;
    const calls = open({ put: () => new Promise<Answer>((resolve) => (answer = resolve)) });
    await form();
    const recipients = screen.getByLabelText('Alert recipients');
    type(recipients, 'ann@EXAMPLE.org');
    fireEvent.click(saveButton());
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    const sent = puts(calls)[0].body as NotificationSettings;
    expect(sent.alerts.recipients).toEqual(['ann@EXAMPLE.org']);
    expect(saveButton()).toBeDisabled();

    // The request is held: the field can still be typed in, and Save stays busy.
    expect(recipients).toBeEnabled();
    type(recipients, 'ann@EXAMPLE.org\nbob@example.org');
    expect(recipients).toHaveValue('ann@EXAMPLE.org\nbob@example.org');
    expect(saveButton()).toBeDisabled();

    // The server keeps the address in its own spelling.
    await act(async () => answer({ body: view({ settings: { ...sent, alerts: { ...sent.alerts, recipients: ['ann@example.org'] } } }) }));
    await waitFor(() => expect(saveButton()).toBeEnabled());
    expect(recipients).toHaveValue('ann@EXAMPLE.org\nbob@example.org');
    expect(screen.getByTestId('save-bar')).toHaveTextContent('You have changes that are not saved.');
    expect(puts(calls)).toHaveLength(1);

    // What is saved now is the server's answer: Cancel puts it back.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(recipients).toHaveValue('ann@example.org');
    expect(saveButton()).toBeDisabled();
    expect(screen.getByTestId('save-bar')).toHaveTextContent('All changes saved.');
  });

  it('turns the spike alert off and the frequency to Off', async () => {
    const calls = open();
    await form();
    fireEvent.click(screen.getByRole('radio', { name: 'Off' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Activity spike alert' }));
    fireEvent.submit(await form());
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    const body = puts(calls)[0].body as NotificationSettings;
    expect(body.alerts.frequency).toBe('off');
    expect(body.alerts.spike).toBe(false);
    expect(body.report).toEqual(settings().report);
  });

  it('Cancel puts the saved values back; a change undone by hand is no change', async () => {
    open();
    await form();
    const recipients = screen.getByLabelText('Alert recipients');
    type(recipients, 'someone@example.org');
    expect(saveButton()).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(recipients).toHaveValue('owner@example.org');
    expect(saveButton()).toBeDisabled();
    type(screen.getByLabelText('Minimum posts in 2 hours'), '010');
    expect(saveButton()).toBeDisabled();
  });

  it('refuses an address that is not one, under its field, and saves nothing', async () => {
    const calls = open();
    await form();
    const recipients = screen.getByLabelText('Alert recipients');
    type(recipients, 'ann@example.org\nnot-an-address');
    type(screen.getByLabelText('Minimum posts in 2 hours'), '0');
    fireEvent.click(saveButton());
    expect(await screen.findByText("'not-an-address' is not an e-mail address.")).toBeInTheDocument();
    expect(recipients).toHaveAttribute('aria-invalid', 'true');
    expect(recipients).toHaveAccessibleDescription(expect.stringContaining("'not-an-address' is not an e-mail address."));
    expect(recipients).toHaveFocus();
    expect(screen.getByText('Spike minimum posts must be between 1 and 1,000,000.')).toBeInTheDocument();
    expect(within(screen.getByTestId('save-bar')).getByRole('alert')).toHaveTextContent('Not saved: correct the fields marked in red.');
    await new Promise((r) => setTimeout(r, 20));
    expect(puts(calls)).toHaveLength(0);
    // Correcting the field clears its message.
    type(recipients, 'ann@example.org');
    expect(screen.queryByText("'not-an-address' is not an e-mail address.")).toBeNull();
    expect(recipients).not.toHaveAttribute('aria-invalid');
  });

  it('refuses a webhook address that is not http(s) before sending it', async () => {
    const calls = open();
    await form();
    type(screen.getByLabelText('Webhook URL'), 'ftp://example.org/x');
    fireEvent.click(saveButton());
    expect(await screen.findByText('The webhook address must start with http:// or https://.')).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(0);
  });

  it("shows the server's refusal under the field it names and beside Save; the form keeps what was typed", async () => {
    let answer: Answer = {
      status: 422,
      body: { error: { code: 'invalid_alert_settings', message: 'The webhook address must start with http:// or https:// and name a host.' } },
    };
    open({ put: () => answer });
    await form();
    const webhook = screen.getByLabelText('Webhook URL');
    type(webhook, 'https://x');
    fireEvent.click(saveButton());
    const bar = screen.getByTestId('save-bar');
    await waitFor(() => expect(within(bar).getByRole('alert')).toHaveTextContent('Not saved: The webhook address must start with http:// or https:// and name a host.'));
    expect(webhook).toHaveAttribute('aria-invalid', 'true');
    expect(webhook).toHaveValue('https://x');

    // An address the server will not take lands under the list holding it.
    answer = { status: 422, body: { error: { code: 'invalid_email', message: "'boss@localhost.example' is not an e-mail address." } } };
    type(webhook, 'https://hooks.example.org/hark');
    const report = screen.getByLabelText('Report recipients');
    type(report, 'boss@localhost.example');
    fireEvent.click(saveButton());
    await waitFor(() => expect(report).toHaveAttribute('aria-invalid', 'true'));
    expect(report).toHaveAccessibleDescription(expect.stringContaining("'boss@localhost.example' is not an e-mail address."));
    expect(screen.getByLabelText('Alert recipients')).not.toHaveAttribute('aria-invalid');

    // One it cannot place shows beside Save only.
    answer = { status: 500, body: { error: { code: 'internal', message: 'Sorry, an error occurred please try again.' } } };
    type(report, 'boss@example.org');
    fireEvent.click(saveButton());
    await waitFor(() => expect(within(bar).getByRole('alert')).toHaveTextContent('Not saved: Sorry, an error occurred please try again.'));
  });
});

describe('test messages', { timeout: 20_000 }, () => {
  it('Send test waits for the changes to be saved and for the destination to be set', async () => {
    open();
    await form();
    const webhookTest = within(group('Webhook')).getByRole('button', { name: 'Send test' });
    const slackTest = within(group('Slack')).getByRole('button', { name: 'Send test' });
    expect(webhookTest).toBeEnabled();
    expect(within(group('E-mail')).getByRole('button', { name: 'Send test' })).toBeEnabled();
    // No Slack address saved.
    expect(slackTest).toBeDisabled();
    expect(slackTest).toHaveAccessibleDescription('Save a Slack URL first.');
    // Typing one is not saving it.
    type(within(group('Slack')).getByLabelText('Slack incoming-webhook URL'), 'https://hooks.slack.com/services/T0/B0/x');
    for (const g of ['E-mail', 'Webhook', 'Slack']) {
      const b = within(group(g)).getByRole('button', { name: 'Send test' });
      expect(b).toBeDisabled();
      expect(b).toHaveAccessibleDescription('Save your changes first.');
    }
    fireEvent.click(saveButton());
    await screen.findByText('Your notification settings were saved.');
    expect(slackTest).toBeEnabled();
    expect(webhookTest).toBeEnabled();
  });

  it('sends a test to the saved destination, shows how it went and reads the history again', async () => {
    const calls = open({
      test: (c) => {
        const destination = (c.body as { destination: string }).destination;
        if (destination === 'webhook') return { body: { delivery: item({ id: 7, kind: 'test', channel: 'webhook', recipient: 'hooks.example.org' }) } };
        return {
          body: {
            delivery: item({ id: 8, kind: 'test', channel: 'email', status: 'failed', attempts: 1, error: 'SMTP server refused the recipient: 550 no such user.' }),
          },
        };
      },
    });
    await form();
    await waitFor(() => expect(historyReads(calls)).toHaveLength(1));
    fireEvent.click(within(group('Webhook')).getByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(within(group('Webhook')).getByTestId('test-result-webhook')).toHaveTextContent('Sent'));
    const sent = calls.filter((c) => c.method === 'POST' && c.path === `${BASE}/test`);
    expect(sent.map((c) => c.body)).toEqual([{ destination: 'webhook' }]);
    await waitFor(() => expect(historyReads(calls).length).toBeGreaterThanOrEqual(2));

    fireEvent.click(within(group('E-mail')).getByRole('button', { name: 'Send test' }));
    await waitFor(() =>
      expect(within(group('E-mail')).getByTestId('test-result-email')).toHaveTextContent('Failed: SMTP server refused the recipient: 550 no such user.'),
    );
  });

  it("shows the server's refusal of a test", async () => {
    open({ test: () => ({ status: 422, body: { error: { code: 'destination_not_set', message: 'No webhook address is saved.' } } }) });
    await form();
    fireEvent.click(within(group('Webhook')).getByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(within(group('Webhook')).getByTestId('test-result-webhook')).toHaveTextContent('No webhook address is saved.'));
  });
});

describe('alert history', { timeout: 20_000 }, () => {
  it('lists what was sent with its kind, channel, figures and state', async () => {
    const now = Date.now();
    const items = [
      item({ id: 5, kind: 'test', channel: 'webhook', recipient: '127.0.0.1', subject: 'Test alert from Hark', reason: '' }),
      item({
        id: 4,
        kind: 'negative_sentiment',
        channel: 'slack',
        recipient: 'hooks.slack.com',
        subject: 'Negative posts on Brand tracker',
        reason: '64% negative against 12% usual',
        status: 'retrying',
        attempts: 2,
        error: 'HTTP 503 from hooks.slack.com',
        nextAttemptAt: now + 10 * 60_000,
        sentAt: null,
      }),
      item({ id: 3, kind: 'influencer', subject: 'Influencer post on Brand tracker', reason: '@big with 2,000,000 followers', status: 'failed', attempts: 5, error: '550 mailbox unavailable', sentAt: null }),
      item({ id: 2, kind: 'report', subject: 'Weekly report: Brand tracker', reason: '', status: 'pending', sentAt: null, createdAt: now - 3 * 86_400_000 }),
      item({ id: 1 }),
    ];
    open({ history: () => ({ body: { items, total: 5, page: 1, perPage: 20 } }) });
    await form();
    const table = await screen.findByTestId('history-table');
    const rows = within(table).getAllByTestId('history-row');
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => within(r).getByTestId('history-status').textContent)).toEqual(['Sent', 'Retrying', 'Failed', 'Pending', 'Sent']);
    expect(rows[0]).toHaveTextContent('Test');
    expect(rows[0]).toHaveTextContent('Webhook');
    expect(rows[0]).toHaveTextContent('127.0.0.1');
    expect(rows[1]).toHaveTextContent('Negative sentiment');
    expect(rows[1]).toHaveTextContent('Slack');
    expect(rows[1]).toHaveTextContent('64% negative against 12% usual');
    expect(rows[1]).toHaveTextContent(/Next attempt \w{3} \d+, \d{4}/);
    expect(rows[1]).toHaveTextContent('HTTP 503 from hooks.slack.com');
    expect(rows[2]).toHaveTextContent('Influencer');
    expect(rows[2]).toHaveTextContent('550 mailbox unavailable');
    expect(rows[2]).toHaveTextContent('5 attempts');
    expect(rows[3]).toHaveTextContent('Report');
    expect(rows[3]).toHaveTextContent('3 days ago');
    expect(rows[4]).toHaveTextContent('Activity spike');
    expect(rows[4]).toHaveTextContent('E-mail');
    expect(rows[4]).toHaveTextContent('owner@example.org');
    expect(rows[4]).toHaveTextContent('412 posts in the 2 hours to 14:00 against 35 usual (z 9.4)');
    expect(rows[4]).toHaveTextContent('5 min ago');
    expect(screen.getByTestId('history-count')).toHaveTextContent('1–5 of 5');
    expect(screen.queryByRole('navigation', { name: 'History pages' })).toBeNull();
  });

  it('says when nothing was sent yet', async () => {
    open();
    await form();
    expect(await within(region('Alert history')).findByText('No alerts or reports sent yet.')).toBeInTheDocument();
  });

  it('pages 20 at a time, the page in the address', async () => {
    const calls = open({
      history: (c) => {
        const page = Number(c.query.get('page'));
        const items = Array.from({ length: page === 3 ? 5 : 20 }, (_, i) => item({ id: 100 - (page - 1) * 20 - i, subject: `Alert ${(page - 1) * 20 + i + 1}` }));
        return { body: { items, total: 45, page, perPage: 20 } };
      },
    });
    await form();
    await screen.findByText('Alert 1');
    const nav = screen.getByRole('navigation', { name: 'History pages' });
    expect(nav).toHaveTextContent('Page 1 of 3');
    expect(within(nav).getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(within(nav).getByRole('button', { name: 'Next' }));
    await screen.findByText('Alert 21');
    expect(screen.getByTestId('location').textContent).toBe(`${PAGE_URL}?page=2`);
    expect(historyReads(calls).at(-1)!.query.get('page')).toBe('2');
    expect(screen.getByTestId('history-count')).toHaveTextContent('21–40 of 45');
    fireEvent.click(within(screen.getByRole('navigation', { name: 'History pages' })).getByRole('button', { name: 'Next' }));
    await screen.findByText('Alert 41');
    expect(within(screen.getByRole('navigation', { name: 'History pages' })).getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('reads the history again every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = open();
    await form();
    await waitFor(() => expect(historyReads(calls)).toHaveLength(1));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_500);
    });
    await waitFor(() => expect(historyReads(calls)).toHaveLength(2));
  });
});

describe('the page', { timeout: 20_000 }, () => {
  it('tells someone below administrator that the page is not theirs', async () => {
    open({ get: () => ({ status: 403, body: { error: { code: 'forbidden', message: 'You do not have permission.' } } }) });
    expect(await screen.findByText('Only the tracker’s owner and its administrators can see and change its notifications.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute('href', `/hashtag-tracking/dashboard/${tracker.hash}/${tracker.friendly}`);
    expect(screen.queryByRole('form', { name: 'Notification settings' })).toBeNull();
  });

  it('shows a load error with a way to try again', async () => {
    let fail = true;
    open({ get: () => (fail ? { status: 500, body: { error: { code: 'internal', message: 'The database is busy.' } } } : { body: view() }) });
    const alert = await screen.findByText('The database is busy.', {}, { timeout: 5000 });
    fail = false;
    fireEvent.click(within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Try again' }));
    await form();
  });
});

// The notification settings form: its values as typed (text for numbers and address lists),
// built from the saved settings, checked as the server checks them and turned back into the
// settings PUT takes; whether anything changed; and where a refusal of the server belongs.
import { ApiError } from '../../api/client';
import type {
  AlertFrequency,
  InfluencerThresholds,
  NotificationSettings,
  ReportFrequency,
  SpikeSensitivity,
} from '../../api/queries/notifications';

/** Most addresses in one recipient list (the server's limit). */
export const MAX_RECIPIENTS = 20;
export const SPIKE_MIN_POSTS_MAX = 1_000_000;
/** Highest influencer threshold the server takes. */
export const MAX_THRESHOLD = 10_000_000_000;

export const FREQUENCIES: { value: AlertFrequency; label: string; help: string }[] = [
  { value: 'off', label: 'Off', help: 'No alerts are sent. The periodic report below has its own switch.' },
  { value: 'realtime', label: 'Realtime', help: 'Each alert is sent as soon as it happens.' },
  { value: 'hourly', label: 'Hourly digest', help: 'Alerts of the past hour are gathered into one message each hour.' },
  { value: 'daily', label: 'Daily digest', help: 'Alerts of the past day are gathered into one message each day.' },
];

export const SENSITIVITIES: { value: SpikeSensitivity; label: string }[] = [
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High' },
];

export const REPORT_FREQUENCIES: { value: ReportFrequency; label: string }[] = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
];

export type ThresholdKey = {
  [K in keyof InfluencerThresholds]: InfluencerThresholds[K] extends number ? K : never;
}[keyof InfluencerThresholds];
export type VerifiedKey = 'twitterVerified' | 'tiktokVerified';

/** The influencer thresholds by platform, in the order shown, with their field labels. */
export const INFLUENCER_PLATFORMS: {
  name: string;
  thresholds: { key: ThresholdKey; label: string }[];
  verified?: VerifiedKey;
}[] = [
  {
    name: 'Twitter',
    thresholds: [
      { key: 'twitterFollowers', label: 'Followers' },
      { key: 'twitterRetweets', label: 'Retweets' },
    ],
    verified: 'twitterVerified',
  },
  { name: 'TikTok', thresholds: [{ key: 'tiktokFollowers', label: 'Followers' }], verified: 'tiktokVerified' },
  {
    name: 'Instagram',
    thresholds: [
      { key: 'instagramFollowers', label: 'Followers' },
      { key: 'instagramLikes', label: 'Likes' },
    ],
  },
  {
    name: 'YouTube',
    thresholds: [
      { key: 'youtubeFollowers', label: 'Subscribers' },
      { key: 'youtubeViews', label: 'Views' },
    ],
  },
  {
    name: 'Facebook',
    thresholds: [
      { key: 'facebookFans', label: 'Fans' },
      { key: 'facebookLikes', label: 'Likes' },
    ],
  },
];

const THRESHOLD_KEYS: ThresholdKey[] = INFLUENCER_PLATFORMS.flatMap((p) => p.thresholds.map((t) => t.key));

/** What the form holds: switches and choices as they are, numbers and lists as typed. */
export interface NotificationForm {
  frequency: AlertFrequency;
  /** Addresses, one a line or separated by commas. */
  alertRecipients: string;
  negativeSentiment: boolean;
  spike: boolean;
  spikeSensitivity: SpikeSensitivity;
  spikeMinPosts: string;
  thresholds: Record<ThresholdKey, string>;
  twitterVerified: boolean;
  tiktokVerified: boolean;
  reportEnabled: boolean;
  reportFrequency: ReportFrequency;
  reportRecipients: string;
  sendWithoutUpdates: boolean;
  webhookUrl: string;
  slackUrl: string;
}

/** Fields that can carry a message of their own. */
export type FieldKey = 'alertRecipients' | 'reportRecipients' | 'spikeMinPosts' | 'webhookUrl' | 'slackUrl' | ThresholdKey;
export type FormErrors = Partial<Record<FieldKey, string>>;

export function formFromSettings(s: NotificationSettings): NotificationForm {
  const inf = s.alerts.influencers;
  return {
    frequency: s.alerts.frequency,
    alertRecipients: s.alerts.recipients.join('\n'),
    negativeSentiment: s.alerts.negativeSentiment,
    spike: s.alerts.spike,
    spikeSensitivity: s.alerts.spikeSensitivity,
    spikeMinPosts: String(s.alerts.spikeMinPosts),
    thresholds: Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, inf[k] ? String(inf[k]) : ''])) as Record<ThresholdKey, string>,
    twitterVerified: inf.twitterVerified,
    tiktokVerified: inf.tiktokVerified,
    reportEnabled: s.report.enabled,
    reportFrequency: s.report.frequency,
    reportRecipients: s.report.recipients.join('\n'),
    sendWithoutUpdates: s.report.sendWithoutUpdates,
    webhookUrl: s.webhook.url ?? '',
    slackUrl: s.slack.url ?? '',
  };
}

/** The addresses of a list as typed: split on new lines, commas and semicolons, blanks dropped. */
export function splitRecipients(text: string): string[] {
  return text
    .split(/[\n,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);
}

/** A plain address as the server takes it: local@domain.tld, no spaces, quotes or brackets. */
export function isEmail(a: string): boolean {
  const at = a.lastIndexOf('@');
  if (at <= 0) return false;
  const local = a.slice(0, at);
  const domain = a.slice(at + 1);
  const bad = /[\s<>()[\],;:"\\@\u0000-\u001f]/;
  return (
    a.length <= 254 &&
    local.length <= 64 &&
    !bad.test(local) &&
    !bad.test(domain) &&
    domain.includes('.') &&
    !domain.startsWith('.') &&
    !domain.endsWith('.') &&
    !domain.includes('..')
  );
}

/** The list's addresses without repeats (the first spelling kept), or why it cannot be saved. */
function recipients(text: string): { list: string[] } | { error: string } {
  const list: string[] = [];
  for (const a of splitRecipients(text)) {
    if (!isEmail(a)) return { error: `'${a}' is not an e-mail address.` };
    if (!list.some((x) => x.toLowerCase() === a.toLowerCase())) list.push(a);
  }
  if (list.length > MAX_RECIPIENTS) return { error: `Too many recipients: at most ${MAX_RECIPIENTS}.` };
  return { list };
}

function wholeNumber(text: string): number | null {
  const t = text.trim().replace(/[,\s_]/g, '');
  return /^\d+$/.test(t) ? Number(t) : null;
}

function address(text: string, what: string): { url: string | null } | { error: string } {
  const t = text.trim();
  if (!t) return { url: null };
  if (!/^https?:\/\/[^/\s]/i.test(t) || /\s/.test(t)) return { error: `${what} must start with http:// or https://.` };
  try {
    new URL(t);
  } catch {
    return { error: `${what} is not a valid address.` };
  }
  return { url: t };
}

/** The settings PUT takes, or the message of each field that cannot be saved as it is. */
export function settingsFromForm(f: NotificationForm): { settings: NotificationSettings; errors: null } | { settings: null; errors: FormErrors } {
  const errors: FormErrors = {};
  const alertTo = recipients(f.alertRecipients);
  if ('error' in alertTo) errors.alertRecipients = alertTo.error;
  const reportTo = recipients(f.reportRecipients);
  if ('error' in reportTo) errors.reportRecipients = reportTo.error;
  const minPosts = wholeNumber(f.spikeMinPosts);
  if (minPosts === null || minPosts < 1 || minPosts > SPIKE_MIN_POSTS_MAX) {
    errors.spikeMinPosts = 'Spike minimum posts must be between 1 and 1,000,000.';
  }
  const thresholds = {} as Record<ThresholdKey, number>;
  for (const k of THRESHOLD_KEYS) {
    const raw = f.thresholds[k];
    const n = raw.trim() === '' ? 0 : wholeNumber(raw);
    if (n === null) errors[k] = 'Enter a whole number (0 or empty: off).';
    else if (n > MAX_THRESHOLD) errors[k] = 'At most 10,000,000,000.';
    else thresholds[k] = n;
  }
  const webhook = address(f.webhookUrl, 'The webhook address');
  if ('error' in webhook) errors.webhookUrl = webhook.error;
  const slack = address(f.slackUrl, 'The Slack address');
  if ('error' in slack) errors.slackUrl = slack.error;

  if (Object.keys(errors).length || 'error' in alertTo || 'error' in reportTo || 'error' in webhook || 'error' in slack || minPosts === null) {
    return { settings: null, errors };
  }
  return {
    errors: null,
    settings: {
      alerts: {
        frequency: f.frequency,
        recipients: alertTo.list,
        negativeSentiment: f.negativeSentiment,
        spike: f.spike,
        spikeSensitivity: f.spikeSensitivity,
        spikeMinPosts: minPosts,
        influencers: { ...thresholds, twitterVerified: f.twitterVerified, tiktokVerified: f.tiktokVerified },
      },
      report: {
        enabled: f.reportEnabled,
        frequency: f.reportFrequency,
        recipients: reportTo.list,
        sendWithoutUpdates: f.sendWithoutUpdates,
      },
      webhook: { url: webhook.url },
      slack: { url: slack.url },
    },
  };
}

/**
 * The form reduced to what it means, so that retyping a value the same way ("1,000" for "1000",
 * an address list split differently, an empty threshold for 0) is no change.
 */
function meaning(f: NotificationForm): unknown {
  const num = (t: string) => {
    const n = wholeNumber(t);
    return n === null ? t.trim() : n;
  };
  return {
    ...f,
    alertRecipients: splitRecipients(f.alertRecipients),
    reportRecipients: splitRecipients(f.reportRecipients),
    spikeMinPosts: num(f.spikeMinPosts),
    thresholds: Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, f.thresholds[k].trim() === '' ? 0 : num(f.thresholds[k])])),
    webhookUrl: f.webhookUrl.trim(),
    slackUrl: f.slackUrl.trim(),
  };
}

export function formChanged(a: NotificationForm, b: NotificationForm): boolean {
  return JSON.stringify(meaning(a)) !== JSON.stringify(meaning(b));
}

/**
 * The field a refusal of the server is about, when it can be told: an address that is not one
 * belongs to the list holding it; otherwise the message names the field.
 */
export function fieldOfServerError(err: unknown, f: NotificationForm): FieldKey | null {
  if (!(err instanceof ApiError) || err.status !== 422) return null;
  const text = err.message;
  if (err.code === 'invalid_email') {
    const bad = /'([^']*)'/.exec(text)?.[1]?.trim().toLowerCase();
    const has = (list: string) => splitRecipients(list).some((a) => a.toLowerCase() === bad);
    if (bad && has(f.alertRecipients)) return 'alertRecipients';
    if (bad && has(f.reportRecipients)) return 'reportRecipients';
    return null;
  }
  if (/slack/i.test(text)) return 'slackUrl';
  if (/webhook/i.test(text)) return 'webhookUrl';
  if (/minimum posts/i.test(text)) return 'spikeMinPosts';
  if (/report recipients/i.test(text)) return 'reportRecipients';
  if (/recipients/i.test(text)) return 'alertRecipients';
  return null;
}

/** Field keys in the order they appear on the page (the first one in error takes the focus). */
export const FIELD_ORDER: FieldKey[] = ['alertRecipients', 'spikeMinPosts', ...THRESHOLD_KEYS, 'reportRecipients', 'webhookUrl', 'slackUrl'];

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import type { HistoryItem, NotificationSettings } from '../../api/queries/notifications';
import { kindLabel, pageRangeLabel, statusLabel, testResult } from './history-data';
import { fieldOfServerError, formChanged, formFromSettings, isEmail, settingsFromForm, splitRecipients } from './notification-form';

const SAVED: NotificationSettings = {
  alerts: {
    frequency: 'daily',
    recipients: ['a@example.org', 'b@example.org'],
    negativeSentiment: true,
    spike: false,
    spikeSensitivity: 'low',
    spikeMinPosts: 3,
    influencers: {
      twitterFollowers: 1000,
      twitterRetweets: 0,
      twitterVerified: true,
      tiktokFollowers: 0,
      tiktokVerified: false,
      instagramFollowers: 0,
      instagramLikes: 0,
      youtubeFollowers: 0,
      youtubeViews: 99,
      facebookFans: 0,
      facebookLikes: 0,
    },
  },
  report: { enabled: false, frequency: 'daily', recipients: [], sendWithoutUpdates: true },
  webhook: { url: 'https://example.org/h' },
  slack: { url: null },
};

describe('notification form', () => {
  it('goes from settings to the form and back unchanged', () => {
    const form = formFromSettings(SAVED);
    expect(form.alertRecipients).toBe('a@example.org\nb@example.org');
    expect(form.thresholds.twitterFollowers).toBe('1000');
    expect(form.thresholds.twitterRetweets).toBe('');
    expect(form.webhookUrl).toBe('https://example.org/h');
    expect(form.slackUrl).toBe('');
    expect(settingsFromForm(form)).toEqual({ settings: SAVED, errors: null });
  });

  it('splits address lists on lines, commas and semicolons', () => {
    expect(splitRecipients(' a@x.org, b@x.org;c@x.org\n\n d@x.org ,')).toEqual(['a@x.org', 'b@x.org', 'c@x.org', 'd@x.org']);
    expect(splitRecipients('   ')).toEqual([]);
  });

  it('takes plain addresses only', () => {
    for (const ok of ['a@example.org', 'first.last+tag@sub.example.co.uk']) expect(isEmail(ok)).toBe(true);
    for (const bad of ['a', 'a@b', '@example.org', 'a@.org', 'a@example.', 'a b@example.org', '<a@example.org>', 'a@exa..org', 'a@b@c.org']) {
      expect(isEmail(bad), bad).toBe(false);
    }
  });

  it('drops repeated addresses and refuses more than 20', () => {
    const form = { ...formFromSettings(SAVED), alertRecipients: 'a@example.org\nA@Example.org\nb@example.org' };
    expect(settingsFromForm(form).settings?.alerts.recipients).toEqual(['a@example.org', 'b@example.org']);
    const many = Array.from({ length: 21 }, (_, i) => `p${i}@example.org`).join('\n');
    expect(settingsFromForm({ ...form, reportRecipients: many }).errors).toEqual({ reportRecipients: 'Too many recipients: at most 20.' });
  });

  it('checks numbers and addresses field by field', () => {
    const form = formFromSettings(SAVED);
    const bad = settingsFromForm({
      ...form,
      spikeMinPosts: '1000001',
      thresholds: { ...form.thresholds, instagramLikes: 'many', facebookFans: '-5', youtubeViews: '10000000001' },
      webhookUrl: 'example.org/hook',
      slackUrl: 'https://',
    });
    expect(bad.errors).toEqual({
      spikeMinPosts: 'Spike minimum posts must be between 1 and 1,000,000.',
      instagramLikes: 'Enter a whole number (0 or empty: off).',
      facebookFans: 'Enter a whole number (0 or empty: off).',
      youtubeViews: 'At most 10,000,000,000.',
      webhookUrl: 'The webhook address must start with http:// or https://.',
      slackUrl: 'The Slack address must start with http:// or https://.',
    });
    expect(settingsFromForm({ ...form, spikeMinPosts: '' }).errors).toHaveProperty('spikeMinPosts');
    expect(settingsFromForm({ ...form, spikeMinPosts: '1,000' }).settings?.alerts.spikeMinPosts).toBe(1000);
  });

  it('counts only changes of meaning', () => {
    const form = formFromSettings(SAVED);
    expect(formChanged(form, { ...form, alertRecipients: 'a@example.org, b@example.org\n' })).toBe(false);
    expect(formChanged(form, { ...form, thresholds: { ...form.thresholds, twitterFollowers: '1,000', twitterRetweets: '0' } })).toBe(false);
    expect(formChanged(form, { ...form, webhookUrl: ' https://example.org/h ' })).toBe(false);
    expect(formChanged(form, { ...form, alertRecipients: 'b@example.org\na@example.org' })).toBe(true);
    expect(formChanged(form, { ...form, spike: true })).toBe(true);
    expect(formChanged(form, { ...form, thresholds: { ...form.thresholds, twitterRetweets: '1' } })).toBe(true);
  });

  it('places the server’s refusal on its field', () => {
    const form = { ...formFromSettings(SAVED), reportRecipients: 'x@y.example' };
    const err = (code: string, message: string, status = 422) => new ApiError(status, code, message);
    expect(fieldOfServerError(err('invalid_email', "'x@y.example' is not an e-mail address."), form)).toBe('reportRecipients');
    expect(fieldOfServerError(err('invalid_email', "'A@example.org' is not an e-mail address."), form)).toBe('alertRecipients');
    expect(fieldOfServerError(err('invalid_email', "'nobody@z.org' is not an e-mail address."), form)).toBeNull();
    expect(fieldOfServerError(err('validation_failed', 'The Slack webhook address must start with http:// or https:// and name a host.'), form)).toBe('slackUrl');
    expect(fieldOfServerError(err('invalid_alert_settings', 'The webhook address must start with http:// or https://.'), form)).toBe('webhookUrl');
    expect(fieldOfServerError(err('invalid_alert_settings', 'Spike minimum posts must be between 1 and 1,000,000.'), form)).toBe('spikeMinPosts');
    expect(fieldOfServerError(err('invalid_alert_settings', 'Report recipients: at most 20 addresses.'), form)).toBe('reportRecipients');
    expect(fieldOfServerError(err('invalid_alert_settings', 'Too many recipients: at most 20.'), form)).toBe('alertRecipients');
    expect(fieldOfServerError(err('internal', 'Sorry', 500), form)).toBeNull();
    expect(fieldOfServerError(new Error('x'), form)).toBeNull();
  });
});

describe('history words', () => {
  const base: HistoryItem = {
    id: 1, kind: 'test', channel: 'webhook', recipient: 'h.example.org', subject: 'Test', reason: '', status: 'sent', attempts: 1,
    error: null, createdAt: 0, sentAt: 1, nextAttemptAt: null,
  };

  it('names kinds and states, and keeps unknown ones as they come', () => {
    expect(kindLabel('negative_sentiment')).toBe('Negative sentiment');
    expect(kindLabel('spike')).toBe('Activity spike');
    expect(kindLabel('something_new')).toBe('something_new');
    expect(statusLabel('retrying')).toBe('Retrying');
  });

  it('says how a test went', () => {
    expect(testResult(base)).toEqual({ ok: true, text: 'Sent' });
    expect(testResult({ ...base, status: 'failed', error: 'HTTP 404 from h.example.org.' })).toEqual({ ok: false, text: 'Failed: HTTP 404 from h.example.org.' });
    expect(testResult({ ...base, status: 'failed' })).toEqual({ ok: false, text: 'Failed.' });
    const retry = testResult({ ...base, status: 'retrying', error: 'timed out', nextAttemptAt: Date.UTC(2025, 0, 2, 3, 4) });
    expect(retry.ok).toBe(false);
    expect(retry.text).toMatch(/^Not sent yet: timed out\. Next attempt Jan 2, 2025, /);
  });

  it('writes the range of a page', () => {
    expect(pageRangeLabel(1, 20, 20, 45)).toBe('1–20 of 45');
    expect(pageRangeLabel(3, 20, 5, 45)).toBe('41–45 of 45');
    expect(pageRangeLabel(1, 20, 0, 0)).toBe('0 of 0');
  });
});

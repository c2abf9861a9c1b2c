// The alert history's words: what each kind of message, channel and delivery state is called,
// and the line of a test's result.
import type { DeliveryKind, DeliveryStatus, Destination, HistoryItem } from '../../api/queries/notifications';
import { formatDateTime } from '../../lib/dates';

export const HISTORY_PER_PAGE = 20;

export const KIND_LABELS: Record<DeliveryKind, string> = {
  spike: 'Activity spike',
  negative_sentiment: 'Negative sentiment',
  influencer: 'Influencer',
  digest: 'Digest',
  report: 'Report',
  test: 'Test',
};

export const CHANNEL_LABELS: Record<Destination, string> = {
  email: 'E-mail',
  webhook: 'Webhook',
  slack: 'Slack',
};

export const STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  sending: 'Sending',
  sent: 'Sent',
  retrying: 'Retrying',
  failed: 'Failed',
};

export const STATUS_STYLES: Record<DeliveryStatus, string> = {
  pending: 'bg-slate-100 text-slate-700 ring-slate-200',
  sending: 'bg-brand-50 text-brand-700 ring-brand-200',
  sent: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  retrying: 'bg-amber-50 text-amber-900 ring-amber-200',
  failed: 'bg-red-50 text-red-800 ring-red-200',
};

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind as DeliveryKind] ?? kind;
}

export function channelLabel(channel: string): string {
  return CHANNEL_LABELS[channel as Destination] ?? channel;
}

export function statusLabel(status: string): string {
  return STATUS_LABELS[status as DeliveryStatus] ?? status;
}

/** What a test message came to: sent, to be tried again (and when), or why it failed. */
export function testResult(d: HistoryItem): { ok: boolean; text: string } {
  if (d.status === 'sent') return { ok: true, text: 'Sent' };
  if (d.status === 'pending' || d.status === 'sending') return { ok: true, text: 'Queued: it goes out in a moment.' };
  const why = d.error ? `: ${d.error.trim().replace(/\.$/, '')}` : '';
  if (d.status === 'retrying') {
    const when = d.nextAttemptAt ? ` Next attempt ${formatDateTime(d.nextAttemptAt)}.` : '';
    return { ok: false, text: `Not sent yet${why}.${when}` };
  }
  return { ok: false, text: `Failed${why}.` };
}

/** "1–20 of 45" */
export function pageRangeLabel(page: number, perPage: number, shown: number, total: number): string {
  if (total <= 0 || shown <= 0) return `0 of ${total}`;
  const first = (page - 1) * perPage + 1;
  return `${first}–${first + shown - 1} of ${total.toLocaleString('en-US')}`;
}

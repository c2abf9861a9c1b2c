// A tracker's alerts and periodic reports (owners and administrators): the settings, test
// messages to each destination, the history of what was sent, and the public unsubscribe link of
// every alert and report mail. Types are written by hand from the API contract until the OpenAPI
// document's types are generated again.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, get, post, put } from '../client';

export type AlertFrequency = 'off' | 'realtime' | 'hourly' | 'daily';
export type SpikeSensitivity = 'low' | 'medium' | 'high';
export type ReportFrequency = 'daily' | 'weekly' | 'monthly';
export type Destination = 'email' | 'webhook' | 'slack';

/** Influencer alerts: a new post by an account past any threshold of its platform alerts; 0 / false: off. */
export interface InfluencerThresholds {
  twitterFollowers: number;
  twitterRetweets: number;
  twitterVerified: boolean;
  tiktokFollowers: number;
  tiktokVerified: boolean;
  instagramFollowers: number;
  instagramLikes: number;
  youtubeFollowers: number;
  youtubeViews: number;
  facebookFans: number;
  facebookLikes: number;
}

export interface AlertSettings {
  frequency: AlertFrequency;
  recipients: string[];
  negativeSentiment: boolean;
  spike: boolean;
  spikeSensitivity: SpikeSensitivity;
  /** 1..1,000,000: the fewest posts in the 2-hour window that may alert. */
  spikeMinPosts: number;
  influencers: InfluencerThresholds;
}

export interface ReportSettings {
  enabled: boolean;
  frequency: ReportFrequency;
  recipients: string[];
  sendWithoutUpdates: boolean;
}

/** The body of PUT, whole. */
export interface NotificationSettings {
  alerts: AlertSettings;
  report: ReportSettings;
  webhook: { url: string | null };
  slack: { url: string | null };
}

/** GET and PUT /trackers/{hash}/notifications. Times are milliseconds since the epoch. */
export interface NotificationsView {
  settings: NotificationSettings;
  /** The webhook's HMAC-SHA256 key; null until a webhook address is saved. */
  webhookSecret: string | null;
  /** false: the server has no SMTP server, so nothing goes out by e-mail. */
  mailConfigured: boolean;
  /** null while the report is off. */
  nextReportAt: number | null;
  timeZone: string;
}

/** `digest`: the alerts of an hour or a day gathered into one message. */
export type DeliveryKind = 'spike' | 'negative_sentiment' | 'influencer' | 'digest' | 'report' | 'test';
export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'retrying' | 'failed';

/** One message sent (or being sent) to one recipient. */
export interface HistoryItem {
  id: number;
  kind: DeliveryKind;
  channel: Destination;
  /** An e-mail address, or the webhook's host. */
  recipient: string;
  subject: string;
  /** The figures that triggered it; may be empty. */
  reason: string;
  status: DeliveryStatus;
  attempts: number;
  error: string | null;
  createdAt: number;
  sentAt: number | null;
  nextAttemptAt: number | null;
}

export interface HistoryPage {
  items: HistoryItem[];
  total: number;
  page: number;
  perPage: number;
}

/** GET and POST /unsubscribe?token=… */
export interface UnsubscribeView {
  email: string;
  tracker: string;
  subscribed: boolean;
}

/** How often the history is read again while the page is open. */
export const HISTORY_REFRESH_MS = 30_000;

export const notificationKeys = {
  settings: (hash: string) => ['trackers', 'notifications', hash] as const,
  historyAll: (hash: string) => ['trackers', 'notifications', hash, 'history'] as const,
  history: (hash: string, page: number) => ['trackers', 'notifications', hash, 'history', page] as const,
};

const path = (hash: string) => `/trackers/${encodeURIComponent(hash)}/notifications`;

/** GET /trackers/{hash}/notifications */
export function useNotificationSettings(hash: string) {
  return useQuery({
    queryKey: notificationKeys.settings(hash),
    queryFn: () => get<NotificationsView>(path(hash)),
    retry: false,
    staleTime: 0,
  });
}

/** PUT /trackers/{hash}/notifications: the whole settings; the answer is the new view. */
export function useSaveNotificationSettings(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (settings: NotificationSettings) => put<NotificationsView>(path(hash), settings),
    onSuccess: (view) => qc.setQueryData(notificationKeys.settings(hash), view),
  });
}

/** POST /trackers/{hash}/notifications/test: a test message to a saved destination, sent now. */
export function useSendTestNotification(hash: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (destination: Destination) => post<{ delivery: HistoryItem }>(`${path(hash)}/test`, { destination }),
    onSettled: () => qc.invalidateQueries({ queryKey: notificationKeys.historyAll(hash) }),
  });
}

/** GET /trackers/{hash}/notifications/history?page=: newest first, read again every 30 s. */
export function useNotificationHistory(hash: string, page: number) {
  return useQuery({
    queryKey: notificationKeys.history(hash, page),
    queryFn: () => get<HistoryPage>(`${path(hash)}/history`, { page }),
    retry: false,
    refetchInterval: HISTORY_REFRESH_MS,
    // The table keeps the last page while the next one loads.
    placeholderData: keepPreviousData,
  });
}

/** POST /unsubscribe?token=… (no sign-in): the address leaves the tracker's alert and report lists. */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => api<UnsubscribeView>('POST', '/unsubscribe', {}, { token }),
  });
}

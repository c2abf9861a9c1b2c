-- Alerts and periodic reports. A tracker's settings (JSON, as the API validated them) and the
-- alert engine's memory live in one row; what the engine decides is an event, and what is to be
-- sent is a delivery (the outbox): written in the same transaction as the decision, leased by
-- one sender at a time, retried with back-off until it is sent, and kept as the alert history.
CREATE TABLE notification_settings (
    tracker_id INTEGER PRIMARY KEY REFERENCES trackers(id) ON DELETE CASCADE,
    settings TEXT NOT NULL,
    webhook_secret TEXT,
    spike_checked_hour INTEGER,
    spike_last_alert INTEGER,
    negative_checked_hour INTEGER,
    negative_above INTEGER NOT NULL DEFAULT 0,
    negative_last_alert INTEGER,
    influencer_checked_at INTEGER,
    digest_due_at INTEGER,
    report_due_at INTEGER,
    engine_version INTEGER NOT NULL DEFAULT 0,
    public_base TEXT,
    updated_at INTEGER NOT NULL
);

CREATE TABLE notification_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    reason TEXT NOT NULL,
    figures TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    queued INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT notification_events_kind_check CHECK (kind IN ('spike', 'negative_sentiment', 'influencer'))
);
CREATE INDEX notification_events_waiting_idx ON notification_events(tracker_id, queued, id);

CREATE TABLE notification_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    channel TEXT NOT NULL,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    payload TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    sent_at INTEGER,
    CONSTRAINT notification_deliveries_kind_check CHECK (kind IN ('spike', 'negative_sentiment', 'influencer', 'digest', 'report', 'test')),
    CONSTRAINT notification_deliveries_channel_check CHECK (channel IN ('email', 'webhook', 'slack')),
    CONSTRAINT notification_deliveries_status_check CHECK (status IN ('pending', 'sending', 'sent', 'retrying', 'failed'))
);
CREATE INDEX notification_deliveries_due_idx ON notification_deliveries(status, next_attempt_at);
CREATE INDEX notification_deliveries_tracker_idx ON notification_deliveries(tracker_id, id);

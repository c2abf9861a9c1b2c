-- Accounts, trackers, membership, logs, tags and post storage.
CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    company TEXT NOT NULL DEFAULT '',
    industry TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    position TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    is_admin INTEGER NOT NULL DEFAULT 0,
    trial INTEGER NOT NULL DEFAULT 0,
    trial_expires INTEGER,
    subscribed INTEGER NOT NULL DEFAULT 0,
    verified INTEGER NOT NULL DEFAULT 0,
    plan INTEGER NOT NULL DEFAULT 0,
    max_searches INTEGER NOT NULL DEFAULT 5,
    max_ignored INTEGER NOT NULL DEFAULT 5,
    allow_facebook INTEGER NOT NULL DEFAULT 1,
    allow_tiktok INTEGER NOT NULL DEFAULT 1,
    allow_youtube INTEGER NOT NULL DEFAULT 1,
    -- Accounts Hark creates for itself (the demo owner): no sign-in, not counted as set up.
    is_system INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT users_email_key UNIQUE (email)
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions(user_id);

CREATE TABLE trackers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    hash TEXT NOT NULL,
    friendly TEXT NOT NULL,
    title TEXT NOT NULL,
    owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    parent_id INTEGER REFERENCES trackers(id) ON DELETE CASCADE,
    status TEXT NOT NULL DEFAULT 'running',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    end_at INTEGER,
    last_cached INTEGER,
    last_paused INTEGER,
    first_data_point INTEGER,
    platforms INTEGER NOT NULL,
    criteria TEXT NOT NULL,
    volume_limit INTEGER,
    unlock_date INTEGER NOT NULL DEFAULT 0,
    share_exports INTEGER NOT NULL DEFAULT 0,
    media_moderation INTEGER NOT NULL DEFAULT 0,
    custom_config TEXT NOT NULL DEFAULT '{}',
    hide_auth_metrics INTEGER NOT NULL DEFAULT 0,
    is_preview_mode INTEGER NOT NULL DEFAULT 0,
    is_demo INTEGER NOT NULL DEFAULT 0,
    total_posts INTEGER NOT NULL DEFAULT 0,
    link_sharing TEXT NOT NULL DEFAULT '{}',
    custom_url TEXT,
    share_hash TEXT,
    last_edit_mode TEXT,
    CONSTRAINT trackers_hash_key UNIQUE (hash),
    CONSTRAINT trackers_friendly_key UNIQUE (friendly),
    CONSTRAINT trackers_status_check CHECK (status IN ('running', 'paused'))
);
CREATE INDEX trackers_owner_idx ON trackers(owner_id, created_at);

CREATE TABLE tracker_members (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    permission INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, user_id),
    CONSTRAINT tracker_members_permission_check CHECK (permission BETWEEN 0 AND 4)
);
CREATE INDEX tracker_members_user_idx ON tracker_members(user_id);

CREATE TABLE tracker_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    action TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX tracker_logs_tracker_idx ON tracker_logs(tracker_id, created_at);

-- A search edit and the user's choice for old data; re-analysis picks up rows with applied_at NULL.
CREATE TABLE tracker_edits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    mode TEXT NOT NULL,
    criteria_before TEXT NOT NULL,
    criteria_after TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    applied_at INTEGER,
    processed INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    removed INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT tracker_edits_mode_check CHECK (mode IN ('reanalyze', 'future'))
);
CREATE INDEX tracker_edits_pending_idx ON tracker_edits(tracker_id, applied_at);

-- Post tags belong to a tracker; influencer tags to an account (the account watchlist).
CREATE TABLE tags (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    CONSTRAINT tags_tracker_name_key UNIQUE (tracker_id, name)
);

CREATE TABLE influencer_tags (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    CONSTRAINT influencer_tags_owner_name_key UNIQUE (owner_id, name)
);

CREATE TABLE influencer_tag_accounts (
    tag_id INTEGER NOT NULL REFERENCES influencer_tags(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    username TEXT NOT NULL,
    PRIMARY KEY (tag_id, platform, username)
);

-- A post is stored once, whatever the number of trackers it matches.
CREATE TABLE posts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    post_key TEXT NOT NULL,
    platform TEXT NOT NULL,
    external_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    collected_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    author_id TEXT NOT NULL DEFAULT '',
    author_username TEXT NOT NULL DEFAULT '',
    author_name TEXT NOT NULL DEFAULT '',
    author_avatar TEXT,
    author_followers INTEGER NOT NULL DEFAULT 0,
    author_verified INTEGER NOT NULL DEFAULT 0,
    author_location TEXT,
    text TEXT NOT NULL DEFAULT '',
    title TEXT,
    url TEXT,
    lang TEXT,
    post_type TEXT NOT NULL DEFAULT 'original',
    is_story INTEGER NOT NULL DEFAULT 0,
    likes INTEGER NOT NULL DEFAULT 0,
    shares INTEGER NOT NULL DEFAULT 0,
    comments INTEGER NOT NULL DEFAULT 0,
    views INTEGER NOT NULL DEFAULT 0,
    dislikes INTEGER NOT NULL DEFAULT 0,
    impressions INTEGER NOT NULL DEFAULT 0,
    reach INTEGER NOT NULL DEFAULT 0,
    engagement INTEGER NOT NULL DEFAULT 0,
    sentiment REAL,
    sentiment_bucket TEXT,
    engagement_rate REAL,
    country TEXT,
    gender TEXT,
    source TEXT,
    device TEXT,
    terms TEXT NOT NULL DEFAULT '{}',
    media TEXT,
    data TEXT NOT NULL DEFAULT '{}',
    CONSTRAINT posts_post_key_key UNIQUE (post_key)
);

-- Per-tracker state of a post: deletion, sentiment override, visibility, subtracker labels.
CREATE TABLE tracker_posts (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    matched_at INTEGER NOT NULL,
    platform TEXT NOT NULL,
    deleted_at INTEGER,
    sentiment_override TEXT,
    visibility INTEGER NOT NULL DEFAULT 1,
    subtrackers INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, post_id)
);
CREATE INDEX tracker_posts_time_idx ON tracker_posts(tracker_id, created_at);

CREATE TABLE post_tags (
    tracker_id INTEGER NOT NULL,
    post_id INTEGER NOT NULL,
    tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    PRIMARY KEY (tracker_id, post_id, tag_id),
    FOREIGN KEY (tracker_id, post_id) REFERENCES tracker_posts(tracker_id, post_id) ON DELETE CASCADE
);
CREATE INDEX post_tags_tag_idx ON post_tags(tag_id);

CREATE TABLE ignored_users (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    username TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (tracker_id, platform, username)
);

-- Rollups written in the same transaction as the posts they count (see DESIGN.md).
CREATE TABLE rollup_hourly (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    hour INTEGER NOT NULL,
    platform TEXT NOT NULL,
    posts INTEGER NOT NULL DEFAULT 0,
    engagement INTEGER NOT NULL DEFAULT 0,
    reach INTEGER NOT NULL DEFAULT 0,
    impressions INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, hour, platform)
);

-- Daily counts of terms by kind: hashtag, mention, keyword, domain, link, country, source,
-- post_type, sentiment, gender, lang.
CREATE TABLE rollup_terms (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    day INTEGER NOT NULL,
    platform TEXT NOT NULL,
    term TEXT NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, kind, day, platform, term)
);

-- Daily activity per author: posts, engagement and the largest follower count seen.
CREATE TABLE rollup_authors (
    tracker_id INTEGER NOT NULL REFERENCES trackers(id) ON DELETE CASCADE,
    day INTEGER NOT NULL,
    platform TEXT NOT NULL,
    author TEXT NOT NULL,
    posts INTEGER NOT NULL DEFAULT 0,
    engagement INTEGER NOT NULL DEFAULT 0,
    followers INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tracker_id, day, platform, author)
);

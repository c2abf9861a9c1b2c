//! `hark`: the Hark server and its command line.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Parser, Subcommand};
use hark_api::{ApiConfig, AppState};
use hark_store::Store;

mod progress;

#[derive(Parser)]
#[command(name = "hark", version, about = "Hark: self-hosted social listening")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The plan catalogue (TOML, the keys of the built-in one); the built-in catalogue, whose
    /// default plan unlocks everything, when unset.
    #[arg(long, env = "HARK_PLANS_FILE", global = true)]
    plans_file: Option<PathBuf>,
}

/// Reads, checks and installs the plan catalogue of `--plans-file`.
fn install_plans(path: &std::path::Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read the plans file {}", path.display()))?;
    let catalogue = hark_core::plans::Catalogue::parse(&text).map_err(|e| anyhow::anyhow!("the plans file {}: {e}", path.display()))?;
    hark_core::plans::install(catalogue);
    Ok(())
}

#[derive(Subcommand)]
enum Command {
    /// Serve the web app and the JSON API.
    Serve(ServeArgs),
    /// Apply database migrations and exit.
    Migrate(DbArgs),
    /// Import posts from an NDJSON or CSV file into a tracker.
    Import(ImportArgs),
    /// Print the enrichment of each line of standard input (plain text or post JSON) as JSON.
    Analyze,
    /// Print the OpenAPI document of the JSON API (the web app's types are generated from it).
    Openapi,
    /// Write a consistent copy of the embedded SQLite database, while Hark keeps running.
    Backup(BackupArgs),
    /// Replace the embedded SQLite database with a backup (stop the server first).
    Restore(RestoreArgs),
    /// Seal the stored secrets (connector credentials, notification settings, webhook secrets,
    /// the Google Sheets key) with a new secret key. Stop every server first.
    Rekey(RekeyArgs),
    /// Manage accounts.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
}

#[derive(Args, Clone)]
struct DbArgs {
    /// Directory for the embedded SQLite database and other local data.
    #[arg(long, env = "HARK_DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
    /// Database URL: sqlite://PATH or postgres://USER@HOST/DB. Defaults to SQLite in the data dir.
    #[arg(long, env = "HARK_DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
}

#[derive(Args)]
struct ServeArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Address and port to listen on.
    #[arg(long, env = "HARK_BIND", default_value = "127.0.0.1:8080")]
    bind: String,
    /// Directory of the built web app (index.html and assets).
    #[arg(long, env = "HARK_WEB_DIR", default_value = "web/dist")]
    web_dir: PathBuf,
    /// Mark session cookies Secure; set when Hark is served over https.
    #[arg(long, env = "HARK_SECURE_COOKIES", default_value_t = false)]
    secure_cookies: bool,
    /// Do not create or feed the demo tracker.
    #[arg(long, env = "HARK_NO_DEMO", default_value_t = false)]
    no_demo: bool,
    /// Seconds between two collection sweeps of a tracker (connectors are set on the admin page).
    #[arg(long, env = "HARK_COLLECT_INTERVAL", default_value_t = 300)]
    collect_interval: u64,
    /// SMTP server for mail (share links, invitations): smtp://HOST:PORT, smtp://HOST:PORT?tls=required
    /// or smtps://HOST:PORT, with USER:PASSWORD@ before the host when it asks for a login.
    #[arg(long, env = "HARK_SMTP_URL", hide_env_values = true)]
    smtp_url: Option<String>,
    /// Sender of Hark's mail, e.g. "Hark <hark@example.org>".
    #[arg(long, env = "HARK_MAIL_FROM", default_value = "Hark <hark@localhost>")]
    mail_from: String,
    /// The address users reach Hark at (https://hark.example.org), for links in mail; the
    /// request's host when unset.
    #[arg(long, env = "HARK_PUBLIC_URL")]
    public_url: Option<String>,
    /// Hours a finished export (XLS, PDF) is kept for download.
    #[arg(long, env = "HARK_EXPORT_TTL_HOURS", default_value_t = 24, value_parser = clap::value_parser!(u64).range(1..=8760))]
    export_ttl_hours: u64,
    /// Seconds an export worker holds a job between two progress reports; another server takes
    /// it over after that.
    #[arg(long, env = "HARK_EXPORT_LEASE_SECS", default_value_t = 20, value_parser = clap::value_parser!(u64).range(2..=3600), hide = true)]
    export_lease_secs: u64,
    /// A pause at each progress step of an export, in milliseconds (to test interrupted exports).
    #[arg(long, env = "HARK_EXPORT_STEP_DELAY_MS", value_parser = clap::value_parser!(u64).range(1..=60_000), hide = true)]
    export_step_delay_ms: Option<u64>,
    /// Seconds between two rounds of the alerts engine (spikes, negative sentiment, influencers,
    /// digests and periodic reports); 0 turns alerts and reports off on this server.
    #[arg(long, env = "HARK_ALERTS_INTERVAL_SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(0..=86_400))]
    alerts_interval_secs: u64,
    /// Memory for answers of the dashboard, topics and sentiment pages kept while their tracker is
    /// unchanged, in MB; 0 keeps none (each read is computed).
    #[arg(long, env = "HARK_ANSWER_CACHE_MB", default_value_t = hark_api::answers::DEFAULT_MB, value_parser = clap::value_parser!(u64).range(0..=65_536))]
    answer_cache_mb: u64,
    /// Let webhooks and Slack messages reach this machine and private networks (a receiver inside
    /// your own network). Off by default: a tracker's owner could otherwise make the server call
    /// internal services.
    #[arg(long, env = "HARK_WEBHOOKS_ALLOW_PRIVATE", value_parser = clap::builder::BoolishValueParser::new(), default_value_t = false)]
    webhooks_allow_private: bool,
    /// Key sealing the secrets Hark stores (connector credentials, webhook signing secrets, the
    /// Google Sheets key): 64 hexadecimal digits. By default `secret.key` in the data directory,
    /// written on the first start; every server of a cluster needs the same key.
    #[arg(long, env = "HARK_SECRET_KEY", hide_env_values = true)]
    secret_key: Option<String>,
    /// Requests a minute one client address may make without a session, or through a share link,
    /// embed or moderation link (as many at once, then refilled evenly). Behind a proxy, see
    /// `--trusted-proxy`.
    #[arg(long, env = "HARK_PUBLIC_RATE_LIMIT", default_value_t = 600, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    public_rate_limit: u32,
    /// Reverse proxies in front of Hark (addresses or networks, e.g. 127.0.0.1,10.0.0.0/8): for
    /// requests from them the client is the last address in `X-Forwarded-For` that is not one of
    /// them, so rate limits count per visitor. Unset, the header is ignored.
    #[arg(long = "trusted-proxy", env = "HARK_TRUSTED_PROXIES", value_delimiter = ',', value_parser = parse_proxy)]
    trusted_proxies: Vec<ipnet::IpNet>,
    /// NATS server with JetStream (nats://HOST:4222) for a cluster's ingest log: connectors
    /// publish collected posts to it and every server's ingest workers write them. Unset: each
    /// server writes what it collects itself (one server needs no NATS).
    #[arg(long, env = "HARK_NATS_URL", hide_env_values = true)]
    nats_url: Option<String>,
    /// The JetStream stream of the ingest log; every server of a cluster uses the same one.
    #[arg(long, env = "HARK_NATS_STREAM", default_value = hark_ingest::log::DEFAULT_STREAM)]
    nats_stream: String,
}

#[derive(Args)]
struct ImportArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The tracker's hash (from its URL).
    #[arg(long)]
    tracker: String,
    /// `ndjson` (Hark posts or X API v2 responses, one per line) or `csv`; by default from the
    /// file's extension.
    #[arg(long, value_parser = ["ndjson", "csv"])]
    format: Option<String>,
    /// CSV: the platform of rows without a platform column (twt, ig, yt, fb, tt, news, blogs, forums, bsky, mastodon).
    #[arg(long)]
    platform: Option<String>,
    /// CSV: explicit column mapping, `field=Column,...` (e.g. `text=Body,created_at=Date`).
    #[arg(long)]
    map: Option<String>,
    /// Seconds between two progress lines when standard error is not a terminal (a log); on a
    /// terminal a progress bar moves instead.
    #[arg(long, env = "HARK_PROGRESS_SECS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(0..=3600))]
    progress_secs: u64,
    /// The file to import.
    file: PathBuf,
}

#[derive(Args)]
struct BackupArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The backup file to write; it must not exist yet.
    file: PathBuf,
}

#[derive(Args)]
struct RestoreArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The backup file (written by `hark backup`) to restore.
    file: PathBuf,
}

#[derive(Args)]
struct RekeyArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The key the secrets are sealed with now (64 hexadecimal digits); by default the data
    /// directory's secret.key, which then gets the new key (the old one is kept beside it).
    #[arg(long, env = "HARK_SECRET_KEY", hide_env_values = true)]
    secret_key: Option<String>,
    /// The new key (64 hexadecimal digits); a new random one when unset.
    #[arg(long, env = "HARK_NEW_SECRET_KEY", hide_env_values = true)]
    new_key: Option<String>,
}

#[derive(Subcommand)]
enum UserCommand {
    /// Create an account. The password is read from standard input (or prompted on a terminal).
    Add(UserAddArgs),
}

#[derive(Args)]
struct UserAddArgs {
    #[command(flatten)]
    db: DbArgs,
    #[arg(long)]
    email: String,
    #[arg(long, default_value = "")]
    name: String,
    /// Role: `admin` (instance administrator) or `user`.
    #[arg(long, default_value = "user", value_parser = ["admin", "user"])]
    role: String,
    /// Create a trial account (the plan catalogue's trial length; trial limits apply).
    #[arg(long, default_value_t = false)]
    trial: bool,
}

/// The key sealing uploaded secrets: the configured one, else the data directory's.
fn secret_key(args: &ServeArgs) -> anyhow::Result<hark_api::secrets::SecretKey> {
    if let Some(hex) = &args.secret_key {
        return hark_api::secrets::SecretKey::from_hex(hex).map_err(|e| anyhow::anyhow!("--secret-key: {e}"));
    }
    std::fs::create_dir_all(&args.db.data_dir)
        .with_context(|| format!("cannot create data directory {}", args.db.data_dir.display()))?;
    let path = args.db.data_dir.join("secret.key");
    hark_api::secrets::SecretKey::load_or_create(&path).with_context(|| format!("secret key file {}", path.display()))
}

impl DbArgs {
    fn url(&self) -> anyhow::Result<String> {
        if let Some(url) = &self.database_url {
            return Ok(url.clone());
        }
        std::fs::create_dir_all(&self.data_dir)
            .with_context(|| format!("cannot create data directory {}", self.data_dir.display()))?;
        Ok(format!("sqlite://{}", self.data_dir.join("hark.db").display()))
    }

    async fn store(&self) -> anyhow::Result<Store> {
        let url = self.url()?;
        let store = Store::connect(&url).await.with_context(|| format!("cannot open the database ({})", redact(&url)))?;
        store.migrate().await.context("cannot apply migrations")?;
        Ok(store)
    }
}

/// The SQLite file of `args` (backup and restore work on the embedded database only).
fn sqlite_file(args: &DbArgs, what: &str) -> anyhow::Result<PathBuf> {
    let url = args.url()?;
    if !url.starts_with("sqlite:") {
        bail!(
            "{what} works on the embedded SQLite database; for PostgreSQL ({}) use pg_dump and pg_restore (see docs/operations.md)",
            redact(&url)
        );
    }
    hark_store::backup::sqlite_path(&url).map_err(|e| anyhow::anyhow!("{e}"))
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

async fn backup(args: BackupArgs) -> anyhow::Result<()> {
    let db = sqlite_file(&args.db, "hark backup")?;
    let dest = args.file.clone();
    let started = std::time::Instant::now();
    let s = tokio::task::spawn_blocking(move || hark_store::backup::backup_sqlite(&db, &dest))
        .await?
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    println!(
        "Backed up {} trackers and {} posts to {} ({}, {:.1} s).",
        s.trackers,
        s.posts,
        args.file.display(),
        megabytes(s.bytes),
        started.elapsed().as_secs_f64()
    );
    println!("Keep the data directory's secret.key with your backups: the connector secrets in them are sealed with it.");
    Ok(())
}

async fn rekey(args: RekeyArgs) -> anyhow::Result<()> {
    use hark_api::secrets::SecretKey;
    let file = args.db.data_dir.join("secret.key");
    let old = match &args.secret_key {
        Some(hex) => SecretKey::from_hex(hex).map_err(|e| anyhow::anyhow!("--secret-key: {e}"))?,
        None => {
            let text = std::fs::read_to_string(&file).with_context(|| {
                format!("no current key: {} cannot be read (pass the key the secrets are sealed with as --secret-key)", file.display())
            })?;
            SecretKey::from_hex(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?
        }
    };
    let new = match &args.new_key {
        Some(hex) => SecretKey::from_hex(hex).map_err(|e| anyhow::anyhow!("--new-key: {e}"))?,
        None => SecretKey::random(),
    };
    if new.same_as(&old) {
        bail!("the new key is the key in use; give another one (or none, for a random one)");
    }
    // A server running on the embedded database would go on sealing with the old key.
    let url = args.db.url()?;
    let _lock = if url.starts_with("sqlite:") { Some(hold_sqlite(&hark_store::backup::sqlite_path(&url).map_err(|e| anyhow::anyhow!("{e}"))?, "rekey")?) } else { None };
    let store = args.db.store().await?.with_secret_key(std::sync::Arc::new(new.clone()));
    let done = store.reseal_secrets(&old).await.context("cannot seal the secrets again (run it again: what is done stays done)")?;
    println!(
        "Sealed {} secrets with the new key ({} already were; {} could be opened with neither key and read as unset).",
        done.resealed, done.already, done.unreadable
    );
    if args.secret_key.is_none() {
        let kept = args.db.data_dir.join(format!("secret.key.old-{}", hark_core::now_millis()));
        std::fs::rename(&file, &kept).with_context(|| format!("cannot move {} aside", file.display()))?;
        new.write_new(&file).with_context(|| format!("cannot write {}", file.display()))?;
        println!("{} holds the new key; the old one is in {} (delete it once you no longer need old backups).", file.display(), kept.display());
    } else {
        if args.new_key.is_none() {
            println!("The new key: {}", new.to_hex());
        }
        println!("Start every server with --secret-key (HARK_SECRET_KEY) set to the new key.");
    }
    Ok(())
}

/// Holds the SQLite database `db` as a server would, or says that a server is running on it.
fn hold_sqlite(db: &std::path::Path, verb: &str) -> anyhow::Result<hark_store::backup::ServeLock> {
    match hark_store::backup::ServeLock::try_take(db).map_err(|e| anyhow::anyhow!("{e}"))? {
        Some(lock) => Ok(lock),
        None => bail!("a Hark server is running on {}: stop it, then {verb}", db.display()),
    }
}

async fn restore(args: RestoreArgs) -> anyhow::Result<()> {
    let db = sqlite_file(&args.db, "hark restore")?;
    let _lock = hold_sqlite(&db, "restore")?;
    let from = args.file.clone();
    let target = db.clone();
    let stamp = hark_core::now_millis().to_string();
    let r = tokio::task::spawn_blocking(move || hark_store::backup::restore_sqlite(&from, &target, &stamp))
        .await?
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    // A backup from an older version is brought up to this one's schema.
    args.db.store().await?.close().await;
    println!("Restored {} trackers and {} posts from {} into {}.", r.summary.trackers, r.summary.posts, args.file.display(), db.display());
    if let Some(previous) = r.previous {
        println!("The database it replaced is kept as {}.", previous.display());
    }
    Ok(())
}

/// A database URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..s + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    // One server per SQLite database, and no restore under a running one.
    let url = args.db.url()?;
    let _lock = if url.starts_with("sqlite:") && !url.contains("memory") {
        let file = hark_store::backup::sqlite_path(&url).map_err(|e| anyhow::anyhow!("{e}"))?;
        match hark_store::backup::ServeLock::try_take(&file).map_err(|e| anyhow::anyhow!("{e}"))? {
            Some(lock) => Some(lock),
            None => bail!("another Hark server is running on {}", file.display()),
        }
    } else {
        None
    };
    // Connector secrets are sealed with the key: the collection scheduler's store opens them too.
    let key = secret_key(&args)?;
    let store = args.db.store().await?.with_secret_key(std::sync::Arc::new(key.clone()));
    let web_dir = if args.web_dir.join("index.html").is_file() {
        Some(args.web_dir.clone())
    } else {
        tracing::warn!(dir = %args.web_dir.display(), "web app not built; serving the API only (run `make web`)");
        None
    };
    let mail = args.smtp_url.as_ref().map(|url| hark_api::mail::MailConfig { smtp_url: url.clone(), from: args.mail_from.clone() });
    if let Some(m) = &mail {
        hark_api::mail::Mailer::new(m).map_err(|e| anyhow::anyhow!("--smtp-url / --mail-from: {e}"))?;
    }
    // A cluster's ingest log: connected before serving, so a wrong address stops the start.
    let ingest_log = match &args.nats_url {
        Some(url) => Some(std::sync::Arc::new(
            hark_ingest::log::IngestLog::connect(url, &args.nats_stream)
                .await
                .map_err(|e| anyhow::anyhow!("--nats-url: {e}"))?,
        )),
        None => None,
    };
    let config = ApiConfig {
        secure_cookies: args.secure_cookies,
        node: None,
        ingest_log: ingest_log.clone(),
        web_dir,
        mail,
        public_url: args.public_url.clone(),
        export_ttl: Some(std::time::Duration::from_secs(args.export_ttl_hours * 3600)),
        export_lease: Some(std::time::Duration::from_secs(args.export_lease_secs)),
        export_step_delay: args.export_step_delay_ms.map(std::time::Duration::from_millis),
        secret_key: Some(key),
        media_allow_private: false,
        webhooks_allow_private: args.webhooks_allow_private,
        alerts_interval: (args.alerts_interval_secs > 0).then(|| std::time::Duration::from_secs(args.alerts_interval_secs)),
        answer_cache_mb: Some(args.answer_cache_mb),
        rate_limits: Some(hark_api::limits::RateLimits {
            public: hark_api::limits::Rate::per_minute(args.public_rate_limit),
            ..Default::default()
        }),
        trusted_proxies: args.trusted_proxies.clone(),
    };
    let listener = tokio::net::TcpListener::bind(&args.bind)
        .await
        .with_context(|| format!("cannot listen on {}", args.bind))?;
    let addr = listener.local_addr()?;
    let config = ApiConfig { node: Some(addr.to_string()), ..config };
    let state = AppState::new(store.clone(), config);
    println!("Hark is serving on http://{addr}");
    tokio::spawn(hark_ingest::reanalysis::run_worker(store.clone(), std::time::Duration::from_secs(2)));
    // The pages' in-memory indexes are read once in the background (seconds at a million posts).
    let warm = store.clone();
    tokio::spawn(async move {
        if let Err(e) = warm.warm_page_indexes().await {
            tracing::warn!(error = %e, "page indexes not read ahead; the first visit reads them");
        }
    });
    // Idle (one settings read every few seconds) until an administrator switches a connector on.
    if let Some(log) = &ingest_log {
        tokio::spawn(hark_ingest::log::run_worker(store.clone(), log.clone()));
    }
    let collect = hark_collect::scheduler::SchedulerConfig {
        poll_interval: std::time::Duration::from_secs(args.collect_interval.max(10)),
        log: ingest_log.clone(),
        ..Default::default()
    };
    tokio::spawn(hark_collect::scheduler::Scheduler::new(store.clone(), collect).run(std::future::pending()));
    if !args.no_demo {
        // The first start writes a few weeks of sample posts; the server answers meanwhile. In a
        // cluster one server at a time feeds the demo tracker; another takes over when it stops.
        let demo_store = store.clone();
        tokio::spawn(async move {
            let mut announced = false;
            loop {
                match demo_store.take_singleton("demo-feed").await {
                    Ok(Some(mut held)) => match hark_ingest::demo_tracker::ensure_demo_tracker(&demo_store).await {
                        Ok(t) => {
                            if !announced {
                                announced = true;
                                println!(
                                    "Demo tracker (sample data): http://{addr}/hashtag-tracking/dashboard/{}/{}?demo=true",
                                    t.hash, t.friendly
                                );
                            }
                            let feed = hark_ingest::demo_tracker::run_demo_feed(demo_store.clone(), t.id, std::time::Duration::from_secs(5));
                            let lost = async {
                                while held.still_held().await {
                                    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
                                }
                            };
                            // The feed ends only when the demo tracker is gone.
                            tokio::select! { _ = feed => return, _ = lost => {} }
                        }
                        Err(e) => tracing::warn!(error = %e, "demo tracker unavailable"),
                    },
                    Ok(None) => {}
                    Err(e) => tracing::warn!(error = %e, "demo feed not started"),
                }
                tokio::time::sleep(std::time::Duration::from_secs(15)).await;
            }
        });
    }
    hark_api::serve(listener, state, shutdown_signal()).await?;
    store.close().await;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

fn read_password() -> anyhow::Result<String> {
    let stdin = std::io::stdin();
    let password = if stdin.is_terminal() {
        let p = rpassword::prompt_password("Password: ")?;
        let again = rpassword::prompt_password("Repeat password: ")?;
        if p != again {
            bail!("the passwords differ");
        }
        p
    } else {
        let mut s = String::new();
        stdin.lock().take(4096).read_to_string(&mut s)?;
        s.lines().next().unwrap_or("").to_string()
    };
    Ok(password)
}

async fn user_add(args: UserAddArgs) -> anyhow::Result<()> {
    let email = hark_api::auth::validate_email(&args.email).map_err(|e| anyhow::anyhow!("{e}"))?;
    let password = read_password()?;
    hark_api::auth::validate_password(&password).map_err(|e| anyhow::anyhow!("{e}"))?;
    let store = args.db.store().await?;
    let hash = hark_api::auth::hash_password(&password).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut user = hark_api::routes::session::self_hosted_user(email, hash, args.name.trim().to_string(), args.role == "admin");
    if args.trial {
        user.trial = true;
        user.plan = 0;
        user.max_ignored = hark_core::limits::DEFAULT_MAX_IGNORED;
        user.trial_expires = Some(hark_core::now_millis() + hark_core::plans::catalogue().trial_millis());
    }
    match store.create_user(&user, hark_core::now_millis()).await {
        Ok(u) => {
            println!("Created {} ({}), id {}", u.email, if u.is_admin { "admin" } else { "user" }, u.id);
            Ok(())
        }
        Err(hark_store::StoreError::Conflict(_)) => bail!("an account with the email {} already exists", user.email),
        Err(e) => Err(e.into()),
    }
}

fn import_format(args: &ImportArgs) -> &'static str {
    match args.format.as_deref() {
        Some("csv") => "csv",
        Some(_) => "ndjson",
        None => match args.file.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()).as_deref() {
            Some("csv") => "csv",
            _ => "ndjson",
        },
    }
}

/// A batch of an import file, read and prepared ([`import`]).
struct ReadBatch {
    errors: Vec<hark_ingest::import::LineError>,
    /// Valid posts read.
    read: usize,
    /// Those that match the tracker, enriched.
    records: Vec<hark_store::PostRecord>,
    /// Bytes and lines of the file read up to its end.
    bytes: u64,
    lines: usize,
}

/// The posts of an import file, in either format.
enum PostReader<R: std::io::BufRead> {
    Csv(hark_ingest::import::CsvReader<R>),
    Ndjson(hark_ingest::import::NdjsonReader<R>),
}

impl<R: std::io::BufRead> PostReader<R> {
    /// Lines (NDJSON) or records (CSV) read so far.
    fn lines(&self) -> usize {
        match self {
            Self::Csv(r) => r.lines(),
            Self::Ndjson(r) => r.lines(),
        }
    }
}

impl<R: std::io::BufRead> Iterator for PostReader<R> {
    type Item = Result<hark_core::Post, hark_ingest::import::LineError>;
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Self::Csv(r) => r.next(),
            Self::Ndjson(r) => r.next(),
        }
    }
}

async fn import(args: ImportArgs) -> anyhow::Result<()> {
    use hark_ingest::import::{take_batch, CsvMapping, CsvReader, NdjsonReader};
    use hark_ingest::pipeline::{compile, prepare, IgnoredAuthors, ImportSummary, BATCH};
    let format = import_format(&args);
    let mapping = match (&args.map, &args.platform) {
        (Some(m), _) => CsvMapping::parse_overrides(m).map_err(|e| anyhow::anyhow!("--map: {e}"))?,
        _ => CsvMapping::default(),
    };
    let mapping = match &args.platform {
        Some(p) => mapping.with_platform(hark_core::Platform::parse(p).map_err(|e| anyhow::anyhow!("--platform: {e}"))?),
        None => mapping,
    };
    let file = std::fs::File::open(&args.file).with_context(|| format!("cannot open {}", args.file.display()))?;
    // A regular file has a size to measure progress against; a pipe or device does not.
    let total = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    let store = args.db.store().await?;
    let tracker = store
        .tracker_by_hash(&args.tracker)
        .await?
        .with_context(|| format!("no tracker has the hash '{}'", args.tracker))?;
    let matcher = compile(&[(tracker.id, tracker.criteria.clone())])?;
    let ignored = IgnoredAuthors::load(&store).await?;
    let mut summary = ImportSummary::default();
    let now = hark_core::now_millis();
    let (file, read) = progress::Counting::new(file);
    let every = std::time::Duration::from_secs(args.progress_secs);
    let mut bar = progress::Progress::new(total, std::io::stderr().is_terminal(), every);
    // Both formats are read a batch at a time, so memory stays flat whatever the file's size.
    let mut posts = if format == "csv" {
        PostReader::Csv(CsvReader::new(std::io::BufReader::new(file), &mapping))
    } else {
        PostReader::Ndjson(NdjsonReader::new(std::io::BufReader::new(file)))
    };
    // The next batch is read, parsed, enriched and matched on a thread of its own while this one
    // is written. The channel holds nothing (a rendezvous): the reader hands over a batch only
    // when the writer takes it, so two batches at most are in memory.
    let (hand, take) = std::sync::mpsc::sync_channel::<ReadBatch>(0);
    let reader = std::thread::Builder::new()
        .name("hark-import-read".into())
        .spawn(move || {
            loop {
                let batch = take_batch(&mut posts, BATCH);
                if batch.posts.is_empty() && batch.errors.is_empty() {
                    break;
                }
                let mut records = prepare(&matcher, &batch.posts);
                ignored.apply(&mut records);
                let next = ReadBatch {
                    errors: batch.errors,
                    read: batch.posts.len(),
                    records,
                    bytes: read.load(std::sync::atomic::Ordering::Relaxed),
                    lines: posts.lines(),
                };
                drop(batch.posts);
                // The writer stopped (an error): nothing more to read.
                if hand.send(next).is_err() {
                    break;
                }
            }
            posts.lines()
        })
        .context("cannot start the import's reader")?;
    let take = std::sync::Arc::new(std::sync::Mutex::new(take));
    loop {
        let take = take.clone();
        let next = tokio::task::spawn_blocking(move || take.lock().ok()?.recv().ok()).await.ok().flatten();
        let Some(batch) = next else { break };
        for e in &batch.errors {
            bar.println(&e.to_string());
        }
        summary.add_errors(batch.errors);
        summary.add_matched(batch.read, batch.records.len());
        if !batch.records.is_empty() {
            summary.new_posts += store.ingest_batch(&batch.records, now).await?.new_posts;
        }
        bar.update(progress::Status {
            bytes: batch.bytes,
            lines: batch.lines as u64,
            imported: summary.imported,
            invalid: summary.invalid,
        });
    }
    summary.lines = reader.join().map_err(|_| anyhow::anyhow!("the import's reader stopped"))?;
    bar.finish();
    println!(
        "{} lines read: {} posts imported into '{}' ({} new), {} did not match its search, {} invalid",
        summary.lines, summary.imported, tracker.title, summary.new_posts, summary.unmatched, summary.invalid
    );
    Ok(())
}

fn analyze() -> anyhow::Result<()> {
    use std::io::{BufRead, Write};
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = line.context("reading standard input")?;
        // The struct itself, not a JSON value: its keys keep their documented order, and no map
        // is built per line.
        if let Some(a) = hark_ingest::analyze::analysis(&line) {
            serde_json::to_writer(&mut out, &a)?;
            out.write_all(b"\n")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The process's allocator. Under the load test's readers (250 connections on 2 cores) glibc's
/// malloc and free were about a seventh of the server's samples; mimalloc keeps per-thread free
/// lists.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("HARK_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn,tower_http=warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        if let Some(path) = &cli.plans_file {
            install_plans(path)?;
        }
        match cli.command {
            Command::Serve(a) => serve(a).await,
            Command::Migrate(a) => {
                a.store().await?;
                println!("Migrations applied.");
                Ok(())
            }
            Command::User { command: UserCommand::Add(a) } => user_add(a).await,
            Command::Import(a) => import(a).await,
            Command::Backup(a) => backup(a).await,
            Command::Restore(a) => restore(a).await,
            Command::Rekey(a) => rekey(a).await,
            Command::Analyze => analyze(),
            Command::Openapi => {
                println!("{}", hark_api::openapi_json());
                Ok(())
            }
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_passwords() {
        assert_eq!(redact("postgres://u:secret@h/db"), "postgres://u:***@h/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite://data/hark.db"), "sqlite://data/hark.db");
    }

    #[test]
    fn cli_parses() {
        Cli::command_for_test();
    }

    impl Cli {
        fn command_for_test() {
            use clap::CommandFactory;
            Cli::command().debug_assert();
        }
    }
}

/// A trusted proxy: an address (`127.0.0.1`, `::1`) or a network (`10.0.0.0/8`).
fn parse_proxy(s: &str) -> Result<ipnet::IpNet, String> {
    let s = s.trim();
    s.parse::<ipnet::IpNet>()
        .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("`{s}` is not an address or a network (e.g. 127.0.0.1 or 10.0.0.0/8)"))
}

//! Faults under load, on a PostgreSQL cluster of the test's own (initdb and pg_ctl from Debian's
//! postgresql package): posts are imported in batches without pause while PostgreSQL is restarted,
//! and while the server is killed with SIGKILL and started again. A client sends again each batch
//! whose answer it did not get (as the importer and the connectors do); afterwards the tracker holds
//! exactly the posts sent, each once, and its rollups equal a recount from the rows.

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hark_store::Store;
use hark_testkit::{csrf_of, send};
use serde_json::{json, Value};

/// A PostgreSQL cluster in a temporary directory, on a free port.
struct Postgres {
    bin: std::path::PathBuf,
    dir: tempfile::TempDir,
    port: u16,
}

impl Postgres {
    fn start() -> Option<Postgres> {
        let bin = std::fs::read_dir("/usr/lib/postgresql").ok()?.filter_map(|e| e.ok()).map(|e| e.path().join("bin")).filter(|p| p.join("initdb").exists()).max()?;
        let dir = tempfile::tempdir().ok()?;
        let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        let pg = Postgres { bin, dir, port };
        // initdb refuses to run as root: the postgres account does then.
        if is_root() {
            Command::new("chown").args(["-R", "postgres"]).arg(pg.dir.path()).status().ok()?;
        }
        let ok = pg.run("initdb", &["-D", &pg.data(), "-A", "trust", "-U", "postgres"]);
        if !ok {
            eprintln!("initdb failed: the fault tests need PostgreSQL's binaries; skipped");
            return None;
        }
        assert!(pg.ctl("start"), "pg_ctl start");
        Some(pg)
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn run(&self, tool: &str, args: &[&str]) -> bool {
        let path = self.bin.join(tool);
        let mut cmd = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        cmd.args(args).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
    }

    /// `pg_ctl start|restart|stop` on the cluster's port, waiting until done.
    fn ctl(&self, action: &str) -> bool {
        let opts = format!("-p {} -k {} -c listen_addresses=127.0.0.1", self.port, self.dir.path().display());
        let log = self.dir.path().join("log").display().to_string();
        self.run("pg_ctl", &["-D", &self.data(), "-o", &opts, "-l", &log, "-m", "fast", "-w", action])
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        self.ctl("stop");
    }
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

/// `hark serve` on the cluster.
fn serve(url: &str, data: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["serve", "--bind", "127.0.0.1:0", "--no-demo", "--web-dir", "/nonexistent", "--public-rate-limit", "1000000"])
        .arg("--data-dir")
        .arg(data)
        .env("HARK_DATABASE_URL", url)
        .env("HARK_LOG", "error")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hark serve");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut out, &mut first).unwrap();
    let base = first.trim().rsplit(' ').next().unwrap_or_default().to_string();
    assert!(base.starts_with("http://"), "{first}");
    std::thread::spawn(move || for _ in std::io::BufRead::lines(out) {});
    (child, base)
}

/// Batch `b` of the load: 50 posts with ids of their own.
fn batch(b: usize, now: i64) -> String {
    (0..50)
        .map(|k| {
            let id = b * 50 + k;
            json!({"platform": "twitter", "id": id.to_string(), "text": format!("espresso under load {id}"),
                   "createdAt": now - (id as i64 % 500) * 60_000, "author": {"username": format!("u{}", id % 37), "name": "U"},
                   "counts": {"likes": id % 4}})
            .to_string()
                + "\n"
        })
        .collect()
}

/// Sends batches in turn to the base `base` holds until `stop`; returns the batches not answered 200.
async fn importer(base: Arc<Mutex<String>>, client: reqwest::Client, token: Arc<Mutex<String>>, hash: String, next: Arc<Mutex<usize>>, stop: Arc<AtomicBool>, now: i64) -> Vec<usize> {
    let mut failed = Vec::new();
    while !stop.load(Ordering::SeqCst) {
        let b = {
            let mut n = next.lock().unwrap();
            *n += 1;
            *n - 1
        };
        let url = format!("{}/api/v1/trackers/{hash}/import?format=ndjson", base.lock().unwrap());
        let t = token.lock().unwrap().clone();
        let r = client.post(url).header("X-CSRF-Token", t).body(batch(b, now)).timeout(Duration::from_secs(20)).send().await;
        match r {
            Ok(r) if r.status().as_u16() == 200 => {}
            _ => {
                failed.push(b);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    failed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posts_imported_through_a_database_restart_and_a_server_kill_are_all_stored_once() {
    let Some(pg) = Postgres::start() else { return };
    let data = tempfile::tempdir().unwrap();
    let (mut server, first_base) = serve(&pg.url(), data.path());
    let jar = Arc::new(reqwest::cookie::Jar::default());
    let client = reqwest::Client::builder().cookie_provider(jar.clone()).build().unwrap();
    let token = csrf_of(&client, &jar, &first_base).await;
    let r = send(client.post(format!("{first_base}/api/v1/setup")).header("X-CSRF-Token", &token).json(&json!({"email": "f@example.org", "password": "password123", "name": "F"}))).await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    let token = csrf_of(&client, &jar, &first_base).await;
    let r = send(
        client
            .post(format!("{first_base}/api/v1/trackers"))
            .header("X-CSRF-Token", &token)
            .json(&json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["espresso"]}]}})),
    )
    .await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    let hash = r.body["hash"].as_str().unwrap().to_string();

    let base = Arc::new(Mutex::new(first_base.clone()));
    let token = Arc::new(Mutex::new(token));
    let next = Arc::new(Mutex::new(0usize));
    let stop = Arc::new(AtomicBool::new(false));
    let now = hark_core::now_millis();
    let load = tokio::spawn(importer(base.clone(), client.clone(), token.clone(), hash.clone(), next.clone(), stop.clone(), now));

    // PostgreSQL restarts (a fast shutdown: connections cut, transactions in flight rolled back).
    tokio::time::sleep(Duration::from_secs(2)).await;
    let pg_ref = &pg;
    assert!(tokio::task::block_in_place(|| pg_ref.ctl("restart")), "pg_ctl restart");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let before_kill = *next.lock().unwrap();
    assert!(before_kill > 20, "the load went on: {before_kill} batches");

    // The server dies mid-import and starts again (a new address; the browser session stays).
    server.kill().unwrap();
    server.wait().unwrap();
    let (mut again, new_base) = serve(&pg.url(), data.path());
    *base.lock().unwrap() = new_base.clone();
    tokio::time::sleep(Duration::from_secs(3)).await;
    stop.store(true, Ordering::SeqCst);
    let failed = load.await.unwrap();
    let sent = *next.lock().unwrap();
    assert!(!failed.is_empty(), "some batches failed during the faults");
    assert!(failed.len() < sent, "{} of {sent} failed", failed.len());

    // The batches whose answer was lost are sent again: stored once whether they were or not.
    let t = token.lock().unwrap().clone();
    for b in &failed {
        let r = send(client.post(format!("{new_base}/api/v1/trackers/{hash}/import?format=ndjson")).header("X-CSRF-Token", &t).body(batch(*b, now))).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
    }
    let h = send(client.get(format!("{new_base}/healthz"))).await;
    assert_eq!((h.status, h.body["status"].clone()), (200, Value::from("ok")), "{:?}", h.body);

    let store = Store::connect(&pg.url()).await.unwrap();
    let id = store.tracker_by_hash(&hash).await.unwrap().unwrap().id;
    let expected = sent as i64 * 50;
    assert_eq!(store.count_links(id).await.unwrap(), expected, "every post sent, once");
    let (rollups, links) = store.sentiment_counts_both_ways(id).await.unwrap();
    assert_eq!(rollups, links, "the rollups agree with the rows");
    assert_eq!(links.values().sum::<i64>(), expected);
    assert_eq!(store.rollup_totals(id).await.unwrap().0, expected);
    eprintln!("{sent} batches of 50 posts; {} sent again after the PostgreSQL restart and the server kill", failed.len());
    store.close().await;
    let _ = again.kill();
    let _ = again.wait();
    let started = Instant::now();
    drop(pg);
    assert!(started.elapsed() < Duration::from_secs(30));
}

//! `hark backup` and `hark restore` on the embedded SQLite database: a backup taken while
//! `hark import` writes is one consistent instant holding every post committed before it began;
//! a restore on a new machine finds every tracker and those posts, with rollups that agree with
//! the rows; a restore under a running server is refused, and a restore over a database keeps
//! the one it replaces. PostgreSQL is pointed to its own tools.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use hark_store::Backend;
use hark_testkit::TestDb;

fn hark(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hark")).args(args).env("HARK_LOG", "error").output().expect("run hark")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[tokio::test]
async fn a_backup_taken_mid_import_restores_whole() {
    let db = TestDb::new(Backend::Sqlite).await;
    let (store, tracker) = super::coffee_tracker(&db).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("posts.ndjson");
    let mut lines = String::new();
    let moods = ["I love this coffee", "this coffee is awful", "coffee at nine", "great coffee, thanks!"];
    for i in 0..60_000i64 {
        lines.push_str(&format!(
            "{{\"platform\":\"twitter\",\"id\":\"p{i}\",\"text\":\"{} #{}\",\"createdAt\":{},\"author\":{{\"username\":\"u{}\"}}}}\n",
            moods[i as usize % moods.len()],
            i % 50,
            1_717_236_000_000i64 + i * 30_000,
            i % 700
        ));
    }
    std::fs::write(&file, lines).unwrap();

    let mut import = Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["import", "--database-url", &db.url, "--tracker", &tracker.hash])
        .arg(&file)
        .env("HARK_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hark import");
    // Some batches in, the import still going.
    let deadline = Instant::now() + Duration::from_secs(120);
    let before = loop {
        let n = store.rollup_totals(tracker.id).await.unwrap().0;
        if n >= 2_000 {
            break n;
        }
        assert!(import.try_wait().unwrap().is_none(), "the import ended before the backup could start");
        assert!(Instant::now() < deadline, "the import wrote nothing in two minutes");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let backup = dir.path().join("hark-backup.db");
    let out = hark(&["backup", "--database-url", &db.url, backup.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let still_importing = import.try_wait().unwrap().is_none();
    assert!(import.wait().unwrap().success());
    let after = store.rollup_totals(tracker.id).await.unwrap().0;
    assert_eq!(after, 60_000);
    assert!(still_importing, "the backup should overlap the import (make the file larger if imports got this fast)");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Backed up 1 trackers and "), "{stdout}");
    assert!(stdout.contains("secret.key"), "{stdout}");

    // A second backup to the same file is refused, and the first is kept.
    let again = hark(&["backup", "--database-url", &db.url, backup.to_str().unwrap()]);
    assert!(!again.status.success());
    assert!(text(&again.stderr).contains("already exists"), "{}", text(&again.stderr));

    // A new machine: restore into an empty data directory.
    let fresh = tempfile::tempdir().unwrap();
    let data = fresh.path().to_str().unwrap();
    let out = hark(&["restore", "--data-dir", data, backup.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Restored 1 trackers and "), "{}", text(&out.stdout));
    let restored = hark_store::Store::connect(&format!("sqlite://{}", fresh.path().join("hark.db").display())).await.unwrap();
    let t = restored.tracker_by_hash(&tracker.hash).await.unwrap().expect("the tracker is restored");
    assert_eq!(t.title, "Coffee");
    let (n, _) = restored.rollup_totals(t.id).await.unwrap();
    assert!(n >= before && n <= after, "{before} <= {n} <= {after}");
    let (rollups, links) = restored.sentiment_counts_both_ways(t.id).await.unwrap();
    assert_eq!(rollups, links, "the rollups agree with the rows at the backup's instant");
    assert_eq!(links.values().sum::<i64>(), n);
    restored.close().await;

    // Not under a running server.
    let mut server = Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["serve", "--data-dir", data, "--bind", "127.0.0.1:0", "--no-demo", "--web-dir", "/nonexistent"])
        .env("HARK_LOG", "error")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hark serve");
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.contains("serving"), "{first}");
    let refused = hark(&["restore", "--data-dir", data, backup.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("a Hark server is running"), "{}", text(&refused.stderr));
    let second = hark(&["serve", "--data-dir", data, "--bind", "127.0.0.1:0", "--no-demo"]);
    assert!(!second.status.success());
    assert!(text(&second.stderr).contains("another Hark server is running"), "{}", text(&second.stderr));
    server.kill().unwrap();
    server.wait().unwrap();

    // Over an existing database, which is kept beside it.
    let out = hark(&["restore", "--data-dir", data, backup.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("The database it replaced is kept as "), "{}", text(&out.stdout));
    let kept: Vec<String> = std::fs::read_dir(fresh.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("hark.db.before-restore-") && !name.ends_with("-wal") && !name.ends_with("-shm"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");

    // What is not a backup is refused, and the database stays as it was.
    let junk = dir.path().join("notes.txt");
    std::fs::write(&junk, "shopping list: coffee, milk, bread, and some more words").unwrap();
    let out = hark(&["restore", "--data-dir", data, junk.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("is not a Hark backup"), "{}", text(&out.stderr));
    let out = hark(&["backup", "--data-dir", data, dir.path().join("check.db").to_str().unwrap()]);
    assert!(out.status.success() && text(&out.stdout).contains(&format!("and {n} posts")), "{}", text(&out.stdout));

    // PostgreSQL has its own tools.
    let out = hark(&["backup", "--database-url", "postgres://postgres@127.0.0.1:1/none", dir.path().join("pg.db").to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("pg_dump"), "{}", text(&out.stderr));
}

#[test]
fn rekey_replaces_the_data_directorys_key_and_refuses_bad_keys() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    // No key yet: nothing to rotate.
    let out = hark(&["rekey", "--data-dir", data]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("secret.key"), "{}", text(&out.stderr));
    let old = "11".repeat(32);
    std::fs::write(dir.path().join("secret.key"), format!("{old}\n")).unwrap();
    let out = hark(&["rekey", "--data-dir", data, "--new-key", &old]);
    assert!(!out.status.success(), "the same key again is refused");
    assert!(text(&out.stderr).contains("the key in use"), "{}", text(&out.stderr));
    let out = hark(&["rekey", "--data-dir", data, "--new-key", "xyz"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("64 hexadecimal digits"), "{}", text(&out.stderr));

    let out = hark(&["rekey", "--data-dir", data]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Sealed 0 secrets"), "{}", text(&out.stdout));
    let new = std::fs::read_to_string(dir.path().join("secret.key")).unwrap();
    assert_eq!(new.trim().len(), 64);
    assert_ne!(new.trim(), old);
    let kept: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("secret.key.old-"))
        .collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(std::fs::read_to_string(kept[0].path()).unwrap().trim(), old);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("secret.key")).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "the key file is its owner's only");
    }
}

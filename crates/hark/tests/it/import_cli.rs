//! `hark import` from the command line, on SQLite and PostgreSQL: CSV and NDJSON are read a batch
//! at a time, bad lines are reported with their number, and progress written to a log is plain
//! lines (share of the file, rate), never carriage returns.

use std::process::Command;

use hark_testkit::{backends, TestDb};

fn import(db: &TestDb, hash: &str, file: &std::path::Path) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hark"))
        .args(["import", "--database-url", &db.url, "--tracker", hash])
        .arg(file)
        .env("HARK_LOG", "error")
        // A line at every batch, so this small file gets one.
        .env("HARK_PROGRESS_SECS", "0")
        .output()
        .expect("run hark");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[tokio::test]
async fn import_reports_bad_lines_and_plain_progress() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let (_, tracker) = super::coffee_tracker(&db).await;
        let dir = tempfile::tempdir().unwrap();

        let csv = dir.path().join("posts.csv");
        std::fs::write(
            &csv,
            "platform,id,text,created_at,author_username\n\
             twt,1,I love coffee,2024-06-01 10:00:00,ann\n\
             twt,2,Tea is fine,2024-06-01 11:00:00,bob\n\
             twt,3,More coffee please,,cy\n\
             twt,4,Coffee at noon,2024-06-01 12:00:00,dee\n",
        )
        .unwrap();
        let (ok, stdout, stderr) = import(&db, &tracker.hash, &csv);
        assert!(ok, "{stderr}");
        assert!(stdout.contains("4 lines read: 2 posts imported into 'Coffee' (2 new), 1 did not match its search, 1 invalid"), "{stdout}");
        assert!(stderr.contains("line 4: missing date"), "{stderr}");
        assert!(stderr.contains("import: 100% of 0.0 MB, 4 lines, 2 posts imported, 1 invalid, "), "{stderr}");
        assert!(!stderr.contains('\r'), "no carriage returns in a log: {stderr:?}");

        let ndjson = dir.path().join("posts.ndjson");
        let mut lines = String::new();
        for i in 0..300 {
            lines.push_str(&format!(
                "{{\"platform\":\"twitter\",\"id\":\"n{i}\",\"text\":\"coffee number {i}\",\"createdAt\":{},\"author\":{{\"username\":\"u{i}\"}}}}\n",
                1_717_236_000_000i64 + i * 60_000
            ));
        }
        lines.push_str("{not json\n");
        std::fs::write(&ndjson, &lines).unwrap();
        let (ok, stdout, stderr) = import(&db, &tracker.hash, &ndjson);
        assert!(ok, "{stderr}");
        assert!(stdout.contains("301 lines read: 300 posts imported into 'Coffee' (300 new), 0 did not match its search, 1 invalid"), "{stdout}");
        assert!(stderr.contains("line 301: "), "{stderr}");
        assert!(stderr.contains("import: 100% of 0.0 MB, 301 lines, 300 posts imported, 1 invalid, "), "{stderr}");
        assert!(!stderr.contains('\r'), "{stderr:?}");

        // A file that is not there: a message and a failing exit, nothing written.
        let (ok, _, stderr) = import(&db, &tracker.hash, &dir.path().join("missing.csv"));
        assert!(!ok);
        assert!(stderr.contains("cannot open"), "{stderr}");
    }
}

/// A file of more than one batch (25,000 posts): the next batch is read while one is written, and
/// every batch is written once, in order, with a progress line each.
#[tokio::test]
async fn import_of_several_batches_writes_each_once() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let (store, tracker) = super::coffee_tracker(&db).await;
        let dir = tempfile::tempdir().unwrap();
        let ndjson = dir.path().join("posts.ndjson");
        let mut lines = String::new();
        let n = 25_010;
        for i in 0..n {
            // Every tenth post does not match; line 25,005 is not JSON.
            let text = if i % 10 == 9 { "tea" } else { "coffee" };
            if i == 25_004 {
                lines.push_str("{not json\n");
                continue;
            }
            lines.push_str(&format!(
                "{{\"platform\":\"twitter\",\"id\":\"m{i}\",\"text\":\"{text} {i}\",\"createdAt\":{},\"author\":{{\"username\":\"u{}\"}}}}\n",
                1_717_236_000_000i64 + i * 1_000,
                i % 50
            ));
        }
        std::fs::write(&ndjson, &lines).unwrap();
        let (ok, stdout, stderr) = import(&db, &tracker.hash, &ndjson);
        assert!(ok, "{stderr}");
        // 25,009 valid posts, of which 2,501 say "tea".
        assert!(stdout.contains("25010 lines read: 22508 posts imported into 'Coffee' (22508 new), 2501 did not match its search, 1 invalid"), "{stdout}");
        assert!(stderr.contains("line 25005: "), "{stderr}");
        let progress: Vec<&str> = stderr.lines().filter(|l| l.starts_with("import: ")).collect();
        assert_eq!(progress.len(), 2, "a line a batch: {stderr}");
        assert!(progress[0].contains("25,000 lines, 22,500 posts imported, "), "{stderr}");
        assert!(progress[1].contains("100% of ") && progress[1].contains("25,010 lines, 22,508 posts imported, 1 invalid, "), "{stderr}");
        let t = store.tracker_by_hash(&tracker.hash).await.unwrap().unwrap();
        assert_eq!(t.total_posts, 22_508);
    }
}

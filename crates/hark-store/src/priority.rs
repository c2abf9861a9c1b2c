//! Writes before reads on one SQLite file: the readers' threads may run at a lower CPU priority.
//!
//! A SQLite file has one writer, on a thread of its own ([`crate::WriteGate`]); every read runs on
//! one of the readers' threads. Under a crowd of readers that never pause (the load test's 250
//! looping viewers), the kernel shares the two cores among all runnable threads alike, and the
//! writer waited for a core about a third of the time it had work. `HARK_SQLITE_READER_NICE=N`
//! (1 to 19) lowers the readers' threads to nice N: while the writer has work it runs first, and
//! the readers take every cycle it leaves. Reads are never starved (a lower priority is a smaller
//! share, not a wait), and with no writes they run as fast as before. Lowering a thread's own
//! priority needs no privilege. Linux only; elsewhere nothing changes.
//!
//! Off by default: it is a trade an operator chooses. Under the load test at 5,000 posts/s, nice
//! 10 kept the feeder on schedule and cut the import lag's p95 over the last third from 1.9-2.2 s
//! to 1.1-1.4 s, while the dashboards served about half as many requests (p95 390-440 ms against
//! 200-230). On a server where collection must never fall behind, turn it on; where people
//! reading the pages come first, leave it off. (It also competes with every other process of the
//! same session, such as a test suite's browser, at that lower priority.) The WAL's background
//! checkpoints run on a reader's connection and are lowered with it: under such a crowd the log
//! may grow further between them (docs/operations.md, "Disk").

/// The readers' nice value unless configured: 0, normal.
pub(crate) const READER_NICE: i32 = 0;

/// The prefix of the readers' SQLite thread names (a Linux thread name holds 15 bytes).
pub(crate) const READER_THREAD: &str = "hark-read-";

/// The readers' nice value in force: `HARK_SQLITE_READER_NICE` when it is 0 to 19.
pub(crate) fn reader_nice() -> i32 {
    static NICE: std::sync::OnceLock<i32> = std::sync::OnceLock::new();
    *NICE.get_or_init(|| {
        let Ok(v) = std::env::var("HARK_SQLITE_READER_NICE") else { return READER_NICE };
        match v.trim().parse::<i32>() {
            Ok(n) if (0..=19).contains(&n) => n,
            _ => {
                tracing::warn!("HARK_SQLITE_READER_NICE must be a number from 0 to 19 (got '{v}'); the readers keep their priority");
                READER_NICE
            }
        }
    })
}

/// Lowers every thread of this process whose name starts with [`READER_THREAD`] to `nice` (a
/// thread already there is left alone). Returns how many threads were lowered; a failure (no
/// `/proc`, a thread that ended meanwhile) lowers what it can.
#[cfg(target_os = "linux")]
pub(crate) fn lower_readers(nice: i32) -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0 };
    let mut lowered = 0;
    for task in tasks.flatten() {
        let Some(tid) = task.file_name().to_str().and_then(|s| s.parse::<libc::id_t>().ok()) else { continue };
        let Ok(name) = std::fs::read_to_string(task.path().join("comm")) else { continue };
        if !name.starts_with(READER_THREAD) {
            continue;
        }
        // SAFETY: getpriority and setpriority take plain integers and touch no memory of ours.
        // getpriority may return -1 as a value, which is fine here: it is then not `nice`.
        unsafe {
            if libc::getpriority(libc::PRIO_PROCESS, tid) != nice && libc::setpriority(libc::PRIO_PROCESS, tid, nice) == 0 {
                lowered += 1;
            }
        }
    }
    lowered
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn lower_readers(_nice: i32) -> usize {
    0
}

/// The nice value of the calling thread (tests).
#[cfg(all(test, target_os = "linux"))]
fn own_nice() -> i32 {
    // SAFETY: as above.
    unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn lowers_only_the_readers_threads() {
        let base = own_nice();
        if base > 16 {
            return; // already run at the lowest priorities: nothing to lower to
        }
        let target = base + 3;
        let reader = std::thread::Builder::new()
            .name(format!("{READER_THREAD}t"))
            .spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(300));
                own_nice()
            })
            .unwrap();
        let other = std::thread::Builder::new()
            .name("hark-write-t".into())
            .spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(300));
                own_nice()
            })
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(lower_readers(target) >= 1);
        assert_eq!(reader.join().unwrap(), target);
        assert_eq!(other.join().unwrap(), base);
    }

    /// `connect` names a SQLite file's readers' threads and lowers them to the nice value asked
    /// for; the writer's thread keeps the process's priority.
    #[tokio::test]
    async fn a_file_store_lowers_its_readers_when_asked() {
        let base = own_nice();
        if base > 16 {
            return;
        }
        let target = base + 3;
        // Read once per process (each test runs in a process of its own).
        std::env::set_var("HARK_SQLITE_READER_NICE", target.to_string());
        let dir = tempfile::tempdir().expect("dir");
        let store = crate::Store::connect(&format!("sqlite://{}", dir.path().join("t.db").display())).await.expect("connect");
        store.migrate().await.expect("migrate");
        store.ping().await.expect("ping");
        let _turn = store.write_turn().await;
        crate::with_write_pool!(store, |p| { sqlx::query("SELECT 1").execute(p).await.expect("write connection"); });
        let (mut readers, mut writers) = (0, 0);
        for task in std::fs::read_dir("/proc/self/task").expect("tasks").flatten() {
            let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            let tid: libc::id_t = task.file_name().to_str().and_then(|s| s.parse().ok()).expect("tid");
            // SAFETY: as above.
            let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, tid) };
            if name.starts_with(READER_THREAD) {
                assert_eq!(nice, target, "reader thread {name}");
                readers += 1;
            } else if name.starts_with("hark-write-") {
                assert_eq!(nice, base, "writer thread {name}");
                writers += 1;
            }
        }
        assert!(readers >= 1, "no readers' thread found");
        assert_eq!(writers, 1, "the write connection's thread");
        drop(_turn);
        store.close().await;
    }
}

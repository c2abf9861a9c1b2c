//! Progress of a long import on standard error. On a terminal: a live bar with the share of the
//! file read, the rate and the time left. Otherwise (a log, a pipe, a service manager): one plain
//! line every few seconds, and never a carriage return.

use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hark_core::notify::thousands;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A reader that counts the bytes read through it (the share of the file imported).
pub struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Counting<R> {
    pub fn new(inner: R) -> (Self, Arc<AtomicU64>) {
        let read = Arc::new(AtomicU64::new(0));
        (Self { inner, read: read.clone() }, read)
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Where an import stands.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Status {
    /// Bytes of the file read.
    pub bytes: u64,
    /// Lines (NDJSON) or records (CSV) read.
    pub lines: u64,
    pub imported: u64,
    pub invalid: u64,
}

/// The bar of a file, and the spinner of a stream without a size.
const BAR: &str = "[{elapsed_precise}] {wide_bar} {percent:>3}% · {msg} · ETA {eta}";
const SPINNER: &str = "{spinner} [{elapsed_precise}] {bytes} read · {msg}";

enum Mode {
    Bar(ProgressBar),
    Lines { every: Duration, last: Instant },
}

pub struct Progress {
    mode: Mode,
    started: Instant,
    /// The file's size, when it has one (not a pipe).
    total: Option<u64>,
}

impl Progress {
    /// A bar when standard error is a terminal, plain lines every `every` otherwise.
    pub fn new(total: Option<u64>, terminal: bool, every: Duration) -> Self {
        let started = Instant::now();
        let mode = if terminal {
            let bar = match total {
                Some(len) => {
                    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
                    if let Ok(style) = ProgressStyle::with_template(BAR) {
                        bar.set_style(style.progress_chars("=> "));
                    }
                    bar
                }
                None => {
                    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                    if let Ok(style) = ProgressStyle::with_template(SPINNER) {
                        bar.set_style(style);
                    }
                    bar
                }
            };
            bar.set_message(short(Duration::ZERO, Status::default()));
            bar.enable_steady_tick(Duration::from_millis(200));
            Mode::Bar(bar)
        } else {
            Mode::Lines { every, last: started }
        };
        Self { mode, started, total }
    }

    /// Reports `status`: the bar moves at once; a plain line is printed when `every` has passed
    /// since the last one.
    pub fn update(&mut self, status: Status) {
        self.update_at(Instant::now(), status);
    }

    fn update_at(&mut self, now: Instant, status: Status) {
        let elapsed = now.saturating_duration_since(self.started);
        match &mut self.mode {
            Mode::Bar(bar) => {
                bar.set_position(status.bytes);
                bar.set_message(short(elapsed, status));
            }
            Mode::Lines { every, last } => {
                if now.saturating_duration_since(*last) >= *every {
                    *last = now;
                    eprintln!("{}", plain_line(elapsed, self.total, status));
                }
            }
        }
    }

    /// Prints a line (a bad input line) without breaking the bar.
    pub fn println(&self, line: &str) {
        match &self.mode {
            Mode::Bar(bar) => bar.suspend(|| eprintln!("{line}")),
            Mode::Lines { .. } => eprintln!("{line}"),
        }
    }

    /// Clears the bar; the command prints its summary after this.
    pub fn finish(&self) {
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
        }
    }
}

/// The bar's part: "11,950 posts · 8,000/s" (and the invalid lines when any), short enough
/// to leave the bar room on an 80-column terminal.
fn short(elapsed: Duration, s: Status) -> String {
    let mut out = format!("{} posts · {}/s", thousands(s.imported), thousands(rate(elapsed, s.imported)));
    if s.invalid > 0 {
        out.push_str(&format!(" · {} invalid", thousands(s.invalid)));
    }
    out
}

fn rate(elapsed: Duration, n: u64) -> u64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        (n as f64 / secs).round() as u64
    } else {
        0
    }
}

/// "12,000 lines, 11,950 posts imported, 8,000 posts/s" (and the invalid ones when any).
fn counts(elapsed: Duration, s: Status) -> String {
    let mut out = format!("{} lines, {} posts imported", thousands(s.lines), thousands(s.imported));
    if s.invalid > 0 {
        out.push_str(&format!(", {} invalid", thousands(s.invalid)));
    }
    out.push_str(&format!(", {} posts/s", thousands(rate(elapsed, s.imported))));
    out
}

/// A progress line for logs: "import: 42% of 210.0 MB, 120,000 lines, 119,500 posts imported,
/// 40,100 posts/s, about 4m 10s left".
pub fn plain_line(elapsed: Duration, total: Option<u64>, s: Status) -> String {
    let mut out = String::from("import: ");
    match total {
        Some(t) if t > 0 => {
            let done = s.bytes.min(t);
            out.push_str(&format!("{}% of {}, ", done * 100 / t, megabytes(t)));
        }
        _ => out.push_str(&format!("{} read, ", megabytes(s.bytes))),
    }
    out.push_str(&counts(elapsed, s));
    if let Some(t) = total {
        let secs = elapsed.as_secs_f64();
        if s.bytes > 0 && s.bytes < t && secs > 0.0 {
            let left = (t - s.bytes) as f64 * secs / s.bytes as f64;
            out.push_str(&format!(", about {} left", duration(left)));
        }
    }
    out
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// "45s", "4m 10s", "2h 05m".
fn duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(bytes: u64, lines: u64, imported: u64, invalid: u64) -> Status {
        Status { bytes, lines, imported, invalid }
    }

    #[test]
    fn a_plain_line_gives_the_share_the_rate_and_the_time_left() {
        let line = plain_line(Duration::from_secs(10), Some(200_000_000), status(50_000_000, 120_000, 119_500, 500));
        assert_eq!(line, "import: 25% of 200.0 MB, 120,000 lines, 119,500 posts imported, 500 invalid, 11,950 posts/s, about 30s left");
        let line = plain_line(Duration::from_secs(100), Some(4_000_000_000), status(40_000_000, 1, 1_000_000, 0));
        assert!(line.ends_with("10,000 posts/s, about 2h 45m left"), "{line}");
        // A pipe has no size: what was read, and no time left.
        let line = plain_line(Duration::from_secs(2), None, status(3_500_000, 10, 10, 0));
        assert_eq!(line, "import: 3.5 MB read, 10 lines, 10 posts imported, 5 posts/s");
        // Done, or at the very start: no time left and no division by zero.
        assert!(!plain_line(Duration::ZERO, Some(10), status(0, 0, 0, 0)).contains("left"));
        assert!(!plain_line(Duration::from_secs(1), Some(10), status(10, 1, 1, 0)).contains("left"));
        assert!(!plain_line(Duration::from_secs(1), Some(0), status(0, 0, 0, 0)).contains('\r'));
    }

    #[test]
    fn plain_lines_come_every_interval_not_every_batch() {
        let mut p = Progress::new(Some(100), false, Duration::from_secs(5));
        let start = p.started;
        let Mode::Lines { last, .. } = &p.mode else { panic!("not a terminal: plain lines") };
        assert_eq!(*last, start);
        p.update_at(start + Duration::from_secs(1), status(10, 1, 1, 0));
        let Mode::Lines { last, .. } = &p.mode else { unreachable!() };
        assert_eq!(*last, start, "no line before the interval");
        p.update_at(start + Duration::from_secs(6), status(50, 5, 5, 0));
        let Mode::Lines { last, .. } = &p.mode else { unreachable!() };
        assert_eq!(*last, start + Duration::from_secs(6), "a line once it passed");
    }

    #[test]
    fn the_bar_templates_parse() {
        // Progress::new drops a style it cannot parse; make sure it never has to.
        for t in [BAR, SPINNER] {
            assert!(ProgressStyle::with_template(t).is_ok(), "{t}");
        }
    }

    #[test]
    fn counting_reader_counts() {
        let (mut r, read) = Counting::new(&b"hello world"[..]);
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(read.load(Ordering::Relaxed), 11);
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(0), "0");
        assert_eq!(duration(3599.4), "59m 59s");
        assert_eq!(short(Duration::from_secs(2), status(9, 9, 1_000, 0)), "1,000 posts · 500/s");
        assert_eq!(short(Duration::ZERO, status(0, 3, 0, 3)), "0 posts · 0/s · 3 invalid");
    }
}

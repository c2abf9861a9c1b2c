//! A local SMTP server for tests: it speaks the protocol (the `mailin` session) on 127.0.0.1,
//! accepts every message and keeps it for the test to read.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A message as delivered: envelope sender and recipients, and the raw data (headers and body).
#[derive(Debug, Clone)]
pub struct Mail {
    pub from: String,
    pub to: Vec<String>,
    pub data: String,
}

#[derive(Clone, Default)]
struct Sink {
    inbox: Arc<Mutex<Vec<Mail>>>,
    current: Option<Mail>,
    /// Refuse each message with a temporary failure (451) instead of keeping it.
    failing: Arc<std::sync::atomic::AtomicBool>,
}

impl mailin::Handler for Sink {
    fn data_start(&mut self, _domain: &str, from: &str, _is8bit: bool, to: &[String]) -> mailin::Response {
        self.current = Some(Mail { from: from.to_string(), to: to.to_vec(), data: String::new() });
        mailin::response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        if let Some(m) = &mut self.current {
            m.data.push_str(&String::from_utf8_lossy(buf));
        }
        Ok(())
    }

    fn rcpt(&mut self, _to: &str) -> mailin::Response {
        if self.failing.load(std::sync::atomic::Ordering::SeqCst) {
            return mailin::response::INTERNAL_ERROR;
        }
        mailin::response::OK
    }

    fn data_end(&mut self) -> mailin::Response {
        if let Some(m) = self.current.take() {
            self.inbox.lock().expect("inbox").push(m);
        }
        mailin::response::OK
    }
}

/// The server; it stops with the test process.
pub struct SmtpServer {
    /// `smtp://127.0.0.1:{port}` (no TLS).
    pub url: String,
    inbox: Arc<Mutex<Vec<Mail>>>,
    failing: Arc<std::sync::atomic::AtomicBool>,
}

fn session(stream: TcpStream, sink: Sink) -> std::io::Result<()> {
    let ip = stream.peer_addr()?.ip();
    let mut session = mailin::SessionBuilder::new("hark-test-smtp").build(ip, sink);
    let mut out = stream.try_clone()?;
    let mut lines = BufReader::new(stream);
    session.greeting().write_to(&mut out)?;
    let mut line = Vec::new();
    loop {
        line.clear();
        if lines.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let reply = session.process(&line);
        match reply.action {
            mailin::Action::NoReply => {}
            mailin::Action::Close => {
                reply.write_to(&mut out)?;
                return out.flush();
            }
            _ => reply.write_to(&mut out)?,
        }
        out.flush()?;
    }
}

impl SmtpServer {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind smtp");
        let url = format!("smtp://{}", listener.local_addr().expect("addr"));
        let inbox: Arc<Mutex<Vec<Mail>>> = Arc::default();
        let failing: Arc<std::sync::atomic::AtomicBool> = Arc::default();
        let sink = Sink { inbox: inbox.clone(), current: None, failing: failing.clone() };
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let sink = sink.clone();
                std::thread::spawn(move || {
                    let _ = session(stream, sink);
                });
            }
        });
        SmtpServer { url, inbox, failing }
    }

    /// From now on refuse every message with a temporary failure (true), or take them again.
    pub fn set_failing(&self, failing: bool) {
        self.failing.store(failing, std::sync::atomic::Ordering::SeqCst);
    }

    /// The messages delivered so far.
    pub fn messages(&self) -> Vec<Mail> {
        self.inbox.lock().expect("inbox").clone()
    }

    /// Waits up to 10 s until `n` messages have arrived, and returns them all.
    pub async fn wait_for(&self, n: usize) -> Vec<Mail> {
        let start = Instant::now();
        loop {
            let m = self.messages();
            if m.len() >= n || start.elapsed() > Duration::from_secs(10) {
                return m;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

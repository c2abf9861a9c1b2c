//! A NATS server with JetStream of a test's own: Debian's `nats-server` (or
//! `HARK_TEST_NATS_SERVER`) on a free port of 127.0.0.1 with its own storage directory, which
//! the test may stop and start again on the same port and storage.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct NatsServer {
    child: Option<Child>,
    pub port: u16,
    dir: tempfile::TempDir,
}

fn binary() -> String {
    std::env::var("HARK_TEST_NATS_SERVER").unwrap_or_else(|_| "nats-server".into())
}

impl NatsServer {
    /// None when the machine has no nats-server (the caller says so and skips).
    pub fn start() -> Option<NatsServer> {
        if Command::new(binary()).arg("--version").output().is_err() {
            eprintln!("{} not found: this test needs a NATS server; skipped", binary());
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").expect("free port").local_addr().expect("port").port();
        let mut n = NatsServer { child: None, port, dir: tempfile::tempdir().expect("temp dir") };
        n.up();
        Some(n)
    }

    /// Starts the server (again), on its port and storage.
    pub fn up(&mut self) {
        let child = Command::new(binary())
            .args(["-a", "127.0.0.1", "-p", &self.port.to_string(), "-js", "-sd"])
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start nats-server");
        self.child = Some(child);
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(10), "nats-server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server (SIGKILL).
    pub fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.down();
    }
}

//! `hark analyze` from the command line: one JSON line per input line, keys in the documented
//! order, blank lines skipped, the platform's language kept and other languages detected.

use std::io::Write;
use std::process::{Command, Stdio};

fn analyze(input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hark"))
        .arg("analyze")
        .env("HARK_LOG", "error")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hark");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn analyze_prints_a_json_line_per_input_line() {
    let input = "I really love the new camera on this phone, best upgrade ever #happy\n\
                 \n\
                 Gustong-gusto ko ang bagong camera ng phone na ito, sulit talaga\n\
                 Saya sangat suka kamera baru di ponsel ini, pembelian terbaik tahun ini\n\
                 {\"id\":\"9\",\"text\":\"Good morning Madrid, what a day\",\"created_at\":\"2024-06-01T10:00:00.000Z\",\"lang\":\"es\"}\n\
                 Bardzo lubię nowy aparat w tym telefonie, najlepszy zakup\n";
    let (ok, stdout, stderr) = analyze(input);
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "a line for each non-blank input line: {stdout}");
    // The struct's order, not a sorted map's.
    assert!(lines[0].starts_with("{\"input\":\"I really love"), "{}", lines[0]);
    let keys: Vec<String> = serde_json::from_str::<serde_json::Value>(lines[0]).unwrap().as_object().unwrap().keys().cloned().collect();
    assert!(keys.contains(&"language".to_string()) && keys.contains(&"hashtags".to_string()), "{keys:?}");
    let sentiment_at = lines[0].find("\"sentiment\"").unwrap();
    let language_at = lines[0].find("\"language\"").unwrap();
    let hashtags_at = lines[0].find("\"hashtags\"").unwrap();
    assert!(sentiment_at < language_at && language_at < hashtags_at, "{}", lines[0]);

    let v: Vec<serde_json::Value> = lines.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let languages: Vec<&str> = v.iter().map(|a| a["language"].as_str().unwrap_or("-")).collect();
    // English and Indonesian by their text, Tagalog and Polish too (languages the fast model does
    // not know), and the tweet's own "lang" kept.
    assert_eq!(languages, ["en", "tl", "id", "es", "pl"]);
    assert_eq!(v[0]["hashtags"], serde_json::json!(["happy"]));
    assert_eq!(v[0]["sentiment"]["bucket"], "positive");
}

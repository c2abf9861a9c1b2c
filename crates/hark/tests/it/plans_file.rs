//! `--plans-file`: a catalogue of the operator's own is read at start; a faulty one stops the
//! command with a message naming the key, before anything is written.

use std::process::Command;

fn hark(dir: &std::path::Path, plans: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hark"))
        .arg("--plans-file")
        .arg(plans)
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .env_remove("HARK_DATABASE_URL")
        .env_remove("HARK_PLANS_FILE")
        .env("HARK_LOG", "error")
        .output()
        .expect("run hark")
}

#[test]
fn a_plans_file_is_checked_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let built_in = hark_core::plans::BUILT_IN;

    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, built_in.replace("default_plan = 100", "default_plan = 7")).unwrap();
    let out = hark(dir.path(), &bad, &["migrate"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("default_plan 7 is not one of the plans"), "{err}");
    assert!(!dir.path().join("hark.db").exists(), "nothing was written");

    let missing = dir.path().join("missing.toml");
    let out = hark(dir.path(), &missing, &["migrate"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the plans file"));

    let good = dir.path().join("plans.toml");
    std::fs::write(&good, built_in.replace("trial_days = 14", "trial_days = 30")).unwrap();
    let out = hark(dir.path(), &good, &["migrate"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

//! The crate's integration tests, one binary: each module was its own test file.

mod analyze_cli;
mod backup_cli;
mod faults;
mod import_cli;
mod nodes;
mod plans_file;

/// A store on `db` with an owner and a tracker "Coffee" searching for "coffee".
async fn coffee_tracker(db: &hark_testkit::TestDb) -> (hark_store::Store, hark_store::TrackerRow) {
    let store = db.store().await;
    let user = store.create_user(&hark_testkit::new_user("o@example.org"), 1).await.unwrap();
    let c = hark_testkit::criteria(&["coffee"]);
    let tracker = store
        .create_tracker(&hark_testkit::new_tracker("Coffee", user.id, c.platforms.bits(), serde_json::to_string(&c).unwrap()), 1)
        .await
        .unwrap();
    (store, tracker)
}

//! The ingest log of a cluster against a real NATS server with JetStream (Debian's nats-server,
//! started by the test on a free port with its own storage): published posts are written by the
//! ingest workers and acknowledged; a post published twice is stored once; messages a worker took
//! and never acknowledged (it died) are delivered again and written; and with NATS stopped for 30
//! seconds and started again, what was published before is still there and the workers go on.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_nats::jetstream;
use futures_util::StreamExt;
use hark_core::{Platform, Post};
use hark_ingest::log::{IngestLog, CONSUMER};
use hark_store::{Backend, PostCountFilter, Store};
use hark_testkit::{NatsServer, TestDb};

fn post(id: u32, t: i64) -> Post {
    let mut p = Post::new(Platform::Twitter, id.to_string(), format!("coffee from the log {id}"), t);
    p.author.username = format!("user{}", id % 7);
    p.counts.likes = Some(i64::from(id % 5));
    p
}

async fn tracker(store: &Store) -> i64 {
    let user = store.create_user(&hark_testkit::new_user("log@example.org"), 1).await.unwrap();
    let c = hark_testkit::criteria(&["coffee"]);
    store
        .create_tracker(&hark_testkit::new_tracker("log", user.id, c.platforms.bits(), serde_json::to_string(&c).unwrap()), 1)
        .await
        .unwrap()
        .id
}

async fn count(store: &Store, tracker: i64) -> i64 {
    let all = PostCountFilter { platforms: hark_core::PlatformSet::all(), start: None, end: None };
    store.count_tracker_posts(tracker, &all).await.unwrap()
}

async fn wait_for(store: &Store, tracker: i64, n: i64, limit: Duration) {
    let start = Instant::now();
    loop {
        let c = count(store, tracker).await;
        if c == n {
            return;
        }
        assert!(c < n, "{c} posts stored, {n} expected");
        assert!(start.elapsed() < limit, "{c} of {n} posts stored after {limit:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn published_posts_are_written_once_redelivered_after_a_dead_worker_and_kept_across_a_restart() {
    let Some(mut nats) = NatsServer::start() else { return };
    let db = TestDb::new(Backend::Sqlite).await;
    let store = db.store().await;
    let id = tracker(&store).await;
    let now = hark_core::now_millis();
    let log = Arc::new(IngestLog::connect_with(&nats.url(), "HARK_TEST", Duration::from_secs(2)).await.expect("connect"));
    assert_eq!(log.state().await.pending, Some(0));

    // Written by a worker and acknowledged; the second publish of the same posts is stored once.
    // 250 posts go as two messages (200 at most each).
    let first: Vec<Post> = (1..=250).map(|i| post(i, now - i64::from(i) * 60_000)).collect();
    log.publish(None, first.clone()).await.unwrap();
    log.publish(Some(id), first[..20].to_vec()).await.unwrap();
    assert_eq!(log.state().await.pending, Some(3));
    let worker = tokio::spawn(hark_ingest::log::run_worker(store.clone(), log.clone()));
    wait_for(&store, id, 250, Duration::from_secs(30)).await;
    let start = Instant::now();
    while log.state().await.pending != Some(0) {
        assert!(start.elapsed() < Duration::from_secs(10), "acknowledged");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    worker.abort();

    // A worker that takes messages and dies before writing them: they come back after the
    // acknowledgement wait, to the next worker.
    log.publish(None, (251..=300).map(|i| post(i, now - 1_000)).collect()).await.unwrap();
    {
        let client = async_nats::connect(nats.url()).await.unwrap();
        let js = jetstream::new(client);
        let consumer: jetstream::consumer::PullConsumer = js.get_stream("HARK_TEST").await.unwrap().get_consumer(CONSUMER).await.unwrap();
        let mut taken = consumer.fetch().max_messages(10).messages().await.unwrap();
        let m = taken.next().await.expect("a message").unwrap();
        assert!(m.payload.len() > 100);
        // Dropped here without an acknowledgement, as a killed process would.
    }
    let worker = tokio::spawn(hark_ingest::log::run_worker(store.clone(), log.clone()));
    wait_for(&store, id, 300, Duration::from_secs(30)).await;
    worker.abort();

    // NATS stops: publishing fails (a connector then retries the page later); what was published
    // and not yet written waits on NATS's disk and is written once it is back.
    log.publish(None, (301..=340).map(|i| post(i, now - 2_000)).collect()).await.unwrap();
    nats.down();
    let down_at = Instant::now();
    // (A post no tracker matches: the client may still send it once NATS is back.)
    let mut tea = post(999, now);
    tea.text = "tea only".into();
    let refused = tokio::time::timeout(Duration::from_secs(20), log.publish(None, vec![tea])).await;
    assert!(!matches!(refused, Ok(Ok(()))), "publishing with NATS down does not succeed");
    let worker = tokio::spawn(hark_ingest::log::run_worker(store.clone(), log.clone()));
    // NATS stays away for 30 s, the workers retrying meanwhile.
    tokio::time::sleep(Duration::from_secs(30).saturating_sub(down_at.elapsed())).await;
    assert_eq!(count(&store, id).await, 300, "nothing new while NATS is down");
    nats.up();
    wait_for(&store, id, 340, Duration::from_secs(60)).await;
    log.publish(None, (341..=350).map(|i| post(i, now - 3_000)).collect()).await.unwrap();
    wait_for(&store, id, 350, Duration::from_secs(30)).await;
    worker.abort();
    let (rollups, links) = store.sentiment_counts_both_ways(id).await.unwrap();
    assert_eq!(rollups, links);
    assert_eq!(links.values().sum::<i64>(), 350);
    store.close().await;
}

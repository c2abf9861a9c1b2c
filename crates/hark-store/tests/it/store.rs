//! Store tests: each runs on SQLite and, when configured, PostgreSQL, on a fresh database.

use hark_core::{Friendly, Permission, PlatformSet, TrackerStatus};
use hark_store::{NewTracker, NewUser, PostCountFilter, TrackerEdit};
use hark_testkit::each_backend;

fn user(email: &str) -> NewUser {
    NewUser {
        email: email.into(),
        password_hash: "x".into(),
        name: "N".into(),
        is_admin: false,
        trial: false,
        trial_expires: None,
        plan: 100,
        max_searches: 5,
        max_ignored: 5,
    }
}

fn tracker(owner: i64, slug: &str) -> NewTracker {
    NewTracker {
        friendly: Friendly::from_text(slug),
        title: format!("Real-time Tracker: {slug}"),
        owner_id: owner,
        platforms: 1,
        criteria: "{}".into(),
        volume_limit: None,
        is_demo: false,
        is_preview_mode: false,
    }
}

#[tokio::test]
async fn users_are_unique_by_lowercased_email() {
    each_backend(|s| async move {
        assert_eq!(s.count_users().await.unwrap(), 0);
        let u = s.create_user(&user("Ann@Example.org"), 1).await.unwrap();
        assert_eq!(u.email, "ann@example.org");
        let dup = s.create_user(&user("ann@example.org"), 2).await.unwrap_err();
        assert!(dup.is_conflict_on("users_email_key", "users.email"), "{dup:?}");
        assert_eq!(s.user_by_email(" ANN@example.org").await.unwrap().unwrap().id, u.id);
        // The first-user path refuses once an account exists.
        assert!(s.create_first_user(&user("b@example.org"), 3).await.unwrap().is_none());
        assert_eq!(s.count_users().await.unwrap(), 1);
    })
    .await;
}

#[tokio::test]
async fn sessions_expire_and_end() {
    each_backend(|s| async move {
        let u = s.create_user(&user("a@example.org"), 1).await.unwrap();
        s.create_session("h1", u.id, 100, 200).await.unwrap();
        assert_eq!(s.session_user("h1", 150).await.unwrap().unwrap().id, u.id);
        assert!(s.session_user("h1", 200).await.unwrap().is_none());
        assert!(s.session_user("other", 150).await.unwrap().is_none());
        s.delete_session("h1").await.unwrap();
        assert!(s.session_user("h1", 150).await.unwrap().is_none());
    })
    .await;
}

#[tokio::test]
async fn trackers_get_unique_slugs_and_a_created_log() {
    each_backend(|s| async move {
        let u = s.create_user(&user("a@example.org"), 1).await.unwrap();
        let a = s.create_tracker(&tracker(u.id, "nike"), 10).await.unwrap();
        let b = s.create_tracker(&tracker(u.id, "nike"), 11).await.unwrap();
        let c = s.create_tracker(&tracker(u.id, "nike"), 12).await.unwrap();
        assert_eq!(a.friendly, "nike");
        assert_eq!(b.friendly, "nike-2");
        assert_eq!(c.friendly, "nike-3");
        assert_ne!(a.hash, b.hash);
        assert_eq!(a.owner_name, "N");
        let logs = s.tracker_logs(a.id).await.unwrap();
        assert_eq!(logs.len(), 1);
        assert_eq!(logs[0].action, "tracker_created");
        let (list, count) = s.trackers_for_user(u.id, 1, 2).await.unwrap();
        assert_eq!(count, 3);
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].id, c.id, "newest first");
    })
    .await;
}

#[tokio::test]
async fn pause_and_restart_log_once() {
    each_backend(|s| async move {
        let u = s.create_user(&user("a@example.org"), 1).await.unwrap();
        let t = s.create_tracker(&tracker(u.id, "x"), 10).await.unwrap();
        let p = s.set_tracker_status(t.id, TrackerStatus::Paused, u.id, 20).await.unwrap();
        assert_eq!(p.status(), TrackerStatus::Paused);
        assert_eq!(p.last_paused, Some(20));
        // Pausing a paused tracker changes nothing.
        s.set_tracker_status(t.id, TrackerStatus::Paused, u.id, 25).await.unwrap();
        let r = s.set_tracker_status(t.id, TrackerStatus::Running, u.id, 30).await.unwrap();
        assert_eq!(r.status(), TrackerStatus::Running);
        let actions: Vec<_> = s.tracker_logs(t.id).await.unwrap().into_iter().map(|l| l.action).collect();
        assert_eq!(actions, vec!["tracker_created", "tracker_paused", "tracker_restarted"]);
    })
    .await;
}

#[tokio::test]
async fn permissions_rank_owner_admin_and_members() {
    each_backend(|s| async move {
        let owner = s.create_user(&user("o@example.org"), 1).await.unwrap();
        let other = s.create_user(&user("v@example.org"), 1).await.unwrap();
        let t = s.create_tracker(&tracker(owner.id, "x"), 10).await.unwrap();
        assert_eq!(s.permission(&t, owner.id, false).await.unwrap(), Permission::Owner);
        assert_eq!(s.permission(&t, other.id, false).await.unwrap(), Permission::NoAccess);
        assert_eq!(s.permission(&t, other.id, true).await.unwrap(), Permission::Administrator);
        s.set_member(t.id, other.id, Permission::Viewer).await.unwrap();
        assert_eq!(s.permission(&t, other.id, false).await.unwrap(), Permission::Viewer);
        s.set_member(t.id, other.id, Permission::Editor).await.unwrap();
        assert_eq!(s.permission(&t, other.id, false).await.unwrap(), Permission::Editor);
        let (shared, n) = s.trackers_for_user(other.id, 1, 10).await.unwrap();
        assert_eq!((shared.len(), n), (1, 1));
    })
    .await;
}

#[tokio::test]
async fn edits_record_the_choice_and_deletes_cascade() {
    each_backend(|s| async move {
        let u = s.create_user(&user("a@example.org"), 1).await.unwrap();
        let t = s.create_tracker(&tracker(u.id, "x"), 10).await.unwrap();
        let edited = s
            .edit_tracker(
                t.id,
                &TrackerEdit {
                    title: "New".into(),
                    platforms: 3,
                    criteria: "{\"a\":1}".into(),
                    volume_limit: Some(10),
                    mode: "reanalyze",
                    user_id: u.id,
                },
                20,
            )
            .await
            .unwrap();
        assert_eq!(edited.title, "New");
        assert_eq!(edited.last_edit_mode.as_deref(), Some("reanalyze"));
        assert_eq!(edited.volume_limit, Some(10));
        let tag = s.create_tag(t.id, "Urgent", "#c0392b", 1).await.unwrap();
        let dup = s.create_tag(t.id, "Urgent", "#c0392b", 1).await.unwrap_err();
        assert!(dup.is_conflict_on("tags_tracker_name_key", "tags.tracker_id, tags.name"), "{dup:?}");
        assert!(s.update_tag(t.id, tag.id, "Later", "#616161").await.unwrap().is_some());
        assert!(s.update_tag(t.id + 1, tag.id, "Nope", "#616161").await.unwrap().is_none());
        assert!(s.delete_tracker(t.id, None).await.unwrap());
        assert!(s.tracker_by_hash(&t.hash).await.unwrap().is_none());
        assert!(s.tracker_logs(t.id).await.unwrap().is_empty());
        assert!(s.tags(t.id).await.unwrap().is_empty());
    })
    .await;
}

#[tokio::test]
async fn post_count_respects_filters() {
    each_backend(|s| async move {
        let u = s.create_user(&user("a@example.org"), 1).await.unwrap();
        let t = s.create_tracker(&tracker(u.id, "x"), 10).await.unwrap();
        let f = PostCountFilter { platforms: PlatformSet::all(), start: None, end: None };
        assert_eq!(s.count_tracker_posts(t.id, &f).await.unwrap(), 0);
        let none = PostCountFilter { platforms: PlatformSet::empty(), start: None, end: None };
        assert_eq!(s.count_tracker_posts(t.id, &none).await.unwrap(), 0);
    })
    .await;
}

fn record(key: &str, created_at: i64, engagement: i64, trackers: &[i64]) -> hark_store::PostRecord {
    hark_store::PostRecord {
        post_key: format!("twitter;{key}"),
        platform: hark_core::Platform::Twitter,
        external_id: key.into(),
        created_at,
        author_username: format!("user{}", key.len()),
        author_followers: 100,
        text: format!("post {key} #coffee"),
        post_type: hark_core::PostType::Original,
        engagement,
        sentiment: 0.5,
        sentiment_bucket: hark_core::Bucket::SlightPositive,
        country: Some("GB".into()),
        data: "{}".into(),
        terms: hark_store::PostTerms { hashtags: vec!["#coffee".into()], keywords: vec!["latte".into()], ..Default::default() },
        links: trackers.iter().map(|t| hark_store::TrackerLink { tracker_id: *t, subtrackers: 0, sentiment: None, indirect: false }).collect(),
        ..Default::default()
    }
}

#[tokio::test]
async fn ingest_is_idempotent_and_keeps_rollups_right() {
    each_backend(|s| async move {
        let u = s.create_user(&user("a@example.org"), 1).await.unwrap();
        let a = s.create_tracker(&tracker(u.id, "a"), 10).await.unwrap();
        let b = s.create_tracker(&tracker(u.id, "b"), 10).await.unwrap();
        let batch = vec![
            record("1", 3_600_000, 5, &[a.id]),
            record("2", 3_700_000, 7, &[a.id, b.id]),
            record("3", 90_000_000, 1, &[b.id]),
            // A repeat inside the batch: the last one wins.
            record("1", 3_600_000, 6, &[a.id]),
        ];
        let stats = s.ingest_batch(&batch, 100).await.unwrap();
        assert_eq!((stats.new_posts, stats.updated_posts, stats.new_links), (3, 0, 4));
        assert_eq!(s.rollup_totals(a.id).await.unwrap(), (2, 13));
        assert_eq!(s.rollup_totals(b.id).await.unwrap(), (2, 8));
        // The same batch again (a restart after a crash): nothing doubles.
        let again = s.ingest_batch(&batch, 200).await.unwrap();
        assert_eq!((again.new_posts, again.updated_posts, again.new_links), (0, 3, 0));
        assert_eq!(s.rollup_totals(a.id).await.unwrap(), (2, 13));
        // A repeat with new counts moves engagement only.
        let stats = s.ingest_batch(&[record("2", 3_700_000, 10, &[a.id, b.id])], 300).await.unwrap();
        assert_eq!(stats.new_links, 0);
        assert_eq!(s.rollup_totals(a.id).await.unwrap(), (2, 16));
        assert_eq!(s.rollup_totals(b.id).await.unwrap(), (2, 11));
        let all = PostCountFilter { platforms: PlatformSet::all(), start: None, end: None };
        assert_eq!(s.count_tracker_posts(a.id, &all).await.unwrap(), 2);
        let early = PostCountFilter { platforms: PlatformSet::all(), start: None, end: Some(50_000_000) };
        assert_eq!(s.count_tracker_posts(b.id, &early).await.unwrap(), 1);
        assert_eq!(s.rollup_terms(a.id, "hashtag", 10).await.unwrap(), vec![("#coffee".to_string(), 2)]);
        assert_eq!(s.rollup_terms(b.id, "country", 10).await.unwrap(), vec![("GB".to_string(), 2)]);
        // Keywords have no rollup rows (the writer's costliest); the dashboard counts them from
        // the post rows when the in-memory table is not used.
        assert_eq!(s.rollup_terms(a.id, "keyword", 10).await.unwrap(), vec![]);
        let f = hark_store::PageFilter { platforms: PlatformSet::all(), ..Default::default() };
        let rollup_path = s.without_memory_terms();
        assert_eq!(rollup_path.dash_terms(a.id, &f, "keyword").await.unwrap(), vec![("latte".to_string(), 2)]);
        let t = s.tracker_by_id(a.id).await.unwrap().unwrap();
        assert_eq!(t.total_posts, 2);
        assert_eq!(t.first_data_point, Some(3_600_000));
        // Removing a tracker removes its links and rollups (a cascade on SQLite, triggers on
        // PostgreSQL, whose write tables have no foreign keys); the other tracker keeps its own.
        assert!(s.delete_tracker(a.id, None).await.unwrap());
        assert_eq!(s.rollup_totals(a.id).await.unwrap(), (0, 0));
        assert_eq!(s.rollup_terms(a.id, "hashtag", 10).await.unwrap(), vec![]);
        assert_eq!(s.count_tracker_posts(a.id, &all).await.unwrap(), 0);
        assert_eq!(s.rollup_totals(b.id).await.unwrap(), (2, 11));
        // A batch for a tracker that is gone fails whole: no row outlives its tracker.
        assert!(s.ingest_batch(&[record("9", 3_600_000, 1, &[a.id])], 400).await.is_err());
        assert_eq!(s.rollup_totals(a.id).await.unwrap(), (0, 0));
        assert_eq!(s.count_tracker_posts(a.id, &all).await.unwrap(), 0);
    })
    .await;
}

/// On PostgreSQL a large write is split in two transactions written side by side; what it stores
/// and counts is what one transaction stores (the store here splits every write of two posts or
/// more; SQLite writes them whole).
#[tokio::test]
async fn a_write_split_in_two_stores_and_counts_what_one_would() {
    each_backend(|s| async move {
        let u = s.create_user(&user("a@example.org"), 1).await.unwrap();
        let a = s.create_tracker(&tracker(u.id, "a"), 10).await.unwrap();
        let b = s.create_tracker(&tracker(u.id, "b"), 10).await.unwrap();
        let split = s.splitting_writes();
        // 301 posts over 48 hours from accounts of 1 to 3 letters (both halves share accounts,
        // hours and rollup rows); every third also in b; one stored before the write.
        let (one, both) = (vec![a.id], vec![a.id, b.id]);
        let mut batch: Vec<_> = (0..300)
            .map(|i| {
                let key = format!("{}{i}", "k".repeat(i % 3));
                record(&key, 3_600_000 * (1 + (i as i64 * 7) % 48), i as i64, if i % 3 == 0 { &both } else { &one })
            })
            .collect();
        s.ingest_batch(&batch[..1], 50).await.unwrap();
        batch.push(record("late", 3_600_000, 1_000, &[b.id]));
        let stats = split.ingest_batch(&batch, 100).await.unwrap();
        assert_eq!((stats.new_posts, stats.updated_posts, stats.new_links), (300, 1, 300 + 100 + 1 - 2));
        let engagement_a: i64 = (0..300).sum();
        let engagement_b: i64 = (0..300).step_by(3).sum::<i64>() + 1_000;
        assert_eq!(s.rollup_totals(a.id).await.unwrap(), (300, engagement_a));
        assert_eq!(s.rollup_totals(b.id).await.unwrap(), (101, engagement_b));
        assert_eq!(s.tracker_by_id(a.id).await.unwrap().unwrap().total_posts, 300);
        assert_eq!(s.tracker_by_id(b.id).await.unwrap().unwrap().total_posts, 101);
        assert_eq!(s.rollup_terms(a.id, "hashtag", 10).await.unwrap(), vec![("#coffee".to_string(), 300)]);
        let all = PostCountFilter { platforms: PlatformSet::all(), start: None, end: None };
        assert_eq!(s.count_tracker_posts(b.id, &all).await.unwrap(), 101);
        // Sent again (one part committed before a crash, say): nothing doubles.
        let again = split.ingest_batch(&batch, 200).await.unwrap();
        assert_eq!((again.new_posts, again.updated_posts, again.new_links), (0, 301, 0));
        assert_eq!(s.rollup_totals(a.id).await.unwrap(), (300, engagement_a));
        assert_eq!(s.rollup_totals(b.id).await.unwrap(), (101, engagement_b));
        // New counts for every post move engagement only, in both parts.
        for p in &mut batch {
            p.engagement += 1;
        }
        split.ingest_batch(&batch, 300).await.unwrap();
        assert_eq!(s.rollup_totals(a.id).await.unwrap(), (300, engagement_a + 300));
        assert_eq!(s.rollup_totals(b.id).await.unwrap(), (101, engagement_b + 101));
        // A write to a tracker that is gone fails, and neither part leaves a row of it.
        assert!(s.delete_tracker(b.id, None).await.unwrap());
        let gone: Vec<_> = (0..50).map(|i| record(&format!("g{i}"), 3_600_000, 1, &[b.id])).collect();
        assert!(split.ingest_batch(&gone, 400).await.is_err());
        assert_eq!(s.rollup_totals(b.id).await.unwrap(), (0, 0));
        assert_eq!(s.count_tracker_posts(b.id, &all).await.unwrap(), 0);
    })
    .await;
}

/// The writes of a sequence (a file's batches) overlap, yet end as if written one after another:
/// a post repeated later ends with its later counts and is counted once; a write that fails leaves
/// nothing and the writes after it go on.
#[tokio::test]
async fn a_sequence_of_writes_overlaps_and_keeps_its_order() {
    each_backend(|s| async move {
        let u = s.create_user(&user("a@example.org"), 1).await.unwrap();
        let a = s.create_tracker(&tracker(u.id, "a"), 10).await.unwrap();
        let batch = |keys: std::ops::Range<usize>, engagement: i64| -> Vec<hark_store::PostRecord> {
            keys.map(|i| record(&format!("p{i}"), 3_600_000 * (1 + i as i64 % 72), engagement, &[a.id])).collect()
        };
        let mut broken = batch(9_000..9_010, 1);
        broken[5].links[0].tracker_id = 999_999;
        let batches = [batch(0..3_000, 1), batch(1_500..4_500, 2), broken, batch(0..1_000, 3)];
        let mut seq = s.ingest_sequence();
        // All four started at once, each on its own task.
        let running: Vec<_> = batches.iter().map(|b| tokio::spawn(seq.write(b.clone(), 100))).collect();
        let mut results = Vec::new();
        for r in running {
            results.push(r.await.unwrap());
        }
        let figures = |i: usize| results[i].as_ref().map(|st| (st.new_posts, st.updated_posts, st.new_links)).unwrap();
        assert_eq!(figures(0), (3_000, 0, 3_000));
        assert_eq!(figures(1), (1_500, 1_500, 1_500));
        assert!(results[2].is_err(), "{:?}", results[2]);
        assert_eq!(figures(3), (0, 1_000, 0));
        // p0..p999 last had 3, p1000..p1499 1, p1500..p4499 2; nothing of the failed write.
        assert_eq!(s.rollup_totals(a.id).await.unwrap(), (4_500, 1_000 * 3 + 500 + 3_000 * 2));
        let all = PostCountFilter { platforms: PlatformSet::all(), start: None, end: None };
        assert_eq!(s.count_tracker_posts(a.id, &all).await.unwrap(), 4_500);
        assert_eq!(s.tracker_by_id(a.id).await.unwrap().unwrap().total_posts, 4_500);
    })
    .await;
}

/// Small batches sent at once (imports from several clients) are written together, each caller
/// still getting its own figures; a batch that cannot be written fails alone.
#[tokio::test]
async fn small_batches_sent_at_once_are_written_together() {
    each_backend(|s| async move {
        let u = s.create_user(&user("a@example.org"), 1).await.unwrap();
        let a = s.create_tracker(&tracker(u.id, "a"), 10).await.unwrap();
        let b = s.create_tracker(&tracker(u.id, "b"), 10).await.unwrap();
        // 30 batches of 20 posts; batch 0 and batch 1 share post "shared"; batch 7 links to a
        // tracker that does not exist.
        let (one, both) = (vec![a.id], vec![a.id, b.id]);
        let batches: Vec<Vec<hark_store::PostRecord>> = (0..30)
            .map(|i| {
                let mut v: Vec<_> = (0..20)
                    .map(|j| record(&format!("{i}-{j}"), 3_600_000 * (1 + (i * 20 + j) % 48), 1 + j as i64, if j % 2 == 0 { &one } else { &both }))
                    .collect();
                if i < 2 {
                    v.push(record("shared", 7_200_000, 3, &[a.id]));
                }
                if i == 7 {
                    v[0].links = vec![hark_store::TrackerLink { tracker_id: 999_999, subtrackers: 0, sentiment: None, indirect: false }];
                }
                v
            })
            .collect();
        let before = s.ingest_writes();
        let results = futures_util::future::join_all(batches.iter().map(|v| s.ingest_batch(v, 100))).await;
        let writes = s.ingest_writes() - before;
        for (i, r) in results.iter().enumerate() {
            if i == 7 {
                assert!(r.is_err(), "the batch linking a missing tracker fails: {r:?}");
                continue;
            }
            let st = r.as_ref().unwrap_or_else(|e| panic!("batch {i}: {e}"));
            let shared = u64::from(i < 2);
            assert_eq!(st.new_posts + st.updated_posts, 20 + shared, "batch {i}: {st:?}");
            // The shared post is new to the first write that has it (batch 1 is written after
            // batch 0, alone or with the others).
            assert_eq!(st.new_links, 30 + u64::from(i == 0), "batch {i}: {st:?}");
        }
        // The first batch alone, then the 29 waiting for it together; the failure of that write
        // has each of them written alone (29 more).
        assert!(writes <= 1 + 1 + 29, "{writes} writes");
        assert!(writes >= 3, "{writes} writes");
        // 29 batches stored: 580 posts and the shared one, none twice; rollups equal the rows.
        let all = PostCountFilter { platforms: PlatformSet::all(), start: None, end: None };
        assert_eq!(s.count_tracker_posts(a.id, &all).await.unwrap(), 29 * 20 + 1);
        assert_eq!(s.count_tracker_posts(b.id, &all).await.unwrap(), 29 * 10);
        let engagement: i64 = (0..30).filter(|i| *i != 7).map(|_| (1..=20).sum::<i64>()).sum();
        assert_eq!(s.rollup_totals(a.id).await.unwrap(), (29 * 20 + 1, engagement + 3));
        assert_eq!(s.tracker_by_id(a.id).await.unwrap().unwrap().total_posts, 29 * 20 + 1);

        // Without a failure: one write for the first batch, one for all the others.
        let more: Vec<Vec<hark_store::PostRecord>> =
            (0..10).map(|i| (0..5).map(|j| record(&format!("m{i}-{j}"), 3_600_000, 1, &[b.id])).collect()).collect();
        let before = s.ingest_writes();
        let results = futures_util::future::join_all(more.iter().map(|v| s.ingest_batch(v, 200))).await;
        assert!(results.iter().all(|r| matches!(r, Ok(st) if st.new_posts == 5 && st.new_links == 5)), "{results:?}");
        assert_eq!(s.ingest_writes() - before, 2);
        assert_eq!(s.count_tracker_posts(b.id, &all).await.unwrap(), 29 * 10 + 50);
    })
    .await;
}

#[tokio::test]
async fn preview_mode_is_set_at_creation_and_switched_off() {
    each_backend(|s| async move {
        let u = s.create_user(&user("a@example.org"), 1).await.unwrap();
        let t = s.create_tracker(&NewTracker { is_preview_mode: true, ..tracker(u.id, "coffee") }, 10).await.unwrap();
        assert!(s.tracker_by_id(t.id).await.unwrap().unwrap().is_preview_mode);
        s.set_preview_mode(t.id, false, 20).await.unwrap();
        let t = s.tracker_by_id(t.id).await.unwrap().unwrap();
        assert!(!t.is_preview_mode);
        assert_eq!(t.updated_at, 20);
    })
    .await;
}

#[tokio::test]
async fn stream_leases_are_exclusive_and_keep_the_cursor() {
    each_backend(|store| async move {
        let a = store.lease_stream("bluesky", "node-a", 1_000, 61_000).await.unwrap().unwrap();
        assert_eq!((a.cursor.as_str(), a.lease_owner.as_deref()), ("{}", Some("node-a")));
        // Another worker waits while the lease runs; the holder renews it.
        assert!(store.lease_stream("bluesky", "node-b", 2_000, 62_000).await.unwrap().is_none());
        assert!(store.lease_stream("bluesky", "node-a", 2_000, 62_000).await.unwrap().is_some());
        assert!(store.stream_batch_done("bluesky", "node-a", r#"{"time_us":5}"#, 3, 3_000, 63_000).await.unwrap());
        assert!(!store.stream_batch_done("bluesky", "node-b", r#"{"time_us":9}"#, 1, 3_000, 63_000).await.unwrap());
        store.stream_failed("bluesky", "node-a", "network: reset", 4_000).await.unwrap();
        // The lease runs out (its worker died): the next worker resumes from the saved cursor.
        let b = store.lease_stream("bluesky", "node-b", 64_000, 124_000).await.unwrap().unwrap();
        assert_eq!(b.cursor, r#"{"time_us":5}"#);
        assert_eq!((b.batches, b.posts_collected, b.last_error.as_deref()), (1, 3, Some("network: reset")));
        store.release_stream("bluesky", "node-b").await.unwrap();
        assert!(store.lease_stream("bluesky", "node-a", 65_000, 125_000).await.unwrap().is_some());
        let rows = store.connector_streams().await.unwrap();
        assert_eq!(rows.len(), 1);
    })
    .await;
}

#[tokio::test]
async fn export_jobs_are_leased_taken_over_finished_and_expired() {
    each_backend(|s| async move {
        let u = s.create_user(&user("ann@example.org"), 1).await.unwrap();
        let t = s.create_tracker(&tracker(u.id, "coffee"), 1).await.unwrap();
        let new = |token: &'static str| hark_store::NewExport {
            token,
            tracker_id: t.id,
            user_id: Some(u.id),
            kind: hark_core::ExportKind::Xlsx,
            params: "{}",
            now: 1_000,
            expires_at: 100_000,
        };
        let job = s.create_export(&new("a0")).await.unwrap();
        assert_eq!((job.state, job.attempts), (hark_core::ExportState::Pending, 0));
        assert_eq!(s.unfinished_exports(t.id).await.unwrap(), 1);
        // One worker at a time: a held lease is not given out again.
        let a = s.lease_export("a", 2_000, 12_000).await.unwrap().expect("leased");
        assert_eq!((a.id, a.attempts, a.state), (job.id, 1, hark_core::ExportState::Running));
        assert!(s.lease_export("b", 5_000, 15_000).await.unwrap().is_none());
        assert!(s.export_progress(job.id, "a", 3, 10, 6_000, 20_000).await.unwrap());
        // Worker a stops; its lease runs out and b makes the job anew.
        let b = s.lease_export("b", 20_001, 30_000).await.unwrap().expect("taken over");
        assert_eq!((b.id, b.attempts, b.progress_done), (job.id, 2, 0));
        assert!(!s.export_progress(job.id, "a", 5, 10, 20_002, 40_000).await.unwrap(), "a's lease is gone");
        let body = b"the file".to_vec();
        let r = hark_store::ExportResult { filename: "x.xlsx", content_type: "application/x", body: &body, url: None, expires_at: 90_000 };
        assert!(!s.finish_export(job.id, "a", &r, 21_000).await.unwrap(), "only the holder finishes");
        assert!(s.finish_export(job.id, "b", &r, 21_000).await.unwrap());
        let done = s.export_by_token("a0").await.unwrap().unwrap();
        assert_eq!((done.state, done.size, done.lease_owner.as_deref()), (hark_core::ExportState::Ready, Some(8), None));
        assert_eq!(s.export_file(job.id).await.unwrap().unwrap().body, body);
        assert_eq!(s.user_exports(t.id, u.id, 21_000).await.unwrap().len(), 1);

        // A job that stops its worker every time fails after its last attempt.
        let bad = s.create_export(&new("b0")).await.unwrap();
        for (i, now) in [(1, 30_000), (2, 40_000), (3, 50_000)] {
            let l = s.lease_export("w", now, now + 1).await.unwrap().expect("leased");
            assert_eq!((l.id, l.attempts), (bad.id, i));
        }
        assert!(s.lease_export("w", 60_000, 60_001).await.unwrap().is_none());
        let failed = s.export_by_token("b0").await.unwrap().unwrap();
        assert_eq!(failed.state, hark_core::ExportState::Failed);
        assert!(failed.error.is_some());
        // A released job waits again, its attempt not counted.
        let c = s.create_export(&new("c0")).await.unwrap();
        s.lease_export("w", 60_000, 70_000).await.unwrap().expect("leased");
        s.release_export(c.id, "w").await.unwrap();
        let waiting = s.export_by_token("c0").await.unwrap().unwrap();
        assert_eq!((waiting.state, waiting.attempts), (hark_core::ExportState::Pending, 0));

        // Expired jobs go with their files.
        assert_eq!(s.remove_expired_exports(95_000).await.unwrap(), 1);
        assert!(s.export_file(job.id).await.unwrap().is_none());
        assert_eq!(s.remove_expired_exports(100_000).await.unwrap(), 2);
        // Removing the tracker removes its jobs.
        s.create_export(&new("d0")).await.unwrap();
        s.delete_tracker(t.id, None).await.unwrap();
        assert!(s.export_by_token("d0").await.unwrap().is_none());
    })
    .await;
}

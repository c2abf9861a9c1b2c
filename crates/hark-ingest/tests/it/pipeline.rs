//! The pipeline end to end on SQLite and PostgreSQL: matching, enrichment, storage, rollups,
//! repeats, an interrupted run taken up again, and re-analysis after a search edit.

use std::sync::Arc;

use hark_core::{Platform, Post, SearchRow, SearchRowKind, TrackerCriteria};
use hark_ingest::demo::DemoGenerator;
use hark_ingest::pipeline::{compile, ingest_with, prepare, Pipeline};
use hark_store::{PostCountFilter, Store, TrackerEdit};
use hark_testkit::{backends, TestDb};

fn criteria(terms: &[&str]) -> TrackerCriteria {
    TrackerCriteria { subtrackers: vec!["espresso".into()], ..hark_testkit::criteria(terms) }
}

async fn setup(store: &Store, terms: &[&str]) -> i64 {
    setup_with(store, criteria(terms)).await
}

async fn setup_with(store: &Store, c: TrackerCriteria) -> i64 {
    let user = store
        .create_user(
            &hark_testkit::new_user("o@example.org"),
            1,
        )
        .await
        .unwrap();
    store
        .create_tracker(
            &hark_testkit::new_tracker("t", user.id, c.platforms.bits(), serde_json::to_string(&c).unwrap()),
            1,
        )
        .await
        .unwrap()
        .id
}

fn post(id: &str, text: &str, t: i64) -> Post {
    let mut p = Post::new(Platform::Twitter, id, text, t);
    p.author.username = format!("user{id}");
    p.author.name = "Maria Garcia".into();
    p.counts.likes = Some(3);
    p.counts.retweets = Some(1);
    p
}

fn all() -> PostCountFilter {
    PostCountFilter { platforms: hark_core::PlatformSet::all(), start: None, end: None }
}

#[tokio::test]
async fn matched_posts_are_enriched_and_stored_once() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let store = db.store().await;
        let tracker = setup(&store, &["coffee"]).await;
        let pipeline = Pipeline::new(store.clone()).await.unwrap();
        let posts = vec![
            post("1", "I love this coffee! #coffee", 1_700_000_000_000),
            post("2", "Tea is fine", 1_700_000_100_000),
            post("3", "Espresso coffee is awful and I hate it", 1_700_000_200_000),
            post("1", "I love this coffee! #coffee", 1_700_000_000_000),
        ];
        let stats = pipeline.ingest(posts.clone(), 5).await.unwrap();
        assert_eq!((stats.new_posts, stats.new_links), (2, 2), "{b:?}");
        assert_eq!(store.count_tracker_posts(tracker, &all()).await.unwrap(), 2);
        let (n, engagement) = store.rollup_totals(tracker).await.unwrap();
        assert_eq!(n, 2);
        assert!(engagement >= 8, "likes + retweets counted: {engagement}");
        let sentiments = store.rollup_terms(tracker, "sentiment", 10).await.unwrap();
        assert_eq!(sentiments.iter().map(|(_, c)| c).sum::<i64>(), 2);
        assert!(sentiments.iter().any(|(s, _)| s.contains("negative")), "{sentiments:?}");
        assert!(sentiments.iter().any(|(s, _)| s.contains("positive")), "{sentiments:?}");
        assert_eq!(store.rollup_terms(tracker, "gender", 5).await.unwrap(), vec![("female".to_string(), 2)]);
        assert_eq!(store.rollup_terms(tracker, "hashtag", 5).await.unwrap(), vec![("coffee".to_string(), 1)]);
        // Again: nothing new, nothing doubled.
        let again = pipeline.ingest(posts, 6).await.unwrap();
        assert_eq!((again.new_posts, again.new_links), (0, 0));
        assert_eq!(store.rollup_totals(tracker).await.unwrap().0, 2);
    }
}

/// Import requests arriving at once (the load test's feeder, connectors' pages) are each a
/// source's only batch: the store writes them together, not one transaction apiece.
#[tokio::test]
async fn small_imports_arriving_at_once_are_written_together() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let store = db.store().await;
        let tracker = setup(&store, &["coffee"]).await;
        let c = store.tracker_by_id(tracker).await.unwrap().unwrap().criteria;
        let matcher = Arc::new(compile(&[(tracker, c)]).unwrap());
        let requests: Vec<Vec<Post>> = (0..40)
            .map(|i| (0..10).map(|j| post(&format!("{i}-{j}"), "fresh coffee #coffee", 1_700_000_000_000 + i * 1_000 + j)).collect())
            .collect();
        let before = store.ingest_writes();
        let results =
            futures_util::future::join_all(requests.into_iter().map(|posts| ingest_with(&store, matcher.clone(), posts, 5))).await;
        let writes = store.ingest_writes() - before;
        for r in &results {
            let st = r.as_ref().unwrap();
            assert_eq!((st.new_posts, st.new_links), (10, 10), "{b:?}: {st:?}");
        }
        assert!(writes <= 20, "{b:?}: 40 requests took {writes} transactions");
        assert_eq!(store.count_tracker_posts(tracker, &all()).await.unwrap(), 400, "{b:?}");
        assert_eq!(store.rollup_totals(tracker).await.unwrap().0, 400, "{b:?}");
    }
}

#[tokio::test]
async fn an_interrupted_run_resumes_without_loss_or_duplicates() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let store = db.store().await;
        let tracker = setup(&store, &["coffee", "latte", "espresso", "kestrel"]).await;
        let c = store.tracker_by_id(tracker).await.unwrap().unwrap().criteria;
        let matcher = Arc::new(compile(&[(tracker, c)]).unwrap());
        let posts: Vec<Post> = DemoGenerator::new(3).generate(1_700_000_000_000, 1_700_500_000_000, 8_000).collect();
        let expected = prepare(&matcher, &posts).len() as i64;
        assert!(expected > 1_000);
        // The first run stops after some batches (as if the process died between transactions)...
        ingest_with(&store, matcher.clone(), posts[..5_500].to_vec(), 1).await.unwrap();
        // ...and the whole input is sent again on restart.
        ingest_with(&store, matcher.clone(), posts.clone(), 2).await.unwrap();
        assert_eq!(store.count_tracker_posts(tracker, &all()).await.unwrap(), expected, "{b:?}");
        assert_eq!(store.rollup_totals(tracker).await.unwrap().0, expected);
        assert_eq!(store.tracker_by_id(tracker).await.unwrap().unwrap().total_posts, expected);
    }
}

#[tokio::test]
async fn reanalysis_removes_posts_that_no_longer_match() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let store = db.store().await;
        let tracker = setup(&store, &["coffee"]).await;
        let pipeline = Pipeline::new(store.clone()).await.unwrap();
        pipeline
            .ingest(
                vec![
                    post("1", "coffee and espresso", 1_700_000_000_000),
                    post("2", "coffee with milk", 1_700_000_000_001),
                    post("3", "espresso coffee", 1_700_000_000_002),
                ],
                5,
            )
            .await
            .unwrap();
        let c = criteria(&["espresso"]);
        let owner = store.tracker_by_id(tracker).await.unwrap().unwrap().owner_id;
        store
            .edit_tracker(
                tracker,
                &TrackerEdit {
                    title: "t".into(),
                    platforms: c.platforms.bits(),
                    criteria: serde_json::to_string(&c).unwrap(),
                    volume_limit: None,
                    mode: "reanalyze",
                    user_id: owner,
                },
                10,
            )
            .await
            .unwrap();
        assert!(hark_ingest::reanalysis::run_next(&store).await.unwrap());
        assert!(!hark_ingest::reanalysis::run_next(&store).await.unwrap(), "nothing left to do");
        let job = store.latest_reanalysis(tracker).await.unwrap().unwrap();
        assert_eq!((job.processed, job.total, job.removed), (3, 3, 1), "{b:?}");
        assert!(job.applied_at.is_some());
        assert_eq!(store.count_tracker_posts(tracker, &all()).await.unwrap(), 2);
        assert_eq!(store.rollup_totals(tracker).await.unwrap().0, 2, "rollups follow the removal");
        assert_eq!(store.tracker_by_id(tracker).await.unwrap().unwrap().total_posts, 2);
    }
}

#[tokio::test]
async fn keyword_reanalysis_by_several_writers_moves_each_post_once() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let store = db.store().await;
        let tracker = setup(&store, &["coffee"]).await;
        let pipeline = Pipeline::new(store.clone()).await.unwrap();
        // 1,200 posts over 50 days, every third "wonderful": the readers cut them into many
        // ranges, so the writers take many batches side by side.
        let posts: Vec<Post> = (0..1_200)
            .map(|i| {
                let text = if i % 3 == 0 { format!("coffee {i} wonderful") } else { format!("coffee {i} at noon") };
                post(&i.to_string(), &text, 1_700_000_000_000 + i * 3_600_000)
            })
            .collect();
        pipeline.ingest(posts, 5).await.unwrap();
        let (rollups_before, links_before) = store.sentiment_counts_both_ways(tracker).await.unwrap();
        assert_eq!(rollups_before, links_before, "{b:?}");
        let owner = store.tracker_by_id(tracker).await.unwrap().unwrap().owner_id;
        let edit = |negative: Vec<String>| {
            let mut c = criteria(&["coffee"]);
            c.sentiment_keywords.negative = negative;
            TrackerEdit {
                title: "t".into(),
                platforms: c.platforms.bits(),
                criteria: serde_json::to_string(&c).unwrap(),
                volume_limit: None,
                mode: "reanalyze",
                user_id: owner,
            }
        };
        store.edit_tracker(tracker, &edit(vec!["wonderful".into()]), 10).await.unwrap();
        assert!(hark_ingest::reanalysis::run_next_with(&store, 3).await.unwrap());
        let job = store.latest_reanalysis(tracker).await.unwrap().unwrap();
        assert_eq!((job.processed, job.total, job.removed), (1_200, 1_200, 0), "{b:?}");
        assert!(job.applied_at.is_some());
        let (rollups, links) = store.sentiment_counts_both_ways(tracker).await.unwrap();
        assert_eq!(links.get("negative"), Some(&400), "{b:?}: {links:?}");
        assert_eq!(rollups, links, "{b:?}: the rollups move with the links");
        // And back, by one writer: where it started.
        store.edit_tracker(tracker, &edit(vec![]), 11).await.unwrap();
        assert!(hark_ingest::reanalysis::run_next_with(&store, 1).await.unwrap());
        assert_eq!(store.sentiment_counts_both_ways(tracker).await.unwrap(), (rollups_before, links_before), "{b:?}");
    }
}

#[tokio::test]
async fn a_new_sentiment_model_scores_stored_posts_again_and_moves_each_count_once() {
    use hark_core::Bucket;
    use hark_ingest::sentiment_model::run_with;
    for b in backends() {
        let db = TestDb::new(b).await;
        let store = db.store().await;
        let mut c = criteria(&["coffee"]);
        c.sentiment_keywords.negative = vec!["decaf".into()];
        let tracker = setup_with(&store, c.clone()).await;
        let matcher = Arc::new(compile(&[(tracker, serde_json::to_string(&c).unwrap())]).unwrap());
        let texts = [
            "This coffee is wonderful, I love it!",
            "The coffee was awful, worst service ever",
            "Coffee order at noon for the meeting",
            "Decaf coffee is wonderful and I love it",
            "Le café est magnifique, coffee délicieux et parfait",
        ];
        let posts: Vec<Post> = (0..40)
            .map(|i| post(&i.to_string(), texts[i as usize % texts.len()], 1_700_000_000_000 + i * 3_600_000))
            .collect();
        // The posts as an older model stored them: every one neutral.
        let mut records = prepare(&matcher, &posts);
        let fresh: std::collections::HashMap<String, (f64, Bucket)> =
            records.iter().map(|r| (r.text.clone(), (r.sentiment, r.sentiment_bucket))).collect();
        assert!(fresh.values().any(|(_, b)| *b != Bucket::Neutral), "the test needs posts that move");
        for r in &mut records {
            r.sentiment = 0.0;
            r.sentiment_bucket = Bucket::Neutral;
        }
        store.ingest_batch(&records, 5).await.unwrap();
        let stored = store.sentiment_model_page(0, i64::MAX, 1_000).await.unwrap();
        assert_eq!(stored.len(), 40);
        // A manual edit on the first post wins over any model.
        store.edit_sentiment(tracker, stored[0].id, "slight_negative").await.unwrap();
        let (rollups, links) = store.sentiment_counts_both_ways(tracker).await.unwrap();
        assert_eq!(rollups, links, "{b:?}");

        assert!(run_with(&store, "test-model", 7).await.unwrap(), "{b:?}");
        let state = store.sentiment_model_state().await.unwrap();
        assert_eq!(state.version.as_deref(), Some("test-model"), "{b:?}");
        assert!(!state.running());
        assert_eq!((state.processed, state.total), (40, 40), "{b:?}");
        // Stored scores are the model's now.
        for p in store.sentiment_model_page(0, i64::MAX, 1_000).await.unwrap() {
            let (score, bucket) = fresh[&p.text];
            assert!((p.sentiment.unwrap() - score).abs() < 1e-12, "{b:?}: {}", p.text);
            assert_eq!(p.sentiment_bucket.as_deref(), Some(bucket.as_str()), "{b:?}: {}", p.text);
        }
        // Shown buckets: the manual edit, else the keyword list ("decaf" is negative), else the model.
        let mut expected: std::collections::BTreeMap<String, i64> = Default::default();
        for (i, p) in stored.iter().enumerate() {
            let shown = if i == 0 {
                "slight_negative"
            } else if p.text.contains("Decaf") {
                "negative"
            } else {
                fresh[&p.text].1.as_str()
            };
            *expected.entry(shown.to_string()).or_default() += 1;
        }
        let (rollups, links) = store.sentiment_counts_both_ways(tracker).await.unwrap();
        assert_eq!(links, expected, "{b:?}");
        assert_eq!(rollups, links, "{b:?}: the rollups moved with the links");
        // The same model again: nothing to do; another label with the same scores moves nothing.
        assert!(!run_with(&store, "test-model", 7).await.unwrap());
        assert!(run_with(&store, "test-model-2", 100).await.unwrap());
        let state = store.sentiment_model_state().await.unwrap();
        assert_eq!((state.changed, state.processed), (0, 40), "{b:?}");
        assert_eq!(store.sentiment_counts_both_ways(tracker).await.unwrap(), (links.clone(), links), "{b:?}");
    }
}

#[tokio::test]
async fn a_sentiment_model_run_on_an_empty_store_only_records_the_version() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let store = db.store().await;
        assert_eq!(store.sentiment_model_state().await.unwrap().version, None);
        assert!(!hark_ingest::sentiment_model::run(&store).await.unwrap());
        let state = store.sentiment_model_state().await.unwrap();
        assert_eq!(state.version.as_deref(), Some(hark_enrich::sentiment::model::VERSION), "{b:?}");
        assert!(!state.running());
    }
}

#[test]
fn rows_helper_is_consistent() {
    // The builder rows a stored search shows match what was parsed.
    let c = criteria(&["a", "b"]);
    assert_eq!(c.search.rows(), vec![SearchRow { kind: SearchRowKind::Include, searches: vec!["a".into(), "b".into()] }]);
}

#[tokio::test]
async fn stored_posts_read_back_as_collected() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let store = db.store().await;
        let tracker = setup(&store, &["coffee", "latte", "espresso", "kestrel"]).await;
        let pipeline = Pipeline::new(store.clone()).await.unwrap();
        let posts: Vec<Post> = DemoGenerator::new(9).generate(1_700_000_000_000, 1_700_500_000_000, 3_000).collect();
        pipeline.ingest(posts.clone(), 5).await.unwrap();
        let stored = store.tracker_posts_page(tracker, 0, 10_000).await.unwrap();
        assert!(stored.len() > 300, "{b:?}: {}", stored.len());
        // The last copy of a key is the one kept.
        let by_key: std::collections::HashMap<(Platform, String), &Post> =
            posts.iter().map(|p| ((p.platform, p.id.clone()), p)).collect();
        let mut with_media = 0;
        for s in stored {
            let back = s.row.into_post().unwrap();
            let mut original = by_key[&(back.platform, back.id.clone())].clone();
            original.raw = None;
            with_media += usize::from(!back.media.is_empty());
            assert_eq!(back, original, "{b:?}");
        }
        assert!(with_media > 0, "the sample includes media");
    }
}

#[tokio::test]
async fn a_repeat_moves_engagement_by_the_difference() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let store = db.store().await;
        let tracker = setup(&store, &["coffee"]).await;
        let pipeline = Pipeline::new(store.clone()).await.unwrap();
        let first = post("1", "coffee time", 1_700_000_000_000);
        let engagement = store_engagement(&pipeline, &store, tracker, first.clone(), 5).await;
        let mut later = first.clone();
        later.counts.likes = Some(40);
        let stats = pipeline.ingest(vec![later.clone()], 6).await.unwrap();
        assert_eq!((stats.new_posts, stats.updated_posts, stats.new_links), (0, 1, 0), "{b:?}");
        assert_eq!(store.rollup_totals(tracker).await.unwrap(), (1, engagement + 37), "{b:?}");
        // The stored counts are the latest ones.
        let back = store.tracker_posts_page(tracker, 0, 10).await.unwrap().remove(0).row.into_post().unwrap();
        assert_eq!(back.counts.likes, Some(40));
    }
}

async fn store_engagement(pipeline: &Pipeline, store: &Store, tracker: i64, p: Post, now: i64) -> i64 {
    let stats = pipeline.ingest(vec![p], now).await.unwrap();
    assert_eq!((stats.new_posts, stats.updated_posts, stats.new_links), (1, 0, 1));
    store.rollup_totals(tracker).await.unwrap().1
}

#[tokio::test]
async fn posts_a_platform_found_for_a_tracker_join_it_as_indirect_matches() {
    for b in backends() {
        let db = TestDb::new(b).await;
        let store = db.store().await;
        let mut c = criteria(&["coffee"]);
        c.search.exclude = vec!["decaf".into()];
        let tracker = setup_with(&store, c).await;
        let matcher = Arc::new(compile(&store.running_trackers().await.unwrap()).unwrap());
        let posts = vec![
            post("1", "Morning coffee", 1_700_000_000_000),
            post("2", "A long walk in the hills", 1_700_000_100_000),
            post("3", "Switched to decaf today", 1_700_000_200_000),
        ];
        // Collected by a source that lists everything: only the direct match joins.
        ingest_with(&store, matcher.clone(), posts.clone(), 5).await.unwrap();
        assert_eq!(store.count_tracker_posts(tracker, &all()).await.unwrap(), 1, "{b:?}");
        // Returned by the platform's own search for this tracker: the walk joins as indirect;
        // the post with an exclude term stays out.
        let stats = hark_ingest::pipeline::ingest_searched(&store, matcher, posts, 6, Some(tracker)).await.unwrap();
        assert_eq!(stats.new_links, 1);
        assert_eq!(store.count_tracker_posts(tracker, &all()).await.unwrap(), 2);
        assert_eq!(store.rollup_totals(tracker).await.unwrap().0, 2, "the rollups count it");
        let ids = store.tracker_post_ids(tracker, &["twitter;1".into(), "twitter;2".into()]).await.unwrap();
        let indirect = store.indirect_matches(tracker, &ids).await.unwrap();
        assert_eq!(indirect.len(), 1);
        let walk = store.tracker_post_ids(tracker, &["twitter;2".into()]).await.unwrap()[0];
        assert!(indirect.contains(&walk));
    }
}

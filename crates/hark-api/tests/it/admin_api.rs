//! The instance administrator's accounts page: listing, plans, trials and limits; on SQLite and
//! (when configured) PostgreSQL.

use hark_testkit::{each_app as each, send};
use serde_json::json;

#[tokio::test]
async fn the_administrator_lists_accounts_and_sets_their_plans() {
    each(|app| async move {
        app.setup_admin().await;
        app.create_tracker("nike").await;
        let (bob, bob_csrf) = {
            let t = app.create_tracker("adidas").await;
            app.member_browser(t["hash"].as_str().unwrap(), "bob@example.org", hark_core::Permission::Viewer).await
        };
        // Bob is no administrator: 403 everywhere here.
        assert_eq!(send(bob.get(app.url("/api/v1/admin/users"))).await.status, 403);
        assert_eq!(send(bob.get(app.url("/api/v1/admin/plans"))).await.status, 403);
        let bob_id = app.store.user_by_email("bob@example.org").await.unwrap().unwrap().id;
        let r = send(bob.patch(app.url(&format!("/api/v1/admin/users/{bob_id}"))).header("X-CSRF-Token", &bob_csrf).json(&json!({"plan": 100}))).await;
        assert_eq!(r.status, 403);

        let plans = app.get("/api/v1/admin/plans").await;
        assert_eq!(plans.body["trialDays"], 14);
        let p15 = plans.body["plans"].as_array().unwrap().iter().find(|p| p["number"] == 15).unwrap().clone();
        assert_eq!((p15["xls"].as_bool(), p15["linkSharing"].as_bool()), (Some(false), Some(false)));

        let list = app.get("/api/v1/admin/users").await;
        assert_eq!(list.body["total"], 2);
        assert_eq!(list.body["accounts"][0]["email"], "admin@example.org");
        assert_eq!(list.body["accounts"][0]["trackers"], 2);
        assert_eq!(list.body["accounts"][0]["isAdmin"], true);
        assert_eq!(list.body["accounts"][1]["trackers"], 0);
        let found = app.get("/api/v1/admin/users?search=BOB").await;
        assert_eq!((found.body["total"].as_i64(), found.body["accounts"][0]["email"].as_str()), (Some(1), Some("bob@example.org")));
        assert_eq!(app.get("/api/v1/admin/users?search=%25").await.body["total"], 0, "a % is a character, not a wildcard");
        assert_eq!(app.get("/api/v1/admin/users?perPage=0").await.status, 400);

        // An account whose address holds another's is edited and answered as itself.
        let long = app.store.create_user(&hark_testkit::new_user("xbob@example.org"), 1).await.unwrap();
        let short = app.store.create_user(&hark_testkit::new_user("b@example.org"), 1).await.unwrap();
        assert!(long.id < short.id);
        let r = app.send_json("PATCH", &format!("/api/v1/admin/users/{}", short.id), json!({"maxIgnored": 7})).await;
        assert_eq!((r.status, r.body["email"].as_str(), r.body["maxIgnored"].as_i64()), (200, Some("b@example.org"), Some(7)), "{:?}", r.body);

        // A plan of the catalogue brings its limits; Bob's answers follow.
        let r = app.send_json("PATCH", &format!("/api/v1/admin/users/{bob_id}"), json!({"plan": 15})).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!((r.body["plan"].as_i64(), r.body["planName"].as_str(), r.body["maxSearches"].as_i64()), (Some(15), Some("Individual"), Some(5)));
        let me = send(bob.get(app.url("/api/v1/me"))).await;
        assert_eq!((me.body["plan"].as_i64(), me.body["features"]["xls"].as_bool(), me.body["features"]["linkSharing"].as_bool()), (Some(15), Some(false), Some(false)));
        // A trial of 3 days, then one that has ended.
        let r = app.send_json("PATCH", &format!("/api/v1/admin/users/{bob_id}"), json!({"trialDays": 3})).await;
        assert_eq!((r.body["trial"].as_bool(), r.body["trialExpired"].as_bool()), (Some(true), Some(false)));
        app.store.set_trial(bob_id, true, Some(1)).await.unwrap();
        let me = send(bob.get(app.url("/api/v1/me"))).await;
        assert_eq!(me.body["trialExpired"], true);
        let r = app.send_json("PATCH", &format!("/api/v1/admin/users/{bob_id}"), json!({"trial": false, "maxSearches": 12})).await;
        assert_eq!((r.body["trial"].as_bool(), r.body["trialExpires"].is_null(), r.body["maxSearches"].as_i64()), (Some(false), true, Some(12)));

        // Bad input changes nothing.
        for (body, code) in [
            (json!({"plan": 7}), "invalid_choice"),
            (json!({"trialDays": 0}), "validation_failed"),
            (json!({"maxSearches": 0}), "validation_failed"),
            (json!({"maxIgnored": -1}), "validation_failed"),
        ] {
            let r = app.send_json("PATCH", &format!("/api/v1/admin/users/{bob_id}"), body.clone()).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some(code)), "{body}");
        }
        let r = app.send_json("PATCH", &format!("/api/v1/admin/users/{bob_id}"), json!({"colour": 1})).await;
        assert_eq!(r.status, 400);
        let now = app.get("/api/v1/admin/users?search=bob").await;
        assert_eq!((now.body["accounts"][0]["plan"].as_i64(), now.body["accounts"][0]["maxSearches"].as_i64()), (Some(15), Some(12)));
        assert_eq!(app.send_json("PATCH", "/api/v1/admin/users/999999", json!({"plan": 15})).await.status, 404);
        // An administrator cannot take their own rights; they can give them.
        let admin_id = app.store.user_by_email("admin@example.org").await.unwrap().unwrap().id;
        let r = app.send_json("PATCH", &format!("/api/v1/admin/users/{admin_id}"), json!({"isAdmin": false})).await;
        assert_eq!(r.status, 422);
        let r = app.send_json("PATCH", &format!("/api/v1/admin/users/{bob_id}"), json!({"isAdmin": true})).await;
        assert_eq!(r.body["isAdmin"], true);
        assert_eq!(send(bob.get(app.url("/api/v1/admin/users"))).await.status, 200);
    })
    .await;
}

#[tokio::test]
async fn a_tracker_whose_owners_trial_ended_is_locked_and_stops_collecting() {
    each(|app| async move {
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        let share = app.get(&format!("/api/v1/trackers/{hash}/share")).await.body["shareHash"].as_str().unwrap().to_string();
        let (bob, _) = app.member_browser(&hash, "bob@example.org", hark_core::Permission::Viewer).await;
        let (carol, _) = app.member_browser(&hash, "carol@example.org", hark_core::Permission::Viewer).await;
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        let bob_id = app.store.user_by_email("bob@example.org").await.unwrap().unwrap().id;
        app.store.transfer_ownership(row.id, row.owner_id, bob_id, 1, None).await.unwrap();
        let anonymous = app.new_browser().0;
        let share_read = format!("/api/v1/trackers/{hash}?shareHash={share}");
        let read = format!("/api/v1/trackers/{hash}");
        assert_eq!(send(bob.get(app.url(&read))).await.status, 200);
        assert_eq!(send(anonymous.get(app.url(&share_read))).await.status, 200);

        // Bob's trial ends: his tracker is locked for him, its members and its share link.
        app.store.set_trial(bob_id, true, Some(1)).await.unwrap();
        let r = send(bob.get(app.url(&read))).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (403, Some("trial_expired")), "{:?}", r.body);
        assert_eq!(r.body["error"]["message"], "Your 14-Day Trial has expired. Upgrade now to access your trackers.");
        let r = send(carol.get(app.url(&format!("{read}/posts")))).await;
        assert_eq!((r.status, r.body["error"]["message"].as_str()), (403, Some("This tracker is locked: its owner's trial has expired.")));
        let r = send(anonymous.get(app.url(&share_read))).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (403, Some("trial_expired")));
        // The instance administrator still sees it; nothing collects for it.
        assert_eq!(app.get(&read).await.status, 200);
        assert!(!app.store.collectable_trackers().await.unwrap().iter().any(|(id, _)| *id == row.id));

        // Moved to a plan, Bob has it back.
        let r = app.send_json("PATCH", &format!("/api/v1/admin/users/{bob_id}"), json!({"trial": false, "plan": 35})).await;
        assert_eq!(r.status, 200);
        assert_eq!(send(bob.get(app.url(&read))).await.status, 200);
        assert_eq!(send(anonymous.get(app.url(&share_read))).await.status, 200);
        assert!(app.store.collectable_trackers().await.unwrap().iter().any(|(id, _)| *id == row.id));
    })
    .await;
}

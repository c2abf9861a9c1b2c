//! A tracker's team: members and their ranks, invitations that become accounts, the transfer of
//! ownership; on SQLite and (when configured) PostgreSQL.

use hark_testkit::{csrf_of, each_app as each, send};
use serde_json::json;

#[tokio::test]
async fn invitations_become_members_whose_rank_is_enforced() {
    each(|app| async move {
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        let members = format!("/api/v1/trackers/{hash}/members");

        // Bad input changes nothing.
        for (body, code) in [
            (json!({"email": "not an address", "permission": 1}), "invalid_email"),
            (json!({"email": "x@example.org", "permission": 4}), "invalid_choice"),
            (json!({"email": "x@example.org", "permission": 0}), "invalid_choice"),
            (json!({"email": "admin@example.org", "permission": 1}), "invalid_choice"),
        ] {
            let r = app.post(&members, body.clone()).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some(code)), "{body}");
        }
        let team = app.get(&members).await;
        assert_eq!(team.status, 200);
        assert_eq!(team.body["owner"]["email"], "admin@example.org");
        assert_eq!(team.body["members"], json!([]));
        assert_eq!(team.body["invitations"], json!([]));
        assert_eq!(team.body["canTransfer"], true);

        // An address without an account: an invitation and its sign-up link.
        let r = app.post(&members, json!({"email": " Vera@Example.org ", "permission": 1})).await;
        assert_eq!(r.status, 201, "{:?}", r.body);
        assert!(r.body["member"].is_null());
        assert_eq!(r.body["invitation"]["email"], "vera@example.org");
        let link = r.body["link"].as_str().unwrap().to_string();
        let token = link.strip_prefix("/join/").expect("join link").to_string();
        let anon = app.new_browser();
        let csrf = csrf_of(&anon.0, &anon.1, &app.base).await;
        let view = send(anon.0.get(app.url(&format!("/api/v1/invitations/{token}")))).await;
        assert_eq!(view.status, 200, "{:?}", view.body);
        assert_eq!(view.body["email"], "vera@example.org");
        assert_eq!(view.body["trackerTitle"], t["title"]);
        assert_eq!(view.body["invitedBy"], "Ada");
        assert_eq!(view.body["hasAccount"], false);
        assert_eq!(send(anon.0.get(app.url("/api/v1/invitations/nosuchtoken"))).await.status, 404);
        // A short password is refused and the invitation stays.
        let short = send(anon.0.post(app.url(&format!("/api/v1/invitations/{token}/accept"))).header("X-CSRF-Token", &csrf).json(&json!({"name": "Vera", "password": "short"}))).await;
        assert_eq!((short.status, short.body["error"]["code"].as_str()), (422, Some("invalid_password")));
        let accepted = send(anon.0.post(app.url(&format!("/api/v1/invitations/{token}/accept"))).header("X-CSRF-Token", &csrf).json(&json!({"name": "Vera", "password": "password123"}))).await;
        assert_eq!(accepted.status, 200, "{:?}", accepted.body);
        assert_eq!(accepted.body["isLoggedIn"], true);
        assert_eq!(accepted.body["email"], "vera@example.org");
        // The link is spent.
        assert_eq!(send(anon.0.get(app.url(&format!("/api/v1/invitations/{token}")))).await.status, 404);

        // Vera reads as a viewer and cannot edit.
        let vera = anon.0;
        let csrf = csrf_of(&vera, &anon.1, &app.base).await;
        let seen = send(vera.get(app.url(&format!("/api/v1/trackers/{hash}")))).await;
        assert_eq!((seen.status, seen.body["permission"].as_i64()), (200, Some(1)));
        let patch = json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["vera"]}]}});
        let edit = send(vera.patch(app.url(&format!("/api/v1/trackers/{hash}"))).header("X-CSRF-Token", &csrf).json(&patch)).await;
        assert_eq!(edit.status, 403);
        assert_eq!(send(vera.get(app.url(&members))).await.status, 403, "a viewer does not manage the team");

        // Made an editor, she may.
        let team = app.get(&members).await;
        let vera_id = team.body["members"][0]["userId"].as_i64().unwrap();
        assert_eq!(team.body["members"][0]["permission"], 1);
        assert_eq!(team.body["invitations"], json!([]));
        let r = app.send_json("PATCH", &format!("{members}/{vera_id}"), json!({"permission": 2})).await;
        assert_eq!((r.status, r.body["permission"].as_i64()), (200, Some(2)));
        let edit = send(vera.patch(app.url(&format!("/api/v1/trackers/{hash}"))).header("X-CSRF-Token", &csrf).json(&patch)).await;
        assert_eq!(edit.status, 200, "{:?}", edit.body);
        assert_eq!(app.send_json("PATCH", &format!("{members}/{vera_id}"), json!({"permission": 9})).await.status, 422);
        assert_eq!(app.send_json("PATCH", &format!("{members}/999999"), json!({"permission": 1})).await.status, 404);

        // An account already on the team; an address with an account joins at once.
        let again = app.post(&members, json!({"email": "vera@example.org", "permission": 3})).await;
        assert_eq!((again.status, again.body["error"]["code"].as_str()), (409, Some("conflict")));
        app.store.create_user(&hark_testkit::new_user("max@example.org"), 1).await.unwrap();
        let max = app.post(&members, json!({"email": "max@example.org", "permission": 3})).await;
        assert_eq!(max.status, 201);
        assert_eq!(max.body["member"]["permission"], 3);
        assert!(max.body["link"].is_null());

        // Removed, Vera no longer sees the tracker.
        assert_eq!(app.delete(&format!("{members}/{vera_id}")).await.status, 204);
        assert_eq!(send(vera.get(app.url(&format!("/api/v1/trackers/{hash}")))).await.status, 404);
        assert_eq!(app.delete(&format!("{members}/{vera_id}")).await.status, 404);
    })
    .await;
}

#[tokio::test]
async fn invitations_are_withdrawn_replaced_and_kept_to_their_address() {
    each(|app| async move {
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        let members = format!("/api/v1/trackers/{hash}/members");
        let first = app.post(&members, json!({"email": "zoe@example.org", "permission": 1})).await;
        let second = app.post(&members, json!({"email": "zoe@example.org", "permission": 2})).await;
        assert_eq!(second.status, 201);
        let (old, new) = (first.body["link"].as_str().unwrap().to_string(), second.body["link"].as_str().unwrap().to_string());
        // The second replaces the first.
        assert_eq!(app.get(&format!("/api/v1/invitations/{}", old.trim_start_matches("/join/"))).await.status, 404);
        let team = app.get(&members).await;
        assert_eq!(team.body["invitations"].as_array().unwrap().len(), 1);
        assert_eq!(team.body["invitations"][0]["permission"], 2);
        // Signed in with another address, the link cannot be used.
        let token = new.trim_start_matches("/join/").to_string();
        let r = app.post(&format!("/api/v1/invitations/{token}/accept"), json!({})).await;
        assert_eq!(r.status, 403, "{:?}", r.body);
        // Withdrawn: the link is dead.
        let id = team.body["invitations"][0]["id"].as_i64().unwrap();
        assert_eq!(app.delete(&format!("/api/v1/trackers/{hash}/invitations/{id}")).await.status, 204);
        assert_eq!(app.get(&format!("/api/v1/invitations/{token}")).await.status, 404);
        assert_eq!(app.delete(&format!("/api/v1/trackers/{hash}/invitations/{id}")).await.status, 404);
        // An address that has an account by the time the link is opened signs in instead.
        let third = app.post(&members, json!({"email": "sam@example.org", "permission": 1})).await;
        let token = third.body["link"].as_str().unwrap().trim_start_matches("/join/").to_string();
        app.store.create_user(&hark_testkit::new_user("sam@example.org"), 1).await.unwrap();
        let (anon, jar) = app.new_browser();
        let csrf = csrf_of(&anon, &jar, &app.base).await;
        assert_eq!(send(anon.get(app.url(&format!("/api/v1/invitations/{token}")))).await.body["hasAccount"], true);
        let r = send(anon.post(app.url(&format!("/api/v1/invitations/{token}/accept"))).header("X-CSRF-Token", &csrf).json(&json!({"name": "Sam", "password": "password123"}))).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (409, Some("conflict")));
    })
    .await;
}

#[tokio::test]
async fn the_owner_hands_the_tracker_on_and_stays_an_administrator() {
    each(|app| async move {
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        let (bob, bob_csrf) = app.member_browser(&hash, "bob@example.org", hark_core::Permission::Administrator).await;
        let members = format!("/api/v1/trackers/{hash}/members");
        let bob_id = app.store.user_by_email("bob@example.org").await.unwrap().unwrap().id;
        // An administrator manages the team but cannot hand the tracker on.
        let team = send(bob.get(app.url(&members))).await;
        assert_eq!((team.status, team.body["canTransfer"].as_bool()), (200, Some(false)));
        let r = send(bob.post(app.url(&format!("/api/v1/trackers/{hash}/owner"))).header("X-CSRF-Token", &bob_csrf).json(&json!({"userId": bob_id}))).await;
        assert_eq!(r.status, 403);
        // Only to a member.
        assert_eq!(app.post(&format!("/api/v1/trackers/{hash}/owner"), json!({"userId": 999999})).await.status, 404);
        let r = app.post(&format!("/api/v1/trackers/{hash}/owner"), json!({"userId": bob_id})).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["owner"]["email"], "bob@example.org");
        assert_eq!(r.body["members"][0]["email"], "admin@example.org");
        assert_eq!(r.body["members"][0]["permission"], 3);
        let seen = send(bob.get(app.url(&format!("/api/v1/trackers/{hash}")))).await;
        assert_eq!((seen.body["permission"].as_i64(), seen.body["isOwner"].as_bool()), (Some(4), Some(true)));
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}")).await.body["isOwner"], false);
    })
    .await;
}

#[tokio::test]
async fn invitations_and_notices_go_out_by_email() {
    let smtp = hark_testkit::SmtpServer::start();
    for backend in hark_testkit::backends() {
        let config = hark_api::ApiConfig {
            mail: Some(hark_api::mail::MailConfig { smtp_url: smtp.url.clone(), from: "Hark <hark@example.org>".into() }),
            public_url: Some("https://hark.example.org".into()),
            ..Default::default()
        };
        let app = hark_testkit::TestApp::spawn_with(backend, config).await;
        app.setup_admin().await;
        let t = app.create_tracker("nike").await;
        let hash = t["hash"].as_str().unwrap().to_string();
        let before = smtp.messages().len();
        let r = app.post(&format!("/api/v1/trackers/{hash}/members"), json!({"email": "newbie@example.org", "permission": 2})).await;
        assert_eq!((r.status, r.body["emailed"].as_bool()), (201, Some(true)), "{:?}", r.body);
        let link = r.body["link"].as_str().unwrap().to_string();
        app.store.create_user(&hark_testkit::new_user("known@example.org"), 1).await.unwrap();
        let r = app.post(&format!("/api/v1/trackers/{hash}/members"), json!({"email": "known@example.org", "permission": 1})).await;
        assert_eq!((r.status, r.body["emailed"].as_bool()), (201, Some(true)));
        let mail = smtp.wait_for(before + 2).await;
        let sent = &mail[before..];
        assert_eq!(sent.len(), 2);
        let invite = sent.iter().find(|m| m.to == ["newbie@example.org"]).expect("invitation mail");
        let body = invite.data.replace("=\r\n", "").replace("=3D", "=");
        assert!(body.contains(&format!("https://hark.example.org{link}")), "{body}");
        assert!(body.contains("as an editor"), "{body}");
        let notice = sent.iter().find(|m| m.to == ["known@example.org"]).expect("notice mail");
        assert!(notice.data.replace("=\r\n", "").replace("=3D", "=").contains(&format!("https://hark.example.org/hashtag-tracking/dashboard/{hash}/")), "{}", notice.data);
    }
}

//! The authorization matrix: every route of the OpenAPI document, called by every kind of caller
//! (signed out, through the share link with each of its toggles, with a chart's embed key, an
//! account without access, a viewer, an editor, a tracker administrator, the owner and the
//! instance administrator) on trackers with and without shared exports, answers as the roles
//! tables say. A route the
//! document lists without a rule here, or a rule for a route it does not list, fails the test.

use std::collections::BTreeSet;

use hark_core::Permission;
use hark_store::ShareSettings;
use hark_testkit::{backends, csrf_of, send, Response, SmtpServer, TestApp};
use serde_json::{json, Value};

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Anyone, signed in or not.
    Public,
    /// Any account.
    SignedIn,
    /// The instance administrator.
    InstanceAdmin,
    /// A tracker's viewers and above, and the share link.
    Read,
    /// As `Read`; the share link only with 'View predictions'.
    Prediction,
    /// Owner and administrators; viewers when the tracker shares exports; the share link only
    /// with 'Export reports'.
    Export,
    /// A tracker's viewers and above, not the share link.
    Member,
    /// Editors and above.
    Editor,
    /// Tracker administrators, the owner and the instance administrator.
    Admin,
    /// As `Admin`, and the media wall's moderation key (its own test); the share link reads the
    /// tracker but may not moderate.
    Moderate,
    /// The tracker's owner alone.
    Owner,
}

/// One route: its rule, a query, and a body that passes validation where one is needed (so the
/// answer is about the caller, not the input).
struct Route {
    method: &'static str,
    path: &'static str,
    rule: Rule,
    query: &'static str,
    body: Option<Value>,
}

fn routes() -> Vec<Route> {
    use Rule::*;
    let r = |method, path, rule| Route { method, path, rule, query: "", body: None };
    let b = |method, path, rule, body: Value| Route { method, path, rule, query: "", body: Some(body) };
    let q = |method, path, rule, query| Route { method, path, rule, query, body: None };
    let search = json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["nike"]}]}});
    let mut edit = search.clone();
    edit["mode"] = json!("future");
    vec![
        r("get", "/api/v1/health", Public),
        r("get", "/healthz", Public),
        r("get", "/api/v1/setup", Public),
        b("post", "/api/v1/setup", Public, json!({"email": "late@example.org", "password": "password123", "name": "Late"})),
        b("post", "/api/v1/auth/login", Public, json!({"email": "nobody@example.org", "password": "wrong-password"})),
        r("get", "/api/v1/me", Public),
        r("get", "/api/v1/demo", Public),
        r("get", "/api/v1/trackers", SignedIn),
        b("post", "/api/v1/trackers", SignedIn, search.clone()),
        r("get", "/api/v1/influencer-tags", SignedIn),
        b("post", "/api/v1/influencer-tags", SignedIn, json!({"name": "matrix"})),
        b("patch", "/api/v1/influencer-tags/{id}", SignedIn, json!({"name": "matrix renamed"})),
        r("delete", "/api/v1/influencer-tags/{id}", SignedIn),
        r("get", "/api/v1/admin/connectors", InstanceAdmin),
        r("get", "/api/v1/admin/plans", InstanceAdmin),
        r("get", "/api/v1/admin/integrations/google-sheets", InstanceAdmin),
        // No key is set: the administrator's answer is 422 (upload one), past the caller check.
        b("put", "/api/v1/admin/integrations/google-sheets", InstanceAdmin, json!({"apiBase": "http://127.0.0.1:9"})),
        r("delete", "/api/v1/admin/integrations/google-sheets", InstanceAdmin),
        r("post", "/api/v1/admin/integrations/google-sheets/check", InstanceAdmin),
        r("get", "/api/v1/exports/capabilities", Public),
        q("get", "/api/v1/admin/users", InstanceAdmin, "search=example"),
        b("patch", "/api/v1/admin/users/{id}", InstanceAdmin, json!({"plan": 100})),
        b("put", "/api/v1/admin/connectors/{name}", InstanceAdmin, json!({"enabled": false})),
        r("post", "/api/v1/admin/connectors/{name}/check", InstanceAdmin),
        r("get", "/api/v1/trackers/{hash}", Read),
        r("get", "/api/v1/trackers/{hash}/total-posts", Read),
        r("get", "/api/v1/trackers/{hash}/tags", Read),
        r("get", "/api/v1/trackers/{hash}/stats", Read),
        r("get", "/api/v1/trackers/{hash}/posts", Read),
        r("get", "/api/v1/trackers/{hash}/influencers", Read),
        q("get", "/api/v1/trackers/{hash}/influencers/posts", Read, "account=twitter%3Bsomeone"),
        r("get", "/api/v1/trackers/{hash}/topics", Read),
        q("get", "/api/v1/trackers/{hash}/topics/series", Read, "topic=word%3Bnike"),
        q("get", "/api/v1/trackers/{hash}/topics/posts", Read, "topic=word%3Bnike"),
        r("get", "/api/v1/trackers/{hash}/sentiment", Read),
        r("get", "/api/v1/trackers/{hash}/sentiment/keywords", Read),
        r("get", "/api/v1/trackers/{hash}/media-wall", Read),
        b("put", "/api/v1/trackers/{hash}/media-wall/settings", Admin, json!({})),
        b("put", "/api/v1/trackers/{hash}/media-wall/moderation", Moderate, json!({"enabled": false})),
        b("post", "/api/v1/trackers/{hash}/media-wall/visibility", Moderate, json!({"posts": ["twitter;1"], "visibility": 1})),
        r("get", "/api/v1/trackers/{hash}/media-wall/moderation-link", Admin),
        r("post", "/api/v1/trackers/{hash}/media-wall/moderation-link", Admin),
        r("get", "/api/v1/trackers/{hash}/dashboard/top-stats", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/timeline", Read),
        q("get", "/api/v1/trackers/{hash}/dashboard/timeline", Export, "format=csv&grouping=day"),
        r("get", "/api/v1/trackers/{hash}/dashboard/locations", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/sentiments", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/devices", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/genders", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/post-types", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/viewer-sentiments", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/influencers", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/topics", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/top-pages", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/top-posts", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/posts", Read),
        r("get", "/api/v1/trackers/{hash}/dashboard/prediction", Prediction),
        r("get", "/api/v1/trackers/{hash}/posts/export.csv", Export),
        r("get", "/api/v1/trackers/{hash}/influencers/export.csv", Export),
        q("get", "/api/v1/trackers/{hash}/embed", Export, "chart=timeline"),
        Route { method: "post", path: "/api/v1/trackers/{hash}/exports", rule: Export, query: "days=30", body: Some(json!({"kind": "xlsx", "source": "posts"})) },
        r("get", "/api/v1/trackers/{hash}/exports", Read),
        // A job is read by its unguessable token; a token that names none is not found, whoever asks.
        r("get", "/api/v1/exports/{token}", Public),
        r("get", "/api/v1/exports/sample.xlsx", Public),
        r("get", "/export/hashtag/{filename}", Public),
        r("get", "/api/v1/trackers/{hash}/logs", Member),
        b("patch", "/api/v1/trackers/{hash}", Editor, edit),
        r("get", "/api/v1/trackers/{hash}/collection", Editor),
        r("post", "/api/v1/trackers/{hash}/collection/run", Editor),
        q("get", "/api/v1/trackers/{hash}/backfill/estimate", Editor, "start=2026-01-01&end=2026-01-02"),
        b("post", "/api/v1/trackers/{hash}/backfill", Editor, json!({"start": "2026-01-01", "end": "2026-01-02"})),
        r("get", "/api/v1/trackers/{hash}/preview/stream", Editor),
        r("post", "/api/v1/trackers/{hash}/preview/sample", Editor),
        r("post", "/api/v1/trackers/{hash}/preview/end", Editor),
        r("get", "/api/v1/trackers/{hash}/preview/estimate", Editor),
        r("post", "/api/v1/trackers/{hash}/pause", Admin),
        r("post", "/api/v1/trackers/{hash}/restart", Admin),
        b("put", "/api/v1/trackers/{hash}/hide-auth-metrics", Admin, json!({"hidden": false})),
        b("put", "/api/v1/trackers/{hash}/anonymize-facebook", Admin, json!({"enabled": false})),
        b("put", "/api/v1/trackers/{hash}/custom-config", Admin, json!({"order": [], "columns": 2})),
        b("put", "/api/v1/trackers/{hash}/sentiment-keywords", Admin, json!({"positive": [], "neutral": [], "negative": [], "reanalyze": false})),
        Route { method: "post", path: "/api/v1/trackers/{hash}/import", rule: Admin, query: "format=ndjson", body: None },
        b("post", "/api/v1/trackers/{hash}/tags", Admin, json!({"name": "matrix"})),
        b("patch", "/api/v1/trackers/{hash}/tags/{id}", Admin, json!({"name": "matrix renamed"})),
        r("delete", "/api/v1/trackers/{hash}/tags/{id}", Admin),
        b("put", "/api/v1/trackers/{hash}/influencers/tags", Admin, json!({"accounts": [], "add": [], "remove": []})),
        b("put", "/api/v1/trackers/{hash}/posts/tags", Admin, json!({"posts": [], "add": [], "remove": []})),
        b("put", "/api/v1/trackers/{hash}/posts/sentiment", Admin, json!({"post": "twitter;1", "sentiment": "positive"})),
        b("post", "/api/v1/trackers/{hash}/posts/delete", Admin, json!({"posts": []})),
        b("post", "/api/v1/trackers/{hash}/posts/undo-delete", Admin, json!({"posts": []})),
        b("post", "/api/v1/trackers/{hash}/ignored-users", Admin, json!({"users": []})),
        b("post", "/api/v1/trackers/{hash}/ignored-users/undo", Admin, json!({"users": []})),
        b("post", "/api/v1/trackers/{hash}/posts/add", Admin, json!({"urls": ["https://x.com/a/status/1"]})),
        r("get", "/api/v1/trackers/{hash}/share", Admin),
        b("put", "/api/v1/trackers/{hash}/share", Admin, json!({})),
        r("post", "/api/v1/trackers/{hash}/share/revoke", Admin),
        b("post", "/api/v1/trackers/{hash}/share/email", Admin, json!({"emails": "friend@example.org", "query": "days=30"})),
        r("get", "/api/v1/trackers/{hash}/notifications", Admin),
        b("put", "/api/v1/trackers/{hash}/notifications", Admin, serde_json::to_value(hark_core::notify::NotificationSettings::defaults("owner@example.org")).expect("settings")),
        b("post", "/api/v1/trackers/{hash}/notifications/test", Admin, json!({"destination": "email"})),
        q("get", "/api/v1/trackers/{hash}/notifications/history", Admin, "page=1"),
        q("get", "/api/v1/unsubscribe", Public, "token=nosuchtoken"),
        q("post", "/api/v1/unsubscribe", Public, "token=nosuchtoken"),
        r("get", "/api/v1/trackers/{hash}/members", Admin),
        b("post", "/api/v1/trackers/{hash}/members", Admin, json!({"email": "invitee@example.org", "permission": 1})),
        b("patch", "/api/v1/trackers/{hash}/members/{id}", Admin, json!({"permission": 1})),
        r("delete", "/api/v1/trackers/{hash}/members/{id}", Admin),
        r("delete", "/api/v1/trackers/{hash}/invitations/{id}", Admin),
        r("get", "/api/v1/trackers/{hash}/audit", Admin),
        r("get", "/api/v1/admin/audit", InstanceAdmin),
        r("get", "/api/v1/invitations/{token}", Public),
        b("post", "/api/v1/invitations/{token}/accept", Public, json!({"name": "New", "password": "password123"})),
        // Each caller allowed to hand the tracker on gets a tracker of its own.
        b("post", "/api/v1/trackers/{hash}/owner", Owner, json!({"userId": 0})),
        // Last: deleting a tracker (each caller gets a tracker of its own to delete) and signing
        // out (which ends the caller's session).
        r("delete", "/api/v1/trackers/{hash}", Admin),
        r("post", "/api/v1/auth/logout", Public),
    ]
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    SignedOut,
    ShareLink,
    /// Signed out, holding the embed key of the timeline chart.
    EmbedTimeline,
    NoAccess,
    Viewer,
    Editor,
    Administrator,
    Owner,
    InstanceAdmin,
}

impl Who {
    const ALL: [Who; 9] = [
        Who::SignedOut,
        Who::ShareLink,
        Who::EmbedTimeline,
        Who::NoAccess,
        Who::Viewer,
        Who::Editor,
        Who::Administrator,
        Who::Owner,
        Who::InstanceAdmin,
    ];

    /// The caller's rank on the fixture tracker.
    fn rank(self) -> Option<Permission> {
        match self {
            Who::SignedOut | Who::ShareLink | Who::EmbedTimeline | Who::NoAccess => None,
            Who::Viewer => Some(Permission::Viewer),
            Who::Editor => Some(Permission::Editor),
            Who::Administrator | Who::InstanceAdmin => Some(Permission::Administrator),
            Who::Owner => Some(Permission::Owner),
        }
    }
}

/// A tracker's sharing for one pass of the matrix.
#[derive(Debug, Clone, Copy)]
struct Sharing {
    share_exports: bool,
    edit_date_range: bool,
    export_reports: bool,
    view_predictions: bool,
}

#[derive(Debug, PartialEq, Eq)]
enum Expect {
    /// Past the caller check: any answer but a refusal of the caller or a server error.
    Allowed,
    Denied(u16, &'static str),
    /// A server error, never expected.
    Failed(u16),
}

fn expect(route: &str, rule: Rule, who: Who, s: Sharing) -> Expect {
    use Expect::*;
    let signed_out = matches!(who, Who::SignedOut | Who::ShareLink | Who::EmbedTimeline);
    match rule {
        Rule::Public => Allowed,
        Rule::SignedIn if signed_out => Denied(401, "unauthorized"),
        Rule::SignedIn => Allowed,
        Rule::InstanceAdmin if signed_out => Denied(401, "unauthorized"),
        Rule::InstanceAdmin if who == Who::InstanceAdmin => Allowed,
        Rule::InstanceAdmin => Denied(403, "forbidden"),
        _ if who == Who::SignedOut => Denied(401, "unauthorized"),
        // The timeline's embed key reads the tracker and its timeline, nothing else.
        _ if who == Who::EmbedTimeline => {
            if rule == Rule::Read && ["/api/v1/trackers/{hash}", "/api/v1/trackers/{hash}/dashboard/timeline"].contains(&route) {
                Allowed
            } else {
                Denied(401, "unauthorized")
            }
        }
        _ if who == Who::ShareLink => match rule {
            Rule::Read => Allowed,
            Rule::Prediction if s.view_predictions => Allowed,
            Rule::Export if s.export_reports => Allowed,
            Rule::Prediction | Rule::Export | Rule::Moderate => Denied(403, "forbidden"),
            _ => Denied(401, "unauthorized"),
        },
        _ => {
            let Some(rank) = who.rank() else { return Denied(404, "tracker_not_found") };
            let ok = match rule {
                Rule::Read | Rule::Prediction | Rule::Member => true,
                Rule::Export => rank >= Permission::Administrator || s.share_exports,
                Rule::Editor => rank >= Permission::Editor,
                Rule::Owner => rank == Permission::Owner,
                _ => rank >= Permission::Administrator,
            };
            if ok {
                Allowed
            } else {
                Denied(403, "forbidden")
            }
        }
    }
}

/// A signed-in browser of a new account: the client and its CSRF token.
async fn sign_in(app: &TestApp, email: &str) -> (reqwest::Client, String) {
    let pw = hark_api::auth::hash_password("password123").expect("hash");
    app.store
        .create_user(&hark_api::routes::session::self_hosted_user(email.into(), pw, "M".into(), false), 1)
        .await
        .expect("user");
    let (c, jar) = app.new_browser();
    let token = csrf_of(&c, &jar, &app.base).await;
    let login = send(
        c.post(app.url("/api/v1/auth/login")).header("X-CSRF-Token", &token).json(&json!({"email": email, "password": "password123"})),
    )
    .await;
    assert_eq!(login.status, 200, "sign-in of {email}");
    let token = csrf_of(&c, &jar, &app.base).await;
    (c, token)
}

struct Caller {
    who: Who,
    client: reqwest::Client,
    token: String,
}

struct Fixture {
    hash: String,
    tag: i64,
}

/// A tracker of the owner with the viewer, editor and administrator as members and `s` as its
/// sharing; its share hash is made.
async fn fixture(app: &TestApp, owner: &Caller, members: &[(i64, Permission)], s: Sharing) -> Fixture {
    let body = json!({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["nike"]}]}});
    let r = send(owner.client.post(app.url("/api/v1/trackers")).header("X-CSRF-Token", &owner.token).json(&body)).await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    let hash = r.body["hash"].as_str().expect("hash").to_string();
    let row = app.store.tracker_by_hash(&hash).await.expect("tracker").expect("row");
    for (user, p) in members {
        app.store.set_member(row.id, *user, *p).await.expect("member");
    }
    let link = json!({"editDateRange": s.edit_date_range, "exportReports": s.export_reports, "viewPredictions": s.view_predictions});
    let settings = ShareSettings { custom_url: None, link_sharing: link.to_string(), share_exports: s.share_exports, unlock_date: false };
    app.store.set_share_settings(row.id, &settings, 1, None).await.expect("share settings");
    app.store.share_hash(row.id, "0123456789abcdef0123456789abcdef").await.expect("share hash");
    let tag = send(owner.client.post(app.url(&format!("/api/v1/trackers/{hash}/tags"))).header("X-CSRF-Token", &owner.token).json(&json!({"name": "fixture"}))).await;
    assert_eq!(tag.status, 201, "{:?}", tag.body);
    Fixture { hash, tag: tag.body["id"].as_i64().expect("tag id") }
}

/// The ids a call names: the fixture's tag, the admin's influencer tag, and a spare account that
/// is made a viewer of the tracker before a call changes or removes a member.
struct Ids {
    tag: i64,
    influencer_tag: i64,
    spare: i64,
}

async fn call(app: &TestApp, route: &Route, caller: &Caller, hash: &str, ids: &Ids) -> Response {
    let tracker = app.store.tracker_by_hash(hash).await.expect("tracker").expect("row");
    let id = if route.path.starts_with("/api/v1/influencer-tags") {
        ids.influencer_tag
    } else if route.path.starts_with("/api/v1/admin/users/") {
        ids.spare
    } else if route.path.contains("/members/{id}") {
        app.store.set_member(tracker.id, ids.spare, Permission::Viewer).await.expect("spare member");
        ids.spare
    } else if route.path.contains("/invitations/{id}") {
        let inv = app.store.invite(tracker.id, "pending@example.org", Permission::Viewer, "matrix-token", 1, 1, i64::MAX).await.expect("invitation");
        inv.id
    } else {
        ids.tag
    };
    let mut path = route.path.replace("{hash}", hash).replace("{name}", "bluesky").replace("{token}", "nosuchtoken").replace("{id}", &id.to_string());
    let mut query: Vec<String> = Vec::new();
    if !route.query.is_empty() {
        query.push(route.query.to_string());
    }
    if caller.who == Who::ShareLink {
        let row = app.store.tracker_by_hash(hash).await.expect("tracker").expect("row");
        query.push(format!("shareHash={}", row.share_hash.expect("share hash")));
    }
    if caller.who == Who::EmbedTimeline {
        let row = app.store.tracker_by_hash(hash).await.expect("tracker").expect("row");
        query.push(format!("embedKey={}", hark_api::routes::embed::embed_key(&row.share_hash.expect("share hash"), "chart:timeline")));
    }
    if !query.is_empty() {
        path = format!("{path}?{}", query.join("&"));
    }
    let mut req = caller.client.request(route.method.to_uppercase().parse().expect("method"), app.url(&path)).header("X-CSRF-Token", &caller.token);
    if let Some(body) = &route.body {
        let mut body = body.clone();
        if route.path.ends_with("/owner") {
            // The spare account, made a member first.
            app.store.set_member(tracker.id, ids.spare, Permission::Viewer).await.expect("spare member");
            body["userId"] = json!(ids.spare);
        }
        req = req.json(&body);
    }
    send(req).await
}

fn outcome(r: &Response) -> Expect {
    let code = r.body["error"]["code"].as_str().unwrap_or("");
    match (r.status, code) {
        (401, "unauthorized") => Expect::Denied(401, "unauthorized"),
        (403, "forbidden") => Expect::Denied(403, "forbidden"),
        (404, "tracker_not_found") => Expect::Denied(404, "tracker_not_found"),
        (403, "csrf_failed") => Expect::Denied(403, "csrf_failed"),
        (s, _) if s >= 500 => Expect::Failed(s),
        _ => Expect::Allowed,
    }
}

#[tokio::test]
async fn every_route_answers_every_caller_as_the_roles_say() {
    // Mail goes to a local SMTP server, so the routes that send answer as they would in use.
    let smtp = SmtpServer::start();
    for backend in backends() {
        // Thousands of calls from one address in a minute or two: the rate limits (their own test
        // in hardening_api.rs) are raised so every answer is about the caller.
        let unlimited = hark_api::limits::Rate::new(1_000_000, std::time::Duration::from_micros(1));
        let config = hark_api::ApiConfig {
            mail: Some(hark_api::mail::MailConfig { smtp_url: smtp.url.clone(), from: "Hark <hark@example.org>".into() }),
            rate_limits: Some(hark_api::limits::RateLimits { public: unlimited, setup: unlimited, tokens: unlimited, share: unlimited }),
            ..Default::default()
        };
        let app = TestApp::spawn_with(backend, config).await;
        // The route list and the OpenAPI document agree, both ways.
        let doc = app.get("/api/v1/openapi.json").await.body;
        let documented: BTreeSet<(String, String)> = doc["paths"]
            .as_object()
            .expect("paths")
            .iter()
            .flat_map(|(path, item)| item.as_object().expect("item").keys().map(move |m| (m.clone(), path.clone())))
            .collect();
        let routes = routes();
        let ruled: BTreeSet<(String, String)> = routes.iter().map(|r| (r.method.to_string(), r.path.to_string())).collect();
        let missing: Vec<_> = documented.difference(&ruled).collect();
        assert!(missing.is_empty(), "routes without a rule in the authorization matrix: {missing:?}");
        let stale: Vec<_> = ruled.difference(&documented).collect();
        assert!(stale.is_empty(), "rules for routes the API does not serve: {stale:?}");

        app.setup_admin().await;
        let admin_token = app.csrf().await;
        let influencer_tag = app.post("/api/v1/influencer-tags", json!({"name": "admin's"})).await.body["id"].as_i64().expect("influencer tag");
        let (owner_c, owner_t) = sign_in(&app, "owner@example.org").await;
        let spare = app.store.create_user(&hark_testkit::new_user("spare@example.org"), 1).await.expect("spare").id;
        let mut callers = Vec::new();
        let mut members = Vec::new();
        for who in Who::ALL {
            let (client, token) = match who {
                Who::SignedOut | Who::ShareLink | Who::EmbedTimeline => {
                    let (c, jar) = app.new_browser();
                    let t = csrf_of(&c, &jar, &app.base).await;
                    (c, t)
                }
                Who::Owner => (owner_c.clone(), owner_t.clone()),
                Who::InstanceAdmin => (app.client.clone(), admin_token.clone()),
                _ => {
                    let email = format!("{who:?}@example.org").to_lowercase();
                    let signed = sign_in(&app, &email).await;
                    if let Some(p) = who.rank() {
                        let id = app.store.user_by_email(&email).await.expect("user").expect("row").id;
                        members.push((id, p));
                    }
                    signed
                }
            };
            callers.push(Caller { who, client, token });
        }
        let owner = callers.iter().find(|c| c.who == Who::Owner).expect("owner");
        let passes = [
            Sharing { share_exports: false, edit_date_range: false, export_reports: false, view_predictions: false },
            Sharing { share_exports: true, edit_date_range: false, export_reports: true, view_predictions: false },
            Sharing { share_exports: false, edit_date_range: false, export_reports: false, view_predictions: true },
            Sharing { share_exports: false, edit_date_range: true, export_reports: false, view_predictions: false },
        ];
        let mut failures = Vec::new();
        let mut calls = 0;
        for (i, s) in passes.iter().enumerate() {
            let fx = fixture(&app, owner, &members, *s).await;
            for route in &routes {
                if route.path == "/api/v1/auth/logout" && i + 1 < passes.len() {
                    continue;
                }
                for caller in &callers {
                    // A deletion or a transfer gets a tracker of its own, shared the same way.
                    let own = if (route.method == "delete" && route.path == "/api/v1/trackers/{hash}") || route.path.ends_with("/owner") {
                        Some(fixture(&app, owner, &members, *s).await)
                    } else {
                        None
                    };
                    let (hash, tag) = match &own {
                        Some(f) => (f.hash.as_str(), f.tag),
                        None => (fx.hash.as_str(), fx.tag),
                    };
                    let r = call(&app, route, caller, hash, &Ids { tag, influencer_tag, spare }).await;
                    calls += 1;
                    let want = expect(route.path, route.rule, caller.who, *s);
                    let got = outcome(&r);
                    if got != want {
                        failures.push(format!(
                            "{} {} as {:?} ({s:?}): expected {want:?}, got {} {}",
                            route.method.to_uppercase(),
                            route.path,
                            caller.who,
                            r.status,
                            r.body.to_string().chars().take(160).collect::<String>()
                        ));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{} of {calls} calls answered against the roles:\n{}", failures.len(), failures.join("\n"));
    }
    assert!(smtp.messages().iter().any(|m| m.to == ["friend@example.org"]), "the allowed shares went out");
}

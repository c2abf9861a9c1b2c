//! Discourse forums, `GET /latest.json?order=created` (topics newest first, `page=N`, more
//! pages while `topic_list.more_topics_url` is present; authors in the top-level `users` list).
//! Each listed forum is swept back to the newest topic of its previous sweep; the matcher keeps
//! the topics that mention a tracker's terms. Private forums take `Api-Key`/`Api-Username`.

use std::collections::BTreeMap;

use hark_core::{Platform, Post};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::util::{html_text, parse_rfc3339, short_hash};
use crate::{read_cursor, short, write_cursor, BoxFuture, CollectError, Connector, ConnectorConfig, ConnectorKind, Http, Page, TrackerQuery};

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ForumState {
    /// `created_at` (ms) of the newest topic of the last finished sweep.
    pub watermark: Option<i64>,
    pub page: u32,
    pub sweep_top: Option<i64>,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    pub next: usize,
    pub forums: BTreeMap<String, ForumState>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Latest {
    #[serde(default)]
    pub(crate) users: Vec<User>,
    pub(crate) topic_list: TopicList,
}

#[derive(Debug, Deserialize)]
pub(crate) struct User {
    id: i64,
    username: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    avatar_template: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct TopicList {
    #[serde(default)]
    more_topics_url: Option<String>,
    #[serde(default)]
    pub(crate) topics: Vec<Topic>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Topic {
    id: i64,
    title: String,
    slug: String,
    created_at: String,
    #[serde(default)]
    excerpt: Option<String>,
    #[serde(default)]
    views: Option<i64>,
    #[serde(default)]
    like_count: Option<i64>,
    #[serde(default)]
    posts_count: Option<i64>,
    #[serde(default)]
    posters: Vec<Poster>,
}

#[derive(Debug, Deserialize)]
struct Poster {
    user_id: i64,
    #[serde(default)]
    description: String,
}

pub struct Discourse {
    config: ConnectorConfig,
    http: Http,
}

impl Discourse {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        Self { config, http }
    }

    fn forums(&self) -> Vec<String> {
        self.config.lines("forums").into_iter().map(|f| f.trim_end_matches('/').to_string()).collect()
    }

    async fn latest(&self, forum: &str, page: u32) -> Result<Latest, CollectError> {
        let url = format!("{forum}/latest.json");
        let resp = self
            .http
            .send(|c| {
                let mut r = c.get(&url).query(&[("order", "created".to_string()), ("page", page.to_string())]);
                if let (Some(k), Some(u)) = (self.config.value("api_key"), self.config.value("api_username")) {
                    r = r.header("Api-Key", k).header("Api-Username", u);
                }
                r
            })
            .await?;
        let status = resp.status();
        if !status.is_success() {
            let body: Value = resp.json().await.unwrap_or(Value::Null);
            let message = body
                .get("errors")
                .and_then(|e| e.get(0))
                .and_then(Value::as_str)
                .map(short)
                .unwrap_or_else(|| "request failed".into());
            return Err(match status.as_u16() {
                401 | 403 => CollectError::Auth(format!("{forum}: {message}")),
                s => CollectError::Http { status: s, message: format!("{forum}: {message}") },
            });
        }
        resp.json().await.map_err(|e| CollectError::Payload(format!("{forum}: {e}")))
    }
}

pub(crate) fn to_post(forum: &str, t: Topic, users: &[User]) -> Option<Post> {
    let created = parse_rfc3339(&t.created_at)?;
    let op = t.posters.iter().find(|p| p.description.contains("Original Poster")).or(t.posters.first());
    let mut p = Post::new(
        Platform::Forums,
        format!("discourse-{}-{}", &short_hash(forum)[..12], t.id),
        t.excerpt.as_deref().map(html_text).unwrap_or_default(),
        created,
    );
    p.title = Some(html_text(&t.title));
    p.url = Some(format!("{forum}/t/{}/{}", t.slug, t.id));
    if let Some(u) = op.and_then(|op| users.iter().find(|u| u.id == op.user_id)) {
        p.author.id = format!("{forum}/u/{}", u.username);
        p.author.username = u.username.clone();
        p.author.name = u.name.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| u.username.clone());
        p.author.avatar_url = u.avatar_template.as_ref().map(|a| {
            let a = a.replace("{size}", "96");
            if a.starts_with('/') { format!("{forum}{a}") } else { a }
        });
    }
    p.counts.views = t.views;
    p.counts.likes = t.like_count;
    p.counts.comments = t.posts_count.map(|n| n.saturating_sub(1).max(0));
    p.source = Some(forum.to_string());
    Some(p)
}

impl Connector for Discourse {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Discourse
    }

    fn fetch<'a>(&'a self, q: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>> {
        Box::pin(async move {
            let mut c: Cursor = read_cursor(cursor);
            let forums = self.forums();
            c.forums.retain(|f, _| forums.contains(f));
            let Some(forum) = forums.get(c.next).cloned() else {
                c.next = 0;
                return Ok(Page { posts: vec![], cursor: write_cursor(&c), more: false });
            };
            let mut st = c.forums.get(&forum).cloned().unwrap_or_default();
            let latest = self.latest(&forum, st.page).await?;
            let (start, end) = match q.range {
                Some((s, e)) => (Some(s), Some(e)),
                None => (st.watermark, None),
            };
            let mut reached_old = false;
            let mut posts = Vec::new();
            let users = latest.users;
            for t in latest.topic_list.topics {
                let Some(p) = to_post(&forum, t, &users) else { continue };
                if st.page == 0 && q.range.is_none() {
                    st.sweep_top = Some(st.sweep_top.map_or(p.created_at, |s: i64| s.max(p.created_at)));
                }
                if start.is_some_and(|s| p.created_at < s) {
                    reached_old = true;
                    continue;
                }
                if end.is_some_and(|e| p.created_at >= e) {
                    continue;
                }
                posts.push(p);
            }
            if latest.topic_list.more_topics_url.is_some() && !reached_old {
                st.page += 1;
            } else {
                st.page = 0;
                if let Some(top) = st.sweep_top.take() {
                    st.watermark = Some(st.watermark.map_or(top, |w| w.max(top)));
                }
                c.next += 1;
            }
            c.forums.insert(forum, st);
            let more = c.next < forums.len();
            if !more {
                c.next = 0;
            }
            Ok(Page { posts, cursor: write_cursor(&c), more })
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            let forums = self.forums();
            for f in &forums {
                self.latest(f, 0).await?;
            }
            Ok(format!("{} forums answered.", forums.len()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_posts_count_maps_to_comments() {
        // As in the collect_discourse fuzz seeds: the replies, posts_count - 1, overflowed for
        // the smallest count.
        let topic = |count: i64| -> Topic {
            serde_json::from_value(serde_json::json!({"id": 1, "title": "t", "slug": "t",
                "created_at": "2024-06-01T10:00:00Z", "posts_count": count}))
            .unwrap()
        };
        let comments = |count| to_post("https://forum.example", topic(count), &[]).unwrap().counts.comments;
        assert_eq!(comments(3), Some(2));
        assert_eq!(comments(0), Some(0));
        assert_eq!(comments(i64::MIN), Some(0));
    }
}

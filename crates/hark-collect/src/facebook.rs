//! Facebook Pages: `GET /{page-id}/posts` of the pages named in a tracker's Facebook account
//! list (`name:::pageId` entries use the id), newest first with `paging.cursors.after` and
//! `paging.next`, reactions and comments as summaries. Each page is swept back to the newest
//! post of its previous sweep.

use std::collections::BTreeMap;

use hark_core::criteria::split_account;
use hark_core::{Platform, Post};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::graph::{self, parse_time};
use crate::{read_cursor, write_cursor, BoxFuture, CollectError, Connector, ConnectorConfig, ConnectorKind, Http, Page, TrackerQuery};

const FIELDS: &str = "id,message,created_time,permalink_url,from,shares,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)";

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PageState {
    /// Newest `created_time` (ms) of the last finished sweep.
    pub watermark: Option<i64>,
    pub after: Option<String>,
    pub sweep_top: Option<i64>,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    pub next: usize,
    pub pages: BTreeMap<String, PageState>,
}

/// The pages a tracker follows: the id of `name:::id` entries, the entry itself otherwise.
pub fn pages_of(q: &TrackerQuery) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in &q.accounts.fb {
        let (name, id) = split_account(e);
        let page = id.unwrap_or(name).trim().to_string();
        if !page.is_empty() && !page.contains(['/', '?', '#', '&']) && !out.contains(&page) {
            out.push(page);
        }
    }
    out
}

pub struct Facebook {
    config: ConnectorConfig,
    http: Http,
}

impl Facebook {
    pub fn new(config: ConnectorConfig, http: Http) -> Self {
        Self { config, http }
    }
}

/// The posts of a `{page}/posts` answer.
pub(crate) fn posts_of(body: &Value) -> Vec<Post> {
    body.get("data").and_then(Value::as_array).into_iter().flatten().filter_map(to_post).collect()
}

fn to_post(v: &Value) -> Option<Post> {
    let id = v.get("id")?.as_str()?;
    // Facebook times are used as they are (spec: timestamps in seconds except Facebook).
    let created = parse_time(v.get("created_time")?.as_str()?)?;
    let mut p = Post::new(Platform::Facebook, id, v.get("message").and_then(Value::as_str).unwrap_or_default(), created);
    p.url = v.get("permalink_url").and_then(Value::as_str).map(str::to_string);
    if let Some(from) = v.get("from") {
        p.author.id = from.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
        p.author.name = from.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        p.author.username = p.author.name.clone();
    }
    p.counts.likes = v.pointer("/reactions/summary/total_count").and_then(Value::as_i64);
    p.counts.comments = v.pointer("/comments/summary/total_count").and_then(Value::as_i64);
    p.counts.shares = v.pointer("/shares/count").and_then(Value::as_i64);
    Some(p)
}

impl Connector for Facebook {
    fn kind(&self) -> ConnectorKind {
        ConnectorKind::Facebook
    }

    fn fetch<'a>(&'a self, q: &'a TrackerQuery, cursor: &'a Value) -> BoxFuture<'a, Result<Page, CollectError>> {
        Box::pin(async move {
            let mut c: Cursor = read_cursor(cursor);
            let pages = pages_of(q);
            c.pages.retain(|p, _| pages.contains(p));
            let Some(page) = pages.get(c.next).cloned() else {
                c.next = 0;
                return Ok(Page { posts: vec![], cursor: write_cursor(&c), more: false });
            };
            let mut st = c.pages.get(&page).cloned().unwrap_or_default();
            let mut params = vec![("fields", FIELDS.to_string()), ("limit", "100".into())];
            if let Some((start, end)) = q.range {
                params.push(("since", (start / 1000).to_string()));
                params.push(("until", (end / 1000).to_string()));
            }
            if let Some(a) = &st.after {
                params.push(("after", a.clone()));
            }
            let body = graph::get(&self.http, &self.config, ConnectorKind::Facebook, &format!("{page}/posts"), &params).await?;
            let all = posts_of(&body);
            if st.after.is_none() && q.range.is_none() {
                st.sweep_top = all.iter().map(|p| p.created_at).max();
            }
            let start = q.range.map(|r| r.0).or(st.watermark);
            let reached_old = all.iter().any(|p| start.is_some_and(|s| p.created_at < s));
            let posts: Vec<Post> = all.into_iter().filter(|p| start.is_none_or(|s| p.created_at >= s)).collect();
            let next = body.pointer("/paging/cursors/after").and_then(Value::as_str).map(str::to_string);
            if body.pointer("/paging/next").is_some() && next.is_some() && !reached_old {
                st.after = next;
            } else {
                st.after = None;
                if let Some(top) = st.sweep_top.take() {
                    st.watermark = Some(st.watermark.map_or(top, |w| w.max(top)));
                }
                c.next += 1;
            }
            c.pages.insert(page, st);
            let more = c.next < pages.len();
            if !more {
                c.next = 0;
            }
            Ok(Page { posts, cursor: write_cursor(&c), more })
        })
    }

    fn check(&self) -> BoxFuture<'_, Result<String, CollectError>> {
        Box::pin(async move {
            let me = graph::get(&self.http, &self.config, ConnectorKind::Facebook, "me", &[("fields", "id,name".to_string())]).await?;
            let name = me.get("name").and_then(Value::as_str).unwrap_or("the token's owner");
            Ok(format!("Token accepted ({name})."))
        })
    }
}

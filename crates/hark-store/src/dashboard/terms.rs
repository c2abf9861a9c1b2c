//! Topics (hashtags, mentions, keywords, domains, links) and the scalar breakdowns (country,
//! device, post type, sentiment, gender, language): whole days from the term rollups, or the
//! lifetime totals when those days hold every post, and the partial edges from the post rows; or
//! all of it from the tracker's in-memory table once read (`memory`).

use std::collections::HashMap;

use hark_core::PlatformSet;

use super::{memory, PageFilter, FAR, FROM_ROWS};
use crate::ingest::unrolled;
use crate::topics::table::{facet_kind, TermKind};
use crate::time::HOUR_MS;
use crate::{with_pool, Result, Store};

/// Term kinds held as JSON lists in `posts.terms`; the others are columns.
pub(super) fn json_kind(kind: &str) -> bool {
    crate::ingest::TOTAL_KINDS.contains(&kind)
}

/// `PostTerms` read without copying its strings (escaped ones only are owned).
#[derive(serde::Deserialize, Default)]
pub(crate) struct TermsRef<'a> {
    #[serde(default, borrow, rename = "h")]
    h: Vec<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow, rename = "m")]
    m: Vec<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow, rename = "k")]
    k: Vec<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow, rename = "d")]
    d: Vec<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow, rename = "l")]
    l: Vec<std::borrow::Cow<'a, str>>,
}

impl TermsRef<'_> {
    pub(crate) fn of(&self, kind: &str) -> &[std::borrow::Cow<'_, str>] {
        match kind {
            "hashtag" => &self.h,
            "mention" => &self.m,
            "keyword" => &self.k,
            "domain" => &self.d,
            "link" => &self.l,
            _ => &[],
        }
    }
}

/// The post column a scalar term kind comes from (as the rollups record it).
fn column_of(kind: &str) -> Option<&'static str> {
    match kind {
        "country" => Some("p.country"),
        "region" => Some("p.region"),
        "source" => Some("p.device"),
        "post_type" => Some("p.post_type"),
        "sentiment" => Some("COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket)"),
        "gender" => Some("p.gender"),
        "lang" => Some("p.lang"),
        _ => None,
    }
}

/// Terms with a positive count, most frequent first (ties by term).
fn sorted_terms(acc: HashMap<String, i64>) -> Vec<(String, i64)> {
    let mut v: Vec<(String, i64)> = acc.into_iter().filter(|(_, c)| *c > 0).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

/// Where whole-day term counts come from: the daily rows of `[a, b)`, or the lifetime counts
/// (`rollup_term_totals`, listed kinds only) when those days hold every post of the tracker.
#[derive(Clone, Copy)]
enum Interior {
    Days(i64, i64),
    Lifetime,
}

impl Store {
    /// Every term of `kind` with its count in the range, most frequent first (ties by term).
    pub async fn dash_terms(&self, tracker_id: i64, f: &PageFilter, kind: &str) -> Result<Vec<(String, i64)>> {
        if json_kind(kind) {
            let mut v = self.dash_terms_many(tracker_id, f, &[(kind, PlatformSet::all())]).await?;
            return Ok(v.pop().unwrap_or_default());
        }
        let Some(list) = f.platform_list() else {
            return Ok(vec![]);
        };
        if let Some(k) = facet_kind(kind) {
            if let Some(t) = self.dash_table(tracker_id, f).await? {
                return Ok(memory::facets(&*t.read().await, &memory::scope(f, f.platforms), k, None));
            }
        }
        let (interior, edges) = self.day_pieces(tracker_id, f).await?;
        // The whole days and the partial ones are read at once.
        let whole = async {
            let mut acc: HashMap<String, i64> = HashMap::new();
            if let Some((a, b)) = interior {
                self.interior_terms(tracker_id, &list, kind, Interior::Days(a, b), &mut acc, None).await?;
            }
            Ok::<_, crate::StoreError>(acc)
        };
        let partial = async {
            let Some(col) = column_of(kind) else {
                return Ok(vec![]);
            };
            let cond = f.row_conditions(self.backend(), &list);
            let sql = format!("SELECT {col} AS t, COUNT(*) {FROM_ROWS}{cond} AND {col} IS NOT NULL GROUP BY {col}");
            let sql = &sql;
            self.edges_concurrently(&edges, |(a, b)| async move {
                let rows: Vec<(String, i64)> =
                    with_pool!(self, |p| sqlx::query_as(sql).bind(tracker_id).bind(a).bind(b).fetch_all(p).await?);
                Ok(rows)
            })
            .await
        };
        let (mut acc, parts) = tokio::try_join!(whole, partial)?;
        for (t, c) in parts.into_iter().flatten() {
            *acc.entry(t).or_default() += c;
        }
        Ok(sorted_terms(acc))
    }

    /// Term counts of the rollups' whole days `[a, b)` added to `acc`.
    async fn interior_terms(
        &self,
        tracker_id: i64,
        list: &str,
        kind: &str,
        source: Interior,
        acc: &mut HashMap<String, i64>,
        limit: Option<usize>,
    ) -> Result<()> {
        // With a limit (only when nothing else is added to these counts) the database keeps the
        // top terms itself, in the order `sorted_terms` gives (bytewise on the term).
        let top = match (limit, self.backend()) {
            (None, _) => String::new(),
            (Some(n), crate::Backend::Sqlite) => {
                format!(" HAVING SUM(count) > 0 ORDER BY 2 DESC, term LIMIT {n}")
            }
            (Some(n), crate::Backend::Postgres) => {
                format!(" HAVING SUM(count) > 0 ORDER BY 2 DESC, term COLLATE \"C\" LIMIT {n}")
            }
        };
        let rows: Vec<(String, i64)> = match source {
            Interior::Days(a, b) => {
                let sql = format!(
                    "SELECT term, CAST(SUM(count) AS BIGINT) FROM rollup_terms WHERE tracker_id = $1 AND kind = $2 \
                     AND day >= $3 AND day < $4 AND platform IN ({list}) GROUP BY term{top}"
                );
                with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(kind).bind(a).bind(b).fetch_all(p).await?)
            }
            Interior::Lifetime => {
                let sql = format!(
                    "SELECT term, CAST(SUM(count) AS BIGINT) FROM rollup_term_totals WHERE tracker_id = $1 AND kind = $2 \
                     AND platform IN ({list}) GROUP BY term{top}"
                );
                with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(kind).fetch_all(p).await?)
            }
        };
        for (t, c) in rows {
            *acc.entry(t).or_default() += c;
        }
        Ok(())
    }

    /// Several term lists of kinds kept in `posts.terms` (hashtag, keyword, domain, link…), each
    /// for the filter's platforms among its own: the partial first and last days are read from
    /// the post rows once for all of them.
    pub async fn dash_terms_many(
        &self,
        tracker_id: i64,
        f: &PageFilter,
        wants: &[(&str, PlatformSet)],
    ) -> Result<Vec<Vec<(String, i64)>>> {
        self.dash_top_terms_many(tracker_id, f, wants, None).await
    }

    /// `dash_terms_many` keeping the first `limit` terms of each list (all with None).
    ///
    /// Counted over the tracker's in-memory table ([`crate::topics`]) once it has been read (see
    /// `memory`): real posts have tens of thousands of distinct keywords a day, and summing a
    /// month of their day rows took about half a second at 1M posts, where counting the table's
    /// term ids takes a few milliseconds. A post's terms of a kind are distinct
    /// (`hark_core::entities`, `hark_ingest::keywords`), so the table's counts of posts are the
    /// rollups' counts of terms.
    pub async fn dash_top_terms_many(
        &self,
        tracker_id: i64,
        f: &PageFilter,
        wants: &[(&str, PlatformSet)],
        limit: Option<usize>,
    ) -> Result<Vec<Vec<(String, i64)>>> {
        if let Some(t) = self.dash_table(tracker_id, f).await? {
            let t = t.read().await;
            // One count per source and platform set: the topics panel's hashtags and keywords
            // share a pass, and so do the top pages' social domains and links.
            let mut counted: Vec<(bool, PlatformSet, Vec<u32>)> = Vec::new();
            let mut out = Vec::with_capacity(wants.len());
            for (kind, keep) in wants {
                let platforms = f.platforms.intersect(*keep);
                let words = matches!(*kind, "keyword" | "hashtag");
                let facet = facet_kind(kind).filter(|_| json_kind(kind));
                if !words && facet.is_none() {
                    return Err(crate::StoreError::Config(format!("not a listed term kind: {kind}")));
                }
                let at = match counted.iter().position(|(w, p, _)| *w == words && *p == platforms) {
                    Some(i) => i,
                    None => {
                        let s = memory::scope(f, platforms);
                        let c = if words { memory::word_counts(&t, &s) } else { memory::list_counts(&t, &s) };
                        counted.push((words, platforms, c));
                        counted.len() - 1
                    }
                };
                let counts = &counted[at].2;
                out.push(match (*kind, facet) {
                    ("keyword", _) => memory::top_words(&t, counts, TermKind::Word, limit),
                    ("hashtag", _) => memory::top_words(&t, counts, TermKind::Hashtag, limit),
                    (_, Some(k)) => memory::top_facets(&t, counts, k, limit),
                    _ => Vec::new(),
                });
            }
            return Ok(out);
        }
        self.rollup_top_terms_many(tracker_id, f, wants, limit).await
    }

    /// [`Store::dash_top_terms_many`] from the rollups and the post rows of partial days.
    async fn rollup_top_terms_many(
        &self,
        tracker_id: i64,
        f: &PageFilter,
        wants: &[(&str, PlatformSet)],
        limit: Option<usize>,
    ) -> Result<Vec<Vec<(String, i64)>>> {
        let mut out = Vec::with_capacity(wants.len());
        let subs: Vec<PageFilter> =
            wants.iter().map(|(_, keep)| PageFilter { platforms: f.platforms.intersect(*keep), ..f.clone() }).collect();
        let (interior, edges) = self.day_pieces(tracker_id, f).await?;
        let mut union = PlatformSet::default();
        for (i, (kind, _)) in wants.iter().enumerate() {
            if !json_kind(kind) {
                return Err(crate::StoreError::Config(format!("not a listed term kind: {kind}")));
            }
            for p in subs[i].platforms.iter() {
                union.insert(p);
            }
        }
        // Without partial days the whole days' counts are final, so the database can cut them.
        let top = if edges.is_empty() { limit } else { None };
        // The whole days and the two partial ones are read at once.
        let u = PageFilter { platforms: union, ..f.clone() };
        let whole = async {
            let mut accs: Vec<HashMap<String, i64>> = vec![HashMap::new(); wants.len()];
            let Some((a, b)) = interior else { return Ok(accs) };
            // Whole days holding every post of the tracker: the lifetime counts answer.
            let lifetime = edges.is_empty()
                && ((a, b) == (-FAR, FAR)
                    || matches!(self.dash_bounds(tracker_id, &u).await?, Some((lo, hi)) if a <= lo && hi < b));
            let source = if lifetime { Interior::Lifetime } else { Interior::Days(a, b) };
            for (i, (kind, _)) in wants.iter().enumerate() {
                if unrolled(kind) {
                    continue;
                }
                if let Some(list) = subs[i].platform_list() {
                    self.interior_terms(tracker_id, &list, kind, source, &mut accs[i], top).await?;
                }
            }
            Ok::<_, crate::StoreError>(accs)
        };
        let ulist = u.platform_list();
        let wanted: Vec<(&str, PlatformSet)> = wants.iter().zip(&subs).map(|((k, _), sub)| (*k, sub.platforms)).collect();
        let partial = async {
            match &ulist {
                Some(list) => self.edges_concurrently(&edges, |range| self.edge_terms(tracker_id, &u, list, &wanted, range)).await,
                None => Ok(vec![]),
            }
        };
        // Kinds without rollup rows (keywords) read the whole days' post rows as well, in two
        // halves at once (a core each), beside the rest; the other kinds' lists are left empty
        // there.
        let unrolled_wanted: Vec<(&str, PlatformSet)> = wanted
            .iter()
            .map(|(k, p)| if unrolled(k) { (*k, *p) } else { (*k, PlatformSet::default()) })
            .collect();
        let interior_rows = async {
            let (Some(list), Some((a, b))) = (&ulist, interior) else { return Ok(vec![]) };
            if unrolled_wanted.iter().all(|(_, p)| p.is_empty()) {
                return Ok(vec![]);
            }
            // The range's posts lie within the tracker's first and last (All Time has no ends).
            let (lo, hi) = match self.dash_bounds(tracker_id, &u).await? {
                Some((lo, hi)) => (a.max(lo), (b - 1).min(hi)),
                None => return Ok(vec![]),
            };
            if lo > hi {
                return Ok(vec![]);
            }
            let mid = lo + (hi - lo) / 2;
            let halves = [(lo, mid), (mid + 1, hi)];
            let halves = if mid < hi { &halves[..] } else { &halves[..1] };
            self.edges_concurrently(halves, |range| self.edge_terms(tracker_id, &u, list, &unrolled_wanted, range)).await
        };
        let (mut accs, parts, rows) = tokio::try_join!(whole, partial, interior_rows)?;
        for part in parts.into_iter().chain(rows) {
            for (acc, got) in accs.iter_mut().zip(part) {
                for (t, c) in got {
                    *acc.entry(t).or_default() += c;
                }
            }
        }
        for acc in accs {
            let mut v = sorted_terms(acc);
            if let Some(n) = limit {
                v.truncate(n);
            }
            out.push(v);
        }
        Ok(out)
    }

    /// Term counts of the posts in one inclusive millisecond range, one map per wanted (kind,
    /// platforms). The posts' term lists come joined per platform and hour (one row per hour
    /// instead of one per post: at 100,000 posts a day the per-row cost dominated), and are
    /// parsed without copying the terms.
    async fn edge_terms(
        &self,
        tracker_id: i64,
        u: &PageFilter,
        list: &str,
        wanted: &[(&str, PlatformSet)],
        (a, b): (i64, i64),
    ) -> Result<Vec<HashMap<String, i64>>> {
        let cond = u.row_conditions(self.backend(), list);
        let joined = self.backend().lines_concat("p.terms");
        let sql = format!("SELECT tp.platform, {joined} {FROM_ROWS}{cond} GROUP BY tp.platform, tp.created_at / {HOUR_MS}");
        let rows: Vec<(String, String)> = with_pool!(self, |p| sqlx::query_as(&sql).bind(tracker_id).bind(a).bind(b).fetch_all(p).await?);
        let mut accs: Vec<HashMap<String, i64>> = vec![HashMap::new(); wanted.len()];
        for (platform, joined) in rows {
            let Ok(platform) = hark_core::Platform::parse(&platform) else {
                continue;
            };
            let which: Vec<usize> = (0..wanted.len()).filter(|i| wanted[*i].1.contains(platform)).collect();
            if which.is_empty() {
                continue;
            }
            // JSON never holds a raw newline (serde escapes it inside strings).
            for line in joined.split('\n') {
                let Ok(terms) = serde_json::from_str::<TermsRef>(line) else {
                    continue;
                };
                for &i in &which {
                    for t in terms.of(wanted[i].0) {
                        match accs[i].get_mut(t.as_ref()) {
                            Some(c) => *c += 1,
                            None => {
                                accs[i].insert(t.to_string(), 1);
                            }
                        }
                    }
                }
            }
        }
        Ok(accs)
    }
}

//! An in-memory index of a tracker's author day rollups and its accounts' profiles, so that the
//! influencers page ranks every account of a range in memory instead of grouping hundreds of
//! thousands of rollup rows per request (a tracker of equally active accounts has about one row per
//! post and day).
//!
//! It stays exact by the tracker's `author_version`: every rollup write takes the next version and
//! marks the day rows it writes with it (`rollups::write`), so a reader that holds version `v` reads
//! the tracker's version (one indexed row), and when it moved, only the rows marked above `v`, which
//! replace their cells. Several servers on one database each keep their own index the same way.
//! Profiles (for text filters, the name order and followers) are read with the rows of the accounts
//! they belong to. Indexes are kept for the trackers used most recently, up to [`MAX_CELLS`] cells in
//! all; a tracker larger than that is ranked by SQL instead.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use hark_core::text::fold;
use hark_core::{Platform, PlatformSet};
use tokio::sync::RwLock;

use crate::dashboard::authors::{Activity, AuthorKey};
use crate::{with_pool, Result, Store};

/// Cells (author-days) kept in memory over every tracker, about 56 bytes each.
pub(crate) const MAX_CELLS: usize = 6_000_000;

/// One author's figures on one day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cell {
    author: u32,
    posts: i64,
    engagement: i64,
    followers: i64,
    reach: i64,
    impressions: i64,
}

/// What ranking needs of an account's profile, folded for matching.
#[derive(Debug, Clone, Default)]
pub(crate) struct Card {
    /// The name shown (or the username), folded: the name order.
    pub name: String,
    /// Name, username, author key and bio, folded: the search.
    pub hay: String,
    pub bio: String,
    pub location: String,
    pub followers: i64,
}

#[derive(Debug, Default)]
pub(crate) struct TrackerAuthors {
    /// The tracker's `author_version` the cells hold; -1 before the first read.
    version: i64,
    pub keys: Vec<AuthorKey>,
    pub platforms: Vec<Platform>,
    ids: HashMap<AuthorKey, u32>,
    /// Cells by day (UTC midnight, ms), each day's sorted by author.
    days: BTreeMap<i64, Vec<Cell>>,
    /// Profiles by author; None where the account has no profile row.
    pub cards: Vec<Option<Card>>,
    cells: usize,
    last_used: AtomicU64,
}

type RollupRow = (i64, String, String, i64, i64, i64, i64, i64);
type CardRow = (String, String, String, String, Option<String>, Option<String>, i64);

impl TrackerAuthors {
    fn id(&mut self, key: &AuthorKey) -> u32 {
        if let Some(i) = self.ids.get(key) {
            return *i;
        }
        let i = self.keys.len() as u32;
        self.keys.push(key.clone());
        self.platforms.push(Platform::parse(&key.0).unwrap_or(Platform::News));
        self.cards.push(None);
        self.ids.insert(key.clone(), i);
        i
    }

    /// Replaces the cells of the rows read (each row is an author-day's whole figures).
    fn apply(&mut self, rows: Vec<RollupRow>) -> Vec<u32> {
        let mut by_day: BTreeMap<i64, Vec<Cell>> = BTreeMap::new();
        let mut touched = Vec::with_capacity(rows.len());
        for (day, platform, author, posts, engagement, followers, reach, impressions) in rows {
            let a = self.id(&(platform, author));
            touched.push(a);
            by_day.entry(day).or_default().push(Cell { author: a, posts, engagement, followers, reach, impressions });
        }
        for (day, mut fresh) in by_day {
            fresh.sort_unstable_by_key(|c| c.author);
            fresh.dedup_by_key(|c| c.author);
            let old = self.days.remove(&day).unwrap_or_default();
            self.cells -= old.len();
            // Merge two lists sorted by author; a fresh cell replaces an old one.
            let mut merged = Vec::with_capacity(old.len() + fresh.len());
            let (mut i, mut j) = (0, 0);
            while i < old.len() || j < fresh.len() {
                match (old.get(i), fresh.get(j)) {
                    (Some(o), Some(f)) if o.author == f.author => {
                        merged.push(*f);
                        i += 1;
                        j += 1;
                    }
                    (Some(o), Some(f)) if o.author < f.author => {
                        merged.push(*o);
                        i += 1;
                    }
                    (Some(_), Some(f)) | (None, Some(f)) => {
                        merged.push(*f);
                        j += 1;
                    }
                    (Some(o), None) => {
                        merged.push(*o);
                        i += 1;
                    }
                    (None, None) => break,
                }
            }
            self.cells += merged.len();
            self.days.insert(day, merged);
        }
        touched.sort_unstable();
        touched.dedup();
        touched
    }

    /// Activity per author over the days `[a, b)` (ms), of the platforms in `platforms`.
    pub fn activity(&self, a: i64, b: i64, platforms: PlatformSet) -> Vec<Activity> {
        let mut acc = vec![Activity::default(); self.keys.len()];
        let allowed: Vec<bool> = self.platforms.iter().map(|p| platforms.contains(*p)).collect();
        for cells in self.days.range(a..b).map(|(_, c)| c) {
            for c in cells {
                if allowed[c.author as usize] {
                    acc[c.author as usize].add(Activity {
                        posts: c.posts,
                        engagement: c.engagement,
                        followers: c.followers,
                        reach: c.reach,
                        impressions: c.impressions,
                    });
                }
            }
        }
        acc
    }

    /// Activity per author of the index over whole days `[a, b)` plus partial days read from the
    /// post rows (`edges`), and the accounts of the edges the index does not hold yet.
    pub fn range_activity(
        &self,
        days: Option<(i64, i64)>,
        edges: HashMap<AuthorKey, Activity>,
        platforms: PlatformSet,
    ) -> (Vec<Activity>, Vec<(AuthorKey, Activity)>) {
        let mut acts = match days {
            Some((a, b)) => self.activity(a, b, platforms),
            None => vec![Activity::default(); self.keys.len()],
        };
        let mut extra = Vec::new();
        for (k, a) in edges {
            match self.id_of(&k) {
                Some(i) => acts[i as usize].add(a),
                None => extra.push((k, a)),
            }
        }
        (acts, extra)
    }

    pub fn id_of(&self, key: &AuthorKey) -> Option<u32> {
        self.ids.get(key).copied()
    }
}

fn card(name: &str, username: &str, author: &str, bio: Option<&str>, location: Option<&str>, followers: i64) -> Card {
    let shown = if name.is_empty() { username } else { name };
    Card {
        name: fold(if shown.is_empty() { author } else { shown }),
        hay: fold(&format!("{name} {username} {author} {}", bio.unwrap_or(""))),
        bio: fold(bio.unwrap_or("")),
        location: fold(location.unwrap_or("")),
        followers,
    }
}

/// The indexes of the trackers used most recently.
#[derive(Debug, Default)]
pub(crate) struct AuthorIndexes {
    trackers: Mutex<HashMap<i64, Arc<RwLock<TrackerAuthors>>>>,
    clock: AtomicU64,
}

impl AuthorIndexes {
    fn entry(&self, tracker_id: i64) -> Arc<RwLock<TrackerAuthors>> {
        let mut m = self.trackers.lock().unwrap_or_else(|e| e.into_inner());
        m.entry(tracker_id).or_insert_with(|| Arc::new(RwLock::new(TrackerAuthors { version: -1, ..Default::default() }))).clone()
    }

    /// Drops the least recently used indexes (never `keep`) while the cells pass [`MAX_CELLS`].
    fn trim(&self, keep: i64, keep_cells: usize) {
        let mut m = self.trackers.lock().unwrap_or_else(|e| e.into_inner());
        let mut sizes: Vec<(u64, i64, usize)> = m
            .iter()
            .filter(|(t, _)| **t != keep)
            .filter_map(|(t, e)| e.try_read().ok().map(|g| (g.last_used.load(Ordering::Relaxed), *t, g.cells)))
            .collect();
        let mut total: usize = keep_cells + sizes.iter().map(|s| s.2).sum::<usize>();
        sizes.sort_unstable();
        for (_, t, cells) in sizes {
            if total <= MAX_CELLS {
                break;
            }
            m.remove(&t);
            total -= cells;
        }
        if keep_cells > MAX_CELLS {
            m.remove(&keep);
        }
    }
}

impl Store {
    /// The tracker's author index brought up to date, or None when the tracker is gone or too large
    /// to keep in memory.
    pub(crate) async fn author_index(&self, tracker_id: i64) -> Result<Option<Arc<RwLock<TrackerAuthors>>>> {
        let current: Option<i64> = with_pool!(self, |p| sqlx::query_scalar("SELECT author_version FROM trackers WHERE id = $1")
            .bind(tracker_id)
            .fetch_optional(p)
            .await?);
        let Some(current) = current else { return Ok(None) };
        let entry = self.author_indexes.entry(tracker_id);
        let stamp = self.author_indexes.clock.fetch_add(1, Ordering::Relaxed);
        {
            let g = entry.read().await;
            g.last_used.store(stamp, Ordering::Relaxed);
            if g.version == current {
                return Ok(Some(entry.clone()));
            }
        }
        let mut g = entry.write().await;
        if g.version != current {
            let first = g.version < 0;
            let rows: Vec<RollupRow> = with_pool!(self, |p| sqlx::query_as(
                "SELECT day, platform, author, posts, engagement, followers, reach, impressions FROM rollup_authors \
                 WHERE tracker_id = $1 AND version > $2"
            )
            .bind(tracker_id)
            .bind(if first { i64::MIN } else { g.version })
            .fetch_all(p)
            .await?);
            let touched = g.apply(rows);
            if first {
                self.read_all_cards(tracker_id, &mut g).await?;
            } else {
                self.read_cards(&mut g, &touched).await?;
            }
            g.version = current;
        }
        let cells = g.cells;
        drop(g);
        self.author_indexes.trim(tracker_id, cells);
        Ok((cells <= MAX_CELLS).then_some(entry))
    }

    /// Every profile of the tracker's accounts, in one join.
    async fn read_all_cards(&self, tracker_id: i64, g: &mut TrackerAuthors) -> Result<()> {
        let rows: Vec<CardRow> = with_pool!(self, |p| sqlx::query_as(
            "SELECT a.platform, a.author, a.name, a.username, a.bio, a.location, a.followers FROM rollup_author_totals t \
             JOIN author_profiles a ON a.platform = t.platform AND a.author = t.author WHERE t.tracker_id = $1"
        )
        .bind(tracker_id)
        .fetch_all(p)
        .await?);
        for (platform, author, name, username, bio, location, followers) in rows {
            if let Some(i) = g.id_of(&(platform, author.clone())) {
                g.cards[i as usize] = Some(card(&name, &username, &author, bio.as_deref(), location.as_deref(), followers));
            }
        }
        Ok(())
    }

    /// Profiles of some accounts of the index (those whose rows changed: a new post may bring a
    /// new profile).
    async fn read_cards(&self, g: &mut TrackerAuthors, ids: &[u32]) -> Result<()> {
        let keys: Vec<AuthorKey> = ids.iter().map(|i| g.keys[*i as usize].clone()).collect();
        let set = self.backend().account_set("$1");
        let sql = format!(
            "SELECT a.platform, a.author, a.name, a.username, a.bio, a.location, a.followers \
             FROM {set} k JOIN author_profiles a ON a.platform = k.platform AND a.author = k.author"
        );
        for chunk in keys.chunks(5000) {
            let json = serde_json::to_string(chunk).unwrap_or_else(|_| "[]".into());
            let rows: Vec<CardRow> = with_pool!(self, |p| sqlx::query_as(&sql).bind(&json).fetch_all(p).await?);
            for (platform, author, name, username, bio, location, followers) in rows {
                if let Some(i) = g.id_of(&(platform, author.clone())) {
                    g.cards[i as usize] = Some(card(&name, &username, &author, bio.as_deref(), location.as_deref(), followers));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(day: i64, author: &str, posts: i64) -> RollupRow {
        (day, "twitter".into(), author.into(), posts, posts * 10, 5, posts * 5, 0)
    }

    #[test]
    fn fresh_rows_replace_their_cells_and_keep_the_others() {
        let mut t = TrackerAuthors::default();
        t.apply(vec![row(0, "b", 1), row(0, "a", 2), row(86_400_000, "a", 3)]);
        assert_eq!(t.cells, 3);
        let touched = t.apply(vec![row(0, "b", 4), row(0, "c", 1)]);
        assert_eq!(touched.len(), 2);
        assert_eq!(t.cells, 4);
        let acc = t.activity(0, 86_400_000, PlatformSet::all());
        let of = |k: &str| acc[t.id_of(&("twitter".into(), k.into())).unwrap() as usize].posts;
        assert_eq!((of("a"), of("b"), of("c")), (2, 4, 1));
        let all = t.activity(i64::MIN, i64::MAX, PlatformSet::all());
        assert_eq!(all[t.id_of(&("twitter".into(), "a".into())).unwrap() as usize].posts, 5);
        assert_eq!(t.activity(0, 1, PlatformSet::empty()).iter().map(|a| a.posts).sum::<i64>(), 0);
    }

    #[test]
    fn cards_fold_for_matching() {
        let c = card("", "José", "jose1", Some("Café"), Some("São Paulo"), 7);
        assert_eq!((c.name.as_str(), c.bio.as_str(), c.location.as_str()), ("jose", "cafe", "sao paulo"));
        assert!(c.hay.contains("jose1"));
    }
}

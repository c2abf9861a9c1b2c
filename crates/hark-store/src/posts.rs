use hark_core::{Millis, PlatformSet};

use crate::dashboard::DashboardFilter;
use crate::{Result, Store};

/// The part of the page filters that a post count honours.
#[derive(Debug, Clone)]
pub struct PostCountFilter {
    pub platforms: PlatformSet,
    pub start: Option<Millis>,
    pub end: Option<Millis>,
}

impl Store {
    /// Posts of a tracker that are not deleted, within the filter: whole hours from the hourly
    /// rollup and the partial first and last hours from the post rows (the dashboard's posts
    /// figure; a count over every row of a month took hundreds of milliseconds at a million posts).
    pub async fn count_tracker_posts(&self, tracker_id: i64, f: &PostCountFilter) -> Result<i64> {
        let d = DashboardFilter { platforms: f.platforms, start: f.start, end: f.end, ..Default::default() };
        Ok(self.dash_counts(tracker_id, &d).await?.posts)
    }
}

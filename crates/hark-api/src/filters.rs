//! The page filters every analytic request shares: platforms, a date range in the viewer's time
//! zone, tag filters and a subtracker, parsed once into the store's [`PageFilter`] (the
//! dashboard's panels, the posts list and every export read that one value).

use hark_core::{Millis, PlatformSet};
use hark_store::PageFilter;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::Deserialize;

use crate::error::{ApiError, ApiResult};
use hark_core::Code;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct FilterQuery {
    /// Comma-separated platform codes; defaults to the tracker's platforms.
    #[param(pattern = r"^((twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky)(,(twt|ig|yt|fb|tt|news|blogs|forums|bsky|mastodon|twitter|instagram|youtube|facebook|tiktok|bluesky))*)?$")]
    pub platforms: Option<String>,
    /// A relative window in days, or `all`.
    pub days: Option<String>,
    /// First day, YYYY-MM-DD, in `tz`, or the first millisecond (a 13-digit timestamp).
    pub start: Option<String>,
    /// Last day, YYYY-MM-DD, in `tz`, or the last millisecond included (a 13-digit timestamp).
    pub end: Option<String>,
    /// An IANA time zone; UTC by default.
    pub tz: Option<String>,
    pub post_tags: Option<String>,
    pub post_tag_filter_mode: Option<String>,
    pub influencer_tags: Option<String>,
    pub influencer_tag_filter_mode: Option<String>,
    /// A subtracker, 1-based.
    pub subtracker: Option<u32>,
    /// The tracker's share link hash: a visitor without access of their own reads the tracker's
    /// pages through it.
    pub share_hash: Option<String>,
    /// An embed key: opens the one chart or page it was made for.
    pub embed_key: Option<String>,
    /// The media wall's moderation key: opens the wall and its moderation.
    pub moderation_key: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateRange {
    pub start: Option<Millis>,
    pub end: Option<Millis>,
}

const DAY_MS: i64 = hark_core::limits::DAY_MS;

impl FilterQuery {
    /// The selected platforms within the tracker's; none selected means all of the tracker's.
    pub fn platforms(&self, tracker: PlatformSet) -> ApiResult<PlatformSet> {
        match self.platforms.as_deref().filter(|s| !s.trim().is_empty()) {
            None => Ok(tracker),
            Some(list) => {
                let chosen = PlatformSet::parse_list(list).map_err(|e| ApiError::new(Code::InvalidQuery, e.message))?;
                Ok(chosen.intersect(tracker))
            }
        }
    }

    pub fn time_zone(&self) -> ApiResult<TimeZone> {
        match self.tz.as_deref().filter(|s| !s.is_empty()) {
            None => Ok(TimeZone::UTC),
            Some(name) => TimeZone::get(name)
                .map_err(|_| ApiError::new(Code::InvalidQuery, format!("Unknown time zone '{name}'."))),
        }
    }

    /// The range to the millisecond: a custom range runs from the start day's midnight to the last
    /// millisecond of the end day in the viewer's zone; `days=N` is the last N×24 hours.
    pub fn range(&self, now: Millis) -> ApiResult<DateRange> {
        let tz = self.time_zone()?;
        let day = |s: &str| -> ApiResult<Date> {
            s.parse::<Date>()
                .map_err(|_| ApiError::new(Code::InvalidQuery, format!("'{s}' is not a date (YYYY-MM-DD).")))
        };
        let midnight = |d: Date| -> ApiResult<Millis> {
            d.to_zoned(tz.clone())
                .map(|z| z.timestamp().as_millisecond())
                .map_err(|_| ApiError::new(Code::InvalidQuery, "Date out of range."))
        };
        let millis = |s: Option<&str>| s.filter(|s| s.len() >= 10 && s.bytes().all(|b| b.is_ascii_digit())).and_then(|s| s.parse::<i64>().ok());
        if let (Some(s), Some(e)) = (millis(self.start.as_deref()), millis(self.end.as_deref())) {
            if e < s {
                return Err(ApiError::new(Code::InvalidQuery, "The end is before the start."));
            }
            return Ok(DateRange { start: Some(s), end: Some(e) });
        }
        match (self.start.as_deref(), self.end.as_deref()) {
            (Some(s), Some(e)) if !s.is_empty() && !e.is_empty() => {
                let (s, e) = (day(s)?, day(e)?);
                if e < s {
                    return Err(ApiError::new(Code::InvalidQuery, "The end date is before the start date."));
                }
                let next = e.tomorrow().map_err(|_| ApiError::new(Code::InvalidQuery, "Date out of range."))?;
                Ok(DateRange { start: Some(midnight(s)?), end: Some(midnight(next)? - 1) })
            }
            (Some(s), _) if !s.is_empty() => Ok(DateRange { start: Some(midnight(day(s)?)?), end: None }),
            _ => match self.days.as_deref() {
                None | Some("") | Some("all") | Some("false") => Ok(DateRange { start: None, end: None }),
                Some(d) => {
                    let n: i64 = d
                        .parse()
                        .ok()
                        .filter(|n| (1..=36_500).contains(n))
                        .ok_or_else(|| ApiError::new(Code::InvalidQuery, "days must be a number of days or 'all'."))?;
                    Ok(DateRange { start: Some(now - n * DAY_MS), end: Some(now) })
                }
            },
        }
    }
}

/// Tags one filter may combine at most.
pub const MAX_FILTER_TAGS: usize = 100;
/// The highest subtracker number a filter may name (bit 62 of the stored labels).
pub const MAX_SUBTRACKER: u32 = 63;

impl FilterQuery {
    /// Every shared filter, checked: platforms within the tracker's, the range, tag ids and modes
    /// (ALL unless `any`), and the subtracker. Influencer tags are the `viewer`'s own (an
    /// anonymous visitor has none: theirs are dropped).
    pub fn parse(&self, tracker: PlatformSet, viewer: Option<i64>, now: Millis) -> ApiResult<PageFilter> {
        let DateRange { start, end } = self.range(now)?;
        let ids = |name: &str, s: Option<&str>| -> ApiResult<Vec<i64>> {
            let mut out = Vec::new();
            for x in s.unwrap_or("").split(',').map(str::trim).filter(|x| !x.is_empty()) {
                let id = x.parse::<i64>().map_err(|_| {
                    ApiError::new(Code::InvalidQuery, format!("{name} is a comma-separated list of tag ids."))
                })?;
                if !out.contains(&id) {
                    out.push(id);
                }
            }
            if out.len() > MAX_FILTER_TAGS {
                return Err(ApiError::new(Code::InvalidQuery, format!("At most {MAX_FILTER_TAGS} tags can be combined.")));
            }
            Ok(out)
        };
        let all = |m: Option<&str>| -> ApiResult<bool> {
            match m.unwrap_or("all") {
                "all" | "" => Ok(true),
                "any" => Ok(false),
                _ => Err(ApiError::new(Code::InvalidQuery, "Tag filter mode must be 'any' or 'all'.")),
            }
        };
        if self.subtracker.is_some_and(|i| !(1..=MAX_SUBTRACKER).contains(&i)) {
            return Err(ApiError::new(Code::InvalidQuery, "Unknown subtracker."));
        }
        Ok(PageFilter {
            platforms: self.platforms(tracker)?,
            start,
            end,
            post_tags: ids("postTags", self.post_tags.as_deref())?,
            post_tags_all: all(self.post_tag_filter_mode.as_deref())?,
            influencer_tags: match viewer {
                Some(_) => ids("influencerTags", self.influencer_tags.as_deref())?,
                None => Vec::new(),
            },
            influencer_tags_all: all(self.influencer_tag_filter_mode.as_deref())?,
            influencer_tag_owner: viewer.unwrap_or(0),
            subtracker: self.subtracker,
            rows_only: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hark_core::Platform;

    fn q(f: impl FnOnce(&mut FilterQuery)) -> FilterQuery {
        let mut q = FilterQuery::default();
        f(&mut q);
        q
    }

    #[test]
    fn custom_range_covers_whole_days_in_zone() {
        let r = q(|q| {
            q.start = Some("2024-03-01".into());
            q.end = Some("2024-03-02".into());
            q.tz = Some("Europe/Paris".into());
        })
        .range(0)
        .unwrap();
        // 2024-03-01T00:00+01:00 = 2024-02-29T23:00Z
        assert_eq!(r.start, Some(1_709_247_600_000));
        assert_eq!(r.end, Some(1_709_247_600_000 + 2 * DAY_MS - 1));
    }

    #[test]
    fn relative_and_bad_ranges() {
        let r = q(|q| q.days = Some("7".into())).range(10 * DAY_MS).unwrap();
        assert_eq!(r, DateRange { start: Some(3 * DAY_MS), end: Some(10 * DAY_MS) });
        assert_eq!(q(|q| q.days = Some("all".into())).range(5).unwrap(), DateRange { start: None, end: None });
        assert!(q(|q| q.days = Some("-3".into())).range(5).is_err());
        assert!(q(|q| q.tz = Some("Mars/Base".into())).range(5).is_err());
        assert!(q(|q| {
            q.start = Some("2024-03-05".into());
            q.end = Some("2024-03-01".into());
        })
        .range(5)
        .is_err());
    }

    #[test]
    fn millisecond_ranges_and_tag_filters() {
        let r = q(|q| {
            q.start = Some("1700000000123".into());
            q.end = Some("1700000999999".into());
        })
        .range(0)
        .unwrap();
        assert_eq!(r, DateRange { start: Some(1_700_000_000_123), end: Some(1_700_000_999_999) });
        let f = q(|q| {
            q.post_tags = Some("3, 4".into());
            q.post_tag_filter_mode = Some("any".into());
            q.influencer_tags = Some("9".into());
            q.subtracker = Some(2);
        })
        .parse(PlatformSet::all(), Some(1), 0)
        .unwrap();
        assert_eq!((f.post_tags, f.post_tags_all, f.influencer_tags, f.influencer_tags_all), (vec![3, 4], false, vec![9], true));
        assert!(q(|q| q.post_tags = Some("x".into())).parse(PlatformSet::all(), Some(1), 0).is_err());
        assert!(q(|q| q.post_tag_filter_mode = Some("most".into())).parse(PlatformSet::all(), Some(1), 0).is_err());
        assert!(q(|q| q.subtracker = Some(0)).parse(PlatformSet::all(), Some(1), 0).is_err());
        assert!(q(|q| q.subtracker = Some(64)).parse(PlatformSet::all(), Some(1), 0).is_err());
        assert_eq!(q(|q| q.post_tags = Some("3,3, 4".into())).parse(PlatformSet::all(), Some(1), 0).unwrap().post_tags, vec![3, 4]);
        let many = (0..101).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
        assert!(q(|q| q.influencer_tags = Some(many)).parse(PlatformSet::all(), Some(1), 0).is_err());
    }

    #[test]
    fn platforms_stay_within_the_tracker() {
        let tracker: PlatformSet = [Platform::Twitter, Platform::News].into_iter().collect();
        let chosen = q(|q| q.platforms = Some("twt,ig".into())).platforms(tracker).unwrap();
        assert_eq!(chosen.iter().collect::<Vec<_>>(), vec![Platform::Twitter]);
        assert_eq!(q(|_| {}).platforms(tracker).unwrap(), tracker);
        assert!(q(|q| q.platforms = Some("zz".into())).platforms(tracker).is_err());
    }
}

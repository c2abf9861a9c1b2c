//! The page filters every analytic request shares: platforms, a date range in the viewer's time
//! zone, and tag filters.

use hark_core::{Millis, PlatformSet};
use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::Deserialize;

use crate::error::{ApiError, ApiResult};

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct FilterQuery {
    /// Comma-separated platform codes; defaults to the tracker's platforms.
    pub platforms: Option<String>,
    /// A relative window in days, or `all`.
    pub days: Option<String>,
    /// First day, YYYY-MM-DD, in `tz`.
    pub start: Option<String>,
    /// Last day, YYYY-MM-DD, in `tz`.
    pub end: Option<String>,
    /// An IANA time zone; UTC by default.
    pub tz: Option<String>,
    pub post_tags: Option<String>,
    pub post_tag_filter_mode: Option<String>,
    pub influencer_tags: Option<String>,
    pub influencer_tag_filter_mode: Option<String>,
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
                let chosen = PlatformSet::parse_list(list).map_err(|e| ApiError::bad_request("invalid_query", e.message))?;
                Ok(chosen.intersect(tracker))
            }
        }
    }

    pub fn time_zone(&self) -> ApiResult<TimeZone> {
        match self.tz.as_deref().filter(|s| !s.is_empty()) {
            None => Ok(TimeZone::UTC),
            Some(name) => TimeZone::get(name)
                .map_err(|_| ApiError::bad_request("invalid_query", format!("Unknown time zone '{name}'."))),
        }
    }

    /// The range to the millisecond: a custom range runs from the start day's midnight to the last
    /// millisecond of the end day in the viewer's zone; `days=N` is the last N×24 hours.
    pub fn range(&self, now: Millis) -> ApiResult<DateRange> {
        let tz = self.time_zone()?;
        let day = |s: &str| -> ApiResult<Date> {
            s.parse::<Date>()
                .map_err(|_| ApiError::bad_request("invalid_query", format!("'{s}' is not a date (YYYY-MM-DD).")))
        };
        let midnight = |d: Date| -> ApiResult<Millis> {
            d.to_zoned(tz.clone())
                .map(|z| z.timestamp().as_millisecond())
                .map_err(|_| ApiError::bad_request("invalid_query", "Date out of range."))
        };
        match (self.start.as_deref(), self.end.as_deref()) {
            (Some(s), Some(e)) if !s.is_empty() && !e.is_empty() => {
                let (s, e) = (day(s)?, day(e)?);
                if e < s {
                    return Err(ApiError::bad_request("invalid_query", "The end date is before the start date."));
                }
                let next = e.tomorrow().map_err(|_| ApiError::bad_request("invalid_query", "Date out of range."))?;
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
                        .ok_or_else(|| ApiError::bad_request("invalid_query", "days must be a number of days or 'all'."))?;
                    Ok(DateRange { start: Some(now - n * DAY_MS), end: Some(now) })
                }
            },
        }
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
    fn platforms_stay_within_the_tracker() {
        let tracker: PlatformSet = [Platform::Twitter, Platform::News].into_iter().collect();
        let chosen = q(|q| q.platforms = Some("twt,ig".into())).platforms(tracker).unwrap();
        assert_eq!(chosen.iter().collect::<Vec<_>>(), vec![Platform::Twitter]);
        assert_eq!(q(|_| {}).platforms(tracker).unwrap(), tracker);
        assert!(q(|q| q.platforms = Some("zz".into())).platforms(tracker).is_err());
    }
}

//! When reports are due and what they cover. Periods are calendar days, weeks from Monday and
//! months, in UTC (trackers keep no time zone of their own); a report is due when its period ends
//! and covers `[start, end)`.

use hark_core::notify::ReportFrequency;
use hark_core::Millis;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};

fn date_of(t: Millis) -> Date {
    Timestamp::from_millisecond(t).unwrap_or(Timestamp::UNIX_EPOCH).to_zoned(TimeZone::UTC).date()
}

fn millis_of(d: Date) -> Millis {
    d.to_zoned(TimeZone::UTC).map(|z| z.timestamp().as_millisecond()).unwrap_or(0)
}

/// The first day of the period holding day `d`.
fn first_day(f: ReportFrequency, d: Date) -> Date {
    match f {
        ReportFrequency::Daily => d,
        ReportFrequency::Weekly => d.checked_sub(i64::from(d.weekday().to_monday_zero_offset()).days()).unwrap_or(d),
        ReportFrequency::Monthly => d.first_of_month(),
    }
}

fn next_first_day(f: ReportFrequency, d: Date) -> Date {
    let first = first_day(f, d);
    let step = match f {
        ReportFrequency::Daily => 1.day(),
        ReportFrequency::Weekly => 1.week(),
        ReportFrequency::Monthly => 1.month(),
    };
    first.checked_add(step).unwrap_or(first)
}

/// The start of the period holding `t`.
pub fn period_start(f: ReportFrequency, t: Millis) -> Millis {
    millis_of(first_day(f, date_of(t)))
}

/// When the period holding `t` ends: the next report's due time, strictly after `t`.
pub fn next_report_due(f: ReportFrequency, t: Millis) -> Millis {
    millis_of(next_first_day(f, date_of(t)))
}

/// The period a report due at `due` covers: `[start, due)`.
pub fn report_period(f: ReportFrequency, due: Millis) -> (Millis, Millis) {
    (period_start(f, due - 1), due)
}

/// "16 Nov – 22 Nov 2026" for `[start, end)` (a single day alone).
pub fn range_words(start: Millis, end: Millis) -> String {
    let a = date_of(start);
    let b = date_of(end - 1);
    if a == b {
        return a.strftime("%-d %b %Y").to_string();
    }
    if a.year() == b.year() {
        format!("{} – {}", a.strftime("%-d %b"), b.strftime("%-d %b %Y"))
    } else {
        format!("{} – {}", a.strftime("%-d %b %Y"), b.strftime("%-d %b %Y"))
    }
}

/// "14:00 UTC, 27 Nov" for an instant.
pub fn clock(t: Millis) -> String {
    Timestamp::from_millisecond(t)
        .map(|ts| ts.to_zoned(TimeZone::UTC).strftime("%H:%M UTC, %-d %b").to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Millis {
        s.parse::<Timestamp>().unwrap().as_millisecond()
    }

    #[test]
    fn periods_are_calendar_days_weeks_and_months() {
        // Friday 27 Nov 2026, 10:00 UTC.
        let now = at("2026-11-27T10:00:00Z");
        assert_eq!(next_report_due(ReportFrequency::Daily, now), at("2026-11-28T00:00:00Z"));
        assert_eq!(next_report_due(ReportFrequency::Weekly, now), at("2026-11-30T00:00:00Z"));
        assert_eq!(next_report_due(ReportFrequency::Monthly, now), at("2026-12-01T00:00:00Z"));
        // At a boundary the next one is a whole period later.
        let monday = at("2026-11-30T00:00:00Z");
        assert_eq!(next_report_due(ReportFrequency::Weekly, monday), at("2026-12-07T00:00:00Z"));
        assert_eq!(report_period(ReportFrequency::Weekly, monday), (at("2026-11-23T00:00:00Z"), monday));
        assert_eq!(report_period(ReportFrequency::Monthly, at("2026-03-01T00:00:00Z")), (at("2026-02-01T00:00:00Z"), at("2026-03-01T00:00:00Z")));
        assert_eq!(period_start(ReportFrequency::Weekly, now), at("2026-11-23T00:00:00Z"));
        // Sunday still belongs to the week that began on Monday.
        assert_eq!(period_start(ReportFrequency::Weekly, at("2026-11-29T23:59:59Z")), at("2026-11-23T00:00:00Z"));
    }

    #[test]
    fn words() {
        assert_eq!(range_words(at("2026-11-23T00:00:00Z"), at("2026-11-30T00:00:00Z")), "23 Nov – 29 Nov 2026");
        assert_eq!(range_words(at("2026-11-23T00:00:00Z"), at("2026-11-24T00:00:00Z")), "23 Nov 2026");
        assert_eq!(range_words(at("2026-12-28T00:00:00Z"), at("2027-01-04T00:00:00Z")), "28 Dec 2026 – 3 Jan 2027");
        assert_eq!(clock(at("2026-11-27T14:00:00Z")), "14:00 UTC, 27 Nov");
    }
}

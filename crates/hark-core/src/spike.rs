//! Activity-spike detection for alerts: is a tracker's latest post volume far above what is normal
//! for this hour of the week?
//!
//! **How the alerts job calls it.** For each tracker with "activity spike" on, every hour just
//! after the hour closes, the job loads the tracker's hourly post counts of the last 5 weeks from
//! the rollups (dense, hours without posts as 0, starting no earlier than the tracker's first
//! collected hour, ending with the hour judged) and calls [`detect`] with the hour that just closed,
//! the tracker's [`SpikeSettings`] and the `at` of its last spike alert. On `Some(decision)` it
//! sends the alert, keeps the decision as the figures that triggered it, and stores `decision.at`
//! (the hour judged, not the sending time) as the last alert. Having missed hours (restart,
//! backlog), it calls `detect` for each missed hour in order, carrying the last alert forward, so a
//! burst that began meanwhile is still caught once, at its start. Judging the running hour after
//! each ingest batch as well alerts sooner: a partial count can only make an alert later, never
//! wrong, as long as every hour is still judged once closed; an hour never fires twice.
//!
//! **The rule.**
//! - Observed: the posts of the last [`WINDOW_HOURS`] hours, summed.
//! - Expected: the median of the same window at the same local hour of the week in each of the
//!   [`WEEKS`] previous weeks; with less history, at the same local hour of the day on the
//!   [`DAYS`] previous days (at least [`MIN_DAYS`]); with less than that, no decision at all.
//! - `z = (observed − expected) / scale`, `scale = max(1.4826·MAD, √expected + 1) · √(1 + π/2n)`
//!   for n reference windows.
//! - The window is *above* when z, the ratio observed/expected and the count all reach the
//!   sensitivity's and settings' minimums.
//! - It *fires* when the window is above at this hour, was not above the hour before (a crossing,
//!   not a plateau), and the cooldown has passed since the last alert. So one burst sends one alert,
//!   and a burst that stays up, or dips and returns within the cooldown, sends no more.
//!
//! The dashboard's forecast band ([`crate::forecast`]) is not reused: Holt-Winters is a least-squares
//! fit, so a burst in the history lifts its level and season and widens its band (hiding the next
//! burst), and its 95% band is crossed by chance about one hour in twenty.

use serde::{Deserialize, Serialize};

use crate::limits::HOUR_MS;
use crate::Millis;

/// Hours summed into the window judged. Bursts do not start on the hour: one starting at 10:50
/// splits across two hours, and a burst spread over two hours gives two hours' evidence; two (not
/// three) so that a sharp burst's first hour is still half the window and fires at once.
pub const WINDOW_HOURS: usize = 2;
/// Weeks of the same hour-of-week slot in the seasonal baseline.
pub const WEEKS: usize = 4;
/// Days of the same hour-of-day in the fallback baseline, while there are not yet [`WEEKS`] weeks.
pub const DAYS: usize = 14;
/// Below this many days of history there is no decision (no alert whatever happens).
pub const MIN_DAYS: usize = 7;

const WEEK_HOURS: i64 = 168;
const DAY_HOURS: i64 = 24;
/// MAD × 1.4826 estimates the standard deviation of normal data.
const MAD_SCALE: f64 = 1.4826;

/// How large a rise must be to alert.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sensitivity {
    Low,
    #[default]
    Medium,
    High,
}

impl Sensitivity {
    /// The robust z-score the window must reach. On simulated Poisson traffic (flat, or with a
    /// daily peak of 5× the night and half-quiet weekends, 1 to 1000 posts an hour) Medium sent no
    /// false alert in hundreds of weeks and High about one in a hundred weeks; with ±30% independent
    /// noise per hour on top, Medium about one in five to thirty weeks and High one in one to five.
    /// A three-hour burst at 8× the usual level, 6 to 90 posts an hour, alerts on Medium at its
    /// first hour nine times in ten, else the hour after (`calibration` in the tests prints these).
    pub const fn z(self) -> f64 {
        match self {
            Sensitivity::Low => 7.0,
            Sensitivity::Medium => 5.0,
            Sensitivity::High => 4.0,
        }
    }

    /// The ratio observed/expected the window must also reach: on a large tracker a +5% hour can
    /// be many standard deviations, real but not a spike worth an alert.
    pub const fn ratio(self) -> f64 {
        match self {
            Sensitivity::Low => 3.0,
            Sensitivity::Medium => 2.0,
            Sensitivity::High => 1.5,
        }
    }
}

/// A tracker's spike-alert settings. (The spec's alert settings name `spike_pred`, `threshold` and
/// `threshold_2` without defining them; they are stored as whatever these need.)
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpikeSettings {
    pub sensitivity: Sensitivity,
    /// Fewest posts in the window that may alert: on a tiny tracker 0 → 3 posts is a huge ratio
    /// and z-score, and still chance, not news.
    pub min_count: u64,
    /// Hours after an alert during which no other spike alert is sent.
    pub cooldown_hours: u32,
}

impl Default for SpikeSettings {
    fn default() -> Self {
        Self { sensitivity: Sensitivity::Medium, min_count: 10, cooldown_hours: 12 }
    }
}

/// A tracker's hourly post counts: `counts[i]` posts in the hour starting `first_hour + i` hours
/// (UTC millis, `first_hour` on an hour boundary).
///
/// Seasons are local: "the same hour a week ago" is the same wall-clock hour in the tracker's time
/// zone. In UTC or any fixed-offset zone that is exactly 168 hours back, so [`HourlySeries::new`]
/// needs no offset; across a daylight-saving change it is 167 or 169 hours back, and
/// [`HourlySeries::with_offsets`] takes the zone's offset at each instant to find it. Without it, a
/// sharp evening peak would be compared with the hour before it in the weeks before the change and
/// read as a spike every evening until the baseline caught up.
#[derive(Clone, Copy)]
pub struct HourlySeries<'a> {
    pub first_hour: Millis,
    pub counts: &'a [u64],
    offset_minutes: Option<&'a dyn Fn(Millis) -> i32>,
}

impl std::fmt::Debug for HourlySeries<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HourlySeries")
            .field("first_hour", &self.first_hour)
            .field("hours", &self.counts.len())
            .field("zone_offsets", &self.offset_minutes.is_some())
            .finish()
    }
}

impl<'a> HourlySeries<'a> {
    /// Seasons in UTC or a fixed-offset zone.
    pub fn new(first_hour: Millis, counts: &'a [u64]) -> Self {
        Self { first_hour, counts, offset_minutes: None }
    }

    /// Seasons in a zone with daylight saving: `offset_minutes(t)` is the zone's UTC offset at
    /// instant `t`, in minutes (e.g. from jiff's `TimeZone::to_offset`).
    pub fn with_offsets(self, offset_minutes: &'a dyn Fn(Millis) -> i32) -> Self {
        Self { offset_minutes: Some(offset_minutes), ..self }
    }

    /// The index of the hour holding instant `t`, if the series has it.
    fn index_of(&self, t: Millis) -> Option<usize> {
        let i = t.checked_sub(self.first_hour)?.div_euclid(HOUR_MS);
        usize::try_from(i).ok().filter(|&i| i < self.counts.len())
    }

    fn hour_start(&self, i: usize) -> Millis {
        (i as i64).saturating_mul(HOUR_MS).saturating_add(self.first_hour)
    }

    /// Posts in the window ending with hour `i` (which must have `WINDOW_HOURS - 1` hours before it).
    fn window_sum(&self, i: usize) -> u64 {
        self.counts[i + 1 - WINDOW_HOURS..=i].iter().fold(0u64, |s, &c| s.saturating_add(c))
    }

    /// The index of the hour with the same local time as hour `i`, `back` hours earlier in local
    /// time, if its whole window is in the series.
    fn reference(&self, i: usize, back: i64) -> Option<usize> {
        let shift = match self.offset_minutes {
            None => 0,
            Some(offset) => {
                let at = self.hour_start(i);
                let then = at.checked_sub(back.checked_mul(HOUR_MS)?)?;
                // Offsets in minutes, rounded to whole hours (half-hour shifts are rare).
                (i64::from(offset(at)) - i64::from(offset(then)) + 30).div_euclid(60)
            }
        };
        let j = (i as i64).checked_sub(back)?.checked_add(shift)?;
        usize::try_from(j).ok().filter(|&j| j + 1 >= WINDOW_HOURS && j < i)
    }
}

/// Where the expected figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Baseline {
    /// The same hour of the week in the previous `weeks` weeks.
    Weekly { weeks: u32 },
    /// The same hour of the day on the previous `days` days (too little history for weeks).
    Daily { days: u32 },
}

/// The figures of one hour's judgement, kept with an alert as what triggered it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpikeDecision {
    /// Start of the hour judged (the window's last hour); store it as the last alert when fired.
    pub at: Millis,
    /// The window, `[window_start, window_end)`.
    pub window_start: Millis,
    pub window_end: Millis,
    /// Posts in the window.
    pub observed: u64,
    /// The seasonal median of the same window.
    pub expected: f64,
    /// The robust spread the z-score divides by.
    pub scale: f64,
    pub z: f64,
    pub baseline: Baseline,
    /// The window reaches the thresholds.
    pub above: bool,
    /// An alert is due: above now, not above the hour before, cooldown over.
    pub fire: bool,
}

/// Judges the hour holding `at`: `None` without a decision (the hour is not in the series, or there
/// is too little history), else the figures and whether to alert (see the module's rule).
pub fn decide(
    series: &HourlySeries,
    at: Millis,
    settings: &SpikeSettings,
    last_alert_at: Option<Millis>,
) -> Option<SpikeDecision> {
    let i = series.index_of(at)?;
    let mut d = judge(series, i, settings)?;
    // A crossing, not a plateau: the hour before (when it has a decision) was not above.
    let was_above = i.checked_sub(1).and_then(|p| judge(series, p, settings)).is_some_and(|p| p.above);
    let cooldown = i64::from(settings.cooldown_hours).max(1).saturating_mul(HOUR_MS);
    // At least an hour after the last alert even without cooldown, so an hour never fires twice.
    let cooled = last_alert_at.is_none_or(|last| d.at.saturating_sub(last) >= cooldown);
    d.fire = d.above && !was_above && cooled;
    Some(d)
}

/// The decision for the hour holding `now_hour` when it fires, else `None`. Stateless: the last
/// alert's `at` carries what must be remembered between hours.
pub fn detect(
    series: &HourlySeries,
    now_hour: Millis,
    settings: &SpikeSettings,
    last_alert_at: Option<Millis>,
) -> Option<SpikeDecision> {
    decide(series, now_hour, settings, last_alert_at).filter(|d| d.fire)
}

/// The window ending with hour `i` against its seasonal baseline, without the crossing and
/// cooldown rule.
fn judge(series: &HourlySeries, i: usize, settings: &SpikeSettings) -> Option<SpikeDecision> {
    if i + 1 < WINDOW_HOURS {
        return None;
    }
    let samples = |period: i64, n: usize| -> Vec<f64> {
        (1..=n as i64)
            .filter_map(|k| series.reference(i, k * period))
            .map(|j| series.window_sum(j) as f64)
            .collect()
    };
    // Hour of the week: most trackers follow people's days and weeks, so an evening peak five
    // times the night or a quiet weekend is normal, and only a rise against the same hour of the
    // same weekday is news. Hour of the day until there are enough weeks.
    let weekly = samples(WEEK_HOURS, WEEKS);
    let mut daily = samples(DAY_HOURS, DAYS);
    if daily.len() < MIN_DAYS {
        return None;
    }
    // Median and MAD rather than mean and standard deviation: a past burst in one reference week
    // is one outlier, which the median ignores, where it would lift the mean and widen the
    // deviation enough to hide the next burst at that hour.
    let daily_mad = mad(&mut daily);
    let daily_median = median(&mut daily);
    let (baseline, expected, spread) = if weekly.len() == WEEKS {
        let mut weekly = weekly;
        let expected = median(&mut weekly);
        // Four samples give a shaky MAD: the fourteen days' MAD, relative to their median and
        // brought to this hour's level, also bounds the spread from below. Being a median, it
        // ignores the weekend days (fewer than half) as it ignores bursts.
        let pooled = if daily_median > 0.0 { daily_mad / daily_median * expected } else { 0.0 };
        (Baseline::Weekly { weeks: WEEKS as u32 }, expected, mad(&mut weekly).max(pooled))
    } else {
        (Baseline::Daily { days: daily.len() as u32 }, daily_median, daily_mad)
    };
    // Floors on the spread: counts have at least Poisson noise (√mean), and a flat series with a
    // zero MAD must not read +1 post as an infinite z; the extra post allows for a median of few
    // small counts coming out low by chance.
    let spread = (MAD_SCALE * spread).max(expected.sqrt() + 1.0);
    // Observed − expected varies more than one window does: the median of n windows carries about
    // π/2n of a window's variance (a third more with four weeks).
    let n = match baseline {
        Baseline::Weekly { weeks } => weeks,
        Baseline::Daily { days } => days,
    };
    let scale = spread * (1.0 + std::f64::consts::FRAC_PI_2 / f64::from(n)).sqrt();
    let observed = series.window_sum(i);
    let z = (observed as f64 - expected) / scale;
    let s = settings.sensitivity;
    let above = z >= s.z() && observed as f64 >= s.ratio() * expected && observed >= settings.min_count;
    let at = series.hour_start(i);
    Some(SpikeDecision {
        at,
        window_start: series.hour_start(i + 1 - WINDOW_HOURS),
        window_end: at.saturating_add(HOUR_MS),
        observed,
        expected,
        scale,
        z,
        baseline,
        above,
        fire: false,
    })
}

/// The median absolute deviation from the median (sorts the slice); 0 when empty.
fn mad(v: &mut [f64]) -> f64 {
    let m = median(v);
    let mut deviations: Vec<f64> = v.iter().map(|x| (x - m).abs()).collect();
    median(&mut deviations)
}

/// The median (sorts the slice); 0 when empty.
fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests;

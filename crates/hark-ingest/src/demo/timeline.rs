//! When demo posts happen: a daily and weekly rhythm plus bursts, and time-ordered sampling.
//!
//! The rate at instant `t` is `base(t) + burst(t)`: `base` follows the hour of day (quiet around
//! 04:00 UTC, busiest mid-afternoon UTC, when both Europe and the Americas are awake) and the day
//! of the week (weekends quieter); `burst` is zero except on burst days (every fourth day and a
//! quarter of the others), which get one surge that rises over 15 minutes and decays
//! exponentially over a few hours. Burst days
//! are a pure function of the seed and the day, so [`crate::demo::DemoGenerator::post_at`] and
//! [`crate::demo::DemoGenerator::generate`] agree on them.

use hark_core::Millis;

const HOUR: Millis = 3_600_000;
const DAY: Millis = 24 * HOUR;
const RAMP: Millis = 15 * 60_000;

/// splitmix64's finaliser: a bijection on u64 that scatters nearby inputs.
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Activity by time of day and week, around 1.0 on average.
pub fn base_rate(t: Millis) -> f64 {
    let hour = t.rem_euclid(DAY) as f64 / HOUR as f64;
    let phase = (hour - 4.0) / 24.0 * std::f64::consts::TAU;
    let day = 0.5 - 0.5 * phase.cos(); // 0 at 04:00 UTC, 1 at 16:00 UTC
    let daily = 0.3 + 1.3 * day * day.sqrt();
    // 1970-01-01 was a Thursday; 0 = Sunday.
    let weekday = (t.div_euclid(DAY) + 4).rem_euclid(7);
    let weekly = match weekday {
        0 | 6 => 0.75,
        1 => 1.08,
        _ => 1.0,
    };
    daily * weekly
}

/// One day's burst: when it starts, how fast it decays, how strong it is and what it is about.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Burst {
    pub start: Millis,
    pub tau: Millis,
    pub amplitude: f64,
    pub kind: usize,
}

/// The burst of day `day` (days since the epoch), if that day has one.
pub fn burst_of_day(salt: u64, day: i64, kinds: usize) -> Option<Burst> {
    let h = mix64(salt ^ (day as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    // Every fourth day bursts, and a quarter of the others.
    let regular = (day as u64).wrapping_add(salt) % 4 == 0;
    if !(regular || h % 100 < 25) || kinds == 0 {
        return None;
    }
    let start = day * DAY + ((h >> 8) % 20) as i64 * HOUR + ((h >> 16) % 60) as i64 * 60_000;
    let tau = HOUR / 2 + ((h >> 24) % 6) as i64 * HOUR / 2;
    let amplitude = 2.0 + ((h >> 32) % 60) as f64 / 10.0;
    Some(Burst { start, tau, amplitude, kind: ((h >> 40) % kinds as u64) as usize })
}

/// The burst rate at `t` and the burst it belongs to (bursts may spill into the next day).
pub fn burst_rate(salt: u64, t: Millis, kinds: usize) -> (f64, Option<usize>) {
    let day = t.div_euclid(DAY);
    let mut best = (0.0, None);
    for d in [day - 1, day] {
        let Some(b) = burst_of_day(salt, d, kinds) else { continue };
        let dt = t - b.start;
        if dt < 0 || dt > 6 * b.tau {
            continue;
        }
        let ramp = (dt as f64 / RAMP as f64).min(1.0);
        let rate = b.amplitude * ramp * (-(dt as f64) / b.tau as f64).exp();
        if rate > best.0 {
            best = (rate, Some(b.kind));
        }
    }
    best
}

/// Draws `count` instants in `[start, end)`, ascending, with density proportional to the rate.
///
/// Sorted uniforms come one at a time from the order-statistic recursion
/// `x ← 1 − (1 − x)·U^(1/k)` (k = draws left), so nothing is stored but the bucketed rate.
pub struct Timeline {
    start: Millis,
    bucket: Millis,
    /// Cumulative weight at the start of each bucket; the last entry is the total.
    cumulative: Vec<f64>,
    bucket_index: usize,
    x: f64,
    left: usize,
    end: Millis,
}

const MAX_BUCKETS: i64 = 100_000;

impl Timeline {
    pub fn new(salt: u64, kinds: usize, start: Millis, end: Millis, count: usize) -> Self {
        let span = (end - start).max(0);
        let bucket = (span / MAX_BUCKETS + 1).max(60_000).min(span.max(1));
        let buckets = ((span + bucket - 1) / bucket).max(1) as usize;
        let mut cumulative = Vec::with_capacity(buckets + 1);
        let mut total = 0.0;
        for i in 0..buckets {
            cumulative.push(total);
            let mid = start + i as i64 * bucket + bucket / 2;
            total += base_rate(mid) + burst_rate(salt, mid, kinds).0;
        }
        cumulative.push(total);
        Self { start, bucket, cumulative, bucket_index: 0, x: 0.0, left: count, end }
    }

    /// The next instant, given a uniform draw in [0, 1).
    pub fn next(&mut self, uniform: f64) -> Option<Millis> {
        if self.left == 0 {
            return None;
        }
        let k = self.left as f64;
        self.left -= 1;
        if self.end <= self.start {
            return Some(self.start);
        }
        self.x = 1.0 - (1.0 - self.x) * (1.0 - uniform).powf(1.0 / k);
        let total = *self.cumulative.last().unwrap_or(&0.0);
        let target = self.x * total;
        let last = self.cumulative.len() - 2;
        while self.bucket_index < last && self.cumulative[self.bucket_index + 1] <= target {
            self.bucket_index += 1;
        }
        let lo = self.cumulative[self.bucket_index];
        let width = self.cumulative[self.bucket_index + 1] - lo;
        let frac = if width > 0.0 { ((target - lo) / width).clamp(0.0, 1.0) } else { 0.0 };
        let t = self.start + self.bucket_index as i64 * self.bucket + (frac * self.bucket as f64) as i64;
        Some(t.clamp(self.start, self.end - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_and_weeks_have_a_rhythm() {
        let monday = 4 * DAY; // 1970-01-05
        assert!(base_rate(monday + 16 * HOUR) > 3.0 * base_rate(monday + 4 * HOUR));
        let saturday = 2 * DAY;
        assert!(base_rate(saturday + 16 * HOUR) < base_rate(monday + 16 * HOUR));
    }

    #[test]
    fn some_days_burst() {
        let bursts = (0..300).filter(|d| burst_of_day(7, *d, 4).is_some()).count();
        assert!((60..150).contains(&bursts), "{bursts}");
        let day = (0..300).find(|d| burst_of_day(7, *d, 4).is_some()).unwrap();
        let b = burst_of_day(7, day, 4).unwrap();
        let (rate, kind) = burst_rate(7, b.start + RAMP, 4);
        assert!(rate > 1.0 && kind == Some(b.kind));
        assert_eq!(burst_rate(7, b.start - 1, 4).1.filter(|_| burst_of_day(7, day - 1, 4).is_none()), None);
    }

    #[test]
    fn timeline_is_sorted_and_in_range() {
        let mut t = Timeline::new(1, 4, 1_000_000, 1_000_000 + 7 * DAY, 5000);
        let mut last = 0;
        let mut n = 0;
        let mut u = 0.37;
        while let Some(x) = t.next(u) {
            assert!(x >= last && (1_000_000..1_000_000 + 7 * DAY).contains(&x));
            last = x;
            n += 1;
            u = (u * 9301.0 + 0.49297).fract();
        }
        assert_eq!(n, 5000);
        let mut empty = Timeline::new(1, 4, 5, 5, 3);
        assert_eq!((empty.next(0.5), empty.next(0.5), empty.next(0.5), empty.next(0.5)), (Some(5), Some(5), Some(5), None));
    }
}

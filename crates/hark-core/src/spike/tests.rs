use proptest::prelude::*;

use super::*;
use crate::limits::DAY_MS;

/// Monday 2024-01-01 00:00 UTC.
const MONDAY: Millis = 1_704_067_200_000;
const H: Millis = HOUR_MS;
const WEEK: usize = 168;
const DAY: usize = 24;

/// splitmix64: a tiny deterministic generator, so the series are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn normal(&mut self) -> f64 {
        let (u1, u2) = (self.unit().max(1e-300), self.unit());
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// A Poisson draw: Knuth's product of uniforms for small means, a rounded normal for large.
    fn poisson(&mut self, mean: f64) -> u64 {
        if mean <= 0.0 {
            return 0;
        }
        if mean < 60.0 {
            let limit = (-mean).exp();
            let mut k = 0;
            let mut p = self.unit();
            while p > limit {
                k += 1;
                p *= self.unit();
            }
            return k;
        }
        (mean + mean.sqrt() * self.normal()).round().max(0.0) as u64
    }
}

/// `hours` hourly counts drawn around `rate(hour index)`.
fn draw(hours: usize, seed: u64, rate: impl Fn(usize) -> f64) -> Vec<u64> {
    let mut rng = Rng(seed);
    (0..hours).map(|h| rng.poisson(rate(h))).collect()
}

fn with(sensitivity: Sensitivity) -> SpikeSettings {
    SpikeSettings { sensitivity, ..SpikeSettings::default() }
}

const ALL: [Sensitivity; 3] = [Sensitivity::Low, Sensitivity::Medium, Sensitivity::High];

fn hour(h: usize) -> Millis {
    MONDAY + h as i64 * H
}

/// Calls `detect` hour by hour over `hours`, with the series up to that hour and the last alert
/// carried forward, as the alerts job does; returns the alerts.
fn walk_zoned(
    counts: &[u64],
    hours: std::ops::Range<usize>,
    s: &SpikeSettings,
    offsets: Option<&dyn Fn(Millis) -> i32>,
) -> Vec<SpikeDecision> {
    let mut last = None;
    let mut alerts = Vec::new();
    for h in hours {
        let mut series = HourlySeries::new(MONDAY, &counts[..=h]);
        if let Some(o) = offsets {
            series = series.with_offsets(o);
        }
        if let Some(d) = detect(&series, hour(h), s, last) {
            assert!(d.fire && d.above && d.at == hour(h), "{d:?}");
            last = Some(d.at);
            alerts.push(d);
        }
    }
    alerts
}

fn walk(counts: &[u64], hours: std::ops::Range<usize>, s: &SpikeSettings) -> Vec<SpikeDecision> {
    walk_zoned(counts, hours, s, None)
}

/// The hour indexes the alerts fired at.
fn hours_of(alerts: &[SpikeDecision]) -> Vec<usize> {
    alerts.iter().map(|d| ((d.at - MONDAY) / H) as usize).collect()
}

/// The decision at hour `h` with the series up to it and no previous alert.
fn decision(counts: &[u64], h: usize, s: &SpikeSettings) -> Option<SpikeDecision> {
    decide(&HourlySeries::new(MONDAY, &counts[..=h]), hour(h), s, None)
}

/// Night 6 posts an hour, rising to 30 (5×) at 18:00 every day, weekends at half.
fn cycles(h: usize) -> f64 {
    let hour = h % DAY;
    let daily = match hour {
        0..=6 => 6.0,
        7..=16 => 6.0 + 12.0 * (hour - 6) as f64 / 10.0,
        17 => 24.0,
        18 => 30.0,
        19 => 20.0,
        20..=22 => 14.0,
        _ => 8.0,
    };
    let weekend = (h / DAY) % 7 >= 5; // hour 0 is a Monday
    if weekend {
        daily * 0.5
    } else {
        daily
    }
}

/// The same at three times the volume: 18 posts an hour at night, 90 at 18:00.
fn busy(h: usize) -> f64 {
    3.0 * cycles(h)
}

/// `rate` multiplied by `factor` over `len` hours from `start`.
fn burst(rate: impl Fn(usize) -> f64, start: usize, len: usize, factor: f64) -> impl Fn(usize) -> f64 {
    move |h| if (start..start + len).contains(&h) { factor * rate(h) } else { rate(h) }
}

#[test]
fn flat_noise_sends_no_alert() {
    for mean in [3.0, 20.0, 400.0] {
        for seed in 0..8 {
            let counts = draw(5 * WEEK, seed, |_| mean);
            for s in ALL {
                let alerts = walk(&counts, 4 * WEEK..5 * WEEK, &with(s));
                assert!(alerts.is_empty(), "mean {mean} seed {seed} {s:?}: {alerts:?}");
            }
            // The hours walked are judged, against four weeks (first and last checked).
            for h in [4 * WEEK + 1, 5 * WEEK - 1] {
                let d = decision(&counts, h, &SpikeSettings::default()).unwrap();
                assert_eq!(d.baseline, Baseline::Weekly { weeks: 4 });
                assert!(!d.above && (d.expected - 2.0 * mean).abs() < 0.25 * 2.0 * mean + 3.0, "{d:?}");
            }
        }
    }
}

#[test]
fn daily_and_weekly_cycles_send_no_alert() {
    for (seed, scale) in (0..8).zip([0.3, 1.0, 3.0].into_iter().cycle()) {
        let counts = draw(5 * WEEK, seed, |h| scale * cycles(h));
        for s in ALL {
            let alerts = walk(&counts, 4 * WEEK..5 * WEEK, &with(s));
            assert!(alerts.is_empty(), "seed {seed} ×{scale} {s:?}: {alerts:?}");
        }
        // Wednesday's 18:00 peak is expected as such: 17:00 and 18:00 are 24 + 30 posts.
        let peak = 4 * WEEK + 2 * DAY + 18;
        let d = decision(&counts, peak, &SpikeSettings::default()).unwrap();
        assert!((d.expected - 54.0 * scale).abs() < 0.25 * 54.0 * scale + 3.0 && d.z < 3.0, "{d:?}");
    }
}

#[test]
fn a_burst_sends_one_alert_at_its_first_hour() {
    // 8× the seasonal level for three hours: at night, in the morning, on the evening peak, and
    // on a Saturday afternoon. The first window (the hour before and the burst's first hour) is
    // 4.5× the usual, enough at this volume; on a tracker of a few posts an hour at night the
    // alert may come an hour later, when the window holds two burst hours.
    for (n, start) in [
        4 * WEEK + 2 * DAY + 3,
        4 * WEEK + 3 * DAY + 10,
        4 * WEEK + DAY + 18,
        4 * WEEK + 5 * DAY + 15,
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 0..4 {
            let counts = draw(5 * WEEK, 100 * n as u64 + seed, burst(busy, start, 3, 8.0));
            let alerts = walk(&counts, 4 * WEEK..5 * WEEK, &SpikeSettings::default());
            assert_eq!(hours_of(&alerts), vec![start], "burst at {start}, seed {seed}: {alerts:?}");
            let d = alerts[0];
            // The window is the hour before the burst and its first hour.
            assert_eq!((d.window_start, d.window_end), (hour(start - 1), hour(start + 1)));
            assert_eq!(d.observed, counts[start - 1] + counts[start]);
            // Expected: the median of the same two hours in the four weeks before.
            let mut refs: Vec<u64> = (1..=4).map(|k| counts[start - k * WEEK - 1] + counts[start - k * WEEK]).collect();
            refs.sort();
            assert_eq!(d.expected, (refs[1] + refs[2]) as f64 / 2.0);
            let usual = busy(start - 1) + busy(start);
            assert!((d.expected - usual).abs() < 0.5 * usual, "expected {} vs {usual}", d.expected);
            assert!(d.observed as f64 > 2.5 * d.expected, "{d:?}");
            assert!(d.z >= Sensitivity::Medium.z() && d.z.is_finite());
            assert_eq!(d.baseline, Baseline::Weekly { weeks: 4 });
        }
    }
}

#[test]
fn a_past_burst_at_the_same_hour_does_not_hide_the_next() {
    // A burst two weeks ago at this very hour is one of the four reference weeks: the median
    // ignores it (a mean would have risen to about 2.75× the usual level).
    let start = 4 * WEEK + 2 * DAY + 11;
    let rate = burst(burst(busy, start - 2 * WEEK, 3, 8.0), start, 3, 8.0);
    let counts = draw(5 * WEEK, 7, rate);
    let alerts = walk(&counts, 4 * WEEK..5 * WEEK, &SpikeSettings::default());
    assert_eq!(hours_of(&alerts), vec![start]);
    let usual = busy(start - 1) + busy(start);
    assert!((alerts[0].expected - usual).abs() < 0.3 * usual, "{:?}", alerts[0]);
}

#[test]
fn one_alert_per_cooldown() {
    let s = SpikeSettings { cooldown_hours: 12, ..SpikeSettings::default() };
    let first = 4 * WEEK + DAY + 9;
    for seed in 0..4 {
        // Two bursts six hours apart, inside the cooldown: one alert.
        let counts = draw(5 * WEEK, seed, burst(burst(busy, first, 2, 8.0), first + 6, 2, 8.0));
        assert_eq!(hours_of(&walk(&counts, 4 * WEEK..5 * WEEK, &s)), vec![first]);
        // Thirty hours apart: two alerts, each at its burst's start.
        let counts = draw(5 * WEEK, seed, burst(burst(busy, first, 2, 8.0), first + 30, 2, 8.0));
        assert_eq!(hours_of(&walk(&counts, 4 * WEEK..5 * WEEK, &s)), vec![first, first + 30]);
        // A burst that stays up for a day: one alert, not a new one when the cooldown ends.
        let counts = draw(5 * WEEK, seed, burst(busy, first, 24, 8.0));
        assert_eq!(hours_of(&walk(&counts, 4 * WEEK..5 * WEEK, &s)), vec![first]);
        // A second burst that starts inside the cooldown and lasts past it: still one alert,
        // since it never crosses the threshold after the cooldown.
        let counts = draw(5 * WEEK, seed, burst(burst(busy, first, 2, 8.0), first + 6, 12, 8.0));
        assert_eq!(hours_of(&walk(&counts, 4 * WEEK..5 * WEEK, &s)), vec![first]);
    }
}

#[test]
fn too_little_history_never_alerts() {
    // Six days of history with huge bursts: no decision at all.
    let rate = burst(burst(cycles, 3 * DAY + 10, 3, 20.0), 6 * DAY + 2, 5, 20.0);
    let counts = draw(7 * DAY + 2, 3, rate);
    assert!(walk(&counts, 0..7 * DAY, &with(Sensitivity::High)).is_empty());
    assert!((0..7 * DAY).all(|h| decision(&counts, h, &with(Sensitivity::High)).is_none()));
    // Seven days (the window's hour before included) are the minimum, against the hour of day.
    let d = decision(&counts, 7 * DAY + 1, &SpikeSettings::default()).unwrap();
    assert_eq!(d.baseline, Baseline::Daily { days: 7 });
}

#[test]
fn tiny_trackers_do_not_alert_on_a_few_posts() {
    // 0 to 2 posts an hour, then 4 an hour for three hours: 8 in the window, under the floor.
    let mut rng = Rng(11);
    let mut counts: Vec<u64> = (0..5 * WEEK).map(|_| rng.next() % 3).collect();
    let start = 4 * WEEK + 3 * DAY + 14;
    counts[start..start + 3].fill(4);
    for s in ALL {
        assert!(walk(&counts, 4 * WEEK..5 * WEEK, &with(s)).is_empty(), "{s:?}");
    }
    // A tracker silent at night gets 5 posts in two night hours: a high z-score, and chance, so
    // the count floor holds it back; without the floor it would fire.
    let mut counts: Vec<u64> = (0..5 * WEEK).map(|h| if (8..20).contains(&(h % DAY)) { 3 } else { 0 }).collect();
    let night = 4 * WEEK + 2 * DAY + 3;
    counts[night] = 2;
    counts[night + 1] = 3;
    let at = |s: &SpikeSettings| detect(&HourlySeries::new(MONDAY, &counts), hour(night + 1), s, None);
    assert!(at(&with(Sensitivity::High)).is_none());
    let unfloored = at(&SpikeSettings { min_count: 0, ..with(Sensitivity::High) }).expect("fires without the floor");
    assert_eq!((unfloored.observed, unfloored.expected), (5, 0.0));
}

#[test]
fn sensitivity_sets_how_large_a_rise_alerts() {
    // A tracker of 1000 posts an hour, where the ratio decides: a burst of 1.8× the level for three
    // hours makes the first window (an hour before and the burst's first hour) 1.4× the usual, the
    // next ones 1.8×; and so on.
    let start = 4 * WEEK + 2 * DAY + 13;
    let none = Vec::<usize>::new();
    let cases = [
        (1.8, [vec![start + 1], none.clone(), none.clone()]),
        (2.5, [vec![start], vec![start + 1], none.clone()]),
        (4.0, [vec![start], vec![start], vec![start + 1]]),
    ];
    for (factor, want) in cases {
        for seed in 0..4 {
            let counts = draw(5 * WEEK, seed, burst(|_| 1000.0, start, 3, factor));
            for (s, want) in [Sensitivity::High, Sensitivity::Medium, Sensitivity::Low].into_iter().zip(&want) {
                let fired = hours_of(&walk(&counts, 4 * WEEK..5 * WEEK, &with(s)));
                assert_eq!(&fired, want, "{factor}× seed {seed} {s:?}");
            }
        }
    }
}

#[test]
fn daily_fallback_before_four_weeks() {
    // Three weeks of history: the third week is judged against the same hour on previous days,
    // weekends included (fewer than half of them, so the median is a weekday's).
    for seed in 0..4 {
        let counts = draw(3 * WEEK, seed, busy);
        assert!(walk(&counts, 2 * WEEK..3 * WEEK, &SpikeSettings::default()).is_empty(), "seed {seed}");
        let d = decision(&counts, 3 * WEEK - 1, &SpikeSettings::default()).unwrap();
        assert_eq!(d.baseline, Baseline::Daily { days: 14 });
        let start = 2 * WEEK + 3 * DAY + 10;
        let counts = draw(3 * WEEK, seed, burst(busy, start, 3, 8.0));
        assert_eq!(hours_of(&walk(&counts, 2 * WEEK..3 * WEEK, &SpikeSettings::default())), vec![start]);
    }
}

#[test]
fn daylight_saving_keeps_the_evening_peak_in_its_place() {
    // A sharp peak at 18:00 local time; the zone moves from UTC+1 to UTC+2 as week five starts.
    let change = hour(4 * WEEK);
    let offset = move |t: Millis| if t < change { 60 } else { 120 };
    let local_hour = |h: usize| (h as i64 + i64::from(offset(hour(h))) / 60).rem_euclid(24);
    let counts = draw(5 * WEEK, 5, |h| if local_hour(h) == 18 { 60.0 } else { 5.0 });
    let s = SpikeSettings::default();
    assert!(walk_zoned(&counts, 4 * WEEK..5 * WEEK, &s, Some(&offset)).is_empty());
    // Counted in UTC the peak moves an hour earlier and reads as a spike every evening.
    assert_eq!(walk(&counts, 4 * WEEK..5 * WEEK, &SpikeSettings { cooldown_hours: 1, ..s }).len(), 7);
}

/// The demo generator's rhythm (crates/hark-ingest/src/demo/timeline.rs, `base_rate`): quiet at
/// 04:00 UTC, busiest at 16:00, weekends at 0.75 and Mondays at 1.08.
fn demo_base_rate(t: Millis) -> f64 {
    let hour = t.rem_euclid(DAY_MS) as f64 / H as f64;
    let phase = (hour - 4.0) / 24.0 * std::f64::consts::TAU;
    let day = 0.5 - 0.5 * phase.cos();
    let daily = 0.3 + 1.3 * day * day.sqrt();
    let weekly = match (t.div_euclid(DAY_MS) + 4).rem_euclid(7) {
        0 | 6 => 0.75,
        1 => 1.08,
        _ => 1.0,
    };
    daily * weekly
}

#[test]
fn a_week_of_demo_traffic_sends_no_alert_and_an_injected_burst_one() {
    // The demo backfill: 40,000 posts over 30 days, about 80% of them matching the demo tracker,
    // starting at an odd hour of a Thursday. Its last week is judged against hours of the day and,
    // in its last two days, against four weeks.
    let hours = 30 * DAY;
    let first = MONDAY + 3 * DAY_MS + 5 * H;
    let shifted = |h: usize| demo_base_rate(first + h as i64 * H + H / 2);
    let k = 0.8 * 40_000.0 / (0..hours).map(shifted).sum::<f64>();
    let rate = move |h: usize| k * shifted(h);
    let walk_demo = |counts: &[u64]| -> Vec<usize> {
        let mut last = None;
        let mut fired = Vec::new();
        for h in hours - 7 * DAY..hours {
            let series = HourlySeries::new(first, &counts[..=h]);
            if let Some(d) = detect(&series, first + h as i64 * H, &SpikeSettings::default(), last) {
                last = Some(d.at);
                fired.push(h);
            }
        }
        fired
    };
    for seed in 0..6 {
        let counts = draw(hours, seed, rate);
        assert!(walk_demo(&counts).is_empty(), "seed {seed}");
        let start = hours - 4 * DAY + 9;
        let counts = draw(hours, seed, burst(rate, start, 3, 8.0));
        assert_eq!(walk_demo(&counts), vec![start], "seed {seed}");
    }
    let counts = draw(hours, 0, rate);
    let judged = |h: usize| decide(&HourlySeries::new(first, &counts[..=h]), first + h as i64 * H, &SpikeSettings::default(), None);
    assert_eq!(judged(hours - 7 * DAY).unwrap().baseline, Baseline::Daily { days: 14 });
    assert_eq!(judged(hours - 1).unwrap().baseline, Baseline::Weekly { weeks: 4 });
}

#[test]
fn odd_inputs() {
    let s = SpikeSettings::default();
    let empty = HourlySeries::new(MONDAY, &[]);
    assert_eq!(decide(&empty, MONDAY, &s, None), None);
    let counts = draw(5 * WEEK, 1, cycles);
    let series = HourlySeries::new(MONDAY, &counts);
    // Outside the series, or at extreme instants: no decision.
    for at in [MONDAY - 1, hour(5 * WEEK), i64::MIN, i64::MAX, 0] {
        assert_eq!(decide(&series, at, &s, None), None, "{at}");
    }
    // An instant inside an hour is judged as that hour.
    assert_eq!(decide(&series, hour(800) + 1234, &s, None).unwrap().at, hour(800));
    // All zeros: judged, nothing above.
    let zeros = vec![0u64; 5 * WEEK];
    let d = decide(&HourlySeries::new(MONDAY, &zeros), hour(5 * WEEK - 1), &s, None).unwrap();
    assert!(!d.above && d.z == 0.0 && d.expected == 0.0 && d.scale >= 1.0);
    // Huge counts: the sum saturates, z stays finite, it fires once, the same hour never twice.
    let mut huge = counts.clone();
    huge[800] = u64::MAX;
    let series = HourlySeries::new(MONDAY, &huge);
    let d = detect(&series, hour(800), &s, None).unwrap();
    assert!(d.observed == u64::MAX && d.z.is_finite());
    let no_cooldown = SpikeSettings { cooldown_hours: 0, ..s };
    assert_eq!(detect(&series, hour(800), &no_cooldown, Some(d.at)), None);
    // A last alert in the future holds it back.
    assert_eq!(detect(&series, hour(800), &s, Some(hour(900))), None);
    // The figures are stored as JSON with the alert.
    let json = serde_json::to_string(&d).unwrap();
    assert!(json.contains(r#""baseline":{"kind":"weekly","weeks":4}"#), "{json}");
    assert_eq!(serde_json::from_str::<SpikeDecision>(&json).unwrap(), d);
}

fn any_counts() -> impl Strategy<Value = Vec<u64>> {
    let count = prop_oneof![4 => 0u64..4, 4 => 0u64..300, 1 => any::<u64>(), 1 => Just(u64::MAX)];
    prop::collection::vec(count, 0..5 * WEEK + 30)
}

proptest! {
    // 256 cases by default; PROPTEST_CASES=n runs more.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn never_panics_and_z_is_finite(
        counts in any_counts(),
        first in prop_oneof![Just(MONDAY), any::<i64>()],
        at_hour in -3i64..(5 * WEEK as i64 + 40),
        raw_at in prop::option::of(any::<i64>()),
        last in prop::option::of(prop_oneof![any::<i64>(), Just(MONDAY)]),
        sensitivity in prop::sample::select(ALL.to_vec()),
        min_count in prop_oneof![Just(10u64), any::<u64>()],
        cooldown_hours in any::<u32>(),
        zone in 0u8..3,
    ) {
        let offset = move |t: Millis| -> i32 {
            match zone {
                0 => 0,
                1 => if t.rem_euclid(7 * DAY_MS) < DAY_MS { 60 } else { 120 },
                _ => (t % 1000) as i32 * 1_000_000, // nonsense offsets must not panic either
            }
        };
        let series = HourlySeries::new(first, &counts).with_offsets(&offset);
        let at = raw_at.unwrap_or_else(|| first.saturating_add(at_hour.saturating_mul(H)));
        let s = SpikeSettings { sensitivity, min_count, cooldown_hours };
        if let Some(d) = decide(&series, at, &s, last) {
            prop_assert!(d.z.is_finite() && d.expected.is_finite() && d.scale >= 1.0);
            prop_assert!(d.window_start <= d.at && d.at < d.window_end);
            prop_assert!(!d.fire || d.above);
            prop_assert_eq!(detect(&series, at, &s, last), d.fire.then_some(d));
        } else {
            prop_assert_eq!(detect(&series, at, &s, last), None);
        }
    }
}

/// False-alert rates on simulated traffic, to tune the sensitivities:
/// `cargo test -p hark-core spike::tests::calibration -- --ignored --nocapture`.
#[test]
#[ignore]
fn calibration() {
    let seeds = 100u64;
    let rate_of = |alerts: usize, weeks: u64| alerts as f64 / (seeds * weeks) as f64;
    for mean in [1.0, 3.0, 10.0, 30.0, 100.0, 1000.0] {
        for noise in [0.0, 0.3] {
            for s in ALL {
                let alerts: usize = (0..seeds)
                    .map(|seed| {
                        let mut rng = Rng(seed ^ 0xABCD);
                        let jitter: Vec<f64> = (0..5 * WEEK).map(|_| (noise * rng.normal()).exp()).collect();
                        let counts = draw(5 * WEEK, seed, |h| mean * jitter[h]);
                        walk(&counts, 4 * WEEK..5 * WEEK, &with(s)).len()
                    })
                    .sum();
                println!("flat {mean:>6}/h, ±{noise} noise, {s:?}: {:.3} alerts a week", rate_of(alerts, 1));
            }
        }
    }
    for factor in [2.5, 4.0, 8.0] {
        for scale in [0.3, 1.0, 3.0] {
            for s in ALL {
                let (mut first, mut later) = (0, 0);
                for seed in 0..seeds {
                    let start = 4 * WEEK + (seed as usize * 7) % WEEK;
                    let counts = draw(5 * WEEK, seed, burst(|h| scale * cycles(h), start, 3, factor));
                    let fired = hours_of(&walk(&counts, 4 * WEEK..5 * WEEK, &with(s)));
                    first += fired.contains(&start) as usize;
                    later += (fired.contains(&(start + 1)) || fired.contains(&(start + 2))) as usize;
                }
                println!("burst {factor}× on cycles ×{scale}, {s:?}: first hour {first}%, later {later}%");
            }
        }
    }
    for scale in [0.1, 0.3, 1.0, 3.0] {
        for s in ALL {
            let alerts: usize = (0..seeds)
                .map(|seed| walk(&draw(5 * WEEK, seed, |h| scale * cycles(h)), 2 * WEEK..5 * WEEK, &with(s)).len())
                .sum();
            println!("cycles ×{scale}, {s:?}: {:.3} alerts a week", rate_of(alerts, 3));
        }
    }
}

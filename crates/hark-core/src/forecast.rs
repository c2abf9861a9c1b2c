//! Post-volume forecasts: additive Holt-Winters with a damped trend and a weekly season, the
//! smoothing parameters chosen by the smallest one-step squared error over a grid, and a 95%
//! prediction band from the residual spread (the usual additive-model variance approximation).

/// One forecast step with its 95% band (lower never below zero).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForecastPoint {
    pub value: f64,
    pub lower: f64,
    pub upper: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Params {
    alpha: f64,
    beta: f64,
    gamma: f64,
}

const PHI: f64 = 0.9;
const Z95: f64 = 1.96;

struct Fit {
    level: f64,
    trend: f64,
    season: Vec<f64>,
    sse: f64,
    n: usize,
}

fn fit(y: &[f64], m: usize, p: Params) -> Fit {
    let first = &y[..m];
    let mut level = first.iter().sum::<f64>() / m as f64;
    let mut trend = if y.len() >= 2 * m {
        let second = y[m..2 * m].iter().sum::<f64>() / m as f64;
        (second - level) / m as f64
    } else {
        0.0
    };
    let mut season: Vec<f64> = first.iter().map(|v| v - level).collect();
    let mut sse = 0.0;
    let mut n = 0;
    for (t, &obs) in y.iter().enumerate().skip(m) {
        let s = season[t % m];
        let predicted = level + PHI * trend + s;
        let err = obs - predicted;
        sse += err * err;
        n += 1;
        let prev = level;
        level = p.alpha * (obs - s) + (1.0 - p.alpha) * (prev + PHI * trend);
        trend = p.beta * (level - prev) + (1.0 - p.beta) * PHI * trend;
        season[t % m] = p.gamma * (obs - level) + (1.0 - p.gamma) * s;
    }
    Fit { level, trend, season, sse, n }
}

/// Forecasts `horizon` steps after `history` (e.g. daily post counts) with a season of `period`
/// steps (7 for days). Fewer than two seasons of history fit a damped trend without a season;
/// an empty history forecasts zeros.
pub fn holt_winters(history: &[f64], period: usize, horizon: usize) -> Vec<ForecastPoint> {
    if history.is_empty() {
        return vec![ForecastPoint { value: 0.0, lower: 0.0, upper: 0.0 }; horizon];
    }
    let m = if period >= 2 && history.len() >= 2 * period { period } else { 1 };
    let grid = [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9];
    let gammas: &[f64] = if m == 1 { &[0.0] } else { &grid };
    let mut best: Option<(Params, Fit)> = None;
    for &alpha in &grid {
        for &beta in &grid[..5] {
            for &gamma in gammas {
                let p = Params { alpha, beta, gamma };
                let f = fit(history, m, p);
                if best.as_ref().is_none_or(|(_, b)| f.sse < b.sse) {
                    best = Some((p, f));
                }
            }
        }
    }
    let (p, f) = best.expect("grid is not empty");
    let sigma2 = if f.n > 0 { f.sse / f.n as f64 } else { 0.0 };
    let t0 = history.len();
    let mut damp = 0.0;
    let mut var_sum = 0.0;
    (1..=horizon)
        .map(|h| {
            damp += PHI.powi(h as i32);
            let value = (f.level + damp * f.trend + f.season[(t0 + h - 1) % m]).max(0.0);
            // Var of the h-step error: σ²(1 + Σ_{j<h} (α(1 + jβ) + γ·[j ≡ 0 mod m])²).
            if h > 1 {
                let j = (h - 1) as f64;
                let seasonal = if m > 1 && (h - 1) % m == 0 { p.gamma } else { 0.0 };
                let c = p.alpha * (1.0 + j * p.beta) + seasonal;
                var_sum += c * c;
            }
            let half = Z95 * (sigma2 * (1.0 + var_sum)).sqrt();
            ForecastPoint { value, lower: (value - half).max(0.0), upper: value + half }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_a_weekly_pattern() {
        // Weekdays 100, weekends 20, for eight weeks.
        let week = [100.0, 100.0, 100.0, 100.0, 100.0, 20.0, 20.0];
        let y: Vec<f64> = week.iter().cycle().take(56).copied().collect();
        let f = holt_winters(&y, 7, 14);
        for (h, p) in f.iter().enumerate() {
            let want = week[(56 + h) % 7];
            assert!((p.value - want).abs() < 5.0, "step {h}: {} vs {want}", p.value);
            assert!(p.lower <= p.value && p.value <= p.upper);
        }
    }

    #[test]
    fn follows_a_trend_and_widens_its_band() {
        let y: Vec<f64> = (0..60).map(|t| 10.0 + 2.0 * t as f64 + if t % 2 == 0 { 3.0 } else { -3.0 }).collect();
        let f = holt_winters(&y, 7, 10);
        assert!(f[0].value > 120.0 && f[0].value < 140.0, "{:?}", f[0]);
        assert!(f[9].value >= f[0].value);
        assert!(f[9].upper - f[9].lower > f[0].upper - f[0].lower);
    }

    #[test]
    fn short_and_empty_histories() {
        assert_eq!(holt_winters(&[], 7, 3).len(), 3);
        let f = holt_winters(&[5.0, 5.0, 5.0], 7, 2);
        assert!((f[0].value - 5.0).abs() < 1e-9);
        assert_eq!(f[0].lower, 5.0, "no error, no band");
        // Never negative.
        let falling: Vec<f64> = (0..30).map(|t| (30 - t) as f64).collect();
        assert!(holt_winters(&falling, 7, 60).iter().all(|p| p.value >= 0.0 && p.lower >= 0.0));
    }
}

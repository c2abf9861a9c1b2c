//! The statistics of the trending topics and sentiment pages.
//!
//! **Trend score** ([`trend_score`]): how unusual a term's share of posts is in the current window
//! against a baseline window of the same tracker, as a signed likelihood-ratio statistic: the
//! square root of Dunning's G² for the 2×2 table (posts with and without the term, current and
//! baseline), positive when the term's share rose. Under "no change" it is about standard normal,
//! so 2 is unusual and 4 is very unusual, whatever the tracker's volume. It compares shares, not
//! counts, so a term that is frequent every day scores near 0 however frequent it is, and a tracker
//! that simply grew does not make every term trend. G² is used rather than a z-score of the
//! proportions because z overstates small expected counts (a term seen once before and five times
//! now), where G² stays calibrated. Terms seen fewer than [`MIN_TREND_COUNT`] times in the current
//! window score 0: a handful of posts is never a trend.
//!
//! **Significant keywords** ([`log_odds`]): the weighted log-odds ratio with an informative
//! Dirichlet prior (Monroe, Colaresi and Quinn, "Fightin' Words", 2008): a term's log-odds in one
//! group of posts (the positive ones) against the others, shrunk towards its overall frequency and
//! divided by its standard error. Raw frequency would list the tracker's common words in both
//! groups; a plain ratio would list words seen once. The z value ranks, and |z| ≥ 1.96 (5 %) is
//! kept as significant.

/// Fewest current-window posts with a term before it can trend.
pub const MIN_TREND_COUNT: i64 = 5;

/// Fewest posts in a group before its keywords are tested, and fewest uses of a keyword there.
pub const MIN_KEYWORD_COUNT: i64 = 3;

/// The prior's largest total weight (α₀): the overall frequencies count as at most this many
/// term uses.
pub const PRIOR_WEIGHT: f64 = 500.0;

/// The prior's weight for a range with `uses` term uses: a tenth of them, at most
/// [`PRIOR_WEIGHT`]. A fixed weight would drown a small tracker's evidence (500 prior uses against
/// 150 real ones list nothing), while over millions of uses any weight this size only steadies
/// the rare words.
pub fn prior_weight(uses: f64) -> f64 {
    (uses * 0.1).clamp(1.0, PRIOR_WEIGHT)
}

/// Two-sided 5 % significance.
pub const SIGNIFICANT_Z: f64 = 1.96;

fn xlnx(o: f64, e: f64) -> f64 {
    if o <= 0.0 || e <= 0.0 {
        0.0
    } else {
        o * (o / e).ln()
    }
}

/// The signed square root of G² for `x1` of `n1` posts now against `x0` of `n0` before; 0 below
/// [`MIN_TREND_COUNT`] or without a baseline.
pub fn trend_score(x1: i64, n1: i64, x0: i64, n0: i64) -> f64 {
    if x1 < MIN_TREND_COUNT || n1 <= 0 || n0 <= 0 {
        return 0.0;
    }
    let (x1, n1, x0, n0) = (x1 as f64, n1 as f64, x0 as f64, n0 as f64);
    let n = n1 + n0;
    let with = x1 + x0;
    let without = n - with;
    let cells = [
        (x1, n1 * with / n),
        (n1 - x1, n1 * without / n),
        (x0, n0 * with / n),
        (n0 - x0, n0 * without / n),
    ];
    let g2 = 2.0 * cells.iter().map(|(o, e)| xlnx(*o, *e)).sum::<f64>();
    let s = g2.max(0.0).sqrt();
    if x1 / n1 >= x0 / n0 {
        s
    } else {
        -s
    }
}

/// The change of a term's share from the baseline to now (0.5 = half as much again); None when
/// the baseline never had it.
pub fn share_change(x1: i64, n1: i64, x0: i64, n0: i64) -> Option<f64> {
    if x0 <= 0 || n0 <= 0 || n1 <= 0 {
        return None;
    }
    Some((x1 as f64 / n1 as f64) / (x0 as f64 / n0 as f64) - 1.0)
}

/// The z value of the log-odds of a term in group `i` (`yi` of `ni` term uses) against the rest
/// (`yj` of `nj`), with the prior `alpha` for the term out of `alpha0` in all.
pub fn log_odds(yi: f64, ni: f64, yj: f64, nj: f64, alpha: f64, alpha0: f64) -> f64 {
    let odds = |y: f64, n: f64| ((y + alpha) / (n + alpha0 - y - alpha).max(f64::MIN_POSITIVE)).ln();
    let delta = odds(yi, ni) - odds(yj, nj);
    let var = 1.0 / (yi + alpha) + 1.0 / (yj + alpha);
    delta / var.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_term_as_frequent_as_always_does_not_trend() {
        // 30 % of posts every day, at any volume.
        assert!(trend_score(3_000, 10_000, 12_000, 40_000).abs() < 1e-9);
        assert!(trend_score(300_000, 1_000_000, 1_200_000, 4_000_000).abs() < 1e-6);
        // Even when the tracker doubled its volume.
        assert!(trend_score(6_000, 20_000, 12_000, 40_000).abs() < 1e-9);
    }

    #[test]
    fn a_rising_term_trends_and_a_falling_one_goes_negative() {
        // 1 % before, 5 % now.
        let up = trend_score(500, 10_000, 400, 40_000);
        assert!(up > 15.0, "{up}");
        let down = trend_score(100, 10_000, 2_000, 40_000);
        assert!(down < -10.0, "{down}");
        // New and frequent beats new and rare.
        assert!(trend_score(50, 10_000, 0, 40_000) > trend_score(6, 10_000, 0, 40_000));
    }

    #[test]
    fn a_handful_of_posts_never_trends() {
        assert_eq!(trend_score(4, 100, 0, 10_000), 0.0);
        assert_eq!(trend_score(100, 1_000, 0, 0), 0.0);
    }

    #[test]
    fn noise_stays_small() {
        // A share of 2 % drawn around its mean: a 1-σ wobble of the count scores about 1.
        let s = trend_score(214, 10_000, 800, 40_000);
        assert!(s > 0.5 && s < 1.5, "{s}");
    }

    #[test]
    fn the_statistic_matches_a_hand_computation() {
        // x1=10 of 100, x0=10 of 400: G² by hand.
        let (n, with) = (500.0f64, 20.0f64);
        let e = [100.0 * with / n, 100.0 * (n - with) / n, 400.0 * with / n, 400.0 * (n - with) / n];
        let o = [10.0f64, 90.0, 10.0, 390.0];
        let g2: f64 = 2.0 * o.iter().zip(e).map(|(o, e)| o * (o / e).ln()).sum::<f64>();
        assert!((trend_score(10, 100, 10, 400) - g2.sqrt()).abs() < 1e-9);
        assert_eq!(share_change(10, 100, 10, 400), Some(3.0));
        assert_eq!(share_change(10, 100, 0, 400), None);
    }

    #[test]
    fn log_odds_separates_group_words_from_common_ones() {
        // "great" is in 300 of 1,000 positive uses and 50 of 9,000 others; "coffee" is 10 % of
        // both; "awful" never positive but 400 times elsewhere.
        let (ni, nj) = (1_000.0, 9_000.0);
        let prior = |y: f64| PRIOR_WEIGHT * y / (ni + nj);
        let great = log_odds(300.0, ni, 50.0, nj, prior(350.0), PRIOR_WEIGHT);
        let coffee = log_odds(100.0, ni, 900.0, nj, prior(1_000.0), PRIOR_WEIGHT);
        let awful = log_odds(0.0, ni, 400.0, nj, prior(400.0), PRIOR_WEIGHT);
        assert!(great > 10.0, "{great}");
        assert!(coffee.abs() < 0.1, "{coffee}");
        assert!(awful < -3.0, "{awful}");
        // Once is not evidence: a word seen once in the group and never elsewhere is not significant.
        let once = log_odds(1.0, ni, 0.0, nj, prior(1.0), PRIOR_WEIGHT);
        assert!(once < SIGNIFICANT_Z, "{once}");
    }
}

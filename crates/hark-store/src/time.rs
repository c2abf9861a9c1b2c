//! Time units of the rollups (UTC hours and days, in milliseconds) and rounding to them.

pub use hark_core::limits::{DAY_MS, HOUR_MS};

/// `x` rounded down to its hour, without overflow at the ends of the range.
pub(crate) fn hour_floor(x: i64) -> i64 {
    let h = (x as i128).div_euclid(HOUR_MS as i128) * HOUR_MS as i128;
    h.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

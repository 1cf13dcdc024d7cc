//! Page time: the browser's high-resolution timestamps, turned into the
//! loop's integer nanoseconds. `performance.now()` and the time an animation
//! frame hands its callbacks are both milliseconds, as a float, since the
//! page's time origin, so one conversion serves both and the two kinds of
//! stamp stay in one time base.

use evenstep::{Nanos, Timestamp};

/// A page timestamp in milliseconds (`performance.now()`, or an animation
/// frame's time) as a [`Timestamp`]: nanoseconds since the page's time
/// origin, rounded to the nearest nanosecond.
///
/// Browsers coarsen these readings (to 5 µs in a cross-origin isolated
/// page, to 100 µs otherwise), so the rounding loses nothing. A reading that
/// is not a number or is negative, which no browser gives, is the origin;
/// one too large for the loop's clock is the latest instant it holds.
///
/// # Examples
///
/// ```
/// use evenstep::Timestamp;
/// use evenstep_web::timestamp_from_millis;
///
/// assert_eq!(timestamp_from_millis(16.667), Timestamp::from_nanos(16_667_000));
/// assert_eq!(timestamp_from_millis(f64::NAN), Timestamp::ZERO);
/// ```
#[allow(
    clippy::cast_sign_loss,
    reason = "a float-to-integer cast saturates: negative and NaN give 0, too large gives the maximum"
)]
pub fn timestamp_from_millis(millis: f64) -> Timestamp {
    Timestamp::from_nanos((millis * 1_000_000.0).round() as u64)
}

/// A wait as the whole milliseconds a browser timer (`setTimeout`) takes:
/// rounded up, because a timer that wakes early finds nothing due and has
/// to wait again, and at most `i32::MAX` (about 24.8 days), because
/// browsers read the delay as a 32-bit signed number and run a longer one
/// at once.
///
/// # Examples
///
/// ```
/// use evenstep::Nanos;
/// use evenstep_web::timer_millis;
///
/// assert_eq!(timer_millis(Nanos::from_nanos(16_666_667)), 17);
/// assert_eq!(timer_millis(Nanos::MAX), i32::MAX);
/// ```
pub fn timer_millis(wait: Nanos) -> i32 {
    let millis = wait.as_nanos().div_ceil(1_000_000);
    i32::try_from(millis).unwrap_or(i32::MAX)
}

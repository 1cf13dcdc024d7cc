//! Contract: page timestamps (milliseconds as a float since the page's time
//! origin, from `performance.now()` or an animation frame) become integer
//! nanoseconds, rounded to the nearest; readings no browser gives are the
//! origin or the latest instant, never a panic; and a wait becomes a timer
//! delay that never wakes early and never overflows the browser's 32-bit
//! delay.

use evenstep::{Nanos, Timestamp};
use evenstep_web::{timer_millis, timestamp_from_millis};

#[test]
fn page_milliseconds_become_nanoseconds_rounded_to_the_nearest() {
    assert_eq!(timestamp_from_millis(0.0), Timestamp::ZERO);
    assert_eq!(
        timestamp_from_millis(16.666_666_6),
        Timestamp::from_nanos(16_666_667)
    );
    assert_eq!(
        timestamp_from_millis(1_234.567_8),
        Timestamp::from_nanos(1_234_567_800)
    );
    assert_eq!(timestamp_from_millis(0.000_000_4), Timestamp::ZERO);
}

#[test]
fn a_day_of_page_time_keeps_its_five_microsecond_steps_exact() {
    // A cross-origin isolated page's clock steps by 5 µs; a day in, a float
    // still holds each step to well under a nanosecond.
    assert_eq!(
        timestamp_from_millis(86_400_000.005),
        Timestamp::from_nanos(86_400_000_005_000)
    );
    assert_eq!(
        timestamp_from_millis(86_400_000.010),
        Timestamp::from_nanos(86_400_000_010_000)
    );
}

#[test]
fn unreadable_page_times_are_the_origin_or_the_latest_instant() {
    assert_eq!(timestamp_from_millis(f64::NAN), Timestamp::ZERO);
    assert_eq!(timestamp_from_millis(-1.0), Timestamp::ZERO);
    assert_eq!(timestamp_from_millis(-0.0), Timestamp::ZERO);
    assert_eq!(timestamp_from_millis(f64::NEG_INFINITY), Timestamp::ZERO);
    assert_eq!(timestamp_from_millis(f64::INFINITY), Timestamp::MAX);
    assert_eq!(timestamp_from_millis(1e300), Timestamp::MAX);
}

#[test]
fn a_timer_delay_never_wakes_early_and_never_overflows() {
    assert_eq!(timer_millis(Nanos::ZERO), 0);
    assert_eq!(timer_millis(Nanos::from_nanos(1)), 1);
    assert_eq!(timer_millis(Nanos::from_millis(1)), 1);
    assert_eq!(timer_millis(Nanos::from_nanos(1_000_001)), 2);
    assert_eq!(timer_millis(Nanos::from_nanos(16_666_667)), 17);
    // Browsers run a delay over i32::MAX ms at once: it is capped instead.
    assert_eq!(timer_millis(Nanos::from_secs(30 * 86_400)), i32::MAX);
    assert_eq!(timer_millis(Nanos::MAX), i32::MAX);
}

//! Integer-nanosecond time: [`Nanos`] is a length of time, [`Timestamp`] is a
//! point on some monotonic clock. They are separate types so that passing one
//! where the other belongs is a compile error, and every operation on them
//! saturates instead of wrapping or panicking, so no input can make the planner
//! fail.

use core::fmt;
use core::ops::{Add, AddAssign, Sub, SubAssign};
use core::time::Duration;

/// Nanoseconds in one second.
pub(crate) const NANOS_PER_SEC: u64 = 1_000_000_000;

/// A length of time in whole nanoseconds.
///
/// Arithmetic saturates at `0` and at [`Nanos::MAX`] (about 584 years): time
/// in a game loop never wraps and never panics.
///
/// # Examples
///
/// ```
/// use core::time::Duration;
/// use evenstep_core::Nanos;
///
/// let frame = Nanos::from_millis(16);
/// assert_eq!(frame + Nanos::from_nanos(666_667), Nanos::from_nanos(16_666_667));
/// assert_eq!(Nanos::ZERO - frame, Nanos::ZERO); // saturates, never wraps
/// assert_eq!(Duration::from(frame), Duration::from_millis(16));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nanos(u64);

impl Nanos {
    /// No time at all.
    pub const ZERO: Nanos = Nanos(0);
    /// The longest representable length, `u64::MAX` nanoseconds.
    pub const MAX: Nanos = Nanos(u64::MAX);

    /// A length of `nanos` nanoseconds.
    pub const fn from_nanos(nanos: u64) -> Nanos {
        Nanos(nanos)
    }

    /// A length of `micros` microseconds, saturating at [`Nanos::MAX`].
    pub const fn from_micros(micros: u64) -> Nanos {
        Nanos(micros.saturating_mul(1_000))
    }

    /// A length of `millis` milliseconds, saturating at [`Nanos::MAX`].
    pub const fn from_millis(millis: u64) -> Nanos {
        Nanos(millis.saturating_mul(1_000_000))
    }

    /// A length of `secs` seconds, saturating at [`Nanos::MAX`].
    pub const fn from_secs(secs: u64) -> Nanos {
        Nanos(secs.saturating_mul(NANOS_PER_SEC))
    }

    /// The length of `duration`, saturating at [`Nanos::MAX`] for durations
    /// longer than `u64::MAX` nanoseconds.
    pub const fn from_duration(duration: Duration) -> Nanos {
        let nanos = duration.as_nanos();
        if nanos > u64::MAX as u128 {
            Nanos::MAX
        } else {
            Nanos(nanos as u64)
        }
    }

    /// The length as a whole number of nanoseconds.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }

    /// The length as a [`Duration`] (always exact: a `Duration` holds any `u64`
    /// of nanoseconds).
    pub const fn as_duration(self) -> Duration {
        Duration::from_nanos(self.0)
    }

    /// The length in seconds, as an `f64` (a view for display; exact up to
    /// about 104 days).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NANOS_PER_SEC as f64
    }

    /// `self + rhs`, saturating at [`Nanos::MAX`].
    #[must_use]
    pub const fn saturating_add(self, rhs: Nanos) -> Nanos {
        Nanos(self.0.saturating_add(rhs.0))
    }

    /// `self - rhs`, saturating at [`Nanos::ZERO`].
    #[must_use]
    pub const fn saturating_sub(self, rhs: Nanos) -> Nanos {
        Nanos(self.0.saturating_sub(rhs.0))
    }

    /// `self + rhs`, or `None` if the sum does not fit.
    pub const fn checked_add(self, rhs: Nanos) -> Option<Nanos> {
        match self.0.checked_add(rhs.0) {
            Some(n) => Some(Nanos(n)),
            None => None,
        }
    }

    /// `self - rhs`, or `None` if `rhs` is longer than `self`.
    pub const fn checked_sub(self, rhs: Nanos) -> Option<Nanos> {
        match self.0.checked_sub(rhs.0) {
            Some(n) => Some(Nanos(n)),
            None => None,
        }
    }

    /// `self * rhs`, saturating at [`Nanos::MAX`].
    #[must_use]
    pub const fn saturating_mul(self, rhs: u64) -> Nanos {
        Nanos(self.0.saturating_mul(rhs))
    }

    /// Whether this is no time at all.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl From<Duration> for Nanos {
    /// Saturates at [`Nanos::MAX`]; see [`Nanos::from_duration`].
    fn from(duration: Duration) -> Nanos {
        Nanos::from_duration(duration)
    }
}

impl From<Nanos> for Duration {
    fn from(nanos: Nanos) -> Duration {
        nanos.as_duration()
    }
}

impl Add for Nanos {
    type Output = Nanos;
    /// Saturating addition.
    fn add(self, rhs: Nanos) -> Nanos {
        self.saturating_add(rhs)
    }
}

impl AddAssign for Nanos {
    fn add_assign(&mut self, rhs: Nanos) {
        *self = self.saturating_add(rhs);
    }
}

impl Sub for Nanos {
    type Output = Nanos;
    /// Saturating subtraction: never below zero.
    fn sub(self, rhs: Nanos) -> Nanos {
        self.saturating_sub(rhs)
    }
}

impl SubAssign for Nanos {
    fn sub_assign(&mut self, rhs: Nanos) {
        *self = self.saturating_sub(rhs);
    }
}

impl fmt::Display for Nanos {
    /// Formats as a `Duration` does (`16.666667ms`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_duration(), f)
    }
}

/// A point in time: whole nanoseconds since the epoch of whatever monotonic
/// clock the caller reads.
///
/// The planner never reads a clock; the caller passes timestamps in. The only
/// thing the planner does with two timestamps is subtract them, so the epoch
/// does not matter, only that one clock is used throughout.
///
/// # Examples
///
/// ```
/// use evenstep_core::{Nanos, Timestamp};
///
/// let start = Timestamp::from_nanos(1_000);
/// let later = start + Nanos::from_millis(5);
/// assert_eq!(later.saturating_since(start), Nanos::from_millis(5));
/// assert_eq!(start.saturating_since(later), Nanos::ZERO); // backwards is zero
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(u64);

impl Timestamp {
    /// The clock's epoch.
    pub const ZERO: Timestamp = Timestamp(0);
    /// The latest representable instant.
    pub const MAX: Timestamp = Timestamp(u64::MAX);

    /// The instant `nanos` nanoseconds after the clock's epoch.
    pub const fn from_nanos(nanos: u64) -> Timestamp {
        Timestamp(nanos)
    }

    /// Nanoseconds since the clock's epoch.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }

    /// The time elapsed from `earlier` to `self`, or [`Nanos::ZERO`] if
    /// `earlier` is later than `self` (a clock that stepped backwards).
    pub const fn saturating_since(self, earlier: Timestamp) -> Nanos {
        Nanos(self.0.saturating_sub(earlier.0))
    }

    /// The time elapsed from `earlier` to `self`, or `None` if `earlier` is
    /// later than `self`.
    pub const fn checked_since(self, earlier: Timestamp) -> Option<Nanos> {
        match self.0.checked_sub(earlier.0) {
            Some(n) => Some(Nanos(n)),
            None => None,
        }
    }

    /// `self + by`, saturating at [`Timestamp::MAX`].
    #[must_use]
    pub const fn saturating_add(self, by: Nanos) -> Timestamp {
        Timestamp(self.0.saturating_add(by.0))
    }

    /// `self - by`, saturating at [`Timestamp::ZERO`].
    #[must_use]
    pub const fn saturating_sub(self, by: Nanos) -> Timestamp {
        Timestamp(self.0.saturating_sub(by.0))
    }
}

impl Add<Nanos> for Timestamp {
    type Output = Timestamp;
    /// Saturating: see [`Timestamp::saturating_add`].
    fn add(self, rhs: Nanos) -> Timestamp {
        self.saturating_add(rhs)
    }
}

impl AddAssign<Nanos> for Timestamp {
    fn add_assign(&mut self, rhs: Nanos) {
        *self = self.saturating_add(rhs);
    }
}

impl Sub<Nanos> for Timestamp {
    type Output = Timestamp;
    /// Saturating: see [`Timestamp::saturating_sub`].
    fn sub(self, rhs: Nanos) -> Timestamp {
        self.saturating_sub(rhs)
    }
}

impl SubAssign<Nanos> for Timestamp {
    fn sub_assign(&mut self, rhs: Nanos) {
        *self = self.saturating_sub(rhs);
    }
}

impl Add<Duration> for Timestamp {
    type Output = Timestamp;
    /// Saturating: a duration longer than the clock's range ends at
    /// [`Timestamp::MAX`].
    fn add(self, rhs: Duration) -> Timestamp {
        self.saturating_add(Nanos::from_duration(rhs))
    }
}

impl AddAssign<Duration> for Timestamp {
    fn add_assign(&mut self, rhs: Duration) {
        *self = *self + rhs;
    }
}

impl Sub for Timestamp {
    type Output = Nanos;
    /// The elapsed time, saturating at zero: see [`Timestamp::saturating_since`].
    fn sub(self, earlier: Timestamp) -> Nanos {
        self.saturating_since(earlier)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nanos_saturate_at_both_ends() {
        assert_eq!(Nanos::MAX + Nanos::from_nanos(1), Nanos::MAX);
        assert_eq!(Nanos::ZERO - Nanos::from_nanos(1), Nanos::ZERO);
        assert_eq!(Nanos::from_secs(u64::MAX), Nanos::MAX);
        assert_eq!(Nanos::MAX.saturating_mul(2), Nanos::MAX);
        assert_eq!(Nanos::MAX.checked_add(Nanos::from_nanos(1)), None);
        assert_eq!(Nanos::ZERO.checked_sub(Nanos::from_nanos(1)), None);
    }

    #[test]
    fn a_duration_longer_than_u64_nanoseconds_saturates() {
        assert_eq!(Nanos::from_duration(Duration::MAX), Nanos::MAX);
        assert_eq!(Nanos::from(Duration::from_nanos(7)), Nanos::from_nanos(7));
        assert_eq!(Timestamp::ZERO + Duration::MAX, Timestamp::MAX);
    }

    #[test]
    fn a_backwards_timestamp_difference_is_zero() {
        let a = Timestamp::from_nanos(10);
        let b = Timestamp::from_nanos(3);
        assert_eq!(b - a, Nanos::ZERO);
        assert_eq!(a - b, Nanos::from_nanos(7));
        assert_eq!(b.checked_since(a), None);
        assert_eq!(Timestamp::MAX + Nanos::from_nanos(1), Timestamp::MAX);
        assert_eq!(Timestamp::ZERO - Nanos::from_nanos(1), Timestamp::ZERO);
    }

    #[test]
    fn nanos_display_like_a_duration() {
        extern crate std;
        use std::format;
        assert_eq!(format!("{}", Nanos::from_micros(1_500)), "1.5ms");
    }
}

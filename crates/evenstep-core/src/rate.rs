//! Rates as exact fractions: so many events every so many seconds. A
//! 29.97 Hz render cap is exactly 30000/1001 Hz, and a 59.94 Hz step exactly
//! 60000/1001, so nothing drifts by rounding a rate to a float or a period
//! to whole nanoseconds.

use core::cmp::Ordering;
use core::fmt;
use core::num::{NonZeroU32, NonZeroU64};

use crate::ratio::gcd;

/// An exact rate: [`events`](Rate::events) every
/// [`per_seconds`](Rate::per_seconds) seconds, both non-zero and in lowest
/// terms, so equal rates compare equal in any terms (`60/2` is `30/1`).
///
/// Rates are ordered by their value: a slower rate is smaller.
///
/// # Examples
///
/// ```
/// use core::num::NonZeroU32;
/// use evenstep_core::Rate;
///
/// let ntsc = Rate::ratio(30_000, 1_001)?; // 29.97 Hz
/// assert_eq!(ntsc.to_string(), "30000/1001 Hz");
/// assert_eq!((ntsc.events().get(), ntsc.per_seconds().get()), (30_000, 1_001));
/// assert!((ntsc.hz_f64() - 29.97).abs() < 0.001);
///
/// let thirty = Rate::hz(NonZeroU32::new(30).unwrap());
/// assert_eq!(Rate::ratio(60, 2)?, thirty);
/// assert!(ntsc < thirty);
/// assert!(Rate::ratio(30, 0).is_err());
/// # Ok::<(), evenstep_core::RateError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rate {
    events: NonZeroU64,
    per_seconds: NonZeroU64,
}

impl Rate {
    /// `hz` events a second.
    pub const fn hz(hz: NonZeroU32) -> Rate {
        Rate {
            events: non_zero(hz.get() as u64),
            per_seconds: NonZeroU64::MIN,
        }
    }

    /// `events` events every `per_seconds` seconds, exactly, reduced to
    /// lowest terms: `ratio(30_000, 1_001)` is 29.97 Hz.
    ///
    /// # Errors
    ///
    /// [`RateError::ZeroEvents`] if `events` is 0, and
    /// [`RateError::ZeroSeconds`] if `per_seconds` is 0: each must be from 1
    /// to `u64::MAX`.
    pub const fn ratio(events: u64, per_seconds: u64) -> Result<Rate, RateError> {
        if events == 0 {
            return Err(RateError::ZeroEvents);
        }
        if per_seconds == 0 {
            return Err(RateError::ZeroSeconds);
        }
        Ok(Rate::lowest(events, per_seconds))
    }

    /// `events / per_seconds` in lowest terms; both are non-zero.
    pub(crate) const fn lowest(events: u64, per_seconds: u64) -> Rate {
        let g = gcd(events as u128, per_seconds as u128) as u64;
        Rate {
            events: non_zero(events / g),
            per_seconds: non_zero(per_seconds / g),
        }
    }

    /// Events every [`per_seconds`](Rate::per_seconds) seconds, in lowest
    /// terms.
    pub const fn events(self) -> NonZeroU64 {
        self.events
    }

    /// The seconds that [`events`](Rate::events) events take, in lowest
    /// terms: 1 for a whole number of hertz.
    pub const fn per_seconds(self) -> NonZeroU64 {
        self.per_seconds
    }

    /// The rate in events a second (hertz), as an `f64`: a view for display.
    pub fn hz_f64(self) -> f64 {
        self.events.get() as f64 / self.per_seconds.get() as f64
    }
}

/// A non-zero `value` as a non-zero type. Every caller passes a quotient of
/// a non-zero number by one of its divisors, which is at least 1.
const fn non_zero(value: u64) -> NonZeroU64 {
    match NonZeroU64::new(value) {
        Some(value) => value,
        None => NonZeroU64::MIN,
    }
}

impl Ord for Rate {
    fn cmp(&self, other: &Rate) -> Ordering {
        // a/b against c/d as a·d against c·b: each product fits 128 bits.
        let left = u128::from(self.events.get()) * u128::from(other.per_seconds.get());
        let right = u128::from(other.events.get()) * u128::from(self.per_seconds.get());
        left.cmp(&right)
    }
}

impl PartialOrd for Rate {
    fn partial_cmp(&self, other: &Rate) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rate({self})")
    }
}

impl fmt::Display for Rate {
    /// `30 Hz`, or `30000/1001 Hz` for a rate that is not a whole number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.events, self.per_seconds.get()) {
            (events, 1) => write!(f, "{events} Hz"),
            (events, per) => write!(f, "{events}/{per} Hz"),
        }
    }
}

/// Why a [`Rate`] could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RateError {
    /// The rate counted 0 events.
    ZeroEvents,
    /// The rate's events took 0 seconds.
    ZeroSeconds,
}

impl fmt::Display for RateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            RateError::ZeroEvents => "the rate counts 0 events",
            RateError::ZeroSeconds => "the rate's events take 0 seconds",
        };
        write!(
            f,
            "{what}; a rate is from 1 to {max} events every 1 to {max} seconds",
            max = u64::MAX
        )
    }
}

impl core::error::Error for RateError {}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::ToString;

    use super::*;

    #[test]
    fn rates_in_any_terms_are_kept_in_lowest_terms_and_compare_by_value() {
        let thirty = Rate::hz(NonZeroU32::new(30).unwrap());
        assert_eq!(Rate::ratio(60, 2).unwrap(), thirty);
        assert_eq!(
            Rate::ratio(30_000, 1_001).unwrap().to_string(),
            "30000/1001 Hz"
        );
        assert_eq!(thirty.to_string(), "30 Hz");
        assert_eq!(std::format!("{thirty:?}"), "Rate(30 Hz)");
        let max = Rate::ratio(u64::MAX, 1).unwrap();
        let slowest = Rate::ratio(1, u64::MAX).unwrap();
        assert!(slowest < thirty && thirty < max);
        // Products beyond 64 bits still order exactly: 1 + 1/(n - 1) < 1 + 1/(n - 2).
        assert!(
            Rate::ratio(u64::MAX, u64::MAX - 1).unwrap()
                < Rate::ratio(u64::MAX - 1, u64::MAX - 2).unwrap()
        );
        assert_eq!(
            Rate::ratio(u64::MAX, u64::MAX).unwrap(),
            Rate::ratio(1, 1).unwrap()
        );
    }

    #[test]
    fn a_zero_rate_is_refused_with_the_valid_range_in_the_message() {
        assert_eq!(Rate::ratio(0, 1), Err(RateError::ZeroEvents));
        assert_eq!(Rate::ratio(1, 0), Err(RateError::ZeroSeconds));
        assert_eq!(Rate::ratio(0, 0), Err(RateError::ZeroEvents));
        assert_eq!(
            RateError::ZeroSeconds.to_string(),
            "the rate's events take 0 seconds; a rate is from 1 to 18446744073709551615 events \
             every 1 to 18446744073709551615 seconds"
        );
    }
}

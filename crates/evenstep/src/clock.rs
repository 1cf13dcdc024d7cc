//! Clocks: where the loop's timestamps come from. [`Clock`] is the one
//! question the loop asks ("what time is it?"), [`MonotonicClock`] answers it
//! from the operating system (the only place in evenstep that reads an OS
//! clock) and [`ManualClock`] answers it from a value tests and tools move by
//! hand.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use evenstep_core::{Nanos, Timestamp};

/// A source of monotonic timestamps.
///
/// The loop reads its clock once at the top of every pump for accounting, and
/// around its update and render phases to measure their cost. Anything that
/// returns a [`Timestamp`] can be a clock, a closure included.
///
/// # Examples
///
/// ```
/// use evenstep::{Clock, Timestamp};
///
/// let fixed = || Timestamp::from_nanos(42);
/// assert_eq!(fixed.now(), Timestamp::from_nanos(42));
/// ```
pub trait Clock {
    /// The current time. Successive readings should not go backwards; if
    /// they do, the loop treats the step back as a zero delta.
    fn now(&self) -> Timestamp;
}

impl<F: Fn() -> Timestamp> Clock for F {
    fn now(&self) -> Timestamp {
        self()
    }
}

impl<C: Clock + ?Sized> Clock for Arc<C> {
    fn now(&self) -> Timestamp {
        (**self).now()
    }
}

/// The operating system's monotonic clock ([`Instant`]), as nanoseconds since
/// this clock was created.
///
/// This is the only type in evenstep that reads an OS clock.
#[derive(Clone, Copy, Debug)]
pub struct MonotonicClock {
    origin: Instant,
}

impl MonotonicClock {
    /// A clock whose epoch is now.
    #[allow(
        clippy::disallowed_methods,
        reason = "MonotonicClock is the one place that reads the OS clock"
    )]
    pub fn new() -> MonotonicClock {
        MonotonicClock {
            origin: Instant::now(),
        }
    }
}

impl Default for MonotonicClock {
    fn default() -> MonotonicClock {
        MonotonicClock::new()
    }
}

impl Clock for MonotonicClock {
    #[allow(
        clippy::disallowed_methods,
        reason = "MonotonicClock is the one place that reads the OS clock"
    )]
    fn now(&self) -> Timestamp {
        Timestamp::ZERO + Nanos::from_duration(self.origin.elapsed())
    }
}

/// A clock that moves only when told to: for tests, tools, replays and
/// headless simulations.
///
/// Clones share one time, so a test can keep a handle, give another to the
/// loop, and advance it from outside (or from inside a callback, to make a
/// phase look expensive). It is `Send` and `Sync`.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use evenstep::{Clock, ManualClock, Timestamp};
///
/// let clock = ManualClock::new();
/// let handle = clock.clone();
/// handle.advance(Duration::from_millis(16));
/// assert_eq!(clock.now(), Timestamp::from_nanos(16_000_000));
/// clock.set(Timestamp::from_nanos(5));
/// assert_eq!(handle.now(), Timestamp::from_nanos(5));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ManualClock {
    nanos: Arc<AtomicU64>,
}

impl ManualClock {
    /// A clock at [`Timestamp::ZERO`].
    pub fn new() -> ManualClock {
        ManualClock::starting_at(Timestamp::ZERO)
    }

    /// A clock at `start`.
    pub fn starting_at(start: Timestamp) -> ManualClock {
        ManualClock {
            nanos: Arc::new(AtomicU64::new(start.as_nanos())),
        }
    }

    /// Moves the clock forward by `by`, saturating at [`Timestamp::MAX`].
    pub fn advance(&self, by: Duration) {
        self.advance_nanos(Nanos::from_duration(by));
    }

    /// Moves the clock forward by `by`, saturating at [`Timestamp::MAX`].
    pub fn advance_nanos(&self, by: Nanos) {
        // One writer at a time is the intended use; fetch_update keeps
        // concurrent advances from losing one another anyway.
        let _ = self
            .nanos
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(by.as_nanos()))
            });
    }

    /// Sets the clock to `to`, which may be earlier than now (to test a
    /// clock that steps backwards).
    pub fn set(&self, to: Timestamp) {
        self.nanos.store(to.as_nanos(), Ordering::Relaxed);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        Timestamp::from_nanos(self.nanos.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_monotonic_clock_does_not_go_backwards() {
        let clock = MonotonicClock::new();
        let a = clock.now();
        let b = clock.now();
        assert!(b >= a);
    }

    #[test]
    fn a_manual_clock_saturates_instead_of_wrapping() {
        let clock = ManualClock::starting_at(Timestamp::MAX);
        clock.advance(Duration::from_secs(1));
        assert_eq!(clock.now(), Timestamp::MAX);
    }
}

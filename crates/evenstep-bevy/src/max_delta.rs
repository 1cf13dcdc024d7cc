//! The clock the planner reads: `Time<Real>`, less what
//! `Time<Virtual>::max_delta` has cut off under [`Budget::MaxDelta`].
//!
//! Bevy bounds a frame's *virtual* delta, the real one scaled by the
//! relative speed, by `max_delta`; the planner scales real time itself, so
//! the real delta is cut to `max_delta / speed`.
//!
//! [`Budget::MaxDelta`]: crate::Budget::MaxDelta

use core::time::Duration;

use evenstep_core::{Nanos, Speed, Timestamp};

/// `Time<Real>` less every frame's time beyond `max_delta` so far, so that
/// the planner sees each frame's delta clamped as `Time<Virtual>` clamps
/// it, and sees a clock that never goes back when the clamp is switched
/// off again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClampedClock {
    /// `Time<Real>` at the last frame.
    last: Option<Timestamp>,
    /// The real time cut off so far.
    cut: Nanos,
}

/// A frame on the clamped clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Clamped {
    /// What the planner plans the frame at.
    pub(crate) now: Timestamp,
    /// The frame's real time beyond `max_delta`, cut off.
    pub(crate) cut: Nanos,
}

impl ClampedClock {
    /// Nothing cut yet.
    pub(crate) const fn new() -> ClampedClock {
        ClampedClock {
            last: None,
            cut: Nanos::ZERO,
        }
    }

    /// The frame at `real`, played at `speed`, its scaled delta clamped to
    /// `clamp` if there is one.
    pub(crate) fn frame(
        &mut self,
        real: Timestamp,
        clamp: Option<Duration>,
        speed: Speed,
    ) -> Clamped {
        let delta = self
            .last
            .map_or(Nanos::ZERO, |last| real.saturating_since(last));
        self.last = Some(real);
        let cut = match clamp {
            // Paused, nothing is played, so nothing needs cutting.
            Some(max) if !speed.is_paused() => delta.saturating_sub(real_span(max, speed)),
            _ => Nanos::ZERO,
        };
        self.cut = self.cut.saturating_add(cut);
        Clamped {
            now: real.saturating_sub(self.cut),
            cut,
        }
    }
}

/// The real time that plays `max` at `speed` (not paused), rounded down
/// so that the planner never plays more than `max`.
fn real_span(max: Duration, speed: Speed) -> Nanos {
    let nanos = max.as_nanos() * u128::from(speed.denominator()) / u128::from(speed.numerator());
    Nanos::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: Option<Duration> = Some(Duration::from_millis(250));

    fn at(millis: u64) -> Timestamp {
        Timestamp::from_nanos(millis * 1_000_000)
    }

    #[test]
    fn a_frame_longer_than_max_delta_is_cut_to_it_and_the_cut_is_kept() {
        let mut clock = ClampedClock::new();
        let frame = |now: u64, cut: u64| Clamped {
            now: at(now),
            cut: Nanos::from_millis(cut),
        };
        let normal = Speed::NORMAL;
        assert_eq!(clock.frame(at(1_000), MAX, normal), frame(1_000, 0));
        assert_eq!(clock.frame(at(1_100), MAX, normal), frame(1_100, 0));
        assert_eq!(clock.frame(at(1_500), MAX, normal), frame(1_350, 150));
        // Unclamped, the clock goes on from where it stood: no jump back
        // to `Time<Real>`, no replay of what was cut.
        assert_eq!(clock.frame(at(2_500), None, normal), frame(2_350, 0));
        assert_eq!(clock.frame(at(2_600), MAX, normal), frame(2_450, 0));
    }

    #[test]
    fn max_delta_bounds_the_time_played_at_any_speed() {
        let mut clock = ClampedClock::new();
        let cut = |clock: &mut ClampedClock, now: u64, speed| clock.frame(at(now), MAX, speed).cut;
        assert_eq!(cut(&mut clock, 0, Speed::NORMAL), Nanos::ZERO);
        // Double speed: 400 ms would play 800; 125 ms plays 250.
        let double = Speed::new(2, 1).unwrap();
        assert_eq!(cut(&mut clock, 400, double), Nanos::from_millis(275));
        // A quarter speed plays 1 s for 250 ms.
        let quarter = Speed::new(1, 4).unwrap();
        assert_eq!(cut(&mut clock, 1_600, quarter), Nanos::from_millis(200));
        assert_eq!(cut(&mut clock, 9_000, Speed::PAUSED), Nanos::ZERO);
    }

    #[test]
    fn the_longest_max_delta_cuts_nothing_and_does_not_overflow() {
        let mut clock = ClampedClock::new();
        let max = Some(Duration::MAX);
        let fastest = Speed::MAX;
        clock.frame(at(0), max, fastest);
        let frame = clock.frame(Timestamp::from_nanos(u64::MAX), max, fastest);
        assert_eq!(frame.cut, Nanos::ZERO);
        assert_eq!(frame.now, Timestamp::from_nanos(u64::MAX));
    }
}

//! The frame-rate governor: when frames keep missing their refresh, render
//! at half the rate (and half again), and go back up once they stop. It only
//! advises a render cap; the caller (or the driver) applies it.

use core::num::NonZeroU32;

use crate::rate::Rate;
use crate::{DisplayModel, Nanos, Timestamp};

/// Halves the render rate while frames keep missing their refresh, and
/// restores it once they stop, with hysteresis: deterministic given the
/// trace.
///
/// A frame misses when its delta is more than one and a half refresh
/// periods. By default four misses within 32 frames halve the rate (down to
/// an eighth); 240 frames in a row without a miss double it again (up to
/// the full rate); [`with_thresholds`](FrameRateGovernor::with_thresholds)
/// sets all four. Feed it the measured delta of every frame the display
/// shows ([`FramePlan::raw_delta`](crate::FramePlan::raw_delta)), with the
/// planner's refresh estimate if it has one (under snapped pacing); without
/// one it learns the refresh period from those deltas itself. Apply
/// [`render_cap`](FrameRateGovernor::render_cap) as the planner's (the
/// `evenstep` driver's `Loop::set_governor` does all of this).
///
/// # Examples
///
/// ```
/// use evenstep_core::{FrameLoop, FrameRateGovernor, Nanos, Pacing, StepBudget, Timestamp, Timestep};
///
/// let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
/// frames.set_pacing(Pacing::snapped(core::time::Duration::from_millis(2))?);
/// let mut governor = FrameRateGovernor::new();
/// let mut now = 0_u64;
/// for k in 0..200_u64 {
///     // Every third frame misses a refresh.
///     now += if k % 3 == 2 { 33_333_333 } else { 16_666_667 };
///     let plan = frames.begin_frame(Timestamp::from_nanos(now));
///     governor.observe(plan.raw_delta(), frames.refresh_period());
///     frames.set_render_cap(governor.render_cap());
/// }
/// assert_eq!(governor.divisor(), 8); // rendering at 60/8 Hz
/// # Ok::<(), evenstep_core::PacingError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FrameRateGovernor {
    divisor: u32,
    window: u32,
    misses: u32,
    clean_streak: u32,
    period: Option<Nanos>,
    /// The thresholds: frames in a window, misses in one that halve the
    /// rate, clean frames in a row that double it, the largest divisor.
    frames_per_window: NonZeroU32,
    misses_to_halve: NonZeroU32,
    clean_to_restore: NonZeroU32,
    max_divisor: NonZeroU32,
    /// The display as the governor learns it from the frames it is shown,
    /// for a planner that has no model of its own, and the frames' time
    /// (the sum of their deltas) that it is fed.
    display: DisplayModel,
    shown: Timestamp,
}

impl FrameRateGovernor {
    /// Frames in a miss-counting window.
    pub const WINDOW: u32 = 32;
    /// Misses within a window that halve the render rate.
    pub const MISSES_TO_HALVE: u32 = 4;
    /// Consecutive frames without a miss that double it back.
    pub const CLEAN_TO_RESTORE: u32 = 240;
    /// The lowest render rate is the display rate divided by this.
    pub const MAX_DIVISOR: u32 = 8;

    /// A governor at the full render rate, with the default thresholds.
    pub const fn new() -> FrameRateGovernor {
        FrameRateGovernor::with_thresholds(
            non_zero(FrameRateGovernor::WINDOW),
            non_zero(FrameRateGovernor::MISSES_TO_HALVE),
            non_zero(FrameRateGovernor::CLEAN_TO_RESTORE),
            non_zero(FrameRateGovernor::MAX_DIVISOR),
        )
    }

    /// A governor at the full render rate that halves it when
    /// `misses_to_halve` frames of a window of `window` frames miss their
    /// refresh, doubles it back after `clean_to_restore` frames in a row
    /// without a miss, and never divides it by more than `max_divisor` (a
    /// divisor that is not a power of two is reached as the last step:
    /// with 6, the rate goes 1, 2, 4, 6 and back 3, 1). Non-zero types make
    /// every setting valid; `misses_to_halve` above `window` never halves,
    /// and a `max_divisor` of 1 keeps the full rate.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::num::NonZeroU32;
    /// use evenstep_core::FrameRateGovernor;
    ///
    /// let n = |v| NonZeroU32::new(v).unwrap();
    /// // Quicker to act, slower to forgive: 2 misses in 16, 600 clean frames.
    /// let governor = FrameRateGovernor::with_thresholds(n(16), n(2), n(600), n(4));
    /// assert_eq!(governor.divisor(), 1);
    /// ```
    pub const fn with_thresholds(
        window: NonZeroU32,
        misses_to_halve: NonZeroU32,
        clean_to_restore: NonZeroU32,
        max_divisor: NonZeroU32,
    ) -> FrameRateGovernor {
        FrameRateGovernor {
            divisor: 1,
            window: 0,
            misses: 0,
            clean_streak: 0,
            period: None,
            frames_per_window: window,
            misses_to_halve,
            clean_to_restore,
            max_divisor,
            display: DisplayModel::new(),
            shown: Timestamp::ZERO,
        }
    }

    /// The thresholds, as given to
    /// [`with_thresholds`](FrameRateGovernor::with_thresholds): `(window,
    /// misses_to_halve, clean_to_restore, max_divisor)`.
    pub const fn thresholds(&self) -> (NonZeroU32, NonZeroU32, NonZeroU32, NonZeroU32) {
        (
            self.frames_per_window,
            self.misses_to_halve,
            self.clean_to_restore,
            self.max_divisor,
        )
    }

    /// Observes one frame the display showed: `raw_delta` is the time since
    /// the previous frame, as measured
    /// ([`FramePlan::raw_delta`](crate::FramePlan::raw_delta)), and
    /// `refresh_period` the planner's estimate
    /// ([`FrameLoop::refresh_period`](crate::FrameLoop::refresh_period)),
    /// `None` when it has none (pacing not snapped): the governor then goes
    /// by its own estimate, learned from the deltas of the frames it
    /// observes. Until either has a period, nothing changes.
    pub fn observe(&mut self, raw_delta: Nanos, refresh_period: Option<Nanos>) {
        let refresh_period = if refresh_period.is_some() {
            refresh_period
        } else {
            self.shown += raw_delta;
            let _ = self.display.observe(self.shown);
            self.display.period()
        };
        // A zero period is no estimate: nothing refreshes that fast.
        let Some(period) = refresh_period.filter(|period| *period != Nanos::ZERO) else {
            return;
        };
        self.period = Some(period);
        let raw = raw_delta.as_nanos();
        if raw == 0 {
            return;
        }
        let missed = u128::from(raw) * 2 > u128::from(period.as_nanos()) * 3;
        self.window += 1;
        if missed {
            self.misses += 1;
            self.clean_streak = 0;
        } else {
            // At the full rate nothing resets the streak: a game that never
            // misses counts past 2³² frames (two years at 60 Hz).
            self.clean_streak = self.clean_streak.saturating_add(1);
        }
        if self.misses >= self.misses_to_halve.get() {
            self.divisor = self.divisor.saturating_mul(2).min(self.max_divisor.get());
            self.window = 0;
            self.misses = 0;
        } else if self.window >= self.frames_per_window.get() {
            self.window = 0;
            self.misses = 0;
        }
        if self.clean_streak >= self.clean_to_restore.get() && self.divisor > 1 {
            self.divisor /= 2;
            self.clean_streak = 0;
        }
    }

    /// The current render rate divisor: 1 is the full display rate.
    pub const fn divisor(&self) -> u32 {
        self.divisor
    }

    /// The render cap to apply: `None` at the full rate, otherwise the
    /// display rate divided by [`divisor`](FrameRateGovernor::divisor),
    /// rounded to whole renders a second (at least one).
    pub fn render_cap(&self) -> Option<Rate> {
        if self.divisor == 1 {
            return None;
        }
        let period = self.period?.as_nanos();
        let per = u128::from(period) * u128::from(self.divisor);
        let fps = (1_000_000_000_u128 + per / 2) / per;
        let fps =
            NonZeroU32::new(u32::try_from(fps).unwrap_or(u32::MAX)).unwrap_or(NonZeroU32::MIN);
        Some(Rate::hz(fps))
    }
}

/// A default threshold as a non-zero number: each is a non-zero constant.
const fn non_zero(value: u32) -> NonZeroU32 {
    match NonZeroU32::new(value) {
        Some(value) => value,
        None => NonZeroU32::MIN,
    }
}

impl Default for FrameRateGovernor {
    fn default() -> FrameRateGovernor {
        FrameRateGovernor::new()
    }
}

#[cfg(test)]
mod tests {
    use super::FrameRateGovernor;
    use crate::{FrameLoop, Nanos, Pacing, StepBudget, Timestamp, Timestep};

    #[test]
    fn a_clean_streak_of_more_frames_than_a_u32_counts_saturates_instead_of_overflowing() {
        // 2³² clean frames take too long to observe one by one: start the
        // streak where they would have left it.
        let mut governor = FrameRateGovernor::new();
        governor.clean_streak = u32::MAX - 1;
        let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
            .with_pacing(Pacing::OFF);
        let period = Some(Nanos::from_nanos(16_666_667));
        for k in 1..=3 {
            let plan = frames.begin_frame(Timestamp::from_nanos(k * 16_666_667));
            governor.observe(plan.raw_delta(), period);
        }
        assert_eq!(governor.clean_streak, u32::MAX);
        assert_eq!(governor.divisor(), 1);
        assert_eq!(governor.render_cap(), None);
    }
}

//! The frame-rate governor: when frames keep missing their refresh, render
//! at half the rate (and half again), and go back up once they stop. It only
//! advises a render cap; the caller (or the driver) applies it.

use core::num::NonZeroU32;

use crate::{FramePlan, Nanos};

/// Halves the render rate while frames keep missing their refresh, and
/// restores it once they stop, with hysteresis: deterministic given the
/// trace.
///
/// A frame misses when its delta is more than one and a half refresh
/// periods. Four misses within 32 frames halve the rate (down to an eighth);
/// 240 frames in a row without a miss double it again (up to the full rate).
/// Feed it every plan with the planner's refresh estimate, and apply
/// [`max_fps`](FrameRateGovernor::max_fps) as the planner's render cap.
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
///     governor.observe(&plan, frames.refresh_period());
///     frames.set_render_cap(governor.max_fps());
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

    /// A governor at the full render rate.
    pub const fn new() -> FrameRateGovernor {
        FrameRateGovernor {
            divisor: 1,
            window: 0,
            misses: 0,
            clean_streak: 0,
            period: None,
        }
    }

    /// Observes one frame. `refresh_period` is the planner's estimate
    /// ([`FrameLoop::refresh_period`](crate::FrameLoop::refresh_period));
    /// until there is one, nothing changes.
    pub fn observe(&mut self, plan: &FramePlan, refresh_period: Option<Nanos>) {
        // A zero period is no estimate: nothing refreshes that fast.
        let Some(period) = refresh_period.filter(|period| *period != Nanos::ZERO) else {
            return;
        };
        self.period = Some(period);
        let raw = plan.raw_delta().as_nanos();
        if raw == 0 {
            return;
        }
        let missed = u128::from(raw) * 2 > u128::from(period.as_nanos()) * 3;
        self.window += 1;
        if missed {
            self.misses += 1;
            self.clean_streak = 0;
        } else {
            self.clean_streak += 1;
        }
        if self.misses >= FrameRateGovernor::MISSES_TO_HALVE {
            self.divisor = (self.divisor * 2).min(FrameRateGovernor::MAX_DIVISOR);
            self.window = 0;
            self.misses = 0;
        } else if self.window >= FrameRateGovernor::WINDOW {
            self.window = 0;
            self.misses = 0;
        }
        if self.clean_streak >= FrameRateGovernor::CLEAN_TO_RESTORE && self.divisor > 1 {
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
    pub fn max_fps(&self) -> Option<NonZeroU32> {
        if self.divisor == 1 {
            return None;
        }
        let period = self.period?.as_nanos();
        let per = u128::from(period) * u128::from(self.divisor);
        let fps = (1_000_000_000_u128 + per / 2) / per;
        NonZeroU32::new(u32::try_from(fps).unwrap_or(u32::MAX)).or(NonZeroU32::new(1))
    }
}

impl Default for FrameRateGovernor {
    fn default() -> FrameRateGovernor {
        FrameRateGovernor::new()
    }
}

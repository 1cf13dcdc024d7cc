//! [`FrameStats`]: the deterministic tally of a run's plans. It counts only
//! what the planner decided (frames, steps, drops), never anything measured
//! (how long a frame took to compute) and never the alpha, so two runs of the
//! same timestamps tally identically and its digest can gate a determinism
//! test. Measured timing belongs to the driver.

use crate::plan::FramePlan;
use crate::state_hash::StateHash;
use crate::time::Nanos;

/// Totals over every plan absorbed.
///
/// # Examples
///
/// ```
/// use evenstep_core::{FrameLoop, FrameStats, Nanos, StepBudget, Timestamp, Timestep};
///
/// let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
/// let mut stats = FrameStats::new();
/// stats.absorb(&frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(250)));
/// assert_eq!(stats.steps(), 5);
/// assert_eq!(stats.dropped_steps(), 10);
/// assert_eq!(stats.clamped_frames(), 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FrameStats {
    frames: u64,
    steps: u64,
    queued_steps: u64,
    dropped_steps: u64,
    dropped_units: u128,
    dropped: Nanos,
    clamped_frames: u64,
    largest_frame: Nanos,
    phase_shift_units: i128,
    snapped_frames: u64,
    rendered_frames: u64,
}

impl FrameStats {
    /// A tally of nothing.
    pub const fn new() -> FrameStats {
        FrameStats {
            frames: 0,
            steps: 0,
            queued_steps: 0,
            dropped_steps: 0,
            dropped_units: 0,
            dropped: Nanos::ZERO,
            clamped_frames: 0,
            largest_frame: Nanos::ZERO,
            phase_shift_units: 0,
            snapped_frames: 0,
            rendered_frames: 0,
        }
    }

    /// Adds one plan to the tally. Every counter saturates.
    pub fn absorb(&mut self, plan: &FramePlan) {
        self.frames = self.frames.saturating_add(1);
        self.steps = self.steps.saturating_add(plan.steps_run());
        self.queued_steps = self.queued_steps.saturating_add(plan.steps_queued());
        self.dropped_steps = self.dropped_steps.saturating_add(plan.steps_dropped());
        self.dropped_units = self.dropped_units.saturating_add(plan.dropped_units());
        self.dropped = plan.timestep().units_to_nanos(self.dropped_units);
        self.clamped_frames = self
            .clamped_frames
            .saturating_add(u64::from(plan.clamped()));
        self.largest_frame = self.largest_frame.max(plan.raw_delta());
        self.phase_shift_units = self
            .phase_shift_units
            .saturating_add(plan.phase_shift_units());
        self.snapped_frames = self
            .snapped_frames
            .saturating_add(u64::from(plan.snapped()));
        self.rendered_frames = self
            .rendered_frames
            .saturating_add(u64::from(plan.render()));
    }

    /// Plans absorbed.
    pub const fn frames(&self) -> u64 {
        self.frames
    }

    /// Steps run, queued ones included.
    pub const fn steps(&self) -> u64 {
        self.steps
    }

    /// Steps run because they were queued.
    pub const fn queued_steps(&self) -> u64 {
        self.queued_steps
    }

    /// Steps the budget refused.
    pub const fn dropped_steps(&self) -> u64 {
        self.dropped_steps
    }

    /// Simulation time the budget dropped, rounded down to the nanosecond
    /// (at the timestep of the latest plan).
    pub const fn dropped(&self) -> Nanos {
        self.dropped
    }

    /// Dropped time in accumulator units (exact while the timestep is fixed).
    pub const fn dropped_units(&self) -> u128 {
        self.dropped_units
    }

    /// Frames on which the budget refused steps.
    pub const fn clamped_frames(&self) -> u64 {
        self.clamped_frames
    }

    /// The longest raw frame delta seen.
    pub const fn largest_frame(&self) -> Nanos {
        self.largest_frame
    }

    /// The pacing's phase shifts summed, in accumulator units.
    pub const fn phase_shift_units(&self) -> i128 {
        self.phase_shift_units
    }

    /// Frames whose delta was snapped to whole refresh periods.
    pub const fn snapped_frames(&self) -> u64 {
        self.snapped_frames
    }

    /// Frames the render cap let render.
    pub const fn rendered_frames(&self) -> u64 {
        self.rendered_frames
    }

    /// A digest of the tally, in a fixed field order. It never includes the
    /// alpha or anything measured, so equal timestamp sequences give equal
    /// digests on every platform.
    pub fn digest(&self) -> u64 {
        StateHash::new()
            .u64(self.frames)
            .u64(self.steps)
            .u64(self.queued_steps)
            .u64(self.dropped_steps)
            .u128(self.dropped_units)
            .u64(self.clamped_frames)
            .u64(self.largest_frame.as_nanos())
            .i128(self.phase_shift_units)
            .u64(self.snapped_frames)
            .u64(self.rendered_frames)
            .finish()
    }
}

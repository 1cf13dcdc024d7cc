//! What one frame must do: the [`FramePlan`] that
//! [`FrameLoop::begin_frame`](crate::FrameLoop::begin_frame) returns, the
//! [`Steps`] to run and the [`Step`] each of them is. A plan is a plain `Copy`
//! value that borrows nothing, so the caller can hold it while mutating the
//! world and the planner alike.

use core::iter::FusedIterator;

use crate::alpha::Alpha;
use crate::frame_id::FrameId;
use crate::sim_epoch::SimEpoch;
use crate::speed::Speed;
use crate::time::Nanos;
use crate::timestep::Timestep;

/// The work for one frame: how many fixed steps to run, how many the budget
/// refused, and where between steps to render.
///
/// # Examples
///
/// ```
/// use evenstep_core::{FrameLoop, Nanos, StepBudget, Timestamp, Timestep};
///
/// let start = Timestamp::ZERO;
/// let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start);
///
/// // A 200 ms stall: 12 steps are due, 5 run, 7 are dropped and reported.
/// let plan = frames.begin_frame(start + Nanos::from_millis(200));
/// assert_eq!(plan.steps_due(), 12);
/// assert_eq!(plan.steps_run(), 5);
/// assert_eq!(plan.steps_dropped(), 7);
/// assert!(plan.clamped());
/// for step in plan.steps() {
///     assert!(step.tick() < 5); // world.update(step.dt_secs_f64())
/// }
/// assert!(plan.alpha().as_f64() < 1.0);
/// ```
#[must_use = "a plan's steps must be run, or the simulation falls out of step with its tick counter"]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FramePlan {
    pub(crate) timestep: Timestep,
    pub(crate) speed: Speed,
    pub(crate) raw: Nanos,
    pub(crate) scaled_units: u128,
    pub(crate) dropped_units: u128,
    pub(crate) due: u64,
    /// Steps refused: due steps over the budget, and steps (queued ones
    /// included) with no tick number left; saturating.
    pub(crate) dropped: u64,
    pub(crate) run: u64,
    pub(crate) queued: u64,
    pub(crate) first_tick: u64,
    /// Where simulation time stood when the step last changed.
    pub(crate) epoch: SimEpoch,
    /// The bank before the frame's time went in (what a give-back or a
    /// move between plans added is in the phase shift instead).
    pub(crate) bank_before: u128,
    pub(crate) remainder: u64,
    pub(crate) clamped: bool,
    pub(crate) phase_shift: i128,
    pub(crate) snapped: Snapped,
    pub(crate) render: bool,
    pub(crate) frame: FrameId,
}

/// Whether, and to what, a frame's delta was snapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Snapped {
    /// Not snapped: the delta as measured.
    No,
    /// To the refreshes the display model counted from the stamps.
    ToStamps,
    /// To the refreshes display feedback predicted.
    ToShowing,
}

impl FramePlan {
    /// The steps to run now, in order: an exact-size iterator of [`Step`].
    /// Queued steps (see [`FrameLoop::queue_steps`](crate::FrameLoop::queue_steps))
    /// are included, after the steps the elapsed time paid for.
    pub const fn steps(&self) -> Steps {
        // The planner never numbers a step past `u64::MAX`, so every tick
        // from `first_tick` on is a tick.
        debug_assert!(self.first_tick.checked_add(self.steps_run()).is_some());
        Steps {
            next: self.first_tick,
            left: self.steps_run(),
            timestep: self.timestep,
            epoch: self.epoch,
        }
    }

    /// How many steps to run now: the steps the elapsed time paid for (up to
    /// the budget) plus any queued steps.
    pub const fn steps_run(&self) -> u64 {
        self.run.saturating_add(self.queued)
    }

    /// How many steps the bank paid for and this frame runs: the steps
    /// [`steps_run`](FramePlan::steps_run) takes from elapsed time, queued
    /// steps not included. These are the steps the conservation law calls
    /// executed ([`executed_units`](FramePlan::executed_units)).
    pub const fn steps_from_bank(&self) -> u64 {
        self.run
    }

    /// The time the steps paid for by the bank execute, in accumulator
    /// units (exact): [`steps_from_bank`](FramePlan::steps_from_bank) whole
    /// steps. The conservation law's executed term: scaled units plus phase
    /// shift equal executed plus dropped plus the change in the bank.
    pub const fn executed_units(&self) -> u128 {
        self.run as u128 * self.timestep.units_per_step() as u128
    }

    /// How many whole steps the elapsed time paid for, before the budget
    /// (queued steps not included). Saturates at `u64::MAX`.
    pub const fn steps_due(&self) -> u64 {
        self.due
    }

    /// How many of [`steps_run`](FramePlan::steps_run) were queued by
    /// [`FrameLoop::queue_steps`](crate::FrameLoop::queue_steps) rather than
    /// paid for by elapsed time.
    pub const fn steps_queued(&self) -> u64 {
        self.queued
    }

    /// How many steps were refused: due steps over the budget, whose time
    /// is dropped and never banked, and steps, queued ones included, past the
    /// end of tick numbering (see [`FrameLoop::tick`](crate::FrameLoop::tick)).
    /// Saturates at `u64::MAX`.
    pub const fn steps_dropped(&self) -> u64 {
        self.dropped
    }

    /// The simulation time the budget dropped this frame, rounded down to
    /// whole nanoseconds. [`dropped_units`](FramePlan::dropped_units) is
    /// exact.
    pub const fn dropped(&self) -> Nanos {
        self.timestep.units_to_nanos(self.dropped_units)
    }

    /// The dropped time in accumulator units (exact).
    pub const fn dropped_units(&self) -> u128 {
        self.dropped_units
    }

    /// Whether the budget refused any step this frame.
    pub const fn clamped(&self) -> bool {
        self.clamped
    }

    /// The tick of the first step to run (the loop's tick before this frame).
    pub const fn first_tick(&self) -> u64 {
        self.first_tick
    }

    /// The loop's tick after this frame's steps have run.
    pub const fn end_tick(&self) -> u64 {
        self.first_tick.saturating_add(self.steps_run())
    }

    /// Wall time since the previous frame, before speed and budget (zero on a
    /// backwards timestamp).
    pub const fn raw_delta(&self) -> Nanos {
        self.raw
    }

    /// The raw delta scaled by the speed, rounded down to whole nanoseconds:
    /// the simulation time this frame submitted. [`scaled_units`](FramePlan::scaled_units)
    /// is exact.
    pub const fn scaled_delta(&self) -> Nanos {
        self.timestep.units_to_nanos(self.scaled_units)
    }

    /// The scaled delta in accumulator units (exact). At a speed of 1 it is
    /// exactly `raw_delta · units_per_nanosecond`.
    pub const fn scaled_units(&self) -> u128 {
        self.scaled_units
    }

    /// The speed the simulation really ran at this frame: the simulation
    /// time the frame's delta added (scaled by the speed, less what the
    /// budget dropped) per nanosecond of the raw delta. It is the speed
    /// unless the budget clamped. `None` for a frame with no raw delta.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::{FrameLoop, Nanos, Pacing, Speed, StepBudget, Timestamp, Timestep};
    ///
    /// let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::try_new(2)?, Timestamp::ZERO)
    ///     .with_pacing(Pacing::OFF);
    /// frames.set_speed(Speed::new(4, 1)?);
    /// // 50 ms at speed 4 is 200 ms, 12 steps; the budget, scaled by the
    /// // speed, runs 8: 133⅓ ms of simulation in 50 ms.
    /// let plan = frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(50));
    /// assert_eq!(plan.steps_run(), 8);
    /// assert!((plan.effective_speed_f64().unwrap() - 8.0 / 3.0).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn effective_speed_f64(&self) -> Option<f64> {
        if self.raw.is_zero() {
            return None;
        }
        let kept = self.scaled_units.saturating_sub(self.dropped_units);
        let raw_units = self.timestep.nanos_to_units(self.raw);
        Some(kept as f64 / raw_units as f64)
    }

    /// Simulation time banked for the next frame, under one step, rounded
    /// down to whole nanoseconds.
    pub const fn remainder(&self) -> Nanos {
        self.timestep.units_to_nanos(self.remainder as u128)
    }

    /// The banked remainder in accumulator units (exact). A `u64`: a plan
    /// leaves the bank under one step, and a step is a `u64` of units.
    /// [`FrameLoop::remainder_units`](crate::FrameLoop::remainder_units) is
    /// a `u128`, because between plans the bank can hold more (a refund of
    /// steps, a change to a far shorter step).
    pub const fn remainder_units(&self) -> u64 {
        self.remainder
    }

    /// The bank before this frame, in accumulator units: with
    /// [`steps_from_bank`](FramePlan::steps_from_bank) and what the frame
    /// banked, where each step's span ends on the wall clock. Step `i`
    /// (from 0) of those the bank paid for ends once the frame has banked
    /// `(i + 1) · units_per_step − bank_before` of its time. Time a
    /// give-back or a pacing move put in between plans is not in it: it
    /// is in the [phase shift](FramePlan::phase_shift_units), so that
    /// `bank_before + scaled − dropped + phase shift = steps from the bank
    /// · units_per_step + remainder`, exactly.
    pub const fn bank_before_units(&self) -> u128 {
        self.bank_before
    }

    /// Where to render between the last step and the next, in `[0, 1)`.
    pub const fn alpha(&self) -> Alpha {
        Alpha::new(self.remainder, self.timestep)
    }

    /// Accumulator units the pacing added to (positive) or removed from
    /// (negative) the bank this frame: snapping a delta to whole refresh
    /// periods, and moving the bank to the middle of its range. With it the
    /// books balance exactly: scaled units plus phase shift equal executed
    /// plus dropped plus the change in the bank.
    pub const fn phase_shift_units(&self) -> i128 {
        self.phase_shift
    }

    /// Whether the delta was snapped to a whole number of refresh periods.
    pub const fn snapped(&self) -> bool {
        !matches!(self.snapped, Snapped::No)
    }

    /// Whether display feedback planned this frame: its steps are the
    /// refreshes from the previous frame's predicted showing to its own
    /// (see [`FrameLoop::frame_shown`](crate::FrameLoop::frame_shown)).
    /// Such a frame is [`snapped`](FramePlan::snapped) too.
    pub const fn predicted(&self) -> bool {
        matches!(self.snapped, Snapped::ToShowing)
    }

    /// Whether to draw this frame: false when the render cap skips it. The
    /// steps run either way.
    pub const fn render(&self) -> bool {
        self.render
    }

    /// The frame's number: what to report back, with the time the frame
    /// reached the screen, to
    /// [`FrameLoop::frame_shown`](crate::FrameLoop::frame_shown).
    pub const fn frame(&self) -> FrameId {
        self.frame
    }

    /// The fixed step every update of this plan receives.
    pub const fn timestep(&self) -> Timestep {
        self.timestep
    }

    /// The speed the frame was scaled by.
    pub const fn speed(&self) -> Speed {
        self.speed
    }

    /// Simulation time at the end of this frame's steps (`end_tick · dt`
    /// for a planner whose step never changed; see
    /// [`FrameLoop::simulated`](crate::FrameLoop::simulated)), exact,
    /// rounded down to the nanosecond.
    pub const fn sim_time(&self) -> Nanos {
        self.epoch.sim_time(self.end_tick(), self.timestep)
    }
}

/// The steps of one [`FramePlan`], in tick order.
///
/// An exact-size, double-ended, fused iterator; it borrows nothing.
#[must_use = "iterators do nothing unless consumed"]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Steps {
    next: u64,
    /// Steps still to yield. A count down to zero rather than an end tick:
    /// a caller's loop then needs one counter, not two.
    left: u64,
    timestep: Timestep,
    epoch: SimEpoch,
}

impl Iterator for Steps {
    type Item = Step;

    #[inline]
    fn next(&mut self) -> Option<Step> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let step = Step {
            tick: self.next,
            timestep: self.timestep,
            epoch: self.epoch,
        };
        // `next + left` never exceeds `u64::MAX` (see `FramePlan::steps`).
        self.next = self.next.wrapping_add(1);
        Some(step)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = usize::try_from(self.left).unwrap_or(usize::MAX);
        (len, Some(len))
    }
}

impl DoubleEndedIterator for Steps {
    #[inline]
    fn next_back(&mut self) -> Option<Step> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        Some(Step {
            tick: self.next + self.left,
            timestep: self.timestep,
            epoch: self.epoch,
        })
    }
}

impl ExactSizeIterator for Steps {}
impl FusedIterator for Steps {}

/// One fixed step: which tick it is and how long it lasts.
///
/// Every step of a loop has the same `dt`, until the game itself changes
/// the step rate ([`FrameLoop::set_timestep`](crate::FrameLoop::set_timestep)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    tick: u64,
    timestep: Timestep,
    /// Where simulation time stood when the step last changed.
    epoch: SimEpoch,
}

impl Step {
    /// The step's index: 0 for the first step the loop ever runs, then up by
    /// exactly one per step.
    pub const fn tick(&self) -> u64 {
        self.tick
    }

    /// Simulation time when this step begins: `tick · dt` for a planner
    /// whose step never changed, and in general the simulation time at the
    /// last change plus the steps since (exact, rounded down to the
    /// nanosecond).
    pub const fn sim_time(&self) -> Nanos {
        self.epoch.sim_time(self.tick, self.timestep)
    }

    /// Simulation time when this step ends, one `dt` after it began.
    pub const fn sim_time_after(&self) -> Nanos {
        self.epoch
            .sim_time(self.tick.saturating_add(1), self.timestep)
    }

    /// The fixed step.
    pub const fn dt(&self) -> Timestep {
        self.timestep
    }

    /// The step length in seconds as an `f64`, the same for every step.
    pub const fn dt_secs_f64(&self) -> f64 {
        self.timestep.dt_secs_f64()
    }

    /// The step length in seconds as an `f32`, the same for every step.
    pub const fn dt_secs_f32(&self) -> f32 {
        self.timestep.dt_secs_f32()
    }
}

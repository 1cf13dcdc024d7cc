//! Steps a plan numbered that never ran, given back: refunded, so their
//! time stays banked and runs on a later frame (lockstep netcode waiting
//! for a peer's input), or skipped, so their time is dropped and reported
//! (a frame skipped to let a peer catch up). Either way the tick goes back
//! by the steps given back and the conservation law still holds exactly.

use super::FrameLoop;
use crate::plan::FramePlan;

/// What [`FrameLoop::refund_steps`] or [`FrameLoop::skip_steps`] did with
/// the steps given back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GivenBack {
    /// Steps given back to run again: bank steps back in the bank, queued
    /// steps back in the queue.
    pub refunded: u64,
    /// The time of the bank steps refunded, in accumulator units.
    pub refunded_units: u128,
    /// Steps whose time was dropped: every step skipped, and the bank steps
    /// of a refund beyond what the bank may hold.
    pub dropped: u64,
    /// The time dropped, in accumulator units (a queued step has none).
    pub dropped_units: u128,
}

impl FrameLoop {
    /// The last `count` steps of `plan`, the latest plan, did not run: they
    /// are given back to run on a later frame. The tick goes back by them,
    /// the bank steps' time goes back into the bank and the queued steps
    /// back into the queue, so the next frames run them (under their
    /// budget) with the same ticks.
    ///
    /// At most the steps of `plan` the tick still counts are given back:
    /// none if `plan` was planned at another step rate, or if the tick has
    /// moved out of its steps (a later plan with steps, a reset, `set_tick`).
    /// The bank holds at most the budget's whole steps (times the speed's
    /// budget factor): a refund beyond that is dropped and reported, as any
    /// time over the budget is, so refunding every frame, or a catch-up's
    /// steps, cannot build up a burst.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::{FrameLoop, Pacing, StepBudget, Timestamp, Timestep};
    ///
    /// let mut frames = FrameLoop::new(Timestep::HZ_50, StepBudget::DEFAULT, Timestamp::ZERO)
    ///     .with_pacing(Pacing::OFF);
    /// let plan = frames.begin_frame(Timestamp::from_nanos(60_000_000)); // 3 steps
    /// assert_eq!(plan.steps_run(), 3);
    /// // The game ran one; the other two wait for a peer.
    /// let given = frames.refund_steps(&plan, 2);
    /// assert_eq!((given.refunded, given.dropped, frames.tick()), (2, 0, 1));
    /// let next = frames.begin_frame(Timestamp::from_nanos(60_000_000));
    /// assert_eq!((next.first_tick(), next.steps_run()), (1, 2)); // run again
    /// ```
    pub fn refund_steps(&mut self, plan: &FramePlan, count: u64) -> GivenBack {
        let (from_bank, queued) = self.take_back(plan, count);
        self.queued = self.queued.saturating_add(queued);
        let per_step = u128::from(self.timestep.units_per_step());
        let limit = u128::from(self.budget.get()) * u128::from(self.speed.budget_factor());
        let room = limit.saturating_sub(self.bank.units() / per_step);
        // At most `from_bank`, a u64.
        let banked = u128::from(from_bank).min(room) as u64;
        let dropped = from_bank - banked;
        self.bank.refund(u128::from(banked) * per_step);
        GivenBack {
            refunded: queued + banked,
            refunded_units: u128::from(banked) * per_step,
            dropped,
            dropped_units: u128::from(dropped) * per_step,
        }
    }

    /// The last `count` steps of `plan`, the latest plan, did not run and
    /// never will: the tick goes back by them and their time is dropped
    /// and reported (queued steps are simply not run). At most the steps
    /// of `plan` the tick still counts, as for
    /// [`refund_steps`](FrameLoop::refund_steps).
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::{FrameLoop, Pacing, StepBudget, Timestamp, Timestep};
    ///
    /// let mut frames = FrameLoop::new(Timestep::HZ_50, StepBudget::DEFAULT, Timestamp::ZERO)
    ///     .with_pacing(Pacing::OFF);
    /// let plan = frames.begin_frame(Timestamp::from_nanos(40_000_000)); // 2 steps
    /// let given = frames.skip_steps(&plan, 2); // a frame skipped for a peer
    /// assert_eq!((given.dropped, given.dropped_units, frames.tick()), (2, 2 * 20_000_000, 0));
    /// ```
    pub fn skip_steps(&mut self, plan: &FramePlan, count: u64) -> GivenBack {
        let (from_bank, queued) = self.take_back(plan, count);
        let per_step = u128::from(self.timestep.units_per_step());
        GivenBack {
            refunded: 0,
            refunded_units: 0,
            dropped: from_bank + queued,
            dropped_units: u128::from(from_bank) * per_step,
        }
    }

    /// Takes the last `count` steps of `plan` that the tick still counts
    /// (at most those) back from the tick: returns how many the bank paid
    /// for and how many were queued.
    fn take_back(&mut self, plan: &FramePlan, count: u64) -> (u64, u64) {
        let counted = plan.first_tick()..=plan.end_tick();
        if plan.timestep() != self.timestep || !counted.contains(&self.tick) {
            return (0, 0);
        }
        let count = count.min(self.tick - plan.first_tick());
        // A plan runs its bank's steps first: its last steps are the queued.
        let queued_from = plan.first_tick() + plan.steps_from_bank();
        let queued_back = count.min(self.tick.saturating_sub(queued_from));
        self.tick -= count;
        (count - queued_back, queued_back)
    }
}

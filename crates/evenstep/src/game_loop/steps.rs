//! The fixed steps of a pump or a catch-up (step 6 of the pump order).

use evenstep_core::{FramePlan, Timestamp};

use crate::contexts::StepContext;
use crate::control::GiveBack;
use crate::game_loop::Loop;

impl<S> Loop<S> {
    /// Runs the steps in flight, in tick order. For each, the step takes
    /// its input, the sim timeline advances to the step's end, then the
    /// updates run in registration order and the input recorder ends the
    /// tick. A step's tick is counted as it begins, so a step cut short by
    /// `stop` or by a panic is never run again under the same tick. `now`
    /// is the pump's time, `None` for a catch-up, whose steps take no input.
    /// Returns the steps begun.
    pub(crate) fn run_steps(
        &mut self,
        state: &mut S,
        plan: &FramePlan,
        now: Option<Timestamp>,
    ) -> u64 {
        let timestep = plan.timestep();
        let first = self.recovery.next_tick();
        let quiet = self.input.prepare(plan, now);
        while let Some(tick) = self.recovery.begin_step() {
            // An empty sim timeline has nothing to fire: it is brought up to
            // date when `sim()` hands it out, so a long catch-up does not
            // pay for a time it never reads.
            if !self.sim.is_empty() {
                self.sim
                    .advance_to(state, self.frames.sim_time_at(tick + 1));
            }
            if !quiet {
                self.input.begin_step(tick);
            }
            // Only a step's own updates give it back: a request left by a
            // render, or by an update that panicked, is forgotten here.
            let _ = self.steering.control.take_give_back();
            let step = StepContext {
                timestep,
                frames: &self.frames,
                tick,
                real_time: self.time.real_time(),
                control: &self.steering.control,
                input: self.input.step(),
            };
            let interrupted = self.subscribers.update(state, &step);
            if let Some(back) = self.steering.control.take_give_back() {
                self.give_back(back, plan, tick);
                break;
            }
            if !quiet {
                self.input.end_step(tick, state);
            }
            if interrupted {
                break;
            }
        }
        if self.recovery.not_begun() > 0 {
            // The planner numbered steps that will never run: the next step
            // takes the first of their ticks.
            self.frames.set_tick(self.recovery.next_tick());
        }
        self.recovery.next_tick() - first
    }

    /// An update of step `tick` gave it and the rest of the pump's steps
    /// back: the planner takes them back (refunded or skipped), they are
    /// no longer in flight, the step's input waits for the step that runs
    /// the tick, and what was dropped is recorded.
    fn give_back(&mut self, back: GiveBack, plan: &FramePlan, tick: u64) {
        let count = 1 + self.recovery.not_begun();
        let given = match back {
            GiveBack::Refund => self.frames.refund_steps(plan, count),
            GiveBack::Skip => self.frames.skip_steps(plan, count),
        };
        let timestep = self.frames.timestep();
        self.stats
            .record_dropped(given.dropped_units, given.dropped, timestep);
        let returned = given.refunded + given.dropped;
        debug_assert_eq!(
            returned, count,
            "the plan's steps in flight are counted by the tick"
        );
        if returned < count {
            // Not reached: the steps in flight are the plan's last. Should
            // the planner give back fewer, the rest are abandoned, as a
            // stop abandons them.
            self.stats.record_abandoned(count - returned, timestep);
            self.frames.set_tick(tick);
        }
        self.recovery.give_back(tick, count);
        self.input.carry_step();
    }
}

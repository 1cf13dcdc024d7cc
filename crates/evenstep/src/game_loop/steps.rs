//! The fixed steps of a pump or a catch-up (step 6 of the pump order).

use evenstep_core::Timestep;

use crate::contexts::StepContext;
use crate::game_loop::Loop;

impl<S> Loop<S> {
    /// Runs the steps in flight, in tick order. For each, the step takes
    /// its input, the sim timeline advances to the step's end, then the
    /// updates run in registration order and the input recorder ends the
    /// tick. A step's tick is counted as it begins, so a step cut short by
    /// `stop` or by a panic is never run again under the same tick. Returns
    /// the steps begun.
    pub(crate) fn run_steps(&mut self, state: &mut S, timestep: Timestep) -> u64 {
        let first = self.recovery.next_tick();
        while let Some(tick) = self.recovery.begin_step() {
            // An empty sim timeline has nothing to fire: it is brought up to
            // date when `sim()` hands it out, so a long catch-up does not
            // pay for a time it never reads.
            if !self.sim.is_empty() {
                self.sim
                    .advance_to(state, self.frames.sim_time_at(tick + 1));
            }
            self.input.begin_step(tick);
            let step = StepContext {
                timestep,
                frames: &self.frames,
                tick,
                real_time: self.time.real_time(),
                control: &self.steering.control,
                input: self.input.step(),
            };
            let stopped = self.subscribers.update(state, &step);
            self.input.end_step(tick, state);
            if stopped {
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
}

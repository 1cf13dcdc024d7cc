//! Catch-up: a span of simulation run at once, as whole fixed steps with no
//! budget, for offline progress.

use std::time::Duration;

use evenstep_core::Nanos;

use crate::game_loop::report::CatchUp;
use crate::game_loop::{Loop, Run};

impl<S> Loop<S> {
    /// Runs `span` of simulation time now, as whole fixed steps with no
    /// budget: offline progress for a headless tool. Sim timers fire and
    /// updates run exactly as in a pump; nothing renders and real time does
    /// not move. The sub-step remainder is banked for the next frame, so `dt`
    /// never varies. The loop never does this on its own.
    ///
    /// Returns `None` (and runs nothing) unless the loop is started.
    ///
    /// # Panics
    ///
    /// Only if a callback panics; the loop is then left as after a panicking
    /// pump.
    pub fn catch_up(&mut self, state: &mut S, span: Duration) -> Option<CatchUp> {
        self.recover();
        if self.run != Run::Running {
            return None;
        }
        self.recovery.enter(self.frames.tick());
        let plan = self.frames.catch_up(Nanos::from_duration(span));
        self.recovery.planned(&plan);
        // A catch-up's number takes a place in flight; it draws nothing.
        self.capture_plan(&plan, self.time.last_pump(), false);
        // A catch-up's steps stand for absent time: they take no events.
        let steps = self.run_steps(state, &plan, None);
        let stopped = self.steering.control.stop_requested();
        if stopped {
            // Steps given back were banked or dropped as they were given.
            let abandoned = plan.steps_run() - steps - self.recovery.given_back();
            self.stats.record_abandoned(abandoned, plan.timestep());
        }
        self.finish(stopped);
        Some(CatchUp {
            steps,
            remainder: plan.remainder(),
            stopped,
        })
    }
}

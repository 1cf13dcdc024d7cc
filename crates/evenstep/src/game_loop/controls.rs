//! The controls: pause, resume, speed, step rate, budget, pacing and queued
//! steps, as the game asks for them between pumps, and how a pump applies
//! the requests.

use std::time::Duration;

#[cfg(doc)]
use evenstep_core::FrameLoop;
use evenstep_core::{Nanos, Pacing, Speed, StepBudget, Timestep};

use crate::control::Control;
use crate::game_loop::Loop;
use crate::game_loop::builder::ConfigError;
#[cfg(doc)]
use crate::game_loop::builder::LoopBuilder;

/// What the game asked of the loop: the requests waiting for the next pump,
/// and the settings applied so far that the planner does not hold.
#[derive(Debug)]
pub(crate) struct Steering {
    /// Requests made since the previous pump, shared with the callbacks.
    pub(crate) control: Control,
    /// The speed asked for; the planner runs at `PAUSED` while paused.
    pub(crate) speed: Speed,
    pub(crate) paused: bool,
    /// The budget as a span of simulation, when it was given so: the
    /// budget in steps follows it across changes of the step.
    pub(crate) budget_window: Option<Duration>,
}

impl Steering {
    /// Running at `speed`, unpaused, with no request waiting.
    pub(crate) fn new(speed: Speed, budget_window: Option<Duration>) -> Steering {
        Steering {
            control: Control::default(),
            speed,
            paused: false,
            budget_window,
        }
    }

    /// Applies a pause or resume request, if any. Returns whether the loop
    /// resumed.
    fn apply_pause(&mut self) -> bool {
        let Some(pause) = self.control.take_pause() else {
            return false;
        };
        let resumed = self.paused && !pause;
        self.paused = pause;
        resumed
    }

    /// The speed the planner runs at: the one asked for, or `PAUSED` while
    /// paused.
    fn planner_speed(&self) -> Speed {
        if self.paused {
            Speed::PAUSED
        } else {
            self.speed
        }
    }
}

impl<S> Loop<S> {
    /// Pauses from the next pump (see [`Control::pause`]).
    pub fn pause(&mut self) {
        self.steering.control.pause();
    }

    /// Resumes from the next pump, with a zero delta (see [`Control::resume`]).
    pub fn resume(&mut self) {
        self.steering.control.resume();
    }

    /// Sets the time scale from the next pump.
    pub fn set_speed(&mut self, speed: Speed) {
        self.steering.control.set_speed(speed);
    }

    /// Sets the time scale from a float, from the next pump.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Speed`] if `speed` is NaN, infinite, negative or above
    /// 65535.
    pub fn set_speed_f64(&mut self, speed: f64) -> Result<(), ConfigError> {
        let speed = Speed::from_f64(speed).map_err(ConfigError::Speed)?;
        self.steering.control.set_speed(speed);
        Ok(())
    }

    /// Changes the fixed step from the next pump (see [`Control::set_timestep`]
    /// and [`FrameLoop::set_timestep`]): the banked time is kept as time,
    /// the tick carries on, simulation time and the sim timeline go on
    /// exactly from where they stood, and a budget given as a span of time
    /// ([`set_budget_window`](Loop::set_budget_window)) is counted again in
    /// the new steps. [`timestep`](Loop::timestep) says the new step from
    /// that pump on.
    ///
    /// A loop that records its input
    /// ([`LoopBuilder::record_input`](crate::LoopBuilder::record_input))
    /// stops recording at a change to another rate: a log replays at the
    /// one step it was recorded at. The log keeps every tick before the
    /// change, and [`input_record_error`](Loop::input_record_error) says
    /// [`RecordError::TimestepChanged`](crate::replay::RecordError::TimestepChanged).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, Timestep};
    ///
    /// let clock = ManualClock::new();
    /// let mut server = Loop::<()>::builder()
    ///     .clock(clock.clone())
    ///     .timestep(Timestep::HZ_20)
    ///     .pacing(Pacing::OFF)
    ///     .budget_window(Duration::from_millis(250))
    ///     .build()?;
    /// server.start();
    /// assert_eq!(server.budget().get(), 5); // 250 ms of 20 Hz steps
    /// clock.advance(Duration::from_millis(200));
    /// let _ = server.pump(&mut (), PumpKind::Tick); // 4 steps of 50 ms
    ///
    /// server.set_timestep(Timestep::HZ_60); // from the next pump
    /// clock.advance(Duration::from_millis(100));
    /// let _ = server.pump(&mut (), PumpKind::Tick); // 6 steps of 16⅔ ms
    /// assert_eq!(server.tick(), 10);
    /// assert_eq!(server.sim_time(), Nanos::from_millis(300));
    /// assert_eq!(server.budget().get(), 15); // 250 ms of 60 Hz steps
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn set_timestep(&mut self, timestep: Timestep) {
        self.steering.control.set_timestep(timestep);
    }

    /// Runs `count` extra steps at the next pump, outside the budget and even
    /// while paused.
    pub fn queue_steps(&mut self, count: u32) {
        self.steering.control.queue_steps(count);
    }

    /// Sets the step budget, in steps, from the next pump: the most steps
    /// one pump runs at normal speed (see [`StepBudget`]). It stays this
    /// many steps if the step rate changes.
    pub fn set_budget(&mut self, budget: StepBudget) {
        self.steering.budget_window = None;
        self.frames.set_budget(budget);
    }

    /// Sets the step budget as a span of simulation, from the next pump:
    /// the fewest whole steps that cover `window` at the current step
    /// ([`StepBudget::covering`]), and again at each change of the step
    /// rate, so the budget can never disagree with the step. A window
    /// shorter than one step, zero included, covers one step.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{Loop, ManualClock, Timestep};
    ///
    /// let mut game_loop = Loop::<()>::builder().clock(ManualClock::new()).build()?;
    /// game_loop.set_budget_window(Duration::from_millis(250));
    /// assert_eq!(game_loop.budget().get(), 15); // 60 Hz
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn set_budget_window(&mut self, window: Duration) {
        self.steering.budget_window = Some(window);
        self.frames
            .set_budget(StepBudget::covering(window, self.frames.timestep()));
    }

    /// The step budget in steps.
    pub fn budget(&self) -> StepBudget {
        self.frames.budget()
    }

    /// The budget's span of simulation, if it was given as one
    /// ([`set_budget_window`](Loop::set_budget_window) or
    /// [`LoopBuilder::budget_window`]).
    pub fn budget_window(&self) -> Option<Duration> {
        self.steering.budget_window
    }

    /// Sets the frame pacing (see [`Pacing`]); takes effect at the next pump.
    pub fn set_pacing(&mut self, pacing: Pacing) {
        self.frames.set_pacing(pacing);
    }

    /// Tells the loop the period the display says it refreshes at (a
    /// monitor's reported rate; `None`: nothing said). Until the planner's
    /// display model has measured a period of its own, the render cap and
    /// the governor go by it (see [`FrameLoop::set_refresh_hint`]); a frame
    /// source that knows its monitor's rate passes it here. A period of
    /// zero says nothing, as `None` does (a platform that reports 0 Hz for
    /// an unknown rate).
    pub fn set_refresh_hint(&mut self, period: Option<Duration>) {
        self.frames
            .set_refresh_hint(period.map(Nanos::from_duration));
    }

    /// Applies pause, speed and queue requests. Returns whether the loop
    /// resumed (so the pump re-anchors).
    pub(crate) fn apply_control(&mut self) -> bool {
        if !self.steering.control.take_pending() {
            return false;
        }
        if let Some(speed) = self.steering.control.take_speed() {
            self.steering.speed = speed;
        }
        if let Some(timestep) = self.steering.control.take_timestep() {
            self.change_timestep(timestep);
        }
        let resumed = self.steering.apply_pause();
        self.frames.set_speed(self.steering.planner_speed());
        let queued = self.steering.control.take_queue();
        if queued > 0 {
            self.frames.queue_steps(queued);
        }
        resumed
    }

    /// Changes the planner's step to `timestep`, with the scaled time since
    /// the last render re-expressed like the bank, and a budget given as a
    /// span of time counted again in the new steps.
    fn change_timestep(&mut self, timestep: Timestep) {
        self.input.timestep_changed(self.frames.tick(), timestep);
        self.since_render.rescale(self.frames.timestep(), timestep);
        self.frames.set_timestep(timestep);
        if let Some(window) = self.steering.budget_window {
            self.frames
                .set_budget(StepBudget::covering(window, timestep));
        }
    }
}

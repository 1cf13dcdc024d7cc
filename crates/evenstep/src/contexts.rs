//! What callbacks are told: a [`StepContext`] goes to every update, a
//! [`RenderContext`] to every render. Both carry the loop's [`Control`].

use std::time::Duration;

use evenstep_core::{Alpha, FrameId, FrameLoop, Nanos, Timestamp, Timestep};

use crate::control::Control;
use crate::input::StepInput;

/// What an update is told: the fixed step, which tick it is, and the time.
#[derive(Debug)]
pub struct StepContext<'a> {
    pub(crate) timestep: Timestep,
    pub(crate) tick: u64,
    pub(crate) real_time: Nanos,
    pub(crate) control: &'a Control,
    /// The planner, for simulation time across changes of step.
    pub(crate) frames: &'a FrameLoop,
    /// The step's input.
    pub(crate) input: &'a StepInput,
}

impl StepContext<'_> {
    /// The input of this step: the events of the wall-clock span it stands
    /// for, and the state they leave (see [`crate::input`]).
    pub fn input(&self) -> &StepInput {
        self.input
    }

    /// The fixed step as a duration, rounded down to the nanosecond (a 60 Hz
    /// step is 16,666,666⅔ ns, given as 16,666,666): for display and for
    /// APIs that take a [`Duration`]. Rules take
    /// [`dt_secs_f64`](StepContext::dt_secs_f64), and the exact step is
    /// [`timestep`](StepContext::timestep).
    pub fn dt(&self) -> Duration {
        self.timestep.dt_nanos_floor().as_duration()
    }

    /// The fixed step, exact: the same for every update until the game
    /// changes the step rate.
    pub fn timestep(&self) -> Timestep {
        self.timestep
    }

    /// The fixed step in seconds.
    pub fn dt_secs_f64(&self) -> f64 {
        self.timestep.dt_secs_f64()
    }

    /// The fixed step in seconds, as an `f32`.
    pub fn dt_secs_f32(&self) -> f32 {
        self.timestep.dt_secs_f32()
    }

    /// This step's index: starts at 0, rises by exactly one per step, never
    /// skips or repeats, across stop and start.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Simulation time when this step begins: `tick · dt` for a loop whose
    /// step never changed (see [`FrameLoop::simulated`]), exact, rounded
    /// down to the nanosecond.
    pub fn sim_time(&self) -> Nanos {
        self.frames.sim_time_at(self.tick)
    }

    /// Real time at the pump that runs this step: unclamped, unpaused elapsed
    /// time since the loop first started. Not an input for rules that must
    /// replay; use it for diagnostics.
    pub fn real_time(&self) -> Nanos {
        self.real_time
    }

    /// Steers the loop: see [`Control`].
    pub fn control(&self) -> &Control {
        self.control
    }
}

/// What a render is told: where between steps to draw, and when.
#[derive(Debug)]
pub struct RenderContext<'a> {
    pub(crate) alpha: Alpha,
    pub(crate) tick: u64,
    pub(crate) now: Timestamp,
    pub(crate) real_time: Nanos,
    pub(crate) control: &'a Control,
    /// The planner, for simulation time across changes of step.
    pub(crate) frames: &'a FrameLoop,
    /// This pump's raw delta.
    pub(crate) frame_delta: Nanos,
    /// Raw time, and scaled time in the step's accumulator units, since the
    /// previous render.
    pub(crate) render_delta: Nanos,
    pub(crate) scaled_render_units: u128,
    /// The frame drawn.
    pub(crate) frame: FrameId,
}

impl RenderContext<'_> {
    /// Real time since the previous pump, unscaled: the frame's own delta
    /// (see [`FramePlan::raw_delta`](evenstep_core::FramePlan::raw_delta)).
    pub fn frame_delta(&self) -> Nanos {
        self.frame_delta
    }

    /// Real time since the previous render, unscaled: a frame's delta when
    /// every frame renders, and more when a render cap, a hidden stretch of
    /// tick pumps or the governor skipped renders in between. The first
    /// render after [`Loop::start`](crate::Loop::start) counts from the
    /// start.
    pub fn render_delta(&self) -> Nanos {
        self.render_delta
    }

    /// Simulation time submitted since the previous render: the scaled
    /// deltas of the pumps since, before the budget (rounded down to the
    /// nanosecond). With [`render_delta`](RenderContext::render_delta), what
    /// an animation that runs per render rather than per step advances by.
    pub fn scaled_render_delta(&self) -> Nanos {
        self.frames
            .timestep()
            .units_to_nanos(self.scaled_render_units)
    }

    /// The number of the frame being drawn: tag the present with it, and
    /// give it back with the time the platform says it was shown to
    /// [`Loop::frame_shown`](crate::Loop::frame_shown).
    pub fn frame(&self) -> FrameId {
        self.frame
    }

    /// Where between the last step and the next to draw, in `[0, 1)`.
    pub fn alpha(&self) -> Alpha {
        self.alpha
    }

    /// The blend factor as an `f32`.
    pub fn alpha_f32(&self) -> f32 {
        self.alpha.as_f32()
    }

    /// The blend factor as an `f64`.
    pub fn alpha_f64(&self) -> f64 {
        self.alpha.as_f64()
    }

    /// Simulation time at the drawn moment, between steps: `tick · dt +
    /// alpha · dt` for a loop whose step never changed (see
    /// [`FrameLoop::sim_time_drawn`]), exact, rounded down to the
    /// nanosecond.
    pub fn sim_time(&self) -> Nanos {
        self.frames.sim_time_drawn()
    }

    /// Steps run so far (the next step's tick).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The pump's clock reading.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    /// Real time at this pump (see [`StepContext::real_time`]).
    pub fn real_time(&self) -> Nanos {
        self.real_time
    }

    /// Steers the loop: see [`Control`].
    pub fn control(&self) -> &Control {
        self.control
    }
}

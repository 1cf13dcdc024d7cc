//! The planner and what it was last told: the plugin's state between
//! frames, and how a frame's readings of Bevy's clocks and of the settings
//! become a [`FramePlan`].

use core::time::Duration;

use bevy_ecs::resource::Resource;
use evenstep_core::{FrameLoop, FramePlan, Nanos, Pacing, Timestamp};

use crate::fixed_rate;
use crate::max_delta::ClampedClock;
use crate::published::Refusal;
use crate::settings::EvenstepSettings;
use crate::virtual_speed::VirtualSpeed;

/// What the runner reads from the world at the start of a frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Readings {
    /// `Time<Real>::elapsed`, as a timestamp.
    pub(crate) real: Timestamp,
    /// `Time<Virtual>::max_delta`.
    pub(crate) max_delta: Duration,
    /// `Time<Virtual>::is_paused`.
    pub(crate) paused: bool,
    /// `Time<Virtual>::relative_speed_f64`.
    pub(crate) relative_speed: f64,
    pub(crate) settings: EvenstepSettings,
    /// `Time<Fixed>::timestep`.
    pub(crate) fixed_step: Duration,
    /// `Time<Fixed>::elapsed`.
    pub(crate) fixed_elapsed: Duration,
}

/// A frame's plan, and what running it needs to know of the planner.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Planned {
    pub(crate) plan: FramePlan,
    /// What `Time<Fixed>::timestep` says while the plan's step runs.
    pub(crate) nominal: Duration,
    /// Where `Time<Fixed>::elapsed` stands at a simulation time.
    pub(crate) anchor: Anchor,
    pub(crate) pacing: Pacing,
    pub(crate) refresh_period: Option<Nanos>,
    /// The frame's real time beyond `max_delta`, cut off before planning
    /// (under `Budget::MaxDelta` only).
    pub(crate) beyond_max_delta: Nanos,
    /// What the frame refused: a step, a speed.
    pub(crate) refusals: [Option<Refusal>; 2],
}

/// `Time<Fixed>::elapsed` at a simulation time of the planner: a step
/// ending at simulation time `t` ends at `elapsed + (t - sim)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Anchor {
    elapsed: Duration,
    sim: Nanos,
}

impl Anchor {
    /// Where `Time<Fixed>::elapsed` stands at simulation time `sim`.
    pub(crate) fn elapsed_at(self, sim: Nanos) -> Duration {
        self.elapsed
            .saturating_add(sim.saturating_sub(self.sim).as_duration())
    }
}

/// The plugin's state: the planner, from the first frame on.
#[derive(Resource, Debug)]
pub(crate) struct Planner {
    running: Option<Running>,
    speed: VirtualSpeed,
    clock: ClampedClock,
}

/// The planner and the settings it runs by.
#[derive(Debug)]
struct Running {
    frames: FrameLoop,
    /// The settings in force.
    applied: EvenstepSettings,
    /// `Time<Virtual>::max_delta` as the budget was last set from it.
    max_delta: Duration,
    /// What `Time<Fixed>::timestep` says while the step in force runs.
    nominal: Duration,
    /// Where `Time<Fixed>`'s clock stands against the planner's: anchored
    /// at the first frame, and again at a `Time<Fixed>` put in anew.
    anchor: Anchor,
    /// `Time<Fixed>::elapsed` as the last frame left it.
    left: Duration,
}

impl Planner {
    /// No planner yet: the first frame makes one.
    pub(crate) const fn new() -> Planner {
        Planner {
            running: None,
            speed: VirtualSpeed::new(),
            clock: ClampedClock::new(),
        }
    }

    /// Plans the frame of `readings`, having applied the settings and
    /// `Time<Fixed>`'s step as they stand, and mirrored `Time<Virtual>`'s
    /// pause and speed.
    pub(crate) fn plan(&mut self, readings: &Readings) -> Planned {
        let mirrored = self.speed.mirror(readings.paused, readings.relative_speed);
        let clock = self.clock.frame(
            readings.real,
            readings.settings.budget.clamp(readings.max_delta),
            mirrored.speed,
        );
        let (running, refused_step) = if let Some(running) = &mut self.running {
            let refused = running.follow(readings);
            (running, refused)
        } else {
            let (running, refused) = Running::start(readings, clock.now);
            (self.running.insert(running), refused)
        };
        running.frames.set_speed(mirrored.speed);
        if mirrored.resumed {
            // As evenstep's `Loop`: the paused gap is not replayed.
            running.frames.resync(clock.now);
        }
        let plan = running.frames.begin_frame(clock.now);
        running.left = running.anchor.elapsed_at(plan.sim_time());
        Planned {
            plan,
            nominal: running.nominal,
            anchor: running.anchor,
            pacing: running.frames.pacing(),
            refresh_period: running.frames.refresh_period(),
            beyond_max_delta: clock.cut,
            refusals: [refused_step, mirrored.refused],
        }
    }

    /// Whether the first frame has been planned.
    pub(crate) const fn started(&self) -> bool {
        self.running.is_some()
    }
}

impl Running {
    /// The planner of the first frame, anchored at it, and the step it
    /// refused, if any.
    fn start(readings: &Readings, now: Timestamp) -> (Running, Option<Refusal>) {
        let settings = readings.settings;
        let ((timestep, refused), nominal) = match settings.timestep {
            Some(timestep) => ((timestep, None), fixed_rate::nominal(timestep)),
            None => (
                fixed_rate::timestep_of(readings.fixed_step),
                readings.fixed_step,
            ),
        };
        let budget = settings.budget.steps(timestep, readings.max_delta);
        let running = Running {
            frames: FrameLoop::new(timestep, budget, now).with_pacing(settings.pacing),
            applied: settings,
            max_delta: readings.max_delta,
            nominal,
            anchor: Anchor {
                elapsed: readings.fixed_elapsed,
                sim: Nanos::ZERO,
            },
            left: readings.fixed_elapsed,
        };
        (running, refused)
    }

    /// Takes in a change of `Time<Fixed>` by user code (its step, or a new
    /// one put in its place) and of the settings; returns the step it
    /// refused, if any.
    fn follow(&mut self, readings: &Readings) -> Option<Refusal> {
        if readings.fixed_elapsed != self.left {
            // A `Time<Fixed>` put in anew (or its clock moved): its clock
            // goes on from where it now stands, one step a step.
            self.anchor = Anchor {
                elapsed: readings.fixed_elapsed,
                sim: self.frames.simulated(),
            };
        }
        let settings = readings.settings;
        let mut refused = None;
        let mut step_changed = false;
        if readings.fixed_step != self.nominal {
            if settings.timestep.is_none() {
                self.nominal = readings.fixed_step;
                let (timestep, out_of_range) = fixed_rate::timestep_of(readings.fixed_step);
                self.frames.set_timestep(timestep);
                refused = out_of_range;
                step_changed = true;
            } else {
                refused = Some(Refusal::FixedStep {
                    requested: readings.fixed_step,
                    kept: self.frames.timestep(),
                    nominal: self.nominal,
                });
            }
        }
        if !step_changed && settings == self.applied && readings.max_delta == self.max_delta {
            return refused;
        }
        if settings.timestep != self.applied.timestep {
            let timestep = if let Some(timestep) = settings.timestep {
                self.nominal = fixed_rate::nominal(timestep);
                timestep
            } else {
                let (timestep, out_of_range) = fixed_rate::timestep_of(self.nominal);
                refused = refused.or(out_of_range);
                timestep
            };
            self.frames.set_timestep(timestep);
        }
        if settings.pacing != self.applied.pacing {
            self.frames.set_pacing(settings.pacing);
        }
        self.frames.set_budget(
            settings
                .budget
                .steps(self.frames.timestep(), readings.max_delta),
        );
        self.applied = settings;
        self.max_delta = readings.max_delta;
        refused
    }
}

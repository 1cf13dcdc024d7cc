//! The planner and what it was last told: the plugin's state between
//! frames, and how a frame's readings of Bevy's clocks and of the settings
//! become a [`FramePlan`].

use core::time::Duration;

use bevy_ecs::resource::Resource;
use evenstep_core::{FrameLoop, FramePlan, Nanos, Pacing, Timestamp, Timestep};

use crate::fixed_rate;
use crate::settings::EvenstepSettings;
use crate::virtual_speed::VirtualSpeed;

/// What the runner reads from the world at the start of a frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Readings {
    /// `Time<Real>::elapsed`, as a timestamp.
    pub(crate) now: Timestamp,
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
    /// Where `Time<Fixed>::elapsed` stood at the first frame.
    pub(crate) base: Duration,
    pub(crate) pacing: Pacing,
    pub(crate) refresh_period: Option<Nanos>,
}

/// The plugin's state: the planner, from the first frame on.
#[derive(Resource, Debug)]
pub(crate) struct Planner {
    running: Option<Running>,
    speed: VirtualSpeed,
}

/// The planner and the settings it runs by.
#[derive(Debug)]
struct Running {
    frames: FrameLoop,
    /// The settings in force.
    applied: EvenstepSettings,
    /// What `Time<Fixed>::timestep` says while the step in force runs.
    nominal: Duration,
    /// `Time<Fixed>::elapsed` at the first frame: a step ends at this plus
    /// the planner's simulation time after it.
    base: Duration,
}

impl Planner {
    /// No planner yet: the first frame makes one.
    pub(crate) const fn new() -> Planner {
        Planner {
            running: None,
            speed: VirtualSpeed::new(),
        }
    }

    /// Plans the frame of `readings`, having applied the settings and
    /// `Time<Fixed>`'s step as they stand, and mirrored `Time<Virtual>`'s
    /// pause and speed.
    pub(crate) fn plan(&mut self, readings: &Readings) -> Planned {
        let mirrored = self.speed.mirror(readings.paused, readings.relative_speed);
        let running = match &mut self.running {
            Some(running) => {
                running.follow(readings);
                running
            }
            None => self.running.insert(Running::start(readings)),
        };
        running.frames.set_speed(mirrored.speed);
        if mirrored.resumed {
            // As evenstep's `Loop`: the paused gap is not replayed.
            running.frames.resync(readings.now);
        }
        Planned {
            plan: running.frames.begin_frame(readings.now),
            nominal: running.nominal,
            base: running.base,
            pacing: running.frames.pacing(),
            refresh_period: running.frames.refresh_period(),
        }
    }
}

impl Running {
    /// The planner of the first frame, anchored at it.
    fn start(readings: &Readings) -> Running {
        let settings = readings.settings;
        let (timestep, nominal) = match settings.timestep {
            Some(timestep) => (timestep, fixed_rate::nominal(timestep)),
            None => (followed(readings.fixed_step), readings.fixed_step),
        };
        let budget = settings.budget.steps(timestep);
        Running {
            frames: FrameLoop::new(timestep, budget, readings.now).with_pacing(settings.pacing),
            applied: settings,
            nominal,
            base: readings.fixed_elapsed,
        }
    }

    /// Takes in a change of `Time<Fixed>`'s step by user code, and of the
    /// settings.
    fn follow(&mut self, readings: &Readings) {
        let settings = readings.settings;
        let mut step_changed = false;
        if readings.fixed_step != self.nominal {
            if settings.timestep.is_none() {
                self.nominal = readings.fixed_step;
                self.frames.set_timestep(followed(readings.fixed_step));
                step_changed = true;
            } else {
                log::error!(
                    "Time<Fixed>'s step was set to {:?}, but EvenstepSettings::timestep names \
                     the step ({}); keeping it and setting Time<Fixed> back to {:?}. Change \
                     EvenstepSettings::timestep instead, or set it to None to follow Time<Fixed>",
                    readings.fixed_step,
                    self.frames.timestep(),
                    self.nominal,
                );
            }
        }
        if !step_changed && settings == self.applied {
            return;
        }
        if settings.timestep != self.applied.timestep {
            let timestep = match settings.timestep {
                Some(timestep) => {
                    self.nominal = fixed_rate::nominal(timestep);
                    timestep
                }
                None => followed(self.nominal),
            };
            self.frames.set_timestep(timestep);
        }
        if settings.pacing != self.applied.pacing {
            self.frames.set_pacing(settings.pacing);
        }
        self.frames
            .set_budget(settings.budget.steps(self.frames.timestep()));
        self.applied = settings;
    }
}

/// The step `Time<Fixed>`'s `step` stands for; a step out of evenstep's
/// range is logged with the range and the step taken instead.
fn followed(step: Duration) -> Timestep {
    fixed_rate::timestep_of(step).unwrap_or_else(|(taken, message)| {
        log::error!("{message}");
        taken
    })
}

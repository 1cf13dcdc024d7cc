//! The demo as a game state: the world, the settings the keys move and the
//! strip chart, with the loop the demo runs on (its step, and the recording
//! of every step's input), the one update, the replay of a recorded
//! session, and the one draw every host calls.

use std::num::NonZeroU64;

use evenstep::input::Delivery;
use evenstep::replay::{ReplayError, ReplayReport};
use evenstep::{Alpha, InputLog, Loop, LoopBuilder, Nanos, StepContext, Timestep};

use crate::canvas::Canvas;
use crate::chart::FrameChart;
use crate::controls::{Action, Settings};
use crate::scene;
use crate::world::World;

/// The demo's fixed step: 20 Hz, slow enough that drawing without
/// interpolation visibly judders on any display.
pub const STEP_HZ: u32 = 20;

/// Ticks between recorded state hashes: one a second.
const CHECKPOINT_EVERY: NonZeroU64 = NonZeroU64::new(STEP_HZ as u64).unwrap();

/// [`STEP_HZ`] as the loop takes it.
const STEP: Timestep = match Timestep::from_hz(STEP_HZ) {
    Ok(step) => step,
    // Evaluated while compiling: a bad rate fails the build, never a run.
    Err(_) => panic!("STEP_HZ is not a rate a Timestep takes"),
};

/// What the host must do after an action the loop cannot do itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing more: the action is done, or is the world's to read.
    Handled,
    /// Hide the window (or page) for two seconds, then show it again.
    HideBriefly,
    /// End the demo.
    Quit,
}

/// The demo's game state, shared by the window and the browser demos.
///
/// The world changes only in a fixed step, from the keys the step's input
/// holds ([`World::update`]): a host forwards its key events into the
/// loop's input queue (`evenstep-winit`'s driver does it for a window), and
/// a loop from [`Bounce::loop_builder`] records every step's input, so
/// [`Bounce::replay`] replays the session.
#[derive(Clone, Debug)]
pub struct Bounce {
    /// The balls.
    pub world: World,
    /// Whether the keys asked for the rules to be paused. The loop applies
    /// a pause or a resume at its next pump, so its own `is_paused` lags a
    /// press made between pumps; two presses in one frame must cancel out.
    pause_requested: bool,
    /// What the keys have set.
    pub settings: Settings,
    /// The latest painted frames.
    pub chart: FrameChart,
}

impl Default for Bounce {
    fn default() -> Bounce {
        Bounce::new()
    }
}

impl Bounce {
    /// The opening world, default settings.
    pub fn new() -> Bounce {
        Bounce {
            world: World::new(),
            pause_requested: false,
            settings: Settings::default(),
            chart: FrameChart::default(),
        }
    }

    /// The fixed step the demo's loop must run at: [`STEP_HZ`].
    pub fn timestep() -> Timestep {
        STEP
    }

    /// A builder for a loop that runs the demo, whose state `S` holds it
    /// where `bounce` finds it: at [`STEP_HZ`], recording every step's input
    /// with a hash of the world each second
    /// ([`LoopBuilder::record_input`]), so the session is at
    /// [`Loop::input_log`] for [`Bounce::replay`]. Subscribe
    /// [`Bounce::update`] to it (through `bounce`'s path).
    pub fn loop_builder<S: 'static>(bounce: fn(&S) -> &Bounce) -> LoopBuilder<S> {
        Loop::builder()
            .timestep(STEP)
            .record_input(CHECKPOINT_EVERY, move |state: &S| {
                bounce(state).world.state_hash()
            })
    }

    /// Replays a session a loop from [`Bounce::loop_builder`] recorded into
    /// the opening world, step by step through [`World::update`] with each
    /// step's recorded input, and compares the world's hash at every
    /// checkpoint. Green if every one agreed.
    ///
    /// # Errors
    ///
    /// [`ReplayError::TimestepMismatch`] for a log recorded at another step
    /// than [`STEP_HZ`].
    pub fn replay(log: &mut InputLog<Delivery>) -> Result<ReplayReport, ReplayError> {
        evenstep::replay(
            log,
            STEP,
            &mut World::new(),
            World::update,
            World::state_hash,
        )
    }

    /// One fixed step: the world's inputs from the step's input, then the
    /// world's step ([`World::update`]). Register it with `on_update`.
    pub fn update(&mut self, step: &StepContext<'_>) {
        self.world.update(step);
    }

    /// Carries out `action`: settings change, and pause, single steps,
    /// speed and pacing go to `game_loop`. Hiding and quitting are the
    /// host's, so they are returned. World inputs are left be: the world's
    /// step reads their keys from its input.
    ///
    /// Pause is toggled from the state the keys last asked for, not from
    /// the loop's `is_paused`, which changes only at the next pump: two
    /// presses in one frame pause and resume.
    pub fn act<S>(&mut self, action: Action, game_loop: &mut Loop<S>) -> Outcome {
        match action {
            Action::ToggleInterpolation => {
                self.settings.interpolate = !self.settings.interpolate;
            }
            Action::TogglePause => {
                self.pause_requested = !self.pause_requested;
                if self.pause_requested {
                    game_loop.pause();
                } else {
                    game_loop.resume();
                }
            }
            Action::StepOnce => game_loop.queue_steps(1),
            Action::Faster => {
                self.settings.faster();
                game_loop.set_speed(self.settings.speed());
            }
            Action::Slower => {
                self.settings.slower();
                game_loop.set_speed(self.settings.speed());
            }
            Action::CyclePacing => {
                self.settings.cycle_pacing();
                game_loop.set_pacing(self.settings.pacing());
            }
            Action::World(_) => {}
            Action::HideBriefly => return Outcome::HideBriefly,
            Action::Quit => return Outcome::Quit,
        }
        Outcome::Handled
    }

    /// The window title: frames per second, the 99th-percentile frame gap,
    /// speed and pacing mode, and whether the loop's recording stopped.
    pub fn title<S>(&self, game_loop: &Loop<S>) -> String {
        let stats = game_loop.stats();
        format!(
            "evenstep bounce: {} fps, p99 {:.1} ms, speed {}, pacing {}{}{}",
            stats.fps(),
            millis(stats.gap_p99()),
            self.settings.speed_label(),
            self.settings.pacing_label(),
            if game_loop.is_paused() {
                ", paused"
            } else {
                ""
            },
            if game_loop.input_record_error().is_some() {
                ", recording broken"
            } else {
                ""
            },
        )
    }

    /// Draws the frame: the world at `alpha` (or at its latest step with
    /// interpolation off), the overlay from `hud`, and the strip chart.
    pub fn draw(&self, canvas: &mut Canvas<'_>, alpha: Alpha, hud: &Hud) {
        scene::draw(canvas, self, alpha, hud);
    }
}

/// What the overlay shows that only the loop knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hud {
    /// Real time since the loop started: it keeps going while hidden.
    pub real_time: Nanos,
    /// Simulated time.
    pub sim_time: Nanos,
    /// Fixed steps run.
    pub tick: u64,
    /// Paints in the last whole second.
    pub fps: u32,
    /// The 99th-percentile gap between paints.
    pub gap_p99: Nanos,
    /// Gaps long enough to be absences (a hidden window), not slow frames.
    pub absences: u64,
    /// Whether the rules are paused.
    pub paused: bool,
    /// Whether the loop's recording of the session stopped
    /// ([`Loop::input_record_error`]): from then on it is no replay.
    pub recording_broken: bool,
}

impl Hud {
    /// Reads the overlay's numbers from `game_loop`.
    pub fn read<S>(game_loop: &Loop<S>) -> Hud {
        let stats = game_loop.stats();
        Hud {
            real_time: game_loop.real_time(),
            sim_time: game_loop.sim_time(),
            tick: game_loop.tick(),
            fps: stats.fps(),
            gap_p99: stats.gap_p99(),
            absences: stats.absences(),
            paused: game_loop.is_paused(),
            recording_broken: game_loop.input_record_error().is_some(),
        }
    }
}

/// `nanos` in milliseconds, for display.
pub(crate) fn millis(nanos: Nanos) -> f64 {
    nanos.as_secs_f64() * 1_000.0
}

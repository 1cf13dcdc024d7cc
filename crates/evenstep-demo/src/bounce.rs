//! The demo as a game state: the world, the inputs waiting for the next
//! step, the recording of them, the settings the keys move and the strip
//! chart, with the one update and the one draw every host calls.

use std::num::NonZeroU64;

use evenstep::{Alpha, InputLog, Loop, Nanos, StepContext, Timestep, replay::RecordError};

use crate::canvas::Canvas;
use crate::chart::FrameChart;
use crate::controls::{Action, Settings};
use crate::scene;
use crate::world::{World, WorldInput};

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
    /// Nothing more: the action is done or queued.
    Handled,
    /// Hide the window (or page) for two seconds, then show it again.
    HideBriefly,
    /// End the demo.
    Quit,
}

/// The demo's game state, shared by the window and the browser demos.
#[derive(Clone, Debug)]
pub struct Bounce {
    /// The balls.
    pub world: World,
    /// Inputs that arrived since the last step, applied at the next one.
    pending: Vec<WorldInput>,
    /// Every applied input with its tick, and a hash each second: a replay
    /// of the session.
    log: InputLog<WorldInput>,
    /// The first input the log refused, if any: from then on the log is
    /// not a replay of the session.
    recording_error: Option<RecordError>,
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
    /// The opening world, default settings, nothing recorded.
    pub fn new() -> Bounce {
        Bounce {
            world: World::new(),
            pending: Vec::new(),
            log: InputLog::new(Bounce::timestep(), CHECKPOINT_EVERY),
            recording_error: None,
            pause_requested: false,
            settings: Settings::default(),
            chart: FrameChart::default(),
        }
    }

    /// The fixed step the demo's loop must run at: [`STEP_HZ`].
    pub fn timestep() -> Timestep {
        STEP
    }

    /// Queues `input` for the next fixed step. Input never changes the world
    /// between steps: that is what makes a session replay.
    pub fn queue(&mut self, input: WorldInput) {
        self.pending.push(input);
    }

    /// Inputs waiting for the next step.
    pub fn pending(&self) -> &[WorldInput] {
        &self.pending
    }

    /// The session so far: inputs by tick and a state hash each second.
    /// Check [`recording_error`](Bounce::recording_error) before replaying
    /// it.
    pub fn log(&self) -> &InputLog<WorldInput> {
        &self.log
    }

    /// Why the log stopped being a replay of the session, if it did: the
    /// first input or tick it refused. This happens when the demo is driven
    /// by a second loop (or a loop whose tick went back) after the first one
    /// recorded later ticks, or when a session outlasts the ticks a log
    /// holds.
    pub fn recording_error(&self) -> Option<RecordError> {
        self.recording_error
    }

    /// One fixed step: the queued inputs, recorded at this tick, then the
    /// world's step. Register it with `on_update`.
    ///
    /// An input or tick the log refuses is still applied or run (the game
    /// goes on), and the first refusal is kept in
    /// [`recording_error`](Bounce::recording_error).
    pub fn update(&mut self, step: &StepContext<'_>) {
        let tick = step.tick();
        for input in self.pending.drain(..) {
            if let Err(refused) = self.log.record(tick, input) {
                self.recording_error.get_or_insert(refused);
            }
            self.world.apply(input);
        }
        self.world.step(step.dt_secs_f32());
        let world = &self.world;
        if let Err(refused) = self.log.end_tick_with(tick, || world.state_hash()) {
            self.recording_error.get_or_insert(refused);
        }
    }

    /// Carries out `action`: world inputs are queued, settings change, and
    /// pause, single steps, speed and pacing go to `game_loop`. Hiding and
    /// quitting are the host's, so they are returned.
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
            Action::World(input) => self.queue(input),
            Action::HideBriefly => return Outcome::HideBriefly,
            Action::Quit => return Outcome::Quit,
        }
        Outcome::Handled
    }

    /// The window title: frames per second, the 99th-percentile frame gap,
    /// speed and pacing mode.
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
            if self.recording_error.is_some() {
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
        }
    }
}

/// `nanos` in milliseconds, for display.
pub(crate) fn millis(nanos: Nanos) -> f64 {
    nanos.as_secs_f64() * 1_000.0
}

//! Controls: the keys the demo answers to, what each asks for, and the
//! settings they move (interpolation, speed, pacing). Keys are given as a
//! small host-neutral [`Key`], so a window and a browser map theirs to it
//! and share everything after.

use std::time::Duration;

use evenstep::{Pacing, Speed};

use crate::WorldInput;

/// A key press, as far as the demo cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// The escape key.
    Escape,
    /// The space bar.
    Space,
    /// A key that types a character.
    Char(char),
}

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Turns drawing between steps on or off (`I`).
    ToggleInterpolation,
    /// Pauses or resumes the rules (`P`, space).
    TogglePause,
    /// Runs one fixed step, paused or not (`S`, `.`).
    StepOnce,
    /// Doubles the speed, up to 4× (`+`, `=`).
    Faster,
    /// Halves the speed, down to ¼× (`-`).
    Slower,
    /// Moves to the next pacing mode: off, centred, snapped (`M`).
    CyclePacing,
    /// Hides the window for two seconds, then shows it again (`H`).
    HideBriefly,
    /// Ends the demo (`Esc`, `Q`).
    Quit,
    /// A change to the world, applied at the next fixed step (`N` adds a
    /// ball, `X` removes one, `R` reverses them all).
    World(WorldInput),
}

impl Action {
    /// The action `key` asks for, if any.
    pub fn for_key(key: Key) -> Option<Action> {
        let action = match key {
            Key::Escape => Action::Quit,
            Key::Space => Action::TogglePause,
            Key::Char(c) => match c.to_ascii_lowercase() {
                'i' => Action::ToggleInterpolation,
                'p' => Action::TogglePause,
                's' | '.' => Action::StepOnce,
                '+' | '=' => Action::Faster,
                '-' | '_' => Action::Slower,
                'm' => Action::CyclePacing,
                'h' => Action::HideBriefly,
                'q' => Action::Quit,
                'n' => Action::World(WorldInput::AddBall),
                'x' => Action::World(WorldInput::RemoveBall),
                'r' => Action::World(WorldInput::Reverse),
                _ => return None,
            },
        };
        Some(action)
    }
}

/// The key help line the demo draws.
pub const KEY_HELP: &str =
    "I INTERP  P PAUSE  S STEP  +/- SPEED  M PACING  H HIDE 2S  N/X/R BALLS  ESC QUIT";

/// Speeds from ¼× to 4×, each twice the one before, as (numerator,
/// denominator).
pub const SPEEDS: [(u16, u16); 5] = [(1, 4), (1, 2), (1, 1), (2, 1), (4, 1)];

/// The pacing modes `M` cycles through, with their names.
pub const PACING_MODES: [&str; 3] = ["off", "centred", "snapped"];

/// The snap tolerance of the snapped mode: about twice the timestamp jitter
/// of a desktop compositor.
pub const SNAP_TOLERANCE: Duration = Duration::from_millis(2);

/// The settings the keys move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Whether balls are drawn between steps (`true`) or where the latest
    /// step left them.
    pub interpolate: bool,
    /// Index into [`SPEEDS`].
    pub speed_index: usize,
    /// Index into [`PACING_MODES`].
    pub pacing_index: usize,
}

impl Default for Settings {
    /// Interpolating, at 1×, centred pacing (the loop's default).
    fn default() -> Settings {
        Settings {
            interpolate: true,
            speed_index: 2,
            pacing_index: 1,
        }
    }
}

impl Settings {
    /// The speed selected.
    pub fn speed(&self) -> Speed {
        let (numerator, denominator) = SPEEDS[self.speed_index.min(SPEEDS.len() - 1)];
        Speed::new(numerator, denominator).unwrap_or_default()
    }

    /// The speed as text, as the title and overlay show it (`0.25x`, `4x`).
    pub fn speed_label(&self) -> &'static str {
        ["0.25x", "0.5x", "1x", "2x", "4x"][self.speed_index.min(SPEEDS.len() - 1)]
    }

    /// The pacing selected.
    pub fn pacing(&self) -> Pacing {
        match self.pacing_index % PACING_MODES.len() {
            0 => Pacing::OFF,
            1 => Pacing::CENTRED,
            _ => Pacing::snapped(SNAP_TOLERANCE).unwrap_or_default(),
        }
    }

    /// The pacing mode's name.
    pub fn pacing_label(&self) -> &'static str {
        PACING_MODES[self.pacing_index % PACING_MODES.len()]
    }

    /// One step faster; false at 4× already.
    pub fn faster(&mut self) -> bool {
        let moved = self.speed_index + 1 < SPEEDS.len();
        if moved {
            self.speed_index += 1;
        }
        moved
    }

    /// One step slower; false at ¼× already.
    pub fn slower(&mut self) -> bool {
        let moved = self.speed_index > 0;
        if moved {
            self.speed_index -= 1;
        }
        moved
    }

    /// The next pacing mode, wrapping around.
    pub fn cycle_pacing(&mut self) {
        self.pacing_index = (self.pacing_index + 1) % PACING_MODES.len();
    }
}

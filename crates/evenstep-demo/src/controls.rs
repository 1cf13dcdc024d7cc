//! Controls: the keys the demo answers to, what each asks for, and the
//! settings they move (interpolation, speed, pacing). Keys are given as a
//! small host-neutral [`Key`], so a window and a browser map theirs to it
//! and share everything after. The world's own keys reach it another way,
//! through the loop's input queue, as every step's input.

use std::time::Duration;

use evenstep::{Pacing, Speed};

use crate::world::WorldInput;

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
    /// Moves to the next pacing mode: off, centred, snapped, locked (`M`).
    CyclePacing,
    /// Hides the window for two seconds, then shows it again (`H`).
    HideBriefly,
    /// Ends the demo (`Esc`, `Q`).
    Quit,
    /// A change to the world (`N` adds a ball, `X` removes one, `R`
    /// reverses them all). The world's step reads these keys from the
    /// loop's input queue ([`World::update`](crate::World::update)), so a
    /// host has nothing to do for them: [`Bounce::act`](crate::Bounce::act)
    /// leaves them be.
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

    /// Whether a held key's auto-repeat should do this again. Stepping,
    /// speed and adding or removing balls repeat; the toggles (pause,
    /// interpolation, pacing, reversing the balls), hiding and quitting act
    /// once per press, so a key held a moment too long does not undo
    /// itself.
    pub fn repeats(self) -> bool {
        match self {
            Action::StepOnce | Action::Faster | Action::Slower => true,
            Action::World(input) => input.repeats(),
            _ => false,
        }
    }
}

/// The key help line the demo draws.
pub const KEY_HELP: &str =
    "I INTERP  P PAUSE  S STEP  +/- SPEED  M PACING  H HIDE 2S  N/X/R BALLS  ESC QUIT";

/// Speeds from ¼× to 4×, each twice the one before, as (numerator,
/// denominator).
pub const SPEEDS: [(u16, u16); 5] = [(1, 4), (1, 2), (1, 1), (2, 1), (4, 1)];

/// [`SPEEDS`] as the loop takes them, with their labels.
const SPEED_STEPS: [(Speed, &str); 5] = [
    (speed(SPEEDS[0]), "0.25x"),
    (speed(SPEEDS[1]), "0.5x"),
    (speed(SPEEDS[2]), "1x"),
    (speed(SPEEDS[3]), "2x"),
    (speed(SPEEDS[4]), "4x"),
];

/// The index into [`SPEEDS`] of 1×.
const NORMAL_SPEED: usize = 2;

/// The pacing modes `M` cycles through, with their names.
pub const PACING_MODES: [&str; 4] = ["off", "centred", "snapped", "locked"];

/// [`PACING_MODES`] as the loop takes them.
const PACINGS: [Pacing; 4] = [Pacing::OFF, Pacing::CENTRED, SNAPPED, Pacing::LOCKED];

/// The index into [`PACING_MODES`] of locked pacing, the loop's default.
const DEFAULT_PACING: usize = 3;

/// The snap tolerance of the snapped mode: about twice the timestamp jitter
/// of a desktop compositor.
pub const SNAP_TOLERANCE: Duration = Duration::from_millis(2);

/// Snapped pacing at [`SNAP_TOLERANCE`].
const SNAPPED: Pacing = match Pacing::snapped(SNAP_TOLERANCE) {
    Ok(pacing) => pacing,
    // Evaluated while compiling: a bad tolerance fails the build, never a run.
    Err(_) => panic!("SNAP_TOLERANCE is outside the range snapped pacing takes"),
};

/// A speed from the table, checked while compiling.
const fn speed((numerator, denominator): (u16, u16)) -> Speed {
    match Speed::new(numerator, denominator) {
        Ok(speed) => speed,
        // Only ever evaluated in a constant: a bad entry fails the build.
        Err(_) => panic!("an entry of SPEEDS is not a valid speed"),
    }
}

/// The settings the keys move. Speed and pacing can only be moved by the
/// keys' steps, so they always name an entry of [`SPEEDS`] and
/// [`PACING_MODES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Whether balls are drawn between steps (`true`) or where the latest
    /// step left them.
    pub interpolate: bool,
    /// Index into [`SPEEDS`], always in range.
    speed_index: usize,
    /// Index into [`PACING_MODES`], always in range.
    pacing_index: usize,
}

impl Default for Settings {
    /// Interpolating, at 1×, locked pacing (the loop's default).
    fn default() -> Settings {
        Settings {
            interpolate: true,
            speed_index: NORMAL_SPEED,
            pacing_index: DEFAULT_PACING,
        }
    }
}

impl Settings {
    /// The speed selected.
    pub fn speed(&self) -> Speed {
        SPEED_STEPS[self.speed_index].0
    }

    /// The speed as text, as the title and overlay show it (`0.25x`, `4x`).
    pub fn speed_label(&self) -> &'static str {
        SPEED_STEPS[self.speed_index].1
    }

    /// Which entry of [`SPEEDS`] is selected.
    pub fn speed_index(&self) -> usize {
        self.speed_index
    }

    /// The pacing selected.
    pub fn pacing(&self) -> Pacing {
        PACINGS[self.pacing_index]
    }

    /// The pacing mode's name.
    pub fn pacing_label(&self) -> &'static str {
        PACING_MODES[self.pacing_index]
    }

    /// Which entry of [`PACING_MODES`] is selected.
    pub fn pacing_index(&self) -> usize {
        self.pacing_index
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

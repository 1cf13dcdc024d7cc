//! Input that lands on the right step. A frame source pushes each event
//! with the time it happened ([`Loop::push_input`]); the loop hands every
//! fixed step the events of the wall-clock span it stands for, so a press
//! is seen by exactly one step however many steps a frame runs (none,
//! one or several), and a recorded session replays exactly.
//!
//! # Which step gets an event
//!
//! Each step stands for the wall-clock span over which the planner's bank
//! filled it. Within a pump, the wall time since the previous frame maps
//! linearly onto what the bank gained in that pump (its time at the speed,
//! less what the budget dropped, moved by pacing), and a step *ends* where
//! the bank reached its full length. A queued step
//! ([`Control::queue_steps`](crate::Control::queue_steps)) stands for no
//! time and ends at its pump's time.
//!
//! An event goes to the first step not yet run that ends at or after the
//! event's time. Step ends never go backwards, so:
//!
//! - every event reaches exactly one step, in the order pushed;
//! - no step sees an event stamped after its end: an event stamped after a
//!   pump's time (a browser handler that runs in the frame) or after its
//!   last step's end waits for a later step, the one whose span holds it;
//! - an event older than a step's span (stamped before a pump that ran no
//!   step, or pushed late) goes to the next step that runs;
//! - time the budget dropped is spread over the steps the pump ran, so its
//!   events reach them and are never lost; steps a catch-up runs stand for
//!   absent time and get no events.
//!
//! **Under the default pacing** ([`Pacing::LOCKED`](crate::Pacing::LOCKED)),
//! the planner keeps the bank half a step full after each frame, so jitter
//! in the frame stamps cannot tip a frame into one step too many or too
//! few. The last step of a frame then ends half a step before the pump, and
//! an event in that last half step waits for the next frame's first step:
//! at 60 steps/s on a 60 Hz display, a press in the last 8.3 ms before a
//! pump is read one frame (16.7 ms) later than with pacing off. That is
//! half a step of latency on average, the price of the steady cadence;
//! [`Pacing::OFF`](crate::Pacing::OFF) puts step ends at the pump.
//!
//! **Paused**: a pump of a paused loop that runs no step hands the events
//! due by its time to the [paused-input hooks](Loop::on_paused_input) (a
//! pause menu reads them there), and they never reach a step as presses,
//! motion or text: the step after the resume sees only the held state they
//! left (a key pressed during the pause and still down reads held, one
//! released reads released). A queued step while paused takes the events
//! due by its pump, as any step.
//!
//! # What a step reads
//!
//! [`StepInput`], from [`StepContext::input`](crate::StepContext::input): the step's
//! events in order, and what they mean for the step. Held buttons read as
//! state; a press and release inside one step is still a press; relative
//! motion and the wheel are summed; the pointer's position is the step's
//! last; key repeat is its own event; losing focus releases everything
//! held (the step sees a release of each); text comes in order, apart from
//! key state.
//!
//! # Replay
//!
//! [`LoopBuilder::record_input`] records every event delivered to a step in an
//! [`InputLog`](crate::InputLog) by tick, with a state-hash checkpoint, no code
//! in the game; [`replay`](crate::replay()) of that log hands each step the same
//! [`StepInput`].
//!
//! [`Loop::push_input`]: crate::Loop::push_input
//! [`Loop::on_paused_input`]: crate::Loop::on_paused_input
//! [`LoopBuilder::record_input`]: crate::LoopBuilder::record_input

mod key;
pub(crate) mod queue;
mod step_input;

use std::fmt;
use std::time::Duration;

pub use self::key::{Key, KeyError};
pub use self::step_input::StepInput;

#[cfg(doc)]
use crate::game_loop::Loop;

/// A mouse button, numbered as the web platform numbers them
/// (`MouseEvent.button`): 0 the main button, 1 the middle, 2 the secondary,
/// 3 back and 4 forward; others as the platform numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MouseButton(pub u8);

impl MouseButton {
    /// The main button, usually the left.
    pub const LEFT: MouseButton = MouseButton(0);
    /// The middle button (the wheel pressed).
    pub const MIDDLE: MouseButton = MouseButton(1);
    /// The secondary button, usually the right.
    pub const RIGHT: MouseButton = MouseButton(2);
    /// The back button.
    pub const BACK: MouseButton = MouseButton(3);
    /// The forward button.
    pub const FORWARD: MouseButton = MouseButton(4);
}

/// Something that is held down and let go: a key or a mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Button {
    /// A key of the keyboard.
    Key(Key),
    /// A mouse button.
    Mouse(MouseButton),
}

impl From<Key> for Button {
    fn from(key: Key) -> Button {
        Button::Key(key)
    }
}

impl From<MouseButton> for Button {
    fn from(button: MouseButton) -> Button {
        Button::Mouse(button)
    }
}

/// One input event, as a frame source pushes it and a step reads it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum InputEvent {
    /// A button went down.
    Press(Button),
    /// A button came up.
    Release(Button),
    /// A held key repeated (the platform's auto-repeat): not a press.
    Repeat(Button),
    /// Relative pointer motion (raw mouse deltas), in the platform's units.
    Motion {
        /// Rightwards.
        #[cfg_attr(feature = "serde", serde(deserialize_with = "finite"))]
        dx: f64,
        /// Downwards.
        #[cfg_attr(feature = "serde", serde(deserialize_with = "finite"))]
        dy: f64,
    },
    /// The wheel turned, in the platform's units (lines or pixels, as the
    /// frame source says).
    Wheel {
        /// Rightwards.
        #[cfg_attr(feature = "serde", serde(deserialize_with = "finite"))]
        dx: f64,
        /// Downwards (towards the user).
        #[cfg_attr(feature = "serde", serde(deserialize_with = "finite"))]
        dy: f64,
    },
    /// The pointer's absolute position, in the window's pixels from its
    /// top left.
    Pointer {
        /// From the left edge.
        #[cfg_attr(feature = "serde", serde(deserialize_with = "finite"))]
        x: f64,
        /// From the top edge.
        #[cfg_attr(feature = "serde", serde(deserialize_with = "finite"))]
        y: f64,
    },
    /// Text typed, in order: what the keys produced after the layout and
    /// the input method, apart from key state.
    Text(String),
    /// The window lost the keyboard focus: everything held is released.
    FocusLost,
}

/// Reads a motion, wheel or pointer value, refusing one that is not finite:
/// a loaded log or a message from the network is held to what
/// [`Loop::push_input`] takes live.
#[cfg(feature = "serde")]
fn finite<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    let value = <f64 as serde::Deserialize>::deserialize(deserializer)?;
    if value.is_finite() {
        Ok(value)
    } else {
        Err(serde::de::Error::custom(InputError::NotFinite))
    }
}

impl InputEvent {
    /// Checks what the loop cannot take: a motion, wheel or pointer value
    /// that is not finite.
    pub(crate) fn check(&self) -> Result<(), InputError> {
        let values = match *self {
            InputEvent::Motion { dx, dy } | InputEvent::Wheel { dx, dy } => [dx, dy],
            InputEvent::Pointer { x, y } => [x, y],
            _ => return Ok(()),
        };
        if values.iter().all(|value| value.is_finite()) {
            Ok(())
        } else {
            Err(InputError::NotFinite)
        }
    }
}

/// What a step received, as [`LoopBuilder::record_input`](crate::LoopBuilder::record_input) logs it: an event, and
/// whether it came while the loop was paused (then it reached the paused-input
/// hooks, and counts for the step only as the held state it left).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Delivery {
    /// The event.
    pub event: InputEvent,
    /// Whether it came while paused.
    pub while_paused: bool,
}

/// Why [`Loop::push_input`] refused an event. The queue is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputError {
    /// A motion, wheel or pointer value is NaN or infinite.
    NotFinite,
    /// [`MAX_WAITING`] events already wait for a step: the loop has not
    /// been pumped for a long time.
    Full,
    /// The event is stamped more than [`MAX_AHEAD`] after the loop's time
    /// when it was pushed: a stamp in another unit or time base, which
    /// would hold back every later event until its time.
    TooFarAhead {
        /// How far after the loop's time the stamp was.
        ahead: Duration,
    },
}

/// The most events that wait for a step at once. Far more than a frame
/// source pushes between two pumps; reached only by a loop that is not
/// being pumped.
pub const MAX_WAITING: usize = 65_536;

/// How far after the loop's time an event's stamp may be when it is pushed:
/// the later of the clock's reading then and the latest pump's time. A
/// platform stamps an event when it happened, which is never after it is
/// handed over, so a stamp ahead of the clock is an error of unit or time
/// base; the second allows for a frame source whose event times come from a
/// clock a little ahead of the loop's. A stamp after the *last pump* is
/// normal (a hidden tab pumps about once a second, or less): only the
/// clock's reading at the push bounds it.
pub const MAX_AHEAD: Duration = Duration::from_secs(1);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::NotFinite => f.write_str(
                "an input event with a NaN or infinite value; motion, wheel and pointer \
                 values must be finite",
            ),
            InputError::Full => write!(
                f,
                "{MAX_WAITING} input events already wait for a step; pump the loop \
                 (a tick pump while hidden) so steps take them"
            ),
            InputError::TooFarAhead { ahead } => write!(
                f,
                "an input event stamped {} ns after the loop's time; a stamp may be \
                 at most {} ns ({MAX_AHEAD:?}) ahead of the clock when it is pushed \
                 (is it in nanoseconds, on the loop's clock?)",
                ahead.as_nanos(),
                MAX_AHEAD.as_nanos()
            ),
        }
    }
}

impl std::error::Error for InputError {}

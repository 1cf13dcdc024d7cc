//! What the browser tests read of the input the steps got: every press a
//! step read, with its tick and the step's pointer; the wheel and the text,
//! summed over every step; and the late-input probe, which dispatches a
//! key press in an animation frame after the frame began but before the
//! loop's pump for that frame runs, and notes what that pump did with it.
//! None of it is needed to run a game in a page.

use std::cell::RefCell;
use std::fmt::Write as _;

use evenstep::input::{Button, InputEvent, Key};
use evenstep::{Clock, Loop, PumpReport, StepContext, Timestamp};
use evenstep_web::{PageClock, timestamp_from_millis};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{KeyboardEvent, KeyboardEventInit};

use crate::Game;
use crate::keys::with_demo;

/// The presses kept: far more than a test makes.
const MAX_PRESSES: usize = 256;

/// The key the probe presses.
const PROBE_CODE: &str = "KeyK";

/// A press a step read.
#[derive(Debug)]
struct Press {
    /// The step's tick.
    tick: u64,
    /// The key's name, or `Mouse` and the button's number.
    name: String,
    /// The step's pointer.
    pointer: Option<(f64, f64)>,
}

/// What the steps read, as the game keeps it for the tests.
#[derive(Debug, Default)]
pub(crate) struct SeenInput {
    /// Each press a step read.
    presses: Vec<Press>,
    /// The wheel, summed over every step.
    wheel: (f64, f64),
    /// The text, in order.
    text: String,
}

/// An update subscriber: notes what the step read.
pub(crate) fn record(game: &mut Game, step: &StepContext<'_>) {
    let input = step.input();
    let seen = &mut game.seen_input;
    for event in input.events() {
        if let InputEvent::Press(button) = event
            && seen.presses.len() < MAX_PRESSES
        {
            let name = match button {
                Button::Key(key) => key.name().to_owned(),
                Button::Mouse(mouse) => format!("Mouse{}", mouse.0),
            };
            seen.presses.push(Press {
                tick: step.tick(),
                name,
                pointer: input.pointer(),
            });
        }
    }
    let (dx, dy) = input.wheel();
    seen.wheel = (seen.wheel.0 + dx, seen.wheel.1 + dy);
    for text in input.text() {
        seen.text.push_str(text);
    }
}

/// One dispatch of the probe's key, and what the pump of its frame did.
#[derive(Clone, Copy, Debug)]
struct Trial {
    /// The frame's time, as the animation-frame callbacks were given it.
    frame: Timestamp,
    /// The loop's tick when the key was dispatched.
    tick_before: u64,
    /// What the frame's pump did.
    pump: Option<PumpSeen>,
}

/// What the pump of a trial's frame did.
#[derive(Clone, Copy, Debug)]
struct PumpSeen {
    /// The pump's time.
    at: Timestamp,
    /// Its steps.
    steps: u64,
    /// The loop's tick after it.
    tick_after: u64,
    /// The time of the probe's press, if it was still queued after it.
    queued_at: Option<Timestamp>,
}

/// The late-input probe.
#[derive(Default)]
struct Probe {
    /// Trials whose pump ran a step still wanted.
    wanted: u32,
    /// Trials left before the probe gives up.
    left: u32,
    trials: Vec<Trial>,
    /// Paints to let pass before the next trial: a trial always asked for
    /// by the paint that read the previous press would keep one phase to
    /// the steps (at 20 Hz and 60 fps, never in a frame that runs one).
    wait: Option<usize>,
    /// The animation-frame callback, while a trial is asked for.
    callback: Option<Closure<dyn FnMut(f64)>>,
}

thread_local! {
    static PROBE: RefCell<Probe> = RefCell::new(Probe::default());
}

/// Starts the late-input probe: trials, one an animation frame, until
/// `wanted` trials' pumps ran a step (or `most` trials ran), each asked
/// for by the paint after the previous trial's press reached a step.
/// `status` reports the trials.
///
/// # Errors
///
/// When the demo is not built.
#[wasm_bindgen]
pub fn probe_late_input(wanted: u32, most: u32) -> Result<(), JsValue> {
    with_demo(|_| ())?;
    PROBE.with(|probe| {
        *probe.borrow_mut() = Probe {
            wanted,
            left: most,
            trials: Vec::new(),
            wait: None,
            callback: Some(Closure::new(probe_frame)),
        };
    });
    // The first trial is asked for from the next paint, like every other.
    Ok(())
}

/// Asks for the next trial's animation frame. Asked for from inside the
/// paint hook, before the frame source asks for its own next frame, its
/// callback runs first in that frame.
fn ask_for_trial() {
    PROBE.with(|probe| {
        let probe = probe.borrow();
        if let (Some(callback), Some(window)) = (&probe.callback, web_sys::window()) {
            let _ = window.request_animation_frame(callback.as_ref().unchecked_ref());
        }
    });
}

/// A trial: in the frame that began at `frame_millis`, once 1 ms of it has
/// passed, the probe's key goes down and up, stamped then, before the
/// loop's pump at the frame's time.
fn probe_frame(frame_millis: f64) {
    let Ok(clock) = PageClock::new() else {
        return;
    };
    let frame = timestamp_from_millis(frame_millis);
    let later = timestamp_from_millis(frame_millis + 1.0);
    while clock.now() < later {}
    let Ok(Ok(tick_before)) = with_demo(|demo| {
        demo.page_loop
            .inspect(|_, driver| driver.game_loop().tick())
    }) else {
        return;
    };
    PROBE.with(|probe| {
        probe.borrow_mut().trials.push(Trial {
            frame,
            tick_before,
            pump: None,
        });
    });
    for kind in ["keydown", "keyup"] {
        dispatch_key(kind, PROBE_CODE, "k");
    }
}

/// Dispatches a keydown and keyup of `code` from inside
/// [`PageLoop::with`](evenstep_web::PageLoop::with), while the frame source
/// is in use: its listeners must keep the events and forward them, in
/// order, as `with` returns.
///
/// # Errors
///
/// When the demo is not built.
#[wasm_bindgen]
pub fn press_from_inside(code: &str) -> Result<(), JsValue> {
    with_demo(|demo| {
        demo.page_loop.with(|_, _| {
            for kind in ["keydown", "keyup"] {
                dispatch_key(kind, code, "");
            }
        })
    })?
    .map_err(crate::error)
}

/// Dispatches a key event of `kind` on the window.
fn dispatch_key(kind: &str, code: &str, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_code(code);
    init.set_key(key);
    if let (Ok(event), Some(window)) = (
        KeyboardEvent::new_with_keyboard_event_init_dict(kind, &init),
        web_sys::window(),
    ) {
        let _ = window.dispatch_event(&event);
    }
}

/// After each paint: notes what the pump did with a trial's press, and
/// asks for the next trial once the press reached a step and 0, 1 or 2
/// more paints passed (in turn).
pub(crate) fn after_paint(game: &Game, game_loop: &Loop<Game>, report: &PumpReport) {
    let probe_key = Key::named(PROBE_CODE).ok().map(Button::Key);
    let next = PROBE.with(|probe| {
        let mut probe = probe.borrow_mut();
        if probe.callback.is_none() {
            return false;
        }
        if let Some(trial) = probe.trials.last_mut()
            && trial.pump.is_none()
        {
            let queued = game_loop
                .waiting_input()
                .find(|(_, event)| probe_key.is_some_and(|k| **event == InputEvent::Press(k)))
                .map(|(at, _)| at);
            trial.pump = Some(PumpSeen {
                at: report.now,
                steps: report.steps,
                tick_after: game_loop.tick(),
                queued_at: queued,
            });
            if report.steps > 0 {
                probe.wanted = probe.wanted.saturating_sub(1);
            }
            probe.left = probe.left.saturating_sub(1);
        }
        let seen = game
            .seen_input
            .presses
            .iter()
            .filter(|press| press.name == PROBE_CODE)
            .count();
        let done = probe.wanted == 0 || probe.left == 0;
        if done {
            probe.callback = None;
        }
        let ready = seen == probe.trials.len() && probe.trials.iter().all(|t| t.pump.is_some());
        if done || !ready {
            return false;
        }
        let phase = probe.trials.len() % 3;
        let wait = *probe.wait.get_or_insert(phase);
        probe.wait = wait.checked_sub(1);
        wait == 0
    });
    if next {
        ask_for_trial();
    }
}

/// The status's input fields, as JSON members (with a leading comma).
pub(crate) fn status(json: &mut String, game: &Game, stats: &evenstep_web::InputStats) {
    let seen = &game.seen_input;
    let _ = write!(
        json,
        ",\"input\":{{\"forwarded\":{},\"refused\":{},\"stamps_after_now\":{},\"last_refusal\":{}}}",
        stats.forwarded,
        stats.refused,
        stats.stamps_after_now,
        stats
            .last_refusal
            .map_or_else(|| "null".to_owned(), |r| quoted(&r.to_string()))
    );
    json.push_str(",\"presses\":[");
    for (i, press) in seen.presses.iter().enumerate() {
        let pointer = press
            .pointer
            .map_or_else(|| "null".to_owned(), |(x, y)| format!("[{x},{y}]"));
        let comma = if i == 0 { "" } else { "," };
        let _ = write!(
            json,
            "{comma}[{},{},{pointer}]",
            press.tick,
            quoted(&press.name)
        );
    }
    let _ = write!(
        json,
        "],\"wheel\":[{},{}],\"text\":{}",
        seen.wheel.0,
        seen.wheel.1,
        quoted(&seen.text)
    );
    json.push_str(",\"probe\":[");
    PROBE.with(|probe| {
        for (i, trial) in probe.borrow().trials.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            let _ = write!(
                json,
                "{comma}{{\"frame\":{},\"tick_before\":{}",
                trial.frame.as_nanos(),
                trial.tick_before
            );
            if let Some(pump) = trial.pump {
                let queued = pump
                    .queued_at
                    .map_or_else(|| "null".to_owned(), |q| q.as_nanos().to_string());
                let _ = write!(
                    json,
                    ",\"pump_at\":{},\"pump_steps\":{},\"tick_after\":{},\"queued_at\":{queued}",
                    pump.at.as_nanos(),
                    pump.steps,
                    pump.tick_after
                );
            }
            json.push('}');
        }
    });
    json.push(']');
}

/// `text` as a JSON string.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

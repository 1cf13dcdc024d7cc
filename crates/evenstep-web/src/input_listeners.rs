//! The page's input events as a started [`PageLoop`](crate::PageLoop)
//! listens to them (wasm32 only): which DOM events, on which target, and
//! the fields each gives its [`PageInput`]. What the fields become is
//! [`PageInput::into_events`]'s to say.
//!
//! Every one is listened to on the window, so a key is heard wherever the
//! focus is in the page, and a button let go outside the game's canvas is
//! still a release (no button stays held because the pointer left). They
//! are passive listeners: the frame source never cancels an event, so the
//! page scrolls and types as it would without it.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CompositionEvent, Element, Event, KeyboardEvent, MouseEvent, WheelEvent, Window};

use crate::page_input::{KeyDown, PageInput};

/// The DOM events forwarded, all listened to on the window.
pub(crate) const INPUT_EVENTS: [&str; 8] = [
    "keydown",
    "keyup",
    "compositionend",
    "mousedown",
    "mouseup",
    "mousemove",
    "wheel",
    "blur",
];

/// The [`PageInput`] of `event`, a DOM event of `kind` (one of
/// [`INPUT_EVENTS`]). Positions are CSS pixels from the top left of
/// `origin`'s border box, or of the viewport without one.
///
/// An event that is not of the interface its kind has (a script's plain
/// `new Event('keydown')`) reads as empty fields, which
/// [`PageInput::into_events`] or the loop refuses and the driver counts.
pub(crate) fn read(
    kind: &str,
    event: &Event,
    window: &Window,
    origin: Option<&Element>,
) -> PageInput {
    match kind {
        "keydown" => PageInput::KeyDown(key_down(event.dyn_ref::<KeyboardEvent>())),
        "keyup" => PageInput::KeyUp {
            code: event
                .dyn_ref::<KeyboardEvent>()
                .map(KeyboardEvent::code)
                .unwrap_or_default(),
        },
        "compositionend" => PageInput::CompositionEnd {
            data: event
                .dyn_ref::<CompositionEvent>()
                .and_then(CompositionEvent::data)
                .unwrap_or_default(),
        },
        "mousedown" | "mouseup" => {
            // -1, "no button", which no press has: refused and counted.
            let button = event.dyn_ref::<MouseEvent>().map_or(-1, MouseEvent::button);
            let (x, y) = position(event, origin);
            if kind == "mousedown" {
                PageInput::MouseDown { button, x, y }
            } else {
                PageInput::MouseUp { button, x, y }
            }
        }
        "mousemove" => {
            let (x, y) = position(event, origin);
            PageInput::MouseMove {
                x,
                y,
                dx: number(event, "movementX"),
                dy: number(event, "movementY"),
            }
        }
        "wheel" => {
            let wheel = event.dyn_ref::<WheelEvent>();
            PageInput::Wheel {
                dx: wheel.map_or(f64::NAN, WheelEvent::delta_x),
                dy: wheel.map_or(f64::NAN, WheelEvent::delta_y),
                // No mode: refused and counted.
                mode: wheel.map_or(u32::MAX, WheelEvent::delta_mode),
                page_width: size(window.inner_width()),
                page_height: size(window.inner_height()),
            }
        }
        _ => PageInput::Blur,
    }
}

fn key_down(event: Option<&KeyboardEvent>) -> KeyDown {
    let Some(event) = event else {
        return KeyDown {
            code: String::new(),
            key: String::new(),
            repeat: false,
            composing: false,
            shortcut: false,
        };
    };
    KeyDown {
        code: event.code(),
        key: event.key(),
        repeat: event.repeat(),
        composing: event.is_composing(),
        shortcut: (event.ctrl_key() || event.meta_key()) && !event.get_modifier_state("AltGraph"),
    }
}

/// The pointer's position: `clientX` / `clientY`, less `origin`'s top
/// left. Read as the doubles the CSSOM specifies (web-sys reads them as
/// whole numbers, and a browser may give fractions).
fn position(event: &Event, origin: Option<&Element>) -> (f64, f64) {
    let (x, y) = (number(event, "clientX"), number(event, "clientY"));
    match origin {
        Some(element) => {
            let rect = element.get_bounding_client_rect();
            (x - rect.left(), y - rect.top())
        }
        None => (x, y),
    }
}

/// A number field of `event`; NaN if it has none.
fn number(event: &Event, field: &str) -> f64 {
    Reflect::get(event, &JsValue::from_str(field))
        .ok()
        .and_then(|value| value.as_f64())
        .unwrap_or(f64::NAN)
}

/// A viewport size the window reported; NaN if it did not.
fn size(reading: Result<JsValue, JsValue>) -> f64 {
    reading
        .ok()
        .and_then(|value| value.as_f64())
        .unwrap_or(f64::NAN)
}

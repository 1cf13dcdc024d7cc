//! The page's keys: a `keydown` listener that hands each key, by its
//! `KeyboardEvent.key` name, to the shared world's actions.

use evenstep_demo::{Action, Key, Outcome};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::KeyboardEvent;

use crate::{DEMO, Demo, error, stop};

/// Listens for key presses on the window, until [`unlisten`].
pub(crate) fn listen() -> Result<Closure<dyn FnMut(KeyboardEvent)>, JsValue> {
    let window = web_sys::window().ok_or_else(|| error("no window"))?;
    let keys = Closure::<dyn FnMut(KeyboardEvent)>::new(|event: KeyboardEvent| {
        let key = event.key();
        if press_key(&key).unwrap_or(false) {
            event.prevent_default();
        }
    });
    window.add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref())?;
    Ok(keys)
}

/// Removes a listener [`listen`] added.
pub(crate) fn unlisten(keys: &Closure<dyn FnMut(KeyboardEvent)>) {
    if let Some(window) = web_sys::window() {
        let _ =
            window.remove_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref());
    }
}

/// Acts on a key, by its `KeyboardEvent.key` name (`"i"`, `" "`,
/// `"Escape"`). Returns whether the demo uses the key.
pub(crate) fn press_key(key: &str) -> Result<bool, JsValue> {
    let key = match key {
        "Escape" => Key::Escape,
        " " | "Spacebar" => Key::Space,
        other => {
            let mut chars = other.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Key::Char(c),
                _ => return Ok(false),
            }
        }
    };
    let Some(action) = Action::for_key(key) else {
        return Ok(false);
    };
    let outcome = with_demo(|demo| {
        demo.page_loop
            .with(|game, game_loop| {
                let outcome = game.bounce.act(action, game_loop);
                game.note = (outcome == Outcome::HideBriefly)
                    .then_some("A PAGE CANNOT HIDE ITSELF: SWITCH TABS FOR A WHILE");
                outcome
            })
            .map_err(error)
    })??;
    if outcome == Outcome::Quit {
        stop()?;
    }
    Ok(true)
}

/// Runs `f` on the built demo, for the keys and the test harness.
pub(crate) fn with_demo<R>(f: impl FnOnce(&mut Demo) -> R) -> Result<R, JsValue> {
    DEMO.with(|demo| {
        let mut demo = demo
            .try_borrow_mut()
            .map_err(|_| error("the demo is busy"))?;
        let demo = demo
            .as_mut()
            .ok_or_else(|| error("the demo is not built: call start(canvasId) first"))?;
        Ok(f(demo))
    })
}

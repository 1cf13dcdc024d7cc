//! The bounce demo in a browser page: the window demo's world (from
//! `evenstep-demo`), drawn into a 2D canvas on each animation frame, ticking
//! on a timer while the page is hidden, and crediting up to a minute of
//! offline progress when the page comes back (the idle-game pattern).
//!
//! Built into a static folder by `crates/evenstep-web/build-page.sh`; the
//! page (`page/index.html`) loads it and calls `start`. Drawing is in
//! `page/paint.rs`, keys in `page/keys.rs`; `page/harness.rs` holds the
//! exports the browser tests and the measuring run drive the page with.
//!
//! On targets other than wasm32 this is an empty library, so the
//! workspace's `cargo test` still builds it.
#![cfg(target_arch = "wasm32")]

#[path = "page/harness.rs"]
mod harness;
#[path = "page/input_probe.rs"]
mod input_probe;
#[path = "page/keys.rs"]
mod keys;
#[path = "page/paint.rs"]
mod paint;

use std::cell::RefCell;
use std::time::Duration;

use evenstep::{Loop, Nanos};
use evenstep_demo::Bounce;
use evenstep_web::{Away, PageLoop, PageOptions};
use wasm_bindgen::prelude::*;
use web_sys::KeyboardEvent;

pub use harness::{live_callbacks, measure_pump, press, release, status, stop_at_tick};
pub use input_probe::{press_from_inside, probe_late_input};

/// The most offline progress the demo credits when the page comes back: a
/// game-design cap, not the loop's.
const OFFLINE_CAP: Duration = Duration::from_secs(60);

/// The demo's game state: the shared world, and what the page adds.
struct Game {
    bounce: Bounce,
    /// Seconds of real time counted by a real-timeline timer, by periods
    /// (`repeats`), so throttled ticks count every second.
    real_seconds: u64,
    /// The latest absence, and the steps caught up for it.
    last_away: Option<(Away, u64)>,
    /// Time spent drawing in the paint hook.
    draw_time: Nanos,
    /// Set when a key asks for something a page cannot do.
    note: Option<&'static str>,
    /// What the steps read of the forwarded input, for the tests.
    seen_input: input_probe::SeenInput,
}

/// The running demo: the frame source owns the loop and the game.
struct Demo {
    page_loop: PageLoop<Game>,
    /// The key listener, while started.
    keys: Option<Closure<dyn FnMut(KeyboardEvent)>>,
}

thread_local! {
    static DEMO: RefCell<Option<Demo>> = const { RefCell::new(None) };
}

fn error(message: impl std::fmt::Display) -> JsValue {
    JsValue::from(js_sys::Error::new(&message.to_string()))
}

/// The loop, its callbacks and the frame source, drawing into the canvas
/// with id `canvas_id`.
fn build(canvas_id: &str) -> Result<Demo, JsValue> {
    let mut painter = paint::Painter::for_canvas(canvas_id)?;
    let builder = Loop::builder().timestep(Bounce::timestep());
    let game = Game {
        bounce: Bounce::new(),
        real_seconds: 0,
        last_away: None,
        draw_time: Nanos::ZERO,
        note: None,
        seen_input: input_probe::SeenInput::default(),
    };
    // Input is forwarded (the default): each step reads its own presses,
    // with pointer positions on the canvas.
    let page_loop = PageLoop::new(builder, game, PageOptions::new()).map_err(error)?;
    page_loop
        .set_pointer_element(Some(painter.canvas().clone().into()))
        .map_err(error)?;
    page_loop
        .with(|_, game_loop| {
            game_loop.on_update(|game: &mut Game, step| game.bounce.update(step));
            game_loop.on_update(input_probe::record);
            game_loop
                .real()
                .every(Duration::from_secs(1), |game: &mut Game, fire| {
                    game.real_seconds += fire.repeats();
                })
                .map(|_| ())
        })
        .map_err(error)?
        .map_err(error)?;
    page_loop
        .on_paint(move |game, game_loop, report| {
            painter.paint(game, game_loop, report);
            input_probe::after_paint(game, game_loop, report);
        })
        .map_err(error)?;
    page_loop
        .on_return(|game, game_loop, away| {
            // The idle-game pattern: credit what the budget dropped, up to
            // the game's own cap, as whole fixed steps.
            let owed = away.dropped.as_duration().min(OFFLINE_CAP);
            let caught_up = game_loop.catch_up(game, owed).map_or(0, |c| c.steps);
            game.last_away = Some((away, caught_up));
            game.note = None;
        })
        .map_err(error)?;
    Ok(Demo {
        page_loop,
        keys: None,
    })
}

/// Starts the demo drawing into the canvas with id `canvas_id`, or restarts
/// a stopped one (the world carries on where it stopped).
///
/// # Errors
///
/// Starting a running demo is refused, and so is a page without that
/// canvas.
#[wasm_bindgen]
pub fn start(canvas_id: &str) -> Result<(), JsValue> {
    harness::install_panic_hook();
    DEMO.with(|demo| {
        let mut demo = demo
            .try_borrow_mut()
            .map_err(|_| error("the demo is busy: start was called from inside it"))?;
        if demo.is_none() {
            *demo = Some(build(canvas_id)?);
        }
        let Some(demo) = demo.as_mut() else {
            return Ok(());
        };
        demo.page_loop.start().map_err(error)?;
        if demo.keys.is_none() {
            demo.keys = Some(keys::listen()?);
        }
        Ok(())
    })
}

/// Stops the demo and releases every callback and listener it holds;
/// [`start`] resumes it.
///
/// # Errors
///
/// From inside the demo's own callbacks.
#[wasm_bindgen]
pub fn stop() -> Result<(), JsValue> {
    DEMO.with(|demo| {
        let mut demo = demo
            .try_borrow_mut()
            .map_err(|_| error("the demo is busy"))?;
        if let Some(demo) = demo.as_mut() {
            demo.page_loop.stop().map_err(error)?;
            if let Some(listener) = demo.keys.take() {
                keys::unlisten(&listener);
            }
        }
        Ok(())
    })
}

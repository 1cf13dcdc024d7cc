//! The exports the browser tests and the measuring run drive the page
//! with, over the DevTools protocol: everything the tests check as JSON
//! (`status`, with the input the steps read from `input_probe`), the frame
//! sources' live callbacks, key presses, stopping from
//! inside an update, dropping the demo, a panic hook that reports on the
//! console, and the cost of a pump (`measure_pump`). None of it is needed
//! to run a game in a page.

use std::cell::Cell;
use std::fmt::Write as _;

use evenstep::{Clock, Loop, ManualClock, Nanos, PumpKind, Timestamp};
use evenstep_demo::Bounce;
use evenstep_web::{PageClock, live_callbacks as live};
use wasm_bindgen::prelude::*;

use crate::keys::{self, with_demo};
use crate::{DEMO, error};

thread_local! {
    static PANIC_HOOK: Cell<bool> = const { Cell::new(false) };
}

/// Reports a panic on the console, so a test that watches the console
/// sees it (the module aborts either way).
pub(crate) fn install_panic_hook() {
    if !PANIC_HOOK.replace(true) {
        std::panic::set_hook(Box::new(|info| {
            web_sys::console::error_1(&JsValue::from_str(&format!(
                "evenstep page panicked: {info}"
            )));
        }));
    }
}

/// Drops the demo: its frame source, world and listeners are gone;
/// [`start`](crate::start) builds a new one.
///
/// # Errors
///
/// From inside the demo's own callbacks.
#[wasm_bindgen]
pub fn release() -> Result<(), JsValue> {
    let dropped = DEMO.with(|demo| {
        demo.try_borrow_mut()
            .map_err(|_| error("the demo is busy"))
            .map(|mut demo| demo.take())
    })?;
    if let Some(demo) = dropped {
        if let Some(listener) = &demo.keys {
            keys::unlisten(listener);
        }
        drop(demo);
    }
    Ok(())
}

/// Stops the loop from inside an update at `tick`: the frame source
/// then releases its callbacks by itself.
///
/// # Errors
///
/// When the demo is not built.
#[wasm_bindgen]
pub fn stop_at_tick(tick: u32) -> Result<(), JsValue> {
    let tick = u64::from(tick);
    with_demo(|demo| {
        demo.page_loop.with(|_, game_loop| {
            game_loop.on_update(move |_, step| {
                if step.tick() >= tick {
                    step.control().stop();
                }
            });
        })
    })
    .and_then(|done| done.map_err(error))
}

/// Acts on a key, by its `KeyboardEvent.key` name (`"i"`, `" "`,
/// `"Escape"`). Returns whether the demo uses the key.
///
/// # Errors
///
/// When the demo is not built.
#[wasm_bindgen]
pub fn press(key: &str) -> Result<bool, JsValue> {
    keys::press_key(key)
}

/// How many closures the page's frame sources hold registered with the
/// browser: 15 while the demo runs (it forwards input), 0 once stopped or
/// released.
#[wasm_bindgen]
pub fn live_callbacks() -> usize {
    live()
}

/// Everything the browser tests check, as JSON: the page's own view
/// (`document.hidden`, its clock), the frame source's counts, the
/// loop's, the world's and the latest absence. Times are nanoseconds.
///
/// # Errors
///
/// From inside the demo's own callbacks, or outside a page.
#[wasm_bindgen]
pub fn status() -> Result<String, JsValue> {
    let window = web_sys::window().ok_or_else(|| error("no window"))?;
    let hidden = window.document().is_some_and(|d| d.hidden());
    // Isolated, the page's clock has 5 µs resolution; otherwise 100 µs.
    let isolated = js_sys::Reflect::get(&window, &JsValue::from_str("crossOriginIsolated"))
        .is_ok_and(|v| v.is_truthy());
    let now = PageClock::new().map_err(error)?.now();
    let mut json = String::new();
    let _ = write!(
        json,
        "{{\"hidden\":{hidden},\"isolated\":{isolated},\"page_now\":{},\"live_callbacks\":{}",
        now.as_nanos(),
        live()
    );
    let built = DEMO.with(|demo| {
        let demo = demo.try_borrow().map_err(|_| error("the demo is busy"))?;
        let Some(demo) = demo.as_ref() else {
            return Ok::<_, JsValue>(false);
        };
        let started = demo.page_loop.is_started();
        demo.page_loop
            .inspect(|game, driver| {
                let stats = driver.stats();
                let page = driver.page();
                let game_loop = driver.game_loop();
                let loop_stats = game_loop.stats();
                let nanos = |n: Option<Nanos>| {
                    n.map_or_else(|| "null".to_owned(), |n| n.as_nanos().to_string())
                };
                let _ = write!(
                    json,
                    ",\"started\":{started},\"running\":{},\"page_hidden\":{},\"starved\":{}",
                    driver.is_running(),
                    page.hidden,
                    page.starved
                );
                let _ = write!(
                    json,
                    ",\"paints\":{},\"ticks\":{},\"wakes\":{},\"hidden_wakes\":{},\"ignored_frames\":{},\"starvations\":{},\"absences\":{},\"paint_pump_time\":{},\"draw_time\":{}",
                    stats.paints,
                    stats.ticks,
                    stats.wakes,
                    stats.hidden_wakes,
                    stats.ignored_frames,
                    stats.starvations,
                    stats.absences,
                    stats.paint_pump_time.as_nanos(),
                    game.draw_time.as_nanos()
                );
                let _ = write!(
                    json,
                    ",\"shortest_hidden_wake_gap\":{},\"longest_hidden_wake_gap\":{}",
                    nanos(stats.shortest_hidden_wake_gap),
                    nanos(stats.longest_hidden_wake_gap)
                );
                let _ = write!(
                    json,
                    ",\"tick\":{},\"real_time\":{},\"sim_time\":{},\"fps\":{},\"gap_p99\":{},\"loop_absences\":{},\"dropped_steps\":{},\"loop_paints\":{},\"pumps\":{},\"paused\":{}",
                    game_loop.tick(),
                    game_loop.real_time().as_nanos(),
                    game_loop.sim_time().as_nanos(),
                    loop_stats.fps(),
                    loop_stats.gap_p99().as_nanos(),
                    loop_stats.absences(),
                    loop_stats.dropped_steps(),
                    loop_stats.paints(),
                    loop_stats.pumps(),
                    game_loop.is_paused()
                );
                let _ = write!(
                    json,
                    ",\"world_steps\":{},\"balls\":{},\"real_seconds\":{},\"interpolate\":{}",
                    game.bounce.world.steps(),
                    game.bounce.world.balls().len(),
                    game.real_seconds,
                    game.bounce.settings.interpolate
                );
                crate::input_probe::status(&mut json, game, &stats.input);
                match game.last_away {
                    Some((away, caught_up)) => {
                        let _ = write!(
                            json,
                            ",\"away\":{{\"since\":{},\"until\":{},\"span\":{},\"suspended\":{},\"dropped\":{},\"dropped_steps\":{},\"steps\":{},\"tick_pumps\":{},\"caught_up\":{caught_up}}}",
                            away.since.as_nanos(),
                            away.until.as_nanos(),
                            away.span().as_nanos(),
                            away.suspended.as_nanos(),
                            away.dropped.as_nanos(),
                            away.dropped_steps,
                            away.steps,
                            away.tick_pumps
                        );
                    }
                    None => json.push_str(",\"away\":null"),
                }
            })
            .map_err(error)?;
        Ok(true)
    })?;
    let _ = write!(json, ",\"built\":{built}}}");
    Ok(json)
}

/// The cost of a pump in this browser: `pumps` paint pumps of the demo's
/// world at 60 Hz stamps on a loop of its own (stepping at 20 Hz, so
/// one pump in three runs a step), timed on the page's clock. The loop
/// reads a manual clock, or with `page_clock` the page's own (which
/// then only times the pump's phases: the stamps still say when).
/// Returns nanoseconds per pump.
///
/// # Errors
///
/// Outside a page.
#[wasm_bindgen]
pub fn measure_pump(pumps: u32, page_clock: bool) -> Result<f64, JsValue> {
    let timer = PageClock::new().map_err(error)?;
    let manual = ManualClock::new();
    let builder = Loop::<Bounce>::builder().timestep(Bounce::timestep());
    let mut game_loop = if page_clock {
        builder.clock(timer.clone()).build()
    } else {
        builder.clock(manual.clone()).build()
    }
    .map_err(error)?;
    game_loop.on_update(Bounce::update);
    let mut bounce = Bounce::new();
    let origin = if page_clock {
        timer.now()
    } else {
        Timestamp::ZERO
    };
    game_loop.start();
    let began = timer.now();
    for frame in 1..=u64::from(pumps) {
        // 60 Hz frame times, exactly as a display would stamp them.
        let at = origin.saturating_add(Nanos::from_nanos(frame * 1_000_000_000 / 60));
        manual.set(at);
        let _ = game_loop.pump_at(&mut bounce, PumpKind::Paint, at);
    }
    let spent = timer.now().saturating_since(began);
    Ok(spent.as_nanos() as f64 / f64::from(pumps.max(1)))
}

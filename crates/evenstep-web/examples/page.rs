//! The bounce demo in a browser page: the window demo's world (from
//! `evenstep-demo`), drawn into a 2D canvas on each animation frame, ticking
//! on a timer while the page is hidden, and crediting up to a minute of
//! offline progress when the page comes back (the idle-game pattern).
//!
//! Built into a static folder by `crates/evenstep-web/build-page.sh`; the
//! page (`page/index.html`) loads it and calls `start`. The other exports
//! are for the browser tests, which drive the page over the DevTools
//! protocol (`status` reports everything they check, as JSON), and for the
//! measuring run (`measure_pump`).
//!
//! On targets other than wasm32 this is an empty library, so the
//! workspace's `cargo test` still builds it.

#[cfg(target_arch = "wasm32")]
pub use demo::*;

#[cfg(target_arch = "wasm32")]
mod demo {
    use std::cell::{Cell, RefCell};
    use std::fmt::Write as _;
    use std::time::Duration;

    use evenstep::{Clock, Loop, ManualClock, Nanos, PumpKind, PumpReport, Timestamp};
    use evenstep_demo::{Action, Bounce, Canvas, Hud, Key, Outcome, TEXT};
    use evenstep_web::{Away, PageClock, PageLoop, PageOptions, live_callbacks as live};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::{Clamped, JsCast};
    use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData, KeyboardEvent};

    /// The most offline progress the demo credits when the page comes
    /// back: a game-design cap, not the loop's.
    const OFFLINE_CAP: Duration = Duration::from_secs(60);

    /// The demo's game state: the shared world, and what the page adds.
    struct Game {
        bounce: Bounce,
        /// Seconds of real time counted by a real-timeline timer, by
        /// periods (`repeats`), so throttled ticks count every second.
        real_seconds: u64,
        /// The latest absence, and the steps caught up for it.
        last_away: Option<(Away, u64)>,
        /// Time spent drawing in the paint hook.
        draw_time: Nanos,
        /// Set when a key asks for something a page cannot do.
        note: Option<&'static str>,
    }

    /// The canvas and the buffers drawn into it.
    struct Painter {
        canvas: HtmlCanvasElement,
        context: CanvasRenderingContext2d,
        pixels: Vec<u32>,
        rgba: Vec<u8>,
        clock: PageClock,
    }

    impl Painter {
        fn paint(&mut self, game: &mut Game, game_loop: &Loop<Game>, report: &PumpReport) {
            let began = self.clock.now();
            let (width, height) = (self.canvas.width(), self.canvas.height());
            let pixels = (width as usize) * (height as usize);
            self.pixels.resize(pixels, 0);
            self.rgba.resize(pixels * 4, 0);
            game.bounce.chart.record(report, game_loop);
            let Ok(mut canvas) = Canvas::new(&mut self.pixels, width, height) else {
                return;
            };
            game.bounce
                .draw(&mut canvas, game_loop.alpha(), &Hud::read(game_loop));
            // Under the overlay's three lines (7 font pixels each, from y 6).
            let (scale, line_y) = if width >= 480 { (2, 48) } else { (1, 27) };
            let line = match (game.note, game.last_away) {
                (Some(note), _) => Some(note.to_owned()),
                (None, Some((away, caught_up))) => Some(format!(
                    "BACK AFTER {:.1} S: {} STEPS RAN, {} DROPPED, {} CAUGHT UP",
                    away.span().as_secs_f64(),
                    away.steps,
                    away.dropped_steps,
                    caught_up
                )),
                (None, None) => None,
            };
            if let Some(line) = line {
                canvas.text(6, line_y, &line, scale, TEXT);
            }
            if canvas.write_rgba(&mut self.rgba).is_ok()
                && let Ok(image) =
                    ImageData::new_with_u8_clamped_array_and_sh(Clamped(&self.rgba), width, height)
            {
                let _ = self.context.put_image_data(&image, 0.0, 0.0);
            }
            game.draw_time = game
                .draw_time
                .saturating_add(self.clock.now().saturating_since(began));
        }
    }

    struct Demo {
        page_loop: PageLoop<Game>,
        /// The key listener, while started.
        keys: Option<Closure<dyn FnMut(KeyboardEvent)>>,
    }

    thread_local! {
        static DEMO: RefCell<Option<Demo>> = const { RefCell::new(None) };
        static PANIC_HOOK: Cell<bool> = const { Cell::new(false) };
    }

    fn error(message: impl std::fmt::Display) -> JsValue {
        JsValue::from(js_sys::Error::new(&message.to_string()))
    }

    /// Reports a panic on the console, so a test that watches the console
    /// sees it (the module aborts either way).
    fn install_panic_hook() {
        if !PANIC_HOOK.replace(true) {
            std::panic::set_hook(Box::new(|info| {
                web_sys::console::error_1(&JsValue::from_str(&format!(
                    "evenstep page panicked: {info}"
                )));
            }));
        }
    }

    fn canvas(canvas_id: &str) -> Result<HtmlCanvasElement, JsValue> {
        let document = web_sys::window()
            .and_then(|w| w.document())
            .ok_or_else(|| error("no document: the demo runs in a browser page"))?;
        document
            .get_element_by_id(canvas_id)
            .ok_or_else(|| error(format!("no element with id {canvas_id:?} in the page")))?
            .dyn_into::<HtmlCanvasElement>()
            .map_err(|_| error(format!("the element {canvas_id:?} is not a <canvas>")))
    }

    fn build(canvas_id: &str) -> Result<Demo, JsValue> {
        let canvas = canvas(canvas_id)?;
        let context = canvas
            .get_context("2d")?
            .ok_or_else(|| error("the canvas has no 2d context"))?
            .dyn_into::<CanvasRenderingContext2d>()?;
        let builder = Loop::builder().timestep(Bounce::timestep());
        let game = Game {
            bounce: Bounce::new(),
            real_seconds: 0,
            last_away: None,
            draw_time: Nanos::ZERO,
            note: None,
        };
        let page_loop = PageLoop::new(builder, game, PageOptions::new()).map_err(error)?;
        page_loop
            .with(|_, game_loop| {
                game_loop.on_update(|game: &mut Game, step| game.bounce.update(step));
                game_loop
                    .real()
                    .every(Duration::from_secs(1), |game: &mut Game, fire| {
                        game.real_seconds += fire.repeats();
                    })
                    .map(|_| ())
            })
            .map_err(error)?
            .map_err(error)?;
        let mut painter = Painter {
            canvas,
            context,
            pixels: Vec::new(),
            rgba: Vec::new(),
            clock: PageClock::new().map_err(error)?,
        };
        page_loop
            .on_paint(move |game, game_loop, report| painter.paint(game, game_loop, report))
            .map_err(error)?;
        page_loop
            .on_return(|game, game_loop, away| {
                // The idle-game pattern: credit what the budget dropped,
                // up to the game's own cap, as whole fixed steps.
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

    fn key_listener() -> Result<Closure<dyn FnMut(KeyboardEvent)>, JsValue> {
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

    fn remove_key_listener(keys: &Closure<dyn FnMut(KeyboardEvent)>) {
        if let Some(window) = web_sys::window() {
            let _ = window
                .remove_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref());
        }
    }

    /// Starts the demo drawing into the canvas with id `canvas_id`, or
    /// restarts a stopped one (the world carries on where it stopped).
    ///
    /// # Errors
    ///
    /// Starting a running demo is refused, and so is a page without that
    /// canvas.
    #[wasm_bindgen]
    pub fn start(canvas_id: &str) -> Result<(), JsValue> {
        install_panic_hook();
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
                demo.keys = Some(key_listener()?);
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
                if let Some(keys) = demo.keys.take() {
                    remove_key_listener(&keys);
                }
            }
            Ok(())
        })
    }

    /// Drops the demo: its frame source, world and listeners are gone;
    /// [`start`] builds a new one.
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
            if let Some(keys) = &demo.keys {
                remove_key_listener(keys);
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
        press_key(key)
    }

    fn press_key(key: &str) -> Result<bool, JsValue> {
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

    fn with_demo<R>(f: impl FnOnce(&mut Demo) -> R) -> Result<R, JsValue> {
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

    /// How many closures the page's frame sources hold registered with the
    /// browser: 7 while the demo runs, 0 once stopped or released.
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
}

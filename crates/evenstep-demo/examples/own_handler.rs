//! A game with its own `ApplicationHandler` forwards four calls to the
//! driver: `resumed` attaches the window, `window_event` hands redraws to
//! `redraw` and other events to `window_event` (which pushes their input
//! into the loop's queue), `device_event` goes to `device_event` (raw mouse
//! motion), and `about_to_wait` to `about_to_wait`. Input takes the
//! deterministic path: each step reads the keys of its span from its
//! input, the loop records every step's input (`record_input`), and at exit
//! the recording is replayed against a fresh world.
//!
//! ```text
//! cargo run -p evenstep-demo --example own_handler -- --seconds 3
//! ```
//!
//! With `--seconds N` it taps N at half a second and R at one second, as a
//! frame source would push them, quits after N seconds, and fails unless
//! the replay matches; it also fails when the window or its surface cannot
//! be made or a frame is not drawn. Keys: N, X and R add, remove and
//! reverse balls; Esc quits.

#[path = "support/args.rs"]
mod args;
#[path = "support/keys.rs"]
mod keys;
#[path = "support/present.rs"]
mod present;

use std::sync::Arc;

use evenstep::Nanos;
use evenstep::input::InputEvent;
use evenstep_demo::{Action, Bounce, WorldInput};
use evenstep_winit::{WindowDriver, WindowOptions};
use winit::application::ApplicationHandler;
use winit::event::{DeviceEvent, DeviceId, ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

struct OwnHandlerDemo {
    game: Bounce,
    driver: WindowDriver<Bounce>,
    window: Option<Arc<Window>>,
    surface: Option<present::Surface>,
    /// Real time after which the demo closes itself (`--seconds`).
    quit_after: Option<Nanos>,
    /// Keys still to tap, by real time, with `--seconds`: the script.
    script: Vec<(Nanos, WorldInput)>,
    /// Why the window or its surface could not be made, or why the first
    /// frame that failed to draw failed; `main` returns it.
    failed: Option<String>,
}

impl ApplicationHandler for OwnHandlerDemo {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        let attributes = Window::default_attributes().with_title("evenstep: a game's own handler");
        let opened = event_loop
            .create_window(attributes)
            .map_err(|e| format!("the window could not be created: {e}"))
            .map(Arc::new)
            .and_then(|window| Ok((window.clone(), present::surface(&window)?)));
        match opened {
            Ok((window, surface)) => {
                self.driver.attach(&window); // reads the refresh rate, starts the loop
                (self.window, self.surface) = (Some(window), Some(surface));
            }
            Err(why) => {
                self.failed = Some(why);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, _: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(window) = self.window.clone() else {
            return;
        };
        if event == WindowEvent::RedrawRequested {
            if let Some(report) = self.driver.redraw(&mut self.game)
                && report.rendered
            {
                self.game.chart.record(&report, self.driver.game_loop());
                self.draw(&window);
            }
            return;
        }
        // Esc quits; the world's keys need nothing here: `window_event`
        // pushes every key into the loop's queue, and the steps read them.
        if let WindowEvent::KeyboardInput { event: key, .. } = &event
            && key.state == ElementState::Pressed
            && keys::key_of(&key.logical_key).and_then(Action::for_key) == Some(Action::Quit)
        {
            self.driver.request_close();
        }
        // Occluded, CloseRequested, and input into the loop's queue.
        self.driver.window_event(&window, &event);
    }

    fn device_event(&mut self, _: &ActiveEventLoop, _: DeviceId, event: DeviceEvent) {
        self.driver.device_event(&event); // raw mouse motion
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let real = self.driver.game_loop().real_time();
        if self.quit_after.is_some_and(|after| real >= after) {
            self.driver.request_close();
        }
        while let Some(&(at, input)) = self.script.first()
            && real >= at
        {
            self.script.remove(0);
            self.tap(input.key().into());
        }
        if let Some(window) = self.window.clone() {
            // Asks for a redraw, ticks while hidden, sets WaitUntil, or exits.
            self.driver
                .about_to_wait(&mut self.game, event_loop, &window);
        }
    }
}

impl OwnHandlerDemo {
    /// Presses and lets go of `key` now, as the driver pushes a real one.
    fn tap(&mut self, key: evenstep::input::Button) {
        let game_loop = self.driver.game_loop_mut();
        for event in [InputEvent::Press(key), InputEvent::Release(key)] {
            if let Err(refused) = game_loop.push_input_now(event) {
                self.failed
                    .get_or_insert(format!("a scripted key was refused: {refused}"));
            }
        }
    }

    /// Draws and presents a frame; the first reason a frame could not be
    /// is kept for the end of the run.
    fn draw(&mut self, window: &Window) {
        let game_loop = self.driver.game_loop();
        if let Err(why) = present::present(self.surface.as_mut(), window, &self.game, game_loop) {
            self.failed
                .get_or_insert(format!("a frame was not drawn: {why}"));
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds = args::seconds()?;
    // 20 Hz steps, every step's input recorded with a hash each second.
    let builder = Bounce::loop_builder(|game: &Bounce| game);
    let mut driver = WindowDriver::new(builder, WindowOptions::new())?;
    driver.game_loop_mut().on_update(Bounce::update);
    let script = if seconds.is_some() {
        vec![
            (Nanos::from_millis(500), WorldInput::AddBall),
            (Nanos::from_secs(1), WorldInput::Reverse),
        ]
    } else {
        Vec::new()
    };
    let mut demo = OwnHandlerDemo {
        game: Bounce::new(),
        driver,
        window: None,
        surface: None,
        quit_after: seconds.map(Nanos::from_secs),
        script,
        failed: None,
    };
    EventLoop::new()?.run_app(&mut demo)?;
    if let Some(why) = demo.failed {
        return Err(why.into());
    }
    if let Some(refused) = demo.driver.game_loop().input_record_error() {
        return Err(format!("the session's recording is incomplete: {refused}").into());
    }
    let refused = demo.driver.stats().input_refused;
    if refused > 0 {
        return Err(format!("the loop refused {refused} window input events").into());
    }

    // The session, replayed: the same input at the same ticks through the
    // same step must give the same world at every checkpoint.
    let mut log = demo
        .driver
        .game_loop_mut()
        .take_input_log()
        .ok_or("the loop recorded no session")?;
    let report = Bounce::replay(&mut log)?;
    if !report.is_green() {
        return Err(format!("the replay is not green: {report:?}").into());
    }
    let inputs = log.events().len();
    let (ticks, checkpoints) = (report.ticks, report.checkpoints);
    println!("{ticks} ticks, {inputs} input events, {checkpoints} checkpoints replayed: identical");
    Ok(())
}

//! A game with its own `ApplicationHandler` forwards three calls to the
//! driver: `resumed` attaches the window, `window_event` hands redraws to
//! `redraw` and other events to `window_event`, and `about_to_wait` goes to
//! `about_to_wait`. Input takes the deterministic path: a key queues a world
//! input, the next step applies it and records it in an `InputLog` with its
//! tick, and at exit the log is replayed against a fresh world.
//!
//! ```text
//! cargo run -p evenstep-winit --example own_handler -- --seconds 3
//! ```
//!
//! With `--seconds N` it adds a ball and reverses them on timers, quits
//! after N seconds, and fails unless the replay matches; it also fails when
//! the window or its surface cannot be made or a frame is not drawn. Keys:
//! N, X and R add, remove and reverse balls; Esc quits.

#[path = "support/args.rs"]
mod args;
#[path = "support/keys.rs"]
mod keys;
#[path = "support/present.rs"]
mod present;

use std::sync::Arc;
use std::time::Duration;

use evenstep::{Loop, Nanos, StepContext, replay};
use evenstep_demo::{Action, Bounce, World, WorldInput};
use evenstep_winit::{WindowDriver, WindowOptions};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

struct OwnHandlerDemo {
    game: Bounce,
    driver: WindowDriver<Bounce>,
    window: Option<Arc<Window>>,
    surface: Option<present::Surface>,
    /// Real time after which the demo closes itself (`--seconds`).
    quit_after: Option<Nanos>,
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
        if let WindowEvent::KeyboardInput { event: key, .. } = &event
            && key.state == ElementState::Pressed
        {
            let action = keys::key_of(&key.logical_key).and_then(Action::for_key);
            // A held key repeats only what makes sense again.
            match action.filter(|action| !key.repeat || action.repeats()) {
                // Queued, not applied: the world changes only in a step.
                Some(Action::World(input)) => self.game.queue(input),
                Some(Action::Quit) => self.driver.request_close(),
                _ => {}
            }
        }
        self.driver.window_event(&window, &event); // Occluded, CloseRequested, ...
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let real = self.driver.game_loop().real_time();
        if self.quit_after.is_some_and(|after| real >= after) {
            self.driver.request_close();
        }
        if let Some(window) = self.window.clone() {
            // Asks for a redraw, ticks while hidden, sets WaitUntil, or exits.
            self.driver
                .about_to_wait(&mut self.game, event_loop, &window);
        }
    }
}

impl OwnHandlerDemo {
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
    let builder = Loop::<Bounce>::builder().timestep(Bounce::timestep());
    let mut driver = WindowDriver::new(builder, WindowOptions::new())?;
    driver.game_loop_mut().on_update(Bounce::update);
    if seconds.is_some() {
        let real = driver.game_loop_mut().real();
        real.after(Duration::from_millis(500), |game: &mut Bounce, _| {
            game.queue(WorldInput::AddBall);
        })?;
        real.after(Duration::from_secs(1), |game: &mut Bounce, _| {
            game.queue(WorldInput::Reverse);
        })?;
    }
    let mut demo = OwnHandlerDemo {
        game: Bounce::new(),
        driver,
        window: None,
        surface: None,
        quit_after: seconds.map(Nanos::from_secs),
        failed: None,
    };
    EventLoop::new()?.run_app(&mut demo)?;
    if let Some(why) = demo.failed {
        return Err(why.into());
    }
    if let Some(refused) = demo.game.recording_error() {
        return Err(format!("the session's recording is incomplete: {refused}").into());
    }

    // The session, replayed: the same inputs at the same ticks through the
    // same step must give the same world at every checkpoint.
    let mut log = demo.game.log().clone();
    let step = |world: &mut World, step: &StepContext<'_>| world.step(step.dt_secs_f32());
    let report = replay(
        &mut log,
        Bounce::timestep(),
        &mut World::new(),
        step,
        World::state_hash,
    )?;
    if !report.is_green() {
        return Err(format!("the replay is not green: {report:?}").into());
    }
    let inputs = demo.game.log().events().len();
    let (ticks, checkpoints) = (report.ticks, report.checkpoints);
    println!("{ticks} ticks, {inputs} inputs, {checkpoints} checkpoints replayed: identical");
    Ok(())
}

//! A game with its own `ApplicationHandler` uses the driver by forwarding
//! three calls: `resumed` attaches the window, `window_event` hands redraws
//! to `redraw` and every other event to `window_event`, and `about_to_wait`
//! goes to `about_to_wait`. Input takes the deterministic path: a key press
//! queues a world input, the next fixed step applies it and records it in an
//! `InputLog` with its tick, and at exit the log is replayed against a fresh
//! world, checkpoint by checkpoint.
//!
//! ```text
//! cargo run -p evenstep-winit --example own_handler
//! cargo run -p evenstep-winit --example own_handler -- --seconds 3
//! ```
//!
//! With `--seconds N` it quits by itself after N seconds, adding a ball and
//! reversing them on timers as if the keys were pressed, and exits with an
//! error unless the replay matches. It also exits with an error when the
//! window or its surface cannot be made, or a frame could not be drawn.
//! Keys: N, X and R add, remove and reverse balls; Esc quits.

#[path = "support/present.rs"]
mod present;

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use evenstep::{Loop, Nanos, PumpReport, StepContext, replay};
use evenstep_demo::{Action, Bounce, Key, World, WorldInput};
use evenstep_winit::{WindowDriver, WindowOptions};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{self, NamedKey};
use winit::window::{Window, WindowId};

struct OwnHandlerDemo {
    game: Bounce,
    driver: WindowDriver<Bounce>,
    window: Option<Arc<Window>>,
    surface: Option<present::Surface>,
    /// Real time after which the demo closes itself (`--seconds`).
    quit_after: Option<Nanos>,
    /// Why the window or its surface could not be made; `main` returns it.
    failed: Option<String>,
    /// Frames that could not be drawn, and the first reason.
    frames_failed: u64,
    first_failure: Option<String>,
}

impl ApplicationHandler for OwnHandlerDemo {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        let attributes = Window::default_attributes().with_title("evenstep: a game's own handler");
        let window = match event_loop.create_window(attributes) {
            Ok(window) => Arc::new(window),
            Err(e) => {
                self.failed = Some(format!("the window could not be created: {e}"));
                event_loop.exit();
                return;
            }
        };
        let surface = softbuffer::Context::new(window.clone())
            .and_then(|context| present::Surface::new(&context, window.clone()));
        match surface {
            Ok(surface) => self.surface = Some(surface),
            Err(e) => {
                self.failed = Some(format!("no software surface for the window: {e}"));
                event_loop.exit();
                return;
            }
        }
        self.driver.attach(&window);
        self.window = Some(window);
    }

    fn window_event(&mut self, _: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(window) = self.window.clone() else {
            return;
        };
        match &event {
            WindowEvent::RedrawRequested => {
                if let Some(report) = self.driver.redraw(&mut self.game)
                    && report.rendered
                {
                    self.draw(&window, &report);
                }
                return;
            }
            WindowEvent::KeyboardInput { event: key, .. } if key.state == ElementState::Pressed => {
                let repeat = key.repeat;
                let key = match &key.logical_key {
                    keyboard::Key::Named(NamedKey::Escape) => Some(Key::Escape),
                    keyboard::Key::Character(text) => text.chars().next().map(Key::Char),
                    _ => None,
                };
                // A held key repeats only what makes sense again.
                let action = key
                    .and_then(Action::for_key)
                    .filter(|action| !repeat || action.repeats());
                match action {
                    // Queued, not applied: the world changes only in a step.
                    Some(Action::World(input)) => self.game.queue(input),
                    Some(Action::Quit) => self.driver.request_close(),
                    _ => {}
                }
            }
            _ => {}
        }
        self.driver.window_event(&window, &event);
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self
            .quit_after
            .is_some_and(|after| self.driver.game_loop().real_time() >= after)
        {
            self.driver.request_close();
        }
        if let Some(window) = self.window.clone() {
            self.driver
                .about_to_wait(&mut self.game, event_loop, &window);
        }
    }
}

impl OwnHandlerDemo {
    /// Draws and presents a frame; a frame that cannot be is counted, and
    /// the first reason kept for the end of the run.
    fn draw(&mut self, window: &Window, report: &PumpReport) {
        self.game.chart.record(report, self.driver.game_loop());
        let size = window.inner_size();
        let (Some(width), Some(height)) =
            (NonZeroU32::new(size.width), NonZeroU32::new(size.height))
        else {
            return; // minimized to nothing: there is nothing to draw on
        };
        if let Err(why) = self.present(window, width, height) {
            self.frames_failed += 1;
            self.first_failure.get_or_insert(why);
        }
    }

    fn present(
        &mut self,
        window: &Window,
        width: NonZeroU32,
        height: NonZeroU32,
    ) -> Result<(), String> {
        let game_loop = self.driver.game_loop();
        present::present(
            self.surface.as_mut(),
            window,
            &self.game,
            game_loop,
            (width, height),
        )
    }
}

/// `--seconds N`, the one argument there is.
fn seconds_from_args() -> Result<Option<u64>, String> {
    let mut args = std::env::args().skip(1);
    let mut seconds = None;
    while let Some(arg) = args.next() {
        if arg != "--seconds" {
            return Err(format!(
                "unknown argument {arg:?}; the one argument is --seconds N"
            ));
        }
        let value = args
            .next()
            .ok_or("--seconds needs a number of whole seconds")?;
        let parsed = value
            .parse::<u64>()
            .map_err(|e| format!("--seconds {value}: {e}; give whole seconds"))?;
        seconds = Some(parsed);
    }
    Ok(seconds)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds = seconds_from_args()?;

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
        frames_failed: 0,
        first_failure: None,
    };
    EventLoop::new()?.run_app(&mut demo)?;
    if let Some(why) = demo.failed {
        return Err(why.into());
    }
    if let Some(why) = &demo.first_failure {
        return Err(format!(
            "{} frames were not drawn; the first: {why}",
            demo.frames_failed
        )
        .into());
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
    println!(
        "{} ticks, {} inputs, {} checkpoints replayed: {}",
        report.ticks,
        demo.game.log().events().len(),
        report.checkpoints,
        if report.is_green() {
            "identical"
        } else {
            "DIVERGED"
        }
    );
    if let Some(divergence) = report.divergence {
        return Err(format!("the replay diverged: {divergence:?}").into());
    }
    Ok(())
}

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
//! error unless the replay matches. Keys: N, X and R add, remove and reverse
//! balls; Esc quits.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use evenstep::{Loop, Nanos, StepContext, replay};
use evenstep_demo::{Action, Bounce, Canvas, Hud, Key, World, WorldInput};
use evenstep_winit::{WindowDriver, WindowOptions};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{self, NamedKey};
use winit::window::{Window, WindowId};

type Surface = softbuffer::Surface<Arc<Window>, Arc<Window>>;

struct OwnHandlerDemo {
    game: Bounce,
    driver: WindowDriver<Bounce>,
    window: Option<Arc<Window>>,
    surface: Option<Surface>,
    /// Real time after which the demo closes itself (`--seconds`).
    quit_after: Option<Nanos>,
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
                eprintln!("no window: {e}");
                event_loop.exit();
                return;
            }
        };
        self.surface = softbuffer::Context::new(window.clone())
            .and_then(|context| Surface::new(&context, window.clone()))
            .ok();
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
                    self.draw(&window);
                }
                return;
            }
            WindowEvent::KeyboardInput { event: key, .. } if key.state == ElementState::Pressed => {
                let key = match &key.logical_key {
                    keyboard::Key::Named(NamedKey::Escape) => Some(Key::Escape),
                    keyboard::Key::Character(text) => text.chars().next().map(Key::Char),
                    _ => None,
                };
                match key.and_then(Action::for_key) {
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
    fn draw(&mut self, window: &Window) {
        let game_loop = self.driver.game_loop();
        let size = window.inner_size();
        let (Some(surface), Some(width), Some(height)) = (
            self.surface.as_mut(),
            NonZeroU32::new(size.width),
            NonZeroU32::new(size.height),
        ) else {
            return;
        };
        if surface.resize(width, height).is_err() {
            return;
        }
        let Ok(mut buffer) = surface.buffer_mut() else {
            return;
        };
        if let Ok(mut canvas) = Canvas::new(&mut buffer, width.get(), height.get()) {
            self.game
                .draw(&mut canvas, game_loop.alpha(), &Hud::read(game_loop));
        }
        window.pre_present_notify();
        let _ = buffer.present();
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds = std::env::args()
        .skip_while(|a| a != "--seconds")
        .nth(1)
        .map(|s| {
            s.parse::<u64>()
                .map_err(|e| format!("--seconds {s}: {e}; give whole seconds"))
        })
        .transpose()?;

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
    };
    EventLoop::new()?.run_app(&mut demo)?;

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

//! The ready runner: for a game without an `ApplicationHandler` of its own,
//! [`run`] opens one window, forwards its window and device events to a
//! [`WindowDriver`] and its window events to the game's [`WindowGame`] hooks, and returns the game when the window
//! closes or the loop stops.

use std::fmt;
use std::sync::Arc;

use evenstep::{Loop, PumpReport};
use winit::application::ApplicationHandler;
use winit::error::{EventLoopError, OsError};
use winit::event::{DeviceEvent, DeviceId, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowAttributes, WindowId};

use crate::window_driver::WindowDriver;

/// A game run by [`run`]. The loop's update and render subscribers do the
/// game's work; these hooks connect it to the window.
pub trait WindowGame: Sized + 'static {
    /// The window to open. By default, winit's defaults.
    fn window_attributes(&self) -> WindowAttributes {
        Window::default_attributes()
    }

    /// The window exists and the loop is about to start: make a surface,
    /// register subscribers and timers.
    fn attached(&mut self, window: &Arc<Window>, driver: &mut WindowDriver<Self>);

    /// Every window event, after the driver has seen it (and pushed its
    /// input into the loop's queue, where the steps read it): the place for
    /// what acts outside the steps, a pause key or a menu. (Redraws arrive
    /// as [`draw`](WindowGame::draw).)
    fn window_event(
        &mut self,
        window: &Arc<Window>,
        driver: &mut WindowDriver<Self>,
        event: &WindowEvent,
    ) {
        let _ = (window, driver, event);
    }

    /// A paint pump ran and rendered: draw the frame at the loop's alpha and
    /// present it.
    fn draw(&mut self, window: &Arc<Window>, game_loop: &Loop<Self>, report: &PumpReport);

    /// Once per event loop iteration, before the driver decides when to
    /// wake: a place for the title, or for showing a window hidden earlier.
    fn about_to_wait(&mut self, window: &Arc<Window>, driver: &mut WindowDriver<Self>) {
        let _ = (window, driver);
    }
}

/// Why [`run`] could not run the window.
#[derive(Debug)]
pub enum RunError {
    /// The event loop could not be created or run (no display, or a second
    /// event loop in one process).
    EventLoop(EventLoopError),
    /// The window could not be created.
    Window(OsError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::EventLoop(e) => write!(
                f,
                "the event loop failed: {e} (is a display available? DISPLAY or WAYLAND_DISPLAY must name one)"
            ),
            RunError::Window(e) => write!(f, "the window could not be created: {e}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::EventLoop(e) => Some(e),
            RunError::Window(e) => Some(e),
        }
    }
}

impl From<EventLoopError> for RunError {
    fn from(e: EventLoopError) -> RunError {
        RunError::EventLoop(e)
    }
}

/// Runs `game` in one window driven by `driver` until the window closes or
/// the loop stops, and gives both back.
///
/// winit allows one event loop per process, created on the main thread, so
/// call this once, from `main`.
///
/// # Errors
///
/// [`RunError`] if the event loop or the window cannot be created (for
/// example with no display).
pub fn run<G: WindowGame>(
    game: G,
    driver: WindowDriver<G>,
) -> Result<(G, WindowDriver<G>), RunError> {
    let event_loop = EventLoop::new()?;
    let mut runner = Runner {
        game,
        driver,
        window: None,
        error: None,
    };
    event_loop.run_app(&mut runner)?;
    match runner.error {
        Some(e) => Err(RunError::Window(e)),
        None => Ok((runner.game, runner.driver)),
    }
}

/// The runner's `ApplicationHandler`: the forwarding a game with its own
/// handler writes.
struct Runner<G: WindowGame> {
    game: G,
    driver: WindowDriver<G>,
    window: Option<Arc<Window>>,
    error: Option<OsError>,
}

impl<G: WindowGame> ApplicationHandler for Runner<G> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(window) = &self.window {
            self.driver.attach(window.as_ref());
            return;
        }
        match event_loop.create_window(self.game.window_attributes()) {
            Ok(window) => {
                let window = Arc::new(window);
                self.game.attached(&window, &mut self.driver);
                self.driver.attach(window.as_ref());
                self.window = Some(window);
            }
            Err(e) => {
                self.error = Some(e);
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
                self.game.draw(&window, self.driver.game_loop(), &report);
            }
            return;
        }
        self.driver.window_event(window.as_ref(), &event);
        self.game.window_event(&window, &mut self.driver, &event);
    }

    fn device_event(&mut self, _: &ActiveEventLoop, _: DeviceId, event: DeviceEvent) {
        self.driver.device_event(&event);
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(window) = self.window.clone() else {
            return;
        };
        self.game.about_to_wait(&window, &mut self.driver);
        self.driver
            .about_to_wait(&mut self.game, event_loop, window.as_ref());
    }
}

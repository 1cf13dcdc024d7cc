//! Drives an [`evenstep`] loop from a [winit] window (winit 0.30).
//!
//! The window is the frame source: a paint pump runs on every
//! `RedrawRequested`, with the clock read there; while the window is not
//! painting, tick pumps keep the rules, the real timeline and its timers
//! running, woken by `ControlFlow::WaitUntil` the next step or timer due.
//! The loop never knows which kind of host drives it.
//!
//! # Promises
//!
//! - **No busy loop.** Between events the event loop sleeps until the next
//!   thing due: the next frame (paced at the refresh rate unless the surface
//!   waits for vsync, see [`Presentation`]), the next step or real timer
//!   while nothing paints, or an event. A hidden window costs a wake-up per
//!   step.
//! - **Visibility from every signal there is, and dependence on none.**
//!   Hiding through [`WindowDriver::set_visible`], `Occluded` where the
//!   platform sends it, `Window::is_minimized` where it answers (asked on
//!   `Resized` and `Focused` events and four times a second), and redraws
//!   that stop arriving for a few refresh periods each stop painting
//!   ([`Visibility`]). `Occluded` is not sent on Wayland or Windows nor for
//!   a minimized X11 window, X11 may keep sending redraws to an unmapped or
//!   minimized window, and Wayland cannot say whether a window is
//!   minimized, so ticking depends on none of them alone.
//! - **Hiding works everywhere but Wayland.** winit cannot hide a window
//!   on Wayland, so [`WindowDriver::set_visible`]`(false)` leaves it on
//!   screen with its last frame; the driver still stops painting it and
//!   runs tick pumps until it is shown again.
//! - **An absence is not a slow frame.** Time goes on while hidden (tick
//!   pumps), so the first paint afterwards runs no burst of steps, and the
//!   loop's statistics count the gap as an absence.
//! - **Time through one clock.** The driver reads the [`Clock`](evenstep::Clock)
//!   its loop reads; with a [`ManualClock`](evenstep::ManualClock) and a
//!   stand-in [`WindowHandle`], the whole policy runs in a test. The
//!   decisions themselves (paint, tick, ask for a redraw, wake) are
//!   [`FramePolicy`](evenstep::frame_policy::FramePolicy)'s, the rules every evenstep
//!   frame source shares; the driver feeds it what the window says.
//! - **Clean endings.** A close request, or [`Loop::stop`](evenstep::Loop::stop)
//!   from anywhere, ends the event loop at the next `about_to_wait`.
//!
//! # Two ways in
//!
//! A game without an `ApplicationHandler` implements [`WindowGame`] and
//! calls [`run`]. A game with its own handler forwards four calls:
//!
//! ```no_run
//! use std::sync::Arc;
//! use evenstep::Loop;
//! use evenstep::input::Key;
//! use evenstep_winit::{WindowDriver, WindowOptions};
//! use winit::application::ApplicationHandler;
//! use winit::event::{DeviceEvent, DeviceId, WindowEvent};
//! use winit::event_loop::{ActiveEventLoop, EventLoop};
//! use winit::window::{Window, WindowId};
//!
//! struct Game { steps: u64, jumps: u64 }
//!
//! struct GameDemo {
//!     game: Game,
//!     driver: WindowDriver<Game>,
//!     window: Option<Arc<Window>>,
//! }
//!
//! impl ApplicationHandler for GameDemo {
//!     fn resumed(&mut self, event_loop: &ActiveEventLoop) {
//!         let window = Arc::new(event_loop.create_window(Window::default_attributes()).unwrap());
//!         self.driver.attach(&window); // reads the refresh rate, starts the loop
//!         self.window = Some(window);
//!     }
//!
//!     fn window_event(&mut self, _: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
//!         let Some(window) = self.window.clone() else { return };
//!         if event == WindowEvent::RedrawRequested {
//!             if let Some(report) = self.driver.redraw(&mut self.game) {
//!                 if report.rendered { /* draw at self.driver.game_loop().alpha() */ }
//!             }
//!         } else {
//!             // Occluded, CloseRequested, and input into the loop's queue.
//!             self.driver.window_event(&window, &event);
//!         }
//!     }
//!
//!     fn device_event(&mut self, _: &ActiveEventLoop, _: DeviceId, event: DeviceEvent) {
//!         self.driver.device_event(&event); // raw mouse motion
//!     }
//!
//!     fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
//!         if let Some(window) = self.window.clone() {
//!             // Asks for a redraw, ticks while hidden, sets WaitUntil, or exits.
//!             self.driver.about_to_wait(&mut self.game, event_loop, &window);
//!         }
//!     }
//! }
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let mut driver = WindowDriver::new(Loop::builder(), WindowOptions::new())?;
//!     driver.game_loop_mut().on_update(|game: &mut Game, step| {
//!         game.steps += 1;
//!         if step.input().pressed(Key::SPACE) {
//!             game.jumps += 1; // once per press, whatever the frame rate
//!         }
//!     });
//!     let game = Game { steps: 0, jumps: 0 };
//!     let mut demo = GameDemo { game, driver, window: None };
//!     EventLoop::new()?.run_app(&mut demo)?;
//!     Ok(())
//! }
//! ```
//!
//! # Input
//!
//! [`WindowDriver::window_event`] pushes the window's keyboard and mouse
//! input into the loop's input queue, and [`WindowDriver::device_event`]
//! its raw mouse motion. Each fixed step reads the input of the wall-clock
//! span it stands for (`step.input()`, a [`StepInput`](evenstep::input::StepInput)):
//! a press is seen by exactly one step however many steps a frame runs, and
//! [`LoopBuilder::record_input`](evenstep::LoopBuilder::record_input)
//! records every step's input for a replay.
//!
//! **Stamped on arrival.** winit 0.30 events carry no time, so the driver
//! stamps each with the clock's reading when it sees it
//! ([`Loop::push_input_now`](evenstep::Loop::push_input_now)): later than
//! the key went down by the event loop's latency, in the order they came.
//!
//! | winit event | loop input |
//! | --- | --- |
//! | `KeyboardInput` | `Press`, `Repeat` (the platform's auto-repeat) or `Release` of the physical key, by its W3C `KeyboardEvent.code` name (`"KeyW"`); then a press's text as `Text` |
//! | `Ime(Commit)` | `Text` |
//! | `MouseInput` | `Press` or `Release` of a [`MouseButton`](evenstep::input::MouseButton), numbered as the DOM numbers them: 0 left, 1 middle, 2 right, 3 back, 4 forward, `Other(n)` as `n` up to 255 |
//! | `CursorMoved` | `Pointer`, in physical pixels from the window's top left (divide by `Window::scale_factor` for logical ones) |
//! | `MouseWheel` | `Wheel`, rightwards and towards the user positive as in the DOM (winit's signs are the other way); a notched wheel's `LineDelta` in lines, a touchpad's `PixelDelta` in physical pixels |
//! | `Focused(false)` | `FocusLost`: the step sees each held button released |
//! | `DeviceEvent::MouseMotion` | `Motion`, raw, in the device's units |
//!
//! Wheel units are passed on unscaled: how many pixels a line is depends on
//! what the game scrolls, and no factor fits both kinds of device.
//! winit names keys as the W3C does but for `SuperLeft` and `SuperRight`,
//! which are `"MetaLeft"` and `"MetaRight"` here, so a window and a browser
//! report the same [`Key`](evenstep::input::Key) and a recorded log means
//! the same keys in both.
//!
//! Left out: a key winit cannot identify (`PhysicalKey::Unidentified`,
//! whose native code means nothing on another machine; its text is kept),
//! the presses winit makes up for keys already down when the window gains
//! the focus (`is_synthetic`: the key went down elsewhere, as the Enter
//! that launched the game from a terminal), control characters in text
//! (Enter, Tab, Backspace and Escape are read as keys), and mouse buttons
//! past 255. An event the loop refuses ([`InputError`](evenstep::input::InputError):
//! a value that is not finite, or a queue full because nothing pumps) is
//! dropped and counted in [`DriverStats::input_refused`]; nothing panics.
//!
//! What acts on the loop rather than the rules (pause, speed, a menu) can
//! still read winit's own event in the handler; the rules read the step's
//! input, so a replay sees what the live game saw.
//!
//! # The refresh rate
//!
//! [`WindowDriver::attach`] reads `MonitorHandle::refresh_rate_millihertz`
//! for the window's monitor. When there is none (Xvfb, some compositors) it
//! falls back to 60 Hz ([`Refresh::FALLBACK_MILLIHERTZ`]); a game that knows
//! better passes [`WindowOptions::refresh`]. The rate paces paints of a
//! surface without vsync and sets how long a missing redraw is waited for.
//! A rate the monitor reported also seeds the loop's display model
//! ([`Loop::set_refresh_hint`](evenstep::Loop::set_refresh_hint)): the render
//! cap and the governor go by it until the model has measured the display
//! from the frames' own timing; the fallback seeds nothing.
//!
//! The rate is read at `attach` only. winit sends no event when a window
//! moves to another monitor or a monitor changes mode, so a window dragged
//! from a 60 Hz monitor to a 144 Hz one goes on being paced at 60 Hz until
//! the game attaches it again or sets the rate itself.
//!
//! # Features
//!
//! - `x11` (default): windows on an X11 server, Xvfb included.
//! - `wayland` (default): windows on a Wayland compositor, with
//!   client-side decorations that draw no title text.
//!
//! On Linux and the BSDs at least one of `x11` and `wayland` must be
//! enabled: winit has no other way to open a window there and refuses to
//! build with neither (`default-features = false` alone does not build).
#![forbid(unsafe_code)]

mod display;
mod input;
mod runner;
mod visibility;
mod window_driver;
mod window_handle;

pub use display::{Presentation, Refresh, RefreshSource};
pub use runner::{RunError, WindowGame, run};
pub use visibility::Visibility;
pub use window_driver::{DriverStats, Wake, WindowDriver, WindowOptions};
pub use window_handle::WindowHandle;

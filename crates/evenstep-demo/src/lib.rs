//! The bouncing-ball world of evenstep's demos, in one place for every host.
//!
//! A window (`evenstep-winit`) and a browser page draw the same demo: balls
//! moving on a slow fixed step (20 Hz, so interpolation visibly matters),
//! keys that pause, single-step, change speed and pacing, and a strip chart
//! of frame gaps and steps per frame. Everything but the host is here: the
//! world and its deterministic inputs, the settings the keys move, and
//! drawing into a pixel buffer. No windowing, no clock, no platform code, so
//! it builds for any target, `wasm32-unknown-unknown` included.
//!
//! # Using it from a host
//!
//! ```
//! use std::time::Duration;
//! use evenstep::{Loop, ManualClock, PumpKind};
//! use evenstep_demo::{Action, Bounce, Canvas, Hud, Key};
//!
//! let clock = ManualClock::new();
//! let mut game_loop = Loop::<Bounce>::builder()
//!     .clock(clock.clone())
//!     .timestep(Bounce::timestep())
//!     .build()?;
//! game_loop.on_update(Bounce::update);
//! let mut bounce = Bounce::new();
//!
//! // A key press: world inputs wait for the next step.
//! if let Some(action) = Action::for_key(Key::Char('n')) {
//!     bounce.act(action, &mut game_loop);
//! }
//! game_loop.start();
//! clock.advance(Duration::from_millis(50)); // one 20 Hz step
//! let report = game_loop.pump(&mut bounce, PumpKind::Paint).report().unwrap();
//! assert_eq!(bounce.world.balls().len(), 5);
//!
//! // Draw the frame into a pixel buffer.
//! bounce.chart.record(&report, &game_loop);
//! let mut pixels = vec![0; 320 * 200];
//! let mut canvas = Canvas::new(&mut pixels, 320, 200)?;
//! bounce.draw(&mut canvas, game_loop.alpha(), &Hud::read(&game_loop));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

mod bounce;
mod canvas;
mod chart;
mod controls;
mod font;
mod scene;
mod world;

pub use bounce::{Bounce, Hud, Outcome, STEP_HZ};
pub use canvas::{Canvas, SizeMismatch};
pub use chart::{FrameChart, FrameSample};
pub use controls::{Action, KEY_HELP, Key, PACING_MODES, SNAP_TOLERANCE, SPEEDS, Settings};
pub use scene::{ABSENCE_BAR, ARENA, BACKGROUND, TEXT};
pub use world::{BALL_COLOURS, Ball, MAX_BALLS, WORLD_HEIGHT, WORLD_WIDTH, World, WorldInput};

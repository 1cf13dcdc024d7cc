//! The bouncing-ball world of evenstep's demos, in one place for every host.
//!
//! A window (`evenstep-winit`) and a browser page draw the same demo: balls
//! moving on a slow fixed step (20 Hz, so interpolation visibly matters),
//! keys that pause, single-step, change speed and pacing, and a strip chart
//! of frame gaps and steps per frame. Everything but the host is here: the
//! world and the keys it reads from each step's input, the settings the
//! other keys move, the loop it runs on with its recording and replay, and
//! drawing into a pixel buffer. No windowing, no clock, no platform code, so
//! it builds for any target, `wasm32-unknown-unknown` included.
//!
//! # Using it from a host
//!
//! The world's keys (`N`, `X`, `R`) reach it as every step's input: the
//! host forwards its key events into the loop's input queue, and the step
//! reads them ([`World::update`]). The keys that act on the loop (pause,
//! speed, pacing) go through [`Bounce::act`].
//!
//! ```
//! use std::time::Duration;
//! use evenstep::input::InputEvent;
//! use evenstep::{ManualClock, PumpKind};
//! use evenstep_demo::{Action, Bounce, Canvas, Hud, Key, WorldInput};
//!
//! let clock = ManualClock::new();
//! let mut game_loop = Bounce::loop_builder(|bounce: &Bounce| bounce)
//!     .clock(clock.clone())
//!     .build()?;
//! game_loop.on_update(Bounce::update);
//! let mut bounce = Bounce::new();
//! game_loop.start();
//!
//! // N pressed and let go: the step whose span holds it adds a ball.
//! let n = WorldInput::AddBall.key();
//! game_loop.push_input_now(InputEvent::Press(n.into()))?;
//! game_loop.push_input_now(InputEvent::Release(n.into()))?;
//! clock.advance(Duration::from_millis(50)); // one 20 Hz step
//! let report = game_loop.pump(&mut bounce, PumpKind::Paint).report().unwrap();
//! assert_eq!(bounce.world.balls().len(), 5);
//!
//! // I, a key for the host: drawing between steps goes off.
//! if let Some(action) = Action::for_key(Key::Char('i')) {
//!     bounce.act(action, &mut game_loop);
//! }
//! assert!(!bounce.settings.interpolate);
//!
//! // Draw the frame into a pixel buffer.
//! bounce.chart.record(&report, &game_loop);
//! let mut pixels = vec![0; 320 * 200];
//! let mut canvas = Canvas::new(&mut pixels, 320, 200)?;
//! bounce.draw(&mut canvas, game_loop.alpha(), &Hud::read(&game_loop));
//!
//! // The loop recorded the session: each step's input, the world's hash.
//! assert_eq!(game_loop.input_log().map(|log| log.events().len()), Some(2));
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

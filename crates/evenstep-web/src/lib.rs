//! Drives an [`evenstep`] loop in a browser page (`wasm32-unknown-unknown`).
//!
//! The page is the frame source: a paint pump runs on every animation frame
//! (`requestAnimationFrame`), at the time the browser hands the frame's
//! callbacks; while the page is hidden, a timer (`setTimeout`, armed for the
//! loop's next step or real timer) runs tick pumps, so the rules and the
//! real timeline keep going though nothing is painted. The loop never knows
//! which kind of host drives it.
//!
//! # Promises
//!
//! - **Time is the page's, in integer nanoseconds.** The loop's clock is
//!   `performance.now()`; paints are at the animation frame's own time, in
//!   the same time origin ([`timestamp_from_millis`]). A frame's time is
//!   the start of the frame, often a little before a clock reading a timer
//!   took just before it: the loop never sees time go backwards, because
//!   [`Loop::pump_at`](evenstep::Loop::pump_at) takes a stamp earlier than
//!   the previous pump's as that pump's time, a zero delta.
//! - **Elapsed time, never the number of wake-ups.** Hidden pages have their
//!   timers throttled, to about one wake-up a second at first and about one
//!   a minute later on. Each tick runs what the clock says is due, up to the
//!   loop's step budget; the rest is dropped and reported, as after any
//!   stall. The real timeline advances by the whole elapsed time.
//! - **The lifecycle, all of it.** `visibilitychange`, `freeze` / `resume`
//!   and `pagehide` / `pageshow` (the back-forward cache) each tick at the
//!   change. When the page is painted again after being away, the game is
//!   told how long, and how much the budget dropped ([`Away`]); it may run
//!   that time with [`Loop::catch_up`](evenstep::Loop::catch_up) under a cap
//!   of its own (see [`Away`] for the idle-game pattern). The first paint
//!   after an absence counts the gap in the loop's statistics as an
//!   absence, not as a slow frame.
//! - **Input lands on the right step.** Unless a page turns it off
//!   ([`PageOptions::forward_input`]), the page's `keydown`, `keyup`,
//!   `compositionend`, `mousedown`, `mouseup`, `mousemove`, `wheel` and
//!   `blur` go into the loop's input queue ([`PageDriver::input`]), each
//!   stamped with the event's own `timeStamp`, which shares
//!   `performance.now()`'s time origin and is converted as frame times
//!   are. So each fixed step reads the events of the span it stands for
//!   ([`StepInput`](evenstep::input::StepInput)), a press is seen by
//!   exactly one step, and an event handled after a frame began waits for
//!   a later pump's steps. Keys are their `code` ([`Key`](evenstep::input::Key)),
//!   buttons their `button`, the wheel CSS pixels ([`PageInput`] says
//!   what becomes what). An event that cannot be forwarded is counted in
//!   [`PageStats::input`] with its reason ([`InputRefusal`]), never lost
//!   unseen.
//! - **No leaked callbacks.** Starting a `PageLoop` registers one
//!   animation-frame callback, one timer, five lifecycle listeners and
//!   eight input listeners (none with input forwarding off); stopping or
//!   dropping it cancels and removes every one of them and frees their
//!   closures. Nothing is ever `forget`-ten.
//! - **No panics on bad page state.** Starting twice is
//!   [`WebError::AlreadyStarted`]; reaching the frame source from inside its
//!   own callbacks is [`WebError::Busy`]; a reload simply ends the page, and
//!   the new page starts afresh at its own time origin.
//!
//! # The policy without a browser
//!
//! [`PageDriver`] makes every decision and touches no browser API: the
//! browser glue forwards callbacks to it. It follows the page's lifecycle
//! and carries out what [`FramePolicy`](evenstep::frame_policy::FramePolicy), the rules
//! every evenstep frame source shares, answers. It builds on every target,
//! so its tests run on a manual clock in the workspace's `cargo test`:
//!
//! ```
//! use std::time::Duration;
//! use evenstep::{Loop, ManualClock, Timestamp};
//! use evenstep_web::{PageDriver, PageEvent, PageOptions};
//!
//! let clock = ManualClock::new();
//! let mut driver =
//!     PageDriver::<u64>::with_clock(Loop::builder(), clock.clone(), PageOptions::new())?;
//! driver.game_loop_mut().on_update(|steps, _| *steps += 1);
//! let mut steps = 0;
//! driver.start(false)?;
//!
//! // A visible page paints at each animation frame's time.
//! let report = driver.animation_frame(&mut steps, Timestamp::from_nanos(16_666_667));
//! assert!(report.is_some_and(|r| r.rendered));
//!
//! // Hidden: no paints; the timer ticks whenever the next step is due.
//! let _ = driver.page_event(&mut steps, PageEvent::Hidden);
//! clock.advance(Duration::from_secs(1)); // a throttled timer, a second late
//! let tick = driver.timer(&mut steps).unwrap();
//! assert_eq!(tick.steps, 5); // the step budget; the rest is dropped
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Input
//!
//! A started `PageLoop` forwards the page's input to
//! [`PageDriver::input`], which pushes it into the loop's queue at each
//! event's own `timeStamp`; each fixed step reads what happened in the span
//! it stands for. On a manual clock:
//!
//! ```
//! use evenstep::input::Key;
//! use evenstep::{Loop, ManualClock, Timestamp};
//! use evenstep_web::{KeyDown, PageDriver, PageInput, PageOptions};
//!
//! let clock = ManualClock::new();
//! let mut driver =
//!     PageDriver::<u32>::with_clock(Loop::builder(), clock.clone(), PageOptions::new())?;
//! driver.game_loop_mut().on_update(|jumps, step| {
//!     if step.input().pressed(Key::SPACE) {
//!         *jumps += 1;
//!     }
//! });
//! driver.start(false)?;
//!
//! // A keydown stamped 5 ms, its listener run at 6 ms.
//! clock.set(Timestamp::from_nanos(6_000_000));
//! let space = KeyDown {
//!     code: "Space".into(),
//!     key: " ".into(),
//!     repeat: false,
//!     composing: false,
//!     shortcut: false,
//! };
//! driver.input(Timestamp::from_nanos(5_000_000), PageInput::KeyDown(space))?;
//!
//! // A slow frame runs several 60 Hz steps; one of them reads the press.
//! let mut jumps = 0;
//! let frame = driver.animation_frame(&mut jumps, Timestamp::from_nanos(50_000_000));
//! assert_eq!(frame.map(|report| report.steps), Some(3));
//! assert_eq!(jumps, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # In a page
//!
//! On `wasm32`, `PageLoop` owns the driver and the game state, and
//! registers the browser callbacks (it, `PageClock` and `live_callbacks`
//! exist on that target only):
//!
//! ```ignore
//! use evenstep::Loop;
//! use evenstep_web::{PageLoop, PageOptions};
//!
//! let page_loop = PageLoop::new(Loop::<Game>::builder(), Game::default(), PageOptions::new())?;
//! page_loop.with(|_, game_loop| {
//!     game_loop.on_update(Game::update);
//! })?;
//! page_loop.on_paint(|game, game_loop, _report| game.draw(game_loop.alpha()))?;
//! page_loop.on_return(|game, game_loop, away| {
//!     let _ = game_loop.catch_up(game, away.dropped.as_duration().min(OFFLINE_CAP));
//! })?;
//! page_loop.start()?;
//! // Keep `page_loop`: dropping it stops the game and releases its callbacks.
//! ```
//!
//! The [demo page](https://github.com/evenstep/evenstep/blob/main/crates/evenstep-demo/examples/page.rs)
//! (the repository's `evenstep-demo`) is the bouncing-ball demo in a
//! canvas, sharing its world with the window demo; the crate's README says how to build and
//! open it, and how to run the tests in a real headless Chromium.
#![forbid(unsafe_code)]

mod away;
#[cfg(target_arch = "wasm32")]
mod callbacks;
mod error;
#[cfg(target_arch = "wasm32")]
mod input_listeners;
mod page;
mod page_driver;
mod page_input;
#[cfg(target_arch = "wasm32")]
mod source;
mod time;

pub use away::Away;
#[cfg(target_arch = "wasm32")]
pub use callbacks::live_callbacks;
pub use error::WebError;
pub use page::{PageEvent, PageState};
pub use page_driver::{PageDriver, PageOptions, PageStats};
pub use page_input::{InputRefusal, InputStats, KeyDown, PageInput, WHEEL_LINE_PIXELS};
#[cfg(target_arch = "wasm32")]
pub use source::{PageClock, PageLoop};
pub use time::{timer_millis, timestamp_from_millis};

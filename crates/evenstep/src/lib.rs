//! A fixed-timestep game loop driver.
//!
//! `evenstep` runs a game's rules at a fixed rate off a wall clock while the
//! display paints at whatever rate it manages. It is built on
//! [`evenstep_core`]'s exact planner (re-exported here, so a game depends on
//! one crate) and adds what a game needs around it: clocks, a pump with a
//! fixed order, a real and a sim timeline of coalescing timers, coalesced
//! jobs, an [input queue](input) that hands each step the events of the
//! wall-clock span it stands for, explicit offline catch-up, measured frame statistics with
//! percentiles, a headless runner for servers and tools, and the tools that
//! make determinism provable: tweens on the fixed step with bit-exact
//! easings, interpolation (or extrapolation) for rendering between steps,
//! and replay of recorded input logs against state-hash checkpoints.
//!
//! # Promises
//!
//! - **One `dt`, forever.** Every update gets the same fixed step.
//! - **Time is a parameter.** The loop reads only the [`Clock`] it was given;
//!   [`MonotonicClock`] is the one place in evenstep that reads the OS.
//!   With a [`ManualClock`], a whole minute of game runs in microseconds and
//!   every statistic is exact.
//! - **Nothing runs on its own.** No thread, no global loop, no autostart:
//!   nothing happens until [`Loop::start`] and then only inside
//!   [`Loop::pump`] (which a [`Runner`] calls, when asked to run).
//! - **The loop credits nothing.** Time beyond the step budget is dropped
//!   and reported; absent time is simulated only by an explicit
//!   [`Loop::catch_up`]. Anything that must be true against the wall clock
//!   belongs on the [`real`](Loop::real) timeline or in a timestamp in the
//!   game state, never in a sum of `dt`.
//!
//! # Examples
//!
//! ## A minute of game, instantly
//!
//! ```
//! use std::time::Duration;
//! use evenstep::{Loop, ManualClock, PumpKind};
//!
//! #[derive(Default)]
//! struct Game { saves: u32, steps: u64 }
//!
//! let clock = ManualClock::new();
//! let mut game_loop = Loop::<Game>::builder().clock(clock.clone()).build()?;
//! game_loop.on_update(|game, _step| game.steps += 1);
//! game_loop.real().every(Duration::from_secs(30), |game, _fire| game.saves += 1)?;
//!
//! let mut game = Game::default();
//! game_loop.start(); // anchors at the clock's reading
//! for _ in 0..3_600 {
//!     clock.advance(Duration::from_nanos(16_666_667));
//!     let _ = game_loop.pump(&mut game, PumpKind::Paint);
//! }
//! assert_eq!(game.saves, 2);
//! assert_eq!(game.steps, 3_600);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Pausing from inside an update
//!
//! ```
//! use std::time::Duration;
//! use evenstep::{Loop, ManualClock, PumpKind};
//!
//! let clock = ManualClock::new();
//! let mut game_loop = Loop::<u64>::builder().clock(clock.clone()).build()?;
//! game_loop.on_update(|steps, step| {
//!     *steps += 1;
//!     if step.tick() == 1 {
//!         step.control().pause(); // from the next pump: this one finishes
//!     }
//! });
//! let mut steps = 0;
//! game_loop.start();
//! clock.advance(Duration::from_millis(50)); // three steps' worth
//! let _ = game_loop.pump(&mut steps, PumpKind::Paint);
//! assert_eq!(steps, 3);
//! clock.advance(Duration::from_millis(50));
//! let _ = game_loop.pump(&mut steps, PumpKind::Paint);
//! assert_eq!(steps, 3); // paused
//! # Ok::<(), evenstep::ConfigError>(())
//! ```
//!
//! ## A headless server
//!
//! A [`Runner`] sleeps until the next step or real timer is due, pumps, and
//! repeats until a [`StopHandle`](runner::StopHandle) (a Ctrl-C handler, another thread) or a
//! callback stops it; it reports how late its steps ran. Here it runs on a
//! manual clock, which its sleeper moves instead of sleeping; a server uses
//! [`Runner::new`] on the real clock (see `examples/server.rs`).
//!
//! ```
//! use std::time::Duration;
//! use evenstep::{Loop, ManualClock, Runner, Timestep, runner::ManualSleep};
//!
//! #[derive(Default)]
//! struct World { steps: u64, saves: u32 }
//!
//! let clock = ManualClock::new();
//! let mut server = Loop::<World>::builder().clock(clock.clone()).timestep(Timestep::HZ_30).build()?;
//! server.on_update(|world, _| world.steps += 1);
//! server.real().every(Duration::from_secs(60), |world: &mut World, _| world.saves += 1)?;
//!
//! let mut runner = Runner::with_sleeper(ManualSleep::new(clock, Duration::ZERO));
//! let stop = runner.stop_handle();
//! server.real().after(Duration::from_secs(3_600), move |_: &mut World, _| stop.stop())?;
//! let mut world = World::default();
//! let report = runner.run(&mut server, &mut world); // an hour, at once
//! assert_eq!((world.steps, world.saves), (108_000, 60));
//! assert_eq!(report.lateness.max, evenstep::Nanos::ZERO);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## A tween that lands exactly
//!
//! ```
//! use std::time::Duration;
//! use evenstep::{Ease, Timestep, Tween, Tweens};
//!
//! let mut tweens = Tweens::<f32, f32>::new(Timestep::HZ_60);
//! tweens.start(
//!     Tween::new(0.0, 0.7, Duration::from_millis(100), |y: &mut f32, v| *y = v)
//!         .ease(Ease::CubicOut),
//! );
//! let mut y = 0.0;
//! for _ in 0..6 {
//!     tweens.step(&mut y); // once per fixed step, from an update
//! }
//! assert_eq!(y, 0.7); // the last update is exactly the target
//! ```
//!
//! # Features
//!
//! - `serde`: `Serialize` and `Deserialize` for [`LoopStats`],
//!   [`FrameStatsRecord`](planner::FrameStatsRecord) (the core's deterministic tally, mirrored), [`Ease`]
//!   and [`Blend`] (by name) and [`InputLog`], and `InputLog::load`, which validates a log
//!   and refuses one recorded at another timestep.
//! - `json`: `InputLog::from_json`, the same from JSON text, refusing
//!   anything after the log.
//! - `postcard`: `InputLog::from_postcard`, the same from postcard bytes,
//!   refusing any byte after the log.
//! - `glam`: [`Lerp`] for glam's `Vec2`, `Vec3`, `Vec3A`, `Vec4`, `DVec2`,
//!   `DVec3` and `Quat`, so they can be [`Interpolated`] and tweened.
//! - `mint`: [`Lerp`] for mint's `Vector2`, `Vector3`, `Vector4`, `Point2`,
//!   `Point3` and `Quaternion`, the types nalgebra, cgmath and others
//!   convert to.
//!
//! Vectors blend component by component; quaternions by a normalized blend
//! the short way round (see [`Lerp`]).
#![forbid(unsafe_code)]

pub mod capture;
mod clock;
mod contexts;
mod control;
mod cpu;
mod ease;
pub mod frame_policy;
mod game_loop;
pub mod host;
pub mod input;
mod jobs;
mod lerp;
pub mod replay;
pub mod runner;
mod stats;
mod tally_record;
pub mod timeline;
pub mod tween;

pub use capture::{CaptureSummary, CaptureWriteError};
pub use clock::{Clock, ManualClock, MonotonicClock};
pub use contexts::{RenderContext, StepContext};
pub use control::Control;
pub use ease::{Ease, UnknownEase};
pub use evenstep_core::{
    Alpha, BudgetError, FeedbackError, FrameId, FramePlan, Nanos, Pacing, PacingError, Rate,
    RateError, Speed, SpeedError, StateHash, StepBudget, Timestamp, Timestep, TimestepError,
};
pub use game_loop::{
    CatchUp, ConfigError, Loop, LoopBuilder, Pump, PumpKind, PumpReport, SubscriberId,
};
pub use host::{Host, HostHandle};
pub use jobs::JobHandle;
pub use lerp::{Blend, Interpolated, Lerp};
pub use replay::{InputLog, replay};
pub use runner::Runner;
pub use stats::LoopStats;
pub use timeline::{Timeline, TimerError, TimerHandle};
pub use tween::{Tween, Tweens};

/// Frame pacing's parts, for a game that tunes pacing or reads what it
/// learned: the display model and its rhythm, the render cap and the
/// frame-rate governor, and what display feedback taught. A game sets
/// [`Pacing`] on its loop; these are what the planner uses under it.
pub mod pacing {
    pub use evenstep_core::{
        DisplayModel, FRAMES_IN_FLIGHT, FrameRateGovernor, Pacing, PacingError, RenderCap, Rhythm,
        ShownDisplay,
    };
}

/// The planner the loop drives, for tools and tests that plan frames
/// themselves or read the loop's ([`Loop::planner`]): [`FrameLoop`](planner::FrameLoop),
/// the [`Step`](planner::Step)s of a plan, and [`FrameStats`](planner::FrameStats),
/// the deterministic tally of plans, with its serde form.
pub mod planner {
    pub use crate::tally_record::FrameStatsRecord;
    pub use evenstep_core::{FrameLoop, FrameStats, Step, Steps};
}

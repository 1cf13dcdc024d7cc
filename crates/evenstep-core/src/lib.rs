//! Exact fixed-timestep planning.
//!
//! `evenstep-core` turns a stream of frame timestamps into "run these fixed
//! steps, then draw at this blend factor". It is the planning half of
//! [evenstep](https://github.com/evenstep/evenstep): `#![no_std]`, no
//! allocation, no dependencies, no clock reads, no `unsafe`.
//!
//! A 60 Hz planner given a frame 20 ms after its start runs one step, then
//! draws a little past it:
//!
//! ```
//! use evenstep_core::{FrameLoop, Nanos, StepBudget, Timestamp, Timestep};
//!
//! let start = Timestamp::ZERO; // read your clock after bring-up
//! let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start);
//!
//! let plan = frames.begin_frame(start + Nanos::from_millis(20));
//! let mut position = 0.0_f64;
//! for step in plan.steps() {
//!     position += 3.0 * step.dt_secs_f64(); // every step: the same dt
//! }
//! assert_eq!(plan.steps_run(), 1);
//! let blend = plan.alpha().as_f32(); // draw between the last two states
//! assert!((0.0..1.0).contains(&blend));
//! ```
//!
//! # Goals, in order
//!
//! 1. **Exact.** Time is integer nanoseconds in newtypes, and the step is an
//!    exact fraction of a second (a [`Timestep`], made from a [`Rate`]):
//!    sixty 60 Hz steps are exactly one second of wall time, and 59.94 Hz is
//!    exactly 60000/1001.
//! 2. **Deterministic.** A [`FrameLoop`] is a pure function of its
//!    configuration and the timestamps it is given. [`StateHash`] and
//!    [`FrameStats::digest`] let a test prove two runs agree.
//! 3. **Honest.** Time beyond the [`StepBudget`] is dropped, never banked
//!    (banking it is the spiral of death), and every plan says exactly how
//!    much: submitted time equals executed plus dropped plus banked, to the
//!    accumulator unit.
//! 4. **Fast.** Planning a steady frame is a handful of integer operations.
//!
//! # What it refuses to do
//!
//! It reads no clock (the caller passes timestamps in), drives no loop (the
//! caller runs the steps it is given), never sleeps and never logs. There is
//! no variable timestep, not even behind a flag: every update gets the same
//! `dt`. The only float is the render blend factor, [`Alpha`], derived and
//! clamped into `[0, 1)` in one place.
//!
//! # More examples
//!
//! ## A stall is clamped, and reported
//!
//! ```
//! use evenstep_core::{FrameLoop, Nanos, StepBudget, Timestamp, Timestep};
//!
//! let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
//! let plan = frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(200));
//! assert_eq!((plan.steps_due(), plan.steps_run(), plan.steps_dropped()), (12, 5, 7));
//! assert_eq!(plan.dropped(), Nanos::from_nanos(116_666_666)); // 7/60 s
//! ```
//!
//! ## Pause, slow motion and frame-by-frame stepping
//!
//! ```
//! use evenstep_core::{FrameLoop, Nanos, Speed, StepBudget, Timestamp, Timestep};
//!
//! let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
//! frames.set_speed(Speed::PAUSED);
//! frames.queue_steps(1); // step once while paused
//! let plan = frames.begin_frame(Timestamp::ZERO + Nanos::from_secs(1));
//! assert_eq!(plan.steps_run(), 1);
//!
//! frames.set_speed(Speed::HALF);
//! let plan = frames.begin_frame(Timestamp::ZERO + Nanos::from_secs(2));
//! assert_eq!(plan.steps_run(), 5); // half a second of simulation, budget 5
//! ```
//!
//! ## Proving two runs agree
//!
//! ```
//! use evenstep_core::{FrameLoop, FrameStats, Nanos, StepBudget, Timestamp, Timestep};
//!
//! fn digest(frame_times_ms: &[u64]) -> u64 {
//!     let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
//!     let mut stats = FrameStats::new();
//!     for &ms in frame_times_ms {
//!         stats.absorb(&frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(ms)));
//!     }
//!     stats.digest()
//! }
//! // The same timestamps give the same digest, on every platform...
//! assert_eq!(digest(&[16, 33, 51, 300, 317]), 0xdbf9_0f32_9691_f2e1);
//! // ...and one frame a millisecond later gives another.
//! assert_ne!(digest(&[16, 33, 51, 301, 317]), digest(&[16, 33, 51, 300, 317]));
//! ```
//!
//! # Features
//!
//! One, for the pacing lab alone: `tuning` makes pacing's tuned constants
//! process-wide settings (`tuning`), so the lab can judge each on captures
//! it was not chosen on. A game leaves it off: its constants are then
//! constants, and every game compiles exactly the same code.
#![no_std]
#![forbid(unsafe_code)]

mod alpha;
mod budget;
mod frame_id;
mod frame_loop;
mod frame_stats;
mod pacing;
mod plan;
mod rate;
mod ratio;
mod sim_epoch;
mod speed;
mod state_hash;
mod time;
mod timestep;

pub use alpha::Alpha;
pub use budget::{BudgetError, StepBudget};
pub use frame_id::{FeedbackError, FrameId};
pub use frame_loop::{FrameLoop, GivenBack};
pub use frame_stats::FrameStats;
#[cfg(feature = "tuning")]
pub use pacing::tuning;
pub use pacing::{
    DisplayModel, FRAMES_IN_FLIGHT, FrameRateGovernor, Pacing, PacingError, RenderCap, Rhythm,
    ShownDisplay,
};
pub use plan::{FramePlan, Step, Steps};
pub use rate::{Rate, RateError};
pub use speed::{Speed, SpeedError};
pub use state_hash::StateHash;
pub use time::{Nanos, Timestamp};
pub use timestep::{Timestep, TimestepError};

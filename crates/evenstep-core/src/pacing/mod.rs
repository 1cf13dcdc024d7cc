//! Frame pacing: keeping a steady display's frames on a steady step count.
//!
//! On a 60 Hz display with 60 steps a second every frame should run exactly
//! one step, but timestamps jitter, and a bank that sits near a step boundary
//! turns that jitter into frames of 0 and 2 steps: motion stutters although
//! the frame rate is steady. The parts here, one concept a file:
//!
//! - [`mode`](Pacing): locked (the default), off, centred (the bank starts
//!   at half a step and returns there after a budget overrun) or snapped;
//! - the [display model](DisplayModel): the lattice of the display's
//!   refreshes (period and phase), learned from frame timestamps and
//!   followed phase-locked, and whether the display keeps a rhythm at all;
//! - snapping: a frame banks the refreshes it spans on that lattice, counted
//!   on the lattice of refreshes and steps when the period fits the step;
//! - hysteresis: a frame locked pacing does not snap runs the step count
//!   typical of the last frames while the bank is within half a step of
//!   allowing it (Godot's physics jitter fix, in exact integers);
//! - display feedback: when frames were shown, reported by the game, teach
//!   the refreshes and the pipeline's latency, and each new frame is
//!   snapped to the refreshes until its predicted showing;
//! - the [render cap](RenderCap) and the [governor](FrameRateGovernor), which
//!   decide which frames are drawn, never how many steps run;
//! - the pacer, which holds all of the planner's pacing state (the mode,
//!   snapping, feedback, the render cap) behind the calls the planner makes.
//!
//! Every unit of time pacing adds to or removes from the bank is reported as
//! the plan's phase shift, so submitted time plus phase shift still equals
//! executed plus dropped plus banked, exactly. Everything is integer
//! arithmetic on the timestamps given, so it is deterministic given the
//! trace.

mod display;
mod governor;
mod hysteresis;
mod mode;
mod pacer;
mod referee;
mod render_cap;
mod shown;
mod snap;
#[cfg(feature = "tuning")]
pub mod tuning;
#[cfg(not(feature = "tuning"))]
#[allow(
    dead_code,
    unreachable_pub,
    reason = "only the `tuning` feature reads the table and sets knobs"
)]
mod tuning;

pub use display::{DisplayModel, Rhythm};
pub use governor::FrameRateGovernor;
pub(crate) use hysteresis::Hysteresis;
pub use mode::{Pacing, PacingError};
pub(crate) use pacer::{Books, FrameKind, Pacer, PacingEvent, Placing};
pub use render_cap::RenderCap;
use shown::Shown;
pub use shown::{FRAMES_IN_FLIGHT, ShownDisplay};
pub(crate) use snap::Snap;
use snap::Snapper;

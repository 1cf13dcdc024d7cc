//! What a pump or a catch-up tells its caller: [`PumpKind`] (what the host
//! asks for), [`Pump`] and [`PumpReport`] (what a pump did), [`CatchUp`]
//! (what a catch-up did).

use evenstep_core::{FramePlan, Nanos, Timestamp};

#[cfg(doc)]
use crate::game_loop::Loop;

/// Which kind of frame a pump is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PumpKind {
    /// A frame the display shows: everything runs, renders included.
    Paint,
    /// A wake-up while nothing is painted (a hidden or minimized window, a
    /// server): real time, jobs, timers and steps run; renders do not.
    Tick,
}

/// What a pump did.
#[allow(
    clippy::large_enum_variant,
    reason = "returned by value once a pump, never stored in bulk; a box would allocate every pump"
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pump {
    /// The loop has not been started: nothing ran.
    NotStarted,
    /// The loop is stopped: nothing ran.
    Stopped,
    /// The pump ran.
    Ran(PumpReport),
}

impl Pump {
    /// The report, if the pump ran.
    pub fn report(self) -> Option<PumpReport> {
        match self {
            Pump::Ran(report) => Some(report),
            Pump::NotStarted | Pump::Stopped => None,
        }
    }

    /// Whether the pump ran.
    pub fn ran(self) -> bool {
        matches!(self, Pump::Ran(_))
    }
}

/// The outcome of a pump that ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PumpReport {
    /// The pump's kind.
    pub kind: PumpKind,
    /// The pump's one accounting clock reading.
    pub now: Timestamp,
    /// Real time elapsed since the previous pump (unclamped, unpaused).
    pub elapsed: Nanos,
    /// Jobs that ran.
    pub jobs: usize,
    /// Fixed steps that ran (fewer than the plan's if `stop` cut them short).
    pub steps: u64,
    /// Whether render subscribers ran.
    pub rendered: bool,
    /// Whether the loop was stopped from inside this pump.
    pub stopped: bool,
    /// The planner's plan for the pump.
    pub plan: FramePlan,
}

/// The result of [`Loop::catch_up`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatchUp {
    /// Fixed steps run.
    pub steps: u64,
    /// The whole bank after the catch-up, under one step: what this
    /// catch-up left of its span together with any time banked before it.
    /// The next frame's steps start from it.
    pub remainder: Nanos,
    /// Whether the loop was stopped from inside the catch-up.
    pub stopped: bool,
}

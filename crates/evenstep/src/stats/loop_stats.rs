//! The snapshot of the measured statistics a loop hands out.

use evenstep_core::Nanos;

/// A snapshot of the loop's measured statistics. Read it with
/// [`Loop::stats`](crate::Loop::stats); it is a plain `Copy` value.
///
/// "Gap" is the wall time from one painted frame to the next, measured from
/// the clock reading at the top of each paint pump: everything that happened
/// between two pictures is inside it, including work the loop did not do.
/// "Cost" is the time the loop spent inside a pump. With the `serde`
/// feature, durations serialize as integer nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LoopStats {
    pub(super) fps: u32,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) frame_cost: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) update_cost: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) render_cost: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) worst_frame: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) best_frame: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) frame_cost_total: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) worst_gap: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) cadence: Nanos,
    pub(super) absences: u64,
    pub(super) warming_up: bool,
    pub(super) over_budget: u64,
    pub(super) steps_last_pump: u64,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) dropped: Nanos,
    pub(super) dropped_steps: u64,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) gap_p50: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) gap_p95: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    pub(super) gap_p99: Nanos,
    pub(super) gaps: u64,
    pub(super) paints: u64,
    pub(super) pumps: u64,
}

/// `Nanos` as a plain integer of nanoseconds in serialized statistics (the
/// core crate has no dependencies, serde included).
#[cfg(feature = "serde")]
mod nanos_as_u64 {
    use evenstep_core::Nanos;

    #[allow(
        clippy::trivially_copy_pass_by_ref,
        reason = "the signature serde's `with` expects"
    )]
    pub(super) fn serialize<S: serde::Serializer>(nanos: &Nanos, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(nanos.as_nanos())
    }

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Nanos, D::Error> {
        <u64 as serde::Deserialize>::deserialize(d).map(Nanos::from_nanos)
    }
}

impl LoopStats {
    /// Paints in the last completed second of real time (0 until one
    /// second has passed, and 0 for a second with no paint).
    pub const fn fps(&self) -> u32 {
        self.fps
    }

    /// Smoothed pump cost, a one-eighth exponential moving average.
    pub const fn frame_cost(&self) -> Nanos {
        self.frame_cost
    }

    /// Smoothed cost of a pump's update phase: real timers, jobs, planning
    /// and the fixed steps with their sim timers and updates.
    pub const fn update_cost(&self) -> Nanos {
        self.update_cost
    }

    /// Smoothed cost of a paint pump's render phase.
    pub const fn render_cost(&self) -> Nanos {
        self.render_cost
    }

    /// The costliest pump since the last reset. Never decays.
    pub const fn worst_frame(&self) -> Nanos {
        self.worst_frame
    }

    /// The cheapest pump since the last reset (zero before the first).
    pub const fn best_frame(&self) -> Nanos {
        self.best_frame
    }

    /// Every pump's cost since the last reset, summed (saturating): with
    /// [`pumps`](LoopStats::pumps), the exact mean cost.
    pub const fn frame_cost_total(&self) -> Nanos {
        self.frame_cost_total
    }

    /// The longest gap between two paints within the gap window.
    pub const fn worst_gap(&self) -> Nanos {
        self.worst_gap
    }

    /// The display's period as observed: the shortest gap within the gap
    /// window (nothing paints faster than the panel refreshes). Zero until a
    /// gap has been measured. Read `worst_gap` against it: a gap under about
    /// 1.5 cadences dropped no frame.
    pub const fn cadence(&self) -> Nanos {
        self.cadence
    }

    /// Gaps at or over the absence threshold (a hidden window, not a slow
    /// frame). They are excluded from every gap statistic.
    pub const fn absences(&self) -> u64 {
        self.absences
    }

    /// Whether the opening gaps are still being discarded as warm-up.
    pub const fn warming_up(&self) -> bool {
        self.warming_up
    }

    /// Pumps whose cost exceeded the work budget.
    pub const fn over_budget(&self) -> u64 {
        self.over_budget
    }

    /// Fixed steps run by the latest pump. Sustained above 1, the game cannot
    /// keep up.
    pub const fn steps_last_pump(&self) -> u64 {
        self.steps_last_pump
    }

    /// Simulation time dropped by the step budget since the last reset.
    /// Diagnostics only: never credit resources from it.
    pub const fn dropped(&self) -> Nanos {
        self.dropped
    }

    /// [`dropped`](LoopStats::dropped) in seconds.
    pub fn dropped_secs(&self) -> f64 {
        self.dropped.as_secs_f64()
    }

    /// Steps dropped by the step budget since the last reset.
    pub const fn dropped_steps(&self) -> u64 {
        self.dropped_steps
    }

    /// Median gap between paints since the last reset.
    pub const fn gap_p50(&self) -> Nanos {
        self.gap_p50
    }

    /// 95th-percentile gap between paints since the last reset.
    pub const fn gap_p95(&self) -> Nanos {
        self.gap_p95
    }

    /// 99th-percentile gap between paints since the last reset.
    pub const fn gap_p99(&self) -> Nanos {
        self.gap_p99
    }

    /// Gaps recorded since the last reset (the percentiles' sample count).
    pub const fn gaps(&self) -> u64 {
        self.gaps
    }

    /// Paint pumps since the last reset.
    pub const fn paints(&self) -> u64 {
        self.paints
    }

    /// Pumps of either kind since the last reset.
    pub const fn pumps(&self) -> u64 {
        self.pumps
    }
}

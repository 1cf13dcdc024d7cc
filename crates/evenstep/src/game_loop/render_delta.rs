//! The time since the previous render, raw and scaled, that the render
//! context reports.

use evenstep_core::{FramePlan, Nanos, Timestep};

/// Raw time, and scaled time in accumulator units, since the previous
/// render (or the start), for the render context.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RenderDelta {
    raw: Nanos,
    scaled_units: u128,
}

impl RenderDelta {
    /// Adds a pump's raw and scaled deltas.
    #[inline]
    pub(crate) fn add(&mut self, plan: &FramePlan) {
        self.raw = self.raw.saturating_add(plan.raw_delta());
        self.scaled_units = self.scaled_units.saturating_add(plan.scaled_units());
    }

    /// Re-expresses the scaled time in the units of `to` when the step
    /// changes from `from`, like the bank.
    pub(crate) fn rescale(&mut self, from: Timestep, to: Timestep) {
        self.scaled_units = self
            .scaled_units
            .saturating_mul(u128::from(to.units_per_nanosecond()))
            / u128::from(from.units_per_nanosecond());
    }

    /// Starts counting again from zero: at a render, and at the start.
    #[inline]
    pub(crate) fn restart(&mut self) {
        *self = RenderDelta::default();
    }

    /// Raw time since the previous render.
    #[inline]
    pub(crate) fn raw(&self) -> Nanos {
        self.raw
    }

    /// Scaled time since the previous render, in the step's accumulator
    /// units.
    #[inline]
    pub(crate) fn scaled_units(&self) -> u128 {
        self.scaled_units
    }
}

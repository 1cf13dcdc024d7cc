//! Drops: simulation time the step budget dropped, and the steps it held.

use evenstep_core::{Nanos, Timestep};

/// Time and steps the step budget dropped since the last reset.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Drops {
    /// Dropped time in accumulator units, summed exactly (saturating).
    units: u128,
    /// `units` in nanoseconds, at the latest drop's timestep.
    time: Nanos,
    steps: u64,
}

impl Drops {
    /// Adds `units` of time and `steps` steps dropped at `timestep`.
    #[inline]
    pub(super) fn add(&mut self, units: u128, steps: u64, timestep: Timestep) {
        self.units = self.units.saturating_add(units);
        self.time = timestep.units_to_nanos(self.units);
        self.steps = self.steps.saturating_add(steps);
    }

    /// Adds `steps` whole steps of `timestep`.
    pub(super) fn add_steps(&mut self, steps: u64, timestep: Timestep) {
        let units = u128::from(steps) * u128::from(timestep.units_per_step());
        self.add(units, steps, timestep);
    }

    /// Time dropped.
    pub(super) fn time(&self) -> Nanos {
        self.time
    }

    /// Steps dropped.
    pub(super) fn steps(&self) -> u64 {
        self.steps
    }
}

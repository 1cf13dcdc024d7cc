//! Snapping: a frame delta within the tolerance of a whole number of display
//! refreshes is treated as exactly that many refreshes. When the refresh
//! period is (within 1%) a whole multiple or divisor of the step, the
//! refreshes and the steps form a [`Lattice`]: a refresh is then worth an
//! exact number of accumulator units, and the bank is kept in the middle of
//! the part of the step it is in, as far from a step boundary as it can be.

use crate::{Nanos, RefreshEstimator, Timestep};

/// How a refresh period relates to the step: `steps_per_refresh / divisions`
/// steps per refresh, with one of the two equal to 1. For 60 steps a second:
/// a 60 Hz display is 1/1, 120 Hz is 1/2, 240 Hz is 1/4, 30 Hz is 2/1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Lattice {
    /// Accumulator units one refresh is worth, exactly.
    per_refresh: u64,
    /// Refreshes per step (1 when a refresh is one or more whole steps).
    divisions: u64,
}

impl Lattice {
    /// The lattice for `period`, if the period is within 1% of a whole
    /// multiple or divisor (up to 8) of the step.
    fn find(period: Nanos, timestep: Timestep) -> Option<Lattice> {
        let period_units = timestep.nanos_to_units(period);
        let step = u128::from(timestep.units_per_step());
        if period_units == 0 {
            return None;
        }
        // A refresh of m whole steps (a display slower than the steps).
        let m = (period_units + step / 2) / step;
        if (1..=8).contains(&m) && period_units.abs_diff(m * step) * 100 <= m * step {
            // A refresh worth more than 2⁶⁴ units has no lattice to keep.
            return u64::try_from(m * step).ok().map(|per_refresh| Lattice {
                per_refresh,
                divisions: 1,
            });
        }
        // A step of n whole refreshes (a display faster than the steps).
        let n = (step + period_units / 2) / period_units;
        if (2..=8).contains(&n) && step % n == 0 && (n * period_units).abs_diff(step) * 100 <= step
        {
            return Some(Lattice {
                per_refresh: (step / n) as u64,
                divisions: n as u64,
            });
        }
        None
    }

    /// Where the bank belongs after a snapped frame left `remainder`: the
    /// middle of the part of the step it is in. The step is cut into
    /// `divisions` equal parts (one refresh each), and a bank in the middle
    /// of its part is furthest from a step boundary on every frame; when a
    /// refresh is whole steps, that is mid-step. `remainder < per_step`.
    pub(crate) fn centre(self, remainder: u64, per_step: u64) -> u64 {
        if self.divisions == 1 {
            return per_step / 2;
        }
        let part = self.per_refresh;
        (remainder / part) * part + part / 2
    }
}

/// A frame delta snapped to whole refreshes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Snap {
    /// The delta as whole refreshes, in accumulator units (unscaled).
    pub(crate) units: u128,
    /// The lattice the refreshes were counted on, if the period has one.
    pub(crate) lattice: Option<Lattice>,
}

/// What snapping remembers between frames: the refresh estimator, and the
/// lattice found for the period it last reported.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Snapper {
    pub(crate) estimator: RefreshEstimator,
    /// The period band, in nanoseconds, the lattice below was found for. A
    /// found lattice holds while the estimated period stays within 0.5% of
    /// where it was found (well inside the 1% that admits it), so a period
    /// wandering with jitter near the edge of the 1% does not switch the
    /// lattice on and off frame by frame; "no lattice" holds only for the
    /// exact period it was found for. `(1, 0)`, an empty band: nothing found
    /// yet.
    band: (u64, u64),
    lattice: Option<Lattice>,
}

impl Snapper {
    /// Nothing learned.
    pub(crate) const fn new() -> Snapper {
        Snapper {
            estimator: RefreshEstimator::new(),
            band: (1, 0),
            lattice: None,
        }
    }

    /// Learns `raw` as a display refresh, then snaps it: if the display is
    /// steady and `raw` lies within `tolerance` of `k ≥ 1` whole periods,
    /// the delta becomes exactly `k` periods (`k` lattice refreshes when the
    /// period has a lattice). While `paused`, the delta is learned but not
    /// snapped, so the bank, and the alpha, stay where they were.
    pub(crate) fn snap(
        &mut self,
        raw: Nanos,
        tolerance: Nanos,
        timestep: Timestep,
        paused: bool,
    ) -> Option<Snap> {
        self.estimator.observe(raw);
        if paused || raw == Nanos::ZERO {
            return None;
        }
        let reference = self.estimator.steady_reference(tolerance)?;
        // With a lattice, the reference only has to say how many refreshes
        // the delta spans: the lattice fixes what a refresh is worth.
        // Without one, a snapped frame is k periods as the window measures
        // them, the finest estimate there is (the reference holds still for
        // a block, and k of it would drift from the wall until the block
        // closes), and the delta is tested against that same period, so no
        // frame moves by more than the tolerance.
        let lattice = self.lattice_for(reference, timestep);
        let period = match lattice {
            Some(_) => reference,
            None => self.estimator.period().unwrap_or(reference),
        };
        let (d, p) = (raw.as_nanos(), period.as_nanos());
        // The nearest whole number of periods; a delta of about one period,
        // the usual frame, needs no division.
        let k = if (p - p / 2..2 * p - p / 2).contains(&d) {
            1
        } else {
            (d + p / 2) / p
        };
        if k == 0 || d.abs_diff(k.saturating_mul(p)) > tolerance.as_nanos() {
            return None;
        }
        let units = match lattice {
            Some(lattice) => u128::from(k) * u128::from(lattice.per_refresh),
            None => u128::from(k) * timestep.nanos_to_units(period),
        };
        Some(Snap { units, lattice })
    }

    /// The lattice for `period`, found again only when the period leaves
    /// the band the last one was found for.
    fn lattice_for(&mut self, period: Nanos, timestep: Timestep) -> Option<Lattice> {
        let p = period.as_nanos();
        let (lo, hi) = self.band;
        if lo <= p && p <= hi {
            return self.lattice;
        }
        self.lattice = Lattice::find(period, timestep);
        let slack = if self.lattice.is_some() { p / 200 } else { 0 };
        self.band = (p - slack, p + slack);
        self.lattice
    }
}

//! What pumps cost: smoothed averages of each phase, the extremes, the sum,
//! and the pumps over the work budget.

use evenstep_core::Nanos;

/// A one-eighth exponential moving average, `avg += (sample − avg) / 8`.
///
/// Kept as eight times the average so the integer arithmetic loses nothing
/// but the final division, and wide enough that costs near `u64::MAX` ns (a
/// clock that saturated mid-pump) average without wrapping: eight times a
/// `u64` average plus a `u64` sample fits in a `u128` with room to spare.
/// The first sample seeds it.
#[derive(Clone, Copy, Debug, Default)]
struct MovingAverage {
    x8: u128,
    seeded: bool,
}

impl MovingAverage {
    #[inline]
    fn record(&mut self, sample: Nanos) {
        let sample = u128::from(sample.as_nanos());
        if self.seeded {
            self.x8 = self.x8 - (self.x8 >> 3) + sample;
        } else {
            self.x8 = sample * 8;
            self.seeded = true;
        }
    }

    /// The average (zero before the first sample). An average of `u64`
    /// samples is a `u64`; the conversion saturates only to say so without a
    /// panic.
    fn get(self) -> Nanos {
        Nanos::from_nanos(u64::try_from(self.x8 / 8).unwrap_or(u64::MAX))
    }
}

/// The cost of pumps since the last reset.
#[derive(Clone, Copy, Debug)]
pub(super) struct Costs {
    frame: MovingAverage,
    update: MovingAverage,
    render: MovingAverage,
    worst: Nanos,
    best: Nanos,
    total: Nanos,
    /// A pump costlier than this is over budget.
    budget: Nanos,
    over_budget: u64,
}

impl Costs {
    pub(super) fn new(budget: Nanos) -> Costs {
        Costs {
            frame: MovingAverage::default(),
            update: MovingAverage::default(),
            render: MovingAverage::default(),
            worst: Nanos::ZERO,
            best: Nanos::MAX,
            total: Nanos::ZERO,
            budget,
            over_budget: 0,
        }
    }

    /// Adds one pump's costs; `render` is `None` for a pump that did not
    /// paint.
    #[inline]
    pub(super) fn record(&mut self, frame: Nanos, update: Nanos, render: Option<Nanos>) {
        self.frame.record(frame);
        self.update.record(update);
        if let Some(render) = render {
            self.render.record(render);
        }
        self.worst = self.worst.max(frame);
        self.best = self.best.min(frame);
        self.total = self.total.saturating_add(frame);
        if frame > self.budget {
            self.over_budget += 1;
        }
    }

    /// The smoothed cost of a whole pump.
    pub(super) fn frame(&self) -> Nanos {
        self.frame.get()
    }

    /// The smoothed cost of a pump's update phase.
    pub(super) fn update(&self) -> Nanos {
        self.update.get()
    }

    /// The smoothed cost of a paint pump's render phase.
    pub(super) fn render(&self) -> Nanos {
        self.render.get()
    }

    /// The costliest pump.
    pub(super) fn worst(&self) -> Nanos {
        self.worst
    }

    /// The cheapest pump, zero before the first.
    pub(super) fn best(&self) -> Nanos {
        if self.frame.seeded {
            self.best
        } else {
            Nanos::ZERO
        }
    }

    /// Every pump's cost, summed (saturating).
    pub(super) fn total(&self) -> Nanos {
        self.total
    }

    /// Pumps over the work budget.
    pub(super) fn over_budget(&self) -> u64 {
        self.over_budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_average_moves_an_eighth_of_the_way() {
        let mut avg = MovingAverage::default();
        avg.record(Nanos::from_nanos(800));
        assert_eq!(avg.get(), Nanos::from_nanos(800));
        avg.record(Nanos::from_nanos(1_600));
        assert_eq!(avg.get(), Nanos::from_nanos(900));
        avg.record(Nanos::ZERO);
        assert_eq!(avg.x8, 6_300); // 7200 − 900 + 0
    }
}

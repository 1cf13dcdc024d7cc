//! Simulation time across changes of step: the epoch a planner measures it
//! from, so that changing the step rate neither jumps simulation time nor
//! re-derives it from the tick.

use crate::ratio::gcd;
use crate::time::Nanos;
use crate::timestep::Timestep;

/// Where simulation time stood when the step last changed: at tick `tick`
/// it was exactly `nanos + frac / den` nanoseconds. Simulation time at any
/// tick is that plus the steps since, at the step in force, so a change of
/// step neither jumps simulation time nor re-derives it from the tick as
/// `tick · dt` (which would move it by `tick` times the change). A planner
/// that never changes its step keeps [`SimEpoch::START`], and its sim time
/// is exactly `tick · dt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SimEpoch {
    tick: u64,
    nanos: u64,
    /// The sub-nanosecond part, `frac / den`, in lowest terms.
    frac: u32,
    den: u32,
}

impl SimEpoch {
    /// Sim time zero at tick zero.
    pub(crate) const START: SimEpoch = SimEpoch {
        tick: 0,
        nanos: 0,
        frac: 0,
        den: 1,
    };

    /// Simulation time at `tick`, stepping at `timestep` since the epoch:
    /// exact, rounded down to the nanosecond, saturating at both ends.
    pub(crate) const fn sim_time(self, tick: u64, timestep: Timestep) -> Nanos {
        self.sim_time_within(tick, 0, timestep)
    }

    /// Simulation time `units` accumulator units into the step of `tick`:
    /// what a render at that blend factor shows. Exact, rounded down.
    pub(crate) const fn sim_time_within(self, tick: u64, units: u64, timestep: Timestep) -> Nanos {
        // The usual case, a driver's sim timeline asking once a step: an
        // epoch on a whole nanosecond and a tick after it, which is one
        // division, as `Timestep::sim_time` is.
        if self.frac == 0 && tick >= self.tick {
            let since =
                (tick - self.tick) as u128 * timestep.units_per_step() as u128 + units as u128;
            let nanos = self.nanos as u128 + since / timestep.units_per_nanosecond() as u128;
            return if nanos > u64::MAX as u128 {
                Nanos::MAX
            } else {
                Nanos::from_nanos(nanos as u64)
            };
        }
        Nanos::from_nanos(self.exact(tick, units, timestep).0)
    }

    /// The epoch at `tick` for a change from `old` to `new`: sim time there,
    /// exactly. Its fraction of a nanosecond keeps a denominator under 2³²
    /// (the per-nanosecond denominators of the steps it came through, in
    /// lowest terms); in the rare chain of changes where it would not, it is
    /// rounded down to a whole unit of `new`, under a nanosecond.
    pub(crate) const fn rebased(self, tick: u64, old: Timestep, new: Timestep) -> SimEpoch {
        let (nanos, frac, den) = self.exact(tick, 0, old);
        // den = self.den · Q < 2⁶⁴, and frac < den.
        let g = gcd(frac, den);
        let (frac, den) = if frac == 0 {
            (0, 1)
        } else {
            ((frac / g) as u64, (den / g) as u64)
        };
        if den <= u32::MAX as u64 {
            return SimEpoch {
                tick,
                nanos,
                frac: frac as u32,
                den: den as u32,
            };
        }
        let q = new.units_per_nanosecond() as u128;
        SimEpoch {
            tick,
            nanos,
            frac: (frac as u128 * q / den as u128) as u32,
            den: q as u32,
        }
    }

    /// Sim time at `tick` plus `extra` units, as whole nanoseconds (at most
    /// `u64::MAX`, at least zero) and a fraction `frac / den` in `[0, 1)`.
    const fn exact(self, tick: u64, extra: u64, timestep: Timestep) -> (u64, u128, u128) {
        let p = timestep.units_per_step() as u128;
        let q = timestep.units_per_nanosecond() as u128;
        let epoch_den = self.den as u128;
        // Both fractions over den = epoch_den · Q (under 2⁶⁴).
        let den = epoch_den * q;
        let epoch_frac = self.frac as u128 * q;
        // Units from the epoch to the instant asked for: ticks before the
        // epoch (a tick set back by hand) count backwards.
        let (forward, units) = if tick >= self.tick {
            (true, (tick - self.tick) as u128 * p + extra as u128)
        } else {
            let back = (self.tick - tick) as u128 * p;
            let extra = extra as u128;
            if extra >= back {
                (true, extra - back)
            } else {
                (false, back - extra)
            }
        };
        let whole = units / q;
        let part = (units % q) * epoch_den;
        if forward {
            let frac = epoch_frac + part;
            let nanos = self.nanos as u128 + whole + frac / den;
            if nanos > u64::MAX as u128 {
                return (u64::MAX, 0, 1);
            }
            (nanos as u64, frac % den, den)
        } else {
            let borrow = if epoch_frac >= part { 0 } else { 1 };
            let frac = epoch_frac + borrow * den - part;
            let taken = whole + borrow;
            if taken > self.nanos as u128 {
                return (0, 0, 1);
            }
            (self.nanos - taken as u64, frac, den)
        }
    }
}

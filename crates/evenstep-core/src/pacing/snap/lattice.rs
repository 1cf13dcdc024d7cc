//! The lattice of refreshes and steps: how a refresh period relates to the
//! step (`p/q` steps a refresh), what one refresh is worth in accumulator
//! units, and the lattice found for a period, kept while the period stays
//! near it.

use core::num::NonZeroU64;

use super::{CACHE_BAND, CLOSE_BAND, FRACTION_BAND, WHOLE_BAND};
use crate::ratio::gcd;
use crate::{Nanos, Speed, Timestep};

/// The largest denominator of a refresh-to-step fraction with a lattice.
const MOST_PARTS: u64 = 12;

/// How a refresh period relates to the step: `p/q` steps a refresh, in
/// lowest terms, with `q` up to 12. For 60 steps a second: a 60 Hz display
/// is 1/1, 120 Hz is 1/2, 240 Hz is 1/4, 30 Hz is 2/1, 75 Hz is 4/5, 144 Hz
/// is 5/12, 165 Hz is 4/11. The step is cut into `q` parts; the refreshes
/// fall on part boundaries, `p` parts apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Lattice {
    /// Accumulator units one refresh is worth: `p` parts, exactly when the
    /// step divides into `q` whole units.
    pub(super) per_refresh: NonZeroU64,
    /// Accumulator units of one part of the step (the step over `q`,
    /// rounded down).
    pub(super) part: NonZeroU64,
    /// Whether a refresh is whole steps or a whole fraction of one (`p` or
    /// `q` is 1): locked pacing snaps only to such a lattice.
    pub(super) whole: bool,
}

impl Lattice {
    /// The lattice for `period`, if the period is within 2% of `m` steps (`m`
    /// up to 8) or of a step over `q` (`q` up to 12), or within 0.25% of
    /// `p/q` steps (`q` up to 12; the smallest `q` that fits).
    pub(super) fn find(period: Nanos, timestep: Timestep) -> Option<Lattice> {
        let period_units = timestep.nanos_to_units(period);
        let step = u128::from(timestep.units_per_step());
        if period_units == 0 {
            return None;
        }
        // A refresh of m whole steps (a display slower than the steps).
        let m = (period_units + step / 2) / step;
        if (1..=8).contains(&m)
            && period_units.abs_diff(m * step) * u128::from(WHOLE_BAND.get()) <= m * step
        {
            // A refresh worth more than 2⁶⁴ units has no lattice to keep.
            let per_refresh = NonZeroU64::new(u64::try_from(m * step).ok()?)?;
            return Some(Lattice {
                per_refresh,
                part: NonZeroU64::new(u64::try_from(step).ok()?)?,
                whole: true,
            });
        }
        // A refresh of p parts of q a step (a display faster than the steps).
        (2..=MOST_PARTS).find_map(|q| {
            let q_wide = u128::from(q);
            let p = (period_units * q_wide + step / 2) / step;
            // A whole fraction of a step (p = 1) within 2%, as a whole
            // multiple; any other within 0.25%, as close as displays keep to
            // their nominal rates: the fractions are dense, and a display
            // 2% off one should not run game time 2% off the wall.
            let fits = p >= 1 && p < q_wide && gcd(p, q_wide) == 1;
            let slack = u128::from(if p == 1 {
                WHOLE_BAND.get()
            } else {
                FRACTION_BAND.get()
            });
            if !fits || (period_units * q_wide).abs_diff(p * step) * slack > p * step {
                return None;
            }
            let part = u64::try_from(step / q_wide).ok()?;
            Some(Lattice {
                per_refresh: NonZeroU64::new(part.checked_mul(u64::try_from(p).ok()?)?)?,
                part: NonZeroU64::new(part)?,
                whole: p == 1 && step % q_wide == 0,
            })
        })
    }

    /// Whether a refresh is whole steps or a whole fraction of one.
    pub(crate) const fn is_whole(self) -> bool {
        self.whole
    }

    /// The spacing, in accumulator units, of the points the bank visits
    /// when every frame banks whole refreshes scaled by `speed`: one part
    /// at normal speed, and in general the largest span that divides both
    /// a scaled refresh and the step, if it is a whole number of units.
    /// At half speed on a display of one refresh a step the bank visits
    /// two points a step, so the part is half a step; at a third of a
    /// 60 Hz step (50,000,000 units) it would be 16,666,666⅔ units, and
    /// there is none.
    pub(super) fn part_at(self, speed: Speed, per_step: u64) -> Option<u64> {
        if speed == Speed::NORMAL {
            return Some(self.part.get());
        }
        let (num, den) = (
            u128::from(speed.numerator()),
            u128::from(speed.denominator()),
        );
        // A scaled refresh is num·R/den units and a step is den·S/den:
        // their largest common span is gcd(num·R, den·S)/den.
        let common = gcd(
            num * u128::from(self.per_refresh.get()),
            den * u128::from(per_step),
        );
        if common == 0 || common % den != 0 {
            return None;
        }
        u64::try_from(common / den).ok()
    }

    /// Whether `period` is within 0.5% of this lattice's refresh.
    pub(super) fn is_close(self, period: Nanos, timestep: Timestep) -> bool {
        let period_units = timestep.nanos_to_units(period);
        let refresh = u128::from(self.per_refresh.get());
        period_units.abs_diff(refresh) * u128::from(CLOSE_BAND.get()) <= refresh
    }
}

/// The lattice found for a period, kept while the period stays near it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(in crate::pacing) struct LatticeCache {
    /// The period band, in nanoseconds, the lattice below was found for. A
    /// found lattice holds while the period stays within 0.5% of where it
    /// was found (well inside the 2% that admits it), so a period wandering
    /// near the edge of the 2% does not switch the lattice on and off frame
    /// by frame; "no lattice" holds only for the exact period it was found
    /// for. `(1, 0)`, an empty band: nothing found yet.
    band: (u64, u64),
    lattice: Option<Lattice>,
}

impl LatticeCache {
    /// Nothing found yet.
    pub(in crate::pacing) const EMPTY: LatticeCache = LatticeCache {
        band: (1, 0),
        lattice: None,
    };

    /// The lattice for `period`, found again only when the period leaves
    /// the band the last one was found for.
    pub(in crate::pacing) fn lattice_for(
        &mut self,
        period: Nanos,
        timestep: Timestep,
    ) -> Option<Lattice> {
        let p = period.as_nanos();
        let (lo, hi) = self.band;
        if lo <= p && p <= hi {
            return self.lattice;
        }
        self.find_lattice(period, timestep)
    }

    /// The lattice for a period outside the band: found again.
    #[cold]
    fn find_lattice(&mut self, period: Nanos, timestep: Timestep) -> Option<Lattice> {
        let p = period.as_nanos();
        self.lattice = Lattice::find(period, timestep);
        let slack = if self.lattice.is_some() {
            p / CACHE_BAND.get_u64()
        } else {
            0
        };
        self.band = (p - slack, p + slack);
        self.lattice
    }
}

/// What one refresh of `period_fixed` (in 2⁻¹⁶ ns) is worth in accumulator
/// units: exactly its share of the step on a `lattice`, else the period to
/// its 2⁻¹⁶ ns, so that k of them do not drift from the wall.
pub(in crate::pacing) fn refresh_units(
    lattice: Option<Lattice>,
    period_fixed: u64,
    timestep: Timestep,
) -> i128 {
    if let Some(lattice) = lattice {
        return i128::from(lattice.per_refresh.get());
    }
    let per_refresh =
        (u128::from(period_fixed) * u128::from(timestep.units_per_nanosecond())) >> 16;
    i128::try_from(per_refresh).unwrap_or(i128::MAX)
}

//! Finding a lattice: a first period for a window of deltas, and a
//! straight line fitted through the window's stamps against their refresh
//! numbers.

use super::{FRACTION_BITS, MOST_REFRESHES, WINDOW};

/// A first period for a window of deltas, in ns: the median delta, then the
/// window's span over its count of whole periods, twice, since a median of
/// jittered deltas can be far off. `None` if a delta spans more refreshes
/// than a rhythm can show.
pub(super) fn rough_period(deltas: &[u32]) -> Option<u64> {
    let mut sorted = [0_u32; WINDOW];
    let sorted = &mut sorted[..deltas.len()];
    sorted.copy_from_slice(deltas);
    sorted.sort_unstable();
    let mut period = u64::from(sorted[deltas.len() / 2]);
    for _ in 0..2 {
        let mut span = 0_u64;
        let mut refreshes = 0_u64;
        for &delta in deltas {
            span += u64::from(delta);
            refreshes += refreshes_in(u64::from(delta), period)?;
        }
        period = span / refreshes;
    }
    Some(period)
}

/// A straight line through a window's stamps against their refresh numbers,
/// both counted from the window's first stamp: its slope is the period, its
/// offset where the first stamp's lattice point sits.
pub(super) struct Line {
    /// The period, in 2⁻¹⁶ ns per refresh: always positive.
    pub(super) slope: i128,
    /// The first stamp's lattice point, in 2⁻¹⁶ ns after the stamp.
    pub(super) offset: i128,
    /// The latest stamp: its refresh number, and its time in ns.
    pub(super) latest: (i128, i128),
}

impl Line {
    /// The line fitted by least squares through the stamps of `deltas`,
    /// each counted in whole refreshes of `period` ns, if the deltas keep
    /// a rhythm: most frames of a display's rhythm span one refresh of it,
    /// and deltas that mix one and two of some period are no rhythm.
    pub(super) fn through(deltas: &[u32], period: u64) -> Option<Line> {
        let count = deltas.len();
        let points = count as i128 + 1;
        let (mut x, mut y) = (0_i128, 0_i128);
        let (mut sx, mut sy, mut sxx, mut sxy) = (0_i128, 0_i128, 0_i128, 0_i128);
        let mut single = 0;
        for &delta in deltas {
            let refreshes = refreshes_in(u64::from(delta), period)?;
            single += usize::from(refreshes == 1);
            x += i128::from(refreshes);
            y += i128::from(delta);
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        let spread_x = points * sxx - sx * sx;
        if spread_x <= 0 || single * 4 < count * 3 {
            return None;
        }
        // Slope and offset in 2⁻¹⁶ ns.
        let slope = ((points * sxy - sx * sy) << FRACTION_BITS) / spread_x;
        let offset = ((sy << FRACTION_BITS) - slope * sx) / points;
        if slope <= 0 {
            return None;
        }
        Some(Line {
            slope,
            offset,
            latest: (x, y),
        })
    }

    /// Writes each stamp's distance from the line, in ns, into
    /// `distances`: the window's first stamp, then one per delta, each
    /// counted in whole refreshes of `period` ns as the line was fitted.
    pub(super) fn distances(
        &self,
        deltas: &[u32],
        period: u64,
        distances: &mut [u64],
    ) -> Option<()> {
        distances[0] = nanos_of(self.offset);
        let (mut x, mut y) = (0_i128, 0_i128);
        for (slot, &delta) in distances[1..].iter_mut().zip(deltas) {
            x += i128::from(refreshes_in(u64::from(delta), period)?);
            y += i128::from(delta);
            *slot = nanos_of((y << FRACTION_BITS) - self.offset - self.slope * x);
        }
        Some(())
    }
}

/// The size of a distance in 2⁻¹⁶ ns, in whole ns.
pub(super) fn nanos_of(distance: i128) -> u64 {
    u64::try_from(distance.unsigned_abs() >> FRACTION_BITS).unwrap_or(u64::MAX)
}

/// `delta` in whole periods (at least one), or `None` past `MOST_REFRESHES`.
pub(super) fn refreshes_in(delta: u64, period: u64) -> Option<u64> {
    if period == 0 {
        return None;
    }
    let refreshes = ((delta + period / 2) / period).max(1);
    (refreshes <= MOST_REFRESHES).then_some(refreshes)
}

//! Fixed bins for distributions of durations, so that a capture of any
//! length is measured in fixed memory: fine bins where the values live,
//! coarser ones for stalls, and one open bin past the last.

/// Bins in four tiers of `(width ns, count)`, then one open bin. The
/// tiers are constants, so that finding a bin divides by a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tiers(pub(crate) [(u64, usize); 4]);

/// Input latency: 10 µs to 50 ms, 1 ms to 2 s, 100 ms to 60 s, 10 s to an
/// hour.
pub(crate) const LATENCY_TIERS: Tiers = Tiers([
    (10_000, 5_000),
    (1_000_000, 1_950),
    (100_000_000, 580),
    (10_000_000_000, 354),
]);

/// Judder: 10 ns to 1 µs (a display-fed run's rounding), 1 µs to 10 ms,
/// 100 µs to 100 ms, 10 ms to 10 s.
pub(crate) const JUDDER_TIERS: Tiers =
    Tiers([(10, 100), (1_000, 9_999), (100_000, 900), (10_000_000, 990)]);

impl Tiers {
    /// Bins in all, the open one included.
    pub(crate) fn len(self) -> usize {
        self.0.iter().map(|&(_, count)| count).sum::<usize>() + 1
    }

    /// The bin holding `nanos`.
    #[inline]
    pub(crate) fn bin_of(self, nanos: u64) -> usize {
        self.locate(nanos).0
    }

    /// The bin holding `nanos`, and how far into it `nanos` is.
    #[inline]
    pub(crate) fn locate(self, nanos: u64) -> (usize, u64) {
        let mut first = 0;
        let mut start = 0;
        for (width, count) in self.0 {
            let end = start + width * count as u64;
            if nanos < end {
                let within = (nanos - start) / width;
                let bin = first + usize::try_from(within).unwrap_or(0);
                return (bin, nanos - start - within * width);
            }
            first += count;
            start = end;
        }
        (first, nanos - start)
    }

    /// Where `bin` starts, and its width (`None` for the open bin).
    pub(crate) fn bounds(self, bin: usize) -> (u64, Option<u64>) {
        let mut first = 0;
        let mut start = 0;
        for (width, count) in self.0 {
            if bin < first + count {
                return (start + width * (bin - first) as u64, Some(width));
            }
            first += count;
            start += width * count as u64;
        }
        (start, None)
    }
}

#[cfg(test)]
mod tests {
    use super::{JUDDER_TIERS, LATENCY_TIERS};

    #[test]
    fn every_bin_starts_where_the_one_before_it_ends() {
        for tiers in [LATENCY_TIERS, JUDDER_TIERS] {
            let mut end = 0;
            for bin in 0..tiers.len() {
                let (start, width) = tiers.bounds(bin);
                assert_eq!(start, end);
                assert_eq!(tiers.bin_of(start), bin);
                end = start + width.unwrap_or(0);
            }
            assert_eq!(tiers.bin_of(u64::MAX), tiers.len() - 1);
        }
    }
}

//! The percentiles: a fixed-size log-linear histogram of durations, for the
//! gaps between paints and for the lateness of a runner, a host and each of
//! its rooms.

use evenstep_core::Nanos;

/// Values of 2³⁶ ns (about 69 s) and over share the top bucket.
const TOP_EXP: u32 = 36;

/// The buckets of a histogram with `2^sub_bits` sub-buckets per power of
/// two: one per value below `2^sub_bits`, one per sub-range of each power of
/// two from there to 2³⁶, and one above.
const fn buckets(sub_bits: u32) -> usize {
    (1 << sub_bits) * (TOP_EXP - sub_bits + 1) as usize + 1
}

/// A histogram whose percentiles are within 1/32 (3.1%) of the true value:
/// 32 sub-buckets per power of two, about 16 KB. The runner's and a host's
/// lateness and the gaps between paints.
pub(crate) type LogHistogram = Histogram<5, { buckets(5) }>;

/// A histogram whose percentiles are within 1/8 (12.5%) of the true value:
/// 8 sub-buckets per power of two, about 4 KB. Each room of a host keeps
/// one and records every step in it, so its size is what thousands of
/// rooms hold in the cache between their steps (measured in
/// `bench/README.md`, "Many rooms on one host").
pub(crate) type CoarseHistogram = Histogram<3, { buckets(3) }>;

/// A fixed-size log-linear histogram of durations, `2^SUB_BITS` buckets to
/// a power of two (`BUCKETS` is [`buckets`] of it, checked when built).
/// Each bucket keeps its count and the largest value it has seen, which is
/// what a percentile reports: exact when the values in a bucket are all
/// equal. It never allocates.
#[derive(Clone)]
pub(crate) struct Histogram<const SUB_BITS: u32, const BUCKETS: usize> {
    counts: [u64; BUCKETS],
    max: [u64; BUCKETS],
    total: u64,
}

impl<const SUB_BITS: u32, const BUCKETS: usize> Histogram<SUB_BITS, BUCKETS> {
    /// The bucket count must follow from the sub-buckets.
    const LAYOUT: () = assert!(BUCKETS == buckets(SUB_BITS));
    const SUB: u64 = 1 << SUB_BITS;

    pub(crate) fn new() -> Self {
        let () = Self::LAYOUT;
        Histogram {
            counts: [0; BUCKETS],
            max: [0; BUCKETS],
            total: 0,
        }
    }

    /// Values under `2^(SUB_BITS+1)` have a bucket each; above, the
    /// `SUB_BITS` bits below the leading one pick one of the sub-buckets of
    /// its power of two. One formula covers both: `shift` is 0 below, and
    /// the value's top `SUB_BITS + 1` bits follow the buckets of the powers
    /// below.
    #[inline]
    fn bucket(value: u64) -> usize {
        let shift = (value | Self::SUB).ilog2() - SUB_BITS;
        let bucket = (u64::from(shift) << SUB_BITS) + (value >> shift);
        // At most 64 · 2^SUB_BITS: the cast is exact.
        (bucket as usize).min(BUCKETS - 1)
    }

    #[inline]
    pub(crate) fn record(&mut self, value: Nanos) {
        let value = value.as_nanos();
        let b = Self::bucket(value);
        // Saturating like every counter here, though 2⁶⁴ samples take
        // centuries to reach.
        self.counts[b] = self.counts[b].saturating_add(1);
        self.max[b] = self.max[b].max(value);
        self.total = self.total.saturating_add(1);
    }

    /// The largest value in the bucket holding the sample of rank
    /// `ceil(p · total)`.
    pub(crate) fn percentile(&self, per_mille: u64) -> Nanos {
        if self.total == 0 {
            return Nanos::ZERO;
        }
        // Widened: a runner's lateness counts every step of a run, and a
        // count past 2⁶⁴ / 1000 would overflow the product.
        let rank = (u128::from(self.total) * u128::from(per_mille))
            .div_ceil(1_000)
            .max(1);
        let mut seen = 0_u128;
        for (b, &count) in self.counts.iter().enumerate() {
            seen += u128::from(count);
            if seen >= rank {
                return Nanos::from_nanos(self.max[b]);
            }
        }
        Nanos::from_nanos(self.max[BUCKETS - 1])
    }

    /// Values recorded.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    pub(crate) fn clear(&mut self) {
        self.counts = [0; BUCKETS];
        self.max = [0; BUCKETS];
        self.total = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_have_exact_buckets_and_large_ones_share_the_top() {
        assert_eq!(LogHistogram::bucket(0), 0);
        assert_eq!(LogHistogram::bucket(31), 31);
        assert_eq!(LogHistogram::bucket(32), 32);
        assert_eq!(LogHistogram::bucket(63), 63);
        assert_eq!(LogHistogram::bucket(64), 64);
        assert_eq!(LogHistogram::bucket(65), 64);
        assert_eq!(LogHistogram::bucket(u64::MAX), buckets(5) - 1);
        assert_eq!(LogHistogram::bucket((1 << 36) - 1), buckets(5) - 2);
        let mut last = 0;
        for v in (0..1_u64 << 20).step_by(977) {
            let b = LogHistogram::bucket(v);
            assert!(b >= last, "buckets are monotonic");
            last = b;
        }
    }

    /// The layout spelled out: exact below `2^sub_bits`; from `2^e` (`e >=
    /// sub_bits`) on, `2^sub_bits` buckets of `2^(e - sub_bits)` values
    /// each, following the powers below; one bucket from 2³⁶ up.
    fn by_the_book(value: u64, sub_bits: u32) -> usize {
        let sub = 1_usize << sub_bits;
        if value < sub as u64 {
            return value as usize;
        }
        let exp = value.ilog2();
        if exp >= TOP_EXP {
            return buckets(sub_bits) - 1;
        }
        let mantissa = (value >> (exp - sub_bits)) as usize & (sub - 1);
        sub + (exp - sub_bits) as usize * sub + mantissa
    }

    /// Values around every power of two and a geometric sweep.
    fn probes() -> Vec<u64> {
        let mut values = Vec::new();
        for exp in 0..64 {
            let power = 1_u64 << exp;
            values.extend([
                power - 1,
                power,
                power + 1,
                power | (power >> 1),
                power | (power - 1),
            ]);
        }
        let mut value = 1_u64;
        while value < u64::MAX / 3 {
            values.push(value);
            value = value * 3 + 1;
        }
        values
    }

    #[test]
    fn every_power_of_two_splits_into_thirty_two_equal_buckets() {
        for value in probes() {
            assert_eq!(
                LogHistogram::bucket(value),
                by_the_book(value, 5),
                "{value}"
            );
        }
    }

    #[test]
    fn the_coarse_histogram_splits_every_power_of_two_into_eight() {
        assert_eq!(buckets(3), 273);
        for value in probes() {
            assert_eq!(
                CoarseHistogram::bucket(value),
                by_the_book(value, 3),
                "{value}"
            );
        }
        let mut h = CoarseHistogram::new();
        // 1,030 and 1,100 share the bucket [1,024, 1,152); 1,200 is the
        // next one's.
        for late in [1_030, 1_100, 1_200] {
            h.record(Nanos::from_nanos(late));
        }
        assert_eq!(h.percentile(500), Nanos::from_nanos(1_100));
        assert_eq!(h.percentile(1_000), Nanos::from_nanos(1_200));
    }

    #[test]
    fn a_percentile_is_the_largest_gap_in_its_bucket() {
        let mut h = LogHistogram::new();
        for _ in 0..98 {
            h.record(Nanos::from_nanos(16_666_667));
        }
        h.record(Nanos::from_millis(33));
        h.record(Nanos::from_millis(50));
        assert_eq!(h.percentile(500), Nanos::from_nanos(16_666_667));
        assert_eq!(h.percentile(980), Nanos::from_nanos(16_666_667));
        assert_eq!(h.percentile(990), Nanos::from_millis(33));
        assert_eq!(h.percentile(1_000), Nanos::from_millis(50));
    }
}

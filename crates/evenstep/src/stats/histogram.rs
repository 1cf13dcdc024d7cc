//! The percentiles: a fixed-size log-linear histogram of durations, for the
//! gaps between paints and for a runner's lateness.

use evenstep_core::Nanos;

/// Sub-buckets per power of two: percentiles are within 1/32 (3.1%) of the
/// true value, and exact when the values in a bucket are all equal.
const SUB_BITS: u32 = 5;
const SUB: usize = 1 << SUB_BITS;
/// Values of 2³⁶ ns (about 69 s) and over share the top bucket.
const TOP_EXP: u32 = 36;
/// One bucket per sub-range of each power of two below 2³⁶, and one above.
const BUCKETS: usize = SUB + (TOP_EXP - SUB_BITS) as usize * SUB + 1;

/// A fixed-size log-linear histogram of durations. Each bucket keeps its
/// count and the largest value it has seen, which is what a percentile
/// reports. It never allocates.
#[derive(Clone)]
pub(crate) struct LogHistogram {
    counts: [u64; BUCKETS],
    max: [u64; BUCKETS],
    total: u64,
}

impl LogHistogram {
    pub(crate) fn new() -> LogHistogram {
        LogHistogram {
            counts: [0; BUCKETS],
            max: [0; BUCKETS],
            total: 0,
        }
    }

    /// Values under 64 ns have a bucket each; above, the top five bits below
    /// the leading one pick one of 32 buckets of its power of two. One
    /// formula covers both: `shift` is 0 up to 63, and the value's top six
    /// bits (32 to 63) follow the buckets of the powers below.
    #[inline]
    fn bucket(value: u64) -> usize {
        let shift = (value | SUB as u64).ilog2() - SUB_BITS;
        let bucket = (u64::from(shift) << SUB_BITS) + (value >> shift);
        // At most 58 · 32 + 63: the cast is exact.
        (bucket as usize).min(BUCKETS - 1)
    }

    #[inline]
    pub(crate) fn record(&mut self, value: Nanos) {
        let value = value.as_nanos();
        let b = LogHistogram::bucket(value);
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
        assert_eq!(LogHistogram::bucket(u64::MAX), BUCKETS - 1);
        assert_eq!(LogHistogram::bucket((1 << 36) - 1), BUCKETS - 2);
        let mut last = 0;
        for v in (0..1_u64 << 20).step_by(977) {
            let b = LogHistogram::bucket(v);
            assert!(b >= last, "buckets are monotonic");
            last = b;
        }
    }

    #[test]
    fn every_power_of_two_splits_into_thirty_two_equal_buckets() {
        // The layout spelled out: exact below 32; from 2^e (e >= 5) on, 32
        // buckets of 2^(e-5) values each, following the powers below.
        fn by_the_book(value: u64) -> usize {
            if value < 32 {
                return value as usize;
            }
            let exp = value.ilog2();
            if exp >= TOP_EXP {
                return BUCKETS - 1;
            }
            let mantissa = (value >> (exp - 5)) as usize & 31;
            32 + (exp - 5) as usize * 32 + mantissa
        }
        for exp in 0..64 {
            let power = 1_u64 << exp;
            for value in [
                power - 1,
                power,
                power + 1,
                power | (power >> 1),
                power | (power - 1),
            ] {
                assert_eq!(LogHistogram::bucket(value), by_the_book(value), "{value}");
            }
        }
        let mut value = 1_u64;
        while value < u64::MAX / 3 {
            assert_eq!(LogHistogram::bucket(value), by_the_book(value), "{value}");
            value = value * 3 + 1;
        }
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

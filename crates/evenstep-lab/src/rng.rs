//! The synthetic traces' random numbers: SplitMix64, a tiny fixed generator
//! whose output is the same on every platform and every run for a given seed,
//! so a seed names a trace exactly.

/// SplitMix64 (Steele, Lea and Flood): a 64-bit state advanced by a fixed odd
/// constant and mixed by two multiply-xorshift rounds.
///
/// Not cryptographic, and not meant to be: it is fast, integer-only and
/// reproducible, which is all a jitter generator needs.
///
/// # Examples
///
/// ```
/// use evenstep_lab::SplitMix64;
///
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64()); // a seed is a sequence
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (0 when `bound` is 0), by the high half of a
    /// 64×64-bit product: no division, and a bias under `bound / 2⁶⁴`.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// A number in `-amplitude..=amplitude`, uniformly.
    pub fn symmetric(&mut self, amplitude: u64) -> i64 {
        let amplitude = i64::try_from(amplitude)
            .unwrap_or(i64::MAX)
            .min(i64::MAX / 2);
        // 0 <= amplitude < 2^62, so the span and the draw fit in an i64.
        let span = amplitude.unsigned_abs() * 2 + 1;
        i64::try_from(self.below(span)).unwrap_or(0) - amplitude
    }
}

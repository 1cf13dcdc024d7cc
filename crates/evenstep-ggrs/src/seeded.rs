//! A small seeded generator (`SplitMix64`): the same numbers from the same
//! seed on every platform, for the link's delays and losses and the sync
//! test's inputs.

/// `SplitMix64`: one `u64` of state, every output a bijective mix of it.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` at least 1), by the high bits of a
    /// multiply: unbiased enough for delays and losses.
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound.max(1))) >> 64) as u64
    }
}

//! [`StateHash`]: FNV-1a-64 over values absorbed explicitly, in order, as
//! little-endian bytes. It answers "did two runs reach the same state" with a
//! number that is the same on every platform, every build and every run.

use crate::plan::FramePlan;
use crate::speed::Speed;
use crate::timestep::Timestep;

const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// A 64-bit FNV-1a hash of values absorbed one by one.
///
/// Absorption is explicit and ordered: every integer is absorbed as its
/// little-endian bytes at its own width, floats by their bit pattern, strings
/// and byte strings with a length prefix. Nothing is absorbed implicitly, so
/// the digest changes only when the absorbed values or their order do.
///
/// It deliberately does not implement [`core::hash::Hasher`]: `#[derive(Hash)]`
/// absorbs fields in declaration order and `usize` at the platform's width, so
/// reordering two fields or changing targets would silently change every
/// digest. Random-state hashers are out for the same reason: they differ per
/// process.
///
/// # Examples
///
/// ```
/// use evenstep_core::StateHash;
///
/// let mut hash = StateHash::new();
/// hash.u32(7).f32(1.5).str("player");
/// let digest = hash.finish();
///
/// let mut again = StateHash::new();
/// again.u32(7).f32(1.5).str("player");
/// assert_eq!(again.finish(), digest);
///
/// // FNV-1a-64 test vector.
/// assert_eq!(StateHash::new().bytes(b"a").finish(), 0xaf63_dc4c_8601_ec8c);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateHash(u64);

macro_rules! absorb_int {
    ($($name:ident: $ty:ty),* $(,)?) => {$(
        #[doc = concat!("Absorbs a `", stringify!($ty), "` as its little-endian bytes.")]
        #[inline]
        pub fn $name(&mut self, value: $ty) -> &mut StateHash {
            self.bytes(&value.to_le_bytes())
        }
    )*};
}

impl StateHash {
    /// A hash with nothing absorbed (the FNV-1a offset basis).
    pub const fn new() -> StateHash {
        StateHash(OFFSET_BASIS)
    }

    /// Absorbs raw bytes, without a length prefix. Use
    /// [`byte_str`](StateHash::byte_str) for a variable-length field, so that
    /// `("ab", "c")` and `("a", "bc")` hash differently.
    #[inline]
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut StateHash {
        let mut h = self.0;
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(PRIME);
        }
        self.0 = h;
        self
    }

    /// Absorbs a length (as a `u64`) and then the bytes.
    pub fn byte_str(&mut self, bytes: &[u8]) -> &mut StateHash {
        self.u64(bytes.len() as u64).bytes(bytes)
    }

    /// Absorbs a string's UTF-8 bytes with a length prefix.
    pub fn str(&mut self, s: &str) -> &mut StateHash {
        self.byte_str(s.as_bytes())
    }

    absorb_int!(
        u8: u8, u16: u16, u32: u32, u64: u64, u128: u128,
        i8: i8, i16: i16, i32: i32, i64: i64, i128: i128,
    );

    /// Absorbs a `usize` as a `u64`, so the digest is the same on 32- and
    /// 64-bit targets.
    pub fn usize(&mut self, value: usize) -> &mut StateHash {
        self.u64(value as u64)
    }

    /// Absorbs an `isize` as an `i64`.
    pub fn isize(&mut self, value: isize) -> &mut StateHash {
        self.i64(value as i64)
    }

    /// Absorbs a `bool` as one byte, 0 or 1.
    pub fn bool(&mut self, value: bool) -> &mut StateHash {
        self.u8(u8::from(value))
    }

    /// Absorbs an `f32` by its bit pattern: `0.0` and `-0.0` differ, and each
    /// NaN payload is its own value.
    pub fn f32(&mut self, value: f32) -> &mut StateHash {
        self.u32(value.to_bits())
    }

    /// Absorbs an `f64` by its bit pattern.
    pub fn f64(&mut self, value: f64) -> &mut StateHash {
        self.u64(value.to_bits())
    }

    /// Absorbs a timestep as its exact pair of unit counts.
    pub fn timestep(&mut self, timestep: Timestep) -> &mut StateHash {
        self.u64(timestep.units_per_step())
            .u64(timestep.units_per_nanosecond())
    }

    /// Absorbs a speed as its fraction in lowest terms.
    pub fn speed(&mut self, speed: Speed) -> &mut StateHash {
        self.u16(speed.numerator()).u16(speed.denominator())
    }

    /// Absorbs every deterministic field of a plan, in a fixed order. The
    /// alpha is left out: it is a function of the remainder and the timestep,
    /// which are absorbed exactly.
    pub fn absorb_plan(&mut self, plan: &FramePlan) -> &mut StateHash {
        self.timestep(plan.timestep())
            .speed(plan.speed())
            .u64(plan.raw_delta().as_nanos())
            .u128(plan.scaled_units())
            .u64(plan.steps_due())
            .u64(plan.steps_run())
            .u64(plan.steps_queued())
            .u128(plan.dropped_units())
            .u64(plan.first_tick())
            .u64(plan.remainder_units())
            .bool(plan.clamped())
            .i128(plan.phase_shift_units())
            .bool(plan.snapped())
            .bool(plan.render())
    }

    /// The digest of everything absorbed so far. Absorbing more afterwards
    /// continues from here.
    pub const fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for StateHash {
    fn default() -> StateHash {
        StateHash::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_matches_the_published_fnv1a64_test_vectors() {
        assert_eq!(StateHash::new().finish(), 0xcbf2_9ce4_8422_2325);
        assert_eq!(StateHash::new().bytes(b"a").finish(), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(
            StateHash::new().bytes(b"foobar").finish(),
            0x8594_4171_f739_67e8
        );
    }

    #[test]
    fn integers_are_absorbed_little_endian_at_their_own_width() {
        let le = *StateHash::new().bytes(&[0x01, 0x02, 0x03, 0x04]);
        assert_eq!(StateHash::new().u32(0x0403_0201).finish(), le.finish());
        assert_ne!(
            StateHash::new().u32(1).finish(),
            StateHash::new().u64(1).finish()
        );
        assert_eq!(
            StateHash::new().usize(9).finish(),
            StateHash::new().u64(9).finish()
        );
        assert_eq!(
            StateHash::new().i16(-1).finish(),
            StateHash::new().bytes(&[0xff, 0xff]).finish()
        );
    }

    #[test]
    fn length_prefixes_separate_adjacent_strings() {
        let ab_c = StateHash::new().str("ab").str("c").finish();
        let a_bc = StateHash::new().str("a").str("bc").finish();
        assert_ne!(ab_c, a_bc);
        let raw_ab_c = StateHash::new().bytes(b"ab").bytes(b"c").finish();
        let raw_a_bc = StateHash::new().bytes(b"a").bytes(b"bc").finish();
        assert_eq!(
            raw_ab_c, raw_a_bc,
            "raw bytes carry no boundaries, by design"
        );
    }

    #[test]
    fn floats_are_absorbed_by_bits() {
        assert_ne!(
            StateHash::new().f64(0.0).finish(),
            StateHash::new().f64(-0.0).finish()
        );
        assert_eq!(
            StateHash::new().f32(1.5).finish(),
            StateHash::new().u32(1.5_f32.to_bits()).finish()
        );
        assert_ne!(
            StateHash::new().bool(true).finish(),
            StateHash::new().bool(false).finish()
        );
    }
}

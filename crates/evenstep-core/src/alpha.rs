//! The render blend factor: how far the present moment lies between the last
//! completed step and the next one. It is the only float the planner produces,
//! derived from the exact remainder and clamped into `[0, 1)` in this one place.

/// How far between two steps the present moment lies, as a fraction of a step
/// in `[0, 1)`.
///
/// Render between the previous and current simulation state with it. It is a
/// hint for drawing and never an input to simulation: the exact fraction
/// behind it, [`Alpha::ratio`], is what a deterministic consumer should read.
///
/// The float views are clamped below 1: a naive `remainder / step` in `f32`
/// can round up to exactly `1.0` (at 30 Hz, for instance), which would draw a
/// whole step ahead of the state being interpolated.
///
/// # Examples
///
/// ```
/// use evenstep_core::{Alpha, Timestep};
///
/// let half = Alpha::new(25_000_000, Timestep::HZ_60);
/// assert_eq!(half.as_f64(), 0.5);
/// assert_eq!(half.ratio(), (25_000_000, 50_000_000));
///
/// // A remainder one unit short of a whole step still stays below 1.
/// let almost = Alpha::new(u64::MAX - 1, Timestep::from_ratio(1, 3_600)?);
/// assert!(almost.as_f32() < 1.0 && almost.as_f64() < 1.0);
/// # Ok::<(), evenstep_core::TimestepError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Alpha {
    remainder: u64,
    timestep: Timestep,
}

/// The largest `f64` below 1.
const F64_BELOW_ONE: f64 = 1.0 - f64::EPSILON / 2.0;
/// The largest `f32` below 1.
const F32_BELOW_ONE: f32 = 1.0 - f32::EPSILON / 2.0;

impl Alpha {
    /// The blend factor of `remainder` accumulator units left over at
    /// `timestep`. A remainder of a whole step or more (which the planner never
    /// produces) is treated as one unit short of a step.
    pub const fn new(remainder: u64, timestep: Timestep) -> Alpha {
        let per_step = timestep.units_per_step();
        let remainder = if remainder >= per_step {
            per_step - 1
        } else {
            remainder
        };
        Alpha {
            remainder,
            timestep,
        }
    }

    /// The exact fraction, `(remainder_units, units_per_step)`, with
    /// `remainder_units < units_per_step`.
    pub const fn ratio(self) -> (u64, u64) {
        (self.remainder, self.timestep.units_per_step())
    }

    /// The blend factor as an `f64`, in `[0, 1)`.
    pub fn as_f64(self) -> f64 {
        // A product with the step's reciprocal, rounded the IEEE way, so the
        // value is the same on every platform.
        let alpha = self.remainder as f64 * self.timestep.step_recip();
        if alpha < 1.0 { alpha } else { F64_BELOW_ONE }
    }

    /// The blend factor as an `f32`, in `[0, 1)`.
    pub fn as_f32(self) -> f32 {
        // Computed in f64 and rounded once; one clamp covers both the f64
        // product reaching 1.0 and the narrowing rounding up to it.
        let alpha = (self.remainder as f64 * self.timestep.step_recip()) as f32;
        if alpha < 1.0 { alpha } else { F32_BELOW_ONE }
    }

    /// `a + (b − a) · alpha` in `f32`: the interpolated value for rendering.
    pub fn lerp_f32(self, a: f32, b: f32) -> f32 {
        a + (b - a) * self.as_f32()
    }

    /// `a + (b − a) · alpha` in `f64`: the interpolated value for rendering.
    pub fn lerp_f64(self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.as_f64()
    }
}

use crate::timestep::Timestep;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remainder_just_short_of_a_step_never_rounds_up_to_one() {
        // 30 Hz: 100,000,000 units a step (1/30 s = 33,333,333⅓ ns, Q = 3).
        let step = Timestep::HZ_30;
        let alpha = Alpha::new(step.units_per_step() - 1, step);
        assert!(alpha.as_f32() < 1.0);
        assert!(alpha.as_f64() < 1.0);
        let slow = Timestep::from_ratio(1, 3_600).unwrap();
        let alpha = Alpha::new(slow.units_per_step() - 1, slow);
        assert_eq!(alpha.as_f32(), F32_BELOW_ONE);
        assert!(alpha.as_f64() < 1.0);
    }

    #[test]
    fn a_remainder_of_a_whole_step_is_clamped_into_range() {
        let step = Timestep::HZ_60;
        assert_eq!(Alpha::new(u64::MAX, step).ratio(), (49_999_999, 50_000_000));
        assert_eq!(Alpha::new(0, step).as_f64(), 0.0);
    }

    #[test]
    fn lerp_blends_between_two_states() {
        let alpha = Alpha::new(12_500_000, Timestep::HZ_60);
        assert_eq!(alpha.lerp_f32(0.0, 8.0), 2.0);
        assert_eq!(alpha.lerp_f64(-4.0, 4.0), -2.0);
    }
}

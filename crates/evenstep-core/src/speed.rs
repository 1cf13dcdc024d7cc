//! The time scale: how many seconds of simulation one second of wall time
//! pays for. It is an exact fraction, so a replay at half speed runs the same
//! steps on every machine; `0` pauses simulation time.

use core::fmt;

use crate::ratio::gcd;

/// A rational time scale, `numerator / denominator`, from 0 (paused) to 65535.
///
/// Above 1 the planner multiplies the [`StepBudget`](crate::StepBudget) by
/// `ceil(speed)`, so a game at 4× speed is not clamped by a budget sized for
/// 1×.
///
/// # Examples
///
/// ```
/// use evenstep_core::Speed;
///
/// let half = Speed::new(1, 2)?;
/// assert_eq!(half, Speed::from_f64(0.5)?);
/// assert!(Speed::PAUSED.is_paused());
/// assert_eq!(Speed::new(3, 2)?.budget_factor(), 2);
/// assert!(Speed::from_f64(f64::NAN).is_err());
/// # Ok::<(), evenstep_core::SpeedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Speed {
    num: u16,
    den: u16,
}

impl Speed {
    /// Simulation time stands still.
    pub const PAUSED: Speed = Speed { num: 0, den: 1 };
    /// Real time: one second of simulation per second of wall time.
    pub const NORMAL: Speed = Speed { num: 1, den: 1 };
    /// Half speed.
    pub const HALF: Speed = Speed { num: 1, den: 2 };
    /// Double speed.
    pub const DOUBLE: Speed = Speed { num: 2, den: 1 };
    /// The fastest speed accepted.
    pub const MAX: Speed = Speed {
        num: u16::MAX,
        den: 1,
    };

    /// The speed `numerator / denominator`, reduced to lowest terms.
    ///
    /// # Errors
    ///
    /// [`SpeedError::ZeroDenominator`] if `denominator` is 0.
    pub const fn new(numerator: u16, denominator: u16) -> Result<Speed, SpeedError> {
        if denominator == 0 {
            return Err(SpeedError::ZeroDenominator);
        }
        if numerator == 0 {
            return Ok(Speed::PAUSED);
        }
        let g = gcd(numerator as u128, denominator as u128) as u16;
        Ok(Speed {
            num: numerator / g,
            den: denominator / g,
        })
    }

    /// The closest fraction to `speed` with a numerator and denominator of at
    /// most 65535 (a continued-fraction best approximation, so `0.5`, `0.25`,
    /// `1.5` and `1/3` come out exact).
    ///
    /// A positive speed never becomes a pause: anything in `(0, 1/65535]`,
    /// subnormals included, is the slowest positive speed, `1/65535×`.
    ///
    /// # Errors
    ///
    /// [`SpeedError::OutOfRange`] if `speed` is NaN, infinite, negative or
    /// above 65535.
    pub fn from_f64(speed: f64) -> Result<Speed, SpeedError> {
        if !speed.is_finite() || !(0.0..=f64::from(u16::MAX)).contains(&speed) {
            return Err(SpeedError::OutOfRange(speed));
        }
        // Convergents h/k of the continued fraction of `speed`, stopping
        // before either term leaves u16.
        let (mut h0, mut h1) = (0_u64, 1_u64);
        let (mut k0, mut k1) = (1_u64, 0_u64);
        let mut x = speed;
        let limit = u64::from(u16::MAX);
        // Set when a term did not fit: the fraction may not be exact, and a
        // smaller last term may come nearer than the last convergent.
        let mut cut_short = false;
        loop {
            // `x` is non-negative, so truncation is the floor (no `floor` in
            // `core`). Huge terms saturate and end the loop below.
            #[allow(clippy::cast_sign_loss, reason = "x >= 0 on every pass")]
            let a_int = x as u64;
            let a = a_int as f64;
            let h2 = a_int.saturating_mul(h1).saturating_add(h0);
            let k2 = a_int.saturating_mul(k1).saturating_add(k0);
            if h2 > limit || k2 > limit {
                cut_short = true;
                break;
            }
            (h0, h1, k0, k1) = (h1, h2, k1, k2);
            let frac = x - a;
            if frac < 1e-12 {
                break;
            }
            x = 1.0 / frac;
        }
        if k1 == 0 {
            // Only possible if the first term already overflowed, which the
            // range check excludes; fall back to the integer part.
            #[allow(clippy::cast_sign_loss, reason = "speed is in [0, 65535] here")]
            return Speed::new(speed as u16, 1);
        }
        let (mut num, mut den) = (h1, k1);
        if cut_short {
            // The largest last term that keeps both terms in u16: the best
            // approximation is this semiconvergent or the last convergent.
            let room = |top: u64, prev: u64| (limit - prev).checked_div(top).unwrap_or(u64::MAX);
            let term = room(h1, h0).min(room(k1, k0));
            if term > 0 {
                let (h, k) = (term * h1 + h0, term * k1 + k0);
                let off = |n: u64, d: u64| (n as f64 / d as f64 - speed).abs();
                if off(h, k) < off(num, den) {
                    (num, den) = (h, k);
                }
            }
        }
        if num == 0 && speed > 0.0 {
            // Nearer to 0 than to 1/65535, but a positive speed is never a
            // pause: that would stop the game while it says it is running.
            (num, den) = (1, limit);
        }
        Speed::new(num as u16, den as u16)
    }

    /// The numerator, in lowest terms.
    pub const fn numerator(self) -> u16 {
        self.num
    }

    /// The denominator, in lowest terms (1 when paused).
    pub const fn denominator(self) -> u16 {
        self.den
    }

    /// Whether simulation time stands still.
    pub const fn is_paused(self) -> bool {
        self.num == 0
    }

    /// `ceil(speed)`, at least 1: the factor the step budget is multiplied by.
    pub const fn budget_factor(self) -> u32 {
        if self.num <= self.den {
            1
        } else {
            (self.num as u32).div_ceil(self.den as u32)
        }
    }

    /// The speed as an `f64` (a view for display).
    pub fn as_f64(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }
}

impl Default for Speed {
    /// [`Speed::NORMAL`].
    fn default() -> Speed {
        Speed::NORMAL
    }
}

impl fmt::Display for Speed {
    /// `1×`, `3/2×`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}×", self.num)
        } else {
            write!(f, "{}/{}×", self.num, self.den)
        }
    }
}

/// Why a [`Speed`] could not be built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpeedError {
    /// The fraction's denominator was 0.
    ZeroDenominator,
    /// The value was NaN, infinite, negative or above 65535.
    OutOfRange(f64),
}

impl fmt::Display for SpeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const RANGE: &str = "a speed must be a finite number from 0 (paused) to 65535";
        match *self {
            SpeedError::ZeroDenominator => write!(f, "the speed's denominator is 0; {RANGE}"),
            // `{:?}` writes 1e300 as `1e300`, not as 301 digits.
            SpeedError::OutOfRange(speed) => write!(f, "the speed is {speed:?}; {RANGE}"),
        }
    }
}

impl core::error::Error for SpeedError {}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::ToString;

    use super::*;

    #[test]
    fn speeds_are_reduced_and_zero_is_paused() {
        assert_eq!(Speed::new(4, 8).unwrap(), Speed::HALF);
        assert_eq!(Speed::new(0, 7).unwrap(), Speed::PAUSED);
        assert_eq!(Speed::new(6, 3).unwrap(), Speed::DOUBLE);
    }

    #[test]
    fn floats_become_their_best_small_fraction() {
        assert_eq!(Speed::from_f64(1.0).unwrap(), Speed::NORMAL);
        assert_eq!(Speed::from_f64(0.0).unwrap(), Speed::PAUSED);
        assert_eq!(Speed::from_f64(0.25).unwrap(), Speed::new(1, 4).unwrap());
        assert_eq!(
            Speed::from_f64(1.0 / 3.0).unwrap(),
            Speed::new(1, 3).unwrap()
        );
        assert_eq!(Speed::from_f64(1.5).unwrap(), Speed::new(3, 2).unwrap());
        assert_eq!(Speed::from_f64(65_535.0).unwrap(), Speed::MAX);
        assert_eq!(Speed::from_f64(0.1).unwrap(), Speed::new(1, 10).unwrap());
    }

    #[test]
    fn bad_speeds_are_refused_with_the_valid_range() {
        for bad in [f64::NAN, f64::INFINITY, -0.5, 65_536.0] {
            let err = Speed::from_f64(bad).unwrap_err();
            assert!(
                err.to_string().contains("from 0 (paused) to 65535"),
                "{err}"
            );
        }
        assert_eq!(Speed::new(1, 0), Err(SpeedError::ZeroDenominator));
    }

    #[test]
    fn the_budget_factor_is_the_ceiling_of_the_speed_above_one() {
        assert_eq!(Speed::PAUSED.budget_factor(), 1);
        assert_eq!(Speed::HALF.budget_factor(), 1);
        assert_eq!(Speed::NORMAL.budget_factor(), 1);
        assert_eq!(Speed::new(5, 4).unwrap().budget_factor(), 2);
        assert_eq!(Speed::new(4, 1).unwrap().budget_factor(), 4);
        assert_eq!(Speed::MAX.budget_factor(), 65_535);
    }
}

//! The fixed step as an exact rational rate. A [`Timestep`] of 60 Hz is exactly
//! one sixtieth of a second, not 16,666,667 ns: the planner counts time in
//! *units* chosen so that both one nanosecond and one step are whole numbers of
//! them, so sixty 60 Hz steps consume exactly one second of wall time and the
//! simulation never drifts against the clock.

use core::fmt;
use core::time::Duration;

use crate::rate::{Rate, RateError};
use crate::ratio::gcd;
use crate::time::{NANOS_PER_SEC, Nanos};

/// The longest step accepted: one hour, in nanoseconds.
const MAX_STEP_NANOS: u64 = 3_600 * NANOS_PER_SEC;

/// The length of one fixed simulation step, held as an exact rational number
/// of nanoseconds.
///
/// Internally one step is [`units_per_step`](Timestep::units_per_step) units
/// and one nanosecond is [`units_per_nanosecond`](Timestep::units_per_nanosecond)
/// units, both integers in lowest terms. For 60 Hz that is 50,000,000 units a
/// step and 3 units a nanosecond: a step is exactly 16,666,666⅔ ns.
///
/// Valid steps last from 1 ns to 1 hour (rates from 1/3600 Hz to 10⁹ Hz).
///
/// # Examples
///
/// ```
/// use core::time::Duration;
/// use evenstep_core::{Nanos, Timestep};
///
/// let step = Timestep::from_hz(60)?;
/// assert_eq!(step, Timestep::HZ_60);
/// // Exactly one second in sixty steps: no 20 ns drift.
/// assert_eq!(step.sim_time(60), Nanos::from_secs(1));
/// assert_eq!(step.rate().to_string(), "60 Hz");
///
/// let ntsc = Timestep::from_ratio(60_000, 1_001)?; // 59.94 Hz
/// assert_eq!(ntsc.sim_time(60_000), Nanos::from_secs(1_001));
/// assert_eq!(Timestep::from_rate(ntsc.rate())?, ntsc);
///
/// let tick = Timestep::from_duration(Duration::from_millis(50))?; // 20 Hz
/// assert_eq!(tick, Timestep::from_hz(20)?);
/// # Ok::<(), evenstep_core::TimestepError>(())
/// ```
#[derive(Clone, Copy)]
pub struct Timestep {
    /// Accumulator units in one step (`P`).
    per_step: u64,
    /// Accumulator units in one nanosecond (`Q`).
    per_nano: u64,
    /// `P / (Q · 10⁹)`: the one division, done once at construction.
    dt_secs: f64,
    /// `1 / P`, also found once, so that a blend factor is a product.
    recip: f64,
}

impl Timestep {
    /// 10 steps a second (a slow server tick).
    pub const HZ_10: Timestep = Timestep::must(10, 1);
    /// 15 steps a second.
    pub const HZ_15: Timestep = Timestep::must(15, 1);
    /// 20 steps a second (a common server tick).
    pub const HZ_20: Timestep = Timestep::must(20, 1);
    /// 24 steps a second.
    pub const HZ_24: Timestep = Timestep::must(24, 1);
    /// 25 steps a second.
    pub const HZ_25: Timestep = Timestep::must(25, 1);
    /// 30 steps a second.
    pub const HZ_30: Timestep = Timestep::must(30, 1);
    /// 50 steps a second.
    pub const HZ_50: Timestep = Timestep::must(50, 1);
    /// 30000/1001 steps a second (29.97 Hz, NTSC).
    pub const HZ_29_97: Timestep = Timestep::must(30_000, 1_001);
    /// 60000/1001 steps a second (59.94 Hz, NTSC).
    pub const HZ_59_94: Timestep = Timestep::must(60_000, 1_001);
    /// 60 steps a second.
    pub const HZ_60: Timestep = Timestep::must(60, 1);
    /// 64 steps a second (a power of two: every step is an exact binary
    /// fraction of a second).
    pub const HZ_64: Timestep = Timestep::must(64, 1);
    /// 90 steps a second.
    pub const HZ_90: Timestep = Timestep::must(90, 1);
    /// 100 steps a second.
    pub const HZ_100: Timestep = Timestep::must(100, 1);
    /// 120 steps a second.
    pub const HZ_120: Timestep = Timestep::must(120, 1);
    /// 128 steps a second.
    pub const HZ_128: Timestep = Timestep::must(128, 1);
    /// 144 steps a second.
    pub const HZ_144: Timestep = Timestep::must(144, 1);
    /// 240 steps a second.
    pub const HZ_240: Timestep = Timestep::must(240, 1);

    /// Const constructor for the associated constants: a bad constant fails
    /// the build, never a run.
    const fn must(steps: u32, per_seconds: u32) -> Timestep {
        match Timestep::from_ratio(steps, per_seconds) {
            Ok(step) => step,
            Err(_) => panic!("invalid built-in timestep"),
        }
    }

    /// `hz` steps a second.
    ///
    /// # Errors
    ///
    /// [`TimestepError::ZeroRate`] for `0`, and
    /// [`TimestepError::OutOfRange`] above 10⁹ Hz (a step under 1 ns).
    pub const fn from_hz(hz: u32) -> Result<Timestep, TimestepError> {
        Timestep::from_ratio(hz, 1)
    }

    /// `steps` steps every `per_seconds` seconds: `from_ratio(60_000, 1_001)`
    /// is 59.94 Hz, exactly.
    ///
    /// # Errors
    ///
    /// [`TimestepError::ZeroRate`] if `steps` is 0,
    /// [`TimestepError::ZeroDenominator`] if `per_seconds` is 0, and
    /// [`TimestepError::OutOfRange`] if one step would last under 1 ns or over
    /// one hour.
    pub const fn from_ratio(steps: u32, per_seconds: u32) -> Result<Timestep, TimestepError> {
        match Rate::ratio(steps as u64, per_seconds as u64) {
            Ok(rate) => Timestep::from_rate(rate),
            Err(RateError::ZeroEvents) => Err(TimestepError::ZeroRate),
            Err(RateError::ZeroSeconds) => Err(TimestepError::ZeroDenominator),
        }
    }

    /// One step per event of `rate`: the general form of
    /// [`from_hz`](Timestep::from_hz) and
    /// [`from_ratio`](Timestep::from_ratio).
    ///
    /// # Errors
    ///
    /// [`TimestepError::OutOfRange`] if one step would last under 1 ns or
    /// over one hour, or, for a rate whose terms exceed 32 bits, if the step
    /// in nanoseconds has a denominator above `u32::MAX` in lowest terms
    /// (the accumulator's arithmetic is sized for one that fits 32 bits).
    pub const fn from_rate(rate: Rate) -> Result<Timestep, TimestepError> {
        // One step lasts per_seconds · 10⁹ / events nanoseconds: under 2⁹⁴.
        let step_nanos_num = rate.per_seconds().get() as u128 * NANOS_PER_SEC as u128;
        let step_nanos_den = rate.events().get() as u128;
        Timestep::from_nanos_ratio(step_nanos_num, step_nanos_den)
    }

    /// A step of exactly `step` (whole nanoseconds).
    ///
    /// # Errors
    ///
    /// [`TimestepError::OutOfRange`] if `step` is shorter than 1 ns (zero,
    /// since sub-nanosecond durations round to zero here) or longer than one
    /// hour.
    pub const fn from_duration(step: Duration) -> Result<Timestep, TimestepError> {
        let nanos = step.as_nanos();
        if nanos == 0 || nanos > MAX_STEP_NANOS as u128 {
            return Err(TimestepError::OutOfRange {
                step_nanos: nanos,
                step_nanos_den: 1,
            });
        }
        Timestep::from_nanos_ratio(nanos, 1)
    }

    /// A step of exactly `step_nanos / per` nanoseconds: the inverse of
    /// [`units_per_step`](Timestep::units_per_step) and
    /// [`units_per_nanosecond`](Timestep::units_per_nanosecond), for reading
    /// a timestep back from a file.
    ///
    /// # Errors
    ///
    /// [`TimestepError::ZeroDenominator`] if `per` is 0, and
    /// [`TimestepError::OutOfRange`] if one step would last under 1 ns or over
    /// one hour.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::Timestep;
    ///
    /// let step = Timestep::HZ_59_94;
    /// let read_back = Timestep::from_step_ratio(step.units_per_step(), step.units_per_nanosecond())?;
    /// assert_eq!(read_back, step);
    /// # Ok::<(), evenstep_core::TimestepError>(())
    /// ```
    pub const fn from_step_ratio(step_nanos: u64, per: u64) -> Result<Timestep, TimestepError> {
        if per == 0 {
            return Err(TimestepError::ZeroDenominator);
        }
        if per > u32::MAX as u64 {
            // The accumulator's arithmetic is sized for a denominator that
            // fits 32 bits; reduce first.
            let g = gcd(step_nanos as u128, per as u128) as u64;
            if per / g > u32::MAX as u64 {
                return Err(TimestepError::OutOfRange {
                    step_nanos: step_nanos as u128,
                    step_nanos_den: per as u128,
                });
            }
        }
        Timestep::from_nanos_ratio(step_nanos as u128, per as u128)
    }

    /// A step of `num / den` nanoseconds, reduced to lowest terms.
    const fn from_nanos_ratio(num: u128, den: u128) -> Result<Timestep, TimestepError> {
        // 1 ns <= num/den <= 1 h, compared without division. den < 2⁶⁴, so the
        // product fits in u128 with room to spare.
        let g = gcd(num, den);
        // A step of 2⁶³ units or more would leave no headroom in the
        // accumulator's 64-bit paths (and in the signed blend factor), and
        // its arithmetic is sized for a denominator that fits 32 bits.
        if num < den
            || num > MAX_STEP_NANOS as u128 * den
            || num / g > i64::MAX as u128
            || den / g > u32::MAX as u128
        {
            return Err(TimestepError::OutOfRange {
                step_nanos: num / g,
                step_nanos_den: den / g,
            });
        }
        let per_step = (num / g) as u64;
        let per_nano = (den / g) as u64;
        Ok(Timestep {
            per_step,
            per_nano,
            dt_secs: per_step as f64 / (per_nano as f64 * NANOS_PER_SEC as f64),
            recip: 1.0 / per_step as f64,
        })
    }

    /// Accumulator units in one step. Together with
    /// [`units_per_nanosecond`](Timestep::units_per_nanosecond) this is the
    /// exact step length: `units_per_step / units_per_nanosecond` nanoseconds.
    pub const fn units_per_step(self) -> u64 {
        self.per_step
    }

    /// Accumulator units in one nanosecond: the denominator of the step length
    /// in nanoseconds, in lowest terms. `1` when the step is a whole number of
    /// nanoseconds.
    pub const fn units_per_nanosecond(self) -> u64 {
        self.per_nano
    }

    /// The rate in steps a second, exactly: the inverse of
    /// [`from_rate`](Timestep::from_rate).
    pub const fn rate(self) -> Rate {
        // steps per second = Q · 10⁹ / P. Q < 2³², so Q · 10⁹ fits in u64,
        // and neither term is zero.
        Rate::lowest(self.per_nano * NANOS_PER_SEC, self.per_step)
    }

    /// The step length in seconds as an `f64`: the value every update
    /// receives as `dt`. Computed once, at construction.
    pub const fn dt_secs_f64(self) -> f64 {
        self.dt_secs
    }

    /// The step length in seconds as an `f32`.
    pub const fn dt_secs_f32(self) -> f32 {
        self.dt_secs as f32
    }

    /// The step length rounded down to whole nanoseconds. A view for display
    /// and for APIs that take a `Duration`; the planner never uses it.
    pub const fn dt_nanos_floor(self) -> Nanos {
        Nanos::from_nanos(self.per_step / self.per_nano)
    }

    /// `1 / units_per_step`: a remainder times this is the blend factor.
    pub(crate) const fn step_recip(self) -> f64 {
        self.recip
    }

    /// Whether one step is a whole number of nanoseconds.
    pub const fn is_whole_nanos(self) -> bool {
        self.per_nano == 1
    }

    /// The simulation time after `ticks` steps, `ticks · dt`, computed exactly
    /// and rounded down to the nanosecond (saturating at [`Nanos::MAX`]).
    /// Never summed, so it never accumulates rounding error.
    pub const fn sim_time(self, ticks: u64) -> Nanos {
        let units = ticks as u128 * self.per_step as u128;
        let nanos = units / self.per_nano as u128;
        if nanos > u64::MAX as u128 {
            Nanos::MAX
        } else {
            Nanos::from_nanos(nanos as u64)
        }
    }

    /// How many whole steps fit in `span`.
    pub const fn steps_in(self, span: Nanos) -> u64 {
        // span · Q / P <= span, so it fits in u64.
        (span.as_nanos() as u128 * self.per_nano as u128 / self.per_step as u128) as u64
    }

    /// `units` accumulator units, rounded down to whole nanoseconds and
    /// saturating at [`Nanos::MAX`].
    pub const fn units_to_nanos(self, units: u128) -> Nanos {
        let nanos = units / self.per_nano as u128;
        if nanos > u64::MAX as u128 {
            Nanos::MAX
        } else {
            Nanos::from_nanos(nanos as u64)
        }
    }

    /// `span` in accumulator units (exact).
    pub const fn nanos_to_units(self, span: Nanos) -> u128 {
        span.as_nanos() as u128 * self.per_nano as u128
    }
}

impl PartialEq for Timestep {
    fn eq(&self, other: &Timestep) -> bool {
        // Lowest terms make the pair canonical; the float follows from it.
        self.per_step == other.per_step && self.per_nano == other.per_nano
    }
}

impl Eq for Timestep {}

impl core::hash::Hash for Timestep {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.per_step.hash(state);
        self.per_nano.hash(state);
    }
}

impl Default for Timestep {
    /// 60 Hz.
    fn default() -> Timestep {
        Timestep::HZ_60
    }
}

impl fmt::Debug for Timestep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Timestep({self})")
    }
}

impl fmt::Display for Timestep {
    /// `60 Hz`, or `60000/1001 Hz` for a rate that is not a whole number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.rate(), f)
    }
}

/// Why a [`Timestep`] could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimestepError {
    /// The rate was 0 steps a second.
    ZeroRate,
    /// The rate's denominator (seconds) was 0.
    ZeroDenominator,
    /// One step would last under 1 ns or over one hour, or (for a step
    /// given as a ratio of large terms) its length in nanoseconds has a
    /// denominator above `u32::MAX` in lowest terms. The step that was asked
    /// for lasts `step_nanos / step_nanos_den` nanoseconds.
    OutOfRange {
        /// Numerator of the requested step length in nanoseconds.
        step_nanos: u128,
        /// Denominator of the requested step length in nanoseconds.
        step_nanos_den: u128,
    },
}

impl fmt::Display for TimestepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const RANGE: &str = "a fixed step must last from 1 ns to 1 hour \
                             (rates from 1/3600 Hz to 1000000000 Hz)";
        match *self {
            TimestepError::ZeroRate => write!(f, "the step rate is 0 Hz; {RANGE}"),
            TimestepError::ZeroDenominator => {
                write!(f, "the step rate's denominator is 0 seconds; {RANGE}")
            }
            TimestepError::OutOfRange {
                step_nanos,
                step_nanos_den,
            } => {
                let whole = step_nanos / step_nanos_den;
                if step_nanos % step_nanos_den == 0 {
                    write!(f, "the requested step lasts {whole} ns; {RANGE}")
                } else {
                    write!(
                        f,
                        "the requested step lasts {step_nanos}/{step_nanos_den} ns; {RANGE}"
                    )
                }
            }
        }
    }
}

impl core::error::Error for TimestepError {}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::ToString;

    use super::*;

    #[test]
    fn sixty_hz_steps_are_exactly_a_sixtieth_of_a_second() {
        let step = Timestep::HZ_60;
        assert_eq!(step.units_per_step(), 50_000_000);
        assert_eq!(step.units_per_nanosecond(), 3);
        assert_eq!(step.sim_time(60), Nanos::from_secs(1));
        assert_eq!(step.sim_time(1), Nanos::from_nanos(16_666_666));
        assert_eq!(step.dt_nanos_floor(), Nanos::from_nanos(16_666_666));
        assert_eq!(step.steps_in(Nanos::from_secs(1)), 60);
        assert_eq!(step.steps_in(Nanos::from_nanos(16_666_666)), 0);
        assert_eq!(step.steps_in(Nanos::from_nanos(16_666_667)), 1);
        assert!((step.dt_secs_f64() - 1.0 / 60.0).abs() < 1e-18);
        assert!(!step.is_whole_nanos());
    }

    #[test]
    fn rates_are_reduced_to_lowest_terms_so_equal_rates_compare_equal() {
        assert_eq!(Timestep::from_ratio(120, 2).unwrap(), Timestep::HZ_60);
        assert_eq!(
            Timestep::from_duration(Duration::from_millis(20)).unwrap(),
            Timestep::HZ_50
        );
        assert_eq!(
            Timestep::HZ_59_94.rate(),
            Rate::ratio(60_000, 1_001).unwrap()
        );
        assert_eq!(Timestep::HZ_59_94.to_string(), "60000/1001 Hz");
        assert_eq!(Timestep::HZ_144.to_string(), "144 Hz");
    }

    #[test]
    fn a_timestep_made_from_its_own_rate_is_the_same_timestep() {
        let ntsc = Rate::ratio(60_000, 1_001).unwrap();
        assert_eq!(Timestep::from_rate(ntsc).unwrap(), Timestep::HZ_59_94);
        for step in [
            Timestep::HZ_60,
            Timestep::HZ_29_97,
            Timestep::from_hz(1_000_000_000).unwrap(),
            Timestep::from_ratio(1, 3_600).unwrap(),
            // A step of 10,000,000,019/7 ns: a rate whose terms exceed 32 bits.
            Timestep::from_step_ratio(10_000_000_019, 7).unwrap(),
        ] {
            assert_eq!(Timestep::from_rate(step.rate()), Ok(step), "{step}");
        }
        assert_eq!(
            Timestep::from_step_ratio(10_000_000_019, 7)
                .unwrap()
                .rate()
                .to_string(),
            "7000000000/10000000019 Hz"
        );
    }

    #[test]
    fn a_rate_outside_the_steps_range_is_refused_with_the_step_it_asked_for() {
        let out =
            |events, per_seconds| Timestep::from_rate(Rate::ratio(events, per_seconds).unwrap());
        assert_eq!(
            out(u64::MAX, 1),
            Err(TimestepError::OutOfRange {
                // 10⁹ / (2⁶⁴ − 1) ns, in lowest terms (5 divides both).
                step_nanos: 200_000_000,
                step_nanos_den: u128::from(u64::MAX / 5),
            })
        );
        assert_eq!(
            out(1, 3_601),
            Err(TimestepError::OutOfRange {
                step_nanos: 3_601_000_000_000,
                step_nanos_den: 1,
            })
        );
        // About 2 ns, but over a denominator the accumulator cannot hold.
        assert_eq!(
            out(5_000_000_003, 10),
            Err(TimestepError::OutOfRange {
                step_nanos: 10_000_000_000,
                step_nanos_den: 5_000_000_003,
            })
        );
    }

    #[test]
    fn the_extremes_of_the_valid_range_are_accepted() {
        let fastest = Timestep::from_hz(1_000_000_000).unwrap();
        assert!(fastest.is_whole_nanos());
        assert_eq!(fastest.dt_nanos_floor(), Nanos::from_nanos(1));
        let slowest = Timestep::from_ratio(1, 3_600).unwrap();
        assert_eq!(slowest.dt_nanos_floor(), Nanos::from_secs(3_600));
        let slowest = Timestep::from_duration(Duration::from_secs(3_600)).unwrap();
        assert_eq!(slowest.sim_time(u64::MAX), Nanos::MAX);
    }

    #[test]
    fn bad_rates_are_refused_with_the_valid_range_in_the_message() {
        assert_eq!(Timestep::from_hz(0), Err(TimestepError::ZeroRate));
        assert_eq!(
            Timestep::from_ratio(1, 0),
            Err(TimestepError::ZeroDenominator)
        );
        let too_fast = Timestep::from_hz(2_000_000_000).unwrap_err();
        assert_eq!(
            too_fast.to_string(),
            "the requested step lasts 1/2 ns; a fixed step must last from 1 ns to 1 hour \
             (rates from 1/3600 Hz to 1000000000 Hz)"
        );
        let too_slow = Timestep::from_ratio(1, 3_601).unwrap_err();
        assert!(
            too_slow.to_string().contains("3601000000000 ns"),
            "{too_slow}"
        );
        let zero = Timestep::from_duration(Duration::from_nanos(0)).unwrap_err();
        assert!(
            zero.to_string()
                .starts_with("the requested step lasts 0 ns")
        );
        assert!(Timestep::from_duration(Duration::from_secs(3_601)).is_err());
        assert!(
            Timestep::from_hz(0)
                .unwrap_err()
                .to_string()
                .contains("1 ns to 1 hour")
        );
    }
}

//! Rates in hertz as exact fractions: a 59.94 Hz display is 60000/1001 Hz,
//! so its refresh `k` lands at exactly `k · 1001/60000` s and nothing drifts
//! by rounding a period to whole nanoseconds.

use core::fmt;
use core::str::FromStr;

use crate::decimal;

const NANOS_PER_SEC: u128 = 1_000_000_000;

/// The fastest rate accepted, in hertz.
const MAX_HZ: u64 = 1_000_000;

/// The largest numerator or denominator of a rate in lowest terms: so the
/// slowest rate is `1/4294967295` Hz, a tick every 136 years.
const MAX_TERM: u64 = u32::MAX as u64;

/// A rate in hertz, `numerator / denominator` in lowest terms.
///
/// Parsed from `60`, `59.94` (a broadcast-style rate: read as 60000/1001, as
/// are 23.976, 29.97 and 119.88), any other decimal exactly (`143.5` is
/// 287/2), or `N/D`.
///
/// # Examples
///
/// ```
/// use evenstep_lab::Rate;
///
/// let ntsc: Rate = "59.94".parse()?;
/// assert_eq!((ntsc.numerator(), ntsc.denominator()), (60_000, 1_001));
/// assert_eq!(ntsc.refresh_at(1_000), 16_683_333_333); // exactly 1001/60 s
/// assert_eq!("120/1".parse::<Rate>()?, Rate::hz(120)?);
/// assert!("0".parse::<Rate>().is_err());
/// # Ok::<(), evenstep_lab::RateError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rate {
    num: u64,
    den: u64,
}

impl Rate {
    /// `hz` hertz.
    ///
    /// # Errors
    ///
    /// [`RateError`] for 0 or above 1 MHz.
    pub fn hz(hz: u32) -> Result<Rate, RateError> {
        Rate::ratio(u64::from(hz), 1)
    }

    /// `numerator / denominator` hertz, reduced to lowest terms.
    ///
    /// # Errors
    ///
    /// [`RateError`] unless the rate is positive and at most 1 MHz, with a
    /// reduced numerator and denominator that each fit in a `u32` (so at
    /// least `1/4294967295` Hz).
    pub fn ratio(numerator: u64, denominator: u64) -> Result<Rate, RateError> {
        Rate::reduced(numerator, denominator).map_err(|why| RateError {
            text: format!("{numerator}/{denominator}"),
            why,
        })
    }

    fn reduced(numerator: u64, denominator: u64) -> Result<Rate, Why> {
        if numerator == 0 || denominator == 0 {
            return Err(Why::NotPositive);
        }
        // Both terms are non-zero, so their divisor is too, and fits u64.
        let g = gcd(u128::from(numerator), u128::from(denominator)) as u64;
        let (num, den) = (numerator / g, denominator / g);
        if num > MAX_HZ.saturating_mul(den) {
            return Err(Why::TooFast);
        }
        if num > MAX_TERM || den > MAX_TERM {
            return Err(Why::Terms { num, den });
        }
        Ok(Rate { num, den })
    }

    /// The numerator, in lowest terms.
    pub const fn numerator(self) -> u64 {
        self.num
    }

    /// The denominator, in lowest terms.
    pub const fn denominator(self) -> u64 {
        self.den
    }

    /// The rate in hertz as an `f64` (for display).
    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// One period, rounded to the nearest nanosecond.
    pub fn period_nanos(self) -> u64 {
        let num = NANOS_PER_SEC * u128::from(self.den);
        let den = u128::from(self.num);
        saturate((num + den / 2) / den)
    }

    /// The time of tick `k` after tick 0, `k / rate` seconds, rounded down to
    /// the nanosecond. Exact: never a sum of rounded periods.
    pub fn refresh_at(self, k: u64) -> u64 {
        saturate(u128::from(k) * NANOS_PER_SEC * u128::from(self.den) / u128::from(self.num))
    }

    /// The first tick at or after `nanos` from tick 0.
    pub fn first_tick_at_or_after(self, nanos: u64) -> u64 {
        let num = u128::from(nanos) * u128::from(self.num);
        let den = NANOS_PER_SEC * u128::from(self.den);
        saturate(num.div_ceil(den))
    }

    /// How many periods `nanos` is, rounded to the nearest whole number.
    pub fn periods_in(self, nanos: u64) -> u64 {
        let num = u128::from(nanos) * u128::from(self.num);
        let den = NANOS_PER_SEC * u128::from(self.den);
        saturate((2 * num + den) / (2 * den))
    }

    /// How many periods `nanos` is, as an exact fraction
    /// `(numerator, denominator)`.
    pub fn periods_in_exact(self, nanos: u64) -> (u128, u128) {
        (
            u128::from(nanos) * u128::from(self.num),
            NANOS_PER_SEC * u128::from(self.den),
        )
    }

    /// The exact form, `N/D` (or `N` for a whole number of hertz).
    pub fn exact(self) -> String {
        if self.den == 1 {
            self.num.to_string()
        } else {
            format!("{}/{}", self.num, self.den)
        }
    }
}

impl fmt::Display for Rate {
    /// Hertz, rounded to three decimals with trailing zeros trimmed:
    /// `60 Hz`, `59.94 Hz`, `143.5 Hz`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            return write!(f, "{} Hz", self.num);
        }
        let text = format!("{:.3}", self.as_f64());
        let text = text.trim_end_matches('0').trim_end_matches('.');
        write!(f, "{text} Hz")
    }
}

impl FromStr for Rate {
    type Err = RateError;

    fn from_str(text: &str) -> Result<Rate, RateError> {
        let refuse = |why| RateError {
            text: crate::capture::clipped(text),
            why,
        };
        let trimmed = text.trim();
        let trimmed = trimmed
            .strip_suffix("Hz")
            .or_else(|| trimmed.strip_suffix("hz"))
            .unwrap_or(trimmed)
            .trim();
        if let Some((num, den)) = trimmed.split_once('/') {
            let num = num.trim().parse().map_err(|_| refuse(Why::NotARate))?;
            let den = den.trim().parse().map_err(|_| refuse(Why::NotARate))?;
            return Rate::reduced(num, den).map_err(refuse);
        }
        let (num, den) = decimal::parse_fraction(trimmed).ok_or_else(|| {
            // Plain digits that a u64 does not hold are a decimal too fine.
            let plain = trimmed.bytes().filter(|&b| b == b'.').count() <= 1
                && trimmed.bytes().any(|b| b.is_ascii_digit())
                && trimmed.bytes().all(|b| b.is_ascii_digit() || b == b'.');
            refuse(if plain { Why::TooFine } else { Why::NotARate })
        })?;
        let rate = Rate::reduced(num, den).map_err(refuse)?;
        Ok(broadcast_rate(rate).unwrap_or(rate))
    }
}

/// The `k · 1000/1001` Hz rate a decimal such as `59.94` or `23.976` stands
/// for, when it has a fractional part and is within 0.006 Hz of one.
fn broadcast_rate(rate: Rate) -> Option<Rate> {
    if rate.den == 1 {
        return None;
    }
    let k = (rate.as_f64() * 1.001).round();
    if k < 1.0 || k > MAX_HZ as f64 {
        return None;
    }
    // k is a positive whole number under 2^20: the cast is exact.
    #[allow(clippy::cast_sign_loss, reason = "k >= 1")]
    let k = k as u64;
    let candidate = Rate::ratio(k * 1_000, 1_001).ok()?;
    ((candidate.as_f64() - rate.as_f64()).abs() < 0.006).then_some(candidate)
}

/// A rate that is not a positive number of hertz up to 1 MHz whose
/// numerator and denominator in lowest terms each fit in a `u32`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateError {
    text: String,
    why: Why,
}

/// Which limit a refused rate breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    /// Not a number or fraction at all.
    NotARate,
    /// Zero, or a zero denominator.
    NotPositive,
    /// Over 1 MHz.
    TooFast,
    /// In lowest terms, a numerator or denominator over `u32::MAX`.
    Terms { num: u64, den: u64 },
    /// A decimal with more digits than a `u64` holds.
    TooFine,
}

impl fmt::Display for RateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a rate of `{}`", self.text)?;
        match self.why {
            Why::NotARate | Why::NotPositive => {}
            Why::TooFast => f.write_str(", over 1 MHz")?,
            Why::Terms { num, den } => write!(
                f,
                ", {num}/{den} Hz in lowest terms, whose numerator and denominator must \
                 each be at most {MAX_TERM}"
            )?,
            Why::TooFine => write!(f, ", with more digits than a rate holds")?,
        }
        write!(
            f,
            "; expected hertz from 1/{MAX_TERM} Hz to 1 MHz, N/D in lowest terms with N and D \
             each at most {MAX_TERM}: a whole number (60), a decimal (143.5; 59.94, 29.97, \
             119.88 and 23.976 mean k·1000/1001) or a fraction N/D (60000/1001)"
        )
    }
}

impl std::error::Error for RateError {}

/// The greatest common divisor of `a` and `b`, by Euclid's algorithm
/// (`gcd(0, b)` is `b`): the lab's one reduction of a fraction to lowest
/// terms, for rates and the ratios between them.
pub(crate) const fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn saturate(value: u128) -> u64 {
    u64::try_from(value).unwrap_or(u64::MAX)
}

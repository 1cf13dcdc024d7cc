//! Easing curves: one table, the single source of every curve a tween can
//! use, each built from `+ − × ÷` and comparisons only.
//!
//! No `sin`, `cos`, `powf`, `exp` or `sqrt`: the standard library does not
//! promise those are correctly rounded, so their last bits may differ between
//! platforms and library versions. A tween drives a position, a position ends
//! up in a save and a replay, and a replay must come out bit-identical on
//! every machine. The four basic IEEE operations are correctly rounded
//! everywhere, so every curve here is. That rules out the sine, exponential,
//! circular and elastic families; everything a polynomial or a piecewise
//! polynomial can do is here.

use std::fmt;

/// An easing curve: maps progress `t` in `[0, 1]` to eased progress, with
/// `ease(0) == 0` and `ease(1) == 1` exactly.
///
/// Names, for data files and serde, come in camelCase (`"cubicOut"`) and
/// `snake_case` (`"cubic_out"`); [`Ease::from_name`] takes either, and an
/// unknown name is an error that lists every valid one.
///
/// # Examples
///
/// ```
/// use evenstep::Ease;
///
/// assert_eq!(Ease::CubicOut.apply(0.5), 0.875);
/// assert_eq!(Ease::from_name("cubicOut")?, Ease::CubicOut);
/// assert_eq!(Ease::from_name("cubic_out")?, Ease::CubicOut);
/// assert!(Ease::from_name("sineIn").unwrap_err().to_string().contains("cubicOut"));
/// # Ok::<(), evenstep::UnknownEase>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ease {
    /// Constant speed.
    Linear,
    /// `3t² − 2t³`: eases in and out, zero slope at both ends.
    SmoothStep,
    /// `6t⁵ − 15t⁴ + 10t³`: zero slope and curvature at both ends.
    SmootherStep,
    /// `t²`.
    QuadIn,
    /// `1 − (1 − t)²`.
    QuadOut,
    /// Quadratic in, then out.
    QuadInOut,
    /// `t³`.
    CubicIn,
    /// `1 − (1 − t)³`.
    CubicOut,
    /// Cubic in, then out.
    CubicInOut,
    /// `t⁴`.
    QuartIn,
    /// `1 − (1 − t)⁴`.
    QuartOut,
    /// Quartic in, then out.
    QuartInOut,
    /// `t⁵`.
    QuintIn,
    /// `1 − (1 − t)⁵`.
    QuintOut,
    /// Quintic in, then out.
    QuintInOut,
    /// Pulls back a little before going: overshoots below 0 early on.
    BackIn,
    /// Overshoots past 1, then settles.
    BackOut,
    /// Pulls back, then overshoots, then settles.
    BackInOut,
    /// Bounces at the start.
    BounceIn,
    /// Bounces at the end, like a dropped ball.
    BounceOut,
    /// Bounces at both ends.
    BounceInOut,
}

/// The overshoot of the back curves (about 10%).
const BACK: f64 = 1.701_58;
/// The overshoot of the in-out back curve, scaled for its half-length.
const BACK_IN_OUT: f64 = BACK * 1.525;

impl Ease {
    /// Every curve, in table order.
    pub const ALL: [Ease; 21] = [
        Ease::Linear,
        Ease::SmoothStep,
        Ease::SmootherStep,
        Ease::QuadIn,
        Ease::QuadOut,
        Ease::QuadInOut,
        Ease::CubicIn,
        Ease::CubicOut,
        Ease::CubicInOut,
        Ease::QuartIn,
        Ease::QuartOut,
        Ease::QuartInOut,
        Ease::QuintIn,
        Ease::QuintOut,
        Ease::QuintInOut,
        Ease::BackIn,
        Ease::BackOut,
        Ease::BackInOut,
        Ease::BounceIn,
        Ease::BounceOut,
        Ease::BounceInOut,
    ];

    /// The eased value of progress `t`. `t` is clamped into `[0, 1]` first
    /// (NaN counts as 0), so the ends are exact: `apply(0.0) == 0.0` and
    /// `apply(1.0) == 1.0` for every curve.
    pub fn apply(self, t: f64) -> f64 {
        let t = if t >= 1.0 {
            return 1.0;
        } else if t > 0.0 {
            t
        } else {
            return 0.0;
        };
        match self {
            Ease::Linear => t,
            Ease::SmoothStep => t * t * (3.0 - 2.0 * t),
            Ease::SmootherStep => t * t * t * (t * (t * 6.0 - 15.0) + 10.0),
            Ease::QuadIn => t * t,
            Ease::QuadOut => out(t, |u| u * u),
            Ease::QuadInOut => in_out(t, |u| u * u),
            Ease::CubicIn => t * t * t,
            Ease::CubicOut => out(t, |u| u * u * u),
            Ease::CubicInOut => in_out(t, |u| u * u * u),
            Ease::QuartIn => t * t * t * t,
            Ease::QuartOut => out(t, |u| u * u * u * u),
            Ease::QuartInOut => in_out(t, |u| u * u * u * u),
            Ease::QuintIn => t * t * t * t * t,
            Ease::QuintOut => out(t, |u| u * u * u * u * u),
            Ease::QuintInOut => in_out(t, |u| u * u * u * u * u),
            Ease::BackIn => back_in(t, BACK),
            Ease::BackOut => out(t, |u| back_in(u, BACK)),
            Ease::BackInOut => in_out(t, |u| back_in(u, BACK_IN_OUT)),
            Ease::BounceIn => 1.0 - bounce_out(1.0 - t),
            Ease::BounceOut => bounce_out(t),
            Ease::BounceInOut => in_out(t, |u| 1.0 - bounce_out(1.0 - u)),
        }
    }

    /// The camelCase name (`"cubicOut"`).
    pub const fn name(self) -> &'static str {
        NAMES[self as usize].0
    }

    /// The `snake_case` name (`"cubic_out"`).
    pub const fn snake_name(self) -> &'static str {
        NAMES[self as usize].1
    }

    /// The curve called `name`, in camelCase or `snake_case`.
    ///
    /// # Errors
    ///
    /// [`UnknownEase`], whose message lists every valid name.
    pub fn from_name(name: &str) -> Result<Ease, UnknownEase> {
        Ease::ALL
            .into_iter()
            .find(|ease| ease.name() == name || ease.snake_name() == name)
            .ok_or_else(|| UnknownEase {
                name: name.to_owned(),
            })
    }
}

/// `(camelCase, snake_case)` for each curve, in declaration order.
const NAMES: [(&str, &str); 21] = [
    ("linear", "linear"),
    ("smoothStep", "smooth_step"),
    ("smootherStep", "smoother_step"),
    ("quadIn", "quad_in"),
    ("quadOut", "quad_out"),
    ("quadInOut", "quad_in_out"),
    ("cubicIn", "cubic_in"),
    ("cubicOut", "cubic_out"),
    ("cubicInOut", "cubic_in_out"),
    ("quartIn", "quart_in"),
    ("quartOut", "quart_out"),
    ("quartInOut", "quart_in_out"),
    ("quintIn", "quint_in"),
    ("quintOut", "quint_out"),
    ("quintInOut", "quint_in_out"),
    ("backIn", "back_in"),
    ("backOut", "back_out"),
    ("backInOut", "back_in_out"),
    ("bounceIn", "bounce_in"),
    ("bounceOut", "bounce_out"),
    ("bounceInOut", "bounce_in_out"),
];

/// The "out" version of an "in" curve: mirrored through the centre.
#[inline]
fn out(t: f64, ease_in: impl Fn(f64) -> f64) -> f64 {
    1.0 - ease_in(1.0 - t)
}

/// An "in" curve for the first half, its "out" mirror for the second.
#[inline]
fn in_out(t: f64, ease_in: impl Fn(f64) -> f64) -> f64 {
    if t < 0.5 {
        ease_in(2.0 * t) / 2.0
    } else {
        1.0 - ease_in(2.0 - 2.0 * t) / 2.0
    }
}

/// `t²((s + 1)t − s)`: dips below zero by an amount set by `s`.
#[inline]
fn back_in(t: f64, s: f64) -> f64 {
    t * t * ((s + 1.0) * t - s)
}

/// Four parabolic arcs of shrinking height: a ball settling at 1.
#[inline]
fn bounce_out(t: f64) -> f64 {
    const N: f64 = 7.5625;
    const D: f64 = 2.75;
    if t < 1.0 / D {
        N * t * t
    } else if t < 2.0 / D {
        let u = t - 1.5 / D;
        N * u * u + 0.75
    } else if t < 2.5 / D {
        let u = t - 2.25 / D;
        N * u * u + 0.9375
    } else {
        let u = t - 2.625 / D;
        N * u * u + 0.984_375
    }
}

impl fmt::Display for Ease {
    /// The camelCase name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Ease {
    type Err = UnknownEase;
    fn from_str(name: &str) -> Result<Ease, UnknownEase> {
        Ease::from_name(name)
    }
}

/// An easing name that is not in the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEase {
    name: String,
}

impl fmt::Display for UnknownEase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown easing {:?}; the valid names are", self.name)?;
        for (i, (camel, _)) in NAMES.iter().enumerate() {
            write!(f, "{}{camel}", if i == 0 { " " } else { ", " })?;
        }
        write!(f, " (or the same in snake_case, like cubic_out)")
    }
}

impl std::error::Error for UnknownEase {}

#[cfg(feature = "serde")]
impl serde::Serialize for Ease {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Ease {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Ease, D::Error> {
        let name = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
        Ease::from_name(&name).map_err(serde::de::Error::custom)
    }
}

//! Linear interpolation, and [`Interpolated`]: a value kept as its previous
//! and current step, drawn in between with the render blend factor.

use evenstep_core::Alpha;

#[cfg(feature = "glam")]
mod glam;
#[cfg(feature = "mint")]
mod mint;

/// Values that can be blended: `a.lerp(&b, 0.0)` is `a` and `a.lerp(&b, 1.0)`
/// is `b`, exactly. Implemented for `f32`, `f64` and arrays of them, for
/// glam's and mint's vectors and quaternions behind the `glam` and `mint`
/// features; implement it for your own vector type in three lines.
///
/// The float blends use only `+ - * /` and comparisons, so they give the
/// same bits on every platform. Their ends are exact bit for bit (`-0.0`
/// included), and for finite ends and `t` in `[0, 1]` the blend is finite,
/// however far apart the ends are. A `t` outside `[0, 1]` (an easing that
/// overshoots) extrapolates.
///
/// glam's vectors blend component by component, and its `Quat` (like mint's
/// `Quaternion`) by a normalized linear blend the short way round: `q` and
/// `-q` are one rotation, so the far end is negated when the two point
/// apart. Normalized rather than spherical because slerp's `acos` and `sin`
/// differ in their last bits between platforms, while nlerp needs only
/// `+ - * /` and a square root, which IEEE 754 rounds the same everywhere;
/// between two fixed steps the angle is small, and nlerp's slightly uneven
/// speed across it does not show. glam's types have an inherent `lerp` of
/// their own, which method-call syntax finds first: call this one as
/// `Lerp::lerp(&a, &b, t)` ([`Interpolated`] and
/// [`Tweens`](crate::tween::Tweens) do).
///
/// # Examples
///
/// ```
/// use evenstep::Lerp;
///
/// #[derive(Clone, Debug, PartialEq)]
/// struct Vec2 { x: f32, y: f32 }
///
/// impl Lerp for Vec2 {
///     fn lerp(&self, to: &Vec2, t: f64) -> Vec2 {
///         Vec2 { x: self.x.lerp(&to.x, t), y: self.y.lerp(&to.y, t) }
///     }
/// }
///
/// let a = Vec2 { x: 0.0, y: 10.0 };
/// assert_eq!(a.lerp(&Vec2 { x: 4.0, y: 20.0 }, 0.25), Vec2 { x: 1.0, y: 12.5 });
/// ```
pub trait Lerp: Clone {
    /// The value `t` of the way from `self` to `to`.
    #[must_use]
    fn lerp(&self, to: &Self, t: f64) -> Self;
}

/// One blend, written once for both float widths.
///
/// The ends are returned as they are: `from + (to - from) · 1` need not be
/// `to` (`1e20 → 1` gives 0) and `from + (to - from) · 0` turns `-0.0` into
/// `0.0`. In between, `from + (to - from) · t` is kept (it is what every
/// earlier blend computed, bit for bit) unless `to - from` overflows, as it
/// does for ends of opposite sign more than the largest float apart; there
/// `from · (1 - t) + to · t` adds two terms of opposite sign, each at most
/// as large as its end, which cannot overflow.
macro_rules! blend {
    ($from:expr, $to:expr, $t:expr) => {{
        let (from, to, t) = ($from, $to, $t);
        if t == 0.0 {
            from
        } else if t == 1.0 {
            to
        } else {
            let span = to - from;
            if span.is_finite() {
                from + span * t
            } else {
                from * (1.0 - t) + to * t
            }
        }
    }};
}

impl Lerp for f64 {
    #[inline]
    fn lerp(&self, to: &f64, t: f64) -> f64 {
        blend!(*self, *to, t)
    }
}

impl Lerp for f32 {
    #[inline]
    fn lerp(&self, to: &f32, t: f64) -> f32 {
        // Narrowed once: the blend itself is done in f32, like the values. A
        // `t` that narrows to 0 or 1 lands on that end exactly.
        blend!(*self, *to, t as f32)
    }
}

impl<T: Lerp + Copy, const N: usize> Lerp for [T; N] {
    fn lerp(&self, to: &[T; N], t: f64) -> [T; N] {
        let mut out = *self;
        for (o, (a, b)) in out.iter_mut().zip(self.iter().zip(to)) {
            *o = a.lerp(b, t);
        }
        out
    }
}

/// The rotation `t` of the way from the unit quaternion `from` to `to`, as
/// four components in any fixed order: a normalized linear blend (nlerp),
/// the short way round. For the quaternions' own types behind the `glam` and
/// `mint` features.
///
/// Normalized, not spherical: slerp needs `acos` and `sin`, whose last bits
/// differ between platforms' maths libraries, while nlerp needs only
/// `+ - * /` and a square root, which IEEE 754 rounds exactly everywhere, so
/// it gives the same bits on every machine. Its angle runs a little faster
/// mid-blend than at the ends, which between two fixed steps (a few degrees
/// apart) is far below what a picture shows. The short way: `q` and `-q` are
/// one rotation, so `to` is negated when the two point apart (a negative dot
/// product), and the blend never swings the long way round. The ends are
/// exact: `t = 0` is `from` and `t = 1` is `to` as given, sign included. A
/// blend too small to normalize (ends that are not unit quaternions, such
/// as zero) is returned as it is.
#[cfg(any(feature = "glam", feature = "mint"))]
macro_rules! nlerp {
    ($name:ident, $float:ty) => {
        pub(crate) fn $name(from: [$float; 4], to: [$float; 4], t: f64) -> [$float; 4] {
            let narrowed = t as $float;
            if narrowed == 0.0 {
                return from;
            }
            if narrowed == 1.0 {
                return to;
            }
            let dot = from[0] * to[0] + from[1] * to[1] + from[2] * to[2] + from[3] * to[3];
            let to = if dot < 0.0 { to.map(|c| -c) } else { to };
            let blend = from.lerp(&to, t);
            let length = (blend[0] * blend[0]
                + blend[1] * blend[1]
                + blend[2] * blend[2]
                + blend[3] * blend[3])
                .sqrt();
            if length > 0.0 && length.is_finite() {
                blend.map(|c| c / length)
            } else {
                blend
            }
        }
    };
}

#[cfg(any(feature = "glam", feature = "mint"))]
nlerp!(nlerp_f32, f32);
// Only mint has a quaternion of `f64`s here.
#[cfg(feature = "mint")]
nlerp!(nlerp_f64, f64);

/// A value with its previous and current step, for drawing in between.
///
/// Set it once per fixed step ([`set`](Interpolated::set)); draw
/// [`at`](Interpolated::at) the render's alpha. A jump that must not smear
/// across a frame (a respawn, a portal) uses [`teleport`](Interpolated::teleport),
/// which sets both.
///
/// A subtlety of window loops driven by events: a redraw requested from the
/// update arrives on the next loop iteration, so the frame that draws uses
/// the alpha of the previous update. That is harmless (the alpha is a hint,
/// and a repaint with no update in between redraws at the same alpha), and
/// it should not be "fixed" by moving the update into the redraw.
///
/// # Examples
///
/// ```
/// use evenstep::Interpolated;
///
/// let mut x = Interpolated::new(0.0_f64);
/// x.set(10.0);
/// assert_eq!(x.at_f64(0.25), 2.5);
/// x.teleport(100.0);
/// assert_eq!(x.at_f64(0.5), 100.0); // no smear
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Interpolated<T> {
    previous: T,
    current: T,
}

impl<T: Lerp> Interpolated<T> {
    /// A value at rest: previous and current are both `value`.
    pub fn new(value: T) -> Interpolated<T> {
        Interpolated {
            previous: value.clone(),
            current: value,
        }
    }

    /// The step's new value: current becomes previous.
    pub fn set(&mut self, value: T) {
        self.previous = std::mem::replace(&mut self.current, value);
    }

    /// Jumps to `value` with no blend: previous and current both.
    pub fn teleport(&mut self, value: T) {
        self.previous = value.clone();
        self.current = value;
    }

    /// The value to draw at the render's `alpha`.
    pub fn at(&self, alpha: Alpha) -> T {
        self.previous.lerp(&self.current, alpha.as_f64())
    }

    /// The value to draw at a blend factor given as a float in `[0, 1]`.
    pub fn at_f64(&self, alpha: f64) -> T {
        self.previous.lerp(&self.current, alpha)
    }

    /// The current (latest step's) value.
    pub fn current(&self) -> &T {
        &self.current
    }

    /// The previous step's value.
    pub fn previous(&self) -> &T {
        &self.previous
    }
}

//! Linear interpolation, and [`Interpolated`]: a value kept as its previous
//! and current step, drawn in between (or ahead, by [`Blend`]) with the
//! render blend factor.

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
/// overshoots) extrapolates: still never NaN for finite ends and a finite
/// `t`, but a product inside the blend can overflow where the value itself
/// is in range (`f64::MAX.lerp(&0.0, 1.5)` is `-inf`, not `-f64::MAX / 2`).
/// [`Interpolated::ahead`] extrapolates from the current end instead, so it
/// has no such case.
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

/// How a value kept as two steps is drawn between fixed steps: behind the
/// simulation, or ahead of it. The default is [`Interpolate`](Blend::Interpolate).
///
/// A game can offer the choice as a setting and pass it to
/// [`Interpolated::drawn`] every frame; the simulation is the same either
/// way, only the picture differs. With the `serde` feature a blend is
/// written and read by name (`"interpolate"`, `"extrapolate"`), and an
/// unknown name is refused with an error naming both.
///
/// The trade:
///
/// - **Interpolation** draws between the previous and the current step, so
///   the picture is one step late: up to one step of added latency. In
///   exchange it never shows a state the simulation did not reach, and at
///   a step boundary (alpha 0) it shows the previous step exactly.
/// - **Extrapolation** draws ahead of the current step by the last step's
///   change, so it adds no step of latency. It guesses, and the guess is
///   wrong whenever the motion changes within a step: on a turn, a collision
///   or a stop the drawn value overshoots, then snaps back when the next
///   step arrives. It also overshoots across a jump set with
///   [`set`](Interpolated::set) (use [`teleport`](Interpolated::teleport)),
///   and under time scale: slow motion keeps each wrong guess on screen for
///   longer, and a pause freezes alpha, so the picture holds a state the
///   simulation never reached until steps resume. At alpha 0 it shows the
///   current step exactly.
///
/// # Examples
///
/// ```
/// use evenstep::{Alpha, Blend, Interpolated, Timestep};
///
/// let quarter = Alpha::new(12_500_000, Timestep::HZ_60); // a quarter step
/// let mut x = Interpolated::new(0.0_f64);
/// x.set(1.0);
/// x.set(2.0); // moving one unit a step
/// assert_eq!(x.drawn(Blend::Interpolate, quarter), 1.25); // behind
/// assert_eq!(x.drawn(Blend::Extrapolate, quarter), 2.25); // ahead
///
/// x.set(2.0); // it stopped: the guess of 2.25 is taken back
/// assert_eq!(x.drawn(Blend::Extrapolate, quarter), 2.0);
/// assert_eq!(Blend::default(), Blend::Interpolate);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
pub enum Blend {
    /// Draw between the previous and the current step
    /// ([`Interpolated::at`]): one step late, exact, never a state the
    /// simulation did not reach.
    #[default]
    Interpolate,
    /// Draw ahead of the current step by the last step's change
    /// ([`Interpolated::ahead`]): no step late, wrong whenever the motion
    /// changes within a step.
    Extrapolate,
}

/// A value with its previous and current step, for drawing between steps.
///
/// Set it once per fixed step ([`set`](Interpolated::set)); draw
/// [`at`](Interpolated::at) the render's alpha to interpolate, or
/// [`ahead`](Interpolated::ahead) of the current step to extrapolate, or
/// [`drawn`](Interpolated::drawn) with a [`Blend`] a game chose. A jump
/// that must not smear across a frame (a respawn, a portal) uses
/// [`teleport`](Interpolated::teleport), which sets both, so neither blend
/// shows anything but the new value.
///
/// Interpolation is one step late (up to one step of added latency), never
/// shows a state the simulation did not reach, and is exact at step
/// boundaries. Extrapolation adds no step of latency, but mispredicts
/// whenever the motion changes within a step (a turn, a collision, a stop:
/// the drawn value overshoots, then snaps back), at a jump made with `set`
/// rather than `teleport`, and under time scale (slow motion keeps a wrong
/// guess on screen longer; a pause holds one until steps resume).
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

    /// Jumps to `value` with no blend: previous and current both. The last
    /// step's change is then zero, so extrapolation does not overshoot.
    pub fn teleport(&mut self, value: T) {
        self.previous = value.clone();
        self.current = value;
    }

    /// The value to draw at the render's `alpha`, interpolated: `alpha` of
    /// the way from the previous step to the current one.
    pub fn at(&self, alpha: Alpha) -> T {
        self.previous.lerp(&self.current, alpha.as_f64())
    }

    /// The value to draw at a blend factor given as a float in `[0, 1]`.
    pub fn at_f64(&self, alpha: f64) -> T {
        self.previous.lerp(&self.current, alpha)
    }

    /// The value to draw at the render's `alpha`, extrapolated: `alpha` of
    /// a step ahead of the current value, continuing the last step's change,
    /// `current + (current - previous) · alpha`.
    ///
    /// At alpha 0 it is the current value exactly, bit for bit (`-0.0`
    /// included); after [`new`](Interpolated::new) or
    /// [`teleport`](Interpolated::teleport) it is the current value at every
    /// alpha.
    ///
    /// It is computed as `current.lerp(&previous, -alpha)`, the same value
    /// as `previous.lerp(&current, 1 + alpha)` but anchored on the current
    /// end, so that no product in the blend grows past the ends. For the
    /// float blends it is `current + (current - previous) * alpha` rounded
    /// once per operation in the value's width, and for finite ends it is
    /// never NaN; it is infinite only where that value itself lies past the
    /// largest finite float.
    /// Quaternions continue their rotation the short way round, normalized,
    /// a little short of `alpha` times the last step's angle. A [`Lerp`] of
    /// your own must extrapolate for `t` in `(-1, 0]`, as the float blends
    /// do.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep::{Alpha, Interpolated, Timestep};
    ///
    /// let half = Alpha::new(25_000_000, Timestep::HZ_60);
    /// let mut x = Interpolated::new([0.0_f32, 4.0]);
    /// x.set([1.0, 2.0]);
    /// assert_eq!(x.ahead(half), [1.5, 1.0]);
    /// x.teleport([8.0, 8.0]);
    /// assert_eq!(x.ahead(half), [8.0, 8.0]); // nothing to overshoot
    /// ```
    pub fn ahead(&self, alpha: Alpha) -> T {
        self.current.lerp(&self.previous, -alpha.as_f64())
    }

    /// The value to draw at the render's `alpha` with the game's chosen
    /// `blend`: [`at`](Interpolated::at) for [`Blend::Interpolate`],
    /// [`ahead`](Interpolated::ahead) for [`Blend::Extrapolate`], exactly.
    pub fn drawn(&self, blend: Blend, alpha: Alpha) -> T {
        match blend {
            Blend::Interpolate => self.at(alpha),
            Blend::Extrapolate => self.ahead(alpha),
        }
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

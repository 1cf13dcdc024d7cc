//! Linear interpolation, and [`Interpolated`]: a value kept as its previous
//! and current step, drawn in between with the render blend factor.

use evenstep_core::Alpha;

/// Values that can be blended: `a.lerp(&b, 0.0)` is `a`, `a.lerp(&b, 1.0)`
/// is `b`. Implemented for `f32`, `f64` and arrays of them; implement it for
/// your own vector type in three lines.
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

impl Lerp for f64 {
    #[inline]
    fn lerp(&self, to: &f64, t: f64) -> f64 {
        self + (to - self) * t
    }
}

impl Lerp for f32 {
    #[inline]
    fn lerp(&self, to: &f32, t: f64) -> f32 {
        // Narrowed once: the blend itself is done in f32, like the values.
        self + (to - self) * t as f32
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

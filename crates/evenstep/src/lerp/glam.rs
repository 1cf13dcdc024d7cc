//! [`Lerp`] for glam's float vectors and its quaternion (the `glam` feature).
//! Vectors blend component by component, each exactly as an `f32` or `f64`
//! does; `Quat` blends by [`nlerp_f32`], the short way round.

use glam::{DVec2, DVec3, Quat, Vec2, Vec3, Vec3A, Vec4};

use super::{Lerp, nlerp_f32};

macro_rules! by_components {
    ($($vector:ty),*) => {$(
        impl Lerp for $vector {
            #[inline]
            fn lerp(&self, to: &$vector, t: f64) -> $vector {
                <$vector>::from_array(self.to_array().lerp(&to.to_array(), t))
            }
        }
    )*};
}

by_components!(Vec2, Vec3, Vec3A, Vec4, DVec2, DVec3);

/// A normalized linear blend, the short way round (`q` and `-q` are one
/// rotation); `t = 0` and `t = 1` are the ends exactly.
impl Lerp for Quat {
    #[inline]
    fn lerp(&self, to: &Quat, t: f64) -> Quat {
        Quat::from_array(nlerp_f32(self.to_array(), to.to_array(), t))
    }
}

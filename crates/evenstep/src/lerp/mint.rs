//! [`Lerp`] for mint's vectors, points and quaternions (the `mint` feature),
//! the types nalgebra, cgmath, ultraviolet and glam convert to and from.
//! Vectors and points blend component by component; quaternions blend by
//! [`nlerp_f32`] or [`nlerp_f64`], the short way round.

use mint::{Point2, Point3, Quaternion, Vector2, Vector3, Vector4};

use super::{Lerp, nlerp_f32, nlerp_f64};

macro_rules! by_components {
    ($($vector:ident { $($field:ident),* }),*) => {$(
        impl<T: Lerp> Lerp for $vector<T> {
            #[inline]
            fn lerp(&self, to: &$vector<T>, t: f64) -> $vector<T> {
                $vector { $($field: self.$field.lerp(&to.$field, t)),* }
            }
        }
    )*};
}

by_components!(
    Vector2 { x, y },
    Vector3 { x, y, z },
    Vector4 { x, y, z, w },
    Point2 { x, y },
    Point3 { x, y, z }
);

macro_rules! quaternion {
    ($float:ty, $nlerp:ident) => {
        /// A normalized linear blend, the short way round (`q` and `-q` are
        /// one rotation); `t = 0` and `t = 1` are the ends exactly.
        impl Lerp for Quaternion<$float> {
            #[inline]
            fn lerp(&self, to: &Quaternion<$float>, t: f64) -> Quaternion<$float> {
                let [x, y, z, s] = $nlerp(
                    [self.v.x, self.v.y, self.v.z, self.s],
                    [to.v.x, to.v.y, to.v.z, to.s],
                    t,
                );
                Quaternion {
                    v: Vector3 { x, y, z },
                    s,
                }
            }
        }
    };
}

quaternion!(f32, nlerp_f32);
quaternion!(f64, nlerp_f64);

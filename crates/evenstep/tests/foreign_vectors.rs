//! glam's and mint's vectors and quaternions blend like the floats they are
//! made of: the ends exactly, component by component in between; a
//! quaternion by a normalized blend the short way round, so `q` and `-q`
//! (one rotation) never swing the long way. glam's types have an inherent
//! `lerp` of their own, which a method call finds first: these tests call
//! the trait's, as `Interpolated` and `Tweens` do.
#![cfg(all(feature = "glam", feature = "mint"))]

use evenstep::{Interpolated, Lerp, Timestep, Tween, Tweens};

/// Halfway between two perpendicular unit quaternions, each component is
/// `0.5 / sqrt(0.5)`: in `f32` the nearest float to `sqrt(1/2)`, in `f64`
/// one ulp below it (the division rounds).
const HALF_SQRT_2_F32: f32 = 0.707_106_77;
const HALF_SQRT_2_F64: f64 = 0.707_106_781_186_547_5;

mod glam_types {
    use super::*;
    use glam::{DVec2, DVec3, Quat, Vec2, Vec3, Vec3A, Vec4};

    #[test]
    fn glam_vectors_land_on_their_ends_exactly_and_blend_by_component() {
        let (a, b) = (Vec2::new(1e8, -0.0), Vec2::new(0.5, 3.0));
        assert_eq!(Lerp::lerp(&a, &b, 1.0), b);
        assert_eq!(Lerp::lerp(&a, &b, 0.0).y.to_bits(), (-0.0_f32).to_bits());
        assert_eq!(
            Lerp::lerp(&Vec2::new(0.0, 10.0), &Vec2::new(4.0, 20.0), 0.25),
            Vec2::new(1.0, 12.5)
        );
        let (a, b) = (Vec3::new(0.0, 10.0, -4.0), Vec3::new(4.0, 20.0, 4.0));
        assert_eq!(Lerp::lerp(&a, &b, 0.5), Vec3::new(2.0, 15.0, 0.0));
        assert_eq!(
            Lerp::lerp(&Vec3::splat(1e8), &Vec3::splat(0.5), 1.0),
            Vec3::splat(0.5)
        );
        let (a, b) = (Vec3A::new(0.0, 10.0, -4.0), Vec3A::new(4.0, 20.0, 4.0));
        assert_eq!(Lerp::lerp(&a, &b, 0.5), Vec3A::new(2.0, 15.0, 0.0));
        assert_eq!(Lerp::lerp(&a, &b, 1.0), b);
        let (a, b) = (
            Vec4::new(0.0, 10.0, -4.0, 1e8),
            Vec4::new(4.0, 20.0, 4.0, 0.5),
        );
        assert_eq!(
            Lerp::lerp(&a, &b, 0.5),
            Vec4::new(2.0, 15.0, 0.0, 50_000_000.0)
        );
        assert_eq!(Lerp::lerp(&a, &b, 1.0), b);
        let (a, b) = (DVec2::new(1e20, f64::MAX), DVec2::new(1.0, -f64::MAX));
        assert_eq!(Lerp::lerp(&a, &b, 1.0), b);
        assert_eq!(Lerp::lerp(&a, &b, 0.0), a);
        assert_eq!(Lerp::lerp(&a, &b, 0.5), DVec2::new(5e19, 0.0));
        let (a, b) = (DVec3::new(0.0, 10.0, -4.0), DVec3::new(4.0, 20.0, 4.0));
        assert_eq!(Lerp::lerp(&a, &b, 0.25), DVec3::new(1.0, 12.5, -2.0));
    }

    #[test]
    fn a_glam_quaternion_blends_normalized_the_short_way_with_exact_ends() {
        let half_turn = Quat::from_xyzw(0.0, 0.0, 1.0, 0.0); // 180° about z
        let mid = Lerp::lerp(&Quat::IDENTITY, &half_turn, 0.5);
        assert_eq!(
            mid,
            Quat::from_xyzw(0.0, 0.0, HALF_SQRT_2_F32, HALF_SQRT_2_F32)
        );
        assert_eq!(Lerp::lerp(&Quat::IDENTITY, &half_turn, 0.0), Quat::IDENTITY);
        assert_eq!(Lerp::lerp(&Quat::IDENTITY, &half_turn, 1.0), half_turn);

        // The same rotation with the opposite sign: the short way is no
        // turn at all, and the far end is still exactly what was given.
        let negated = Quat::from_xyzw(0.0, 0.0, 0.0, -1.0);
        assert_eq!(Lerp::lerp(&Quat::IDENTITY, &negated, 0.5), Quat::IDENTITY);
        assert_eq!(Lerp::lerp(&Quat::IDENTITY, &negated, 0.25), Quat::IDENTITY);
        assert_eq!(Lerp::lerp(&Quat::IDENTITY, &negated, 1.0), negated);
        let minus_half_turn = Quat::from_xyzw(0.0, 0.0, -1.0, 0.0);
        assert_eq!(
            Lerp::lerp(&Quat::IDENTITY, &Quat::from_xyzw(0.0, 0.0, -1.0, -0.0), 0.5),
            Quat::from_xyzw(0.0, 0.0, -HALF_SQRT_2_F32, HALF_SQRT_2_F32),
            "perpendicular, with a dot product of -0: blended as given"
        );
        assert_eq!(
            Lerp::lerp(&Quat::from_xyzw(0.0, 0.0, 0.0, -1.0), &minus_half_turn, 0.5),
            Quat::from_xyzw(0.0, 0.0, -HALF_SQRT_2_F32, -HALF_SQRT_2_F32)
        );

        // Not a unit quaternion at all: returned as blended, not NaN.
        assert_eq!(
            Lerp::lerp(
                &Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
                &Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
                0.5
            ),
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn glam_types_drive_interpolated_values_and_tweens() {
        let mut position = Interpolated::new(Vec3::ZERO);
        position.set(Vec3::new(4.0, 8.0, -2.0));
        assert_eq!(position.at_f64(0.25), Vec3::new(1.0, 2.0, -0.5));
        let mut facing = Interpolated::new(Quat::IDENTITY);
        facing.set(Quat::from_xyzw(0.0, 0.0, 1.0, 0.0));
        assert_eq!(facing.at_f64(1.0), Quat::from_xyzw(0.0, 0.0, 1.0, 0.0));

        let mut tweens = Tweens::<Vec2, Vec2>::new(Timestep::HZ_60);
        tweens.start(Tween::new(
            Vec2::new(1e8, 0.0),
            Vec2::new(0.5, 1.0),
            std::time::Duration::from_millis(50),
            |v: &mut Vec2, value| *v = value,
        ));
        let mut v = Vec2::ZERO;
        for _ in 0..3 {
            tweens.step(&mut v);
        }
        assert_eq!(v, Vec2::new(0.5, 1.0));
    }
}

mod mint_types {
    use super::*;
    use mint::{Point2, Point3, Quaternion, Vector2, Vector3, Vector4};

    fn quat<T>(x: T, y: T, z: T, s: T) -> Quaternion<T> {
        Quaternion {
            v: Vector3 { x, y, z },
            s,
        }
    }

    #[test]
    fn mint_vectors_and_points_land_on_their_ends_exactly_and_blend_by_component() {
        let (a, b) = (
            Vector2 {
                x: 1e8_f32,
                y: -0.0,
            },
            Vector2 { x: 0.5, y: 3.0 },
        );
        assert_eq!(a.lerp(&b, 1.0), b);
        assert_eq!(a.lerp(&b, 0.0).y.to_bits(), (-0.0_f32).to_bits());
        let (a, b) = (
            Vector3 {
                x: 0.0_f64,
                y: 10.0,
                z: -4.0,
            },
            Vector3 {
                x: 4.0,
                y: 20.0,
                z: 4.0,
            },
        );
        assert_eq!(
            a.lerp(&b, 0.5),
            Vector3 {
                x: 2.0,
                y: 15.0,
                z: 0.0
            }
        );
        let (a, b) = (
            Vector4 {
                x: f64::MAX,
                y: 1e20,
                z: 0.0,
                w: 1.0,
            },
            Vector4 {
                x: -f64::MAX,
                y: 1.0,
                z: 8.0,
                w: 1.0,
            },
        );
        assert_eq!(a.lerp(&b, 1.0), b);
        assert_eq!(
            a.lerp(&b, 0.5),
            Vector4 {
                x: 0.0,
                y: 5e19,
                z: 4.0,
                w: 1.0
            }
        );
        let (a, b) = (
            Point2 {
                x: 0.0_f32,
                y: 10.0,
            },
            Point2 { x: 4.0, y: 20.0 },
        );
        assert_eq!(a.lerp(&b, 0.25), Point2 { x: 1.0, y: 12.5 });
        let (a, b) = (
            Point3 {
                x: 0.0_f32,
                y: 10.0,
                z: 1e8,
            },
            Point3 {
                x: 4.0,
                y: 20.0,
                z: 0.5,
            },
        );
        assert_eq!(a.lerp(&b, 1.0), b);
        assert_eq!(a.lerp(&b, 0.0), a);
    }

    #[test]
    fn a_mint_quaternion_blends_normalized_the_short_way_with_exact_ends() {
        let identity = quat(0.0_f32, 0.0, 0.0, 1.0);
        let half_turn = quat(0.0_f32, 0.0, 1.0, 0.0);
        assert_eq!(
            identity.lerp(&half_turn, 0.5),
            quat(0.0, 0.0, HALF_SQRT_2_F32, HALF_SQRT_2_F32)
        );
        assert_eq!(identity.lerp(&half_turn, 1.0), half_turn);
        let negated = quat(0.0_f32, 0.0, 0.0, -1.0);
        assert_eq!(identity.lerp(&negated, 0.5), identity);
        assert_eq!(identity.lerp(&negated, 1.0), negated);

        let identity = quat(0.0_f64, 0.0, 0.0, 1.0);
        let half_turn = quat(0.0_f64, 0.0, 1.0, 0.0);
        assert_eq!(
            identity.lerp(&half_turn, 0.5),
            quat(0.0, 0.0, HALF_SQRT_2_F64, HALF_SQRT_2_F64)
        );
        assert_eq!(identity.lerp(&half_turn, 0.0), identity);
        assert_eq!(identity.lerp(&quat(0.0, 0.0, 0.0, -1.0), 0.75), identity);
    }
}

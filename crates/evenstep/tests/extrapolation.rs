//! Extrapolation draws `current + (current - previous) · alpha`: the current
//! step exactly at alpha 0 (`-0.0` included), nothing past a teleport, never
//! NaN for finite ends, and interpolation through `Blend` is `at` bit for bit.

mod common;

use evenstep::{Alpha, Blend, Interpolated, Lerp, Timestep};
use proptest::prelude::*;

/// A quarter of a 60 Hz step: 12,500,000 of its 50,000,000 units.
const QUARTER: Alpha = Alpha::new(12_500_000, Timestep::HZ_60);
/// Half a 60 Hz step.
const HALF: Alpha = Alpha::new(25_000_000, Timestep::HZ_60);
/// The start of a step.
const ZERO: Alpha = Alpha::new(0, Timestep::HZ_60);

/// A value that was `previous` last step and is `current` now.
fn moved<T: Lerp>(previous: T, current: T) -> Interpolated<T> {
    let mut value = Interpolated::new(previous);
    value.set(current);
    value
}

#[test]
fn the_quarter_and_half_step_are_exact_binary_fractions() {
    assert_eq!(QUARTER.as_f64(), 0.25);
    assert_eq!(HALF.as_f64(), 0.5);
    assert_eq!(ZERO.as_f64(), 0.0);
}

#[test]
fn extrapolation_draws_a_quarter_step_past_the_current_value() {
    let x = moved(2.0_f64, 3.0);
    assert_eq!(x.ahead(QUARTER), 3.25);
    assert_eq!(x.drawn(Blend::Extrapolate, QUARTER), 3.25);
    assert_eq!(moved(3.0_f64, -1.0).ahead(HALF), -3.0);
    assert_eq!(moved(0.0_f32, 4.0).ahead(QUARTER), 5.0);
}

#[test]
fn interpolation_still_draws_a_quarter_step_past_the_previous_value() {
    let x = moved(2.0_f64, 3.0);
    assert_eq!(x.at(QUARTER), 2.25);
    assert_eq!(x.drawn(Blend::Interpolate, QUARTER), 2.25);
    assert_eq!(x.drawn(Blend::default(), QUARTER), 2.25);
}

#[test]
fn the_default_blend_is_interpolation() {
    assert_eq!(Blend::default(), Blend::Interpolate);
}

#[test]
fn at_alpha_zero_extrapolation_draws_the_current_step_exactly() {
    for (previous, current) in [
        (5.0_f64, -0.0),
        (-0.0, 0.0),
        (1e20, 1.0),
        (f64::MAX, -f64::MAX),
        (0.1, 0.3),
    ] {
        let x = moved(previous, current);
        assert_eq!(x.ahead(ZERO).to_bits(), current.to_bits());
        assert_eq!(
            x.drawn(Blend::Extrapolate, ZERO).to_bits(),
            current.to_bits()
        );
        assert_eq!(x.at(ZERO).to_bits(), previous.to_bits());
    }
    let x = moved(5.0_f32, -0.0);
    assert_eq!(x.ahead(ZERO).to_bits(), (-0.0_f32).to_bits());
    let x = moved([1.0_f32, 7.0, 5.0], [0.1, -0.0, 1e30]);
    assert_eq!(
        x.ahead(ZERO).map(f32::to_bits),
        [0.1_f32, -0.0, 1e30].map(f32::to_bits)
    );
}

#[test]
fn a_teleport_leaves_nothing_to_overshoot() {
    let mut x = moved(0.0_f64, 10.0);
    assert_eq!(x.ahead(HALF), 15.0);
    x.teleport(100.0);
    assert_eq!(x.ahead(HALF), 100.0);
    assert_eq!(x.ahead(Alpha::new(u64::MAX, Timestep::HZ_60)), 100.0);
    x.teleport(-0.0);
    assert_eq!(x.ahead(HALF).to_bits(), (-0.0_f64).to_bits());
    assert_eq!(Interpolated::new(7.5_f64).ahead(HALF), 7.5);
    // A jump made with `set` is extrapolated like any motion.
    let mut y = moved(0.0_f64, 0.0);
    y.set(100.0);
    assert_eq!(y.ahead(HALF), 150.0);
}

#[test]
fn a_stop_overshoots_for_a_step_then_snaps_back() {
    let mut x = moved(0.0_f64, 1.0);
    x.set(2.0);
    assert_eq!(x.ahead(HALF), 2.5); // a guess the simulation never reaches
    x.set(2.0);
    assert_eq!(x.ahead(HALF), 2.0);
    assert_eq!(x.at(HALF), 2.0);
}

#[test]
fn a_far_extrapolation_stays_finite_where_its_value_is_in_range() {
    // Blending from the previous end, `previous + (current - previous) · 1.5`
    // overflows to -inf on the way; from the current end it does not.
    assert_eq!(f64::MAX.lerp(&0.0, 1.5), f64::NEG_INFINITY);
    assert_eq!(moved(f64::MAX, 0.0).ahead(HALF), -f64::MAX / 2.0);
    assert_eq!(moved(f32::MAX, 0.0).ahead(HALF), -f32::MAX / 2.0);
    assert_eq!(moved(-f64::MAX, 0.0).ahead(QUARTER), f64::MAX / 4.0);
}

#[test]
fn an_extrapolation_past_the_largest_float_is_an_infinity_never_nan() {
    assert_eq!(moved(0.0_f64, f64::MAX).ahead(HALF), f64::INFINITY);
    assert_eq!(moved(f64::MAX, -f64::MAX).ahead(HALF), f64::NEG_INFINITY);
    assert_eq!(moved(-f32::MAX, f32::MAX).ahead(HALF), f32::INFINITY);
}

#[test]
fn an_f32_array_extrapolates_component_by_component() {
    let x = moved([0.0_f32, 4.0, -8.0], [1.0, 2.0, -8.0]);
    assert_eq!(x.ahead(QUARTER), [1.25, 1.5, -8.0]);
    assert_eq!(x.drawn(Blend::Extrapolate, HALF), [1.5, 1.0, -8.0]);
    assert_eq!(x.drawn(Blend::Interpolate, QUARTER), [0.25, 3.5, -8.0]);
}

#[cfg(feature = "glam")]
mod glam_types {
    use super::*;
    use glam::{Quat, Vec3};

    #[test]
    fn a_glam_vec3_extrapolates_component_by_component() {
        let x = moved(Vec3::new(0.0, 4.0, -8.0), Vec3::new(1.0, 2.0, -0.0));
        assert_eq!(x.ahead(QUARTER), Vec3::new(1.25, 1.5, 2.0));
        assert_eq!(x.drawn(Blend::Interpolate, QUARTER), x.at(QUARTER));
        assert_eq!(x.ahead(ZERO).z.to_bits(), (-0.0_f32).to_bits());
        let mut y = x;
        y.teleport(Vec3::new(3.0, -0.5, 9.0));
        assert_eq!(y.ahead(HALF), Vec3::new(3.0, -0.5, 9.0));
    }

    #[test]
    fn a_glam_quat_extrapolates_from_the_current_rotation() {
        let turned = Quat::from_xyzw(0.0, 0.0, 0.6, 0.8);
        let x = moved(Quat::IDENTITY, turned);
        assert_eq!(
            x.ahead(ZERO).to_array().map(f32::to_bits),
            turned.to_array().map(f32::to_bits)
        );
        // `-q` is the rotation `q`: a step from -identity to identity is no
        // rotation at all, so there is nothing to extrapolate.
        let still = moved(Quat::from_xyzw(0.0, 0.0, 0.0, -1.0), Quat::IDENTITY);
        assert_eq!(still.ahead(HALF), Quat::IDENTITY);
        let mut y = x;
        y.teleport(Quat::IDENTITY);
        assert_eq!(y.ahead(HALF), Quat::IDENTITY);
    }
}

#[cfg(feature = "serde")]
#[test]
fn a_blend_setting_is_read_and_written_by_name() {
    assert_eq!(
        serde_json::to_string(&Blend::Extrapolate).unwrap(),
        "\"extrapolate\""
    );
    assert_eq!(
        serde_json::from_str::<Blend>("\"interpolate\"").unwrap(),
        Blend::Interpolate
    );
    let error = serde_json::from_str::<Blend>("\"ahead\"")
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "unknown variant `ahead`, expected `interpolate` or `extrapolate` at line 1 column 7"
    );
}

/// A finite `f64` of moderate magnitude, whole and fractional, zeros included.
fn moderate_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e12_f64..1e12,
        -1.0_f64..1.0,
        prop::sample::select(vec![0.0, -0.0, 1.0, -1.0, 0.1, 1e-300]),
    ]
}

/// Any finite `f64`, the extremes overweighted.
fn finite_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
        prop::sample::select(vec![f64::MAX, -f64::MAX, f64::MAX / 2.0, -0.0, 0.0, 1e308]),
    ]
}

/// A render alpha in `[0, 1)` at a few timesteps, the ends of a step
/// overweighted.
fn alpha() -> impl Strategy<Value = Alpha> {
    let step = prop::sample::select(vec![
        Timestep::HZ_60,
        Timestep::HZ_30,
        Timestep::HZ_59_94,
        Timestep::HZ_24,
    ]);
    (step, any::<u64>(), 0_u8..4).prop_map(|(step, raw, end)| {
        let units = step.units_per_step();
        let remainder = match end {
            0 => 0,
            1 => units - 1,
            _ => raw % units,
        };
        Alpha::new(remainder, step)
    })
}

proptest! {
    #![proptest_config(common::config(4096))]

    #[test]
    fn extrapolation_continues_the_last_step_by_alpha(
        previous in moderate_f64(),
        current in moderate_f64(),
        alpha in alpha(),
    ) {
        let x = moved(previous, current);
        let t = alpha.as_f64();
        let expected = current + (current - previous) * t;
        let ahead = x.ahead(alpha);
        // Within two ulps of the formula (the float blend meets it exactly).
        let ulp = f64::from_bits(expected.abs().to_bits() + 1) - expected.abs();
        prop_assert!(
            (ahead - expected).abs() <= 2.0 * ulp,
            "{previous} to {current} at {t}: {ahead}, not {expected}"
        );
        prop_assert_eq!(x.drawn(Blend::Extrapolate, alpha).to_bits(), ahead.to_bits());
        prop_assert_eq!(x.drawn(Blend::Interpolate, alpha).to_bits(), x.at(alpha).to_bits());
        if t == 0.0 {
            prop_assert_eq!(ahead.to_bits(), current.to_bits());
        }
    }

    #[test]
    fn extrapolation_of_finite_ends_is_never_nan(
        previous in finite_f64(),
        current in finite_f64(),
        alpha in alpha(),
    ) {
        let x = moved(previous, current);
        let ahead = x.ahead(alpha);
        prop_assert!(!ahead.is_nan(), "{previous} to {current} gave NaN");
        if ahead.is_infinite() {
            // Only where the value itself is past the largest float: halved,
            // which no end can overflow, it is within rounding of half of it.
            let t = alpha.as_f64();
            let half = current / 2.0 + (current / 2.0 - previous / 2.0) * t;
            prop_assert!(
                half.abs() >= f64::MAX / 2.0 * (1.0 - 4.0 * f64::EPSILON),
                "{previous} to {current} at {t} gave {ahead}, half of it is {half}"
            );
            prop_assert_eq!(ahead.is_sign_positive(), half.is_sign_positive());
        }
        prop_assert_eq!(x.drawn(Blend::Interpolate, alpha).to_bits(), x.at(alpha).to_bits());
    }

    #[test]
    fn extrapolation_of_an_f32_array_matches_each_component(
        previous in prop::array::uniform3(-1e6_f32..1e6),
        current in prop::array::uniform3(-1e6_f32..1e6),
        alpha in alpha(),
    ) {
        let x = moved(previous, current);
        let ahead = x.ahead(alpha);
        for i in 0..3 {
            prop_assert_eq!(ahead[i].to_bits(), moved(previous[i], current[i]).ahead(alpha).to_bits());
        }
    }
}

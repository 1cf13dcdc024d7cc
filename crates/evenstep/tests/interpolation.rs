//! Interpolation lands on its ends exactly: at `t = 0` the blend is `from`
//! and at `t = 1` it is `to`, bit for bit, for every pair of finite ends, and
//! in between it is finite, never NaN, however far apart the ends are.

mod common;

use evenstep::{Interpolated, Lerp};
use proptest::prelude::*;

#[test]
fn a_blend_far_from_zero_lands_exactly_on_a_small_target() {
    assert_eq!(1e20_f64.lerp(&1.0, 1.0), 1.0);
    assert_eq!(1e8_f32.lerp(&0.5, 1.0), 0.5);
    let mut x = Interpolated::new(1e20_f64);
    x.set(1.0);
    assert_eq!(x.at_f64(1.0), 1.0);
    assert_eq!(x.at_f64(0.0), 1e20);
}

#[test]
fn ends_a_whole_range_apart_blend_without_nan() {
    assert_eq!(f64::MAX.lerp(&-f64::MAX, 0.0), f64::MAX);
    assert_eq!(f64::MAX.lerp(&-f64::MAX, 1.0), -f64::MAX);
    assert_eq!(f64::MAX.lerp(&-f64::MAX, 0.5), 0.0);
    assert_eq!((-f32::MAX).lerp(&f32::MAX, 0.5), 0.0);
    assert_eq!(f32::MAX.lerp(&-f32::MAX, 0.0), f32::MAX);
    assert_eq!(f32::MAX.lerp(&-f32::MAX, 1.0), -f32::MAX);
    let mut x = Interpolated::new(f64::MAX);
    x.set(-f64::MAX);
    assert_eq!(x.at_f64(0.0), f64::MAX);
    // Within an ulp of half the largest float: three quarters of it and a
    // quarter of its negative, each rounded.
    let half_less_an_ulp = f64::from_bits((f64::MAX / 2.0).to_bits() - 1);
    assert_eq!(x.at_f64(0.25), half_less_an_ulp);
}

#[test]
fn a_negative_zero_end_is_kept_bit_for_bit() {
    assert_eq!((-0.0_f64).lerp(&5.0, 0.0).to_bits(), (-0.0_f64).to_bits());
    assert_eq!(5.0_f64.lerp(&-0.0, 1.0).to_bits(), (-0.0_f64).to_bits());
    assert_eq!((-0.0_f32).lerp(&5.0, 0.0).to_bits(), (-0.0_f32).to_bits());
}

#[test]
fn blends_of_nearby_ends_keep_their_values() {
    // The common case is computed as before: `from + (to - from) * t`.
    assert_eq!(0.0_f64.lerp(&10.0, 0.25), 2.5);
    assert_eq!((-1.0_f64).lerp(&3.0, 0.25), 0.0);
    assert_eq!(0.0_f32.lerp(&4.0, 0.25), 1.0);
    assert_eq!([0.0_f32, 10.0].lerp(&[4.0, 20.0], 0.25), [1.0, 12.5]);
    // A blend factor overshooting the ends (a back or elastic easing)
    // extrapolates.
    assert_eq!(0.0_f64.lerp(&10.0, 1.5), 15.0);
    assert_eq!(0.0_f64.lerp(&10.0, -0.5), -5.0);
}

/// Any finite `f64`, the extremes overweighted.
fn finite_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        prop::num::f64::NORMAL | prop::num::f64::SUBNORMAL | prop::num::f64::ZERO,
        prop::sample::select(vec![
            f64::MAX,
            -f64::MAX,
            f64::MIN_POSITIVE,
            -0.0,
            0.0,
            1.0,
            -1.0,
            1e20,
            1e308,
            -1e308,
        ]),
    ]
}

/// Any finite `f32`, the extremes overweighted.
fn finite_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        prop::num::f32::NORMAL | prop::num::f32::SUBNORMAL | prop::num::f32::ZERO,
        prop::sample::select(vec![
            f32::MAX,
            -f32::MAX,
            f32::MIN_POSITIVE,
            -0.0,
            0.0,
            1.0,
            -1.0,
            1e8,
            0.5,
        ]),
    ]
}

/// A blend factor in `[0, 1]`, the ends and their neighbours overweighted.
fn unit() -> impl Strategy<Value = f64> {
    prop_oneof![
        0.0_f64..=1.0,
        prop::sample::select(vec![
            0.0,
            1.0,
            0.5,
            f64::EPSILON,
            1.0 - f64::EPSILON / 2.0,
            f64::MIN_POSITIVE,
            1e-300,
        ]),
    ]
}

proptest! {
    #![proptest_config(common::config(4096))]

    #[test]
    fn every_f64_blend_lands_on_its_ends_and_stays_finite(
        a in finite_f64(),
        b in finite_f64(),
        t in unit(),
    ) {
        prop_assert_eq!(a.lerp(&b, 0.0).to_bits(), a.to_bits());
        prop_assert_eq!(a.lerp(&b, 1.0).to_bits(), b.to_bits());
        let blend = a.lerp(&b, t);
        prop_assert!(blend.is_finite(), "{a} to {b} at {t} gave {blend}");
        let mut x = Interpolated::new(a);
        x.set(b);
        prop_assert_eq!(x.at_f64(0.0).to_bits(), a.to_bits());
        prop_assert_eq!(x.at_f64(1.0).to_bits(), b.to_bits());
        prop_assert_eq!(x.at_f64(t).to_bits(), blend.to_bits());
    }

    #[test]
    fn every_f32_blend_lands_on_its_ends_and_stays_finite(
        a in finite_f32(),
        b in finite_f32(),
        t in unit(),
    ) {
        prop_assert_eq!(a.lerp(&b, 0.0).to_bits(), a.to_bits());
        prop_assert_eq!(a.lerp(&b, 1.0).to_bits(), b.to_bits());
        let blend = a.lerp(&b, t);
        prop_assert!(blend.is_finite(), "{a} to {b} at {t} gave {blend}");
        let pair = [a, b].lerp(&[b, a], 1.0);
        prop_assert_eq!(pair.map(f32::to_bits), [b.to_bits(), a.to_bits()]);
    }
}

//! Hostile input to the core: what a careless or malicious caller can give
//! (tiny and huge speeds, zero periods, ticks at the end of numbering) is
//! answered without a panic, never turned into something else silently, and
//! with every step accounted for.

use evenstep_core::{
    FrameLoop, FrameRateGovernor, Nanos, Speed, SpeedError, StepBudget, Timestamp, Timestep,
};

#[test]
fn a_positive_speed_never_becomes_a_pause() {
    let slowest = Speed::new(1, u16::MAX).unwrap();
    for tiny in [
        1e-5,
        1.0 / 65_536.0,
        1e-9,
        1e-300,
        f64::MIN_POSITIVE,
        5e-324,
    ] {
        let speed = Speed::from_f64(tiny).unwrap();
        assert_eq!(
            speed, slowest,
            "{tiny:e} is nearest the slowest positive speed"
        );
        assert!(!speed.is_paused());
    }
    assert_eq!(Speed::from_f64(0.0).unwrap(), Speed::PAUSED);
    assert_eq!(Speed::from_f64(-0.0).unwrap(), Speed::PAUSED);
}

#[test]
fn a_speed_becomes_the_nearest_fraction_of_small_terms() {
    // 2e-5 is 1/50000 exactly, although its continued fraction in floating
    // point starts 1/49999: the bounded last term finds the nearer one.
    assert_eq!(
        Speed::from_f64(2e-5).unwrap(),
        Speed::new(1, 50_000).unwrap()
    );
    // 1.99999 has no fraction of small terms nearer than 2 (65535/32768 is
    // twice as far).
    assert_eq!(Speed::from_f64(1.999_99).unwrap(), Speed::DOUBLE);
    assert_eq!(Speed::from_f64(65_534.6).unwrap(), Speed::MAX);
}

#[test]
fn a_refused_speed_is_named_briefly() {
    for (bad, shown) in [
        (1e300, "1e300"),
        (-1e-300, "-1e-300"),
        (f64::INFINITY, "inf"),
        (f64::NAN, "NaN"),
    ] {
        let err = Speed::from_f64(bad).unwrap_err();
        assert!(matches!(err, SpeedError::OutOfRange(_)));
        let text = err.to_string();
        assert!(text.contains(shown), "{text}");
        assert!(text.contains("from 0 (paused) to 65535"), "{text}");
        assert!(text.len() < 120, "{} characters: {text}", text.len());
    }
}

#[test]
fn a_governor_told_of_a_zero_refresh_period_answers_without_dividing_by_zero() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    let mut governor = FrameRateGovernor::new();
    for k in 1..=4_u64 {
        let plan = frames.begin_frame(Timestamp::from_nanos(k * 16_666_667));
        governor.observe(plan.raw_delta(), Some(Nanos::ZERO));
    }
    // A zero period is no estimate: the governor keeps the full rate.
    assert_eq!(governor.divisor(), 1);
    assert_eq!(governor.render_cap(), None);
}

#[test]
fn queued_steps_past_the_end_of_tick_numbering_are_reported_as_dropped() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    frames.set_tick(u64::MAX - 2);
    frames.queue_steps(5);
    let plan = frames.begin_frame(Timestamp::ZERO);
    assert_eq!(plan.steps_run(), 2, "ticks u64::MAX - 2 and u64::MAX - 1");
    assert_eq!(
        plan.steps_dropped(),
        3,
        "the three with no tick number left"
    );
    assert_eq!(frames.queued_steps(), 0);
}

#[test]
fn more_steps_dropped_than_a_u64_counts_saturate_the_count_instead_of_wrapping() {
    // A 2.6 ns step at 254x speed, and a jump of 16 years: 4.9e19 steps are
    // due, more than u64::MAX.
    let timestep = Timestep::from_ratio(1_526_726_656, 4).unwrap();
    let mut frames = FrameLoop::new(timestep, StepBudget::try_new(4).unwrap(), Timestamp::ZERO);
    frames.set_speed(Speed::new(65_535, 258).unwrap());
    let plan = frames.begin_frame(Timestamp::from_nanos(504_403_158_265_956_103));
    let per_step = u128::from(timestep.units_per_step());
    let exact = plan.dropped_units() / per_step;
    assert!(exact > u128::from(u64::MAX));
    assert_eq!(plan.steps_dropped(), u64::MAX);
}

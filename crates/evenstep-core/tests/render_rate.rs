//! Which frames are drawn: a render cap that need not be a whole number of
//! renders a second lands exactly that many renders over its period; the
//! governor's thresholds are the caller's, and it works without snapping;
//! the effective speed says what the budget left of the speed.

use core::num::NonZeroU32;

use evenstep_core::{
    FrameLoop, FrameRateGovernor, Nanos, Pacing, Rate, Speed, StepBudget, Timestamp, Timestep,
};

fn n(value: u32) -> NonZeroU32 {
    NonZeroU32::new(value).unwrap()
}

fn renders(frames: &mut FrameLoop, period_num: u64, period_den: u64, count: u64) -> u64 {
    (1..=count)
        .map(|k| {
            let plan = frames.begin_frame(Timestamp::from_nanos(k * period_num / period_den));
            u64::from(plan.render())
        })
        .sum()
}

#[test]
fn a_29_97_cap_on_a_60_hz_display_draws_every_other_frame_and_a_little_less() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    let ntsc = Rate::ratio(30_000, 1_001).unwrap();
    frames.set_render_cap(Some(ntsc));
    // 1,001 s: 60,060 refreshes, 30,000 renders.
    assert_eq!(renders(&mut frames, 1_000_000_000, 60, 60_060), 30_000);
    assert_eq!(frames.render_cap(), Some(ntsc));
    assert_eq!(
        frames
            .render_cap()
            .map(|cap| (cap.events().get(), cap.per_seconds().get())),
        Some((30_000, 1_001))
    );
}

#[test]
fn a_cap_given_in_other_terms_is_the_same_cap_and_does_not_restart() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    frames.set_render_cap(Some(Rate::hz(n(30))));
    let _ = renders(&mut frames, 1_000_000_000, 60, 7);
    let before = frames.clone();
    frames.set_render_cap(Some(Rate::ratio(60, 2).unwrap()));
    assert_eq!(frames, before);
    assert_eq!(
        frames
            .render_cap()
            .map(|cap| (cap.events().get(), cap.per_seconds().get())),
        Some((30, 1))
    );
}

#[test]
fn the_governor_learns_the_display_itself_when_pacing_is_not_snapped() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::CENTRED);
    let mut governor = FrameRateGovernor::new();
    let mut now = 0;
    for _ in 0..40 {
        // Steady 60 Hz frames: the governor learns the period from them.
        now += 16_666_667;
        let plan = frames.begin_frame(Timestamp::from_nanos(now));
        governor.observe(plan.raw_delta(), frames.refresh_period());
    }
    assert_eq!(frames.refresh_period(), None);
    assert_eq!(governor.divisor(), 1);
    for k in 0..64_u64 {
        now += if k % 3 == 2 { 50_000_000 } else { 16_666_667 };
        let plan = frames.begin_frame(Timestamp::from_nanos(now));
        governor.observe(plan.raw_delta(), frames.refresh_period());
    }
    assert!(governor.divisor() > 1, "{governor:?}");
}

#[test]
fn the_governors_thresholds_are_its_own() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    let mut eager = FrameRateGovernor::with_thresholds(n(8), n(1), n(3), n(2));
    let period = Some(Nanos::from_nanos(16_666_667));
    let mut now = 0;
    let mut frame = |frames: &mut FrameLoop, delta: u64| {
        now += delta;
        frames.begin_frame(Timestamp::from_nanos(now))
    };
    let plan = frame(&mut frames, 33_333_334); // one miss halves at once
    eager.observe(plan.raw_delta(), period);
    assert_eq!(eager.divisor(), 2);
    let plan = frame(&mut frames, 33_333_334); // never below a half
    eager.observe(plan.raw_delta(), period);
    assert_eq!(eager.divisor(), 2);
    for _ in 0..3 {
        let plan = frame(&mut frames, 16_666_667);
        eager.observe(plan.raw_delta(), period);
    }
    assert_eq!(eager.divisor(), 1); // three clean frames restore it
    assert_eq!(eager.thresholds(), (n(8), n(1), n(3), n(2)));
}

#[test]
fn the_effective_speed_is_the_speed_until_the_budget_clamps() {
    let mut frames = FrameLoop::new(
        Timestep::HZ_20,
        StepBudget::try_new(3).unwrap(),
        Timestamp::ZERO,
    )
    .with_pacing(Pacing::OFF);
    frames.set_speed(Speed::DOUBLE);
    let plan = frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(50)); // 2 steps
    assert_eq!(plan.effective_speed_f64(), Some(2.0));
    // 200 ms at speed 2 is 8 steps; the budget, scaled by the speed, runs 6.
    let plan = frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(250));
    assert_eq!(plan.steps_run(), 6);
    assert_eq!(plan.effective_speed_f64(), Some(1.5));
    let plan = frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(250));
    assert_eq!(plan.effective_speed_f64(), None);
}

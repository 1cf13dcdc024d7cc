//! Hostile input to the planner: inputs a careless or malicious caller can
//! give (zero periods, ticks at the end of numbering) are answered without a
//! panic and with every step accounted for.

use evenstep_core::{FrameLoop, FrameRateGovernor, Nanos, StepBudget, Timestamp, Timestep};

#[test]
#[ignore = "fixed with the planner rewrite"]
fn a_governor_told_of_a_zero_refresh_period_answers_without_dividing_by_zero() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    let mut governor = FrameRateGovernor::new();
    for k in 1..=4_u64 {
        let plan = frames.begin_frame(Timestamp::from_nanos(k * 16_666_667));
        governor.observe(&plan, Some(Nanos::ZERO));
    }
    let _ = governor.max_fps();
}

#[test]
#[ignore = "fixed with the planner rewrite"]
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

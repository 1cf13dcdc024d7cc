//! The plan names each term of the conservation law: the steps the bank
//! paid for and the time they execute, apart from queued steps; and the
//! common rates a server or a game reaches for are constants.

use evenstep_core::{FrameLoop, Nanos, Pacing, StepBudget, Timestamp, Timestep};

#[test]
fn queued_steps_are_run_but_not_executed_from_the_bank() {
    let mut frames = FrameLoop::new(Timestep::HZ_20, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF);
    frames.queue_steps(2);
    let plan = frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(120));
    assert_eq!(plan.steps_run(), 4);
    assert_eq!(plan.steps_queued(), 2);
    assert_eq!(plan.steps_from_bank(), 2);
    // Two 50 ms steps of 50,000,000 units each.
    assert_eq!(plan.executed_units(), 100_000_000);
    // Scaled plus shift equals executed plus dropped plus the bank's change.
    assert_eq!(
        plan.scaled_units(),
        plan.executed_units() + plan.dropped_units() + u128::from(plan.remainder_units())
    );
}

#[test]
fn the_slow_rates_are_constants_equal_to_their_hz() {
    assert_eq!(Timestep::HZ_10, Timestep::from_hz(10).unwrap());
    assert_eq!(Timestep::HZ_15, Timestep::from_hz(15).unwrap());
    assert_eq!(Timestep::HZ_20, Timestep::from_hz(20).unwrap());
}

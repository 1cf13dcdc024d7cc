//! Steps given back, between random operations: a refund keeps the time
//! banked and a skip drops it, and through both the conservation law
//! (submitted + phase shift = executed + dropped + banked) holds exactly,
//! the tick is the steps that ran, the bank never holds more whole steps
//! than the budget, and the simulated time still tracks the speed times
//! the time accounted for.

mod common;

use common::{Op, budget, config, display_ops, ops, pacing, timestep};
use evenstep_core::{FrameLoop, Nanos, Pacing, StepBudget, Timestamp, Timestep};
use proptest::prelude::*;

/// What the test does after a frame: give back some of its steps.
#[derive(Clone, Copy, Debug)]
enum Back {
    None,
    Refund(u64),
    Skip(u64),
}

fn back() -> impl Strategy<Value = Back> {
    prop_oneof![
        3 => Just(Back::None),
        2 => (0_u64..8).prop_map(Back::Refund),
        1 => (0_u64..8).prop_map(Back::Skip),
        1 => any::<u64>().prop_map(Back::Refund),
    ]
}

/// Runs `ops`, giving back after each frame what `backs` says, and checks
/// the laws after each operation.
fn check(
    frames: &mut FrameLoop,
    start: u64,
    ops: &[Op],
    backs: &[Back],
) -> Result<(), TestCaseError> {
    let per_step = u128::from(frames.timestep().units_per_step());
    let start_bank = i128::try_from(frames.remainder_units()).unwrap();
    let (mut submitted, mut executed, mut dropped, mut shifted) = (0_u128, 0_u128, 0_u128, 0_i128);
    let mut ran = 0_u64;
    let mut now = start;
    for (i, op) in ops.iter().enumerate() {
        let plan = match *op {
            Op::Forward(by) => {
                now = now.saturating_add(by);
                frames.begin_frame(Timestamp::from_nanos(now))
            }
            Op::Backward(by) => {
                now = now.saturating_sub(by);
                frames.begin_frame(Timestamp::from_nanos(now))
            }
            Op::At(t) => {
                now = t;
                frames.begin_frame(Timestamp::from_nanos(now))
            }
            Op::Speed(s) => {
                frames.set_speed(s);
                continue;
            }
            Op::Queue(n) => {
                frames.queue_steps(n);
                continue;
            }
            Op::Resync(by) => {
                now = now.saturating_add(by);
                frames.resync(Timestamp::from_nanos(now));
                continue;
            }
            Op::CatchUp(span) => frames.catch_up(Nanos::from_nanos(span)),
            Op::Pacing(p) => {
                frames.set_pacing(p);
                continue;
            }
            Op::Cap(cap) => {
                frames.set_render_cap(cap);
                continue;
            }
            Op::Shown { back, offset } => {
                common::report_shown(frames, back, offset, now);
                continue;
            }
        };
        submitted += plan.scaled_units();
        shifted += plan.phase_shift_units();
        executed += u128::from(plan.steps_from_bank()) * per_step;
        dropped += plan.dropped_units();
        ran += plan.steps_run();
        let given = match backs[i % backs.len()] {
            Back::None => continue,
            Back::Refund(n) => frames.refund_steps(&plan, n),
            Back::Skip(n) => frames.skip_steps(&plan, n),
        };
        prop_assert!(given.refunded + given.dropped <= plan.steps_run());
        executed -= given.refunded_units + given.dropped_units;
        dropped += given.dropped_units;
        ran -= given.refunded + given.dropped;
        prop_assert_eq!(frames.tick(), ran, "the tick is the steps that ran");
        let limit = u128::from(frames.budget().get()) * u128::from(frames.speed().budget_factor());
        prop_assert!(
            frames.remainder_units() / per_step <= limit.max(1),
            "the bank holds at most the budget"
        );
        prop_assert_eq!(
            i128::try_from(submitted).unwrap()
                + shifted
                + start_bank
                + frames.pending_phase_shift_units(),
            i128::try_from(executed + dropped + frames.remainder_units()).unwrap(),
            "conservation"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(384))]

    #[test]
    fn refunds_and_skips_between_random_operations_keep_every_law(
        timestep in timestep(),
        budget in budget(),
        pacing in pacing(),
        start in any::<u64>(),
        ops in prop_oneof![ops(64), display_ops(4)],
        backs in prop::collection::vec(back(), 1..16),
    ) {
        let mut frames = FrameLoop::new(timestep, budget, Timestamp::from_nanos(start)).with_pacing(pacing);
        let start = frames.last_frame().as_nanos();
        check(&mut frames, start, &ops, &backs)?;
    }

    /// Lockstep: every frame's steps refunded but one a peer allows, over
    /// stalls. Refunded time is run later, never lost while it fits the
    /// budget, and what is simulated stays within a step of what was
    /// accounted for less what was dropped.
    #[test]
    fn lockstep_refunds_run_later_and_the_time_scale_law_holds(
        deltas in prop::collection::vec(prop_oneof![8 => 0_u64..40_000_000, 1 => 40_000_000_u64..600_000_000], 1..120),
        allowed in prop::collection::vec(0_u64..3, 1..10),
    ) {
        let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
            .with_pacing(Pacing::OFF);
        let per_step = u128::from(Timestep::HZ_60.units_per_step());
        let (mut now, mut accounted, mut dropped) = (0_u64, 0_u128, 0_u128);
        for (i, delta) in deltas.iter().enumerate() {
            now += delta;
            let plan = frames.begin_frame(Timestamp::from_nanos(now));
            accounted += plan.scaled_units();
            dropped += plan.dropped_units();
            let allow = allowed[i % allowed.len()];
            let given = frames.refund_steps(&plan, plan.steps_run().saturating_sub(allow));
            dropped += given.dropped_units;
            let simulated = u128::from(frames.tick()) * per_step;
            let due = accounted - dropped;
            // Refunded time waits in the bank: the simulated time trails the
            // time due by what the bank holds, no more.
            prop_assert_eq!(simulated + frames.remainder_units(), due);
            prop_assert!(frames.remainder_units() <= u128::from(StepBudget::DEFAULT.get() + 1) * per_step);
        }
    }
}

#[test]
fn a_refund_runs_again_on_the_next_frame_with_the_same_ticks() {
    let mut frames = FrameLoop::new(Timestep::HZ_50, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF);
    let plan = frames.begin_frame(Timestamp::from_nanos(60_000_000));
    assert_eq!((plan.first_tick(), plan.steps_run()), (0, 3));
    let given = frames.refund_steps(&plan, 3);
    assert_eq!((given.refunded, given.dropped, frames.tick()), (3, 0, 0));
    assert_eq!(frames.remainder(), Nanos::from_millis(60));
    // Asking again gives nothing more back: the tick counts none of them.
    assert_eq!(frames.refund_steps(&plan, 1).refunded, 0);
    let plan = frames.begin_frame(Timestamp::from_nanos(70_000_000));
    assert_eq!((plan.first_tick(), plan.steps_run()), (0, 3));
    assert_eq!(frames.remainder(), Nanos::from_millis(10));
}

#[test]
fn a_refund_beyond_what_the_budget_lets_the_bank_hold_is_dropped_and_reported() {
    let budget = |n| StepBudget::new(std::num::NonZeroU32::new(n).unwrap());
    let mut frames =
        FrameLoop::new(Timestep::HZ_50, budget(4), Timestamp::ZERO).with_pacing(Pacing::OFF);
    let plan = frames.begin_frame(Timestamp::from_nanos(90_000_000)); // 4 of 4.5 steps
    assert_eq!(plan.steps_run(), 4);
    // Refunded at a budget of 4, the four fit beside the half step banked,
    // and the next frame runs them again.
    assert_eq!(frames.refund_steps(&plan, 4).refunded, 4);
    let plan = frames.begin_frame(Timestamp::from_nanos(90_000_000));
    assert_eq!((plan.first_tick(), plan.steps_run()), (0, 4));
    // The budget drops to 2 before the refund: the bank may hold 2 whole
    // steps, so 2 are refunded and 2 dropped, reported to the unit.
    frames.set_budget(budget(2));
    let given = frames.refund_steps(&plan, 4);
    assert_eq!((given.refunded, given.dropped), (2, 2));
    assert_eq!(
        given.dropped_units,
        2 * u128::from(Timestep::HZ_50.units_per_step())
    );
    // None of the four ran: the tick goes back by all of them.
    assert_eq!(frames.tick(), 0);
    let plan = frames.begin_frame(Timestamp::from_nanos(90_000_000));
    assert_eq!(
        (plan.first_tick(), plan.steps_run(), plan.steps_dropped()),
        (0, 2, 0)
    );
}

#[test]
fn queued_steps_given_back_are_queued_again_or_dropped_with_no_time() {
    let mut frames = FrameLoop::new(Timestep::HZ_50, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF);
    frames.queue_steps(2);
    let plan = frames.begin_frame(Timestamp::from_nanos(20_000_000)); // 1 + 2 queued
    assert_eq!(plan.steps_run(), 3);
    let given = frames.refund_steps(&plan, 2);
    assert_eq!(
        (given.refunded, given.refunded_units, frames.queued_steps()),
        (2, 0, 2)
    );
    let given = frames.skip_steps(&plan, 5);
    assert_eq!(
        (given.dropped, given.dropped_units, frames.tick()),
        (1, 20_000_000, 0)
    );
}

#[test]
fn nothing_is_given_back_from_a_plan_at_another_step_or_once_the_tick_has_left_it() {
    let mut frames = FrameLoop::new(Timestep::HZ_50, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF);
    let first = frames.begin_frame(Timestamp::from_nanos(40_000_000)); // ticks 0, 1
    let second = frames.begin_frame(Timestamp::from_nanos(80_000_000)); // ticks 2, 3
    assert_eq!(
        frames.refund_steps(&first, 9).refunded,
        0,
        "a later plan ran"
    );
    frames.set_timestep(Timestep::HZ_60);
    assert_eq!(
        frames.skip_steps(&second, 9).dropped,
        0,
        "another step rate"
    );
    let third = frames.begin_frame(Timestamp::from_nanos(120_000_000));
    frames.reset(Timestamp::from_nanos(120_000_000));
    assert_eq!(frames.refund_steps(&third, 9).refunded, 0, "a reset");
    assert_eq!(frames.tick(), 0);
}

#[test]
fn a_catch_ups_steps_refunded_are_banked_within_the_budget_and_the_rest_dropped() {
    let mut frames = FrameLoop::new(Timestep::HZ_50, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF);
    let plan = frames.catch_up(Nanos::from_millis(200)); // 10 steps
    assert_eq!(plan.steps_run(), 10);
    let given = frames.refund_steps(&plan, 8);
    // The budget's 5 whole steps fit the bank; 3 are dropped.
    assert_eq!((given.refunded, given.dropped, frames.tick()), (5, 3, 2));
    assert_eq!(frames.remainder(), Nanos::from_millis(100));
}

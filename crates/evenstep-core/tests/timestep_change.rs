//! Changing the step rate at run time: the banked time is kept as time,
//! re-expressed in the new step's units and rounded down to a whole unit;
//! the tick carries on; simulation time goes on exactly from where it stood;
//! and the conservation law holds in each step's units, under any sequence
//! of frames, controls and changes.

mod common;

use common::{Op, budget, config, ops, pacing, timestep};
use evenstep_core::{FrameLoop, Nanos, Pacing, StepBudget, Timestamp, Timestep};
use proptest::prelude::*;

fn at(nanos: u64) -> Timestamp {
    Timestamp::from_nanos(nanos)
}

#[test]
fn sim_time_goes_on_exactly_through_changes_of_step_that_are_not_whole_nanoseconds() {
    let mut frames =
        FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, at(0)).with_pacing(Pacing::OFF);
    let _ = frames.begin_frame(at(16_666_667)); // one step: 16,666,666⅔ ns
    assert_eq!(frames.tick(), 1);
    frames.set_timestep(Timestep::HZ_20);
    assert_eq!(frames.tick(), 1);
    assert_eq!(frames.simulated(), Nanos::from_nanos(16_666_666));
    let plan = frames.catch_up(Nanos::from_millis(150)); // three 50 ms steps
    assert_eq!(plan.steps_run(), 3);
    // 16,666,666⅔ + 150,000,000: the two thirds are kept, not rounded away.
    assert_eq!(frames.simulated(), Nanos::from_nanos(166_666_666));
    assert_eq!(plan.sim_time(), Nanos::from_nanos(166_666_666));
    let ticks: Vec<_> = plan.steps().map(|s| (s.tick(), s.sim_time())).collect();
    assert_eq!(
        ticks,
        [
            (1, Nanos::from_nanos(16_666_666)),
            (2, Nanos::from_nanos(66_666_666)),
            (3, Nanos::from_nanos(116_666_666)),
        ]
    );

    frames.set_timestep(Timestep::HZ_60);
    let plan = frames.catch_up(Nanos::from_nanos(33_333_334));
    assert_eq!(plan.steps_run(), 2);
    // 166,666,666⅔ + 2 · 16,666,666⅔ = 200,000,000 exactly.
    assert_eq!(frames.simulated(), Nanos::from_millis(200));
    assert_eq!(frames.sim_time_at(4), Nanos::from_nanos(166_666_666));
    assert_eq!(frames.sim_time_at(5), Nanos::from_nanos(183_333_333));
}

#[test]
fn the_bank_is_kept_as_time_rounded_down_to_a_whole_unit_of_the_new_step() {
    let mut frames =
        FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, at(0)).with_pacing(Pacing::OFF);
    let _ = frames.begin_frame(at(10_000_001));
    assert_eq!(frames.remainder_units(), 30_000_003); // 10,000,001 ns, 3 units each
    frames.set_timestep(Timestep::HZ_30); // 3 units a nanosecond too: nothing lost
    assert_eq!(frames.remainder_units(), 30_000_003);
    frames.set_timestep(Timestep::HZ_20); // 1 unit a nanosecond
    assert_eq!(frames.remainder_units(), 10_000_001);
    assert_eq!(frames.remainder(), Nanos::from_nanos(10_000_001));
}

#[test]
fn a_bank_longer_than_the_new_step_runs_its_whole_steps_at_the_next_frame_under_the_budget() {
    let mut frames = FrameLoop::new(Timestep::HZ_10, StepBudget::try_new(2).unwrap(), at(0))
        .with_pacing(Pacing::OFF);
    let _ = frames.begin_frame(at(99_000_000)); // 99 ms banked at 10 Hz
    frames.set_timestep(Timestep::from_hz(1_000).unwrap()); // 99 steps of 1 ms
    let plan = frames.begin_frame(at(99_000_000));
    assert_eq!(plan.steps_due(), 99);
    assert_eq!(plan.steps_run(), 2);
    assert_eq!(plan.steps_dropped(), 97);
    assert_eq!(frames.remainder_units(), 0);
}

#[test]
fn a_change_to_the_same_rate_keeps_a_pending_phase_shift_for_the_next_plan() {
    // Zero-delta frames under pacing off, then snapped pacing (centred):
    // the bank moves to mid-step, a shift the next plan reports.
    let mut frames =
        FrameLoop::new(Timestep::HZ_30, StepBudget::DEFAULT, at(0)).with_pacing(Pacing::OFF);
    let _ = frames.begin_frame(at(0));
    frames.set_pacing(Pacing::snapped(core::time::Duration::from_millis(2)).unwrap());
    assert_eq!(frames.pending_phase_shift_units(), 50_000_000);
    frames.set_timestep(Timestep::from_hz(30).unwrap());
    assert_eq!(frames.pending_phase_shift_units(), 50_000_000);
    assert_eq!(frames.phase_shift_units(), 0);
    let plan = frames.begin_frame(at(0));
    assert_eq!(plan.phase_shift_units(), 50_000_000);
    assert_eq!(frames.phase_shift_units(), 50_000_000);
}

#[test]
fn a_bank_longer_than_a_u64_of_the_new_units_is_kept_whole_and_its_steps_fall_due() {
    // Ten-second steps with 9.999999999 s banked, changed to 5/4294967291 s
    // steps: the bank is 4.29e19 new units, past a u64, and every one of
    // its 8,589,934,581 whole steps falls due at the next frame.
    let ten_seconds = Timestep::from_duration(core::time::Duration::from_secs(10)).unwrap();
    let mut frames =
        FrameLoop::new(ten_seconds, StepBudget::DEFAULT, at(0)).with_pacing(Pacing::OFF);
    let _ = frames.begin_frame(at(9_999_999_999));
    assert_eq!(frames.remainder(), Nanos::from_nanos(9_999_999_999));
    let tiny = Timestep::from_ratio(4_294_967_291, 5).unwrap();
    frames.set_timestep(tiny);
    let banked = frames.remainder_units();
    assert!(banked > u128::from(u64::MAX));
    assert_eq!(frames.remainder(), Nanos::from_nanos(9_999_999_999));
    let plan = frames.begin_frame(at(9_999_999_999));
    let due = banked / u128::from(tiny.units_per_step());
    assert_eq!(u128::from(plan.steps_due()), due);
    assert_eq!(plan.steps_due(), 8_589_934_581);
    assert_eq!(plan.steps_run(), 5);
    assert_eq!(u128::from(plan.steps_dropped()), due - 5);
    // Nothing vanished: run, dropped and banked add up to what was banked.
    assert_eq!(
        plan.executed_units() + plan.dropped_units() + u128::from(plan.remainder_units()),
        banked
    );
}

#[test]
fn changing_to_the_same_step_changes_nothing() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, at(0))
        .with_pacing(Pacing::snapped(core::time::Duration::from_millis(2)).unwrap());
    let _ = frames.begin_frame(at(16_666_667));
    let before = frames.clone();
    frames.set_timestep(Timestep::from_hz(60).unwrap());
    assert_eq!(frames, before);
}

/// The accumulator's books over a run of frames: what went in and out, in
/// the units of the step in force.
#[derive(Default)]
struct Books {
    submitted: u128,
    shifted: i128,
    executed: u128,
    dropped: u128,
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn the_conservation_law_holds_in_each_steps_units_across_changes(
        first in timestep(),
        budget in budget(),
        pacing in pacing(),
        start in any::<u64>(),
        ops in ops(64),
        changes in prop::collection::vec((0_usize..64, timestep()), 0..4),
    ) {
        let mut frames = FrameLoop::new(first, budget, at(start)).with_pacing(pacing);
        let mut now = start;
        let mut books = Books::default();
        let mut opening_bank = i128::try_from(frames.remainder_units()).unwrap();
        let mut opening_shift = frames.phase_shift_units();
        for (i, op) in ops.into_iter().enumerate() {
            for &(_, step) in changes.iter().filter(|(when, _)| *when == i) {
                if step == frames.timestep() {
                    // A change to the rate in force changes nothing, a
                    // pending shift included: the books go on.
                    let before = frames.clone();
                    frames.set_timestep(step);
                    prop_assert_eq!(&frames, &before);
                    continue;
                }
                // Close the books in the old units: the shift total includes
                // any pending shift, which the change counts now.
                let old = frames.timestep();
                let bank = frames.remainder_units();
                frames.set_timestep(step);
                let shifted = frames.phase_shift_units() - opening_shift;
                prop_assert_eq!(
                    i128::try_from(books.submitted).unwrap() + shifted + opening_bank,
                    i128::try_from(books.executed + books.dropped + bank).unwrap()
                );
                // The bank, re-expressed and rounded down, whole steps and all.
                let expected = bank * u128::from(step.units_per_nanosecond())
                    / u128::from(old.units_per_nanosecond());
                prop_assert_eq!(frames.remainder_units(), expected);
                books = Books::default();
                opening_bank = i128::try_from(frames.remainder_units()).unwrap();
                opening_shift = frames.phase_shift_units();
            }
            let plan = match op {
                Op::Forward(by) => { now = now.saturating_add(by); frames.begin_frame(at(now)) }
                Op::Backward(by) => { now = now.saturating_sub(by); frames.begin_frame(at(now)) }
                Op::At(t) => { now = t; frames.begin_frame(at(now)) }
                Op::Speed(s) => { frames.set_speed(s); continue }
                Op::Queue(n) => { frames.queue_steps(n); continue }
                Op::Resync(by) => { now = now.saturating_add(by); frames.resync(at(now)); continue }
                Op::CatchUp(span) => frames.catch_up(Nanos::from_nanos(span)),
                Op::Pacing(p) => { frames.set_pacing(p); continue }
                Op::Cap(cap) => { frames.set_render_cap(cap); continue }
                Op::Shown { back, offset } => { common::report_shown(&mut frames, back, offset, now); continue }
            };
            books.submitted += plan.scaled_units();
            books.shifted += plan.phase_shift_units();
            books.executed += plan.executed_units();
            books.dropped += plan.dropped_units();
            prop_assert_eq!(plan.sim_time(), frames.simulated());
        }
        prop_assert_eq!(
            i128::try_from(books.submitted).unwrap() + books.shifted + opening_bank
                + frames.pending_phase_shift_units(),
            i128::try_from(books.executed + books.dropped + frames.remainder_units()).unwrap()
        );
    }

    #[test]
    fn sim_time_after_changes_is_the_sum_of_every_step_run_at_its_own_length(
        steps in prop::collection::vec((timestep(), 0_u64..50), 1..6),
    ) {
        let mut frames = FrameLoop::new(steps[0].0, StepBudget::UNLIMITED, at(0))
            .with_pacing(Pacing::OFF);
        // The exact sum, as a fraction over the product of the denominators
        // seen (at most 5 of them, each under 2^32: under 2^160 would not
        // fit, so compare with floor division step by step instead).
        let mut whole: u128 = 0;
        let mut frac_num: u128 = 0; // over frac_den
        let mut frac_den: u128 = 1;
        for &(step, count) in &steps {
            frames.set_timestep(step);
            frames.queue_steps(u32::try_from(count).unwrap());
            let _ = frames.begin_frame(at(0));
            let units = u128::from(count) * u128::from(step.units_per_step());
            let q = u128::from(step.units_per_nanosecond());
            whole += units / q;
            // frac_num/frac_den + (units % q)/q, kept while it fits.
            let (num, den) = (frac_num * q + (units % q) * frac_den, frac_den * q);
            let g = gcd(num, den);
            let (num, den) = (num / g, den / g);
            whole += num / den;
            frac_num = num % den;
            frac_den = den;
            if frac_den > u128::from(u32::MAX) {
                return Ok(()); // past what the epoch keeps exactly
            }
        }
        prop_assert_eq!(u128::from(frames.simulated().as_nanos()), whole);
    }
}

/// The test's own reduction: its fractions may be zero or exceed 64 bits,
/// which no public type of the crate holds (a `Rate` is never zero).
fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

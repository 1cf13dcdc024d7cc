//! The conservation law: every submitted nanosecond, scaled by the speed, is
//! executed by a step, dropped by the budget, or banked, exactly, in
//! accumulator units. And its companions: the speed carry loses nothing, and
//! the tick rises by exactly the steps run.

mod common;

use common::{Op, budget, config, display_ops, ops, pacing, timestep};
use evenstep_core::{FrameLoop, Speed, Timestamp};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn submitted_time_plus_phase_shift_equals_executed_plus_dropped_plus_banked(
        timestep in timestep(),
        budget in budget(),
        pacing in pacing(),
        start in any::<u64>(),
        ops in prop_oneof![ops(64), display_ops(6)],
    ) {
        let mut frames = FrameLoop::new(timestep, budget, Timestamp::from_nanos(start)).with_pacing(pacing);
        let per_step = u128::from(timestep.units_per_step());
        let mut now = start;
        let start_bank = i128::try_from(frames.remainder_units()).unwrap();
        let (mut submitted, mut executed, mut dropped, mut shifted) = (0_u128, 0_u128, 0_u128, 0_i128);
        for op in ops {
            let plan = match op {
                Op::Forward(by) => { now = now.saturating_add(by); frames.begin_frame(Timestamp::from_nanos(now)) }
                Op::Backward(by) => { now = now.saturating_sub(by); frames.begin_frame(Timestamp::from_nanos(now)) }
                Op::At(t) => { now = t; frames.begin_frame(Timestamp::from_nanos(now)) }
                Op::Speed(s) => { frames.set_speed(s); continue }
                Op::Queue(n) => { frames.queue_steps(n); continue }
                Op::Resync(by) => { now = now.saturating_add(by); frames.resync(Timestamp::from_nanos(now)); continue }
                Op::CatchUp(span) => frames.catch_up(evenstep_core::Nanos::from_nanos(span)),
                Op::Pacing(p) => { frames.set_pacing(p); continue }
                Op::Cap(cap) => { frames.set_render_cap(cap); continue }
                Op::Shown { back, offset } => { common::report_shown(&mut frames, back, offset, now); continue }
            };
            submitted += plan.scaled_units();
            shifted += plan.phase_shift_units();
            executed += u128::from(plan.steps_run() - plan.steps_queued()) * per_step;
            dropped += plan.dropped_units();
            prop_assert_eq!(plan.dropped_units(), u128::from(plan.steps_dropped()) * per_step);
            prop_assert_eq!(u128::from(plan.remainder_units()), frames.remainder_units());
            // Plan by plan: the bank before, what the frame banked, and the
            // shift are the steps the bank paid and the remainder.
            let paid = u128::from(plan.steps_run() - plan.steps_queued()) * per_step
                + u128::from(plan.remainder_units());
            let signed = |units: u128| i128::try_from(units).unwrap();
            prop_assert_eq!(
                signed(plan.bank_before_units()) + signed(plan.scaled_units()) - signed(plan.dropped_units())
                    + plan.phase_shift_units(),
                signed(paid)
            );
        }
        let banked = frames.remainder_units();
        prop_assert!(banked < per_step);
        // Pacing changes made after the last frame are still pending.
        prop_assert_eq!(
            i128::try_from(submitted).unwrap() + shifted + start_bank + frames.pending_phase_shift_units(),
            i128::try_from(executed + dropped + banked).unwrap()
        );
    }

    #[test]
    fn at_normal_speed_the_submitted_time_is_exactly_the_raw_delta(
        timestep in timestep(),
        budget in budget(),
        deltas in prop::collection::vec(any::<u32>(), 1..64),
    ) {
        let mut frames = FrameLoop::new(timestep, budget, Timestamp::ZERO);
        let mut now = 0_u64;
        for delta in deltas {
            now += u64::from(delta);
            let plan = frames.begin_frame(Timestamp::from_nanos(now));
            prop_assert_eq!(
                plan.scaled_units(),
                u128::from(delta) * u128::from(timestep.units_per_nanosecond())
            );
            prop_assert_eq!(plan.raw_delta().as_nanos(), u64::from(delta));
        }
    }

    #[test]
    fn a_constant_fractional_speed_loses_nothing_between_frames(
        timestep in timestep(),
        num in 0_u16..=64,
        den in 1_u16..=64,
        deltas in prop::collection::vec(0_u64..100_000_000, 1..64),
    ) {
        let speed = Speed::new(num, den).unwrap();
        let mut frames = FrameLoop::new(timestep, evenstep_core::StepBudget::UNLIMITED, Timestamp::ZERO);
        frames.set_speed(speed);
        let (mut now, mut submitted) = (0_u64, 0_u128);
        for delta in deltas {
            now += delta;
            submitted += frames.begin_frame(Timestamp::from_nanos(now)).scaled_units();
        }
        // The sum of the per-frame floors is the floor of the whole.
        let whole = u128::from(now) * u128::from(timestep.units_per_nanosecond())
            * u128::from(speed.numerator()) / u128::from(speed.denominator());
        prop_assert_eq!(submitted, whole);
    }

    #[test]
    fn the_tick_rises_by_exactly_the_steps_run(
        timestep in timestep(),
        budget in budget(),
        ops in ops(64),
    ) {
        let mut frames = FrameLoop::new(timestep, budget, Timestamp::ZERO);
        let mut now = 0_u64;
        for op in ops {
            let catching_up = matches!(op, Op::CatchUp(_));
            let plan = match op {
                Op::Forward(by) => { now = now.saturating_add(by); frames.begin_frame(Timestamp::from_nanos(now)) }
                Op::Backward(by) => { now = now.saturating_sub(by); frames.begin_frame(Timestamp::from_nanos(now)) }
                Op::At(t) => { now = t; frames.begin_frame(Timestamp::from_nanos(now)) }
                Op::Speed(s) => { frames.set_speed(s); continue }
                Op::Queue(n) => { frames.queue_steps(n); continue }
                Op::Resync(_) => continue,
                Op::CatchUp(span) => frames.catch_up(evenstep_core::Nanos::from_nanos(span)),
                Op::Pacing(p) => { frames.set_pacing(p); continue }
                Op::Cap(cap) => { frames.set_render_cap(cap); continue }
                Op::Shown { back, offset } => { common::report_shown(&mut frames, back, offset, now); continue }
            };
            let before = plan.first_tick();
            prop_assert_eq!(frames.tick(), before + plan.steps_run());
            prop_assert_eq!(plan.steps().len() as u64, plan.steps_run());
            // Only small plans are walked, to keep the suite fast.
            if plan.steps_run() <= 4096 {
                let mut expect = before;
                for step in plan.steps() {
                    prop_assert_eq!(step.tick(), expect);
                    expect += 1;
                }
                prop_assert_eq!(expect, frames.tick());
            }
            if !catching_up {
                let limit = u64::from(frames.budget().get()) * u64::from(frames.speed().budget_factor());
                prop_assert!(plan.steps_run() - plan.steps_queued() <= limit);
            }
        }
    }
}

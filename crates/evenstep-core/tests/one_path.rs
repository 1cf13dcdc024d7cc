//! The common frame plans what every frame plans: the planner's 64-bit
//! common frame (normal speed, no render cap, nothing queued, snapped or
//! not) gives, field for field, the plan the general rule gives. A render
//! cap that admits every frame changes nothing but sends each frame by the
//! general rule, so twin planners, one with such a cap and one without, must
//! agree on every plan but its `render`, hidden frames included, across
//! changes of the step rate too.

mod common;

use std::num::NonZeroU32;

use common::{Op, budget, config, display_ops, ops, timestep};
use evenstep_core::{FrameLoop, FramePlan, Nanos, Pacing, Rate, StepBudget, Timestamp, Timestep};
use proptest::prelude::*;

/// A cap no display reaches: every shown frame a nanosecond or more after
/// the previous one renders.
const ADMITS_ALL: Option<Rate> = Some(Rate::hz(NonZeroU32::new(1_000_000_000).unwrap()));

/// Plans `now` on both twins, hidden or shown, and returns both plans.
fn both(plain: &mut FrameLoop, capped: &mut FrameLoop, now: u64, hidden: bool) -> [FramePlan; 2] {
    let now = Timestamp::from_nanos(now);
    if hidden {
        [
            plain.begin_hidden_frame(now),
            capped.begin_hidden_frame(now),
        ]
    } else {
        [plain.begin_frame(now), capped.begin_frame(now)]
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Frame,
    CatchUp,
}

/// Everything a plan says but whether to render.
fn steps_and_bank(plan: &FramePlan) -> impl PartialEq + core::fmt::Debug {
    (
        (
            plan.timestep(),
            plan.speed(),
            plan.raw_delta(),
            plan.scaled_units(),
        ),
        (
            plan.steps_due(),
            plan.steps_run(),
            plan.steps_queued(),
            plan.dropped_units(),
        ),
        (plan.first_tick(), plan.remainder_units(), plan.clamped()),
        (plan.phase_shift_units(), plan.snapped(), plan.alpha()),
    )
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn the_common_frame_plans_what_the_general_rule_plans(
        timestep in timestep(),
        budget in budget(),
        pacing in common::pacing(),
        start in any::<u64>(),
        ops in prop_oneof![ops(96), display_ops(6)],
        hidden_every in prop_oneof![2_usize..7, 40_usize..200],
        changes in prop::collection::vec((0_usize..96, timestep()), 0..4),
    ) {
        let start_at = Timestamp::from_nanos(start);
        let mut plain = FrameLoop::new(timestep, budget, start_at).with_pacing(pacing);
        let mut capped = plain.clone();
        capped.set_render_cap(ADMITS_ALL);
        let mut now = start;
        for (i, op) in ops.into_iter().enumerate() {
            for &(_, step) in changes.iter().filter(|(when, _)| *when == i) {
                plain.set_timestep(step);
                capped.set_timestep(step);
            }
            let op_kind = if matches!(op, Op::CatchUp(_)) { Kind::CatchUp } else { Kind::Frame };
            let hidden = i % hidden_every == 0 && op_kind == Kind::Frame;
            let [a, b] = match op {
                Op::Forward(d) => { now = now.saturating_add(d); both(&mut plain, &mut capped, now, hidden) }
                Op::Backward(d) => { now = now.saturating_sub(d); both(&mut plain, &mut capped, now, hidden) }
                Op::At(t) => { now = t; both(&mut plain, &mut capped, now, hidden) }
                Op::CatchUp(span) => [plain.catch_up(Nanos::from_nanos(span)), capped.catch_up(Nanos::from_nanos(span))],
                Op::Speed(speed) => { plain.set_speed(speed); capped.set_speed(speed); continue }
                Op::Queue(n) => { plain.queue_steps(n); capped.queue_steps(n); continue }
                Op::Resync(d) => {
                    let at = Timestamp::from_nanos(now.saturating_add(d));
                    plain.resync(at);
                    capped.resync(at);
                    continue
                }
                Op::Pacing(p) => {
                    plain.set_pacing(p);
                    capped.set_pacing(p);
                    continue
                }
                Op::Cap(_) => continue,
                Op::Shown { back, offset } => {
                    common::report_shown(&mut plain, back, offset, now);
                    common::report_shown(&mut capped, back, offset, now);
                    continue
                }
            };
            prop_assert_eq!(steps_and_bank(&a), steps_and_bank(&b), "op {}", i);
            prop_assert_eq!(a.render(), !hidden && !matches!(op_kind, Kind::CatchUp));
            prop_assert_eq!(plain.remainder_units(), capped.remainder_units());
            prop_assert_eq!(plain.phase_shift_units(), capped.phase_shift_units());
        }
    }
}

#[test]
fn a_hidden_frame_never_renders_under_any_pacing() {
    for pacing in [
        Pacing::OFF,
        Pacing::CENTRED,
        Pacing::LOCKED,
        Pacing::snapped(std::time::Duration::from_millis(2)).unwrap(),
    ] {
        let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
            .with_pacing(pacing);
        let plan = frames.begin_hidden_frame(Timestamp::from_nanos(16_666_667));
        assert!(!plan.render(), "{pacing:?}");
        assert_eq!(plan.steps_run(), 1, "{pacing:?}");
        let plan = frames.begin_frame(Timestamp::from_nanos(33_333_334));
        assert!(plan.render(), "{pacing:?}");
    }
}

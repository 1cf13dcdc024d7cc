//! Totality: the planner accepts every `u64` timestamp under every valid
//! configuration without panicking, and the blend factor is in `[0, 1)` for
//! every timestep and remainder.

mod common;

use common::{Op, budget, config, display_ops, pacing, speed, timestep};
use evenstep_core::{Alpha, FrameLoop, StateHash, Timestamp};
use proptest::prelude::*;

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn any_timestamps_under_any_configuration_plan_without_panicking(
        timestep in timestep(),
        budget in budget(),
        speed in speed(),
        start in any::<u64>(),
        stamps in prop::collection::vec(any::<u64>(), 1..32),
        queued in any::<u32>(),
    ) {
        let mut frames = FrameLoop::new(timestep, budget, Timestamp::from_nanos(start));
        frames.set_speed(speed);
        frames.queue_steps(queued);
        let mut hash = StateHash::new();
        for stamp in stamps {
            let plan = frames.begin_frame(Timestamp::from_nanos(stamp));
            hash.absorb_plan(&plan);
            let alpha = plan.alpha();
            prop_assert!((0.0..1.0).contains(&alpha.as_f32()));
            prop_assert!((0.0..1.0).contains(&alpha.as_f64()));
            prop_assert!(plan.steps_run() >= plan.steps_queued());
            prop_assert!(plan.steps_due() >= plan.steps_run() - plan.steps_queued());
            let _ = (plan.dropped(), plan.scaled_delta(), plan.remainder(), plan.sim_time());
            let _ = plan.steps().next_back().map(|s| (s.sim_time(), s.sim_time_after()));
        }
        let _ = (frames.simulated(), frames.remainder(), hash.finish());
    }

    #[test]
    fn display_like_frames_under_any_pacing_plan_without_panicking(
        timestep in timestep(),
        budget in budget(),
        pacing in pacing(),
        start in any::<u64>(),
        ops in display_ops(8),
    ) {
        let mut frames = FrameLoop::new(timestep, budget, Timestamp::from_nanos(start)).with_pacing(pacing);
        let mut now = start;
        for op in ops {
            let plan = match op {
                Op::Forward(by) => { now = now.saturating_add(by); frames.begin_frame(Timestamp::from_nanos(now)) }
                Op::Backward(by) => { now = now.saturating_sub(by); frames.begin_hidden_frame(Timestamp::from_nanos(now)) }
                Op::At(t) => { now = t; frames.begin_frame(Timestamp::from_nanos(now)) }
                Op::Speed(s) => { frames.set_speed(s); continue }
                Op::Queue(n) => { frames.queue_steps(n); continue }
                Op::Resync(by) => { now = now.saturating_add(by); frames.resync(Timestamp::from_nanos(now)); continue }
                Op::CatchUp(span) => frames.catch_up(evenstep_core::Nanos::from_nanos(span)),
                Op::Pacing(p) => { frames.set_pacing(p); continue }
                Op::Cap(cap) => { frames.set_render_cap(cap); continue }
                Op::Shown { back, offset } => { common::report_shown(&mut frames, back, offset, now); continue }
            };
            prop_assert!((0.0..1.0).contains(&plan.alpha().as_f64()));
            prop_assert!(plan.steps_run() >= plan.steps_queued());
            prop_assert!(plan.remainder_units() < timestep.units_per_step());
            let _ = (frames.refresh_period(), plan.snapped(), plan.phase_shift_units());
        }
    }

    #[test]
    fn alpha_is_in_the_unit_interval_for_every_timestep_and_remainder(
        timestep in timestep(),
        fraction in any::<u64>(),
    ) {
        let per_step = timestep.units_per_step();
        let remainder = fraction % per_step;
        let alpha = Alpha::new(remainder, timestep);
        prop_assert_eq!(alpha.ratio(), (remainder, per_step));
        prop_assert!((0.0..1.0).contains(&alpha.as_f32()), "{}", alpha.as_f32());
        prop_assert!((0.0..1.0).contains(&alpha.as_f64()), "{}", alpha.as_f64());
        // The largest remainder is the edge case that rounds to 1.0 naively.
        let top = Alpha::new(per_step - 1, timestep);
        prop_assert!(top.as_f32() < 1.0 && top.as_f64() < 1.0);
    }
}

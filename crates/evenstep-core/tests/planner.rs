//! The planner's rules, frame by frame, with exact values: the accumulator,
//! the budget, backwards clocks, resync and reset, speed, queued steps and
//! saturation at both ends of `u64`. Pacing is off here, so the bank starts
//! empty and the numbers are the plain accumulator's; `tests/pacing.rs` pins
//! what pacing changes.

use evenstep_core::{FrameLoop, FramePlan, Nanos, Pacing, Speed, StepBudget, Timestamp, Timestep};

const HZ60: Timestep = Timestep::HZ_60;
/// Accumulator units in one 60 Hz step.
const STEP: u128 = 50_000_000;

fn at(ms: u64) -> Timestamp {
    Timestamp::ZERO + Nanos::from_millis(ms)
}

fn loop60() -> FrameLoop {
    FrameLoop::new(HZ60, StepBudget::DEFAULT, Timestamp::ZERO).with_pacing(Pacing::OFF)
}

fn ticks(plan: &FramePlan) -> Vec<u64> {
    plan.steps().map(|s| s.tick()).collect()
}

#[test]
fn a_frame_at_the_anchor_has_a_zero_delta_runs_no_step_and_renders_at_zero() {
    let mut frames = loop60();
    let plan = frames.begin_frame(Timestamp::ZERO);
    assert_eq!(plan.raw_delta(), Nanos::ZERO);
    assert_eq!(plan.steps_run(), 0);
    assert_eq!(plan.steps().len(), 0);
    assert_eq!(plan.alpha().ratio(), (0, 50_000_000));
    assert!(!plan.clamped());
}

#[test]
fn one_step_of_wall_time_runs_one_step_and_banks_the_excess_unit() {
    let mut frames = loop60();
    let plan = frames.begin_frame(Timestamp::from_nanos(16_666_667));
    assert_eq!(plan.steps_run(), 1);
    assert_eq!(plan.scaled_units(), 50_000_001);
    assert_eq!(
        plan.remainder_units(),
        1,
        "a third of a nanosecond stays banked"
    );
    assert_eq!(plan.remainder(), Nanos::ZERO);
    assert_eq!(ticks(&plan), [0]);
    let plan = frames.begin_frame(Timestamp::from_nanos(16_666_667 - 1));
    assert_eq!(plan.steps_run(), 0, "a backwards stamp is a zero delta");
}

#[test]
fn the_remainder_is_banked_across_frames() {
    let mut frames = loop60();
    let plan = frames.begin_frame(at(10));
    assert_eq!((plan.steps_run(), plan.remainder_units()), (0, 30_000_000));
    assert_eq!(plan.alpha().as_f64(), 0.6);
    let plan = frames.begin_frame(at(20));
    assert_eq!((plan.steps_run(), plan.remainder_units()), (1, 10_000_000));
    assert_eq!(plan.remainder(), Nanos::from_nanos(3_333_333));
    assert_eq!(frames.remainder_units(), 10_000_000);
}

#[test]
fn sixty_frames_of_a_sixtieth_of_a_second_run_sixty_steps_and_one_exact_second() {
    let mut frames = loop60();
    let mut run = 0;
    for k in 1..=60_u64 {
        // The display's own timestamps: k/60 s rounded down to the nanosecond.
        let plan = frames.begin_frame(Timestamp::from_nanos(k * 1_000_000_000 / 60));
        run += plan.steps_run();
    }
    assert_eq!(run, 60);
    assert_eq!(frames.tick(), 60);
    assert_eq!(frames.simulated(), Nanos::from_secs(1));
    assert_eq!(frames.remainder_units(), 0, "no drift: nothing left over");
}

#[test]
fn a_stall_beyond_the_budget_drops_whole_steps_and_reports_them() {
    let mut frames = loop60();
    let plan = frames.begin_frame(at(210));
    assert_eq!(plan.steps_due(), 12);
    assert_eq!(plan.steps_run(), 5);
    assert_eq!(plan.steps_dropped(), 7);
    assert_eq!(plan.dropped_units(), 7 * STEP);
    assert_eq!(plan.dropped(), Nanos::from_nanos(116_666_666));
    assert!(plan.clamped());
    assert_eq!(
        plan.remainder_units(),
        30_000_000,
        "the sub-step remainder is kept"
    );
    assert_eq!(ticks(&plan), [0, 1, 2, 3, 4]);
    // Nothing is banked: the next ordinary frame runs one step.
    let plan = frames.begin_frame(at(210) + Nanos::from_nanos(16_666_667));
    assert_eq!(plan.steps_run(), 1);
    assert!(!plan.clamped());
}

#[test]
fn exactly_the_budget_is_not_a_clamp() {
    let mut frames = FrameLoop::new(Timestep::HZ_50, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF);
    let plan = frames.begin_frame(at(100));
    assert_eq!(
        (plan.steps_due(), plan.steps_run(), plan.steps_dropped()),
        (5, 5, 0)
    );
    assert!(!plan.clamped());
    let plan = frames.begin_frame(at(220));
    assert_eq!(
        (plan.steps_due(), plan.steps_run(), plan.steps_dropped()),
        (6, 5, 1)
    );
    assert_eq!(plan.dropped(), Nanos::from_millis(20));
}

#[test]
fn a_backwards_timestamp_is_a_zero_delta_and_becomes_the_anchor() {
    let mut frames = loop60();
    let _ = frames.begin_frame(at(100));
    let plan = frames.begin_frame(at(50));
    assert_eq!(plan.raw_delta(), Nanos::ZERO);
    assert_eq!(plan.steps_run(), 0);
    assert_eq!(frames.last_frame(), at(50));
    // Progress is measured from the new anchor, not the old one.
    let plan = frames.begin_frame(at(50) + Nanos::from_nanos(16_666_667));
    assert_eq!(plan.raw_delta(), Nanos::from_nanos(16_666_667));
}

#[test]
fn resync_forgets_the_gap_and_keeps_the_remainder_and_the_tick() {
    let mut frames = loop60();
    let _ = frames.begin_frame(at(25));
    assert_eq!((frames.tick(), frames.remainder_units()), (1, 25_000_000));
    frames.resync(at(10_000));
    let plan = frames.begin_frame(at(10_000));
    assert_eq!(plan.raw_delta(), Nanos::ZERO);
    assert_eq!(plan.steps_run(), 0);
    assert!(!plan.clamped());
    assert_eq!((frames.tick(), frames.remainder_units()), (1, 25_000_000));
}

#[test]
fn reset_empties_the_bank_the_queue_and_the_tick() {
    let mut frames = loop60();
    let _ = frames.begin_frame(at(25));
    frames.queue_steps(3);
    frames.reset(at(1_000));
    assert_eq!(frames.tick(), 0);
    assert_eq!(frames.remainder_units(), 0);
    assert_eq!(frames.queued_steps(), 0);
    let plan = frames.begin_frame(at(1_000));
    assert_eq!(plan.steps_run(), 0);
}

#[test]
fn half_speed_runs_half_the_steps() {
    let mut frames = loop60();
    frames.set_speed(Speed::HALF);
    let plan = frames.begin_frame(at(1_000));
    assert_eq!(plan.scaled_delta(), Nanos::from_millis(500));
    assert_eq!(plan.steps_due(), 30);
    assert_eq!(plan.steps_run(), 5);
    assert_eq!(plan.raw_delta(), Nanos::from_secs(1));
}

#[test]
fn a_fractional_speed_carries_the_sub_unit_fraction_to_the_next_frame() {
    // At 1/2 speed a 1 ns frame is 3 units · 1/2 = 1.5 units: 1, then 2.
    let mut frames = loop60();
    frames.set_speed(Speed::HALF);
    let scaled: Vec<u128> = (1..=4)
        .map(|ns| frames.begin_frame(Timestamp::from_nanos(ns)).scaled_units())
        .collect();
    assert_eq!(scaled, [1, 2, 1, 2]);
}

#[test]
fn a_paused_loop_runs_no_steps_and_keeps_its_alpha() {
    let mut frames = loop60();
    let _ = frames.begin_frame(at(25));
    let alpha = frames.alpha();
    frames.set_speed(Speed::PAUSED);
    for ms in [1_000, 60_000, 3_600_000] {
        let plan = frames.begin_frame(at(ms));
        assert_eq!(plan.steps_run(), 0);
        assert_eq!(plan.scaled_units(), 0);
        assert!(!plan.clamped(), "a pause is not a stall");
        assert_eq!(plan.alpha(), alpha);
    }
    frames.set_speed(Speed::NORMAL);
    frames.resync(at(3_600_000));
    let plan = frames.begin_frame(at(3_600_000) + Nanos::from_nanos(8_333_334));
    assert_eq!(
        plan.steps_run(),
        1,
        "resume continues from the kept remainder"
    );
}

#[test]
fn above_normal_speed_the_budget_scales_by_the_ceiling_of_the_speed() {
    let mut frames = loop60();
    frames.set_speed(Speed::new(5, 2).unwrap()); // 2.5×: budget 5 · 3 = 15
    let plan = frames.begin_frame(at(200));
    assert_eq!(plan.scaled_delta(), Nanos::from_millis(500));
    assert_eq!(plan.steps_due(), 30);
    assert_eq!(plan.steps_run(), 15);
    assert_eq!(plan.steps_dropped(), 15);
    // A steady 4× second at 60 fps runs 240 steps and drops nothing, although
    // the budget is 5 and 4× frames take about 4 steps each.
    let mut frames = loop60();
    frames.set_speed(Speed::new(4, 1).unwrap());
    let mut run = 0;
    for k in 1..=60_u64 {
        let plan = frames.begin_frame(Timestamp::from_nanos(k * 1_000_000_000 / 60));
        assert!(!plan.clamped(), "frame {k}");
        run += plan.steps_run();
    }
    assert_eq!(run, 240);
}

#[test]
fn queued_steps_run_outside_the_budget_and_while_paused() {
    let mut frames = loop60();
    frames.set_speed(Speed::PAUSED);
    frames.queue_steps(2);
    frames.queue_steps(1);
    assert_eq!(frames.queued_steps(), 3);
    let plan = frames.begin_frame(at(500));
    assert_eq!(plan.steps_run(), 3);
    assert_eq!(plan.steps_queued(), 3);
    assert_eq!(plan.steps_due(), 0);
    assert_eq!(
        plan.remainder_units(),
        0,
        "queued steps leave the bank alone"
    );
    assert_eq!(ticks(&plan), [0, 1, 2]);
    assert_eq!(frames.queued_steps(), 0, "a queue is spent by one frame");
    assert_eq!(frames.begin_frame(at(600)).steps_run(), 0);

    frames.set_speed(Speed::NORMAL);
    frames.queue_steps(2);
    let plan = frames.begin_frame(at(800)); // 200 ms: 12 due, 5 run, 7 dropped
    assert_eq!(plan.steps_run(), 7);
    assert_eq!(plan.steps_queued(), 2);
    assert_eq!(plan.steps_dropped(), 7);
    assert_eq!(ticks(&plan), [3, 4, 5, 6, 7, 8, 9]);
}

#[test]
fn queuing_zero_steps_changes_nothing() {
    let mut frames = loop60();
    frames.queue_steps(0);
    assert_eq!(frames.begin_frame(at(1)).steps_run(), 0);
}

#[test]
fn steps_carry_their_tick_exact_sim_time_and_the_one_dt() {
    let mut frames = loop60();
    let plan = frames.begin_frame(at(50)); // 3 steps
    let steps: Vec<_> = plan.steps().collect();
    assert_eq!(steps.len(), 3);
    let times: Vec<u64> = steps.iter().map(|s| s.sim_time().as_nanos()).collect();
    assert_eq!(times, [0, 16_666_666, 33_333_333]);
    assert_eq!(steps[2].sim_time_after(), Nanos::from_millis(50));
    assert!(
        steps
            .iter()
            .all(|s| s.dt() == HZ60 && s.dt_secs_f64() == 1.0 / 60.0)
    );
    let back: Vec<u64> = plan.steps().rev().map(|s| s.tick()).collect();
    assert_eq!(back, [2, 1, 0]);
    assert_eq!(plan.sim_time(), Nanos::from_millis(50));
    assert_eq!(plan.end_tick(), 3);
}

#[test]
fn a_setter_that_changes_nothing_leaves_the_planner_equal_to_a_new_one() {
    use core::hash::{Hash, Hasher};
    /// Everything a hasher is fed, in order: equal feeds, equal hashes.
    #[derive(Default)]
    struct Feed(Vec<u8>);
    impl Hasher for Feed {
        fn finish(&self) -> u64 {
            0
        }
        fn write(&mut self, bytes: &[u8]) {
            self.0.extend_from_slice(bytes);
        }
    }
    fn hash_of(frames: &FrameLoop) -> Vec<u8> {
        let mut feed = Feed::default();
        frames.hash(&mut feed);
        feed.0
    }
    let fresh = FrameLoop::new(HZ60, StepBudget::DEFAULT, Timestamp::ZERO);
    let mut budget = fresh.clone();
    budget.set_budget(StepBudget::DEFAULT);
    let mut reset = fresh.clone();
    reset.reset(Timestamp::ZERO);
    let locked = fresh.clone().with_pacing(Pacing::LOCKED);
    for same in [budget, reset, locked] {
        assert_eq!(same, fresh);
        assert_eq!(hash_of(&same), hash_of(&fresh));
    }
}

#[test]
fn steps_taken_from_both_ends_meet_without_a_gap_or_a_repeat() {
    let mut frames = loop60();
    let plan = frames.begin_frame(at(90)); // 5 steps: ticks 0..=4
    let mut steps = plan.steps();
    assert_eq!(steps.len(), 5);
    assert_eq!(steps.next().map(|s| s.tick()), Some(0));
    assert_eq!(steps.next_back().map(|s| s.tick()), Some(4));
    assert_eq!(steps.next().map(|s| s.tick()), Some(1));
    assert_eq!(steps.len(), 2);
    assert_eq!(steps.size_hint(), (2, Some(2)));
    let middle: Vec<u64> = steps.by_ref().map(|s| s.tick()).collect();
    assert_eq!(middle, [2, 3]);
    assert_eq!(steps.len(), 0);
    assert!(steps.next().is_none() && steps.next_back().is_none());
}

#[test]
fn the_largest_timestamp_after_the_smallest_is_clamped_not_a_panic() {
    let mut frames = loop60();
    let plan = frames.begin_frame(Timestamp::MAX);
    assert_eq!(plan.raw_delta(), Nanos::MAX);
    assert_eq!(plan.steps_run(), 5);
    // u64::MAX · 3 / 50,000,000 whole steps were due.
    let due = u128::from(u64::MAX) * 3 / STEP;
    assert_eq!(u128::from(plan.steps_due()), due);
    assert_eq!(plan.dropped_units(), (due - 5) * STEP);
    let plan = frames.begin_frame(Timestamp::ZERO);
    assert_eq!(plan.steps_run(), 0, "and back to zero is a zero delta");
}

#[test]
fn the_tick_saturates_and_then_due_time_is_dropped() {
    // 1 ns steps, 65535× speed and an unlimited budget: 2⁴⁸ steps a frame.
    let step = Timestep::from_hz(1_000_000_000).unwrap();
    let mut frames =
        FrameLoop::new(step, StepBudget::UNLIMITED, Timestamp::ZERO).with_pacing(Pacing::OFF);
    frames.set_speed(Speed::MAX);
    let mut now = Timestamp::ZERO;
    let mut frame = 0_u64;
    while frames.tick() < u64::MAX {
        now += Nanos::from_secs(3_600);
        let plan = frames.begin_frame(now);
        assert_eq!(plan.end_tick(), frames.tick());
        frame += 1;
        assert!(
            frame < 70_000,
            "the tick should saturate in about 65,537 frames"
        );
    }
    frames.queue_steps(4);
    let plan = frames.begin_frame(now + Nanos::from_secs(1));
    assert_eq!(plan.steps_run(), 0);
    assert_eq!(plan.steps().len(), 0);
    assert!(plan.steps_dropped() > 0);
    assert!(plan.clamped());
    assert_eq!(frames.tick(), u64::MAX);
}

#[test]
fn catch_up_runs_whole_steps_without_a_budget_and_banks_the_rest() {
    let mut frames = FrameLoop::new(
        Timestep::from_hz(20).unwrap(),
        StepBudget::DEFAULT,
        Timestamp::ZERO,
    )
    .with_pacing(Pacing::OFF);
    let _ = frames.begin_frame(at(30)); // 30 ms banked of a 50 ms step
    frames.set_speed(Speed::PAUSED); // catch-up is simulation time: speed does not apply
    frames.queue_steps(2);
    let plan = frames.catch_up(Nanos::from_secs(24 * 3_600) + Nanos::from_millis(45));
    assert_eq!(
        plan.steps_run(),
        24 * 3_600 * 20 + 1,
        "75 ms of bank and extra: one more step"
    );
    assert_eq!(plan.steps_dropped(), 0);
    assert!(!plan.clamped());
    assert_eq!(plan.steps_queued(), 0, "the queue waits for the next frame");
    assert_eq!(frames.remainder(), Nanos::from_millis(25));
    assert_eq!(frames.last_frame(), at(30), "the anchor is untouched");
    assert_eq!(frames.queued_steps(), 2);
}

#[test]
fn set_tick_renumbers_the_next_step_and_keeps_the_bank() {
    let mut frames = FrameLoop::new(Timestep::HZ_50, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF);
    let plan = frames.begin_frame(Timestamp::from_nanos(30_000_000));
    assert_eq!((plan.steps_run(), frames.tick()), (1, 1));
    frames.set_tick(1_000);
    let plan = frames.begin_frame(Timestamp::from_nanos(50_000_000));
    // The 10 ms banked plus 20 ms: one step, numbered 1,000.
    assert_eq!(plan.first_tick(), 1_000);
    assert_eq!(plan.steps_run(), 1);
    assert_eq!(frames.tick(), 1_001);
    assert_eq!(frames.remainder(), Nanos::from_millis(10));
}

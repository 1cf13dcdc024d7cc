//! When a frame's steps end in wall time: the lab's `StepSpan` follows the
//! evenstep loop's input rule exactly (an event stamped at a step's end
//! reaches that step, one a nanosecond later the next), on hand-computed
//! frames and against the loop itself.

use evenstep::input::InputEvent;
use evenstep::{Loop, ManualClock, Pacing, PumpKind, Timestamp};
use evenstep_core::{FrameLoop, StepBudget, Timestep};
use evenstep_lab::StepSpan;

const MS: u64 = 1_000_000;

#[test]
fn a_forty_millisecond_frame_from_an_empty_bank_ends_its_steps_at_whole_steps() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF);
    let plan = frames.begin_frame(Timestamp::from_nanos(40 * MS));
    let span = StepSpan::of_plan(&plan, 40 * MS);
    assert_eq!(span.steps(), 2);
    // 1/60 s and 2/60 s, rounded down; the frame's own time is 40 ms.
    assert_eq!(
        (span.end_of(0), span.end_of(1), span.to()),
        (16_666_666, 33_333_333, 40 * MS)
    );
}

#[test]
fn a_bank_kept_half_full_ends_each_step_half_a_step_before_its_pump() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::CENTRED);
    let mut ends = Vec::new();
    for k in 1..=3_u64 {
        let now = k * 50 * MS / 3; // 16.67 ms frames
        let plan = frames.begin_frame(Timestamp::from_nanos(now));
        let span = StepSpan::of_plan(&plan, now);
        ends.extend((0..span.steps()).map(|step| now - span.end_of(step)));
    }
    // Half a step is 8,333,333.3 ns; a frame of 16,666,666 ns maps it to
    // 8,333,333 before the pump (rounding down the offset, not the gap).
    assert_eq!(ends.len(), 3);
    assert!(
        ends.iter()
            .all(|&early| (8_333_333..=8_333_334).contains(&early))
    );
}

#[test]
fn a_baseline_s_steps_end_where_its_accumulator_reached_each_step() {
    // From a quarter of a step, gaining two steps and a twelfth over 40 ms.
    let span = StepSpan::of_bank(0, 40 * MS, 0.25, 2, 1.0 / 3.0);
    // 0.75 and 1.75 steps of the 2 1/12 gained: 14.4 and 33.6 ms, rounded
    // down (the f64 books may land a nanosecond under).
    assert!((14_399_999..=14_400_000).contains(&span.end_of(0)));
    assert!((33_599_999..=33_600_000).contains(&span.end_of(1)));
    // A step the accumulator had already filled ends at the frame's start.
    let span = StepSpan::of_bank(10 * MS, 20 * MS, 1.5, 2, 0.0);
    assert_eq!(span.end_of(0), 10 * MS);
}

/// The loop's steps, and the pointer events (tagged by x) each read.
#[derive(Default)]
struct Seen {
    read: Vec<(u64, Vec<u64>)>,
}

fn pointer(tag: u64) -> InputEvent {
    InputEvent::Pointer {
        x: tag as f64,
        y: 0.0,
    }
}

/// Drives a loop with `pacing` through `pumps` (ms): before each pump, the
/// lab computes the pump's step ends from the plan the loop will make, and
/// pushes an event at each end (tag `2·tick`) and one a nanosecond after
/// (tag `2·tick + 1`). Each step must read its end's event and the previous
/// step's late one.
fn agree(pacing: Pacing, pumps: &[u64]) {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Seen>::builder()
        .clock(clock.clone())
        .pacing(pacing)
        .build()
        .unwrap();
    game_loop.on_update(|seen, step| {
        let tags = step
            .input()
            .events()
            .iter()
            .filter_map(|event| match event {
                InputEvent::Pointer { x, .. } => format!("{x}").parse::<u64>().ok(),
                _ => None,
            });
        seen.read.push((step.tick(), tags.collect()));
    });
    game_loop.start();
    let mut seen = Seen::default();
    let mut expected = Vec::new();
    let mut late = None;
    for &ms in pumps {
        let now = ms * MS;
        let plan = game_loop
            .planner()
            .clone()
            .begin_frame(Timestamp::from_nanos(now));
        let span = StepSpan::of_plan(&plan, now);
        for index in 0..span.steps() {
            let tick = plan.first_tick() + index;
            let end = span.end_of(index);
            game_loop
                .push_input(Timestamp::from_nanos(end), pointer(2 * tick))
                .unwrap();
            game_loop
                .push_input(Timestamp::from_nanos(end + 1), pointer(2 * tick + 1))
                .unwrap();
            expected.push((tick, late.into_iter().chain([2 * tick]).collect::<Vec<_>>()));
            late = Some(2 * tick + 1);
        }
        clock.set(Timestamp::from_nanos(now));
        let _ = game_loop.pump(&mut seen, PumpKind::Paint);
    }
    assert!(expected.len() >= pumps.len(), "{expected:?}");
    assert_eq!(seen.read, expected);
}

#[test]
fn the_step_ends_agree_with_the_loop_with_pacing_off_through_a_budget_that_drops_time() {
    // 40 ms frames run two steps; the 300 ms stall runs the budget's five.
    agree(Pacing::OFF, &[40, 57, 80, 120, 420, 437, 470]);
}

#[test]
fn the_step_ends_agree_with_the_loop_under_centred_and_locked_pacing() {
    let steady: Vec<u64> = (1..40).map(|k| k * 50 / 3 + k % 3).collect();
    agree(Pacing::CENTRED, &steady);
    agree(Pacing::LOCKED, &steady);
    agree(Pacing::CENTRED, &[40, 57, 80, 120, 420, 437, 470]);
}

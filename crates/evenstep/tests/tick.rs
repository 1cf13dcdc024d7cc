//! One tick numbers the steps, and the planner owns it: the loop's tick is
//! always the planner's, including after a stop or a panic cut a pump's
//! planned steps short, and the sim timeline keeps pace with it.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, Timestep};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// A 50 Hz loop whose update records each tick it is given.
fn recording_loop(clock: &ManualClock) -> Loop<Vec<u64>> {
    let mut game_loop = Loop::<Vec<u64>>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .build()
        .unwrap();
    game_loop.on_update(|ticks, step| ticks.push(step.tick()));
    game_loop
}

#[test]
fn the_loop_reads_its_tick_from_the_planner() {
    let clock = ManualClock::new();
    let mut game_loop = recording_loop(&clock);
    game_loop.start();
    let mut ticks = Vec::new();
    for _ in 0..7 {
        clock.advance(ms(30));
        let _ = game_loop.pump(&mut ticks, PumpKind::Paint);
        assert_eq!(game_loop.tick(), game_loop.planner().tick());
        assert_eq!(game_loop.sim_time(), game_loop.planner().simulated());
    }
    assert_eq!(ticks, (0..game_loop.tick()).collect::<Vec<_>>());
}

#[test]
fn a_stop_that_cuts_steps_short_tells_the_planner_at_once() {
    let clock = ManualClock::new();
    let mut game_loop = recording_loop(&clock);
    game_loop.on_update(|_, step| {
        if step.tick() == 1 {
            step.control().stop();
        }
    });
    game_loop.start();
    clock.advance(ms(90)); // with the half step banked at the start: five planned, two begun
    let mut ticks = Vec::new();
    let report = game_loop
        .pump(&mut ticks, PumpKind::Paint)
        .report()
        .unwrap();
    assert_eq!(report.plan.end_tick(), 5);
    assert_eq!(report.steps, 2);
    assert_eq!(game_loop.planner().tick(), 2, "before any restart");
    assert_eq!(game_loop.tick(), 2);
}

#[test]
fn after_a_panic_the_tick_counts_only_the_steps_begun_even_before_recovery() {
    let clock = ManualClock::new();
    let mut game_loop = recording_loop(&clock);
    game_loop.on_update(|_, step| assert!(step.tick() != 1, "step 1 panics"));
    game_loop.start();
    clock.advance(ms(90));
    let mut ticks = Vec::new();
    let pump = catch_unwind(AssertUnwindSafe(|| {
        game_loop.pump(&mut ticks, PumpKind::Paint)
    }));
    assert!(pump.is_err());
    assert_eq!(game_loop.tick(), 2, "steps 0 and 1 began");
    assert_eq!(game_loop.sim_time(), Nanos::from_millis(40));
    game_loop.start(); // recovers, and tells the planner
    assert_eq!(game_loop.planner().tick(), 2);
    clock.advance(ms(20));
    let _ = game_loop.pump(&mut ticks, PumpKind::Paint);
    assert_eq!(ticks, [0, 1, 2]);
}

#[test]
fn the_sim_timeline_keeps_pace_with_the_tick_through_a_cut_short_pump() {
    let clock = ManualClock::new();
    let mut game_loop = recording_loop(&clock);
    game_loop.on_update(|_, step| {
        if step.tick() == 1 {
            step.control().stop();
        }
    });
    game_loop.start();
    clock.advance(ms(90));
    let _ = game_loop.pump(&mut Vec::new(), PumpKind::Paint);
    // Two steps ran: the sim timeline stands at their end.
    assert_eq!(game_loop.sim().now(), Nanos::from_millis(40));
    assert_eq!(game_loop.sim_time(), Nanos::from_millis(40));
}

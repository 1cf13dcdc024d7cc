//! Hostile input to the driver: what a careless or malicious caller can do
//! (tiny speeds, clocks that stall, step back or saturate, panicking jobs)
//! leaves every promise intact: a running loop steps, a pending job says so,
//! and no statistic wraps or collapses to zero.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, PumpKind, Timestamp, Timestep};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn a_tiny_positive_speed_still_steps_and_is_not_a_pause() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<()>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_60)
        .build()
        .unwrap();
    game_loop.set_speed_f64(1e-5).unwrap();
    assert!(!game_loop.is_paused());
    assert!(!game_loop.speed().is_paused());
    game_loop.start();
    let _ = game_loop.pump(&mut (), PumpKind::Tick);
    // At 1/65535×, one 60 Hz step of simulation takes 65535 / 60 s.
    clock.advance(Duration::from_secs(65_535 / 60 + 1));
    let _ = game_loop.pump(&mut (), PumpKind::Tick);
    assert_eq!(game_loop.tick(), 1);
}

#[test]
fn a_job_left_pending_by_a_panicking_job_says_it_is_requested_and_runs_once() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Vec<&'static str>>::builder()
        .clock(clock.clone())
        .build()
        .unwrap();
    let first = game_loop.coalesce(|_: &mut Vec<&'static str>| panic!("the first job fails"));
    let second = game_loop.coalesce(|log: &mut Vec<&'static str>| log.push("second"));
    first.request();
    second.request();
    let mut log = Vec::new();
    game_loop.start();
    let result = catch_unwind(AssertUnwindSafe(|| {
        game_loop.pump(&mut log, PumpKind::Tick)
    }));
    assert!(result.is_err());
    assert!(log.is_empty());
    assert!(!first.is_requested(), "the job that panicked is not re-run");
    assert!(second.is_requested(), "the job not reached will run");

    game_loop.start();
    let _ = game_loop.pump(&mut log, PumpKind::Tick);
    assert_eq!(log, ["second"]);
    assert!(!second.is_requested());
    let _ = game_loop.pump(&mut log, PumpKind::Tick);
    assert_eq!(log, ["second"], "once");
}

#[test]
fn paints_at_the_same_or_an_earlier_time_are_not_gaps() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<()>::builder()
        .clock(clock.clone())
        .warmup_frames(0)
        .build()
        .unwrap();
    game_loop.start();
    let _ = game_loop.pump(&mut (), PumpKind::Paint);
    clock.advance(ms(16));
    let _ = game_loop.pump(&mut (), PumpKind::Paint);
    let _ = game_loop.pump(&mut (), PumpKind::Paint); // the same instant
    clock.set(Timestamp::from_nanos(5_000_000)); // back 11 ms
    let _ = game_loop.pump(&mut (), PumpKind::Paint);
    clock.set(Timestamp::from_nanos(22_000_000));
    let _ = game_loop.pump(&mut (), PumpKind::Paint); // 17 ms after the step back
    let stats = game_loop.stats();
    assert_eq!(stats.gaps(), 2);
    assert_eq!(stats.paints(), 5);
    assert_eq!(stats.cadence(), Nanos::from_millis(16));
    assert_eq!(stats.gap_p50(), Nanos::from_millis(16));
    assert_eq!(stats.worst_gap(), Nanos::from_millis(17));
}

#[test]
fn the_cost_averages_saturate_at_a_saturated_clock_instead_of_wrapping() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<()>::builder().clock(clock.clone()).build().unwrap();
    let in_render = clock.clone();
    // Every paint starts at zero and ends at the end of time.
    game_loop.on_render(move |(), _| in_render.set(Timestamp::MAX));
    game_loop.start();
    for _ in 0..3 {
        clock.set(Timestamp::ZERO);
        let _ = game_loop.pump(&mut (), PumpKind::Paint);
        let stats = game_loop.stats();
        assert_eq!(stats.frame_cost(), Nanos::MAX);
        assert_eq!(stats.render_cost(), Nanos::MAX);
        assert_eq!(stats.worst_frame(), Nanos::MAX);
    }
}

#[test]
fn a_panicking_render_or_real_timer_leaves_the_loop_stopped_and_restartable() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Vec<u64>>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .build()
        .unwrap();
    game_loop.on_update(|ticks, step| ticks.push(step.tick()));
    game_loop.on_render(|ticks, _| assert!(ticks.len() != 2, "a render panics"));
    game_loop
        .real()
        .after(ms(70), |_, _| panic!("a real timer panics"))
        .unwrap();
    let mut ticks = Vec::new();
    game_loop.start();
    clock.advance(ms(40));
    let result = catch_unwind(AssertUnwindSafe(|| {
        game_loop.pump(&mut ticks, PumpKind::Paint)
    }));
    assert!(result.is_err(), "the render after two steps panicked");
    assert!(!game_loop.is_running());
    game_loop.start();
    clock.advance(ms(40));
    let result = catch_unwind(AssertUnwindSafe(|| {
        game_loop.pump(&mut ticks, PumpKind::Paint)
    }));
    assert!(result.is_err(), "the real timer at 70 ms panicked");
    assert!(!game_loop.is_running());
    game_loop.start();
    clock.advance(ms(40));
    let _ = game_loop.pump(&mut ticks, PumpKind::Paint);
    assert!(game_loop.is_running());
    assert_eq!(ticks, [0, 1, 2, 3], "no tick skipped or repeated");
    assert!(
        game_loop.real().is_empty(),
        "the timer that panicked is disarmed"
    );
}

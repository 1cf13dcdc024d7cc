//! A pump at a timestamp the frame source supplies: steps, real time and
//! paint gaps follow the stamp, a stamp earlier than the loop's time is
//! clamped to it (time never goes backwards), and the costs are still timed
//! on the loop's clock.

use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, Timestamp, Timestep};

fn ms(n: u64) -> Timestamp {
    Timestamp::from_nanos(n * 1_000_000)
}

/// A 50 Hz loop (20 ms steps) with an empty bank, counting its steps.
fn counting_loop(clock: &ManualClock) -> Loop<u64> {
    let mut game_loop = Loop::<u64>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .pacing(Pacing::OFF)
        .warmup_frames(0)
        .build()
        .unwrap();
    game_loop.on_update(|steps, _| *steps += 1);
    game_loop
}

#[test]
fn a_supplied_timestamp_drives_the_steps_and_real_time_whatever_the_clock_says() {
    let clock = ManualClock::new();
    let mut game_loop = counting_loop(&clock);
    game_loop.start();
    let mut steps = 0;
    let report = game_loop
        .pump_at(&mut steps, PumpKind::Paint, ms(70))
        .report()
        .unwrap();
    assert_eq!(steps, 3);
    assert_eq!(report.now, ms(70));
    assert_eq!(report.elapsed, Nanos::from_millis(70));
    assert_eq!(game_loop.real_time(), Nanos::from_millis(70));
    assert_eq!(game_loop.planner().remainder(), Nanos::from_millis(10));
}

#[test]
fn a_timestamp_earlier_than_the_previous_pump_is_clamped_to_it() {
    let clock = ManualClock::new();
    let mut game_loop = counting_loop(&clock);
    game_loop.start();
    let mut steps = 0;
    let _ = game_loop.pump_at(&mut steps, PumpKind::Paint, ms(50));
    let report = game_loop
        .pump_at(&mut steps, PumpKind::Paint, ms(30))
        .report()
        .unwrap();
    assert_eq!(report.now, ms(50), "the loop's time stays at 50 ms");
    assert_eq!(report.elapsed, Nanos::ZERO);
    assert_eq!(report.plan.raw_delta(), Nanos::ZERO);
    assert_eq!(steps, 2);
    // The next delta is measured from 50 ms, not from the earlier stamp.
    let report = game_loop
        .pump_at(&mut steps, PumpKind::Paint, ms(60))
        .report()
        .unwrap();
    assert_eq!(report.elapsed, Nanos::from_millis(10));
    assert_eq!(steps, 3);
    assert_eq!(game_loop.real_time(), Nanos::from_millis(60));
}

#[test]
fn a_timestamp_from_before_the_start_is_clamped_to_the_start() {
    let clock = ManualClock::starting_at(ms(1_000));
    let mut game_loop = counting_loop(&clock);
    game_loop.start();
    let mut steps = 0;
    let report = game_loop
        .pump_at(&mut steps, PumpKind::Tick, ms(400))
        .report()
        .unwrap();
    assert_eq!(report.now, ms(1_000));
    assert_eq!(report.elapsed, Nanos::ZERO);
    assert_eq!(steps, 0);
}

#[test]
fn a_stamp_older_than_a_clock_pump_is_clamped_to_that_pumps_reading() {
    // A window pumps from its clock while hidden, then paints with a vsync
    // time taken a little before the last hidden pump.
    let clock = ManualClock::new();
    let mut game_loop = counting_loop(&clock);
    game_loop.start();
    let mut steps = 0;
    clock.set(ms(100));
    let _ = game_loop.pump(&mut steps, PumpKind::Tick);
    assert_eq!(steps, 5);
    let report = game_loop
        .pump_at(&mut steps, PumpKind::Paint, ms(95))
        .report()
        .unwrap();
    assert_eq!(report.now, ms(100));
    assert_eq!(report.elapsed, Nanos::ZERO);
    assert_eq!(steps, 5);
}

#[test]
fn the_costs_of_a_stamped_pump_are_timed_on_the_clock() {
    let clock = ManualClock::new();
    let mut game_loop = counting_loop(&clock);
    let in_update = clock.clone();
    game_loop.on_update(move |_, _| in_update.advance(Duration::from_millis(2)));
    let in_render = clock.clone();
    game_loop.on_render(move |_, _| in_render.advance(Duration::from_millis(1)));
    game_loop.start();
    let mut steps = 0;
    // The stamp is far ahead of the clock (which stays at 0 until the update
    // moves it): the costs are the clock's, not the distance to the stamp.
    let _ = game_loop.pump_at(&mut steps, PumpKind::Paint, ms(20));
    let stats = game_loop.stats();
    assert_eq!(steps, 1);
    assert_eq!(stats.update_cost(), Nanos::from_millis(2));
    assert_eq!(stats.render_cost(), Nanos::from_millis(1));
    assert_eq!(stats.frame_cost(), Nanos::from_millis(3));
}

#[test]
fn paint_gaps_follow_the_supplied_stamps() {
    let clock = ManualClock::new();
    let mut game_loop = counting_loop(&clock);
    game_loop.start();
    let mut steps = 0;
    for at in [16, 33, 50, 83] {
        let _ = game_loop.pump_at(&mut steps, PumpKind::Paint, ms(at));
    }
    let stats = game_loop.stats();
    assert_eq!(stats.worst_gap(), Nanos::from_millis(33));
    assert_eq!(stats.cadence(), Nanos::from_millis(17));
}

#[test]
fn a_stamped_pump_before_start_or_after_stop_runs_nothing() {
    let clock = ManualClock::new();
    let mut game_loop = counting_loop(&clock);
    let mut steps = 0;
    assert_eq!(
        game_loop.pump_at(&mut steps, PumpKind::Paint, ms(100)),
        evenstep::Pump::NotStarted
    );
    game_loop.start();
    game_loop.stop();
    assert_eq!(
        game_loop.pump_at(&mut steps, PumpKind::Paint, ms(100)),
        evenstep::Pump::Stopped
    );
    assert_eq!(steps, 0);
}

#[test]
fn a_clock_reading_behind_a_stamp_is_clamped_to_the_stamp() {
    // A stamp a little ahead of the clock, then a pump from the clock: the
    // clock's reading must not take the loop's time back, or the next
    // stamped pump would count the same milliseconds twice.
    let clock = ManualClock::new();
    let mut game_loop = counting_loop(&clock);
    game_loop.start();
    let mut steps = 0;
    clock.set(ms(95));
    let _ = game_loop.pump_at(&mut steps, PumpKind::Paint, ms(100));
    let report = game_loop.pump(&mut steps, PumpKind::Tick).report().unwrap();
    assert_eq!(report.now, ms(100));
    assert_eq!(report.elapsed, Nanos::ZERO);
    let report = game_loop
        .pump_at(&mut steps, PumpKind::Paint, ms(120))
        .report()
        .unwrap();
    assert_eq!(report.elapsed, Nanos::from_millis(20));
    assert_eq!(game_loop.real_time(), Nanos::from_millis(120));
    assert_eq!(steps, 6);
    // Once the clock passes the stamp, its readings are taken as they are.
    clock.set(ms(130));
    let report = game_loop.pump(&mut steps, PumpKind::Tick).report().unwrap();
    assert_eq!(report.now, ms(130));
}

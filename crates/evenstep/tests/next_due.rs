//! When the next thing is due: the next fixed step at the current speed
//! (rounded up to the nanosecond, so a pump at that instant runs it), the
//! next real timer, or at once for a pending request; nothing while the
//! loop is not running.

use std::time::Duration;

use evenstep::{Clock, Loop, ManualClock, Pacing, PumpKind, Speed, Timestamp, Timestep};

fn at(nanos: u64) -> Timestamp {
    Timestamp::from_nanos(nanos)
}

/// A started 60 Hz loop with an empty bank at `speed`, counting its steps;
/// the speed is applied by a pump at the start, so no time has passed.
fn started(clock: &ManualClock, speed: Speed) -> Loop<u64> {
    let mut game_loop = Loop::<u64>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_60)
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    game_loop.on_update(|steps, _| *steps += 1);
    game_loop.start();
    game_loop.set_speed(speed);
    assert_eq!(
        game_loop
            .pump(&mut 0, PumpKind::Tick)
            .report()
            .unwrap()
            .steps,
        0
    );
    game_loop
}

/// Steps a tick pump at `when` runs, on a fresh loop at `speed`.
fn steps_at(speed: Speed, when: Timestamp) -> u64 {
    let clock = ManualClock::new();
    let mut game_loop = started(&clock, speed);
    clock.set(when);
    let mut steps = 0;
    let _ = game_loop.pump(&mut steps, PumpKind::Tick);
    steps
}

fn due_on_a_fresh_loop(speed: Speed) -> Timestamp {
    started(&ManualClock::new(), speed).next_due().unwrap()
}

#[test]
fn nothing_is_due_before_the_start_or_after_a_stop() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<u64>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .build()
        .unwrap();
    assert_eq!(game_loop.next_due(), None);
    game_loop.start();
    assert!(game_loop.next_due().is_some());
    game_loop.stop();
    assert_eq!(game_loop.next_due(), None);
    game_loop.start();
    assert!(game_loop.next_due().is_some());
}

#[test]
fn at_normal_speed_the_step_is_due_at_the_next_whole_nanosecond_after_it_fills() {
    // One 60 Hz step is 16,666,666⅔ ns.
    let due = due_on_a_fresh_loop(Speed::NORMAL);
    assert_eq!(due, at(16_666_667));
    assert_eq!(steps_at(Speed::NORMAL, due), 1);
    assert_eq!(steps_at(Speed::NORMAL, at(16_666_666)), 0);
}

#[test]
fn at_half_speed_the_step_is_due_twice_as_late() {
    let half = Speed::new(1, 2).unwrap();
    let due = due_on_a_fresh_loop(half);
    assert_eq!(due, at(33_333_334));
    assert_eq!(steps_at(half, due), 1);
    assert_eq!(steps_at(half, at(33_333_333)), 0);
}

#[test]
fn at_double_speed_the_step_is_due_twice_as_soon() {
    let double = Speed::new(2, 1).unwrap();
    let due = due_on_a_fresh_loop(double);
    assert_eq!(due, at(8_333_334));
    assert_eq!(steps_at(double, due), 1);
    assert_eq!(steps_at(double, at(8_333_333)), 0);
}

#[test]
fn the_step_is_due_from_what_the_bank_already_holds() {
    // Centred pacing starts the bank at half a step.
    let clock = ManualClock::new();
    let mut game_loop = Loop::<u64>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .build()
        .unwrap();
    game_loop.start();
    assert_eq!(game_loop.next_due(), Some(at(10_000_000)));
    // A pump 3 ms short of it leaves 3 ms to go.
    clock.set(at(7_000_000));
    let _ = game_loop.pump(&mut 0, PumpKind::Paint);
    assert_eq!(game_loop.next_due(), Some(at(10_000_000)));
}

#[test]
fn a_host_that_wakes_at_each_due_instant_runs_one_step_per_wake_without_drift() {
    let clock = ManualClock::new();
    let mut game_loop = started(&clock, Speed::NORMAL);
    let mut steps = 0;
    for wake in 1..=600_u64 {
        let due = game_loop.next_due().unwrap();
        // The k-th step fills at k · 16,666,666⅔ ns: due at the ceiling.
        assert_eq!(due, at((wake * 50_000_000).div_ceil(3)));
        clock.set(due);
        let report = game_loop.pump(&mut steps, PumpKind::Tick).report().unwrap();
        assert_eq!(report.steps, 1, "wake {wake} ran one step");
    }
    assert_eq!(steps, 600);
    assert_eq!(clock.now(), at(10_000_000_000), "ten seconds, exactly");
}

#[test]
fn a_real_timer_due_before_the_next_step_comes_first() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<u64>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_10)
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    game_loop.on_update(|steps, _| *steps += 1);
    game_loop
        .real()
        .after(Duration::from_millis(30), |steps, _| *steps += 1_000)
        .unwrap();
    clock.set(at(5_000_000_000));
    game_loop.start();
    // The real timeline counts from the start; the step is 100 ms away.
    assert_eq!(game_loop.next_due(), Some(at(5_030_000_000)));
    clock.set(at(5_030_000_000));
    let mut game = 0;
    let _ = game_loop.pump(&mut game, PumpKind::Tick);
    assert_eq!(game, 1_000, "the timer fired and no step ran");
    assert_eq!(game_loop.next_due(), Some(at(5_100_000_000)));
}

#[test]
fn a_real_timer_armed_between_pumps_is_due_from_the_last_pump() {
    let clock = ManualClock::new();
    let mut game_loop = started(&clock, Speed::NORMAL);
    clock.set(at(10_000_000));
    let _ = game_loop.pump(&mut 0, PumpKind::Tick);
    clock.set(at(12_000_000)); // the host is between pumps
    game_loop
        .real()
        .every(Duration::from_millis(1), |_, _| {})
        .unwrap();
    assert_eq!(game_loop.next_due(), Some(at(11_000_000)), "already past");
}

#[test]
fn while_paused_only_real_timers_and_requests_are_due() {
    let clock = ManualClock::new();
    let mut game_loop = started(&clock, Speed::NORMAL);
    game_loop.pause();
    assert_eq!(
        game_loop.next_due(),
        Some(at(0)),
        "the pause waits for a pump"
    );
    clock.set(at(1_000_000));
    let _ = game_loop.pump(&mut 0, PumpKind::Tick);
    assert_eq!(game_loop.next_due(), None, "paused, with no timer");

    let job = game_loop.coalesce(|_| {});
    job.request();
    assert_eq!(game_loop.next_due(), Some(at(1_000_000)));
    let _ = game_loop.pump(&mut 0, PumpKind::Tick);
    assert_eq!(game_loop.next_due(), None);

    game_loop.queue_steps(2);
    assert_eq!(game_loop.next_due(), Some(at(1_000_000)));
    let mut steps = 0;
    let _ = game_loop.pump(&mut steps, PumpKind::Tick);
    assert_eq!(steps, 2, "the queued steps ran");
    assert_eq!(game_loop.next_due(), None);

    game_loop
        .real()
        .after(Duration::from_secs(30), |_, _| {})
        .unwrap();
    assert_eq!(game_loop.next_due(), Some(at(30_001_000_000)));
}

#[test]
fn at_speed_zero_no_step_is_ever_due() {
    let clock = ManualClock::new();
    let game_loop = started(&clock, Speed::PAUSED);
    assert_eq!(game_loop.next_due(), None);
}

#[test]
fn a_speed_change_is_due_at_once_and_then_times_the_step() {
    let clock = ManualClock::new();
    let mut game_loop = started(&clock, Speed::NORMAL);
    clock.set(at(4_000_000));
    game_loop.set_speed(Speed::new(1, 4).unwrap());
    assert_eq!(
        game_loop.next_due(),
        Some(at(0)),
        "the change waits for a pump"
    );
    let _ = game_loop.pump(&mut 0, PumpKind::Tick);
    // 4 ms at a quarter speed banked 1 ms (3,000,000 units) of the step's
    // 50,000,000: the other 47,000,000 take 47,000,000 · 4 / 3 ns.
    assert_eq!(game_loop.next_due(), Some(at(4_000_000 + 62_666_667)));
}

#[test]
fn after_a_stamped_pump_the_step_is_due_from_the_stamp() {
    let clock = ManualClock::new();
    let mut game_loop = started(&clock, Speed::NORMAL);
    // A vsync stamp ahead of the clock: the planner's time is the stamp's.
    let _ = game_loop.pump_at(&mut 0, PumpKind::Paint, at(20_000_000));
    // 20 ms banked 60,000,000 units: one step ran, 10,000,000 are left.
    assert_eq!(game_loop.next_due(), Some(at(20_000_000 + 13_333_334)));
}

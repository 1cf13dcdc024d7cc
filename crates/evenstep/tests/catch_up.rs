//! Explicit offline catch-up: whole fixed steps with no budget, sim timers
//! included, the sub-step remainder banked so `dt` never varies; and the loop
//! never credits absent time on its own.

use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, Timestep};

#[derive(Default)]
struct Idle {
    steps: u64,
    dts: Vec<u64>,
    waves: u64,
}

fn idle_loop(clock: &ManualClock) -> Loop<Idle> {
    let mut game_loop = Loop::<Idle>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .timestep(Timestep::HZ_20)
        .build()
        .unwrap();
    game_loop.on_update(|idle, step| {
        idle.steps += 1;
        let dt = step.timestep().dt_nanos_floor().as_nanos();
        if idle.dts.last() != Some(&dt) {
            idle.dts.push(dt);
        }
    });
    game_loop
        .sim()
        .every(Duration::from_secs(60), |idle, fire| {
            idle.waves += fire.repeats();
        })
        .unwrap();
    game_loop
}

#[test]
fn catching_up_an_hour_runs_every_step_and_every_sim_timer_with_one_dt() {
    let clock = ManualClock::new();
    let mut game_loop = idle_loop(&clock);
    let mut idle = Idle::default();
    game_loop.start();
    let done = game_loop
        .catch_up(
            &mut idle,
            Duration::from_secs(3_600) + Duration::from_millis(70),
        )
        .unwrap();
    // Centred pacing starts the bank at half a step (25 ms): 25 + 70 ms is
    // one more step and 45 ms banked.
    assert_eq!(done.steps, 72_001);
    assert_eq!(done.remainder, Nanos::from_millis(45));
    assert_eq!(idle.steps, 72_001);
    assert_eq!(idle.dts, [50_000_000], "one dt, never a partial step");
    assert_eq!(
        idle.waves, 60,
        "sim timers fire step by step: sixty one-minute waves"
    );
    assert_eq!(
        game_loop.real_time(),
        Nanos::ZERO,
        "real time does not move"
    );
    // The banked 45 ms counts towards the next frame.
    clock.advance(Duration::from_millis(5));
    let report = game_loop.pump(&mut idle, PumpKind::Paint).report().unwrap();
    assert_eq!(report.steps, 1);
}

#[test]
fn an_hour_without_pumps_is_never_credited_by_the_loop_itself() {
    let clock = ManualClock::new();
    let mut game_loop = idle_loop(&clock);
    let mut idle = Idle::default();
    game_loop.start();
    clock.advance(Duration::from_secs(3_600));
    let report = game_loop.pump(&mut idle, PumpKind::Tick).report().unwrap();
    assert_eq!(report.steps, 5, "the budget, not the hour");
    assert_eq!(report.plan.steps_dropped(), 72_000 - 5);
    assert_eq!(
        game_loop.stats().dropped(),
        Nanos::from_millis(3_600_000 - 250)
    );
}

#[test]
fn a_long_catch_up_without_sim_timers_keeps_the_sim_clock_exact_to_the_nanosecond() {
    // 60 Hz steps are 16,666,666⅔ ns: the step clock carries a nanosecond
    // every third step. Steps with no sim timer armed do not keep the clock
    // at all; a timer armed afterwards must see the same clock as if it had
    // been kept all along.
    #[derive(Default)]
    struct Counter {
        steps: u64,
        fired_after: Vec<u64>,
    }
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Counter>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .timestep(Timestep::HZ_60)
        .build()
        .unwrap();
    game_loop.on_update(|counter, _| counter.steps += 1);
    game_loop.start();
    let mut counter = Counter::default();
    let done = game_loop
        .catch_up(&mut counter, Duration::from_secs(10))
        .unwrap();
    assert_eq!(done.steps, 600);
    assert_eq!(game_loop.sim_time(), Nanos::from_secs(10));
    // Step 600 ends at 10,016,666,666⅔ ns: a timer due 16,666,666 ns from
    // now is due within it, and one due a nanosecond later is not.
    game_loop
        .sim()
        .after(Duration::from_nanos(16_666_666), |counter, _| {
            counter.fired_after.push(counter.steps);
        })
        .unwrap();
    game_loop
        .sim()
        .after(Duration::from_nanos(16_666_667), |counter, _| {
            counter.fired_after.push(counter.steps);
        })
        .unwrap();
    game_loop
        .catch_up(&mut counter, Duration::from_millis(34))
        .unwrap();
    assert_eq!(counter.steps, 602);
    assert_eq!(
        counter.fired_after,
        [600, 601],
        "each timer fires before the updates of the step it falls due in"
    );
}

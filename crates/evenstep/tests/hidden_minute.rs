//! A painted minute and a hidden one, with the numbers the README's demo
//! prints: renders freeze while ticks advance, real timers keep firing, and
//! sim time falls behind real time by exactly the clamped amount.

use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, StepBudget, Timestep};

#[derive(Default)]
struct World {
    saves: Vec<Nanos>,
}

#[test]
fn a_hidden_minute_keeps_rules_and_real_timers_running_and_paints_nothing() {
    let clock = ManualClock::new();
    let timestep = Timestep::HZ_60;
    let mut game_loop = Loop::<World>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .timestep(timestep)
        .budget(StepBudget::covering(Duration::from_millis(250), timestep))
        .build()
        .unwrap();
    game_loop.on_render(|_, _| {}); // renders are counted by the stats' paints
    game_loop
        .real()
        .every(Duration::from_secs(30), |world, fire| {
            world.saves.push(fire.now());
        })
        .unwrap();
    let mut world = World::default();
    game_loop.start();

    for _ in 0..3_600 {
        clock.advance(Duration::from_nanos(16_666_667));
        let _ = game_loop.pump(&mut world, PumpKind::Paint);
    }
    let stats = game_loop.stats();
    assert_eq!(game_loop.tick(), 3_600);
    assert_eq!(game_loop.sim_time(), Nanos::from_secs(60));
    assert_eq!(game_loop.real_time(), Nanos::from_nanos(60_000_001_200));
    assert_eq!(stats.fps(), 60);
    assert_eq!(stats.paints(), 3_600);
    assert_eq!(stats.dropped(), Nanos::ZERO);
    assert_eq!(stats.gap_p50(), Nanos::from_nanos(16_666_667));

    for _ in 0..60 {
        clock.advance(Duration::from_secs(1));
        let _ = game_loop.pump(&mut world, PumpKind::Tick);
    }
    let stats = game_loop.stats();
    assert_eq!(stats.paints(), 3_600, "renders froze");
    assert_eq!(stats.pumps(), 3_660);
    assert_eq!(
        game_loop.tick(),
        3_600 + 60 * 15,
        "15 steps (250 ms) per one-second tick"
    );
    assert_eq!(game_loop.sim_time(), Nanos::from_secs(75));
    assert_eq!(game_loop.real_time(), Nanos::from_nanos(120_000_001_200));
    assert_eq!(stats.dropped_steps(), 60 * 45);
    assert_eq!(stats.dropped(), Nanos::from_secs(45));
    assert_eq!(
        stats.fps(),
        0,
        "nothing painted in the last completed second"
    );
    let real_minus_sim = game_loop.real_time() - game_loop.sim_time();
    assert_eq!(
        real_minus_sim,
        stats.dropped() + Nanos::from_nanos(1_200),
        "sim fell behind by exactly the dropped time, and the 1.2 µs (3,600 units) \
         that centring removed when the first overrun put the bank back mid-step"
    );
    assert_eq!(
        game_loop.planner().remainder_units(),
        25_000_000,
        "half a 60 Hz step"
    );
    assert_eq!(game_loop.planner().phase_shift_units(), -3_600);
    // Each save lands on the first pump at or past its due time.
    assert_eq!(
        world.saves,
        [
            30_000_000_600,
            60_000_001_200,
            90_000_001_200,
            120_000_001_200
        ]
        .map(Nanos::from_nanos),
        "autosaves kept firing while hidden"
    );

    clock.advance(Duration::from_nanos(16_666_667));
    let _ = game_loop.pump(&mut world, PumpKind::Paint);
    assert_eq!(
        game_loop.stats().absences(),
        1,
        "the hidden minute was an absence, not a gap"
    );
    assert_eq!(game_loop.stats().gap_p99(), Nanos::from_nanos(16_666_667));
}

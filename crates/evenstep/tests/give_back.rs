//! Steps an update gives back, through the loop: a refunded step's time
//! stays banked and runs on a later pump with the same tick and the input
//! it was given; a skipped step's time is dropped and reported; and over
//! random frame timings with lockstep refunds, what is simulated plus what
//! is banked is exactly what was submitted less what was dropped.

mod common;

use std::cell::Cell;
use std::num::NonZeroU64;
use std::rc::Rc;

use evenstep::input::{Button, InputEvent, Key};
use evenstep::{
    Loop, ManualClock, Nanos, Pacing, Pump, PumpKind, StateHash, StepContext, Timestamp, Timestep,
    replay,
};
use proptest::prelude::*;

fn ms(millis: u64) -> Timestamp {
    Timestamp::from_nanos(millis * 1_000_000)
}

/// A game in lockstep: each step advances only while the peer has sent
/// input for it (`allowed` steps left), else it gives the rest back.
#[derive(Default)]
struct Lockstep {
    allowed: u64,
    ran: Vec<u64>,
    jumps: u64,
}

fn lockstep_update(game: &mut Lockstep, step: &StepContext<'_>) {
    if game.allowed == 0 {
        step.control().refund_rest();
        return;
    }
    game.allowed -= 1;
    game.ran.push(step.tick());
    if step.input().pressed(Key::SPACE) {
        game.jumps += 1;
    }
}

/// A 50 Hz loop on `clock` with pacing off and nothing subscribed.
fn plain_loop<S>(clock: &ManualClock) -> Loop<S> {
    Loop::<S>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .pacing(Pacing::OFF)
        .build()
        .unwrap()
}

fn lockstep_loop(clock: &ManualClock) -> Loop<Lockstep> {
    lockstep_loop_with(clock, Pacing::OFF)
}

fn lockstep_loop_with(clock: &ManualClock, pacing: Pacing) -> Loop<Lockstep> {
    let mut game_loop = Loop::<Lockstep>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .pacing(pacing)
        .build()
        .unwrap();
    game_loop.on_update(lockstep_update);
    // A second update, which a refunded step must not run.
    game_loop.on_update(|game, step| game.ran.push(1_000 + step.tick()));
    game_loop.start();
    game_loop
}

fn pump(
    game_loop: &mut Loop<Lockstep>,
    game: &mut Lockstep,
    clock: &ManualClock,
    at: Timestamp,
) -> u64 {
    clock.set(at);
    match game_loop.pump(game, PumpKind::Paint) {
        Pump::Ran(report) => report.steps,
        other => panic!("the loop runs: {other:?}"),
    }
}

#[test]
fn a_refunded_step_runs_on_a_later_pump_with_the_same_tick() {
    let clock = ManualClock::new();
    let mut game_loop = lockstep_loop(&clock);
    let mut game = Lockstep {
        allowed: 1,
        ..Lockstep::default()
    };
    // 60 ms: three 20 ms steps; the peer allows one.
    assert_eq!(pump(&mut game_loop, &mut game, &clock, ms(60)), 1);
    assert_eq!(game.ran, [0, 1_000]);
    assert_eq!(game_loop.tick(), 1);
    assert_eq!(game_loop.planner().remainder(), Nanos::from_millis(40));
    // The peer's input for two more arrives: the refunded steps run, ticks
    // 1 and 2, with the 10 ms of this pump banked.
    game.allowed = 2;
    assert_eq!(pump(&mut game_loop, &mut game, &clock, ms(70)), 2);
    assert_eq!(game.ran, [0, 1_000, 1, 1_001, 2, 1_002]);
    assert_eq!(game_loop.planner().remainder(), Nanos::from_millis(10));
    assert_eq!(game_loop.stats().dropped_steps(), 0);
}

#[test]
fn a_refunded_steps_input_goes_to_the_step_that_runs_its_tick_once() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Lockstep>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .pacing(Pacing::OFF)
        .record_input(NonZeroU64::new(1).unwrap(), |game: &Lockstep| {
            StateHash::new()
                .u64(game.jumps)
                .u64(game.ran.len() as u64)
                .finish()
        })
        .build()
        .unwrap();
    game_loop.on_update(lockstep_update);
    game_loop.start();
    let mut game = Lockstep::default();
    game_loop
        .push_input(ms(5), InputEvent::Press(Button::Key(Key::SPACE)))
        .unwrap();
    game_loop
        .push_input(ms(6), InputEvent::Release(Button::Key(Key::SPACE)))
        .unwrap();
    assert_eq!(pump(&mut game_loop, &mut game, &clock, ms(20)), 0); // refunded
    assert_eq!(pump(&mut game_loop, &mut game, &clock, ms(30)), 0); // again
    game.allowed = 5;
    assert_eq!(pump(&mut game_loop, &mut game, &clock, ms(40)), 2);
    assert_eq!((game.ran.as_slice(), game.jumps), ([0, 1].as_slice(), 1));
    let log = game_loop.input_log().unwrap();
    assert_eq!(log.ticks(), 2);
    assert_eq!(
        log.events_at(0).len(),
        2,
        "the press and release, recorded once"
    );
}

#[test]
fn a_skipped_steps_time_is_dropped_and_reported() {
    let clock = ManualClock::new();
    let mut game_loop = plain_loop::<u64>(&clock);
    game_loop.on_update(|skips, step| {
        if *skips > 0 {
            *skips -= 1;
            step.control().skip_rest();
        }
    });
    game_loop.start();
    let mut skips = 1;
    clock.set(ms(60));
    let Pump::Ran(report) = game_loop.pump(&mut skips, PumpKind::Paint) else {
        panic!()
    };
    assert_eq!(report.steps, 0);
    assert_eq!(game_loop.tick(), 0);
    let stats = game_loop.stats();
    assert_eq!(
        (stats.dropped_steps(), stats.dropped()),
        (3, Nanos::from_millis(60))
    );
    assert_eq!(game_loop.planner().remainder(), Nanos::ZERO);
    clock.set(ms(80));
    let _ = game_loop.pump(&mut skips, PumpKind::Paint);
    assert_eq!(game_loop.tick(), 1);
}

#[test]
fn a_give_back_in_a_catch_up_banks_the_rest_within_the_budget() {
    let clock = ManualClock::new();
    let mut game_loop = lockstep_loop(&clock);
    let mut game = Lockstep {
        allowed: 2,
        ..Lockstep::default()
    };
    // 100 ms of catch-up at 50 Hz: five steps; the third gives back three.
    let caught = game_loop
        .catch_up(&mut game, std::time::Duration::from_millis(100))
        .unwrap();
    assert_eq!((caught.steps, game_loop.tick()), (2, 2));
    assert_eq!(game_loop.planner().remainder(), Nanos::from_millis(60));
    assert_eq!(game_loop.stats().dropped_steps(), 0);
    // The next pump runs them, with the same ticks.
    game.allowed = 3;
    assert_eq!(pump(&mut game_loop, &mut game, &clock, ms(0)), 3);
    assert_eq!(game_loop.tick(), 5);
}

#[test]
fn a_refund_asked_for_by_a_render_is_ignored_and_no_tick_runs_twice() {
    let clock = ManualClock::new();
    let mut game_loop = plain_loop::<Vec<u64>>(&clock);
    game_loop.on_update(|ran, step| ran.push(step.tick()));
    game_loop.on_render(|_, frame| frame.control().refund_rest());
    game_loop.start();
    let mut ran = Vec::new();
    for at in [20, 40, 60] {
        clock.set(ms(at));
        let _ = game_loop.pump(&mut ran, PumpKind::Paint);
    }
    assert_eq!(ran, [0, 1, 2]);
    assert_eq!(game_loop.tick(), 3);
    assert_eq!(game_loop.planner().remainder(), Nanos::ZERO);
}

#[test]
fn a_refund_asked_for_by_an_update_that_panics_is_forgotten_with_the_pump() {
    let clock = ManualClock::new();
    let mut game_loop = plain_loop::<Vec<u64>>(&clock);
    game_loop.on_update(|ran, step| {
        ran.push(step.tick());
        if step.tick() == 1 && ran.len() == 2 {
            step.control().refund_rest();
            panic!("the update fails after asking for a refund");
        }
    });
    game_loop.start();
    let mut ran = Vec::new();
    clock.set(ms(20));
    let _ = game_loop.pump(&mut ran, PumpKind::Paint);
    clock.set(ms(40));
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        game_loop.pump(&mut ran, PumpKind::Paint)
    }));
    assert!(panicked.is_err());
    game_loop.start();
    for at in [60, 80, 100] {
        clock.set(ms(at));
        let _ = game_loop.pump(&mut ran, PumpKind::Paint);
    }
    // Tick 1 began and panicked; ticks 2, 3 and 4 each run once.
    assert_eq!(ran, [0, 1, 2, 3, 4]);
    assert_eq!(game_loop.tick(), 5);
}

#[test]
fn a_refund_then_a_stop_in_a_catch_up_drops_only_what_the_budget_cannot_bank() {
    let clock = ManualClock::new();
    let mut game_loop = plain_loop::<Lockstep>(&clock);
    game_loop.on_update(|game, step| {
        if game.allowed == 0 {
            step.control().refund_rest();
            step.control().stop();
            return;
        }
        game.allowed -= 1;
        game.ran.push(step.tick());
    });
    game_loop.start();
    let mut game = Lockstep {
        allowed: 3,
        ..Lockstep::default()
    };
    // 200 ms at 50 Hz: ten steps. Three run; the fourth gives back seven
    // and stops. The budget of five banks five; two are dropped.
    let caught = game_loop
        .catch_up(&mut game, std::time::Duration::from_millis(200))
        .unwrap();
    assert!(caught.stopped);
    assert_eq!((caught.steps, game_loop.tick()), (3, 3));
    assert_eq!(game_loop.planner().remainder(), Nanos::from_millis(100));
    assert_eq!(
        (
            game_loop.stats().dropped_steps(),
            game_loop.stats().dropped()
        ),
        (2, Nanos::from_millis(40))
    );
}

proptest! {
    #![proptest_config(common::config(128))]

    /// Lockstep through stalls, under every pacing: every pump the peer
    /// allows a random number of steps and the rest are refunded. What the
    /// steps simulated plus what is banked plus what was dropped is exactly
    /// the bank the loop started with and the time submitted, moved by
    /// pacing's phase shifts, to the unit.
    #[test]
    fn lockstep_refunds_keep_the_books_exact_through_stalls(
        frames in prop::collection::vec(
            (prop_oneof![6 => 0_u64..40_000, 1 => 40_000_u64..600_000], 0_u64..4),
            1..120,
        ),
        pacing in 0_usize..4,
    ) {
        let clock = ManualClock::new();
        let mut game_loop = lockstep_loop_with(&clock, common::pacings()[pacing]);
        let mut game = Lockstep::default();
        let per_step = u128::from(Timestep::HZ_50.units_per_step());
        let (mut now, mut submitted) = (0_u64, i128::try_from(game_loop.planner().remainder_units()).unwrap());
        for (delta_us, allowed) in frames {
            now += delta_us * 1_000;
            game.allowed = allowed;
            clock.set(Timestamp::from_nanos(now));
            let Pump::Ran(report) = game_loop.pump(&mut game, PumpKind::Paint) else { panic!() };
            submitted += i128::try_from(report.plan.scaled_units()).unwrap()
                + report.plan.phase_shift_units();
            prop_assert!(report.steps <= allowed);
            let dropped = u128::from(game_loop.stats().dropped_steps()) * per_step;
            let simulated = u128::from(game_loop.tick()) * per_step;
            let books = simulated + game_loop.planner().remainder_units() + dropped;
            prop_assert_eq!(i128::try_from(books).unwrap(), submitted);
            prop_assert!(game_loop.planner().remainder_units() <= 6 * per_step);
        }
    }
}

#[test]
fn a_lockstep_session_replays_green() {
    let hash = |game: &Lockstep| StateHash::new().u64(game.jumps).finish();
    let update = |game: &mut Lockstep, step: &StepContext<'_>| {
        if step.input().pressed(Key::SPACE) {
            game.jumps += 1;
        }
    };
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Lockstep>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .pacing(Pacing::OFF)
        .record_input(NonZeroU64::new(1).unwrap(), hash)
        .build()
        .unwrap();
    let waits = Rc::new(Cell::new(0_u32));
    let counter = Rc::clone(&waits);
    game_loop.on_update(move |game, step| {
        // Every third step waits once for its peer.
        if step.tick() % 3 == 2 && counter.get() == 0 {
            counter.set(1);
            step.control().refund_rest();
            return;
        }
        counter.set(0);
        update(game, step);
    });
    game_loop.start();
    let mut game = Lockstep::default();
    for i in 1..=30_u64 {
        if i % 4 == 0 {
            game_loop
                .push_input(ms(i * 20 - 3), InputEvent::Press(Button::Key(Key::SPACE)))
                .unwrap();
            game_loop
                .push_input(ms(i * 20 - 2), InputEvent::Release(Button::Key(Key::SPACE)))
                .unwrap();
        }
        clock.set(ms(i * 20));
        let _ = game_loop.pump(&mut game, PumpKind::Paint);
    }
    assert!(waits.get() <= 1);
    let mut log = game_loop.take_input_log().unwrap();
    let mut replayed = Lockstep::default();
    let report = replay(&mut log, Timestep::HZ_50, &mut replayed, update, hash).unwrap();
    assert!(report.is_green());
    assert_eq!(replayed.jumps, game.jumps);
    assert!(game.jumps >= 6);
}

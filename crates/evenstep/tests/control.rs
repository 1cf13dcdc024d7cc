//! Lifecycle and control: nothing runs before `start`; control calls from a
//! callback take effect at the next pump boundary, except `stop`, which takes
//! effect at once; pause keeps real time and jobs going and resumes without a
//! burst; the tick never skips or repeats across stop and start; a panicking
//! callback leaves the loop stopped and restartable.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, Pump, PumpKind, Speed, Timestep};

#[derive(Default)]
struct Game {
    ticks: Vec<u64>,
    real_fires: u64,
    renders: u64,
}

fn game_loop(clock: &ManualClock) -> Loop<Game> {
    let mut game_loop = Loop::<Game>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .timestep(Timestep::HZ_50) // 20 ms steps keep the arithmetic whole
        .build()
        .unwrap();
    game_loop.on_update(|game, step| game.ticks.push(step.tick()));
    game_loop.on_render(|_, _| {});
    game_loop
        .real()
        .every(Duration::from_millis(100), |game, fire| {
            game.real_fires += fire.repeats();
        })
        .unwrap();
    game_loop
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn a_pump_before_start_is_a_no_op_that_says_so() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    let mut game = Game::default();
    clock.advance(ms(1_000));
    assert_eq!(game_loop.pump(&mut game, PumpKind::Paint), Pump::NotStarted);
    assert!(game.ticks.is_empty());
    assert_eq!(game.real_fires, 0);
    assert_eq!(game_loop.real_time(), Nanos::ZERO);
    assert!(game_loop.catch_up(&mut game, ms(100)).is_none());
}

#[test]
fn start_anchors_the_clock_so_time_before_it_is_never_billed() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    let mut game = Game::default();
    clock.advance(ms(5_000)); // loading
    game_loop.start();
    clock.advance(ms(40));
    let report = game_loop.pump(&mut game, PumpKind::Paint).report().unwrap();
    assert_eq!(report.elapsed, Nanos::from_millis(40));
    assert_eq!(game.ticks, [0, 1]);
}

#[test]
fn pausing_inside_an_update_does_not_cut_short_the_pump_it_came_from() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop.on_update(|_, step| {
        if step.tick() == 0 {
            step.control().pause();
        }
    });
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(60));
    let _ = game_loop.pump(&mut game, PumpKind::Paint);
    assert_eq!(game.ticks, [0, 1, 2], "all three steps of the pump ran");
    assert!(!game_loop.is_paused(), "the pause waits for the next pump");
    clock.advance(ms(60));
    let _ = game_loop.pump(&mut game, PumpKind::Paint);
    assert!(game_loop.is_paused());
    assert_eq!(game.ticks, [0, 1, 2]);
}

#[test]
fn stop_inside_an_update_stops_at_once() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop.on_update(|game, step| {
        if step.tick() == 1 {
            step.control().stop();
        }
        game.renders += 0;
    });
    let later =
        game_loop.on_update(|_, step| assert!(step.tick() != 1, "no update runs after stop"));
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(80)); // four steps due
    let report = game_loop.pump(&mut game, PumpKind::Paint).report().unwrap();
    assert_eq!(game.ticks, [0, 1]);
    assert_eq!(
        report.steps, 2,
        "the interrupted step counts; the other two never ran"
    );
    assert!(report.stopped);
    assert!(!report.rendered, "a stopped pump does not paint");
    assert_eq!(game_loop.pump(&mut game, PumpKind::Paint), Pump::Stopped);
    assert_eq!(
        game_loop.stats().dropped_steps(),
        2,
        "abandoned steps are reported as dropped"
    );
    assert!(game_loop.remove(later));
}

#[test]
fn the_tick_never_skips_or_repeats_across_stop_and_start() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(40));
    let _ = game_loop.pump(&mut game, PumpKind::Paint);
    game_loop.stop();
    clock.advance(ms(10_000)); // stopped: not billed
    assert_eq!(game_loop.pump(&mut game, PumpKind::Paint), Pump::Stopped);
    game_loop.start();
    clock.advance(ms(60));
    let _ = game_loop.pump(&mut game, PumpKind::Paint);
    assert_eq!(game.ticks, [0, 1, 2, 3, 4]);
    assert_eq!(game_loop.tick(), 5);
    assert_eq!(game_loop.real_time(), Nanos::from_millis(100));
}

#[test]
fn a_paused_loop_keeps_real_time_and_real_timers_and_resumes_without_a_burst() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(20)); // the centred bank starts at 10 ms: one step, 10 ms banked
    let _ = game_loop.pump(&mut game, PumpKind::Paint);
    let alpha = game_loop.alpha();
    game_loop.pause();
    for _ in 0..10 {
        clock.advance(ms(100));
        let report = game_loop.pump(&mut game, PumpKind::Paint).report().unwrap();
        assert_eq!(report.steps, 0);
        assert_eq!(report.plan.alpha(), alpha, "alpha stays where it was");
    }
    assert_eq!(game.ticks, [0]);
    assert_eq!(game.real_fires, 10, "real timers fire while paused");
    assert_eq!(game_loop.real_time(), Nanos::from_millis(1_020));
    game_loop.resume();
    clock.advance(ms(500)); // spent paused, between the last paused pump and this one
    let report = game_loop.pump(&mut game, PumpKind::Paint).report().unwrap();
    assert_eq!(report.steps, 0, "resume starts with a zero delta");
    assert_eq!(
        report.elapsed,
        Nanos::from_millis(500),
        "but real time saw it"
    );
    clock.advance(ms(10));
    let report = game_loop.pump(&mut game, PumpKind::Paint).report().unwrap();
    assert_eq!(report.steps, 1, "the kept 10 ms plus 10 ms is one step");
}

#[test]
fn queued_steps_run_while_paused_for_frame_by_frame_debugging() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    let mut game = Game::default();
    game_loop.start();
    game_loop.pause();
    let _ = game_loop.pump(&mut game, PumpKind::Paint);
    game_loop.queue_steps(1);
    clock.advance(ms(500));
    let report = game_loop.pump(&mut game, PumpKind::Paint).report().unwrap();
    assert_eq!(report.steps, 1);
    assert_eq!(game.ticks, [0]);
}

#[test]
fn speed_set_inside_a_render_applies_from_the_next_pump() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop.on_render(|_, frame| frame.control().set_speed(Speed::DOUBLE));
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(40));
    let _ = game_loop.pump(&mut game, PumpKind::Paint);
    assert_eq!(game.ticks.len(), 2);
    clock.advance(ms(40));
    let _ = game_loop.pump(&mut game, PumpKind::Paint);
    assert_eq!(game.ticks.len(), 6, "80 ms of sim time at 2×: four steps");
    assert_eq!(game_loop.speed(), Speed::DOUBLE);
}

#[test]
fn bad_speeds_are_refused_with_the_valid_range() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    let error = game_loop.set_speed_f64(f64::NAN).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the speed is NaN; a speed must be a finite number from 0 (paused) to 65535"
    );
    assert!(game_loop.set_speed_f64(-1.0).is_err());
    assert!(game_loop.set_speed_f64(0.5).is_ok());
}

#[test]
fn a_panicking_update_leaves_the_loop_stopped_and_restartable() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop.on_update(|_, step| {
        assert!(step.tick() != 2, "boom at tick 2");
    });
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(100)); // five steps due
    let result = catch_unwind(AssertUnwindSafe(|| {
        game_loop.pump(&mut game, PumpKind::Paint)
    }));
    assert!(result.is_err());
    assert!(!game_loop.is_running());
    assert_eq!(
        game.ticks,
        [0, 1, 2],
        "the first subscriber ran for the step that panicked"
    );
    assert_eq!(game_loop.tick(), 3, "the step that panicked keeps its tick");
    assert_eq!(game_loop.pump(&mut game, PumpKind::Paint), Pump::Stopped);
    assert_eq!(
        game_loop.stats().dropped_steps(),
        2,
        "the two steps never begun are reported"
    );
    game_loop.start();
    clock.advance(ms(20));
    let report = game_loop.pump(&mut game, PumpKind::Paint).report().unwrap();
    assert_eq!(report.steps, 1);
    assert_eq!(game.ticks, [0, 1, 2, 3], "no tick repeats after the panic");
}

#[test]
fn a_render_cap_skips_renders_but_not_steps() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Game>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .timestep(Timestep::HZ_60)
        .render_cap(std::num::NonZeroU32::new(30).map(evenstep::Rate::hz))
        .build()
        .unwrap();
    game_loop.on_update(|game, step| game.ticks.push(step.tick()));
    game_loop.on_render(|_, _| {});
    let mut game = Game::default();
    game_loop.start();
    let mut rendered = Vec::new();
    for k in 1..=120_u64 {
        clock.set(evenstep::Timestamp::from_nanos(k * 1_000_000_000 / 60));
        let report = game_loop.pump(&mut game, PumpKind::Paint).report().unwrap();
        rendered.push(report.rendered);
    }
    assert_eq!(
        rendered.iter().filter(|&&r| r).count(),
        60,
        "30 renders a second"
    );
    assert!(
        rendered.windows(2).all(|w| w[0] != w[1]),
        "every other paint pump"
    );
    assert_eq!(game.ticks.len(), 120, "the steps ran on every pump");
    assert_eq!(game_loop.stats().paints(), 60);
}

#[test]
fn the_builder_takes_a_pacing() {
    let clock = ManualClock::new();
    let game_loop = Loop::<Game>::builder()
        .clock(clock)
        .pacing(evenstep::Pacing::OFF)
        .build()
        .unwrap();
    assert_eq!(game_loop.planner().pacing(), evenstep::Pacing::OFF);
    assert_eq!(game_loop.planner().remainder_units(), 0);
}

#[test]
fn stop_from_a_render_stops_the_loop_at_the_end_of_that_pump() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop.on_render(|_, frame| frame.control().stop());
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(20));
    let report = game_loop.pump(&mut game, PumpKind::Paint).report().unwrap();
    assert!(report.stopped);
    clock.advance(ms(50));
    assert_eq!(game_loop.pump(&mut game, PumpKind::Paint), Pump::Stopped);
    assert_eq!(game.ticks.len(), 1, "no update ran after the stop");
}

#[test]
fn a_panicking_stall_hook_reports_the_planned_steps_as_dropped() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop.on_stall(|_, _| panic!("stall hook"));
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(200)); // 10 steps due at 50 Hz (and the centred 10 ms): 5 run
    let result = catch_unwind(AssertUnwindSafe(|| {
        game_loop.pump(&mut game, PumpKind::Paint)
    }));
    assert!(result.is_err());
    game_loop.start();
    assert_eq!(game.ticks.len(), 0);
    // Five planned steps never began, and six the budget refused.
    assert_eq!(game_loop.stats().dropped_steps(), 5 + 5);
}

#[test]
fn a_panic_before_the_plan_abandons_no_steps() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop.on_update(|_, step| {
        if step.tick() == 0 {
            step.control().stop();
        }
    });
    let job = game_loop.coalesce(|_| panic!("job"));
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(50)); // 3 steps planned, 1 begun, 2 abandoned by the stop
    let _ = game_loop.pump(&mut game, PumpKind::Paint);
    let after_stop = game_loop.stats().dropped_steps();
    assert_eq!(after_stop, 2);
    game_loop.start();
    job.request();
    clock.advance(ms(1));
    assert!(
        catch_unwind(AssertUnwindSafe(
            || game_loop.pump(&mut game, PumpKind::Paint)
        ))
        .is_err()
    );
    game_loop.start();
    assert_eq!(
        game_loop.stats().dropped_steps(),
        after_stop,
        "nothing more was planned"
    );
}

#[test]
fn tick_pumps_do_not_use_up_the_render_cap() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Game>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .render_cap(std::num::NonZeroU32::new(30).map(evenstep::Rate::hz))
        .build()
        .unwrap();
    game_loop.on_render(|_, _| {});
    let mut game = Game::default();
    game_loop.start();
    let mut rendered = 0;
    for _ in 0..120 {
        clock.advance(Duration::from_nanos(8_333_333));
        let _ = game_loop.pump(&mut game, PumpKind::Tick);
        clock.advance(Duration::from_nanos(8_333_334));
        rendered += usize::from(
            game_loop
                .pump(&mut game, PumpKind::Paint)
                .report()
                .unwrap()
                .rendered,
        );
    }
    assert_eq!(rendered, 60);
}

#[test]
fn a_panicking_sim_timer_leaves_the_timeline_working_for_timers_armed_after() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop
        .sim()
        .after(ms(30), |_, _| panic!("a sim timer panics"))
        .unwrap();
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(100));
    let pump = catch_unwind(AssertUnwindSafe(|| {
        game_loop.pump(&mut game, PumpKind::Paint)
    }));
    assert!(pump.is_err());
    game_loop.start();
    // Due in step 1 (20-40 ms): steps 0 and 1 began, so the tick is 2.
    assert_eq!(game_loop.tick(), 2);
    assert!(
        game_loop.sim().is_empty(),
        "the one-shot that panicked is gone"
    );
    game_loop
        .sim()
        .after(ms(20), |game: &mut Game, _| game.renders += 1_000)
        .unwrap();
    for _ in 0..3 {
        clock.advance(ms(20));
        let _ = game_loop.pump(&mut game, PumpKind::Tick);
    }
    assert_eq!(
        game.renders, 1_000,
        "the timer armed after the panic fired once"
    );
}

#[test]
fn a_repeating_timer_whose_callback_panicked_is_disarmed() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop
        .sim()
        .every(ms(20), |game: &mut Game, _| {
            game.renders += 1;
            assert!(game.renders != 2, "the second firing panics");
        })
        .unwrap();
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(100));
    let pump = catch_unwind(AssertUnwindSafe(|| {
        game_loop.pump(&mut game, PumpKind::Tick)
    }));
    assert!(pump.is_err());
    game_loop.start();
    assert!(
        game_loop.sim().is_empty(),
        "its callback went with the panic: it is disarmed, not armed forever"
    );
    for _ in 0..5 {
        clock.advance(ms(20));
        let _ = game_loop.pump(&mut game, PumpKind::Tick);
    }
    assert_eq!(game.renders, 2);
}

#[test]
fn stats_read_right_after_a_panic_already_count_its_losses() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop.on_update(|_, step| assert!(step.tick() != 2, "step 2 panics"));
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(100)); // five steps planned
    let pump = catch_unwind(AssertUnwindSafe(|| {
        game_loop.pump(&mut game, PumpKind::Paint)
    }));
    assert!(pump.is_err());
    // Steps 3 and 4 never began.
    let before = game_loop.stats();
    assert_eq!(before.dropped_steps(), 2);
    assert_eq!(before.dropped(), Nanos::from_millis(40));
    game_loop.start();
    assert_eq!(
        game_loop.stats(),
        before,
        "recovery records the same losses once"
    );
}

#[test]
fn after_a_stop_cuts_steps_short_plans_number_steps_from_the_loop_tick() {
    let clock = ManualClock::new();
    let mut game_loop = game_loop(&clock);
    game_loop.on_update(|_, step| {
        if step.tick() == 0 {
            step.control().stop();
        }
    });
    let mut game = Game::default();
    game_loop.start();
    clock.advance(ms(80)); // four steps planned, one run
    let _ = game_loop.pump(&mut game, PumpKind::Paint);
    assert_eq!(game_loop.tick(), 1);
    game_loop.start();
    assert_eq!(game_loop.planner().tick(), 1);
    clock.advance(ms(20));
    let report = game_loop.pump(&mut game, PumpKind::Paint).report().unwrap();
    assert_eq!(report.plan.first_tick(), 1);
    assert_eq!(game.ticks, [0, 1]);
}

//! Hooks before and after the steps: on every pump that runs (with or
//! without steps, paused too), after the plan and the jobs, around the
//! updates, before the renders, in registration order, removable; the
//! after-steps hooks are skipped when an update stops the loop.

use std::cell::RefCell;
use std::time::Duration;

use evenstep::{Loop, ManualClock, PumpKind, Timestep};

/// A log renders can write to as well.
type Log = RefCell<Vec<String>>;

fn logged_loop(clock: &ManualClock) -> Loop<Log> {
    let mut game_loop = Loop::<Log>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .build()
        .unwrap();
    let job = game_loop.coalesce(|log| log.get_mut().push("job".into()));
    job.request();
    game_loop
        .on_before_steps(|log, plan| log.get_mut().push(format!("before {}", plan.steps_run())));
    game_loop.on_before_steps(|log, _| log.get_mut().push("before, second".into()));
    game_loop.on_update(|log, step| log.get_mut().push(format!("update {}", step.tick())));
    game_loop.on_after_steps(|log, plan| log.get_mut().push(format!("after {}", plan.end_tick())));
    game_loop.on_render(|log, _| log.borrow_mut().push("render".into()));
    game_loop
}

#[test]
fn the_hooks_run_around_the_steps_after_the_jobs_and_before_the_renders() {
    let clock = ManualClock::new();
    let mut game_loop = logged_loop(&clock);
    game_loop.start();
    clock.advance(Duration::from_millis(40)); // two 20 ms steps (centred: 10 ms banked)
    let mut log = Log::default();
    let _ = game_loop.pump(&mut log, PumpKind::Paint);
    assert_eq!(
        log.into_inner(),
        [
            "job",
            "before 2",
            "before, second",
            "update 0",
            "update 1",
            "after 2",
            "render"
        ]
    );
}

#[test]
fn the_hooks_run_on_pumps_without_steps_and_while_paused() {
    let clock = ManualClock::new();
    let mut game_loop = logged_loop(&clock);
    game_loop.start();
    game_loop.pause();
    let mut log = Log::default();
    for _ in 0..2 {
        clock.advance(Duration::from_millis(40));
        let _ = game_loop.pump(&mut log, PumpKind::Tick);
    }
    assert_eq!(
        log.into_inner(),
        [
            "job",
            "before 0",
            "before, second",
            "after 0",
            "before 0",
            "before, second",
            "after 0"
        ]
    );
}

#[test]
fn a_stop_from_an_update_skips_the_after_steps_hooks() {
    let clock = ManualClock::new();
    let mut game_loop = logged_loop(&clock);
    game_loop.on_update(|_, step| step.control().stop());
    game_loop.start();
    clock.advance(Duration::from_millis(40));
    let mut log = Log::default();
    let _ = game_loop.pump(&mut log, PumpKind::Paint);
    assert_eq!(
        log.into_inner(),
        ["job", "before 2", "before, second", "update 0"]
    );
}

#[test]
fn a_removed_hook_no_longer_runs() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<u32>::builder().clock(clock.clone()).build().unwrap();
    let before = game_loop.on_before_steps(|calls, _| *calls += 1);
    let after = game_loop.on_after_steps(|calls, _| *calls += 10);
    game_loop.start();
    let mut calls = 0;
    let _ = game_loop.pump(&mut calls, PumpKind::Tick);
    assert!(game_loop.remove(before));
    assert!(game_loop.remove(after));
    assert!(!game_loop.remove(after));
    let _ = game_loop.pump(&mut calls, PumpKind::Tick);
    assert_eq!(calls, 11);
}

//! The pump order, step for step: one clock reading; real time and the real
//! timeline; jobs in creation order; the plan and the stall hook; for each
//! step the sim timeline then the updates in registration order; renders on
//! paint pumps only; statistics last.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, StepBudget, Timestep};

type Log = Rc<RefCell<Vec<String>>>;

fn push(log: &Log, event: impl Into<String>) {
    log.borrow_mut().push(event.into());
}

fn recorder() -> (
    Loop<()>,
    ManualClock,
    Log,
    evenstep::JobHandle,
    evenstep::JobHandle,
) {
    let clock = ManualClock::new();
    let log: Log = Rc::default();
    let mut game_loop = Loop::<()>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .timestep(Timestep::HZ_60)
        .budget(StepBudget::DEFAULT)
        .build()
        .unwrap();

    let l = log.clone();
    game_loop.on_update(move |(), step| push(&l, format!("update A {}", step.tick())));
    let l = log.clone();
    game_loop.on_update(move |(), step| push(&l, format!("update B {}", step.tick())));
    let l = log.clone();
    game_loop.on_render(move |(), frame| push(&l, format!("render X {}", frame.tick())));
    let l = log.clone();
    game_loop.on_render(move |(), frame| push(&l, format!("render Y {}", frame.alpha().ratio().0)));
    let l = log.clone();
    game_loop.on_stall(move |(), plan| push(&l, format!("stall {} dropped", plan.steps_dropped())));
    let l = log.clone();
    let first = game_loop.coalesce(move |()| push(&l, "job first"));
    let l = log.clone();
    let second = game_loop.coalesce(move |()| push(&l, "job second"));
    let l = log.clone();
    game_loop
        .real()
        .every(Duration::from_millis(20), move |(), fire| {
            push(&l, format!("real every20 x{}", fire.repeats()));
        })
        .unwrap();
    let l = log.clone();
    game_loop
        .sim()
        .after(Duration::from_millis(16), move |(), _| {
            push(&l, "sim after16");
        })
        .unwrap();
    let l = log.clone();
    game_loop
        .sim()
        .every(Duration::from_millis(30), move |(), fire| {
            push(&l, format!("sim every30 x{}", fire.repeats()));
        })
        .unwrap();
    (game_loop, clock, log, first, second)
}

fn drain(log: &Log) -> Vec<String> {
    std::mem::take(&mut *log.borrow_mut())
}

#[test]
fn a_paint_pump_runs_real_timers_jobs_steps_with_sim_timers_then_renders() {
    let (mut game_loop, clock, log, first, second) = recorder();
    game_loop.start();
    clock.advance(Duration::from_millis(50)); // three 60 Hz steps, 50 ms of real time
    second.request();
    first.request();
    second.request();
    let report = game_loop.pump(&mut (), PumpKind::Paint).report().unwrap();
    assert_eq!(report.steps, 3);
    assert_eq!(
        drain(&log),
        [
            "real every20 x2", // due at 20 ms, covers 20 and 40: one call
            "job first",       // creation order, once each
            "job second",
            "sim after16", // the sim timeline advances to the step's end first
            "update A 0",
            "update B 0",
            "sim every30 x1", // due at 30 ms: fires before the step ending at 33.3 ms
            "update A 1",
            "update B 1",
            "update A 2",
            "update B 2",
            "render X 3",
            "render Y 25000000", // 50 ms is exactly three steps: nothing banked
        ]
    );
}

#[test]
fn a_tick_pump_runs_everything_but_the_renders() {
    let (mut game_loop, clock, log, first, _second) = recorder();
    game_loop.start();
    clock.advance(Duration::from_millis(20));
    first.request();
    let report = game_loop.pump(&mut (), PumpKind::Tick).report().unwrap();
    assert!(!report.rendered);
    assert_eq!(
        drain(&log),
        [
            "real every20 x1",
            "job first",
            "sim after16",
            "update A 0",
            "update B 0"
        ]
    );
}

#[test]
fn a_stall_calls_the_hook_after_jobs_and_before_the_steps() {
    let (mut game_loop, clock, log, first, _second) = recorder();
    game_loop.start();
    clock.advance(Duration::from_millis(200)); // 12 steps due, 5 run
    first.request();
    let _ = game_loop.pump(&mut (), PumpKind::Paint);
    let events = drain(&log);
    assert_eq!(
        &events[..4],
        [
            "real every20 x10",
            "job first",
            "stall 7 dropped",
            "sim after16"
        ]
    );
    assert_eq!(
        events.iter().filter(|e| e.starts_with("update A")).count(),
        5
    );
    assert_eq!(events.last().map(String::as_str), Some("render Y 25000000"));
    assert_eq!(game_loop.stats().dropped(), Nanos::from_nanos(116_666_666));
}

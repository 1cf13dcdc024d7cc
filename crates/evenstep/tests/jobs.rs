//! Coalesced jobs: any number of requests run a job once, before the steps of
//! the next pump, in creation order, on tick pumps and while paused too.

use std::time::Duration;

use evenstep::{Loop, ManualClock, Pacing, PumpKind};

#[derive(Default)]
struct World {
    log: Vec<String>,
    dirty: u32,
}

fn world_loop(clock: &ManualClock) -> Loop<World> {
    let mut game_loop = Loop::<World>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .build()
        .unwrap();
    game_loop.on_update(|world, step| world.log.push(format!("update {}", step.tick())));
    game_loop
}

#[test]
fn fifty_requests_before_a_pump_run_the_job_once_before_its_steps() {
    let clock = ManualClock::new();
    let mut game_loop = world_loop(&clock);
    let rebuild = game_loop.coalesce(|world| {
        world.log.push(format!("rebuild {}", world.dirty));
    });
    let mut world = World::default();
    game_loop.start();
    for _ in 0..50 {
        world.dirty += 1;
        rebuild.request();
    }
    clock.advance(Duration::from_millis(50));
    let report = game_loop
        .pump(&mut world, PumpKind::Paint)
        .report()
        .unwrap();
    assert_eq!(report.jobs, 1);
    assert_eq!(
        world.log,
        ["rebuild 50", "update 0", "update 1", "update 2"]
    );
    assert!(!rebuild.is_requested());
    clock.advance(Duration::from_millis(17));
    let _ = game_loop.pump(&mut world, PumpKind::Paint);
    assert_eq!(
        world
            .log
            .iter()
            .filter(|e| e.starts_with("rebuild"))
            .count(),
        1
    );
}

#[test]
fn requests_from_inside_the_steps_run_once_at_the_next_pump() {
    let clock = ManualClock::new();
    let mut game_loop = world_loop(&clock);
    let rebuild = game_loop.coalesce(|world| world.log.push("rebuild".into()));
    let from_update = rebuild.clone();
    game_loop.on_update(move |_, _| from_update.request()); // every step dirties
    let mut world = World::default();
    game_loop.start();
    // 80 ms and the centred half step: five steps, five requests.
    clock.advance(Duration::from_millis(80));
    let first = game_loop
        .pump(&mut world, PumpKind::Paint)
        .report()
        .unwrap();
    assert_eq!(first.steps, 5);
    assert!(!world.log.contains(&"rebuild".to_string()));
    clock.advance(Duration::from_millis(17));
    let report = game_loop
        .pump(&mut world, PumpKind::Paint)
        .report()
        .unwrap();
    assert_eq!(report.jobs, 1);
    assert_eq!(
        world.log[5], "rebuild",
        "once, before the second pump's steps"
    );
}

#[test]
fn jobs_run_in_creation_order_on_tick_pumps_and_while_paused() {
    let clock = ManualClock::new();
    let mut game_loop = world_loop(&clock);
    let first = game_loop.coalesce(|world| world.log.push("first".into()));
    let second = game_loop.coalesce(|world| world.log.push("second".into()));
    let mut world = World::default();
    game_loop.start();
    game_loop.pause();
    second.request();
    first.request();
    clock.advance(Duration::from_secs(1));
    let report = game_loop.pump(&mut world, PumpKind::Tick).report().unwrap();
    assert_eq!(report.steps, 0, "paused");
    assert_eq!(world.log, ["first", "second"]);
}

#[test]
fn a_job_requested_by_another_job_waits_for_the_next_pump() {
    let clock = ManualClock::new();
    let mut game_loop = world_loop(&clock);
    let later = game_loop.coalesce(|world| world.log.push("later".into()));
    let chained = later.clone();
    let earlier = game_loop.coalesce(move |world| {
        world.log.push("earlier".into());
        chained.request();
    });
    let mut world = World::default();
    game_loop.start();
    earlier.request();
    let _ = game_loop.pump(&mut world, PumpKind::Tick);
    assert_eq!(world.log, ["earlier"]);
    let _ = game_loop.pump(&mut world, PumpKind::Tick);
    assert_eq!(world.log, ["earlier", "later"]);
}

#[test]
fn a_removed_job_never_runs_again() {
    let clock = ManualClock::new();
    let mut game_loop = world_loop(&clock);
    let job = game_loop.coalesce(|world| world.log.push("job".into()));
    let mut world = World::default();
    game_loop.start();
    job.request();
    assert!(game_loop.remove_job(&job));
    assert!(!game_loop.remove_job(&job));
    let _ = game_loop.pump(&mut world, PumpKind::Tick);
    assert!(world.log.is_empty());
    assert_eq!(game_loop.job_count(), 0);
}

//! Changing the step rate of a running loop: from the next pump, from the
//! loop or from inside an update; the tick carries on, simulation time (as
//! updates, renders and the sim timeline see it) goes on exactly from where
//! it stood, and a budget given as a span is counted in the new steps.

use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, Timestep};

#[derive(Default)]
struct World {
    /// (tick, sim time, dt in ns) of every update.
    steps: Vec<(u64, Nanos, u64)>,
    /// The sim time a timer fired at.
    fired: Vec<Nanos>,
}

fn world_loop(clock: &ManualClock) -> Loop<World> {
    let mut world_loop = Loop::<World>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_60)
        .pacing(Pacing::OFF)
        .budget_window(Duration::from_secs(1))
        .build()
        .unwrap();
    world_loop.on_update(|world, step| {
        world
            .steps
            .push((step.tick(), step.sim_time(), step.dt().as_nanos() as u64));
    });
    world_loop
}

#[test]
fn an_update_that_changes_the_step_changes_it_from_the_next_pump() {
    let clock = ManualClock::new();
    let mut world_loop = world_loop(&clock);
    world_loop.on_update(|_, step| {
        if step.tick() == 0 {
            step.control().set_timestep(Timestep::HZ_20);
        }
    });
    world_loop.start();
    let mut world = World::default();
    clock.advance(Duration::from_nanos(33_333_334)); // two 60 Hz steps
    let _ = world_loop.pump(&mut world, PumpKind::Tick);
    assert_eq!(world_loop.timestep(), Timestep::HZ_60);
    clock.advance(Duration::from_millis(100)); // two 20 Hz steps
    let _ = world_loop.pump(&mut world, PumpKind::Tick);
    assert_eq!(world_loop.timestep(), Timestep::HZ_20);
    assert_eq!(
        world.steps,
        [
            (0, Nanos::ZERO, 16_666_666),
            (1, Nanos::from_nanos(16_666_666), 16_666_666),
            (2, Nanos::from_nanos(33_333_333), 50_000_000),
            (3, Nanos::from_nanos(83_333_333), 50_000_000),
        ]
    );
    assert_eq!(world_loop.sim_time(), Nanos::from_nanos(133_333_333));
}

#[test]
fn a_sim_timer_fires_at_its_sim_time_across_a_change_of_step() {
    let clock = ManualClock::new();
    let mut world_loop = world_loop(&clock);
    world_loop.start();
    let mut world = World::default();
    // Due at 200 ms of sim time.
    world_loop
        .sim()
        .after(Duration::from_millis(200), |world: &mut World, fire| {
            world.fired.push(fire.now());
        })
        .unwrap();
    clock.advance(Duration::from_millis(100)); // six 60 Hz steps: 100 ms
    let _ = world_loop.pump(&mut world, PumpKind::Tick);
    world_loop.set_timestep(Timestep::HZ_10);
    clock.advance(Duration::from_millis(100)); // one 10 Hz step, to 200 ms
    let _ = world_loop.pump(&mut world, PumpKind::Tick);
    assert_eq!(world.fired, [Nanos::from_millis(200)]);
    assert_eq!(world_loop.tick(), 7);
}

#[test]
fn an_empty_sim_timeline_handed_out_after_a_change_is_at_the_planners_sim_time() {
    let clock = ManualClock::new();
    let mut world_loop = world_loop(&clock);
    world_loop.start();
    let mut world = World::default();
    clock.advance(Duration::from_nanos(16_666_667));
    let _ = world_loop.pump(&mut world, PumpKind::Tick);
    world_loop.set_timestep(Timestep::HZ_20);
    clock.advance(Duration::from_millis(50));
    let _ = world_loop.pump(&mut world, PumpKind::Tick);
    assert_eq!(world_loop.tick(), 2);
    assert_eq!(world_loop.sim().now(), Nanos::from_nanos(66_666_666));
}

#[test]
fn a_render_sees_sim_time_between_steps_across_a_change() {
    let clock = ManualClock::new();
    let mut world_loop = Loop::<()>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_60)
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    let drawn = std::rc::Rc::new(std::cell::Cell::new(Nanos::ZERO));
    let sink = std::rc::Rc::clone(&drawn);
    world_loop.on_render(move |(), frame| sink.set(frame.sim_time()));
    world_loop.start();
    clock.advance(Duration::from_nanos(16_666_667));
    let _ = world_loop.pump(&mut (), PumpKind::Paint);
    world_loop.set_timestep(Timestep::HZ_20);
    clock.advance(Duration::from_millis(70)); // one step and 20 ms
    let _ = world_loop.pump(&mut (), PumpKind::Paint);
    // 16,666,666⅔ + 50,000,000 + 20,000,000 banked: the ⅓ ns the first
    // pump banked is under one unit of the 20 Hz step (1 ns), and went with
    // the change.
    assert_eq!(drawn.get(), Nanos::from_nanos(86_666_666));
}

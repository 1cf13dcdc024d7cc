//! The sim timeline keeps the planner's simulation time: a timer armed after
//! a stretch with no sim timer (a long catch-up, many pumps) is due from the
//! sim time at which it was armed, and fires in exactly the step that
//! reaches its due time.

use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, PumpKind, Timestep};

#[derive(Default)]
struct World {
    updates: u64,
    /// The updates run, and the timeline's time, when the timer fired.
    fired: Option<(u64, Nanos)>,
}

fn world_loop(clock: &ManualClock, timestep: Timestep) -> Loop<World> {
    let mut world_loop = Loop::<World>::builder()
        .clock(clock.clone())
        .timestep(timestep)
        .build()
        .unwrap();
    world_loop.on_update(|world, _| world.updates += 1);
    world_loop
}

#[test]
fn a_sim_timer_armed_after_a_day_of_catch_up_fires_in_the_step_that_reaches_it() {
    let clock = ManualClock::new();
    let mut world_loop = world_loop(&clock, Timestep::HZ_20);
    let mut world = World::default();
    world_loop.start();
    let day = world_loop
        .catch_up(&mut world, Duration::from_secs(24 * 3_600))
        .unwrap();
    assert_eq!(day.steps, 1_728_000);

    let sim = world_loop.sim();
    assert_eq!(sim.now(), Nanos::from_secs(86_400));
    sim.after(Duration::from_millis(120), |world: &mut World, fire| {
        world.fired = Some((world.updates, fire.now()));
    })
    .unwrap();
    assert_eq!(
        world_loop.sim().next_due(),
        Some(Nanos::from_millis(86_400_120))
    );

    // Due at 86,400.12 s: the step of tick 1,728,002 ends at 86,400.15 s and
    // is the first to reach it; the timer fires before that step's update.
    let _ = world_loop.catch_up(&mut world, Duration::from_millis(100));
    assert_eq!(world.fired, None);
    let _ = world_loop.catch_up(&mut world, Duration::from_millis(100));
    assert_eq!(
        world.fired,
        Some((1_728_002, Nanos::from_millis(86_400_150)))
    );
}

#[test]
fn a_sim_timer_armed_after_pumps_without_one_is_due_from_the_sim_time_of_arming() {
    let clock = ManualClock::new();
    let mut world_loop = world_loop(&clock, Timestep::HZ_60);
    let mut world = World::default();
    world_loop.start();
    // Ten seconds of 60 Hz frames with no sim timer: 600 steps.
    for _ in 0..600 {
        clock.advance(Duration::from_nanos(16_666_667));
        let _ = world_loop.pump(&mut world, PumpKind::Paint);
    }
    assert_eq!(world_loop.tick(), 600);
    // 600 steps of 16,666,666⅔ ns are exactly ten seconds.
    assert_eq!(world_loop.sim().now(), Nanos::from_secs(10));

    // One step (16,666,666⅔ ns) from now: due at 10.016666666 s, which the
    // end of the step of tick 600 reaches (10,016,666,666⅔ ns).
    world_loop
        .sim()
        .after(
            Duration::from_nanos(16_666_666),
            |world: &mut World, fire| {
                world.fired = Some((world.updates, fire.now()));
            },
        )
        .unwrap();
    clock.advance(Duration::from_nanos(16_666_667));
    let _ = world_loop.pump(&mut world, PumpKind::Paint);
    assert_eq!(world.fired, Some((600, Nanos::from_nanos(10_016_666_666))));
}

#[test]
fn a_sim_timer_armed_from_the_start_still_fires_on_its_tick_after_the_timeline_was_empty() {
    let clock = ManualClock::new();
    let mut world_loop = world_loop(&clock, Timestep::HZ_20);
    let mut world = World::default();
    world_loop.start();
    // A one-shot at 1 s empties the timeline when it fires, at tick 19.
    world_loop
        .sim()
        .after(Duration::from_secs(1), |world: &mut World, fire| {
            world.fired = Some((world.updates, fire.now()));
        })
        .unwrap();
    let _ = world_loop.catch_up(&mut world, Duration::from_secs(2));
    assert_eq!(world.fired, Some((19, Nanos::from_secs(1))));

    // A minute later, with nothing armed in between, the next one is due a
    // second after the sim time it is armed at.
    world.fired = None;
    let _ = world_loop.catch_up(&mut world, Duration::from_secs(60));
    world_loop
        .sim()
        .after(Duration::from_secs(1), |world: &mut World, fire| {
            world.fired = Some((world.updates, fire.now()));
        })
        .unwrap();
    let _ = world_loop.catch_up(&mut world, Duration::from_secs(2));
    assert_eq!(world.fired, Some((1_259, Nanos::from_secs(63))));
}

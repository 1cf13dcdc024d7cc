//! Contract: the demo world's rules are deterministic (same steps and inputs,
//! same bits), inputs change it only at a step, balls stay in the box, and
//! a recording that stops being a replay of the session says so.

mod common;

use std::num::NonZeroU64;
use std::time::Duration;

use evenstep::{InputLog, Loop, ManualClock, PumpKind, StepContext, replay};
use evenstep_demo::{Bounce, MAX_BALLS, WORLD_HEIGHT, WORLD_WIDTH, World, WorldInput};

const DT: f32 = 0.05;

fn stepped(steps: u32, inputs: &[(u32, WorldInput)]) -> World {
    let mut world = World::new();
    for tick in 0..steps {
        for (_, input) in inputs.iter().filter(|(t, _)| *t == tick) {
            world.apply(*input);
        }
        world.step(DT);
    }
    world
}

#[test]
fn a_thousand_steps_with_inputs_give_a_frozen_digest() {
    let inputs = [
        (10, WorldInput::AddBall),
        (200, WorldInput::Reverse),
        (500, WorldInput::AddBall),
    ];
    let world = stepped(1_000, &inputs);
    assert_eq!(world.balls().len(), 6);
    assert_eq!(world.state_hash(), 0xEFBD_D178_3D1E_9F28);
}

#[test]
fn the_digest_changes_when_an_input_moves_one_tick() {
    let on_time = stepped(1_000, &[(200, WorldInput::Reverse)]);
    let a_tick_late = stepped(1_000, &[(201, WorldInput::Reverse)]);
    assert_ne!(on_time.state_hash(), a_tick_late.state_hash());
}

#[test]
fn balls_stay_inside_the_box() {
    let inputs: Vec<(u32, WorldInput)> = (0..20).map(|t| (t * 7, WorldInput::AddBall)).collect();
    let mut world = World::new();
    for tick in 0..5_000 {
        for (_, input) in inputs.iter().filter(|(t, _)| *t == tick) {
            world.apply(*input);
        }
        world.step(DT);
        for ball in world.balls() {
            let [x, y] = *ball.position.current();
            assert!(
                x >= ball.radius && x <= WORLD_WIDTH - ball.radius,
                "x {x} at tick {tick}"
            );
            assert!(
                y >= ball.radius && y <= WORLD_HEIGHT - ball.radius,
                "y {y} at tick {tick}"
            );
        }
    }
}

#[test]
fn the_world_holds_at_most_max_balls_and_at_least_one() {
    let mut world = World::new();
    for _ in 0..100 {
        world.apply(WorldInput::AddBall);
    }
    assert_eq!(world.balls().len(), MAX_BALLS);
    for _ in 0..100 {
        world.apply(WorldInput::RemoveBall);
    }
    assert_eq!(world.balls().len(), 1);
}

#[test]
fn a_queued_input_changes_nothing_until_the_next_step() {
    let clock = ManualClock::new();
    let mut game_loop = common::demo_loop(&clock);
    let mut bounce = Bounce::new();

    bounce.queue(WorldInput::AddBall);
    assert_eq!(bounce.world.balls().len(), 4);
    assert_eq!(bounce.pending(), &[WorldInput::AddBall]);
    // 20 Hz, and the default pacing starts with an empty bank: the first
    // step is due at 50 ms.
    clock.advance(Duration::from_millis(45));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.world.balls().len(), 4);
    clock.advance(Duration::from_millis(5));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.world.balls().len(), 5);
    assert_eq!(bounce.log().events(), &[(0, WorldInput::AddBall)]);
}

#[test]
fn a_recorded_session_replays_to_the_same_world_at_every_checkpoint() {
    let clock = ManualClock::new();
    let mut game_loop = common::demo_loop(&clock);
    let mut bounce = Bounce::new();
    for frame in 0_u32..600 {
        // Uneven frames, and input arriving between them.
        clock.advance(Duration::from_micros(16_000 + u64::from(frame % 7) * 300));
        if frame % 97 == 0 {
            bounce.queue(WorldInput::AddBall);
        }
        if frame % 151 == 0 {
            bounce.queue(WorldInput::Reverse);
        }
        let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    }
    let mut log = bounce.log().clone();
    let step = |world: &mut World, step: &StepContext<'_>| world.step(step.dt_secs_f32());
    let report = replay(
        &mut log,
        Bounce::timestep(),
        &mut World::new(),
        step,
        World::state_hash,
    )
    .unwrap();
    assert!(report.is_green(), "{report:?}");
    assert_eq!(report.ticks, game_loop.tick());
    assert_eq!(report.checkpoints, game_loop.tick() / 20);

    // Negative control: the same log replayed from another world diverges.
    let mut log = bounce.log().clone();
    let mut other = World::new();
    other.apply(WorldInput::Reverse);
    let report = replay(
        &mut log,
        Bounce::timestep(),
        &mut other,
        step,
        World::state_hash,
    )
    .unwrap();
    assert!(!report.is_green());
}

#[test]
fn an_input_log_of_the_demo_refuses_another_timestep() {
    let log = InputLog::<WorldInput>::new(Bounce::timestep(), NonZeroU64::MIN);
    assert!(log.check_timestep(evenstep::Timestep::HZ_60).is_err());
}

#[test]
fn an_input_the_log_refuses_is_still_applied_and_the_refusal_is_kept() {
    let clock = ManualClock::new();
    let mut bounce = Bounce::new();
    let mut first = Loop::<Bounce>::builder()
        .clock(clock.clone())
        .timestep(Bounce::timestep())
        .build()
        .unwrap();
    first.on_update(Bounce::update);
    first.start();
    clock.advance(Duration::from_millis(200)); // four steps, ticks 0 to 3
    bounce.queue(WorldInput::AddBall);
    let _ = first.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.log().events(), &[(0, WorldInput::AddBall)]);
    clock.advance(Duration::from_millis(200));
    let _ = first.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.recording_error(), None);

    // A second loop starts again at tick 0, behind what the log has.
    let mut second = Loop::<Bounce>::builder()
        .clock(clock.clone())
        .timestep(Bounce::timestep())
        .build()
        .unwrap();
    second.on_update(Bounce::update);
    second.start();
    let balls = bounce.world.balls().len();
    bounce.queue(WorldInput::AddBall);
    clock.advance(Duration::from_millis(50));
    let _ = second.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.world.balls().len(), balls + 1);
    let refused = bounce.recording_error().expect("the refusal is kept");
    assert!(refused.to_string().contains("in tick order"), "{refused}");
    assert!(bounce.title(&second).contains("recording broken"));
}

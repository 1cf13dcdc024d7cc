//! Contract: the demo world's rules are deterministic (same steps and inputs,
//! same bits), its keys change it only at the step whose span holds them
//! (a repeat adds and removes balls but never reverses them), balls stay in
//! the box, and the loop's recording of a session replays it.

mod common;

use std::time::Duration;

use evenstep::input::{Delivery, InputEvent};
use evenstep::{ManualClock, PumpKind, Timestep, replay};
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
fn a_key_pressed_between_steps_changes_nothing_until_the_next_step() {
    let clock = ManualClock::new();
    let mut game_loop = common::demo_loop(&clock);
    let mut bounce = Bounce::new();

    clock.advance(Duration::from_millis(10));
    common::tap(&mut game_loop, WorldInput::AddBall);
    assert_eq!(bounce.world.balls().len(), 4);
    assert_eq!(game_loop.waiting_input().len(), 2);
    // 20 Hz, and the default pacing starts with an empty bank: the first
    // step is due at 50 ms.
    clock.advance(Duration::from_millis(35));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.world.balls().len(), 4);
    clock.advance(Duration::from_millis(5));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.world.balls().len(), 5);
    let key = WorldInput::AddBall.key().into();
    let delivered = |event| Delivery {
        event,
        while_paused: false,
    };
    assert_eq!(
        game_loop.input_log().unwrap().events(),
        &[
            (0, delivered(InputEvent::Press(key))),
            (0, delivered(InputEvent::Release(key)))
        ]
    );
}

#[test]
fn a_held_key_repeats_adding_and_removing_balls_but_not_reversing_them() {
    let clock = ManualClock::new();
    let mut game_loop = common::demo_loop(&clock);
    let mut bounce = Bounce::new();
    let mut reversed = World::new();
    reversed.apply(WorldInput::Reverse);

    for input in [WorldInput::AddBall, WorldInput::Reverse] {
        let key = input.key().into();
        game_loop.push_input_now(InputEvent::Press(key)).unwrap();
        for _ in 0..2 {
            game_loop.push_input_now(InputEvent::Repeat(key)).unwrap();
        }
        game_loop.push_input_now(InputEvent::Release(key)).unwrap();
    }
    clock.advance(Duration::from_millis(50));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    // A press and two repeats of N: three balls; R reversed them once.
    assert_eq!(bounce.world.balls().len(), 7);
    let mut expected = World::new();
    for input in [
        WorldInput::AddBall,
        WorldInput::AddBall,
        WorldInput::AddBall,
        WorldInput::Reverse,
    ] {
        expected.apply(input);
    }
    expected.step(0.05);
    assert_eq!(bounce.world.state_hash(), expected.state_hash());
}

#[test]
fn a_recorded_session_replays_to_the_same_world_at_every_checkpoint() {
    let clock = ManualClock::new();
    let mut game_loop = common::demo_loop(&clock);
    let mut bounce = Bounce::new();
    for frame in 0_u32..600 {
        // Uneven frames, and keys pressed between them.
        clock.advance(Duration::from_micros(16_000 + u64::from(frame % 7) * 300));
        if frame % 97 == 0 {
            common::tap(&mut game_loop, WorldInput::AddBall);
        }
        if frame % 151 == 0 {
            common::tap(&mut game_loop, WorldInput::Reverse);
        }
        let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    }
    assert_eq!(bounce.world.balls().len(), 11);
    let mut log = game_loop.take_input_log().unwrap();
    assert_eq!(log.events().len(), 2 * (7 + 4));
    let report = Bounce::replay(&mut log).unwrap();
    assert!(report.is_green(), "{report:?}");
    assert_eq!(report.ticks, game_loop.tick());
    assert_eq!(report.checkpoints, game_loop.tick() / 20);

    // Negative control: the same log replayed from another world diverges.
    let mut other = World::new();
    other.apply(WorldInput::Reverse);
    let report = replay(
        &mut log,
        Bounce::timestep(),
        &mut other,
        World::update,
        World::state_hash,
    )
    .unwrap();
    assert!(!report.is_green());
}

#[test]
fn a_recording_of_the_demo_refuses_another_timestep() {
    let clock = ManualClock::new();
    let game_loop = common::demo_loop(&clock);
    let log = game_loop.input_log().unwrap();
    assert!(log.check_timestep(Timestep::HZ_60).is_err());
    assert!(log.check_timestep(Bounce::timestep()).is_ok());
}

#[test]
fn a_second_loop_driving_the_demo_records_its_own_session_from_tick_zero() {
    let clock = ManualClock::new();
    let mut bounce = Bounce::new();
    let mut first = common::demo_loop(&clock);
    common::tap(&mut first, WorldInput::AddBall);
    clock.advance(Duration::from_millis(400)); // eight steps, the budget five
    let _ = first.pump(&mut bounce, PumpKind::Paint);
    let _ = first.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(first.input_log().unwrap().ticks(), 5);

    // A second loop starts again at tick 0, with a log of its own: nothing
    // it records can clash with the first's.
    let mut second = common::demo_loop(&clock);
    let balls = bounce.world.balls().len();
    common::tap(&mut second, WorldInput::AddBall);
    clock.advance(Duration::from_millis(50));
    let _ = second.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.world.balls().len(), balls + 1);
    let log = second.input_log().unwrap();
    assert_eq!((log.ticks(), log.events().len()), (1, 2));
    assert_eq!(second.input_record_error(), None);
    assert!(!bounce.title(&second).contains("recording broken"));
}

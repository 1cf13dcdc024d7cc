//! Input through the loop replays exactly: a session the loop recorded
//! (with no code in the game) gives the same state hash at every checkpoint
//! when replayed, over random frame timings and input; and the negative
//! controls, a game that reads its input once per frame, which misses a
//! press in a frame with no step, doubles it in a frame with two, and
//! diverges in replay.

mod common;

use std::num::NonZeroU64;
use std::time::Duration;

use evenstep::input::{Button, InputEvent, Key, MouseButton};
use evenstep::{
    Clock, Loop, ManualClock, Pacing, PumpKind, Speed, StateHash, StepContext, Timestamp, Timestep,
    replay,
};
use proptest::prelude::*;

/// A game driven by input: a position moved by held keys and the mouse,
/// a count of jumps, and the text typed.
#[derive(Clone, Default, Debug, PartialEq)]
struct Game {
    x: i64,
    jumps: u64,
    aim: (f64, f64),
    typed: String,
    /// The per-frame reading the negative control uses.
    jump_this_frame: bool,
}

fn update(game: &mut Game, step: &StepContext<'_>) {
    let input = step.input();
    if input.held(Key::D) {
        game.x += 1;
    }
    if input.held(Key::A) {
        game.x -= 1;
    }
    if input.pressed(Key::SPACE) {
        game.jumps += 1;
    }
    let (dx, dy) = input.motion();
    game.aim = (game.aim.0 + dx, game.aim.1 + dy);
    game.typed.extend(input.text());
}

fn hash(game: &Game) -> u64 {
    StateHash::new()
        .i64(game.x)
        .u64(game.jumps)
        .f64(game.aim.0)
        .f64(game.aim.1)
        .bytes(game.typed.as_bytes())
        .finish()
}

fn event(kind: u8, value: u8) -> InputEvent {
    let key = [Key::A, Key::D, Key::SPACE][usize::from(value % 3)];
    match kind % 6 {
        0 => InputEvent::Press(Button::Key(key)),
        1 => InputEvent::Release(Button::Key(key)),
        2 => InputEvent::Motion {
            dx: f64::from(value) / 8.0,
            dy: -f64::from(value),
        },
        3 => InputEvent::Text(char::from(b'a' + value % 26).to_string()),
        4 => InputEvent::Press(Button::Mouse(MouseButton::LEFT)),
        _ => InputEvent::FocusLost,
    }
}

/// A frame: its delta in µs, its events as `(offset µs, kind, value)`,
/// and whether the loop is paused for it.
type Frame = (u64, Vec<(i64, u8, u8)>, bool);

/// Plays `frames` through a recording loop; returns the game and the loop.
fn play(frames: &[Frame], pacing: Pacing) -> (Game, Loop<Game>) {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Game>::builder()
        .clock(clock.clone())
        .pacing(pacing)
        .record_input(NonZeroU64::new(7).unwrap(), hash)
        .build()
        .unwrap();
    game_loop.on_update(update);
    game_loop.start();
    let mut game = Game::default();
    let mut now = 0_u64;
    for (delta_us, events, pause) in frames {
        now += delta_us * 1_000;
        for &(offset, kind, value) in events {
            let at = Timestamp::from_nanos(now.saturating_add_signed(offset * 1_000));
            game_loop.push_input(at, event(kind, value)).unwrap();
        }
        if *pause {
            game_loop.pause();
        } else {
            game_loop.resume();
        }
        clock.set(Timestamp::from_nanos(now));
        let _ = game_loop.pump(&mut game, PumpKind::Paint);
    }
    (game, game_loop)
}

proptest! {
    #![proptest_config(common::config(48))]

    #[test]
    fn a_recorded_session_replays_with_the_same_hash_at_every_checkpoint(
        frames in prop::collection::vec(
            (
                prop_oneof![6 => 0_u64..40_000, 1 => 40_000_u64..200_000],
                prop::collection::vec((-30_000_i64..30_000, any::<u8>(), any::<u8>()), 0..4),
                prop::bool::weighted(0.1),
            ),
            1..80,
        ),
        pacing in prop::sample::select(vec![Pacing::OFF, Pacing::LOCKED]),
    ) {
        let (live, mut game_loop) = play(&frames, pacing);
        let mut log = game_loop.take_input_log().unwrap();
        let mut replayed = Game::default();
        let report = replay(&mut log, Timestep::HZ_60, &mut replayed, update, hash).unwrap();
        prop_assert_eq!(report.divergence, None);
        prop_assert_eq!(report.checkpoints, log.ticks() / 7);
        prop_assert_eq!(hash(&replayed), hash(&live));
    }
}

#[test]
fn a_session_with_a_pause_a_stall_and_a_focus_loss_replays_green() {
    let ms = |n: u64| n * 1_000;
    let frames = vec![
        (ms(17), vec![(-3_000, 0, 1)], false), // D pressed
        (ms(17), vec![(-1_000, 2, 9), (0, 3, 7)], false),
        (ms(17), vec![(-2_000, 0, 2)], true), // Space during the pause
        (ms(100), vec![(-50_000, 1, 1)], true), // D let go while paused
        (ms(17), vec![], false),
        (ms(500), vec![(-400_000, 0, 0), (-10_000, 5, 0)], false), // a stall
        (ms(17), vec![], false),
        (ms(17), vec![], false),
    ];
    let (live, mut game_loop) = play(&frames, Pacing::LOCKED);
    let mut log = game_loop.take_input_log().unwrap();
    // 1 + 1 steps, two paused pumps, the resume's, a stall clamped to the
    // budget's 5, then 1 + 1.
    assert_eq!(log.ticks(), 9);
    let mut replayed = Game::default();
    let report = replay(&mut log, Timestep::HZ_60, &mut replayed, update, hash).unwrap();
    assert!(report.is_green());
    assert_eq!(report.checkpoints, 1);
    assert_eq!(replayed, live);
    // The pause's Space press never reached a step as a press.
    assert_eq!(live.jumps, 0);
}

/// The negative control: a game that reads "jump pressed this frame" once
/// per frame, as a game without the queue does, on frames of 2, 0 and 1
/// steps, against the same press read through the queue.
#[test]
fn reading_input_once_per_frame_doubles_a_press_in_a_two_step_frame_and_misses_one_in_a_frame_with_none()
 {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<(Game, u64)>::builder()
        .clock(clock.clone())
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    // `.0.jumps` counts the per-frame reading, `.1` the queue's.
    game_loop.on_update(|(game, queued), step| {
        if game.jump_this_frame {
            game.jumps += 1;
        }
        if step.input().pressed(Key::SPACE) {
            *queued += 1;
        }
    });
    game_loop.start();
    let mut state = (Game::default(), 0);
    let frame =
        |game_loop: &mut Loop<(Game, u64)>, state: &mut (Game, u64), at: u64, press: bool| {
            if press {
                // Ten milliseconds before the frame's time.
                let stamp = Timestamp::from_nanos((at - 10) * 1_000_000);
                game_loop
                    .push_input(stamp, InputEvent::Press(Button::Key(Key::SPACE)))
                    .unwrap();
                game_loop
                    .push_input(stamp, InputEvent::Release(Button::Key(Key::SPACE)))
                    .unwrap();
            }
            state.0.jump_this_frame = press;
            clock.set(Timestamp::from_nanos(at * 1_000_000));
            let _ = game_loop.pump(state, PumpKind::Paint);
        };
    frame(&mut game_loop, &mut state, 34, true); // 2 steps
    assert_eq!(
        (state.0.jumps, state.1),
        (2, 1),
        "the per-frame reading doubles"
    );
    frame(&mut game_loop, &mut state, 40, true); // 0 steps
    frame(&mut game_loop, &mut state, 51, false); // 1 step
    assert_eq!(
        (state.0.jumps, state.1),
        (2, 2),
        "the per-frame reading misses"
    );
}

/// The determinism claim's negative control: a game whose update reads a
/// per-frame flag set outside the steps runs differently from its replay,
/// and the replay names the first checkpoint that shows it.
#[test]
fn a_game_that_reads_input_outside_the_queue_diverges_in_replay() {
    let clock = ManualClock::new();
    let frame_update = |game: &mut Game, step: &StepContext<'_>| {
        update(game, step);
        if game.jump_this_frame {
            game.jumps += 1;
        }
    };
    let mut game_loop = Loop::<Game>::builder()
        .clock(clock.clone())
        .pacing(Pacing::OFF)
        .record_input(NonZeroU64::new(1).unwrap(), hash)
        .build()
        .unwrap();
    game_loop.on_update(frame_update);
    game_loop.start();
    let mut game = Game::default();
    for (i, at) in [17_u64, 34, 51].into_iter().enumerate() {
        game.jump_this_frame = i == 1;
        clock.set(Timestamp::from_nanos(at * 1_000_000));
        let _ = game_loop.pump(&mut game, PumpKind::Paint);
    }
    let mut log = game_loop.take_input_log().unwrap();
    let report = replay(
        &mut log,
        Timestep::HZ_60,
        &mut Game::default(),
        frame_update,
        hash,
    )
    .unwrap();
    let divergence = report
        .divergence
        .expect("the per-frame flag is not in the log");
    assert_eq!(divergence.tick, 1);
    // The same game reading only the queue replays green.
    let mut frames = vec![(17_000, vec![(-1_000, 0, 2)], false)];
    frames.resize(10, (17_000, vec![], false));
    let (_, mut queue_loop) = play(&frames, Pacing::OFF);
    let mut log = queue_loop.take_input_log().unwrap();
    assert!(
        replay(
            &mut log,
            Timestep::HZ_60,
            &mut Game::default(),
            update,
            hash
        )
        .unwrap()
        .is_green()
    );
}

#[test]
fn a_slow_motion_session_replays_green() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Game>::builder()
        .clock(clock.clone())
        .record_input(NonZeroU64::new(3).unwrap(), hash)
        .build()
        .unwrap();
    game_loop.on_update(update);
    game_loop.set_speed(Speed::new(1, 4).unwrap());
    game_loop.start();
    let mut game = Game::default();
    for i in 1..=120_u64 {
        if i % 10 == 0 {
            let at = Timestamp::from_nanos(i * 16_666_667 - 5_000_000);
            game_loop
                .push_input(at, InputEvent::Press(Button::Key(Key::SPACE)))
                .unwrap();
            game_loop
                .push_input(at, InputEvent::Release(Button::Key(Key::SPACE)))
                .unwrap();
        }
        clock.advance(Duration::from_nanos(16_666_667));
        let _ = game_loop.pump(&mut game, PumpKind::Paint);
    }
    // Each of the 12 presses reaches a step but the last, stamped in the
    // span of a step not yet run.
    assert_eq!(game.jumps, 11);
    let mut log = game_loop.take_input_log().unwrap();
    let mut replayed = Game::default();
    assert!(
        replay(&mut log, Timestep::HZ_60, &mut replayed, update, hash)
            .unwrap()
            .is_green()
    );
    assert_eq!(replayed, game);
}

#[test]
fn a_change_of_step_stops_the_recording_and_the_log_before_it_replays_green() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Game>::builder()
        .clock(clock.clone())
        .pacing(Pacing::OFF)
        .record_input(NonZeroU64::new(1).unwrap(), hash)
        .build()
        .unwrap();
    game_loop.on_update(update);
    game_loop.start();
    let mut game = Game::default();
    let press = InputEvent::Press(Button::Key(Key::SPACE));
    for i in 1..=60_u64 {
        if i == 30 {
            // The rate in force, in other terms, is no change at all.
            game_loop.set_timestep(Timestep::from_ratio(120, 2).unwrap());
        }
        if i == 40 {
            game_loop.set_timestep(Timestep::HZ_30);
        }
        game_loop.push_input(clock.now(), press.clone()).unwrap();
        game_loop
            .push_input(clock.now(), InputEvent::Release(Button::Key(Key::SPACE)))
            .unwrap();
        clock.advance(Duration::from_nanos(16_666_667));
        let _ = game_loop.pump(&mut game, PumpKind::Paint);
    }
    // Ticks 0 to 38 ran at 60 Hz: the change takes effect at the 40th pump.
    let error = game_loop.input_record_error().unwrap();
    assert_eq!(
        error,
        evenstep::replay::RecordError::TimestepChanged {
            tick: 39,
            recorded: Timestep::HZ_60,
            new: Timestep::HZ_30,
        }
    );
    let message = error.to_string();
    assert!(
        message.contains("from 60 Hz to 30 Hz at tick 39") && message.contains("ticks 0 to 38"),
        "{message}"
    );
    let mut log = game_loop.take_input_log().unwrap();
    assert_eq!(log.timestep(), Timestep::HZ_60);
    let mut replayed = Game::default();
    let report = replay(&mut log, Timestep::HZ_60, &mut replayed, update, hash).unwrap();
    assert!(report.is_green());
    assert_eq!(replayed.jumps, 39);
}

#[cfg(feature = "json")]
#[test]
fn a_recorded_session_saved_as_json_loads_and_replays_green() {
    let mut frames = vec![
        (17_000, vec![(-3_000, 0, 1), (-2_000, 3, 4)], false),
        (17_000, vec![(-1_000, 2, 9), (0, 4, 0)], false),
        (17_000, vec![(-2_000, 0, 2)], true),
        (17_000, vec![(-1_000, 5, 0)], false),
    ];
    frames.resize(20, (17_000, vec![], false));
    let (live, game_loop) = play(&frames, Pacing::OFF);
    let log = game_loop.input_log().unwrap();
    let text = serde_json::to_string(log).unwrap();
    assert!(text.contains(r#"{"Press":{"Key":"KeyD"}}"#), "{text}");
    let mut loaded =
        evenstep::InputLog::<evenstep::input::Delivery>::from_json(&text, Timestep::HZ_60).unwrap();
    assert_eq!(&loaded, log);
    let mut replayed = Game::default();
    let report = replay(&mut loaded, Timestep::HZ_60, &mut replayed, update, hash).unwrap();
    assert!(report.is_green());
    assert_eq!(hash(&replayed), hash(&live));
}

//! Contract: the demo's keys ask for the documented actions, a held key
//! repeats only the actions that make sense again, the actions move the
//! loop's pause, speed and pacing within their ranges, and the world's keys
//! reach the world only through a step's input, never through `act`.

mod common;

use std::time::Duration;

use evenstep::{ManualClock, Pacing, PumpKind, Speed};
use evenstep_demo::{Action, Bounce, Key, Outcome, PACING_MODES, SPEEDS, Settings, WorldInput};

#[test]
fn every_documented_key_asks_for_its_action() {
    let cases = [
        (Key::Escape, Action::Quit),
        (Key::Space, Action::TogglePause),
        (Key::Char('I'), Action::ToggleInterpolation),
        (Key::Char('p'), Action::TogglePause),
        (Key::Char('s'), Action::StepOnce),
        (Key::Char('+'), Action::Faster),
        (Key::Char('='), Action::Faster),
        (Key::Char('-'), Action::Slower),
        (Key::Char('m'), Action::CyclePacing),
        (Key::Char('h'), Action::HideBriefly),
        (Key::Char('n'), Action::World(WorldInput::AddBall)),
        (Key::Char('x'), Action::World(WorldInput::RemoveBall)),
        (Key::Char('r'), Action::World(WorldInput::Reverse)),
    ];
    for (key, action) in cases {
        assert_eq!(Action::for_key(key), Some(action), "{key:?}");
    }
    assert_eq!(Action::for_key(Key::Char('z')), None);
}

#[test]
fn speed_runs_from_a_quarter_to_four_times_and_stops_there() {
    let mut settings = Settings::default();
    assert_eq!(settings.speed(), Speed::NORMAL);
    while settings.slower() {}
    assert_eq!(settings.speed(), Speed::new(1, 4).unwrap());
    assert_eq!(settings.speed_label(), "0.25x");
    while settings.faster() {}
    assert_eq!(settings.speed(), Speed::new(4, 1).unwrap());
    assert_eq!(settings.speed_label(), "4x");
}

#[test]
fn pacing_cycles_from_the_default_locked_through_off_centred_snapped_and_back() {
    let mut settings = Settings::default();
    assert_eq!(settings.pacing(), Pacing::LOCKED);
    assert_eq!(settings.pacing_label(), "locked");
    settings.cycle_pacing();
    assert_eq!(settings.pacing(), Pacing::OFF);
    settings.cycle_pacing();
    assert_eq!(settings.pacing_label(), "centred");
    settings.cycle_pacing();
    assert_eq!(settings.pacing_label(), "snapped");
    settings.cycle_pacing();
    assert_eq!(settings.pacing(), Pacing::LOCKED);
}

#[test]
fn pause_single_step_and_speed_reach_the_loop() {
    let clock = ManualClock::new();
    let mut game_loop = common::demo_loop(&clock);
    let mut bounce = Bounce::new();

    assert_eq!(
        bounce.act(Action::TogglePause, &mut game_loop),
        Outcome::Handled
    );
    clock.advance(Duration::from_secs(1));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert!(game_loop.is_paused());
    assert_eq!(bounce.world.steps(), 0);

    bounce.act(Action::StepOnce, &mut game_loop);
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.world.steps(), 1);

    bounce.act(Action::Faster, &mut game_loop);
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint); // control takes effect at a pump
    assert_eq!(game_loop.speed(), Speed::new(2, 1).unwrap());
    assert_eq!(
        bounce.act(Action::HideBriefly, &mut game_loop),
        Outcome::HideBriefly
    );
    assert_eq!(bounce.act(Action::Quit, &mut game_loop), Outcome::Quit);
    assert!(
        bounce
            .title(&game_loop)
            .contains("speed 2x, pacing locked, paused")
    );
}

#[test]
fn a_held_key_repeats_steps_speed_and_balls_but_not_toggles() {
    let repeating = [
        Action::StepOnce,
        Action::Faster,
        Action::Slower,
        Action::World(WorldInput::AddBall),
        Action::World(WorldInput::RemoveBall),
    ];
    let once = [
        Action::ToggleInterpolation,
        Action::TogglePause,
        Action::CyclePacing,
        Action::HideBriefly,
        Action::Quit,
        Action::World(WorldInput::Reverse),
    ];
    assert!(repeating.iter().all(|action| action.repeats()));
    assert!(once.iter().all(|action| !action.repeats()));
}

#[test]
fn a_world_action_through_act_changes_nothing_and_its_key_in_the_queue_does() {
    let clock = ManualClock::new();
    let mut game_loop = common::demo_loop(&clock);
    let mut bounce = Bounce::new();

    let add = Action::World(WorldInput::AddBall);
    assert_eq!(bounce.act(add, &mut game_loop), Outcome::Handled);
    clock.advance(Duration::from_millis(50));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.world.balls().len(), 4);

    common::tap(&mut game_loop, WorldInput::AddBall);
    clock.advance(Duration::from_millis(50));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.world.balls().len(), 5);
}

#[test]
fn a_world_key_pressed_while_paused_is_the_pause_s_and_adds_no_ball() {
    let clock = ManualClock::new();
    let mut game_loop = common::demo_loop(&clock);
    let mut bounce = Bounce::new();
    bounce.act(Action::TogglePause, &mut game_loop);
    clock.advance(Duration::from_millis(50));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert!(game_loop.is_paused());

    // The paused pump hands N to the paused-input hooks; the single step
    // and the steps after the resume see it only as a key let go.
    common::tap(&mut game_loop, WorldInput::AddBall);
    clock.advance(Duration::from_millis(50));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    bounce.act(Action::StepOnce, &mut game_loop);
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert_eq!(bounce.world.steps(), 1);
    bounce.act(Action::TogglePause, &mut game_loop);
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint); // resumes, no burst
    clock.advance(Duration::from_millis(100));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert!(!game_loop.is_paused());
    assert_eq!(bounce.world.steps(), 3);
    assert_eq!(bounce.world.balls().len(), 4);
}

#[test]
fn two_pause_presses_before_a_pump_cancel_out_and_three_pause() {
    let clock = ManualClock::new();
    let mut game_loop = common::demo_loop(&clock);
    let mut bounce = Bounce::new();

    // The loop applies pause and resume at its next pump, so its
    // `is_paused` has not changed between these presses.
    bounce.act(Action::TogglePause, &mut game_loop);
    bounce.act(Action::TogglePause, &mut game_loop);
    clock.advance(Duration::from_millis(100));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert!(!game_loop.is_paused());
    assert_eq!(bounce.world.steps(), 2);

    for _ in 0..3 {
        bounce.act(Action::TogglePause, &mut game_loop);
    }
    clock.advance(Duration::from_millis(100));
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert!(game_loop.is_paused());
    assert_eq!(bounce.world.steps(), 2);

    // One more press resumes.
    bounce.act(Action::TogglePause, &mut game_loop);
    let _ = game_loop.pump(&mut bounce, PumpKind::Paint);
    assert!(!game_loop.is_paused());
}

#[test]
fn settings_name_an_entry_of_the_speed_and_pacing_tables_whatever_the_keys_do() {
    let mut settings = Settings::default();
    assert_eq!(settings.speed_index(), 2);
    assert_eq!(SPEEDS[settings.speed_index()], (1, 1));
    for _ in 0..10 {
        settings.faster();
        assert!(settings.speed_index() < SPEEDS.len());
        settings.cycle_pacing();
        assert!(settings.pacing_index() < PACING_MODES.len());
        assert_eq!(
            settings.pacing_label(),
            PACING_MODES[settings.pacing_index()]
        );
    }
    let (numerator, denominator) = SPEEDS[settings.speed_index()];
    assert_eq!(
        settings.speed(),
        Speed::new(numerator, denominator).unwrap()
    );
}

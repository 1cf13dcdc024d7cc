//! Contract (the `input` feature): `StepButtons` gives `FixedUpdate` each
//! press of a frame exactly once, as `pressed` in the first fixed step
//! that runs after it, with `held` and `released` per step; across frames
//! of 0, 1, 2 and 3 steps and a pause. Bevy's `ButtonInput::just_pressed`,
//! read in the same steps, misses the presses of frames without a step and
//! doubles those of frames with two (bevyengine/bevy#6183).
#![cfg(feature = "input")]
#![allow(
    clippy::needless_pass_by_value,
    reason = "Bevy systems take their parameters by value"
)]

use core::time::Duration;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use bevy_ecs::system::{Res, ResMut};
use bevy_input::keyboard::{Key, KeyCode, KeyboardFocusLost, KeyboardInput};
use bevy_input::mouse::{MouseButton, MouseButtonInput};
use bevy_input::{ButtonInput, ButtonState, InputPlugin};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy, Virtual};
use evenstep_bevy::{EvenstepPlugin, EvenstepSettings, Pacing, StepButtons, StepInputPlugin};

/// What each fixed step saw of the space bar, as letters: `StepButtons`'
/// `h`eld, `p`ressed and `r`eleased, and `ButtonInput`'s `j`ust pressed.
#[derive(Resource, Default)]
struct Steps(Vec<String>);

fn see(keys: Res<StepButtons<KeyCode>>, bevy: Res<ButtonInput<KeyCode>>, mut steps: ResMut<Steps>) {
    let flags = [
        ('h', keys.held(KeyCode::Space)),
        ('p', keys.pressed(KeyCode::Space)),
        ('r', keys.released(KeyCode::Space)),
        ('j', bevy.just_pressed(KeyCode::Space)),
    ];
    let seen = flags.iter().filter(|flag| flag.1).map(|flag| flag.0);
    steps.0.push(seen.collect());
}

/// A 50 Hz app (20 ms steps) on the plugin, pacing off, with Bevy's
/// `InputPlugin` and the step buttons.
fn app() -> App {
    let settings = EvenstepSettings {
        pacing: Pacing::OFF,
        ..EvenstepSettings::default()
    };
    let mut app = App::new();
    app.add_plugins((TimePlugin, InputPlugin))
        .insert_resource(Time::<Fixed>::from_hz(50.0))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO))
        .insert_resource(settings)
        .add_plugins((EvenstepPlugin, StepInputPlugin))
        .init_resource::<Steps>()
        .add_systems(FixedUpdate, see);
    app.finish();
    app.cleanup();
    app
}

fn key(state: ButtonState) -> KeyboardInput {
    KeyboardInput {
        key_code: KeyCode::Space,
        logical_key: Key::Space,
        state,
        text: None,
        repeat: false,
        window: Entity::PLACEHOLDER,
    }
}

const DOWN: ButtonState = ButtonState::Pressed;
const UP: ButtonState = ButtonState::Released;

/// Writes `states` as the window's runner does between updates, then runs
/// a frame of `millis`; returns what its steps saw.
fn frame(app: &mut App, millis: u64, states: &[ButtonState]) -> Vec<String> {
    for &state in states {
        app.world_mut().write_message(key(state));
    }
    let before = app.world().resource::<Steps>().0.len();
    let delta = Duration::from_millis(millis);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(delta));
    app.update();
    app.world().resource::<Steps>().0[before..].to_vec()
}

fn steps(flags: &[&str]) -> Vec<String> {
    flags.iter().map(ToString::to_string).collect()
}

/// Presses in frames of 0, 1, 2 and 3 steps: five presses in all.
fn script(app: &mut App) -> Vec<Vec<String>> {
    vec![
        frame(app, 0, &[DOWN]),      // 0 steps: the first frame
        frame(app, 20, &[UP]),       // 1
        frame(app, 10, &[DOWN]),     // 0
        frame(app, 10, &[UP]),       // 1
        frame(app, 40, &[DOWN]),     // 2
        frame(app, 60, &[UP]),       // 3
        frame(app, 20, &[DOWN, UP]), // 1: a tap within the frame
        frame(app, 60, &[DOWN]),     // 3
        frame(app, 20, &[]),         // 1
    ]
}

#[test]
fn each_press_is_pressed_in_exactly_one_step_the_first_after_its_frame() {
    let trace = script(&mut app());
    assert_eq!(
        trace,
        [
            vec![],
            // The first frame's press and this frame's release: one step.
            steps(&["pr"]),
            vec![],
            steps(&["pr"]),
            steps(&["hpj", "hj"]),
            steps(&["r", "", ""]),
            steps(&["prj"]),
            steps(&["hpj", "hj", "hj"]),
            steps(&["h"]),
        ]
    );
    let all = trace.concat();
    let pressed = all.iter().filter(|step| step.contains('p')).count();
    let released = all.iter().filter(|step| step.contains('r')).count();
    assert_eq!((pressed, released), (5, 4));
}

#[test]
fn bevys_just_pressed_misses_two_presses_and_counts_two_more_than_once() {
    let trace = script(&mut app());
    // Per frame, the steps in which `ButtonInput` said just pressed.
    let per_frame: Vec<usize> = trace
        .iter()
        .map(|frame| frame.iter().filter(|step| step.contains('j')).count())
        .collect();
    // Frames 0 and 2 pressed and ran no step: missed. Frames 4 and 7 ran
    // two and three: doubled, tripled. Six in all for five presses.
    assert_eq!(per_frame, [0, 0, 0, 0, 2, 0, 1, 3, 0]);
    assert_eq!(per_frame.iter().sum::<usize>(), 6);
}

#[test]
fn a_press_during_a_pause_is_pressed_in_the_first_step_after_it() {
    let mut app = app();
    frame(&mut app, 0, &[]);
    assert_eq!(frame(&mut app, 20, &[]), steps(&[""]));
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    assert_eq!(frame(&mut app, 20, &[DOWN]), steps(&[]));
    assert_eq!(frame(&mut app, 20, &[]), steps(&[]));
    app.world_mut().resource_mut::<Time<Virtual>>().unpause();
    // The frame after the pause plans a zero delta: still no step.
    assert_eq!(frame(&mut app, 20, &[]), steps(&[]));
    assert_eq!(frame(&mut app, 20, &[]), steps(&["hp"]));
    assert_eq!(frame(&mut app, 20, &[]), steps(&["h"]));
}

#[test]
fn a_lost_focus_releases_the_held_keys_in_its_step() {
    let mut app = app();
    frame(&mut app, 0, &[]);
    assert_eq!(frame(&mut app, 20, &[DOWN]), steps(&["hpj"]));
    app.world_mut().write_message(KeyboardFocusLost);
    assert_eq!(frame(&mut app, 20, &[]), steps(&["r"]));
}

#[test]
fn mouse_buttons_are_stepped_as_keys_are() {
    let mut app = app();
    let click = |state| MouseButtonInput {
        button: MouseButton::Left,
        state,
        window: Entity::PLACEHOLDER,
    };
    frame(&mut app, 0, &[]);
    app.world_mut().write_message(click(DOWN));
    frame(&mut app, 40, &[]);
    let buttons = app.world().resource::<StepButtons<MouseButton>>();
    // The second of the frame's two steps: held, the press gone.
    assert!(buttons.held(MouseButton::Left));
    assert!(!buttons.pressed(MouseButton::Left));
    assert_eq!(
        buttons.held_buttons().copied().collect::<Vec<_>>(),
        [MouseButton::Left]
    );
    app.world_mut().write_message(click(UP));
    frame(&mut app, 20, &[]);
    let buttons = app.world().resource::<StepButtons<MouseButton>>();
    assert!(buttons.released(MouseButton::Left));
    assert_eq!(buttons.held_buttons().len(), 0);
}

#[test]
fn a_release_without_a_press_is_not_released() {
    // A key held down as the window gained focus: Bevy sees its release
    // only.
    let mut app = app();
    frame(&mut app, 0, &[]);
    assert_eq!(frame(&mut app, 20, &[UP]), steps(&[""]));
}

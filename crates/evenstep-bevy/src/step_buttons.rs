//! Buttons per fixed step (the `input` feature): Bevy's keyboard and mouse
//! button messages folded, at the start of each step, into what was held,
//! pressed and released in that step, as evenstep's `StepInput` has them.

use core::hash::Hash;

use bevy_app::{App, FixedFirst, Plugin};
use bevy_ecs::message::MessageReader;
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::{IntoScheduleConfigs, SystemSet};
use bevy_ecs::system::ResMut;
use bevy_input::ButtonInput;
use bevy_input::ButtonState;
use bevy_input::keyboard::{KeyCode, KeyboardFocusLost, KeyboardInput};
use bevy_input::mouse::{MouseButton, MouseButtonInput};

/// The buttons of type `T` (a [`KeyCode`], a [`MouseButton`]) as the
/// current fixed step sees them: held at its end, pressed and released
/// during it.
///
/// Read it in `FixedUpdate` in place of `ButtonInput<T>`, which is updated
/// once a frame: its `just_pressed` is true in every step of a frame that
/// runs two and in none of a frame that runs none (bevyengine/bevy#6183).
/// Here each press is [`pressed`](StepButtons::pressed) in exactly one
/// step: the first that runs after the frame it arrived in.
///
/// **The granularity is the frame.** Bevy's input messages carry no
/// timestamp, so a press cannot be placed by time within its frame: all of
/// a frame's presses and releases land in the frame's first step (or, in a
/// frame without one, the first step of the next frame that runs one),
/// wherever in the frame they happened. A press and release in one frame
/// is `pressed` and `released` in that step and never
/// [`held`](StepButtons::held). evenstep's own `Loop` places input by time.
///
/// # Examples
///
/// ```
/// use bevy_ecs::system::Res;
/// use bevy_input::keyboard::KeyCode;
/// use evenstep_bevy::StepButtons;
///
/// // In `FixedUpdate`.
/// fn jump(keys: Res<StepButtons<KeyCode>>) {
///     if keys.pressed(KeyCode::Space) {
///         // Once per press, whatever the steps of its frame.
///     }
/// }
/// # let _ = jump;
/// ```
#[derive(Resource, Debug, Clone)]
pub struct StepButtons<T: Clone + Eq + Hash + Send + Sync + 'static> {
    buttons: ButtonInput<T>,
}

impl<T: Clone + Eq + Hash + Send + Sync + 'static> Default for StepButtons<T> {
    fn default() -> StepButtons<T> {
        StepButtons {
            buttons: ButtonInput::default(),
        }
    }
}

impl<T: Clone + Eq + Hash + Send + Sync + 'static> StepButtons<T> {
    /// Whether `button` is down at the end of the step (Bevy's
    /// `ButtonInput::pressed`).
    pub fn held(&self, button: T) -> bool {
        self.buttons.pressed(button)
    }

    /// Whether `button` went down during the step (Bevy's
    /// `ButtonInput::just_pressed`): in exactly one step per press; true
    /// too for a press and release in one frame, when `held` is false.
    pub fn pressed(&self, button: T) -> bool {
        self.buttons.just_pressed(button)
    }

    /// Whether `button` came up during the step (Bevy's
    /// `ButtonInput::just_released`), a focus loss included.
    pub fn released(&self, button: T) -> bool {
        self.buttons.just_released(button)
    }

    /// Every button down at the end of the step.
    pub fn held_buttons(&self) -> impl ExactSizeIterator<Item = &T> {
        self.buttons.get_pressed()
    }

    /// Every button that went down during the step.
    pub fn pressed_buttons(&self) -> impl ExactSizeIterator<Item = &T> {
        self.buttons.get_just_pressed()
    }

    /// Every button that came up during the step.
    pub fn released_buttons(&self) -> impl ExactSizeIterator<Item = &T> {
        self.buttons.get_just_released()
    }

    /// Starts a step: forgets the last step's presses and releases, keeps
    /// what is held. [`StepInputPlugin`]'s systems call it; a source of
    /// buttons of its own (a gamepad, a network peer) calls it at the start
    /// of each step, then [`apply`](StepButtons::apply)s its messages.
    pub fn begin_step(&mut self) {
        self.buttons.clear();
    }

    /// Takes one message's change of `button` into this step.
    pub fn apply(&mut self, button: T, state: ButtonState) {
        match state {
            ButtonState::Pressed => self.buttons.press(button),
            ButtonState::Released => self.buttons.release(button),
        }
    }

    /// Releases every held button in this step (a lost focus).
    pub fn release_all(&mut self) {
        self.buttons.release_all();
    }
}

/// Where [`StepInputPlugin`] updates the [`StepButtons`]: in `FixedFirst`,
/// so that every `FixedUpdate` system of the step reads them updated.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StepInputSystems;

/// Adds [`StepButtons<KeyCode>`](StepButtons) and
/// [`StepButtons<MouseButton>`](StepButtons), updated at the start of
/// every fixed step from Bevy's `KeyboardInput`, `KeyboardFocusLost` and
/// `MouseButtonInput` messages, in [`StepInputSystems`].
///
/// Each message is read once, by the first fixed step that runs after it
/// was written: `TimePlugin` keeps messages until a fixed step has run, and
/// [`EvenstepPlugin`](crate::EvenstepPlugin) runs the whole of `FixedMain`
/// for each step. Add it with Bevy's `InputPlugin` (or `DefaultPlugins`);
/// it registers the messages itself if they are not, for an app that
/// writes them on its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepInputPlugin;

impl Plugin for StepInputPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<KeyboardInput>()
            .add_message::<KeyboardFocusLost>()
            .add_message::<MouseButtonInput>()
            .init_resource::<StepButtons<KeyCode>>()
            .init_resource::<StepButtons<MouseButton>>()
            .add_systems(
                FixedFirst,
                (step_keys, step_mouse_buttons).in_set(StepInputSystems),
            );
    }
}

/// Folds the keyboard messages since the last step into this one.
fn step_keys(
    mut keys: ResMut<StepButtons<KeyCode>>,
    mut messages: MessageReader<KeyboardInput>,
    mut focus_lost: MessageReader<KeyboardFocusLost>,
) {
    keys.begin_step();
    for message in messages.read() {
        keys.apply(message.key_code, message.state);
    }
    // As Bevy's `keyboard_input_system`: no key stays stuck down when the
    // window loses the keyboard.
    if focus_lost.read().count() > 0 {
        keys.release_all();
    }
}

/// Folds the mouse button messages since the last step into this one.
fn step_mouse_buttons(
    mut buttons: ResMut<StepButtons<MouseButton>>,
    mut messages: MessageReader<MouseButtonInput>,
) {
    buttons.begin_step();
    for message in messages.read() {
        buttons.apply(message.button, message.state);
    }
}

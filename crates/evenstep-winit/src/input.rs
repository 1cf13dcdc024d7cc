//! What a winit event means as loop input: the [`InputEvent`]s the driver
//! pushes into the loop's queue for each window or device event (see the
//! crate doc's "Input" section for the list, the units and the stamps).

use std::fmt::{self, Write as _};

use evenstep::input::{Button, InputEvent, Key, MouseButton};
use winit::event::{DeviceEvent, ElementState, Ime, MouseScrollDelta, WindowEvent};
use winit::keyboard::{KeyCode, PhysicalKey};

/// The key codes winit names otherwise than the W3C: the OS keys (Windows,
/// Command), which winit calls Super and `KeyboardEvent.code` Meta. Every
/// other variant's name is its W3C `code` value (winit's own browser
/// backend maps `code` strings to variants of the same name but these).
const RENAMED: [(KeyCode, &str); 2] = [
    (KeyCode::SuperLeft, "MetaLeft"),
    (KeyCode::SuperRight, "MetaRight"),
];

/// The evenstep key of a physical key: its W3C `KeyboardEvent.code` name.
/// `None` for a key winit could not identify (`PhysicalKey::Unidentified`,
/// whose native code means nothing on another platform).
pub(crate) fn key(physical: PhysicalKey) -> Option<Key> {
    let PhysicalKey::Code(code) = physical else {
        return None;
    };
    if let Some((_, name)) = RENAMED.iter().find(|(renamed, _)| *renamed == code) {
        return Key::named(name).ok();
    }
    // The variant's name, through its derived Debug, into a fixed buffer:
    // no allocation per key.
    let mut name = Name::default();
    write!(name, "{code:?}").ok()?;
    Key::named(name.as_str()).ok()
}

/// The evenstep mouse button of a winit one, numbered as the DOM numbers
/// them; `Other(n)` is button `n` if it fits a `u8`.
pub(crate) fn mouse_button(button: winit::event::MouseButton) -> Option<MouseButton> {
    use winit::event::MouseButton as Winit;
    match button {
        Winit::Left => Some(MouseButton::LEFT),
        Winit::Middle => Some(MouseButton::MIDDLE),
        Winit::Right => Some(MouseButton::RIGHT),
        Winit::Back => Some(MouseButton::BACK),
        Winit::Forward => Some(MouseButton::FORWARD),
        Winit::Other(n) => u8::try_from(n).ok().map(MouseButton),
    }
}

/// One keyboard event as winit reports it, less what a test cannot build
/// (`KeyEvent` has a private field).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keystroke<'a> {
    pub(crate) physical: PhysicalKey,
    pub(crate) state: ElementState,
    /// The platform's auto-repeat of a held key.
    pub(crate) repeat: bool,
    /// Made up by winit for a key already down when the window gained the
    /// focus, or still down when it lost it.
    pub(crate) synthetic: bool,
    /// What the press typed.
    pub(crate) text: Option<&'a str>,
}

/// The input of `stroke`: a press (a repeat if it is one) or a release of
/// its key, then the text a press typed. A synthetic press is left out: the
/// key went down outside the window (the Enter that launched the game from
/// a terminal must not press Enter in it).
pub(crate) fn keystroke(stroke: Keystroke<'_>, emit: &mut impl FnMut(InputEvent)) {
    let pressed = stroke.state == ElementState::Pressed;
    if pressed && stroke.synthetic {
        return;
    }
    if let Some(key) = key(stroke.physical) {
        let button = Button::Key(key);
        emit(match (pressed, stroke.repeat) {
            (true, true) => InputEvent::Repeat(button),
            (true, false) => InputEvent::Press(button),
            (false, _) => InputEvent::Release(button),
        });
    }
    if pressed && let Some(text) = stroke.text.and_then(typed) {
        emit(InputEvent::Text(text));
    }
}

/// `text` less its control characters (winit gives Enter `"\r"`, Tab
/// `"\t"`, Backspace and Escape theirs: those are keys, read as keys), or
/// `None` if nothing is left.
fn typed(text: &str) -> Option<String> {
    let typed: String = text.chars().filter(|c| !c.is_control()).collect();
    (!typed.is_empty()).then_some(typed)
}

/// Passes the input a window event means to `emit`, in order: nothing for
/// an event that is not input.
pub(crate) fn window_input(event: &WindowEvent, emit: &mut impl FnMut(InputEvent)) {
    match event {
        WindowEvent::KeyboardInput {
            event,
            is_synthetic,
            ..
        } => keystroke(
            Keystroke {
                physical: event.physical_key,
                state: event.state,
                repeat: event.repeat,
                synthetic: *is_synthetic,
                text: event.text.as_deref(),
            },
            emit,
        ),
        WindowEvent::Ime(Ime::Commit(text)) => {
            if let Some(text) = typed(text) {
                emit(InputEvent::Text(text));
            }
        }
        WindowEvent::MouseInput { state, button, .. } => {
            if let Some(button) = mouse_button(*button) {
                let button = Button::Mouse(button);
                emit(match state {
                    ElementState::Pressed => InputEvent::Press(button),
                    ElementState::Released => InputEvent::Release(button),
                });
            }
        }
        WindowEvent::CursorMoved { position, .. } => emit(InputEvent::Pointer {
            x: position.x,
            y: position.y,
        }),
        WindowEvent::MouseWheel { delta, .. } => emit(wheel(*delta)),
        WindowEvent::Focused(false) => emit(InputEvent::FocusLost),
        _ => {}
    }
}

/// A wheel turn in evenstep's directions (rightwards and towards the user
/// positive, as the DOM's `deltaX`/`deltaY`; winit's are the other way):
/// lines for a notched wheel, physical pixels for a touchpad, unscaled.
fn wheel(delta: MouseScrollDelta) -> InputEvent {
    let (x, y) = match delta {
        MouseScrollDelta::LineDelta(x, y) => (f64::from(x), f64::from(y)),
        MouseScrollDelta::PixelDelta(position) => (position.x, position.y),
    };
    InputEvent::Wheel { dx: -x, dy: -y }
}

/// The input a device event means: raw mouse motion, in the device's
/// units; `None` for the rest.
pub(crate) fn device_input(event: &DeviceEvent) -> Option<InputEvent> {
    match *event {
        DeviceEvent::MouseMotion { delta: (dx, dy) } => Some(InputEvent::Motion { dx, dy }),
        _ => None,
    }
}

/// A key name being written: at most [`Key::MAX_LEN`] bytes.
#[derive(Default)]
struct Name {
    len: usize,
    bytes: [u8; Key::MAX_LEN],
}

impl Name {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl fmt::Write for Name {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let room = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        room.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests;

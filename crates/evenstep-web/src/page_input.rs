//! Page input: the DOM events a page forwards, as the plain values the
//! page read from them ([`PageInput`]), turned into the loop's
//! [`InputEvent`]s. Which DOM event gives which value, and in which units,
//! is decided here and nowhere else; the browser glue only reads fields.
//!
//! - `keydown` / `keyup`: `code` is the [`Key`] (a W3C `KeyboardEvent.code`
//!   name, the key's place on the keyboard), `repeat` makes a keydown an
//!   [`InputEvent::Repeat`]. A keydown whose `key` is a key string (what
//!   the key types, not a named key value such as `"Enter"` or `"Shift"`)
//!   is also [`InputEvent::Text`], after the press, unless Control or Meta
//!   is held without Alt Graph (a shortcut types nothing) or an input
//!   method is composing.
//! - `compositionend`: the text an input method composed, as one
//!   [`InputEvent::Text`]. The keydowns that composed it type nothing
//!   (`isComposing`), so each character arrives once.
//! - `mousedown` / `mouseup`: [`InputEvent::Pointer`] where it happened,
//!   then the press or release of [`MouseButton`]`(button)`, numbered as
//!   `MouseEvent.button` numbers them.
//! - `mousemove`: [`InputEvent::Pointer`], then [`InputEvent::Motion`]
//!   from `movementX` / `movementY` when either is not zero.
//! - `wheel`: [`InputEvent::Wheel`] in CSS pixels, whatever `deltaMode`
//!   says: a line is [`WHEEL_LINE_PIXELS`], a page the viewport's size.
//! - `blur`: [`InputEvent::FocusLost`].

use std::fmt;

use evenstep::input::{InputError, InputEvent, Key, KeyError, MouseButton};

/// The CSS pixels a wheel line is taken for, when a browser reports the
/// wheel in lines (`deltaMode` 1, as Firefox does for a mouse wheel): 40,
/// the line Chromium scrolls by, so a notch of three lines reads about as
/// far as Chromium's own pixel deltas do.
pub const WHEEL_LINE_PIXELS: f64 = 40.0;

/// A DOM input event, as the page read it: the fields the loop's events
/// are made of, nothing of the browser. The browser glue fills it; a page
/// that forwards input its own way (see
/// [`PageOptions::forward_input`](crate::PageOptions::forward_input)) can
/// fill it too and turn it into events with
/// [`into_events`](PageInput::into_events).
///
/// Positions and motion are CSS pixels.
#[derive(Clone, Debug, PartialEq)]
pub enum PageInput {
    /// `keydown`.
    KeyDown(KeyDown),
    /// `keyup`, with its `code`.
    KeyUp {
        /// `KeyboardEvent.code`.
        code: String,
    },
    /// `compositionend`: an input method finished composing `data`.
    CompositionEnd {
        /// `CompositionEvent.data`.
        data: String,
    },
    /// `mousedown`.
    MouseDown {
        /// `MouseEvent.button`.
        button: i16,
        /// Where, from the left.
        x: f64,
        /// Where, from the top.
        y: f64,
    },
    /// `mouseup`.
    MouseUp {
        /// `MouseEvent.button`.
        button: i16,
        /// Where, from the left.
        x: f64,
        /// Where, from the top.
        y: f64,
    },
    /// `mousemove`.
    MouseMove {
        /// Where, from the left.
        x: f64,
        /// Where, from the top.
        y: f64,
        /// `MouseEvent.movementX`: rightwards since the previous move.
        dx: f64,
        /// `MouseEvent.movementY`: downwards since the previous move.
        dy: f64,
    },
    /// `wheel`.
    Wheel {
        /// `WheelEvent.deltaX`, in the unit `mode` says.
        dx: f64,
        /// `WheelEvent.deltaY`, in the unit `mode` says.
        dy: f64,
        /// `WheelEvent.deltaMode`: 0 pixels, 1 lines, 2 pages.
        mode: u32,
        /// A page's width in CSS pixels, for `mode` 2: the viewport's.
        page_width: f64,
        /// A page's height in CSS pixels, for `mode` 2: the viewport's.
        page_height: f64,
    },
    /// `blur` of the window: the page lost the keyboard focus.
    Blur,
}

/// The fields of a `keydown` that matter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyDown {
    /// `KeyboardEvent.code`: which key, by its place.
    pub code: String,
    /// `KeyboardEvent.key`: what it types (`"a"`, `"é"`, `" "`), or a
    /// named key value (`"Enter"`, `"ArrowLeft"`, `"Dead"`).
    pub key: String,
    /// `KeyboardEvent.repeat`: the platform's auto-repeat of a held key.
    pub repeat: bool,
    /// `KeyboardEvent.isComposing`: an input method is composing; what it
    /// composes comes with `compositionend`.
    pub composing: bool,
    /// Control or Meta held without Alt Graph: a shortcut, which types
    /// nothing. (Alt Graph is Control and Alt together on some platforms,
    /// and types.)
    pub shortcut: bool,
}

impl PageInput {
    /// The loop's events for this DOM event, in the order they are pushed:
    /// none (a composition that ended empty), one, or two (a position then
    /// a button or a motion; a press or repeat then its text).
    ///
    /// # Errors
    ///
    /// [`InputRefusal::Key`] for a key event whose `code` is not a key name
    /// (empty: a script's synthetic event, some virtual keyboards);
    /// [`InputRefusal::Button`] for a button outside 0 to 255;
    /// [`InputRefusal::WheelMode`] for a `deltaMode` other than 0, 1 or 2.
    /// Nothing of the event is forwarded then, its text included.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep::input::{InputEvent, Key};
    /// use evenstep_web::{KeyDown, PageInput};
    ///
    /// let down = PageInput::KeyDown(KeyDown {
    ///     code: "KeyQ".to_owned(),
    ///     key: "a".to_owned(), // an AZERTY layout
    ///     repeat: false,
    ///     composing: false,
    ///     shortcut: false,
    /// });
    /// let events: Vec<InputEvent> = down.into_events()?.collect();
    /// assert_eq!(
    ///     events,
    ///     [InputEvent::Press(Key::named("KeyQ")?.into()), InputEvent::Text("a".to_owned())]
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_events(self) -> Result<impl Iterator<Item = InputEvent>, InputRefusal> {
        let (first, second) = match self {
            PageInput::KeyDown(down) => {
                let key = key(&down.code)?.into();
                let text = typed_text(&down.key, down.composing, down.shortcut);
                let press = if down.repeat {
                    InputEvent::Repeat(key)
                } else {
                    InputEvent::Press(key)
                };
                (Some(press), text.map(InputEvent::Text))
            }
            PageInput::KeyUp { code } => (Some(InputEvent::Release(key(&code)?.into())), None),
            PageInput::CompositionEnd { data } => {
                (None, (!data.is_empty()).then_some(InputEvent::Text(data)))
            }
            PageInput::MouseDown { button: b, x, y } => (
                Some(InputEvent::Pointer { x, y }),
                Some(InputEvent::Press(button(b)?.into())),
            ),
            PageInput::MouseUp { button: b, x, y } => (
                Some(InputEvent::Pointer { x, y }),
                Some(InputEvent::Release(button(b)?.into())),
            ),
            PageInput::MouseMove { x, y, dx, dy } => (
                Some(InputEvent::Pointer { x, y }),
                (dx != 0.0 || dy != 0.0).then_some(InputEvent::Motion { dx, dy }),
            ),
            PageInput::Wheel {
                dx,
                dy,
                mode,
                page_width,
                page_height,
            } => {
                let (dx, dy) = wheel_pixels(dx, dy, mode, (page_width, page_height))?;
                (Some(InputEvent::Wheel { dx, dy }), None)
            }
            PageInput::Blur => (Some(InputEvent::FocusLost), None),
        };
        Ok(first.into_iter().chain(second))
    }
}

/// The key a `KeyboardEvent.code` names.
fn key(code: &str) -> Result<Key, InputRefusal> {
    Key::named(code).map_err(InputRefusal::Key)
}

/// The mouse button `MouseEvent.button` numbers.
fn button(button: i16) -> Result<MouseButton, InputRefusal> {
    u8::try_from(button)
        .map(MouseButton)
        .map_err(|_| InputRefusal::Button(button))
}

/// What a keydown types: its `key`, if that is a key string, no input
/// method is composing and no shortcut modifier is held.
fn typed_text(key: &str, composing: bool, shortcut: bool) -> Option<String> {
    (!composing && !shortcut && is_key_string(key)).then(|| key.to_owned())
}

/// Whether a `KeyboardEvent.key` is a key string (what the key types)
/// rather than a named key value. Every named value (`"Enter"`, `"F1"`,
/// `"Dead"`, `"Unidentified"`) is two or more ASCII letters and digits; a
/// key string is anything else without control characters.
fn is_key_string(key: &str) -> bool {
    let named = key.len() > 1 && key.bytes().all(|b| b.is_ascii_alphanumeric());
    !key.is_empty() && !named && !key.chars().any(char::is_control)
}

/// A wheel delta in CSS pixels, from the unit `deltaMode` says.
fn wheel_pixels(dx: f64, dy: f64, mode: u32, page: (f64, f64)) -> Result<(f64, f64), InputRefusal> {
    match mode {
        0 => Ok((dx, dy)),
        1 => Ok((dx * WHEEL_LINE_PIXELS, dy * WHEEL_LINE_PIXELS)),
        2 => Ok((dx * page.0, dy * page.1)),
        _ => Err(InputRefusal::WheelMode(mode)),
    }
}

/// Why a DOM input event did not reach the loop's queue. Each is counted
/// in [`InputStats`], the latest kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputRefusal {
    /// A key event's `code` is not a key name ([`Key::named`]).
    Key(KeyError),
    /// A mouse button numbered outside 0 to 255.
    Button(i16),
    /// A wheel `deltaMode` other than 0 (pixels), 1 (lines) or 2 (pages).
    WheelMode(u32),
    /// The loop refused the event ([`Loop::push_input`](evenstep::Loop::push_input)).
    Loop(InputError),
}

impl fmt::Display for InputRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputRefusal::Key(error) => write!(f, "a key event's code was refused: {error}"),
            InputRefusal::Button(button) => write!(
                f,
                "a mouse button numbered {button}; buttons are numbered 0 to 255"
            ),
            InputRefusal::WheelMode(mode) => write!(
                f,
                "a wheel deltaMode of {mode}; it is 0 (pixels), 1 (lines) or 2 (pages)"
            ),
            InputRefusal::Loop(error) => write!(f, "the loop refused an input event: {error}"),
        }
    }
}

impl std::error::Error for InputRefusal {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputRefusal::Key(error) => Some(error),
            InputRefusal::Loop(error) => Some(error),
            InputRefusal::Button(_) | InputRefusal::WheelMode(_) => None,
        }
    }
}

/// What became of the page's input: counts for tests, overlays and
/// diagnosis, part of [`PageStats`](crate::PageStats).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputStats {
    /// The loop's events pushed into its queue (a DOM event may make two).
    pub forwarded: u64,
    /// DOM events refused, wholly or in part: a value no event holds, or
    /// the loop's refusal.
    pub refused: u64,
    /// Why the latest refused DOM event was refused.
    pub last_refusal: Option<InputRefusal>,
    /// DOM events whose `timeStamp` was later than the page's clock when
    /// they were handled, which no event can be (it was made before its
    /// handler ran): taken at the clock's reading. Counts a browser whose
    /// `timeStamp` is not on `performance.now()`'s time origin.
    pub stamps_after_now: u64,
}

#[cfg(test)]
mod tests {
    use evenstep::input::Button;

    use super::*;

    fn events(input: PageInput) -> Result<Vec<InputEvent>, InputRefusal> {
        input.into_events().map(Iterator::collect)
    }

    fn key_down(code: &str, key: &str) -> KeyDown {
        KeyDown {
            code: code.to_owned(),
            key: key.to_owned(),
            repeat: false,
            composing: false,
            shortcut: false,
        }
    }

    fn press(code: &str) -> InputEvent {
        InputEvent::Press(Button::Key(Key::named(code).unwrap()))
    }

    #[test]
    fn a_code_is_the_key_whatever_the_layout_types() {
        let typed = events(PageInput::KeyDown(key_down("KeyQ", "a")));
        assert_eq!(typed, Ok(vec![press("KeyQ"), InputEvent::Text("a".into())]));
        let named = events(PageInput::KeyDown(key_down(
            "NumpadMemorySubtract",
            "Unidentified",
        )));
        assert_eq!(named, Ok(vec![press("NumpadMemorySubtract")]));
        let up = events(PageInput::KeyUp {
            code: "ArrowLeft".into(),
        });
        assert_eq!(up, Ok(vec![InputEvent::Release(Key::ARROW_LEFT.into())]));
    }

    #[test]
    fn a_code_that_is_no_key_name_is_refused_with_its_text() {
        let synthetic = events(PageInput::KeyDown(key_down("", "Escape")));
        assert_eq!(
            synthetic,
            Err(InputRefusal::Key(KeyError::Length { len: 0 }))
        );
        let spaced = events(PageInput::KeyUp {
            code: "Key W".into(),
        });
        assert_eq!(
            spaced,
            Err(InputRefusal::Key(KeyError::Character { at: 3 }))
        );
        let typed = events(PageInput::KeyDown(key_down("", "a")));
        assert!(typed.is_err());
    }

    #[test]
    fn a_repeat_is_its_own_event_and_types_again() {
        let down = KeyDown {
            repeat: true,
            ..key_down("KeyA", "a")
        };
        assert_eq!(
            events(PageInput::KeyDown(down)),
            Ok(vec![
                InputEvent::Repeat(Key::A.into()),
                InputEvent::Text("a".into())
            ])
        );
    }

    #[test]
    fn only_key_strings_type_text() {
        for (key, text) in [
            ("a", true),
            (" ", true),
            ("é", true),
            ("1", true),
            ("€", true),
            ("Enter", false),
            ("Tab", false),
            ("F1", false),
            ("Dead", false),
            ("Process", false),
            ("Unidentified", false),
            ("", false),
            ("\u{8}", false),
        ] {
            assert_eq!(is_key_string(key), text, "{key:?}");
        }
    }

    #[test]
    fn shortcuts_and_composition_type_nothing_but_press() {
        let shortcut = KeyDown {
            shortcut: true,
            ..key_down("KeyC", "c")
        };
        assert_eq!(
            events(PageInput::KeyDown(shortcut)),
            Ok(vec![press("KeyC")])
        );
        let composing = KeyDown {
            composing: true,
            ..key_down("KeyN", "n")
        };
        assert_eq!(
            events(PageInput::KeyDown(composing)),
            Ok(vec![press("KeyN")])
        );
        assert_eq!(
            events(PageInput::CompositionEnd {
                data: "日本".into()
            }),
            Ok(vec![InputEvent::Text("日本".into())])
        );
        assert_eq!(
            events(PageInput::CompositionEnd {
                data: String::new()
            }),
            Ok(vec![])
        );
    }

    #[test]
    fn mouse_buttons_are_numbered_as_the_dom_numbers_them_after_the_position() {
        assert_eq!(
            events(PageInput::MouseDown {
                button: 2,
                x: 10.5,
                y: 20.0
            }),
            Ok(vec![
                InputEvent::Pointer { x: 10.5, y: 20.0 },
                InputEvent::Press(MouseButton::RIGHT.into())
            ])
        );
        assert_eq!(
            events(PageInput::MouseUp {
                button: 255,
                x: 0.0,
                y: 0.0
            })
            .map(|e| e[1].clone()),
            Ok(InputEvent::Release(MouseButton(255).into()))
        );
        for refused in [-1, 256] {
            assert_eq!(
                events(PageInput::MouseDown {
                    button: refused,
                    x: 0.0,
                    y: 0.0
                }),
                Err(InputRefusal::Button(refused))
            );
        }
    }

    #[test]
    fn a_move_without_movement_is_a_position_only() {
        let still = PageInput::MouseMove {
            x: 3.0,
            y: 4.0,
            dx: 0.0,
            dy: 0.0,
        };
        assert_eq!(
            events(still),
            Ok(vec![InputEvent::Pointer { x: 3.0, y: 4.0 }])
        );
        let moved = PageInput::MouseMove {
            x: 3.0,
            y: 4.0,
            dx: -2.0,
            dy: 0.0,
        };
        assert_eq!(
            events(moved),
            Ok(vec![
                InputEvent::Pointer { x: 3.0, y: 4.0 },
                InputEvent::Motion { dx: -2.0, dy: 0.0 }
            ])
        );
    }

    #[test]
    fn the_wheel_is_in_css_pixels_whatever_its_mode() {
        let wheel = |mode| {
            events(PageInput::Wheel {
                dx: 1.0,
                dy: -3.0,
                mode,
                page_width: 800.0,
                page_height: 600.0,
            })
        };
        assert_eq!(wheel(0), Ok(vec![InputEvent::Wheel { dx: 1.0, dy: -3.0 }]));
        assert_eq!(
            wheel(1),
            Ok(vec![InputEvent::Wheel {
                dx: 40.0,
                dy: -120.0
            }])
        );
        assert_eq!(
            wheel(2),
            Ok(vec![InputEvent::Wheel {
                dx: 800.0,
                dy: -1800.0
            }])
        );
        assert_eq!(wheel(3), Err(InputRefusal::WheelMode(3)));
    }

    #[test]
    fn a_blur_is_a_focus_loss() {
        assert_eq!(events(PageInput::Blur), Ok(vec![InputEvent::FocusLost]));
    }

    #[test]
    fn refusals_name_the_valid_values() {
        assert_eq!(
            InputRefusal::Button(-1).to_string(),
            "a mouse button numbered -1; buttons are numbered 0 to 255"
        );
        assert_eq!(
            InputRefusal::WheelMode(7).to_string(),
            "a wheel deltaMode of 7; it is 0 (pixels), 1 (lines) or 2 (pages)"
        );
        assert!(
            InputRefusal::Key(KeyError::Length { len: 0 })
                .to_string()
                .contains("KeyboardEvent.code value")
        );
    }
}

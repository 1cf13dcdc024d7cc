//! The mapping from winit events to loop input, event by event: exact
//! expected events for each kind the driver forwards, and none for the rest.

use evenstep::input::{Button, InputEvent, Key, MouseButton};
use winit::dpi::PhysicalPosition;
use winit::event::{
    DeviceEvent, DeviceId, ElementState, Ime, MouseScrollDelta, TouchPhase, WindowEvent,
};
use winit::keyboard::{KeyCode, NativeKeyCode, PhysicalKey};

use super::{Keystroke, device_input, key, keystroke, window_input};

/// Every `KeyCode` winit 0.30 has, in its order, with the W3C
/// `KeyboardEvent.code` value the driver names it by. winit's browser
/// backend maps each `code` string to the variant of the same name, but
/// `MetaLeft`/`MetaRight` to `SuperLeft`/`SuperRight`; `Meta`, a legacy key
/// no browser reports, keeps its own name.
const W3C_NAMES: [(KeyCode, &str); 194] = [
    (KeyCode::Backquote, "Backquote"),
    (KeyCode::Backslash, "Backslash"),
    (KeyCode::BracketLeft, "BracketLeft"),
    (KeyCode::BracketRight, "BracketRight"),
    (KeyCode::Comma, "Comma"),
    (KeyCode::Digit0, "Digit0"),
    (KeyCode::Digit1, "Digit1"),
    (KeyCode::Digit2, "Digit2"),
    (KeyCode::Digit3, "Digit3"),
    (KeyCode::Digit4, "Digit4"),
    (KeyCode::Digit5, "Digit5"),
    (KeyCode::Digit6, "Digit6"),
    (KeyCode::Digit7, "Digit7"),
    (KeyCode::Digit8, "Digit8"),
    (KeyCode::Digit9, "Digit9"),
    (KeyCode::Equal, "Equal"),
    (KeyCode::IntlBackslash, "IntlBackslash"),
    (KeyCode::IntlRo, "IntlRo"),
    (KeyCode::IntlYen, "IntlYen"),
    (KeyCode::KeyA, "KeyA"),
    (KeyCode::KeyB, "KeyB"),
    (KeyCode::KeyC, "KeyC"),
    (KeyCode::KeyD, "KeyD"),
    (KeyCode::KeyE, "KeyE"),
    (KeyCode::KeyF, "KeyF"),
    (KeyCode::KeyG, "KeyG"),
    (KeyCode::KeyH, "KeyH"),
    (KeyCode::KeyI, "KeyI"),
    (KeyCode::KeyJ, "KeyJ"),
    (KeyCode::KeyK, "KeyK"),
    (KeyCode::KeyL, "KeyL"),
    (KeyCode::KeyM, "KeyM"),
    (KeyCode::KeyN, "KeyN"),
    (KeyCode::KeyO, "KeyO"),
    (KeyCode::KeyP, "KeyP"),
    (KeyCode::KeyQ, "KeyQ"),
    (KeyCode::KeyR, "KeyR"),
    (KeyCode::KeyS, "KeyS"),
    (KeyCode::KeyT, "KeyT"),
    (KeyCode::KeyU, "KeyU"),
    (KeyCode::KeyV, "KeyV"),
    (KeyCode::KeyW, "KeyW"),
    (KeyCode::KeyX, "KeyX"),
    (KeyCode::KeyY, "KeyY"),
    (KeyCode::KeyZ, "KeyZ"),
    (KeyCode::Minus, "Minus"),
    (KeyCode::Period, "Period"),
    (KeyCode::Quote, "Quote"),
    (KeyCode::Semicolon, "Semicolon"),
    (KeyCode::Slash, "Slash"),
    (KeyCode::AltLeft, "AltLeft"),
    (KeyCode::AltRight, "AltRight"),
    (KeyCode::Backspace, "Backspace"),
    (KeyCode::CapsLock, "CapsLock"),
    (KeyCode::ContextMenu, "ContextMenu"),
    (KeyCode::ControlLeft, "ControlLeft"),
    (KeyCode::ControlRight, "ControlRight"),
    (KeyCode::Enter, "Enter"),
    (KeyCode::SuperLeft, "MetaLeft"),
    (KeyCode::SuperRight, "MetaRight"),
    (KeyCode::ShiftLeft, "ShiftLeft"),
    (KeyCode::ShiftRight, "ShiftRight"),
    (KeyCode::Space, "Space"),
    (KeyCode::Tab, "Tab"),
    (KeyCode::Convert, "Convert"),
    (KeyCode::KanaMode, "KanaMode"),
    (KeyCode::Lang1, "Lang1"),
    (KeyCode::Lang2, "Lang2"),
    (KeyCode::Lang3, "Lang3"),
    (KeyCode::Lang4, "Lang4"),
    (KeyCode::Lang5, "Lang5"),
    (KeyCode::NonConvert, "NonConvert"),
    (KeyCode::Delete, "Delete"),
    (KeyCode::End, "End"),
    (KeyCode::Help, "Help"),
    (KeyCode::Home, "Home"),
    (KeyCode::Insert, "Insert"),
    (KeyCode::PageDown, "PageDown"),
    (KeyCode::PageUp, "PageUp"),
    (KeyCode::ArrowDown, "ArrowDown"),
    (KeyCode::ArrowLeft, "ArrowLeft"),
    (KeyCode::ArrowRight, "ArrowRight"),
    (KeyCode::ArrowUp, "ArrowUp"),
    (KeyCode::NumLock, "NumLock"),
    (KeyCode::Numpad0, "Numpad0"),
    (KeyCode::Numpad1, "Numpad1"),
    (KeyCode::Numpad2, "Numpad2"),
    (KeyCode::Numpad3, "Numpad3"),
    (KeyCode::Numpad4, "Numpad4"),
    (KeyCode::Numpad5, "Numpad5"),
    (KeyCode::Numpad6, "Numpad6"),
    (KeyCode::Numpad7, "Numpad7"),
    (KeyCode::Numpad8, "Numpad8"),
    (KeyCode::Numpad9, "Numpad9"),
    (KeyCode::NumpadAdd, "NumpadAdd"),
    (KeyCode::NumpadBackspace, "NumpadBackspace"),
    (KeyCode::NumpadClear, "NumpadClear"),
    (KeyCode::NumpadClearEntry, "NumpadClearEntry"),
    (KeyCode::NumpadComma, "NumpadComma"),
    (KeyCode::NumpadDecimal, "NumpadDecimal"),
    (KeyCode::NumpadDivide, "NumpadDivide"),
    (KeyCode::NumpadEnter, "NumpadEnter"),
    (KeyCode::NumpadEqual, "NumpadEqual"),
    (KeyCode::NumpadHash, "NumpadHash"),
    (KeyCode::NumpadMemoryAdd, "NumpadMemoryAdd"),
    (KeyCode::NumpadMemoryClear, "NumpadMemoryClear"),
    (KeyCode::NumpadMemoryRecall, "NumpadMemoryRecall"),
    (KeyCode::NumpadMemoryStore, "NumpadMemoryStore"),
    (KeyCode::NumpadMemorySubtract, "NumpadMemorySubtract"),
    (KeyCode::NumpadMultiply, "NumpadMultiply"),
    (KeyCode::NumpadParenLeft, "NumpadParenLeft"),
    (KeyCode::NumpadParenRight, "NumpadParenRight"),
    (KeyCode::NumpadStar, "NumpadStar"),
    (KeyCode::NumpadSubtract, "NumpadSubtract"),
    (KeyCode::Escape, "Escape"),
    (KeyCode::Fn, "Fn"),
    (KeyCode::FnLock, "FnLock"),
    (KeyCode::PrintScreen, "PrintScreen"),
    (KeyCode::ScrollLock, "ScrollLock"),
    (KeyCode::Pause, "Pause"),
    (KeyCode::BrowserBack, "BrowserBack"),
    (KeyCode::BrowserFavorites, "BrowserFavorites"),
    (KeyCode::BrowserForward, "BrowserForward"),
    (KeyCode::BrowserHome, "BrowserHome"),
    (KeyCode::BrowserRefresh, "BrowserRefresh"),
    (KeyCode::BrowserSearch, "BrowserSearch"),
    (KeyCode::BrowserStop, "BrowserStop"),
    (KeyCode::Eject, "Eject"),
    (KeyCode::LaunchApp1, "LaunchApp1"),
    (KeyCode::LaunchApp2, "LaunchApp2"),
    (KeyCode::LaunchMail, "LaunchMail"),
    (KeyCode::MediaPlayPause, "MediaPlayPause"),
    (KeyCode::MediaSelect, "MediaSelect"),
    (KeyCode::MediaStop, "MediaStop"),
    (KeyCode::MediaTrackNext, "MediaTrackNext"),
    (KeyCode::MediaTrackPrevious, "MediaTrackPrevious"),
    (KeyCode::Power, "Power"),
    (KeyCode::Sleep, "Sleep"),
    (KeyCode::AudioVolumeDown, "AudioVolumeDown"),
    (KeyCode::AudioVolumeMute, "AudioVolumeMute"),
    (KeyCode::AudioVolumeUp, "AudioVolumeUp"),
    (KeyCode::WakeUp, "WakeUp"),
    (KeyCode::Meta, "Meta"),
    (KeyCode::Hyper, "Hyper"),
    (KeyCode::Turbo, "Turbo"),
    (KeyCode::Abort, "Abort"),
    (KeyCode::Resume, "Resume"),
    (KeyCode::Suspend, "Suspend"),
    (KeyCode::Again, "Again"),
    (KeyCode::Copy, "Copy"),
    (KeyCode::Cut, "Cut"),
    (KeyCode::Find, "Find"),
    (KeyCode::Open, "Open"),
    (KeyCode::Paste, "Paste"),
    (KeyCode::Props, "Props"),
    (KeyCode::Select, "Select"),
    (KeyCode::Undo, "Undo"),
    (KeyCode::Hiragana, "Hiragana"),
    (KeyCode::Katakana, "Katakana"),
    (KeyCode::F1, "F1"),
    (KeyCode::F2, "F2"),
    (KeyCode::F3, "F3"),
    (KeyCode::F4, "F4"),
    (KeyCode::F5, "F5"),
    (KeyCode::F6, "F6"),
    (KeyCode::F7, "F7"),
    (KeyCode::F8, "F8"),
    (KeyCode::F9, "F9"),
    (KeyCode::F10, "F10"),
    (KeyCode::F11, "F11"),
    (KeyCode::F12, "F12"),
    (KeyCode::F13, "F13"),
    (KeyCode::F14, "F14"),
    (KeyCode::F15, "F15"),
    (KeyCode::F16, "F16"),
    (KeyCode::F17, "F17"),
    (KeyCode::F18, "F18"),
    (KeyCode::F19, "F19"),
    (KeyCode::F20, "F20"),
    (KeyCode::F21, "F21"),
    (KeyCode::F22, "F22"),
    (KeyCode::F23, "F23"),
    (KeyCode::F24, "F24"),
    (KeyCode::F25, "F25"),
    (KeyCode::F26, "F26"),
    (KeyCode::F27, "F27"),
    (KeyCode::F28, "F28"),
    (KeyCode::F29, "F29"),
    (KeyCode::F30, "F30"),
    (KeyCode::F31, "F31"),
    (KeyCode::F32, "F32"),
    (KeyCode::F33, "F33"),
    (KeyCode::F34, "F34"),
    (KeyCode::F35, "F35"),
];

fn key_named(name: &str) -> Button {
    Button::Key(Key::named(name).unwrap())
}

fn of_window(event: &WindowEvent) -> Vec<InputEvent> {
    let mut events = Vec::new();
    window_input(event, &mut |event| events.push(event));
    events
}

fn of_keystroke(stroke: Keystroke<'_>) -> Vec<InputEvent> {
    let mut events = Vec::new();
    keystroke(stroke, &mut |event| events.push(event));
    events
}

/// A keystroke of `code`, not repeated, not synthetic, typing nothing.
fn stroke(code: KeyCode, state: ElementState) -> Keystroke<'static> {
    Keystroke {
        physical: PhysicalKey::Code(code),
        state,
        repeat: false,
        synthetic: false,
        text: None,
    }
}

#[test]
fn every_winit_key_code_is_named_by_its_w3c_code() {
    for (code, name) in W3C_NAMES {
        let named = key(PhysicalKey::Code(code));
        assert_eq!(
            named.map(|k| k.name().to_owned()),
            Some(name.to_owned()),
            "{code:?}"
        );
    }
}

#[test]
fn the_os_keys_are_meta_as_the_w3c_names_them_not_super() {
    assert_eq!(
        key(PhysicalKey::Code(KeyCode::SuperLeft)),
        Key::named("MetaLeft").ok()
    );
    assert_eq!(
        key(PhysicalKey::Code(KeyCode::SuperRight)),
        Key::named("MetaRight").ok()
    );
    assert_eq!(key(PhysicalKey::Code(KeyCode::KeyW)), Some(Key::W));
}

#[test]
fn an_unidentified_physical_key_is_no_key_and_forwards_only_its_text() {
    let unidentified = PhysicalKey::Unidentified(NativeKeyCode::Xkb(0x1234));
    assert_eq!(key(unidentified), None);
    let typed = Keystroke {
        physical: unidentified,
        text: Some("é"),
        ..stroke(KeyCode::KeyA, ElementState::Pressed)
    };
    assert_eq!(of_keystroke(typed), [InputEvent::Text("é".to_owned())]);
}

#[test]
fn a_press_is_a_press_then_the_text_it_typed() {
    let press = Keystroke {
        text: Some("n"),
        ..stroke(KeyCode::KeyN, ElementState::Pressed)
    };
    assert_eq!(
        of_keystroke(press),
        [
            InputEvent::Press(key_named("KeyN")),
            InputEvent::Text("n".to_owned())
        ]
    );
}

#[test]
fn a_repeat_is_a_repeat_not_a_press_and_types_again() {
    let repeat = Keystroke {
        repeat: true,
        text: Some("n"),
        ..stroke(KeyCode::KeyN, ElementState::Pressed)
    };
    assert_eq!(
        of_keystroke(repeat),
        [
            InputEvent::Repeat(key_named("KeyN")),
            InputEvent::Text("n".to_owned())
        ]
    );
}

#[test]
fn a_release_is_a_release_and_types_nothing() {
    let release = Keystroke {
        text: Some("n"),
        ..stroke(KeyCode::KeyN, ElementState::Released)
    };
    assert_eq!(
        of_keystroke(release),
        [InputEvent::Release(key_named("KeyN"))]
    );
}

#[test]
fn the_control_characters_of_enter_tab_and_backspace_are_not_text() {
    for (code, text) in [
        (KeyCode::Enter, "\r"),
        (KeyCode::Tab, "\t"),
        (KeyCode::Backspace, "\u{8}"),
        (KeyCode::Escape, "\u{1b}"),
    ] {
        let press = Keystroke {
            text: Some(text),
            ..stroke(code, ElementState::Pressed)
        };
        let events = of_keystroke(press);
        assert_eq!(events.len(), 1, "{code:?}: {events:?}");
        assert!(
            matches!(events[0], InputEvent::Press(_)),
            "{code:?}: {events:?}"
        );
    }
}

#[test]
fn a_synthetic_press_is_left_out_and_a_synthetic_release_is_kept() {
    let synthetic = |state| Keystroke {
        synthetic: true,
        text: Some("\r"),
        ..stroke(KeyCode::Enter, state)
    };
    assert_eq!(
        of_keystroke(synthetic(ElementState::Pressed)),
        Vec::<InputEvent>::new()
    );
    assert_eq!(
        of_keystroke(synthetic(ElementState::Released)),
        [InputEvent::Release(Key::ENTER.into())]
    );
}

#[test]
fn mouse_buttons_are_numbered_as_the_dom_numbers_them() {
    use winit::event::MouseButton as Winit;
    let cases = [
        (Winit::Left, Some(MouseButton(0))),
        (Winit::Middle, Some(MouseButton(1))),
        (Winit::Right, Some(MouseButton(2))),
        (Winit::Back, Some(MouseButton(3))),
        (Winit::Forward, Some(MouseButton(4))),
        (Winit::Other(10), Some(MouseButton(10))),
        (Winit::Other(255), Some(MouseButton(255))),
        (Winit::Other(256), None),
    ];
    for (button, expected) in cases {
        for (state, event) in [
            (
                ElementState::Pressed,
                InputEvent::Press as fn(Button) -> InputEvent,
            ),
            (ElementState::Released, InputEvent::Release),
        ] {
            let input = WindowEvent::MouseInput {
                device_id: DeviceId::dummy(),
                state,
                button,
            };
            let expected: Vec<InputEvent> = expected
                .map(|b| event(Button::Mouse(b)))
                .into_iter()
                .collect();
            assert_eq!(of_window(&input), expected, "{button:?} {state:?}");
        }
    }
}

#[test]
fn the_cursor_is_the_pointer_in_physical_pixels() {
    let moved = WindowEvent::CursorMoved {
        device_id: DeviceId::dummy(),
        position: PhysicalPosition::new(12.5, 300.0),
    };
    assert_eq!(
        of_window(&moved),
        [InputEvent::Pointer { x: 12.5, y: 300.0 }]
    );
}

#[test]
fn the_wheel_turns_towards_the_user_and_rightwards_positive_in_lines_or_pixels() {
    let wheel = |delta| WindowEvent::MouseWheel {
        device_id: DeviceId::dummy(),
        delta,
        phase: TouchPhase::Moved,
    };
    // winit's +y is the wheel turned away from the user (X11 button 4).
    assert_eq!(
        of_window(&wheel(MouseScrollDelta::LineDelta(0.0, 1.0))),
        [InputEvent::Wheel { dx: 0.0, dy: -1.0 }]
    );
    assert_eq!(
        of_window(&wheel(MouseScrollDelta::LineDelta(-2.0, -0.5))),
        [InputEvent::Wheel { dx: 2.0, dy: 0.5 }]
    );
    assert_eq!(
        of_window(&wheel(MouseScrollDelta::PixelDelta(PhysicalPosition::new(
            3.0, -12.5
        )))),
        [InputEvent::Wheel { dx: -3.0, dy: 12.5 }]
    );
}

#[test]
fn losing_the_focus_is_a_focus_loss_and_gaining_it_is_nothing() {
    assert_eq!(
        of_window(&WindowEvent::Focused(false)),
        [InputEvent::FocusLost]
    );
    assert_eq!(
        of_window(&WindowEvent::Focused(true)),
        Vec::<InputEvent>::new()
    );
}

#[test]
fn committed_input_method_text_is_text_and_a_preedit_is_not() {
    let commit = WindowEvent::Ime(Ime::Commit("日本語".to_owned()));
    assert_eq!(of_window(&commit), [InputEvent::Text("日本語".to_owned())]);
    let preedit = WindowEvent::Ime(Ime::Preedit("日".to_owned(), Some((0, 3))));
    assert_eq!(of_window(&preedit), Vec::<InputEvent>::new());
}

#[test]
fn events_that_are_not_input_forward_nothing() {
    for event in [
        WindowEvent::RedrawRequested,
        WindowEvent::CloseRequested,
        WindowEvent::Occluded(true),
        WindowEvent::CursorLeft {
            device_id: DeviceId::dummy(),
        },
    ] {
        assert_eq!(of_window(&event), Vec::<InputEvent>::new(), "{event:?}");
    }
}

#[test]
fn raw_mouse_motion_is_motion_and_other_device_events_are_nothing() {
    let motion = DeviceEvent::MouseMotion { delta: (2.5, -1.0) };
    assert_eq!(
        device_input(&motion),
        Some(InputEvent::Motion { dx: 2.5, dy: -1.0 })
    );
    assert_eq!(device_input(&DeviceEvent::Added), None);
}

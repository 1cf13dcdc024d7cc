//! The demo's keys, from winit's: what every example that opens a window
//! hands to the demo's actions.

use evenstep_demo::Key;
use winit::keyboard::{self, NamedKey};

/// The demo's key for a winit key, if it has one.
pub(crate) fn key_of(key: &keyboard::Key) -> Option<Key> {
    match key {
        keyboard::Key::Named(NamedKey::Escape) => Some(Key::Escape),
        keyboard::Key::Named(NamedKey::Space) => Some(Key::Space),
        keyboard::Key::Character(text) => text.chars().next().map(Key::Char),
        _ => None,
    }
}

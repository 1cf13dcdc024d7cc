//! Which key: [`Key`], a physical key named as the web platform names it
//! (`"KeyW"`, `"ArrowLeft"`, `"Space"`), so a log recorded in a window
//! replays in a browser and across versions of either.

use std::fmt;

/// A physical key, by its position on the keyboard rather than the letter
/// it types, named as the W3C `KeyboardEvent.code` values name it:
/// `"KeyW"` is the key where a US layout has W, on every layout. winit's
/// `KeyCode` variants carry the same names, and a browser's
/// `KeyboardEvent.code` is one, so both frame sources report the same
/// `Key`, and a recorded log means the same keys everywhere.
///
/// A name is 1 to [`Key::MAX_LEN`] ASCII letters and digits; `Key` holds it
/// inline, so it is `Copy` and costs no allocation.
///
/// # Examples
///
/// ```
/// use evenstep::input::Key;
///
/// let jump = Key::named("Space")?;
/// assert_eq!(jump, Key::SPACE);
/// assert_eq!(jump.name(), "Space");
/// assert!(Key::named("Key W").is_err()); // a space is not in a name
/// # Ok::<(), evenstep::input::KeyError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// The name, padded with zeros: keys order by name.
    name: [u8; Key::MAX_LEN],
    len: u8,
}

impl Key {
    /// The longest name a key has: the W3C's longest is 20 characters
    /// (`"NumpadMemorySubtract"`).
    pub const MAX_LEN: usize = 24;

    /// The space bar.
    pub const SPACE: Key = Key::known("Space");
    /// Enter (Return).
    pub const ENTER: Key = Key::known("Enter");
    /// Escape.
    pub const ESCAPE: Key = Key::known("Escape");
    /// Tab.
    pub const TAB: Key = Key::known("Tab");
    /// Backspace.
    pub const BACKSPACE: Key = Key::known("Backspace");
    /// The up arrow.
    pub const ARROW_UP: Key = Key::known("ArrowUp");
    /// The down arrow.
    pub const ARROW_DOWN: Key = Key::known("ArrowDown");
    /// The left arrow.
    pub const ARROW_LEFT: Key = Key::known("ArrowLeft");
    /// The right arrow.
    pub const ARROW_RIGHT: Key = Key::known("ArrowRight");
    /// The left Shift.
    pub const SHIFT_LEFT: Key = Key::known("ShiftLeft");
    /// The left Control.
    pub const CONTROL_LEFT: Key = Key::known("ControlLeft");
    /// The key where a US layout has W.
    pub const W: Key = Key::known("KeyW");
    /// The key where a US layout has A.
    pub const A: Key = Key::known("KeyA");
    /// The key where a US layout has S.
    pub const S: Key = Key::known("KeyS");
    /// The key where a US layout has D.
    pub const D: Key = Key::known("KeyD");

    /// The key named `name`, a W3C `KeyboardEvent.code` value.
    ///
    /// # Errors
    ///
    /// [`KeyError`] if `name` is empty, longer than [`Key::MAX_LEN`], or has
    /// a character other than an ASCII letter or digit.
    pub const fn named(name: &str) -> Result<Key, KeyError> {
        let bytes = name.as_bytes();
        if bytes.is_empty() || bytes.len() > Key::MAX_LEN {
            return Err(KeyError::Length { len: bytes.len() });
        }
        let mut key = [0; Key::MAX_LEN];
        let mut i = 0;
        while i < bytes.len() {
            if !bytes[i].is_ascii_alphanumeric() {
                return Err(KeyError::Character { at: i });
            }
            key[i] = bytes[i];
            i += 1;
        }
        #[allow(
            clippy::cast_possible_truncation,
            reason = "at most MAX_LEN, checked above"
        )]
        let len = bytes.len() as u8;
        Ok(Key { len, name: key })
    }

    /// A name known to be valid, for the constants.
    const fn known(name: &str) -> Key {
        match Key::named(name) {
            Ok(key) => key,
            Err(_) => panic!("a constant key's name is valid"),
        }
    }

    /// The key's name, as given to [`named`](Key::named).
    pub fn name(&self) -> &str {
        // Built from ASCII only, so it is UTF-8.
        std::str::from_utf8(&self.name[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key({})", self.name())
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why [`Key::named`] refused a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyError {
    /// The name is empty or longer than [`Key::MAX_LEN`].
    Length {
        /// The name's length in bytes.
        len: usize,
    },
    /// The name has a character other than an ASCII letter or digit.
    Character {
        /// The byte offset of the first such character.
        at: usize,
    },
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            KeyError::Length { len } => write!(
                f,
                "a key name of {len} bytes; a name is 1 to {} ASCII letters and digits, \
                 a KeyboardEvent.code value like \"KeyW\" or \"ArrowLeft\"",
                Key::MAX_LEN
            ),
            KeyError::Character { at } => write!(
                f,
                "a key name with a character other than an ASCII letter or digit at byte {at}; \
                 a name is a KeyboardEvent.code value like \"KeyW\" or \"ArrowLeft\""
            ),
        }
    }
}

impl std::error::Error for KeyError {}

#[cfg(feature = "serde")]
impl serde::Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        let name = String::deserialize(deserializer)?;
        Key::named(&name).map_err(serde::de::Error::custom)
    }
}

//! The file form of an [`InputLog`] and its loaders: one validation for
//! every format, so each names what is wrong the same way.

use std::fmt;
use std::num::NonZeroU64;

use evenstep_core::Timestep;

use crate::replay::ReplayError;
use crate::replay::input_log::InputLog;

/// The version of the file form written today, and the only one read.
const FORMAT_VERSION: u32 = 1;

/// The file form of an [`InputLog`]: a format version, then the step as its
/// exact pair of unit counts, so it reads back bit for bit. Unknown fields
/// are refused: a field this build does not know may change what replay
/// means.
///
/// It is decoded as it stands, with no check but the format's own, and then
/// checked by [`LogFile::validate`], one piece of code for every loader, so
/// that each names what is wrong the same way (a format that cannot carry a
/// message of its own, like postcard, included).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LogFile<E> {
    version: u32,
    units_per_step: u64,
    units_per_nanosecond: u64,
    checkpoint_every: u64,
    ticks: u64,
    events: Vec<(u64, E)>,
    checkpoints: Vec<(u64, u64)>,
}

/// The file form written, borrowing the log; field for field as
/// [`LogFile`].
#[derive(serde::Serialize)]
struct LogFileRef<'a, E> {
    version: u32,
    units_per_step: u64,
    units_per_nanosecond: u64,
    checkpoint_every: u64,
    ticks: u64,
    events: &'a [(u64, E)],
    checkpoints: &'a [(u64, u64)],
}

impl<E: serde::Serialize> serde::Serialize for InputLog<E> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        LogFileRef {
            version: FORMAT_VERSION,
            units_per_step: self.timestep.units_per_step(),
            units_per_nanosecond: self.timestep.units_per_nanosecond(),
            checkpoint_every: self.checkpoint_every.get(),
            ticks: self.ticks,
            events: &self.events,
            checkpoints: &self.checkpoints,
        }
        .serialize(serializer)
    }
}

impl<E> LogFile<E> {
    /// The log this file holds, or what is wrong with it: another format
    /// version, a step that is not a valid timestep, a checkpoint interval
    /// of zero, a claim of more than [`MAX_TICKS`](InputLog::MAX_TICKS)
    /// ticks, events out of tick order or at a tick no log holds, or
    /// checkpoints out of order, past its last tick or off the
    /// `checkpoint_every` grid. Events past the last tick (recorded for a
    /// tick not yet ended when the log was saved) are kept.
    fn validate(self) -> Result<InputLog<E>, String> {
        if self.version != FORMAT_VERSION {
            return Err(format!(
                "the log is in format version {}; this build reads version {FORMAT_VERSION}",
                self.version
            ));
        }
        let timestep = Timestep::from_step_ratio(self.units_per_step, self.units_per_nanosecond)
            .map_err(|e| format!("the log's timestep is invalid: {e}"))?;
        let Some(checkpoint_every) = NonZeroU64::new(self.checkpoint_every) else {
            return Err(
                "the log takes a checkpoint every 0 ticks; the interval is 1 tick or more".into(),
            );
        };
        let ticks = self.ticks;
        let max = InputLog::<E>::MAX_TICKS;
        if ticks > max {
            return Err(format!(
                "the log claims {ticks} ticks; a log holds from 0 to {max} ticks"
            ));
        }
        if !self.events.is_sorted_by_key(|(tick, _)| *tick) {
            return Err("the log's events are not in tick order".into());
        }
        if let Some(&(tick, _)) = self.events.last()
            && tick >= max
        {
            return Err(format!(
                "an event is at tick {tick}, past the end of any log \
                 (a log holds ticks 0 to {})",
                max - 1
            ));
        }
        let every = checkpoint_every.get();
        let mut previous = None;
        for &(tick, _) in &self.checkpoints {
            let on_grid = tick.checked_add(1).is_some_and(|count| count % every == 0);
            if !on_grid || tick >= ticks || previous.is_some_and(|p| p >= tick) {
                return Err(format!(
                    "a checkpoint is at tick {tick}; a log of {ticks} ticks with a checkpoint \
                     every {every} ticks has them in order at ticks {}, {}, ... below {ticks}",
                    every - 1,
                    every.saturating_mul(2) - 1
                ));
            }
            previous = Some(tick);
        }
        Ok(InputLog {
            timestep,
            checkpoint_every,
            ticks,
            events: self.events,
            checkpoints: self.checkpoints,
            cursor: 0,
        })
    }

    /// The log, checked as [`validate`](LogFile::validate) does and against
    /// the game's step.
    fn load(self, running: Timestep) -> Result<InputLog<E>, LoadError> {
        let log = self.validate().map_err(LoadError::Format)?;
        log.check_timestep(running).map_err(LoadError::Timestep)?;
        Ok(log)
    }
}

impl<'de, E: serde::Deserialize<'de>> serde::Deserialize<'de> for InputLog<E> {
    /// Refuses a file of another format version or with unknown fields,
    /// whose step is not a valid timestep, whose checkpoint interval is
    /// zero, that claims more than [`MAX_TICKS`](InputLog::MAX_TICKS)
    /// ticks, whose events are out of tick order or at a tick no log holds,
    /// or whose checkpoints are out of order, past its last tick or off the
    /// `checkpoint_every` grid.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<InputLog<E>, D::Error> {
        LogFile::<E>::deserialize(deserializer)?
            .validate()
            .map_err(<D::Error as serde::de::Error>::custom)
    }
}

impl<E> InputLog<E> {
    /// Reads a log with any serde format and checks it was recorded at the
    /// game's step. A deserializer cannot tell whether its input ends with
    /// the log, so call the format's end check after this one, or use
    /// [`from_json`](InputLog::from_json) or
    /// [`from_postcard`](InputLog::from_postcard), which do.
    ///
    /// # Errors
    ///
    /// [`LoadError::Format`] if the data is not a log, and
    /// [`LoadError::Timestep`] if it was recorded at another step.
    pub fn load<'de, D>(deserializer: D, running: Timestep) -> Result<InputLog<E>, LoadError>
    where
        D: serde::Deserializer<'de>,
        E: serde::Deserialize<'de>,
    {
        <LogFile<E> as serde::Deserialize>::deserialize(deserializer)
            .map_err(|e| LoadError::Format(e.to_string()))?
            .load(running)
    }
}

#[cfg(feature = "json")]
impl<E> InputLog<E> {
    /// Reads a log from JSON text, refusing anything after it but
    /// whitespace, and checks it was recorded at the game's step.
    ///
    /// # Errors
    ///
    /// [`LoadError::Format`] if the text is not exactly one valid log, and
    /// [`LoadError::Timestep`] if it was recorded at another step.
    pub fn from_json<'de>(text: &'de str, running: Timestep) -> Result<InputLog<E>, LoadError>
    where
        E: serde::Deserialize<'de>,
    {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let file = <LogFile<E> as serde::Deserialize>::deserialize(&mut deserializer)
            .map_err(|e| LoadError::Format(e.to_string()))?;
        deserializer
            .end()
            .map_err(|e| LoadError::Format(e.to_string()))?;
        file.load(running)
    }
}

#[cfg(feature = "postcard")]
impl<E> InputLog<E> {
    /// Reads a log from postcard bytes, refusing any byte after it, and
    /// checks it was recorded at the game's step.
    ///
    /// # Errors
    ///
    /// [`LoadError::Format`] if the bytes are not exactly one valid log, and
    /// [`LoadError::Timestep`] if it was recorded at another step.
    pub fn from_postcard<'de>(bytes: &'de [u8], running: Timestep) -> Result<InputLog<E>, LoadError>
    where
        E: serde::Deserialize<'de>,
    {
        // Decoded as it stands, then checked by the same code as every
        // loader: postcard's own errors carry no message a check could give.
        let (file, rest) = postcard::take_from_bytes::<LogFile<E>>(bytes).map_err(|e| {
            LoadError::Format(match e {
                // A type's own refusal, whose message postcard drops.
                postcard::Error::SerdeDeCustom => "an event holds a value its type refuses \
                    (for the loop's input: a motion, wheel or pointer value that is NaN or \
                    infinite; they must be finite)"
                    .into(),
                other => other.to_string(),
            })
        })?;
        if !rest.is_empty() {
            return Err(LoadError::Format(format!(
                "{} byte(s) follow the log; a log file holds one log and nothing else",
                rest.len()
            )));
        }
        file.load(running)
    }
}

/// Why [`InputLog::load`] refused a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The data is not a readable log (the format's message).
    Format(String),
    /// The log was recorded at another fixed step.
    Timestep(ReplayError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Format(message) => write!(f, "not a readable input log: {message}"),
            LoadError::Timestep(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

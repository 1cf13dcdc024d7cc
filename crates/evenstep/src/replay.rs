//! Replay: runs a recorded session's inputs through the same update function
//! the live game runs, tick by tick, with no clock and nothing painted, and
//! compares state hashes at the recorded checkpoints. A green replay proves
//! the update obeyed the fixed step's rules: it read no clock, derived
//! nothing from a frame delta, and let no render pass mutate state. A game
//! that breaks one of them diverges, and the report names the first tick
//! where it showed.
//!
//! [`ReplaySource`] is a trait, so any storage can be replayed;
//! [`InputLog`] is the recorder that comes with the crate.

use std::fmt;
use std::num::NonZeroU64;

use evenstep_core::Timestep;

use crate::context::{Control, StepContext};

/// A recorded session, as replay needs it.
pub trait ReplaySource<S> {
    /// Ticks recorded: replay runs ticks `0..ticks()`.
    fn ticks(&self) -> u64;

    /// Applies the inputs recorded at `tick` to `state`, before that tick's
    /// update. Called once per tick, in tick order.
    fn apply_inputs(&mut self, tick: u64, state: &mut S);

    /// The state hash recorded after the update of `tick`, if a checkpoint
    /// was taken there.
    fn checkpoint(&self, tick: u64) -> Option<u64>;

    /// The fixed step the session was recorded at.
    fn timestep(&self) -> Timestep;
}

/// The first checkpoint whose hash differed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The tick after whose update the hashes differed.
    pub tick: u64,
    /// The recorded hash.
    pub expected: u64,
    /// The replayed hash.
    pub actual: u64,
}

/// What a replay found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayReport {
    /// Ticks replayed (up to the first divergence, or all of them).
    pub ticks: u64,
    /// Checkpoints compared.
    pub checkpoints: u64,
    /// The first divergence, or `None` if every checkpoint agreed.
    pub divergence: Option<Divergence>,
}

impl ReplayReport {
    /// Whether every checkpoint agreed and there was at least one. A replay
    /// that compared nothing proves nothing, so it is not green.
    pub fn is_green(&self) -> bool {
        self.divergence.is_none() && self.checkpoints > 0
    }
}

/// Why a replay could not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The session was recorded at another fixed step. Its ticks mean
    /// nothing at this one: that is a migration problem, not a divergence.
    TimestepMismatch {
        /// The step of the recording.
        recorded: Timestep,
        /// The step of the game replaying it.
        running: Timestep,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::TimestepMismatch { recorded, running } => write!(
                f,
                "the session was recorded at {recorded} and this game runs at {running}; \
                 a recording only replays at the fixed step it was made with"
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Replays `source` into `state` at `timestep`: for each tick, its inputs,
/// then `update` (the live game's own update function), then, where a
/// checkpoint was recorded, `hash` of the state against it. Stops at the
/// first divergence.
///
/// # Errors
///
/// [`ReplayError::TimestepMismatch`] if the source was recorded at another
/// timestep (checked before anything runs).
///
/// # Examples
///
/// ```
/// use std::num::NonZeroU64;
/// use evenstep::{replay, Input, InputLog, StateHash, Timestep};
///
/// #[derive(Clone)]
/// struct Push(i64);
/// impl Input<i64> for Push {
///     fn apply(&self, x: &mut i64) { *x += self.0; }
/// }
/// let update = |x: &mut i64, _: &evenstep::StepContext| *x *= 2;
/// let hash = |x: &i64| StateHash::new().i64(*x).finish();
///
/// // Record three ticks.
/// let mut log = InputLog::new(Timestep::HZ_60, NonZeroU64::new(1).unwrap());
/// let mut x = 0;
/// for tick in 0..3 {
///     log.record(tick, Push(1))?;
///     Push(1).apply(&mut x);
///     x *= 2;
///     log.end_tick(tick, hash(&x))?;
/// }
///
/// let report = replay(&mut log, Timestep::HZ_60, &mut 0, update, hash)?;
/// assert!(report.is_green());
/// assert_eq!(report.checkpoints, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn replay<S, R, U, H>(
    source: &mut R,
    timestep: Timestep,
    state: &mut S,
    mut update: U,
    mut hash: H,
) -> Result<ReplayReport, ReplayError>
where
    R: ReplaySource<S> + ?Sized,
    U: FnMut(&mut S, &StepContext<'_>),
    H: FnMut(&S) -> u64,
{
    let recorded = source.timestep();
    if recorded != timestep {
        return Err(ReplayError::TimestepMismatch {
            recorded,
            running: timestep,
        });
    }
    // Requests made through the context during a replay are ignored: there
    // is no loop to pause or stop.
    let control = Control::default();
    // A replay runs at one step: sim time is `tick · dt`, as a planner
    // that never changed its step says.
    let frames = evenstep_core::FrameLoop::new(
        timestep,
        evenstep_core::StepBudget::DEFAULT,
        evenstep_core::Timestamp::ZERO,
    );
    let mut step = StepContext {
        timestep,
        tick: 0,
        real_time: evenstep_core::Nanos::ZERO,
        control: &control,
        frames: &frames,
    };
    let mut checkpoints = 0;
    for tick in 0..source.ticks() {
        source.apply_inputs(tick, state);
        step.tick = tick;
        update(state, &step);
        if let Some(expected) = source.checkpoint(tick) {
            checkpoints += 1;
            let actual = hash(state);
            if actual != expected {
                return Ok(ReplayReport {
                    ticks: tick + 1,
                    checkpoints,
                    divergence: Some(Divergence {
                        tick,
                        expected,
                        actual,
                    }),
                });
            }
        }
    }
    Ok(ReplayReport {
        ticks: source.ticks(),
        checkpoints,
        divergence: None,
    })
}

/// An input event that can be applied to a state of type `S`.
pub trait Input<S> {
    /// Applies the event, as the live game did before the tick's update.
    fn apply(&self, state: &mut S);
}

/// Events recorded by tick, checkpoints every N ticks, and the fixed step,
/// for replay. With the `serde` feature it serializes to any format (JSON
/// for reading, a compact binary one for shipping).
///
/// Record inputs as the live game applies them, at the tick they are applied
/// before; call [`end_tick`](InputLog::end_tick) after each tick's update.
///
/// Every log the recorder writes loads: what no loader would accept (a tick
/// at or past [`MAX_TICKS`](InputLog::MAX_TICKS), an event out of tick
/// order) is refused when it is recorded, with a [`RecordError`]. A log may
/// be saved at any moment, also between recording a tick's inputs and
/// ending it: events for ticks not yet ended are saved and loaded with the
/// rest, and replay, which runs the ended ticks, does not apply them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputLog<E> {
    timestep: Timestep,
    checkpoint_every: NonZeroU64,
    ticks: u64,
    events: Vec<(u64, E)>,
    checkpoints: Vec<(u64, u64)>,
    /// Where replay has got to in `events`.
    cursor: usize,
}

impl<E> InputLog<E> {
    /// The most ticks a log holds: 2³², ticks 0 to 2³² − 1, about 2.3
    /// years at 60 Hz or 50 days at 1 kHz. The recorder refuses an event or
    /// an end at a later tick, and a loader refuses a log claiming more,
    /// rather than replaying it for years; record a longer session as
    /// several logs.
    pub const MAX_TICKS: u64 = 1 << 32;

    /// An empty log for a game stepping at `timestep`, taking a checkpoint
    /// every `checkpoint_every` ticks.
    pub fn new(timestep: Timestep, checkpoint_every: NonZeroU64) -> InputLog<E> {
        InputLog {
            timestep,
            checkpoint_every,
            ticks: 0,
            events: Vec::new(),
            checkpoints: Vec::new(),
            cursor: 0,
        }
    }

    /// Records `event`, applied before the update of `tick`: the tick being
    /// run, or a later one.
    ///
    /// # Errors
    ///
    /// [`RecordError::OutOfOrder`] if `tick` is earlier than a tick already
    /// recorded or ended (a log is written in tick order), and
    /// [`RecordError::PastTickLimit`] if it is at or past
    /// [`MAX_TICKS`](InputLog::MAX_TICKS). The log is unchanged.
    pub fn record(&mut self, tick: u64, event: E) -> Result<(), RecordError> {
        let last = self.events.last().map_or(0, |(t, _)| *t).max(self.ticks);
        if tick < last {
            return Err(RecordError::OutOfOrder { tick, last });
        }
        if tick >= InputLog::<E>::MAX_TICKS {
            return Err(RecordError::PastTickLimit { tick });
        }
        self.events.push((tick, event));
        Ok(())
    }

    /// Marks the update of `tick` done, and records `state_hash` if a
    /// checkpoint falls on it (every `checkpoint_every` ticks, counting
    /// from the first). Pass the hash lazily if it is costly:
    /// [`end_tick_with`](InputLog::end_tick_with).
    ///
    /// # Errors
    ///
    /// [`RecordError::PastTickLimit`] if `tick` is at or past
    /// [`MAX_TICKS`](InputLog::MAX_TICKS); the log is unchanged.
    pub fn end_tick(&mut self, tick: u64, state_hash: u64) -> Result<(), RecordError> {
        self.end_tick_with(tick, || state_hash)
    }

    /// [`end_tick`](InputLog::end_tick), hashing only on checkpoint ticks.
    /// Ending a tick already ended (or an earlier one) records nothing, so
    /// checkpoints stay one per tick and in order.
    ///
    /// # Errors
    ///
    /// [`RecordError::PastTickLimit`] if `tick` is at or past
    /// [`MAX_TICKS`](InputLog::MAX_TICKS); the log is unchanged and
    /// `state_hash` is not called.
    pub fn end_tick_with(
        &mut self,
        tick: u64,
        state_hash: impl FnOnce() -> u64,
    ) -> Result<(), RecordError> {
        if tick >= InputLog::<E>::MAX_TICKS {
            return Err(RecordError::PastTickLimit { tick });
        }
        // Below MAX_TICKS (2³²): the count cannot overflow.
        let count = tick + 1;
        if count <= self.ticks {
            return Ok(());
        }
        self.ticks = count;
        if count % self.checkpoint_every.get() == 0 {
            self.checkpoints.push((tick, state_hash()));
        }
        Ok(())
    }

    /// The fixed step the log was recorded at.
    pub fn recorded_timestep(&self) -> Timestep {
        self.timestep
    }

    /// Checks the log against the game's step.
    ///
    /// # Errors
    ///
    /// [`ReplayError::TimestepMismatch`] if the log was recorded at another
    /// step.
    pub fn check_timestep(&self, running: Timestep) -> Result<(), ReplayError> {
        if self.timestep == running {
            Ok(())
        } else {
            Err(ReplayError::TimestepMismatch {
                recorded: self.timestep,
                running,
            })
        }
    }

    /// Ticks recorded.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Every recorded event with its tick, in order.
    pub fn events(&self) -> &[(u64, E)] {
        &self.events
    }

    /// Every checkpoint as `(tick, hash)`, in order.
    pub fn checkpoints(&self) -> &[(u64, u64)] {
        &self.checkpoints
    }

    /// The events recorded at `tick`.
    pub fn events_at(&self, tick: u64) -> &[(u64, E)] {
        let start = self.events.partition_point(|(t, _)| *t < tick);
        let end = self.events.partition_point(|(t, _)| *t <= tick);
        &self.events[start..end]
    }
}

impl<S, E: Input<S>> ReplaySource<S> for InputLog<E> {
    fn ticks(&self) -> u64 {
        self.ticks
    }

    fn apply_inputs(&mut self, tick: u64, state: &mut S) {
        if tick == 0 {
            self.cursor = 0;
        }
        while let Some((t, event)) = self.events.get(self.cursor) {
            if *t > tick {
                break;
            }
            if *t == tick {
                event.apply(state);
            }
            self.cursor += 1;
        }
    }

    fn checkpoint(&self, tick: u64) -> Option<u64> {
        // Checkpoints are every N ticks: locate by arithmetic, then confirm.
        let every = self.checkpoint_every.get();
        let count = tick.checked_add(1)?;
        if count % every != 0 {
            return None;
        }
        let index = usize::try_from(count / every - 1).ok()?;
        match self.checkpoints.get(index) {
            Some(&(t, hash)) if t == tick => Some(hash),
            _ => self
                .checkpoints
                .binary_search_by_key(&tick, |&(t, _)| t)
                .ok()
                .map(|i| self.checkpoints[i].1),
        }
    }

    fn timestep(&self) -> Timestep {
        self.timestep
    }
}

/// Why [`InputLog::record`] or [`InputLog::end_tick`] refused a tick. A
/// refused call leaves the log as it was, so the log still saves and loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// An event for a tick earlier than one already recorded or ended.
    OutOfOrder {
        /// The tick of the refused event.
        tick: u64,
        /// The earliest tick an event may still be recorded at.
        last: u64,
    },
    /// A tick at or past [`InputLog::MAX_TICKS`], which no log holds.
    PastTickLimit {
        /// The refused tick.
        tick: u64,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RecordError::OutOfOrder { tick, last } => write!(
                f,
                "an event for tick {tick} after tick {last} was already recorded; \
                 a log is written in tick order, at or after tick {last}"
            ),
            RecordError::PastTickLimit { tick } => write!(
                f,
                "tick {tick} is past the end of a log, which holds ticks 0 to {}; \
                 record a longer session as several logs",
                InputLog::<()>::MAX_TICKS - 1
            ),
        }
    }
}

impl std::error::Error for RecordError {}

/// The version of the file form written today, and the only one read.
#[cfg(feature = "serde")]
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
#[cfg(feature = "serde")]
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
#[cfg(feature = "serde")]
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

#[cfg(feature = "serde")]
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

#[cfg(feature = "serde")]
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

#[cfg(feature = "serde")]
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

#[cfg(feature = "serde")]
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
        let (file, rest) = postcard::take_from_bytes::<LogFile<E>>(bytes)
            .map_err(|e| LoadError::Format(e.to_string()))?;
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
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The data is not a readable log (the format's message).
    Format(String),
    /// The log was recorded at another fixed step.
    Timestep(ReplayError),
}

#[cfg(feature = "serde")]
impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Format(message) => write!(f, "not a readable input log: {message}"),
            LoadError::Timestep(error) => error.fmt(f),
        }
    }
}

#[cfg(feature = "serde")]
impl std::error::Error for LoadError {}

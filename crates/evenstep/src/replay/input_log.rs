//! The recorder that comes with the crate: [`InputLog`], events by tick and
//! checkpoints every N ticks, and the [`Input`] events it replays.

#[cfg(feature = "serde")]
mod file;

use std::fmt;
use std::num::NonZeroU64;

use evenstep_core::Timestep;

use crate::input::Delivery;
use crate::replay::{ReplayError, ReplaySource};

#[cfg(feature = "serde")]
pub use crate::replay::input_log::file::LoadError;

/// An input event that can be applied to a state of type `S`.
pub trait Input<S> {
    /// Applies the event, as the live game did before the tick's update.
    fn apply(&self, state: &mut S);

    /// The loop's input delivery this event is, if it is one: replay hands
    /// it to the step's [`StepInput`](crate::input::StepInput). `None` for a
    /// game's own events (the default).
    fn delivery(&self) -> Option<&Delivery> {
        None
    }
}

/// What the loop's input queue delivered to a step: it changes no state by
/// itself, and replay hands it to the step's input, as the live loop did.
impl<S> Input<S> for Delivery {
    fn apply(&self, _: &mut S) {}

    fn delivery(&self) -> Option<&Delivery> {
        Some(self)
    }
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

    /// The step the log was recorded at, which its replay runs at.
    pub fn timestep(&self) -> Timestep {
        self.timestep
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

    fn deliveries(&self, tick: u64, feed: &mut dyn FnMut(&Delivery)) {
        for (_, event) in self.events_at(tick) {
            if let Some(delivery) = Input::<S>::delivery(event) {
                feed(delivery);
            }
        }
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
    /// The loop's fixed step changed while it recorded: a log replays every
    /// tick at the one step it was recorded at, so the ticks from the
    /// change on cannot go into it.
    TimestepChanged {
        /// The first tick run at the new step: the log holds the ticks
        /// before it.
        tick: u64,
        /// The step the log was recorded at.
        recorded: Timestep,
        /// The step the loop changed to.
        new: Timestep,
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
            RecordError::TimestepChanged {
                tick,
                recorded,
                new,
            } => write!(
                f,
                "the step changed from {recorded} to {new} at tick {tick}, and a log \
                 replays at the one step it was recorded at; the log holds ticks 0 to \
                 {}, and a session that changes its step is recorded as one log per step",
                tick.saturating_sub(1)
            ),
        }
    }
}

impl std::error::Error for RecordError {}

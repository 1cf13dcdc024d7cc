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

mod input_log;

use std::fmt;

use evenstep_core::{FrameLoop, Nanos, StepBudget, Timestamp, Timestep};

use crate::contexts::StepContext;
use crate::control::Control;
use crate::input::{Delivery, StepInput};

#[cfg(feature = "serde")]
pub use crate::replay::input_log::LoadError;
pub use crate::replay::input_log::{Input, InputLog, RecordError};

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

    /// Passes each [`Delivery`] the loop's input queue made to the step of
    /// `tick`, in order, to `feed`, which builds the step's
    /// [`StepInput`] as the live loop did. A log
    /// the loop recorded ([`LoopBuilder::record_input`](crate::LoopBuilder::record_input)) has them; a source
    /// without any passes none (the default), and its steps read no input.
    fn deliveries(&self, tick: u64, feed: &mut dyn FnMut(&Delivery)) {
        let _ = (tick, feed);
    }
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
/// use evenstep::{replay, InputLog, StateHash, Timestep, replay::Input};
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
    update: U,
    hash: H,
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
    let frames = FrameLoop::new(timestep, StepBudget::DEFAULT, Timestamp::ZERO);
    Ok(run_ticks(source, state, (&frames, &control), update, hash))
}

/// Runs every tick of `source` with the replay's planner and control in the
/// context, comparing hashes at its checkpoints, up to the first divergence.
fn run_ticks<S, R, U, H>(
    source: &mut R,
    state: &mut S,
    (frames, control): (&FrameLoop, &Control),
    mut update: U,
    mut hash: H,
) -> ReplayReport
where
    R: ReplaySource<S> + ?Sized,
    U: FnMut(&mut S, &StepContext<'_>),
    H: FnMut(&S) -> u64,
{
    let mut checkpoints = 0;
    let mut input = StepInput::default();
    for tick in 0..source.ticks() {
        source.apply_inputs(tick, state);
        input.begin();
        source.deliveries(tick, &mut |delivery| {
            input.take(delivery.clone(), &mut |_| {});
        });
        let step = StepContext {
            timestep: frames.timestep(),
            tick,
            real_time: Nanos::ZERO,
            control,
            frames,
            input: &input,
        };
        update(state, &step);
        if let Some(expected) = source.checkpoint(tick) {
            checkpoints += 1;
            let actual = hash(state);
            if actual != expected {
                return ReplayReport {
                    ticks: tick + 1,
                    checkpoints,
                    divergence: Some(Divergence {
                        tick,
                        expected,
                        actual,
                    }),
                };
            }
        }
    }
    ReplayReport {
        ticks: source.ticks(),
        checkpoints,
        divergence: None,
    }
}

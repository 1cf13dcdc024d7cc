//! Desync forensics: each peer records its confirmed frames (every
//! player's input and the state hash after the frame) in an
//! [`InputLog`], tick = frame, so that a replay offline, from the opening
//! state, names the first frame at which a peer's state left the rules.
//! The session names the frame at which the peers' checksums differed;
//! the logs say which peer went wrong, and where.

use std::collections::VecDeque;
use std::fmt;
use std::num::NonZeroU64;

use evenstep::replay::{Input, ReplayError, ReplayReport};
use evenstep::{InputLog, Rate, StepContext, Timestep, replay};
use ggrs::{Frame, InputStatus};

use crate::checksum;
use crate::game::RollbackGame;

/// Every player's input for one frame, as the game advanced with it: the
/// event a frame log records at the frame's tick.
///
/// A confirmed frame's inputs are those of its last simulation, and their
/// values are final: a prediction that proved wrong was rolled back and
/// the frame simulated again with the input received. Their statuses are
/// what the rules were given, so a confirmed frame can carry
/// [`InputStatus::Predicted`]: ggrs predicted that remote input, the
/// prediction proved right, and ggrs never simulates a frame again for a
/// right prediction. The status of one frame's input thus differs between
/// peers (each peer's own input is never predicted), and the log keeps it
/// as it was so that a replay gives the rules exactly what they saw.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameInputs<I>(pub Vec<(I, InputStatus)>);

/// A game being replayed from a frame log: the game, and the inputs of
/// the frame about to run.
#[derive(Debug)]
pub struct Replayed<G: RollbackGame> {
    /// The game.
    pub game: G,
    inputs: Vec<(G::Input, InputStatus)>,
}

impl<G: RollbackGame> Input<Replayed<G>> for FrameInputs<G::Input> {
    fn apply(&self, state: &mut Replayed<G>) {
        state.inputs.clone_from(&self.0);
    }
}

/// A log of confirmed frames: tick `f` holds frame `f`'s inputs (their
/// values final, their statuses as simulated: see [`FrameInputs`]) and, as
/// its checkpoint, the state hash after frame `f`.
pub type FrameLog<I> = InputLog<FrameInputs<I>>;

/// Replays a frame log into `game` (the opening state the log was
/// recorded from), frame by frame with the recorded inputs, comparing the
/// state hash after every frame with the recorded one. The report's
/// divergence names the first frame whose recorded state the rules do not
/// give.
///
/// # Errors
///
/// [`ReplayError::TimestepMismatch`] if the log was recorded at another
/// fixed step than `timestep`.
pub fn replay_frames<G: RollbackGame>(
    log: &mut FrameLog<G::Input>,
    timestep: Timestep,
    game: G,
) -> Result<(ReplayReport, G), ReplayError> {
    let mut state = Replayed {
        game,
        inputs: Vec::new(),
    };
    let report = replay(
        log,
        timestep,
        &mut state,
        |state: &mut Replayed<G>, step: &StepContext<'_>| {
            state.game.advance(&state.inputs, step.timestep());
        },
        |state: &Replayed<G>| state.game.state_hash(),
    )?;
    Ok((report, state.game))
}

/// The first frame two peers' logs both hold and disagree on: its input
/// values, or the state hash after it. `None` if they agree on every
/// frame both hold. Statuses are not compared: one frame's input is
/// `Predicted` on one peer and `Confirmed` on another when the prediction
/// was right (see [`FrameInputs`]).
///
/// The session names the first frame whose checksums it compared and found
/// different, a multiple of its desync interval; the logs name the frame
/// itself. [`replay_frames`] then says which peer left the rules there.
pub fn first_difference<I: PartialEq>(a: &FrameLog<I>, b: &FrameLog<I>) -> Option<u64> {
    let same_values = |a: &FrameInputs<I>, b: &FrameInputs<I>| {
        a.0.len() == b.0.len() && a.0.iter().zip(&b.0).all(|(x, y)| x.0 == y.0)
    };
    let inputs = a
        .events()
        .iter()
        .zip(b.events())
        .find(|((tick_a, a), (tick_b, b))| tick_a != tick_b || !same_values(a, b))
        .map(|((tick_a, _), (tick_b, _))| *tick_a.min(tick_b));
    let hashes = a
        .checkpoints()
        .iter()
        .zip(b.checkpoints())
        .find(|(a, b)| a != b)
        .map(|((tick_a, _), (tick_b, _))| *tick_a.min(tick_b));
    let both = a.ticks().min(b.ticks());
    [inputs, hashes]
        .into_iter()
        .flatten()
        .filter(|&tick| tick < both)
        .min()
}

/// The first desync the session reported: ggrs compares checksums every
/// interval and reports a desync again at each one, so it is kept once.
///
/// A checksum is the state hash in its low 64 bits and the step rate the
/// frames ran at in its high 64 ([`local_rate`](DesyncReport::local_rate)),
/// so peers whose loops step at different rates (60 Hz against 30 Hz)
/// desync at the first comparison and the report names both rates. With
/// desync detection off, nothing compares: a mismatch of step rates between
/// peers cannot be detected, and shows only as the faster peer waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DesyncReport<A> {
    /// The first frame whose checksums differed.
    pub frame: Frame,
    /// The peer whose checksum differed from this one's.
    pub peer: A,
    /// This peer's checksum at that frame.
    pub local_checksum: u128,
    /// The peer's checksum at that frame.
    pub remote_checksum: u128,
    /// How many desync events the session has reported, this one included.
    pub reports: u64,
}

impl<A> DesyncReport<A> {
    /// The step rate of this peer's frames, from its checksum: `None` for a
    /// rate whose terms do not fit 32 bits each (a step built from an odd
    /// duration), which the checksum carries as a digest.
    pub fn local_rate(&self) -> Option<Rate> {
        checksum::rate_of(self.local_checksum)
    }

    /// The step rate of the peer's frames, from its checksum (as
    /// [`local_rate`](DesyncReport::local_rate)).
    pub fn remote_rate(&self) -> Option<Rate> {
        checksum::rate_of(self.remote_checksum)
    }

    /// Whether the peers' frames ran at different step rates: then the
    /// states may well agree, and the loops are what differ.
    pub fn rates_differ(&self) -> bool {
        self.local_checksum >> 64 != self.remote_checksum >> 64
    }

    /// This peer's state hash at the frame.
    pub fn local_state_hash(&self) -> u64 {
        checksum::state_hash_of(self.local_checksum)
    }

    /// The peer's state hash at the frame.
    pub fn remote_state_hash(&self) -> u64 {
        checksum::state_hash_of(self.remote_checksum)
    }
}

impl<A: fmt::Debug> fmt::Display for DesyncReport<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let frame = self.frame;
        let peer = &self.peer;
        if self.rates_differ() {
            let name = |rate: Option<Rate>| {
                rate.map_or_else(|| "an odd rate".to_owned(), |rate| rate.to_string())
            };
            return write!(
                f,
                "desync at frame {frame} with peer {peer:?}: this peer steps at {}, the peer \
                 at {}; every peer's loop and session must share one timestep",
                name(self.local_rate()),
                name(self.remote_rate())
            );
        }
        write!(
            f,
            "desync at frame {frame} with peer {peer:?}: state hashes {:#018x} here, {:#018x} \
             there (reported {} times)",
            self.local_state_hash(),
            self.remote_state_hash(),
            self.reports
        )
    }
}

/// One simulation of a frame: the frame, every player's input, and the
/// state hash after it.
type Simulated<I> = (Frame, Vec<(I, InputStatus)>, u64);

/// Frames simulated and not yet confirmed, then confirmed ones written to
/// the log in frame order.
#[derive(Debug)]
pub(crate) struct FrameRecorder<I> {
    log: FrameLog<I>,
    /// The newest simulation of each frame not yet confirmed, in frame
    /// order: inputs and the hash after the frame.
    pending: VecDeque<Simulated<I>>,
}

impl<I: Clone> FrameRecorder<I> {
    pub(crate) fn new(timestep: Timestep) -> FrameRecorder<I> {
        FrameRecorder {
            log: InputLog::new(timestep, NonZeroU64::MIN),
            pending: VecDeque::new(),
        }
    }

    /// Frame `frame` was simulated with `inputs`, leaving a state hashing
    /// to `hash`: it replaces any earlier simulation of it and of the
    /// frames after it (a rollback runs them again).
    pub(crate) fn simulated(&mut self, frame: Frame, inputs: &[(I, InputStatus)], hash: u64) {
        while self.pending.back().is_some_and(|(f, _, _)| *f >= frame) {
            self.pending.pop_back();
        }
        self.pending.push_back((frame, inputs.to_vec(), hash));
    }

    /// Frames up to `confirmed` are final: they go to the log.
    pub(crate) fn confirm(&mut self, confirmed: Frame) {
        while self
            .pending
            .front()
            .is_some_and(|(f, _, _)| *f <= confirmed)
        {
            let Some((frame, inputs, hash)) = self.pending.pop_front() else {
                break;
            };
            let Ok(tick) = u64::try_from(frame) else {
                continue;
            };
            // A frame number fits a tick, and frames arrive in order: the
            // log refuses nothing here.
            let _ = self.log.record(tick, FrameInputs(inputs));
            let _ = self.log.end_tick(tick, hash);
        }
    }

    pub(crate) fn log(&self) -> &FrameLog<I> {
        &self.log
    }

    pub(crate) fn into_log(self) -> FrameLog<I> {
        self.log
    }
}

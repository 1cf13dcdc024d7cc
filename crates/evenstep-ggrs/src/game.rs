//! What a game gives rollback: [`RollbackGame`], its inputs, snapshots and
//! rules, and [`RollbackConfig`], the ggrs configuration built from it.

use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;
use std::net::SocketAddr;

use evenstep::{StepContext, Timestep};
use ggrs::{Config, InputStatus, PlayerHandle, PredictRepeatLast};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A game that can be rolled back: its state saves to a snapshot and loads
/// from one, hashes deterministically, and advances one frame from every
/// player's input and nothing else.
///
/// ggrs owns the frame number: it may load an older snapshot and advance
/// the same frames again, several times in one pump, so a game's frame
/// counter lives in its state (and its snapshot), never in the loop's tick.
///
/// # Examples
///
/// ```
/// use evenstep::{StateHash, StepContext, Timestep};
/// use evenstep_ggrs::RollbackGame;
/// use ggrs::{InputStatus, PlayerHandle};
///
/// #[derive(Clone, Default)]
/// struct Race { frame: u32, positions: [i64; 2] }
///
/// impl RollbackGame for Race {
///     type Input = u8; // 1: run
///     type Snapshot = Race;
///     fn save(&self) -> Race { self.clone() }
///     fn load(&mut self, snapshot: &Race) { *self = snapshot.clone(); }
///     fn state_hash(&self) -> u64 {
///         let [a, b] = self.positions;
///         StateHash::new().u32(self.frame).i64(a).i64(b).finish()
///     }
///     fn advance(&mut self, inputs: &[(u8, InputStatus)], _dt: Timestep) {
///         for (position, (input, _)) in self.positions.iter_mut().zip(inputs) {
///             *position += i64::from(*input);
///         }
///         self.frame += 1;
///     }
///     fn local_input(&self, _handle: PlayerHandle, step: &StepContext<'_>) -> u8 {
///         u8::from(step.input().held(evenstep::input::Key::SPACE))
///     }
/// }
/// ```
pub trait RollbackGame: 'static {
    /// One player's input for one frame: the only game data sent over the
    /// network. Its [`Default`] is "no input", which ggrs hands out for a
    /// disconnected player and before a remote player's first input.
    /// Inputs that hold state (buttons held) predict better than inputs that
    /// mark transitions (pressed this frame): ggrs predicts a missing input
    /// by repeating the last one.
    type Input: Copy + PartialEq + Default + Serialize + DeserializeOwned + fmt::Debug + 'static;

    /// A saved state: what [`save`](RollbackGame::save) returns and
    /// [`load`](RollbackGame::load) restores.
    type Snapshot: Clone + 'static;

    /// The state as it is now, frame counter included.
    fn save(&self) -> Self::Snapshot;

    /// Restores a state [`save`](RollbackGame::save) returned.
    fn load(&mut self, snapshot: &Self::Snapshot);

    /// A deterministic hash of the state, equal on every peer for equal
    /// states (see [`evenstep::StateHash`]): the checksum peers compare to
    /// detect a desync, and the checkpoint replay compares.
    fn state_hash(&self) -> u64;

    /// Advances one frame with every player's input, in handle order, and
    /// whether each was received, predicted or stands for a disconnected
    /// player. `timestep` is the fixed step. The rules read these and the
    /// state, nothing else: no clock, no loop tick, no step input, no
    /// global.
    ///
    /// The state must not depend on whether an input was
    /// [`Predicted`](InputStatus::Predicted) or
    /// [`Confirmed`](InputStatus::Confirmed): a right prediction is never
    /// simulated again, so the final simulation of one frame reads
    /// `Predicted` on one peer and `Confirmed` on another (see
    /// [`FrameInputs`](crate::FrameInputs)), and rules that branch on it
    /// desync.
    fn advance(&mut self, inputs: &[(Self::Input, InputStatus)], timestep: Timestep);

    /// The input of local player `handle` for the frame this step stands
    /// for, read from the step's [input](StepContext::input). Called once
    /// per frame and local player, when the frame is first attempted:
    /// ggrs keeps that input, so a frame that then waits runs on a later
    /// step with it, and the steps between give their time back before
    /// their input is read. Each step's input, and so each event, reaches
    /// exactly one frame.
    fn local_input(&self, handle: PlayerHandle, step: &StepContext<'_>) -> Self::Input;
}

/// The ggrs [`Config`] of a [`RollbackGame`] `G` over addresses `A`: `G`'s
/// input and snapshot, and ggrs's [`PredictRepeatLast`] predictor. Build
/// sessions with `SessionBuilder::<RollbackConfig<G, A>>` (or
/// [`session_builder`](crate::session_builder)).
pub struct RollbackConfig<G, A = SocketAddr>(PhantomData<(G, A)>);

impl<G, A> fmt::Debug for RollbackConfig<G, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RollbackConfig")
    }
}

/// What ggrs needs of a peer's address: [`SocketAddr`] for UDP,
/// [`LinkAddr`](crate::LinkAddr) for the in-memory link, or any transport's
/// own.
pub trait PeerAddress: Clone + PartialEq + Eq + Hash + fmt::Debug + 'static {}

impl<A: Clone + PartialEq + Eq + Hash + fmt::Debug + 'static> PeerAddress for A {}

impl<G: RollbackGame, A: PeerAddress> Config for RollbackConfig<G, A> {
    type Input = G::Input;
    type InputPredictor = PredictRepeatLast;
    type State = G::Snapshot;
    type Address = A;
}

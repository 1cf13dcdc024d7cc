//! What a game gives rollback: [`RollbackGame`], its inputs, snapshots and
//! rules, and [`RollbackConfig`], the ggrs configuration built from it.

use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;
use std::net::SocketAddr;

use evenstep::{StepContext, Timestep};
use ggrs::{Config, InputPredictor, InputStatus, PlayerHandle, PredictRepeatLast, SessionBuilder};
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
/// With the `sync-send` feature the game, its input and its snapshot are
/// `Send + Sync` too ([`SyncSend`]), as ggrs's `sync-send` asks.
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
pub trait RollbackGame: SyncSend + 'static {
    /// One player's input for one frame: the only game data sent over the
    /// network. Its [`Default`] is "no input", which ggrs hands out for a
    /// disconnected player and before a remote player's first input.
    /// Inputs that hold state (buttons held) predict better than inputs that
    /// mark transitions (pressed this frame): ggrs predicts a missing input
    /// by repeating the last one.
    type Input: Copy
        + PartialEq
        + Default
        + Serialize
        + DeserializeOwned
        + fmt::Debug
        + SyncSend
        + 'static;

    /// A saved state: what [`save`](RollbackGame::save) returns and
    /// [`load`](RollbackGame::load) restores.
    type Snapshot: Clone + SyncSend + 'static;

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

/// `Send + Sync` with the `sync-send` feature, and nothing without it: the
/// bound this crate puts on a game, its input, its snapshot and a peer's
/// address, mirroring the bound ggrs's own `sync-send` feature puts on its
/// `Config`. Every type meets it that meets those bounds; nothing
/// implements it by hand.
#[cfg(feature = "sync-send")]
pub trait SyncSend: Send + Sync {}

#[cfg(feature = "sync-send")]
impl<T: Send + Sync + ?Sized> SyncSend for T {}

/// `Send + Sync` with the `sync-send` feature, and nothing without it: the
/// bound this crate puts on a game, its input, its snapshot and a peer's
/// address, mirroring the bound ggrs's own `sync-send` feature puts on its
/// `Config`. Every type meets it; nothing implements it by hand.
#[cfg(not(feature = "sync-send"))]
pub trait SyncSend {}

#[cfg(not(feature = "sync-send"))]
impl<T: ?Sized> SyncSend for T {}

/// The ggrs [`Config`] of a [`RollbackGame`] `G` over addresses `A`,
/// predicting a remote input that has not arrived with `P`: `G`'s input
/// and snapshot, and by default ggrs's [`PredictRepeatLast`] (right for
/// inputs that hold state, such as buttons held). ggrs 0.13 takes the
/// predictor as a type, so it is chosen here, once, for every peer: peers
/// may predict differently without a desync (a prediction is only ever
/// corrected), but a predictor that fits the input rolls back less.
///
/// Build sessions with [`RollbackConfig::session_builder`] (any
/// predictor) or [`session_builder`](crate::session_builder) (the
/// default one).
///
/// # Examples
///
/// A game whose inputs mark transitions (pressed this frame) predicts
/// "nothing pressed" better than "the same again":
///
/// ```
/// # use evenstep::{StepContext, Timestep};
/// # use ggrs::{InputStatus, PlayerHandle};
/// use evenstep_ggrs::{LinkAddr, RollbackConfig, RollbackGame};
/// use ggrs::PredictDefault;
/// # struct Taps;
/// # impl RollbackGame for Taps {
/// #     type Input = u8;
/// #     type Snapshot = ();
/// #     fn save(&self) {}
/// #     fn load(&mut self, _: &()) {}
/// #     fn state_hash(&self) -> u64 { 0 }
/// #     fn advance(&mut self, _: &[(u8, InputStatus)], _: Timestep) {}
/// #     fn local_input(&self, _: PlayerHandle, _: &StepContext<'_>) -> u8 { 0 }
/// # }
///
/// let builder = RollbackConfig::<Taps, LinkAddr, PredictDefault>::session_builder(Timestep::HZ_60);
/// ```
pub struct RollbackConfig<G, A = SocketAddr, P = PredictRepeatLast>(PhantomData<Tag<G, A, P>>);

/// What a configuration names, as a function pointer: the configuration is
/// a type-level tag, `Send` and `Sync` whatever it names.
type Tag<G, A, P> = fn() -> (G, A, P);

impl<G, A, P> fmt::Debug for RollbackConfig<G, A, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RollbackConfig")
    }
}

/// What ggrs needs of a peer's address: [`SocketAddr`] for UDP,
/// [`LinkAddr`](crate::LinkAddr) for the in-memory link, or any transport's
/// own (`Send + Sync` too with the `sync-send` feature).
pub trait PeerAddress: Clone + PartialEq + Eq + Hash + fmt::Debug + SyncSend + 'static {}

impl<A: Clone + PartialEq + Eq + Hash + fmt::Debug + SyncSend + 'static> PeerAddress for A {}

/// What a predictor needs to be: ggrs's [`InputPredictor`] of the game's
/// input, as a type.
pub trait Predictor<I>: InputPredictor<I> + 'static {}

impl<I, P: InputPredictor<I> + 'static> Predictor<I> for P {}

impl<G: RollbackGame, A: PeerAddress, P: Predictor<G::Input>> Config for RollbackConfig<G, A, P> {
    type Input = G::Input;
    type InputPredictor = P;
    type State = G::Snapshot;
    type Address = A;
}

impl<G: RollbackGame, A: PeerAddress, P: Predictor<G::Input>> RollbackConfig<G, A, P> {
    /// A ggrs session builder for game `G` over addresses `A` predicting
    /// with `P`, told the frame rate of `timestep`
    /// ([`ggrs_fps`](crate::ggrs_fps)). Add the players, the input delay
    /// and desync detection, then start the session.
    pub fn session_builder(timestep: Timestep) -> SessionBuilder<RollbackConfig<G, A, P>> {
        let builder = SessionBuilder::new();
        // `with_fps` refuses only 0, and `ggrs_fps` is at least 1.
        match builder.with_fps(crate::ggrs_fps(timestep)) {
            Ok(builder) => builder,
            Err(_) => SessionBuilder::new(),
        }
    }
}

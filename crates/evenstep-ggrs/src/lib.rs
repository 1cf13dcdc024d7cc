//! Rollback netcode on [ggrs], driven by evenstep's fixed-step [`Loop`](evenstep::Loop).
//!
//! ggrs runs a game's frames ahead on predicted input, and when a peer's
//! real input differs, loads an older state and runs the frames again.
//! This crate puts a ggrs P2P session on an evenstep loop, so that the
//! loop's exact steps are the session's frames, and adds what a session
//! needs from the loop and what a team needs to trust it:
//!
//! - **Frames on the loop's steps.** [`Rollback`] is the loop's state (the
//!   game and the session); [`Rollback::attach`] polls the network before
//!   each pump's steps and runs one session frame per step, carrying out
//!   ggrs's save, load and advance requests in order. The local input of a
//!   frame is read from the step's [input](evenstep::input), so it is the
//!   input of the wall-clock span that step stands for.
//! - **Waiting keeps its time, and every event.** ggrs takes a frame's
//!   local input the first time the frame is attempted; a frame that then
//!   waits (for a peer in lockstep, at the prediction threshold) runs on
//!   the next step the session can advance it, before that step's own
//!   frame. A step the session cannot advance yet (synchronizing, or the
//!   frame before it still waiting) is given back to the loop before its
//!   input is read: its time stays banked, bounded by the step budget, and
//!   its events wait with it. What the budget cannot hold is dropped and
//!   reported, never a spiral; an event reaches exactly one frame.
//! - **Skips are dropped time.** Frames ggrs recommends skipping are
//!   skipped, exactly as many as recommended, and their time is dropped
//!   and reported.
//! - **Time sync through an exact speed.** A peer running ahead slows its
//!   loop by an exact rational [`Speed`](evenstep::Speed) until the others catch up
//!   ([`TimeSync`]), so ggrs need not recommend skips at all.
//! - **Sync tests.** [`sync_test`] runs a game under ggrs's sync test
//!   session with seeded inputs and names the first frame whose state came
//!   out different when simulated again; a run too short to compare
//!   anything is refused.
//! - **One step rate.** A session is built for one fixed step
//!   ([`session_builder`], [`Rollback::new`]); a loop stepping at another
//!   is refused at its first step ([`StepRateMismatch`]), and peers at
//!   different rates desync at the first checksum compared, the report
//!   naming both rates.
//! - **Desync forensics.** A session reports its first desync once
//!   ([`DesyncReport`]: frame, peer, checksums), and can record every
//!   confirmed frame in a [`FrameLog`]; [`replay_frames`] replays a log
//!   offline and names the first frame whose recorded state the rules do
//!   not give: the frame a peer went wrong. [`first_difference`] names the
//!   first frame two peers' logs disagree on.
//! - **Spectators.** [`Spectator`] runs a ggrs spectator session on a
//!   loop: the host's confirmed frames, one per step, and when behind,
//!   several in one step (see [`Spectator`] for how frames map to steps).
//! - **Transports.** [`LoopbackSocket`], UDP bound to 127.0.0.1 only, and
//!   [`Link`], an in-memory link between two sessions in one process (and
//!   a spectator's third end) with seeded delay and loss, for tests. Across machines, ggrs's own
//!   `UdpNonBlockingSocket` (the crate's `evenstep-ggrs-peer` command is
//!   one peer over it: see the README).
//!
//! The checksum ggrs compares is the game's [`state_hash`](RollbackGame::state_hash)
//! in its low 64 bits and the step rate in its high 64 (see
//! [`DesyncReport`]). With desync detection off nothing compares them, and
//! a mismatch of step rates between peers cannot be detected: it shows
//! only as the faster peer waiting or skipping. ggrs takes a whole frame
//! rate: see [`ggrs_fps`] for what a 59.94 Hz step is told and why it does
//! not matter.
//!
//! # Examples
//!
//! Two peers in one process over an in-memory link, each pumping its own
//! loop on its own manual clock. ggrs reads the real clock only to time
//! its protocol (synchronization retries, round trips), so the peers
//! synchronize once packets have crossed.
//!
//! ```
//! use std::time::Duration;
//! use evenstep::{Loop, ManualClock, PumpKind, StateHash, StepContext, Timestep};
//! use evenstep_ggrs::{Link, LinkConfig, Rollback, RollbackGame, session_builder};
//! use ggrs::{InputStatus, PlayerHandle, PlayerType};
//!
//! #[derive(Clone, Default)]
//! struct Counter { frame: u32, total: u64 }
//!
//! impl RollbackGame for Counter {
//!     type Input = u8;
//!     type Snapshot = Counter;
//!     fn save(&self) -> Counter { self.clone() }
//!     fn load(&mut self, snapshot: &Counter) { *self = snapshot.clone(); }
//!     fn state_hash(&self) -> u64 { StateHash::new().u32(self.frame).u64(self.total).finish() }
//!     fn advance(&mut self, inputs: &[(u8, InputStatus)], _: Timestep) {
//!         self.total += inputs.iter().map(|(input, _)| u64::from(*input)).sum::<u64>();
//!         self.frame += 1;
//!     }
//!     fn local_input(&self, handle: PlayerHandle, _: &StepContext<'_>) -> u8 {
//!         handle as u8 + 1
//!     }
//! }
//!
//! let (link, a, b) = Link::pair(LinkConfig::PERFECT, 7);
//! let mut peers = Vec::new();
//! for (me, end) in [(0, a), (1, b)] {
//!     let peer = end.peer();
//!     let session = session_builder::<Counter, _>(Timestep::HZ_60)
//!         .add_player(PlayerType::Local, me)?
//!         .add_player(PlayerType::Remote(peer), 1 - me)?
//!         .start_p2p_session(end)?;
//!     let clock = ManualClock::new();
//!     let mut game_loop = Loop::builder().clock(clock.clone()).timestep(Timestep::HZ_60).build()?;
//!     Rollback::attach(&mut game_loop);
//!     game_loop.start();
//!     let rollback = Rollback::new(Counter::default(), session, Timestep::HZ_60);
//!     peers.push((game_loop, clock, rollback));
//! }
//! // Bounded: the peers synchronize within a few real milliseconds.
//! for _ in 0..20_000 {
//!     if peers.iter().all(|(_, _, rollback)| rollback.frame() >= 30) {
//!         break;
//!     }
//!     for (game_loop, clock, rollback) in &mut peers {
//!         clock.advance(Duration::from_micros(500));
//!         let _ = game_loop.pump(rollback, PumpKind::Tick);
//!     }
//!     link.advance(1);
//!     std::thread::sleep(Duration::from_micros(200));
//! }
//! assert!(peers.iter().all(|(_, _, rollback)| rollback.frame() >= 30));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! - `sync-send`: mirrors ggrs's own. The game, its input, its snapshot
//!   and a peer's address are `Send + Sync` ([`SyncSend`]), and so are a
//!   [`Rollback`], the in-memory [`Link`] and its ends, so a session can
//!   move to another thread or be shared. ggrs's `sync-send` changes the
//!   bounds of its traits for the whole build: a build that enables
//!   `ggrs/sync-send` anywhere (another crate's dependency included) must
//!   enable this feature too, or this crate does not compile. Off by
//!   default: a session lives on its loop's thread.
//! - `serde`: a [`FrameLog`] and its [`FrameInputs`] serialize, with
//!   evenstep's `serde` (ggrs's `InputStatus` by the names of its
//!   variants), so peers can save their logs and one place can check them
//!   ([`replay_frames`], [`first_difference`]). It also builds the
//!   `evenstep-ggrs-logs` command, which does that for the peer command's
//!   world.
#![forbid(unsafe_code)]

mod checksum;
mod forensics;
mod game;
#[cfg(feature = "serde")]
mod log_file;
mod requests;
mod rollback;
mod seeded;
mod session;
mod spectator;
mod steps;
mod sync_test;
mod time_sync;
mod transport;

pub use forensics::{
    DesyncReport, FrameInputs, FrameLog, Replayed, first_difference, replay_frames,
};
pub use game::{PeerAddress, Predictor, RollbackConfig, RollbackGame, SyncSend};
pub use ggrs;
pub use rollback::{Attached, Rollback, RollbackStats};
pub use session::{StepRateMismatch, ggrs_fps, session_builder};
pub use spectator::{Spectator, SpectatorStats};
pub use sync_test::{SyncTest, SyncTestError, SyncTestReport, sync_test};
pub use time_sync::{TimeSync, TimeSyncError};
pub use transport::link::{Link, LinkAddr, LinkConfig, LinkConfigError, LinkEnd, LinkStats};
pub use transport::loopback::LoopbackSocket;

//! The sync test: a game run under ggrs's `SyncTestSession`, which rolls
//! back and simulates the last frames again at every frame and compares
//! the state hashes, so rules that read anything but their state and
//! inputs (a clock, a global, an unseeded hash map) show at the first
//! frame they change. No network, no clock: the inputs are seeded.

use std::fmt;

use evenstep::Timestep;
use ggrs::{Frame, GgrsError, PlayerHandle, SessionBuilder};

use crate::game::{RollbackConfig, RollbackGame};
use crate::requests::fulfil;
use crate::seeded::SplitMix64;

/// A sync test's shape: how far each frame rolls back, how many frames,
/// how many players, and the seed of their inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncTest {
    /// Frames rolled back and simulated again at every frame: 2 or more
    /// (ggrs compares nothing below 2), at most 15.
    pub check_distance: usize,
    /// Frames to run: at least `check_distance + 3`
    /// ([`SyncTest::least_frames`]), since the session compares a frame
    /// simulated again only at the advance after the rollback that
    /// simulated it, and rolls back first at frame `check_distance + 1`.
    pub frames: u32,
    /// Players, each given seeded input: 1 to 8.
    pub players: usize,
    /// The seed of the inputs.
    pub seed: u64,
}

impl SyncTest {
    /// The fewest frames a sync test at `check_distance` must run to
    /// compare any frame simulated again: `check_distance + 3`. The first
    /// rollback comes at the advance from frame `check_distance + 1`, and
    /// its frames are compared at the next advance.
    pub fn least_frames(check_distance: usize) -> u32 {
        u32::try_from(check_distance)
            .unwrap_or(u32::MAX)
            .saturating_add(3)
    }

    /// Refuses a shape out of range, or a run too short to compare
    /// anything.
    fn check(&self) -> Result<(), SyncTestError> {
        if !(2..=15).contains(&self.check_distance) || !(1..=8).contains(&self.players) {
            return Err(SyncTestError::Shape {
                check_distance: self.check_distance,
                players: self.players,
            });
        }
        let least = SyncTest::least_frames(self.check_distance);
        if self.frames < least {
            return Err(SyncTestError::TooShort {
                frames: self.frames,
                check_distance: self.check_distance,
                least,
            });
        }
        Ok(())
    }
}

/// What a clean sync test ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncTestReport {
    /// Frames run.
    pub frames: u32,
    /// Frames simulated again, over all the rollbacks.
    pub resimulated_frames: u64,
    /// The state hash after the last frame.
    pub final_hash: u64,
}

/// Why a sync test failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyncTestError {
    /// The test's shape is out of range.
    Shape {
        /// The check distance asked for.
        check_distance: usize,
        /// The players asked for.
        players: usize,
    },
    /// The run is too short to compare any frame simulated again: it would
    /// pass whatever the rules read.
    TooShort {
        /// The frames asked for.
        frames: u32,
        /// The check distance asked for.
        check_distance: usize,
        /// The fewest frames that compare anything at that distance
        /// ([`SyncTest::least_frames`]).
        least: u32,
    },
    /// A frame's state hashed differently when simulated again: the
    /// advance into it read something that is neither its state nor its
    /// inputs.
    Mismatch {
        /// The first frame whose state differed: the advance of the frame
        /// before it is the first to break determinism.
        frame: Frame,
        /// Every frame found differing when the session noticed.
        frames: Vec<Frame>,
        /// The frame the session was at when it noticed.
        noticed_at: Frame,
    },
    /// The session refused a request (a bug in this runner or in ggrs).
    Session(GgrsError),
}

impl fmt::Display for SyncTestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyncTestError::Shape {
                check_distance,
                players,
            } => write!(
                f,
                "a sync test with check distance {check_distance} and {players} players: \
                 the check distance must be in 2..=15 and the players in 1..=8"
            ),
            SyncTestError::TooShort {
                frames,
                check_distance,
                least,
            } => write!(
                f,
                "a sync test of {frames} frames at check distance {check_distance} compares no \
                 frame simulated again: it needs at least {least} frames"
            ),
            SyncTestError::Mismatch {
                frame, noticed_at, ..
            } => write!(
                f,
                "frame {frame}'s state differed when simulated again (noticed at frame \
                 {noticed_at}): the advance of frame {} read something outside its state \
                 and inputs",
                frame - 1
            ),
            SyncTestError::Session(error) => write!(f, "the sync test session failed: {error}"),
        }
    }
}

impl std::error::Error for SyncTestError {}

/// Runs `game` from its state now for `test.frames` frames under a sync
/// test session at `timestep`. Each player's input for each frame is
/// `input(frame, handle, random)`, with `random` drawn from `test.seed`.
///
/// # Errors
///
/// [`SyncTestError::Mismatch`] naming the first frame whose state came out
/// different when simulated again; [`SyncTestError::Shape`] if the check
/// distance or the players are out of range; [`SyncTestError::TooShort`]
/// if `test.frames` is under [`SyncTest::least_frames`], so the run would
/// compare nothing.
pub fn sync_test<G, F>(
    game: &mut G,
    timestep: Timestep,
    test: SyncTest,
    mut input: F,
) -> Result<SyncTestReport, SyncTestError>
where
    G: RollbackGame,
    F: FnMut(Frame, PlayerHandle, u64) -> G::Input,
{
    test.check()?;
    let mut session = SessionBuilder::<RollbackConfig<G>>::new()
        .with_num_players(test.players)
        .and_then(|builder| {
            builder
                .with_check_distance(test.check_distance)
                .with_max_prediction_window(test.check_distance + 1)
                .start_synctest_session()
        })
        .map_err(SyncTestError::Session)?;
    let mut random = SplitMix64::new(test.seed);
    let (mut frame, mut resimulated) = (0, 0);
    for _ in 0..test.frames {
        let now = session.current_frame();
        for handle in 0..test.players {
            session
                .add_local_input(handle, input(now, handle, random.next_u64()))
                .map_err(SyncTestError::Session)?;
        }
        let requests = session.advance_frame().map_err(|error| match error {
            GgrsError::MismatchedChecksum {
                current_frame,
                mismatched_frames,
            } => SyncTestError::Mismatch {
                frame: mismatched_frames
                    .iter()
                    .copied()
                    .min()
                    .unwrap_or(current_frame),
                frames: mismatched_frames,
                noticed_at: current_frame,
            },
            other => SyncTestError::Session(other),
        })?;
        let done = fulfil(game, &mut frame, requests, timestep, |_, _, _| {});
        resimulated += done.advances.saturating_sub(1);
    }
    Ok(SyncTestReport {
        frames: test.frames,
        resimulated_frames: resimulated,
        final_hash: game.state_hash(),
    })
}

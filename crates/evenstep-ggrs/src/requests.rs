//! Carrying out what a ggrs session asks, in order: save the state (with
//! the checksum ggrs compares: its hash and the step rate), load a saved
//! one, or advance a frame.

use evenstep::Timestep;
use ggrs::{Frame, GgrsRequest, InputStatus};

use crate::checksum::checksum;

use crate::game::{PeerAddress, Predictor, RollbackConfig, RollbackGame};

/// What a run of requests did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Fulfilled {
    /// Snapshots loaded: rollbacks.
    pub(crate) loads: u64,
    /// Frames advanced.
    pub(crate) advances: u64,
    /// Loads that found no snapshot in their cell (the session asked for a
    /// frame it never had saved): the state was left as it was.
    pub(crate) missing: u64,
}

/// Carries out `requests` on `game`, in order. `frame` is the frame the
/// game's state is at, kept up to date; `advanced` hears of every frame
/// advanced, with its inputs, after the advance.
pub(crate) fn fulfil<G, A, P>(
    game: &mut G,
    frame: &mut Frame,
    requests: Vec<GgrsRequest<RollbackConfig<G, A, P>>>,
    timestep: Timestep,
    mut advanced: impl FnMut(&G, Frame, &[(G::Input, InputStatus)]),
) -> Fulfilled
where
    G: RollbackGame,
    A: PeerAddress,
    P: Predictor<G::Input>,
{
    let mut done = Fulfilled::default();
    for request in requests {
        match request {
            GgrsRequest::SaveGameState { cell, frame: saved } => {
                let checksum = checksum(game.state_hash(), timestep);
                cell.save(saved, Some(game.save()), Some(checksum));
                *frame = saved;
            }
            GgrsRequest::LoadGameState {
                cell,
                frame: loaded,
            } => {
                match cell.load() {
                    Some(snapshot) => game.load(&snapshot),
                    None => done.missing += 1,
                }
                *frame = loaded;
                done.loads += 1;
            }
            GgrsRequest::AdvanceFrame { inputs } => {
                game.advance(&inputs, timestep);
                advanced(game, *frame, &inputs);
                *frame += 1;
                done.advances += 1;
            }
        }
    }
    done
}

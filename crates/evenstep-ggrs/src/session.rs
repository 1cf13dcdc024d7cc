//! Building a session for a loop's fixed step: ggrs takes its frame rate
//! as a whole number of frames per second, and a session on a loop of
//! another step is refused.

use std::fmt;

use evenstep::Timestep;
use ggrs::SessionBuilder;

use crate::game::{PeerAddress, RollbackConfig, RollbackGame};

/// The whole frame rate ggrs is told for `timestep`: its rate rounded to
/// the nearest whole number of frames per second, at least 1 (59.94 Hz,
/// `60000/1001`, is told 60; 29.97 Hz is told 30).
///
/// The rounding does not change a frame: ggrs counts frames, and the loop
/// runs them at the exact step. ggrs uses the rate only to turn half a
/// round trip in milliseconds into frames when it estimates how far ahead
/// the other peers are (and to bound its lockstep wait helper, which this
/// crate does not call). Told 60 for 59.94 Hz, it counts 50 ms one way as
/// 3 frames where the exact rate gives 2.997: an error of 0.1%, far below
/// the whole frames its estimate is made of.
pub fn ggrs_fps(timestep: Timestep) -> usize {
    let rate = timestep.rate();
    let (events, per) = (
        u128::from(rate.events().get()),
        u128::from(rate.per_seconds().get()),
    );
    let rounded = (2 * events + per) / (2 * per);
    usize::try_from(rounded).unwrap_or(usize::MAX).max(1)
}

/// A ggrs session builder for game `G` over addresses `A`, with ggrs's
/// [`PredictRepeatLast`](ggrs::PredictRepeatLast), told the frame rate of
/// `timestep` ([`ggrs_fps`]). Add the players, the input delay and desync
/// detection, then start the session. For another predictor, name it in
/// the configuration: [`RollbackConfig::session_builder`] (a function's
/// type parameters take no default, a type's do).
pub fn session_builder<G: RollbackGame, A: PeerAddress>(
    timestep: Timestep,
) -> SessionBuilder<RollbackConfig<G, A>> {
    RollbackConfig::<G, A>::session_builder(timestep)
}

/// A session refused at a step: it was built for one fixed step
/// ([`session_builder`], [`Rollback::new`](crate::Rollback::new)) and the
/// loop runs another, so its frames would not last what its peers' last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepRateMismatch {
    /// The step the session was built for.
    pub session: Timestep,
    /// The step the loop ran.
    pub game_loop: Timestep,
}

impl fmt::Display for StepRateMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the session was built for {} steps and the loop steps at {}: build the session \
             and the loop with one timestep",
            self.session, self.game_loop
        )
    }
}

impl std::error::Error for StepRateMismatch {}

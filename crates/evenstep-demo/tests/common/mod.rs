//! What the demo's tests share: a started loop running the bounce world's
//! rules on a manual clock.

use evenstep::{Loop, ManualClock};
use evenstep_demo::Bounce;

/// A started loop at the bounce world's step, with its update subscribed,
/// reading `clock`.
pub(crate) fn demo_loop(clock: &ManualClock) -> Loop<Bounce> {
    let mut game_loop = Loop::<Bounce>::builder()
        .clock(clock.clone())
        .timestep(Bounce::timestep())
        .build()
        .unwrap();
    game_loop.on_update(Bounce::update);
    game_loop.start();
    game_loop
}

//! What the demo's tests share: a started loop running the bounce world's
//! rules on a manual clock, recording every step's input, and key presses
//! pushed into its input queue.

use evenstep::input::InputEvent;
use evenstep::{Loop, ManualClock};
use evenstep_demo::{Bounce, WorldInput};

/// A started loop from [`Bounce::loop_builder`], with its update
/// subscribed, reading `clock`.
pub(crate) fn demo_loop(clock: &ManualClock) -> Loop<Bounce> {
    let mut game_loop = Bounce::loop_builder(|bounce: &Bounce| bounce)
        .clock(clock.clone())
        .build()
        .unwrap();
    game_loop.on_update(Bounce::update);
    game_loop.start();
    game_loop
}

/// The key of `input` pressed and let go now, as a frame source pushes it.
#[allow(dead_code, reason = "not every test file taps a key")]
pub(crate) fn tap<S>(game_loop: &mut Loop<S>, input: WorldInput) {
    let key = input.key().into();
    game_loop.push_input_now(InputEvent::Press(key)).unwrap();
    game_loop.push_input_now(InputEvent::Release(key)).unwrap();
}

//! Measured pump cost keeps the count, the
//! cheapest, the costliest and the sum, beside the moving average; a reset
//! forgets them.

use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, Timestep};

#[test]
fn the_cheapest_the_costliest_and_the_sum_of_every_pump_are_kept() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<()>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    // Each step costs 2 ms and each render 1 ms, on the loop's own clock.
    let work = clock.clone();
    game_loop.on_update(move |(), _| work.advance(Duration::from_millis(2)));
    let work = clock.clone();
    game_loop.on_render(move |(), _| work.advance(Duration::from_millis(1)));
    assert_eq!(game_loop.stats().best_frame(), Nanos::ZERO);
    game_loop.start();

    clock.advance(Duration::from_millis(20)); // one step and a render: 3 ms
    let _ = game_loop.pump(&mut (), PumpKind::Paint);
    clock.advance(Duration::from_millis(37)); // two steps and a render: 5 ms
    let _ = game_loop.pump(&mut (), PumpKind::Paint);
    let _ = game_loop.pump(&mut (), PumpKind::Tick); // nothing due: 0 ms

    let stats = game_loop.stats();
    assert_eq!(stats.pumps(), 3);
    assert_eq!(stats.best_frame(), Nanos::ZERO);
    assert_eq!(stats.worst_frame(), Nanos::from_millis(5));
    assert_eq!(stats.frame_cost_total(), Nanos::from_millis(8));

    game_loop.reset_stats();
    let stats = game_loop.stats();
    assert_eq!(
        (stats.best_frame(), stats.frame_cost_total()),
        (Nanos::ZERO, Nanos::ZERO)
    );
}

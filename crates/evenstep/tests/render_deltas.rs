//! What a render is told about time: the
//! frame's own delta, the real and the scaled time since the previous
//! render (more than a frame when a render cap or tick pumps skipped
//! renders), and the simulation time drawn.

use std::cell::RefCell;
use std::num::NonZeroU32;
use std::rc::Rc;
use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, Rate, Speed, Timestep};

/// (frame delta, render delta, scaled render delta) of every render.
type Seen = Rc<RefCell<Vec<(u64, u64, u64)>>>;

fn watched(clock: &ManualClock) -> (Loop<()>, Seen) {
    let mut game_loop = Loop::<()>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    let seen = Seen::default();
    let sink = Rc::clone(&seen);
    game_loop.on_render(move |(), frame| {
        sink.borrow_mut().push((
            frame.frame_delta().as_nanos(),
            frame.render_delta().as_nanos(),
            frame.scaled_render_delta().as_nanos(),
        ));
    });
    game_loop.start();
    (game_loop, seen)
}

#[test]
fn the_time_since_the_previous_render_spans_the_pumps_that_did_not_render() {
    let clock = ManualClock::new();
    let (mut game_loop, seen) = watched(&clock);
    game_loop.set_speed(Speed::HALF);
    let mut pump = |kind, ms| {
        clock.advance(Duration::from_millis(ms));
        let _ = game_loop.pump(&mut (), kind);
    };
    pump(PumpKind::Paint, 10);
    pump(PumpKind::Tick, 20);
    pump(PumpKind::Tick, 30);
    pump(PumpKind::Paint, 16);
    assert_eq!(
        *seen.borrow(),
        [
            (10_000_000, 10_000_000, 5_000_000),
            (16_000_000, 66_000_000, 33_000_000),
        ]
    );
}

#[test]
fn a_render_cap_makes_the_render_delta_span_the_frames_it_skipped() {
    let clock = ManualClock::new();
    let (mut game_loop, seen) = watched(&clock);
    game_loop.set_render_cap(NonZeroU32::new(30).map(Rate::hz));
    for _ in 0..6 {
        clock.advance(Duration::from_nanos(16_666_667));
        let _ = game_loop.pump(&mut (), PumpKind::Paint);
    }
    let seen = seen.borrow();
    assert_eq!(seen.len(), 3);
    for &(frame, render, scaled) in &seen[1..] {
        assert_eq!(frame, 16_666_667);
        assert_eq!(render, 33_333_334);
        assert_eq!(scaled, render);
    }
    assert_eq!(game_loop.sim_time(), Nanos::from_millis(100));
}

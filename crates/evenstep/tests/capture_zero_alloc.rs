//! The allocation contract of recording a capture: once started, a steady
//! pump whose frames are reported and written allocates nothing (a fixed
//! ring of the frames in flight, each row made on the stack), and a
//! negative control proves the counter sees a writer that does.

use std::io::{self, Write};

use std::time::Duration;

use evenstep::{Loop, ManualClock, PumpKind, Timestamp};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations_in;

/// Allocations made by 10,000 reported frames recorded into `out`, after a
/// warm-up, and the rows written by then.
fn recorded(out: impl Write + 'static) -> (usize, u64) {
    let clock = ManualClock::new();
    let mut game = Loop::<()>::builder().clock(clock.clone()).build().unwrap();
    let _ = game.record_capture(out);
    game.start();
    let frame = |game: &mut Loop<()>| {
        clock.advance(Duration::from_nanos(16_666_667));
        let report = game.pump(&mut (), PumpKind::Paint).report().unwrap();
        let shown = Timestamp::from_nanos(report.now.as_nanos() + 25_000_000);
        game.frame_shown(report.plan.frame(), shown).unwrap();
    };
    for _ in 0..100 {
        frame(&mut game);
    }
    let count = allocations_in(|| {
        for _ in 0..10_000 {
            frame(&mut game);
        }
    });
    (count, game.capture_summary().unwrap().rows)
}

#[test]
fn recording_a_reported_frame_allocates_nothing() {
    let (count, rows) = recorded(io::sink());
    assert_eq!(rows, 10_100 - 32, "every frame out of flight was written");
    assert_eq!(count, 0, "recording allocated {count} times");
}

#[test]
fn the_counter_sees_a_writer_that_allocates() {
    // An unbuffered `Vec` grows as rows arrive: the same run must count it.
    let (count, rows) = recorded(Vec::new());
    assert_eq!(rows, 10_100 - 32);
    assert!(count > 0, "the counter missed the writer's allocations");
}

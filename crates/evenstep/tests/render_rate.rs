//! The loop's render rate: a render cap that need not be whole, and the
//! governor wired in, lowering renders while paint pumps miss their refresh
//! and restoring them after, never above the game's own cap.

use std::cell::Cell;
use std::num::NonZeroU32;
use std::rc::Rc;
use std::time::Duration;

use evenstep::{Loop, ManualClock, PumpKind, Rate, pacing::FrameRateGovernor};

fn n(value: u32) -> NonZeroU32 {
    NonZeroU32::new(value).unwrap()
}

/// A loop counting its renders, with the clock to drive it.
fn counted(builder: evenstep::LoopBuilder<()>) -> (Loop<()>, ManualClock, Rc<Cell<u32>>) {
    let clock = ManualClock::new();
    let mut game_loop = builder.clock(clock.clone()).build().unwrap();
    let renders = Rc::new(Cell::new(0));
    let count = Rc::clone(&renders);
    game_loop.on_render(move |(), _| count.set(count.get() + 1));
    game_loop.start();
    (game_loop, clock, renders)
}

fn paint(game_loop: &mut Loop<()>, clock: &ManualClock, delta: u64, times: u32) {
    for _ in 0..times {
        clock.advance(Duration::from_nanos(delta));
        let _ = game_loop.pump(&mut (), PumpKind::Paint);
    }
}

#[test]
fn a_29_97_cap_from_the_builder_draws_30000_frames_in_1001_seconds_of_60_hz() {
    let (mut game_loop, clock, renders) =
        counted(Loop::builder().render_cap(Some(Rate::ratio(30_000, 1_001).unwrap())));
    // 60,060 refreshes in 1,001 s: 16,666,666⅔ ns apart on average.
    for k in 1..=60_060_u64 {
        clock.set(evenstep::Timestamp::from_nanos(
            k * 1_001_000_000_000 / 60_060,
        ));
        let _ = game_loop.pump(&mut (), PumpKind::Paint);
    }
    assert_eq!(renders.get(), 30_000);
    assert_eq!(
        game_loop
            .render_cap()
            .map(|cap| (cap.events().get(), cap.per_seconds().get())),
        Some((30_000, 1_001))
    );
}

#[test]
fn the_governor_halves_renders_while_frames_miss_and_restores_them_after() {
    let eager = FrameRateGovernor::with_thresholds(n(8), n(2), n(30), n(2));
    let (mut game_loop, clock, renders) = counted(Loop::builder().governor(eager));
    paint(&mut game_loop, &clock, 16_666_667, 40); // learn the display
    assert_eq!(game_loop.governor().unwrap().divisor(), 1);
    paint(&mut game_loop, &clock, 33_333_334, 2); // two misses
    assert_eq!(game_loop.governor().unwrap().divisor(), 2);
    let before = renders.get();
    paint(&mut game_loop, &clock, 16_666_667, 20);
    assert_eq!(renders.get() - before, 10); // every other frame
    paint(&mut game_loop, &clock, 16_666_667, 10); // 30 clean frames in all
    assert_eq!(game_loop.governor().unwrap().divisor(), 1);
    let before = renders.get();
    paint(&mut game_loop, &clock, 16_666_667, 20);
    assert_eq!(renders.get() - before, 20);
}

#[test]
fn the_governor_never_raises_renders_above_the_games_cap() {
    let eager = FrameRateGovernor::with_thresholds(n(8), n(2), n(1_000), n(2));
    let (mut game_loop, clock, renders) = counted(
        Loop::builder()
            .render_cap(Some(Rate::hz(n(20))))
            .governor(eager),
    );
    paint(&mut game_loop, &clock, 16_666_667, 40);
    paint(&mut game_loop, &clock, 33_333_334, 2);
    assert_eq!(game_loop.governor().unwrap().divisor(), 2); // it would allow 30
    let before = renders.get();
    paint(&mut game_loop, &clock, 16_666_667, 60);
    assert_eq!(renders.get() - before, 20); // the game's 20 a second holds
    game_loop.set_governor(None);
    game_loop.set_render_cap(None);
    let before = renders.get();
    paint(&mut game_loop, &clock, 16_666_667, 60);
    assert_eq!(renders.get() - before, 60);
}

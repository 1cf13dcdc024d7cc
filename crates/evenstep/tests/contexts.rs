//! What callbacks are told, in the units a reader expects: the step as a
//! duration and as an exact timestep, the blend factor as `f32` and `f64`;
//! and what a catch-up leaves in the bank.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, Timestep};

#[test]
fn an_update_is_told_the_step_as_a_duration_and_as_an_exact_timestep() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Vec<(Duration, Timestep)>>::builder()
        .clock(clock.clone())
        .build()
        .unwrap();
    game_loop.on_update(|seen, step| seen.push((step.dt(), step.timestep())));
    game_loop.start();
    clock.advance(Duration::from_millis(20));
    let mut seen = Vec::new();
    let _ = game_loop.pump(&mut seen, PumpKind::Paint);
    // 16,666,666⅔ ns, rounded down as a duration.
    assert_eq!(seen, [(Duration::from_nanos(16_666_666), Timestep::HZ_60)]);
}

#[test]
fn a_render_is_told_the_blend_factor_in_both_widths() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<()>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_20)
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    let seen = Rc::new(Cell::new((0.0_f32, 0.0_f64)));
    let sink = Rc::clone(&seen);
    game_loop.on_render(move |(), frame| sink.set((frame.alpha_f32(), frame.alpha_f64())));
    game_loop.start();
    clock.advance(Duration::from_millis(60)); // one step and a fifth
    let _ = game_loop.pump(&mut (), PumpKind::Paint);
    assert_eq!(seen.get(), (0.2, 0.2));
}

#[test]
fn a_catch_up_reports_the_whole_bank_it_leaves() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<()>::builder()
        .clock(clock)
        .timestep(Timestep::HZ_20)
        // Centred, so the bank starts at half a step.
        .pacing(Pacing::CENTRED)
        .build()
        .unwrap();
    game_loop.start();
    // Centred: 25 ms banked from the start, plus 1,030 ms: 21 steps, 5 ms left.
    let done = game_loop
        .catch_up(&mut (), Duration::from_millis(1_030))
        .unwrap();
    assert_eq!(done.steps, 21);
    assert_eq!(done.remainder, Nanos::from_millis(5));
}

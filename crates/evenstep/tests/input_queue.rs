//! The input queue's contract, with exact expected values from a hand-driven
//! clock: each event reaches the one step whose wall-clock span holds it
//! (never one from its past, however many steps a frame runs), what a step
//! reads of held buttons, presses, motion, the pointer, text and focus,
//! what a pause, a stall and a catch-up do with input, and the errors.

use std::time::Duration;

use evenstep::input::{Button, InputError, InputEvent, Key, MouseButton};
use evenstep::{Loop, ManualClock, Pacing, PumpKind, Speed, Timestamp};

/// What the steps saw: each step's tick and events, and what it read of
/// the space bar (pressed, held, released).
#[derive(Default)]
struct Seen {
    steps: Vec<(u64, Vec<InputEvent>)>,
    space: Vec<(u64, bool, bool, bool)>,
    paused: Vec<Vec<InputEvent>>,
}

fn ms(millis: u64) -> Timestamp {
    Timestamp::from_nanos(millis * 1_000_000)
}

fn press(key: Key) -> InputEvent {
    InputEvent::Press(Button::Key(key))
}

fn release(key: Key) -> InputEvent {
    InputEvent::Release(Button::Key(key))
}

/// A 60 Hz loop with pacing off (so a step's span is its plain share of
/// the frame), recording what its steps and paused hooks see.
fn recording_loop(clock: &ManualClock) -> Loop<Seen> {
    let mut game_loop = Loop::<Seen>::builder()
        .clock(clock.clone())
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    game_loop.on_update(|seen, step| {
        let input = step.input();
        seen.steps.push((step.tick(), input.events().to_vec()));
        seen.space.push((
            step.tick(),
            input.pressed(Key::SPACE),
            input.held(Key::SPACE),
            input.released(Key::SPACE),
        ));
    });
    game_loop.on_paused_input(|seen, events| seen.paused.push(events.to_vec()));
    game_loop.start();
    game_loop
}

/// A clock at zero, a recording loop started on it, and what it has seen.
fn rig() -> (ManualClock, Loop<Seen>, Seen) {
    let clock = ManualClock::new();
    let game_loop = recording_loop(&clock);
    (clock, game_loop, Seen::default())
}

fn pump_at(game_loop: &mut Loop<Seen>, seen: &mut Seen, clock: &ManualClock, at: Timestamp) {
    clock.set(at);
    let _ = game_loop.pump(seen, PumpKind::Paint);
}

#[test]
fn a_three_step_frame_hands_each_event_to_the_step_whose_span_holds_it() {
    let (clock, mut game_loop, _) = rig();
    // Steps end at 16.67, 33.33 and 50 ms.
    game_loop.push_input(ms(20), press(Key::SPACE)).unwrap();
    game_loop.push_input(ms(40), release(Key::SPACE)).unwrap();
    let mut seen = Seen::default();
    pump_at(&mut game_loop, &mut seen, &clock, ms(50));
    assert_eq!(
        seen.space,
        [
            (0, false, false, false),
            (1, true, true, false),
            (2, false, false, true)
        ]
    );
}

#[test]
fn a_press_in_a_frame_with_no_step_waits_for_the_next_step_and_is_seen_once() {
    let (clock, mut game_loop, mut seen) = rig();
    game_loop.push_input(ms(5), press(Key::SPACE)).unwrap();
    pump_at(&mut game_loop, &mut seen, &clock, ms(10)); // no step
    assert!(seen.steps.is_empty());
    pump_at(&mut game_loop, &mut seen, &clock, ms(12)); // no step
    pump_at(&mut game_loop, &mut seen, &clock, ms(20)); // tick 0, ending at 16.67 ms
    pump_at(&mut game_loop, &mut seen, &clock, ms(40)); // tick 1
    assert_eq!(
        seen.space,
        [(0, true, true, false), (1, false, true, false)]
    );
}

#[test]
fn an_event_after_the_last_steps_end_waits_for_the_step_that_holds_it() {
    let (clock, mut game_loop, mut seen) = rig();
    // The pump at 20 ms runs tick 0, which ends at 16.67 ms: an event at
    // 18 ms is in tick 1's span, and one at 25 ms is after the pump's time.
    game_loop.push_input(ms(18), press(Key::A)).unwrap();
    game_loop.push_input(ms(25), press(Key::D)).unwrap();
    pump_at(&mut game_loop, &mut seen, &clock, ms(20));
    assert_eq!(seen.steps, [(0, vec![])]);
    assert_eq!(game_loop.waiting_input().len(), 2);
    pump_at(&mut game_loop, &mut seen, &clock, ms(40)); // tick 1 ends at 33.33 ms
    assert_eq!(
        seen.steps,
        [(0, vec![]), (1, vec![press(Key::A), press(Key::D)])]
    );
}

#[test]
fn a_tap_inside_one_step_is_a_press_that_is_not_held() {
    let (clock, mut game_loop, mut seen) = rig();
    game_loop.push_input(ms(2), press(Key::SPACE)).unwrap();
    game_loop.push_input(ms(3), release(Key::SPACE)).unwrap();
    game_loop.push_input(ms(4), press(Key::SPACE)).unwrap();
    game_loop.push_input(ms(5), release(Key::SPACE)).unwrap();
    pump_at(&mut game_loop, &mut seen, &clock, ms(17));
    assert_eq!(seen.space, [(0, true, false, true)]);
    assert_eq!(seen.steps[0].1.len(), 4);
}

#[test]
fn motion_and_the_wheel_are_summed_the_pointer_is_the_last_and_text_comes_in_order() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Vec<String>>::builder()
        .clock(clock.clone())
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    game_loop.on_update(|seen, step| {
        let input = step.input();
        seen.push(format!(
            "{} {:?} {:?} {:?} {:?} {} {}",
            step.tick(),
            input.motion(),
            input.wheel(),
            input.pointer(),
            input.text().collect::<Vec<_>>(),
            input.repeats(Key::BACKSPACE),
            input.held(MouseButton::LEFT),
        ));
    });
    game_loop.start();
    let events = [
        InputEvent::Motion { dx: 1.5, dy: -2.0 },
        InputEvent::Pointer { x: 10.0, y: 20.0 },
        InputEvent::Text("h".into()),
        InputEvent::Motion { dx: 0.25, dy: 4.0 },
        InputEvent::Wheel { dx: 0.0, dy: 3.0 },
        InputEvent::Pointer { x: 11.0, y: 21.0 },
        InputEvent::Press(Button::Mouse(MouseButton::LEFT)),
        InputEvent::Text("i".into()),
        InputEvent::Press(Button::Key(Key::BACKSPACE)),
        InputEvent::Repeat(Button::Key(Key::BACKSPACE)),
        InputEvent::Repeat(Button::Key(Key::BACKSPACE)),
        InputEvent::Wheel { dx: 1.0, dy: -1.0 },
    ];
    for (i, event) in (1..).zip(events) {
        game_loop.push_input(ms(i), event).unwrap();
    }
    let mut seen = Vec::new();
    clock.set(ms(34)); // ticks 0 (to 16.67 ms) and 1 (to 33.33 ms)
    let _ = game_loop.pump(&mut seen, PumpKind::Paint);
    assert_eq!(
        seen,
        [
            r#"0 (1.75, 2.0) (1.0, 2.0) Some((11.0, 21.0)) ["h", "i"] 2 true"#,
            "1 (0.0, 0.0) (0.0, 0.0) Some((11.0, 21.0)) [] 0 true",
        ]
    );
}

#[test]
fn losing_focus_releases_everything_held_and_the_step_sees_each_release() {
    let (clock, mut game_loop, mut seen) = rig();
    game_loop.push_input(ms(1), press(Key::SPACE)).unwrap();
    game_loop.push_input(ms(2), press(Key::W)).unwrap();
    pump_at(&mut game_loop, &mut seen, &clock, ms(17));
    game_loop.push_input(ms(20), InputEvent::FocusLost).unwrap();
    pump_at(&mut game_loop, &mut seen, &clock, ms(34));
    pump_at(&mut game_loop, &mut seen, &clock, ms(51));
    assert_eq!(
        seen.space,
        [
            (0, true, true, false),
            (1, false, false, true),
            (2, false, false, false)
        ]
    );
    // Released in the buttons' fixed order: keys by name.
    assert_eq!(
        seen.steps[1].1,
        [release(Key::W), release(Key::SPACE), InputEvent::FocusLost]
    );
}

#[test]
fn a_paused_pump_hands_its_input_to_the_hooks_and_the_next_step_sees_only_what_is_held() {
    let (clock, mut game_loop, mut seen) = rig();
    game_loop.push_input(ms(1), press(Key::W)).unwrap();
    pump_at(&mut game_loop, &mut seen, &clock, ms(17)); // tick 0: W held
    game_loop.pause();
    // During the pause: Escape tapped for the menu, W let go, Space pressed
    // and held, the pointer moved.
    game_loop.push_input(ms(20), press(Key::ESCAPE)).unwrap();
    game_loop.push_input(ms(21), release(Key::ESCAPE)).unwrap();
    game_loop.push_input(ms(22), release(Key::W)).unwrap();
    game_loop.push_input(ms(23), press(Key::SPACE)).unwrap();
    game_loop
        .push_input(ms(24), InputEvent::Pointer { x: 3.0, y: 4.0 })
        .unwrap();
    pump_at(&mut game_loop, &mut seen, &clock, ms(30));
    assert_eq!(seen.paused.len(), 1);
    assert_eq!(seen.paused[0].len(), 5);
    assert_eq!(game_loop.waiting_input().len(), 0);
    game_loop.resume();
    pump_at(&mut game_loop, &mut seen, &clock, ms(40)); // the resume accounts for nothing
    pump_at(&mut game_loop, &mut seen, &clock, ms(60)); // tick 1
    assert_eq!(seen.steps, [(0, vec![press(Key::W)]), (1, vec![])]);
    assert_eq!(
        seen.space,
        [(0, false, false, false), (1, false, true, false)]
    );
}

#[test]
fn a_queued_step_while_paused_takes_the_input_due_by_its_pump() {
    let (clock, mut game_loop, mut seen) = rig();
    game_loop.pause();
    pump_at(&mut game_loop, &mut seen, &clock, ms(5));
    game_loop.push_input(ms(8), press(Key::SPACE)).unwrap();
    game_loop.queue_steps(1);
    pump_at(&mut game_loop, &mut seen, &clock, ms(10));
    assert_eq!(seen.space, [(0, true, true, false)]);
    assert!(seen.paused.is_empty());
}

#[test]
fn input_in_time_the_budget_dropped_reaches_the_steps_that_ran() {
    let (clock, mut game_loop, mut seen) = rig();
    // A two-second stall: the budget runs 5 steps and drops the rest. The
    // stall's wall time is spread over the 5 steps: 400 ms each. The
    // events are pushed as the stall ends.
    clock.set(ms(2_000));
    game_loop.push_input(ms(100), press(Key::A)).unwrap();
    game_loop.push_input(ms(900), press(Key::D)).unwrap();
    game_loop.push_input(ms(1_999), press(Key::S)).unwrap();
    pump_at(&mut game_loop, &mut seen, &clock, ms(2_000));
    assert_eq!(
        seen.steps,
        [
            (0, vec![press(Key::A)]),
            (1, vec![]),
            (2, vec![press(Key::D)]),
            (3, vec![]),
            (4, vec![press(Key::S)]),
        ]
    );
}

#[test]
fn a_catch_up_runs_steps_that_take_no_input() {
    let (clock, mut game_loop, mut seen) = rig();
    game_loop.push_input(ms(1), press(Key::SPACE)).unwrap();
    let _ = game_loop.catch_up(&mut seen, Duration::from_millis(50));
    assert_eq!(seen.steps, [(0, vec![]), (1, vec![]), (2, vec![])]);
    pump_at(&mut game_loop, &mut seen, &clock, ms(17));
    assert_eq!(seen.steps[3], (3, vec![press(Key::SPACE)]));
}

#[test]
fn slow_motion_stretches_each_steps_span_by_the_speed() {
    let (clock, mut game_loop, _) = rig();
    game_loop.set_speed(Speed::new(1, 2).unwrap());
    let mut seen = Seen::default();
    pump_at(&mut game_loop, &mut seen, &clock, ms(1)); // the speed applies
    // At half speed a step stands for 33.33 ms of wall time: tick 0 ends
    // at about 34.33 ms, tick 1 at 67.67 ms.
    game_loop.push_input(ms(30), press(Key::A)).unwrap();
    game_loop.push_input(ms(40), press(Key::D)).unwrap();
    pump_at(&mut game_loop, &mut seen, &clock, ms(68));
    assert_eq!(
        seen.steps,
        [(0, vec![press(Key::A)]), (1, vec![press(Key::D)])]
    );
}

#[test]
fn an_event_stamped_earlier_than_one_queued_takes_the_queued_events_time() {
    let (clock, mut game_loop, _) = rig();
    game_loop.push_input(ms(20), press(Key::A)).unwrap();
    game_loop.push_input(ms(5), press(Key::D)).unwrap();
    let times: Vec<_> = game_loop.waiting_input().map(|(at, _)| at).collect();
    assert_eq!(times, [ms(20), ms(20)]);
    let mut seen = Seen::default();
    pump_at(&mut game_loop, &mut seen, &clock, ms(34));
    assert_eq!(
        seen.steps,
        [(0, vec![]), (1, vec![press(Key::A), press(Key::D)])]
    );
}

#[test]
fn a_value_that_is_not_finite_is_refused_with_the_rule_and_the_queue_is_unchanged() {
    let (_, mut game_loop, _) = rig();
    for event in [
        InputEvent::Motion {
            dx: f64::NAN,
            dy: 0.0,
        },
        InputEvent::Wheel {
            dx: 0.0,
            dy: f64::INFINITY,
        },
        InputEvent::Pointer {
            x: f64::NEG_INFINITY,
            y: 0.0,
        },
    ] {
        let error = game_loop.push_input(ms(1), event).unwrap_err();
        assert_eq!(error, InputError::NotFinite);
        assert!(error.to_string().contains("must be finite"), "{error}");
    }
    assert_eq!(game_loop.waiting_input().len(), 0);
}

#[test]
fn a_stamp_up_to_a_second_after_the_clock_is_taken_and_one_nanosecond_more_is_refused() {
    let (clock, mut game_loop, _) = rig();
    clock.set(ms(100));
    let bound = Timestamp::from_nanos(100_000_000 + 1_000_000_000);
    game_loop.push_input(bound, press(Key::A)).unwrap();
    let past = Timestamp::from_nanos(bound.as_nanos() + 1);
    let error = game_loop.push_input(past, press(Key::D)).unwrap_err();
    assert_eq!(
        error,
        InputError::TooFarAhead {
            ahead: Duration::from_nanos(1_000_000_001)
        }
    );
    let message = error.to_string();
    assert!(message.contains("1000000001 ns"), "{message}");
    assert!(message.contains("at most 1000000000 ns"), "{message}");
    assert_eq!(evenstep::input::MAX_AHEAD, Duration::from_secs(1));
    // So is the largest stamp, and nothing is queued for it.
    let error = game_loop
        .push_input(Timestamp::MAX, press(Key::D))
        .unwrap_err();
    assert!(matches!(error, InputError::TooFarAhead { .. }), "{error}");
    assert_eq!(game_loop.waiting_input().len(), 1);
}

#[test]
fn the_bound_is_measured_from_the_clock_at_the_push_not_from_the_last_pump() {
    // A hidden tab pumps rarely: a stamp a minute after the last pump is
    // fine once the clock has moved on that far.
    let (clock, mut game_loop, mut seen) = rig();
    pump_at(&mut game_loop, &mut seen, &clock, ms(50));
    clock.set(ms(60_050));
    game_loop.push_input(ms(60_040), press(Key::SPACE)).unwrap();
    // And a pump stamped ahead of the clock moves the loop's time with it.
    let _ = game_loop.pump_at(&mut seen, PumpKind::Paint, ms(63_000));
    game_loop.push_input(ms(63_900), press(Key::A)).unwrap();
    assert_eq!(game_loop.waiting_input().len(), 1);
}

#[test]
fn an_event_stamped_far_ahead_no_longer_holds_back_the_events_after_it() {
    // A clock in the wrong unit: the bad stamp is refused, so presses made
    // after it reach the steps whose spans hold them.
    let (clock, mut game_loop, mut seen) = rig();
    assert!(game_loop.push_input(ms(60_000), press(Key::A)).is_err());
    game_loop.push_input(ms(10), press(Key::SPACE)).unwrap();
    pump_at(&mut game_loop, &mut seen, &clock, ms(50));
    assert_eq!(seen.space[0], (0, true, true, false));
}

#[test]
fn a_full_queue_refuses_an_event_and_says_to_pump() {
    let (_, mut game_loop, _) = rig();
    for _ in 0..evenstep::input::MAX_WAITING {
        game_loop.push_input(ms(1), InputEvent::FocusLost).unwrap();
    }
    let error = game_loop
        .push_input(ms(1), InputEvent::FocusLost)
        .unwrap_err();
    assert_eq!(error, InputError::Full);
    assert!(error.to_string().contains("pump the loop"), "{error}");
    assert_eq!(
        game_loop.waiting_input().len(),
        evenstep::input::MAX_WAITING
    );
}

#[test]
fn a_key_name_outside_the_rule_is_refused_naming_the_rule() {
    for (name, says) in [
        ("", "1 to 24"),
        ("NumpadMemorySubtractAndMore", "1 to 24"),
        ("Key-W", "at byte 3"),
        ("Clé", "at byte 2"),
    ] {
        let error = Key::named(name).unwrap_err();
        assert!(error.to_string().contains(says), "{name:?}: {error}");
    }
    assert_eq!(Key::named("KeyW"), Ok(Key::W));
    assert_eq!(
        Key::named("NumpadMemorySubtract").unwrap().to_string(),
        "NumpadMemorySubtract"
    );
}

#[test]
fn push_input_now_stamps_the_event_at_the_clocks_reading() {
    let (clock, mut game_loop, _) = rig();
    clock.set(ms(7));
    game_loop.push_input_now(press(Key::SPACE)).unwrap();
    let times: Vec<_> = game_loop.waiting_input().map(|(at, _)| at).collect();
    assert_eq!(times, [ms(7)]);
}

/// The frame (counted from the press's) whose step reads a press stamped
/// `before` ns ahead of a pump, on a steady 60 Hz display at 60 steps/s
/// under `pacing`.
fn frames_a_press_waits(pacing: Pacing, before: u64) -> usize {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Vec<u64>>::builder()
        .clock(clock.clone())
        .pacing(pacing)
        .build()
        .unwrap();
    game_loop.on_update(|pressed, step| {
        if step.input().pressed(Key::SPACE) {
            pressed.push(step.tick());
        }
    });
    game_loop.start();
    // Rounded up, so with pacing off every frame runs its step.
    let refresh = |k: u64| Timestamp::from_nanos((k * 1_000_000_000).div_ceil(60));
    let mut pressed = Vec::new();
    // Two seconds to lock onto the display.
    for k in 1..=120 {
        clock.set(refresh(k));
        let _ = game_loop.pump(&mut pressed, PumpKind::Paint);
    }
    let press_frame = 121;
    let at = Timestamp::from_nanos(refresh(press_frame).as_nanos() - before);
    clock.set(at);
    game_loop.push_input(at, press(Key::SPACE)).unwrap();
    for k in press_frame..press_frame + 3 {
        clock.set(refresh(k));
        let _ = game_loop.pump(&mut pressed, PumpKind::Paint);
        if !pressed.is_empty() {
            return (k - press_frame) as usize;
        }
    }
    panic!("no step read the press");
}

#[test]
fn under_locked_pacing_a_press_in_the_last_half_step_before_a_pump_waits_one_frame() {
    // The numbers the input docs give: at 60 steps/s on a 60 Hz display the
    // bank sits half a step (8.33 ms) full after a frame, so this frame's
    // step ends 8.33 ms before its pump.
    for before in [500_000, 4_000_000, 8_000_000, 8_300_000] {
        assert_eq!(
            frames_a_press_waits(Pacing::LOCKED, before),
            1,
            "{before} ns"
        );
        assert_eq!(frames_a_press_waits(Pacing::OFF, before), 0, "{before} ns");
    }
    for before in [8_400_000, 12_000_000, 16_000_000] {
        assert_eq!(
            frames_a_press_waits(Pacing::LOCKED, before),
            0,
            "{before} ns"
        );
        assert_eq!(frames_a_press_waits(Pacing::OFF, before), 0, "{before} ns");
    }
    assert_eq!(Pacing::default(), Pacing::LOCKED);
}

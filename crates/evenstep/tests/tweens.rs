//! Tweens on the fixed step: the last update is exactly the target, then the
//! completion runs exactly once; a slot displaces its incumbent without its
//! completion; cancel stops a tween cold; progress counts steps, so a tween
//! lands on the same tick with the same values at any frame rate; the
//! completions a panicking completion leaves run once each, in order, at the
//! next step; and the driver steps them from an update subscriber.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use evenstep::{
    Ease, Interpolated, Loop, ManualClock, PumpKind, Timestep, Tween, Tweens, tween::Slot,
};

#[derive(Default, Debug)]
struct Panel {
    values: Vec<f64>,
    completions: Vec<&'static str>,
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn record(panel: &mut Panel, value: f64) {
    panel.values.push(value);
}

#[test]
fn the_last_update_is_exactly_the_target_and_completion_runs_once_after_it() {
    let mut tweens = Tweens::<Panel, f64>::new(Timestep::HZ_60);
    // 0.1 to 0.7 never lands exactly on 0.7 by interpolation arithmetic.
    tweens.start(
        Tween::new(0.1, 0.7, ms(100), record)
            .ease(Ease::QuintInOut)
            .on_complete(|p: &mut Panel| p.completions.push("done")),
    );
    let mut panel = Panel::default();
    for _ in 0..10 {
        tweens.step(&mut panel);
    }
    // 100 ms at 60 Hz is 6 steps exactly (6 · 1/60 s = 0.1 s).
    assert_eq!(panel.values.len(), 6);
    assert_eq!(panel.values[5].to_bits(), 0.7_f64.to_bits());
    assert!(panel.values[..5].iter().all(|&v| v != 0.7));
    assert_eq!(panel.completions, ["done"]);
    assert!(tweens.is_empty());
}

#[test]
fn a_duration_between_steps_ends_on_the_first_step_past_it() {
    let mut tweens = Tweens::<Panel, f64>::new(Timestep::HZ_60);
    tweens.start(Tween::new(0.0, 1.0, ms(20), record)); // 1.2 steps: ends at step 2
    let mut panel = Panel::default();
    for _ in 0..4 {
        tweens.step(&mut panel);
    }
    assert_eq!(panel.values, [1.0 / 1.2, 1.0]);
}

#[test]
fn linear_values_are_exact_fractions_of_the_steps() {
    let mut tweens = Tweens::<Panel, f64>::new(Timestep::HZ_50);
    tweens.start(Tween::new(0.0, 100.0, ms(100), record)); // 5 steps of 20 ms
    let mut panel = Panel::default();
    for _ in 0..5 {
        tweens.step(&mut panel);
    }
    assert_eq!(panel.values, [20.0, 40.0, 60.0, 80.0, 100.0]);
}

#[test]
fn starting_in_an_occupied_slot_cancels_the_incumbent_without_its_completion() {
    let mut tweens = Tweens::<Panel, f64>::new(Timestep::HZ_60);
    let first = tweens.start(
        Tween::new(0.0, 10.0, ms(500), record)
            .slot("panel.y")
            .on_complete(|p: &mut Panel| p.completions.push("first")),
    );
    let mut panel = Panel::default();
    tweens.step(&mut panel);
    let second = tweens.start(
        Tween::new(5.0, 0.0, ms(50), record)
            .slot("panel.y")
            .on_complete(|p: &mut Panel| p.completions.push("second")),
    );
    assert!(!tweens.is_running(first));
    assert_eq!(tweens.in_slot(&Slot::from("panel.y")), Some(second));
    for _ in 0..40 {
        tweens.step(&mut panel);
    }
    assert_eq!(
        panel.completions,
        ["second"],
        "the displaced tween never completes"
    );
    assert_eq!(panel.values.last(), Some(&0.0));
    assert_eq!(
        tweens.in_slot(&Slot::new(String::from("panel.y"))),
        None,
        "the slot is free again"
    );
}

#[test]
fn a_cancelled_tween_gets_no_more_updates_and_no_completion() {
    let mut tweens = Tweens::<Panel, f64>::new(Timestep::HZ_60);
    let handle = tweens.start(
        Tween::new(0.0, 1.0, ms(100), record)
            .slot("x")
            .on_complete(|p: &mut Panel| p.completions.push("x")),
    );
    let mut panel = Panel::default();
    tweens.step(&mut panel);
    assert!(tweens.cancel(handle));
    assert!(!tweens.cancel(handle));
    for _ in 0..10 {
        tweens.step(&mut panel);
    }
    assert_eq!(panel.values.len(), 1);
    assert!(panel.completions.is_empty());
    assert_eq!(tweens.in_slot(&Slot::from("x")), None);
}

#[test]
fn a_zero_duration_tween_sets_the_target_once_and_completes_at_the_next_step() {
    let mut tweens = Tweens::<Panel, f64>::new(Timestep::HZ_60);
    tweens.start(
        Tween::new(3.0, 9.0, Duration::ZERO, record)
            .on_complete(|p: &mut Panel| p.completions.push("now")),
    );
    let mut panel = Panel::default();
    tweens.step(&mut panel);
    tweens.step(&mut panel);
    assert_eq!(panel.values, [9.0]);
    assert_eq!(panel.completions, ["now"]);
}

#[test]
fn completions_run_after_every_update_of_the_step_in_start_order() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut tweens = Tweens::<(), f64>::new(Timestep::HZ_60);
    for name in ["a", "b"] {
        let (on_update, on_complete) = (log.clone(), log.clone());
        tweens.start(
            Tween::new(0.0, 1.0, ms(10), move |(), v| {
                on_update.borrow_mut().push(format!("{name} {v}"));
            })
            .on_complete(move |()| on_complete.borrow_mut().push(format!("{name} done"))),
        );
    }
    tweens.step(&mut ());
    assert_eq!(*log.borrow(), ["a 1", "b 1", "a done", "b done"]);
}

#[test]
fn a_tween_can_drive_any_lerp_type() {
    let mut tweens = Tweens::<Vec<[f32; 2]>, [f32; 2]>::new(Timestep::HZ_50);
    tweens.start(Tween::new(
        [0.0, 10.0],
        [4.0, 20.0],
        ms(40),
        |out: &mut Vec<[f32; 2]>, v| out.push(v),
    ));
    let mut out = Vec::new();
    tweens.step(&mut out);
    tweens.step(&mut out);
    assert_eq!(out, [[2.0, 15.0], [4.0, 20.0]]);
}

#[test]
fn a_tween_lands_on_the_same_tick_with_the_same_values_at_any_frame_rate() {
    fn run(frame: Duration) -> (Vec<u64>, Vec<u64>) {
        struct Game {
            tweens: Tweens<Vec<(u64, u64)>, f64>,
            seen: Vec<(u64, u64)>,
        }
        let clock = ManualClock::new();
        let mut game_loop = Loop::<Game>::builder()
            .clock(clock.clone())
            .build()
            .unwrap();
        game_loop.on_update(|game, step| {
            let tick = step.tick();
            let mut seen = std::mem::take(&mut game.seen);
            game.tweens.step(&mut seen);
            for entry in seen.iter_mut().filter(|e| e.0 == u64::MAX) {
                entry.0 = tick;
            }
            game.seen = seen;
        });
        let mut tweens = Tweens::new(Timestep::HZ_60);
        tweens.start(
            Tween::new(0.0, 1.0, ms(250), |seen: &mut Vec<(u64, u64)>, v: f64| {
                seen.push((u64::MAX, v.to_bits()));
            })
            .ease(Ease::BounceOut),
        );
        let mut game = Game {
            tweens,
            seen: Vec::new(),
        };
        game_loop.start();
        while !game.tweens.is_empty() {
            clock.advance(frame);
            let _ = game_loop.pump(&mut game, PumpKind::Paint);
        }
        game.seen.into_iter().unzip()
    }
    let at_60 = run(Duration::from_nanos(16_666_667));
    assert_eq!(at_60.0.len(), 15, "250 ms is 15 steps");
    assert_eq!(run(ms(7)), at_60);
    assert_eq!(run(ms(40)), at_60);
    assert_eq!(run(Duration::from_nanos(6_944_444)), at_60);
}

#[test]
fn interpolated_values_blend_and_teleports_do_not_smear() {
    let mut x = Interpolated::new([0.0_f64, 0.0]);
    x.set([10.0, -10.0]);
    assert_eq!(x.at_f64(0.5), [5.0, -5.0]);
    assert_eq!(x.previous(), &[0.0, 0.0]);
    x.teleport([100.0, 100.0]);
    assert_eq!(x.at_f64(0.3), [100.0, 100.0]);
    assert_eq!(x.current(), &[100.0, 100.0]);
}

#[test]
fn a_tween_that_ends_leaves_the_others_running_in_start_order() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut tweens = Tweens::<(), f64>::new(Timestep::HZ_60);
    // 60 Hz: "a" and "c" last three steps, "b" one (10 ms is under a step).
    let mut handles = Vec::new();
    for (name, duration) in [("a", ms(50)), ("b", ms(10)), ("c", ms(50))] {
        let (on_update, on_complete) = (log.clone(), log.clone());
        handles.push(
            tweens.start(
                Tween::new(0.0, 3.0, duration, move |(), v| {
                    on_update.borrow_mut().push(format!("{name} {v}"));
                })
                .on_complete(move |()| on_complete.borrow_mut().push(format!("{name} done"))),
            ),
        );
    }
    tweens.step(&mut ());
    assert_eq!(tweens.len(), 2);
    assert!(tweens.is_running(handles[0]) && !tweens.is_running(handles[1]));
    tweens.step(&mut ());
    tweens.step(&mut ());
    assert!(tweens.is_empty());
    assert_eq!(
        *log.borrow(),
        [
            "a 1", "b 3", "c 1", "b done", "a 2", "c 2", "a 3", "c 3", "a done", "c done"
        ]
    );
}

#[test]
fn completions_left_by_a_panicking_completion_run_once_in_order_at_the_next_step() {
    let mut tweens = Tweens::<Panel, f64>::new(Timestep::HZ_60);
    for (name, panics) in [
        ("first", false),
        ("second", true),
        ("third", false),
        ("fourth", false),
    ] {
        tweens.start(
            Tween::new(0.0, 1.0, ms(50), record).on_complete(move |p: &mut Panel| {
                p.completions.push(name);
                assert!(!panics, "the {name} completion panics");
            }),
        );
    }
    let mut panel = Panel::default();
    for _ in 0..2 {
        tweens.step(&mut panel);
    }
    let ending = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        tweens.step(&mut panel);
    }));
    assert!(ending.is_err());
    assert_eq!(panel.completions, ["first", "second"]);
    assert!(tweens.is_empty(), "every tween had its last update");
    assert_eq!(panel.values.len(), 12);

    // A tween started meanwhile updates after the completions still due.
    tweens.start(Tween::new(0.0, 1.0, ms(1_000), |p: &mut Panel, _| {
        p.completions.push("update");
    }));
    tweens.step(&mut panel);
    assert_eq!(
        panel.completions,
        ["first", "second", "third", "fourth", "update"]
    );
    tweens.step(&mut panel);
    assert_eq!(
        panel.completions,
        ["first", "second", "third", "fourth", "update", "update"]
    );
}

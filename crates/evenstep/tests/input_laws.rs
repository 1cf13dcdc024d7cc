//! The input queue's laws over random frame timings (frames of 0 to the
//! budget's steps, stalls the budget clamps, pauses, speed changes, queued
//! steps, catch-ups) and random event times, under every pacing: every
//! event reaches exactly one step or paused-input hook, in the order
//! pushed; a step never sees an event stamped after its end; and an event
//! goes to the first step that ends at or after it, among the steps run
//! once it was pushed.

#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the oracle works in f64 nanoseconds and ids are small"
)]

mod common;

use std::time::Duration;

use evenstep::input::InputEvent;
use evenstep::{Loop, ManualClock, Pacing, Pump, PumpKind, Speed, Timestamp, Timestep};
use proptest::prelude::*;

/// What the test does before a frame.
#[derive(Clone, Copy, Debug)]
enum Control {
    None,
    Speed(u16, u16),
    Pause,
    Resume,
    Queue(u32),
    CatchUp(u64),
}

fn control() -> impl Strategy<Value = Control> {
    prop_oneof![
        12 => Just(Control::None),
        2 => prop::sample::select(vec![(1_u16, 4_u16), (1, 2), (1, 1), (3, 2), (2, 1)])
            .prop_map(|(n, d)| Control::Speed(n, d)),
        1 => Just(Control::Pause),
        2 => Just(Control::Resume),
        1 => (1_u32..3).prop_map(Control::Queue),
        1 => (1_u64..60).prop_map(Control::CatchUp),
    ]
}

/// One frame: the wall time to it, the events pushed before it (as offsets
/// from the frame's time, in µs), and a control.
#[derive(Clone, Debug)]
struct Frame {
    delta_us: u64,
    events_us: Vec<i64>,
    control: Control,
}

fn frame() -> impl Strategy<Value = Frame> {
    (
        prop_oneof![8 => 0_u64..40_000, 1 => 40_000_u64..400_000],
        prop::collection::vec(-40_000_i64..40_000, 0..4),
        control(),
    )
        .prop_map(|(delta_us, events_us, control)| Frame {
            delta_us,
            events_us,
            control,
        })
}

/// Where an event went: a step's tick, or a paused pump's index.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Went {
    Step(u64),
    Paused(usize),
}

/// What the loop's callbacks saw: each event's id where it went, in the
/// order delivered.
#[derive(Default)]
struct Seen {
    pump: usize,
    went: Vec<(u64, Went)>,
}

/// A pump's span, as its plan books it.
#[derive(Clone, Copy, Debug)]
struct Span {
    from: f64,
    to: f64,
    first_tick: u64,
    from_bank: u64,
    bank_after: f64,
    per_step: f64,
    /// What the bank gained: scaled time, less dropped, plus the phase
    /// shift, in units.
    gained: f64,
}

impl Span {
    /// The wall time step `tick` ends at, from the plan's books.
    fn end(&self, tick: u64) -> f64 {
        let index = tick - self.first_tick;
        if index >= self.from_bank || self.gained <= 0.0 {
            return self.to;
        }
        let bank_before = self.from_bank as f64 * self.per_step + self.bank_after - self.gained;
        let filled = (index + 1) as f64 * self.per_step - bank_before;
        let share = (filled / self.gained).clamp(0.0, 1.0);
        self.from + (self.to - self.from) * share
    }
}

fn id_of(event: &InputEvent) -> u64 {
    match *event {
        InputEvent::Pointer { x, .. } => x as u64,
        ref other => panic!("the test pushes only pointer events, not {other:?}"),
    }
}

/// What a run found out: every event's time, the pump before which it was
/// pushed, where it went, and each pump's span and whether it was paused
/// with no step.
struct Run {
    times: Vec<u64>,
    pushed_before: Vec<usize>,
    went: Vec<(u64, Went)>,
    spans: Vec<(usize, Span, bool)>,
    /// Each tick's pump, `None` for a catch-up's.
    tick_pump: Vec<Option<usize>>,
}

fn run(timestep: Timestep, pacing: Pacing, frames: &[Frame]) -> Run {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Seen>::builder()
        .clock(clock.clone())
        .timestep(timestep)
        .pacing(pacing)
        .build()
        .unwrap();
    game_loop.on_update(|seen, step| {
        for event in step.input().events() {
            seen.went.push((id_of(event), Went::Step(step.tick())));
        }
    });
    game_loop.on_paused_input(|seen, events| {
        for event in events {
            seen.went.push((id_of(event), Went::Paused(seen.pump)));
        }
    });
    game_loop.start();
    let mut seen = Seen::default();
    let mut out = Run {
        times: Vec::new(),
        pushed_before: Vec::new(),
        went: Vec::new(),
        spans: Vec::new(),
        tick_pump: Vec::new(),
    };
    let mut now = 1_000_000_000_u64;
    let mut latest = 0_u64;
    let flush = (0..2_000).map(|_| Frame {
        delta_us: 16_000,
        events_us: Vec::new(),
        control: Control::Resume,
    });
    for frame in frames.iter().cloned().chain(flush) {
        let flushing = frame.events_us.is_empty() && matches!(frame.control, Control::Resume);
        if flushing && game_loop.waiting_input().len() == 0 && out.times.len() == out.went.len() {
            break;
        }
        now += frame.delta_us * 1_000;
        // The events come in before the pump, on the clock it reads.
        clock.set(Timestamp::from_nanos(now));
        for offset in &frame.events_us {
            let at = now.saturating_add_signed(offset * 1_000);
            latest = latest.max(at);
            let id = out.times.len() as u64;
            game_loop
                .push_input(
                    Timestamp::from_nanos(at),
                    InputEvent::Pointer {
                        x: id as f64,
                        y: 0.0,
                    },
                )
                .unwrap();
            out.times.push(latest);
            out.pushed_before.push(seen.pump);
        }
        match frame.control {
            Control::None => {}
            Control::Speed(n, d) => game_loop.set_speed(Speed::new(n, d).unwrap()),
            Control::Pause => game_loop.pause(),
            Control::Resume => {
                game_loop.resume();
                if flushing {
                    game_loop.set_speed(Speed::NORMAL);
                }
            }
            Control::Queue(count) => game_loop.queue_steps(count),
            Control::CatchUp(millis) => {
                let before = game_loop.tick();
                let _ = game_loop.catch_up(&mut seen, Duration::from_millis(millis));
                out.tick_pump.resize(game_loop.tick() as usize, None);
                assert!(game_loop.tick() >= before);
            }
        }
        let Pump::Ran(report) = game_loop.pump(&mut seen, PumpKind::Paint) else {
            panic!("the loop runs");
        };
        let plan = report.plan;
        let per_step = plan.timestep().units_per_step() as f64;
        let span = Span {
            from: (report.now.as_nanos() - plan.raw_delta().as_nanos()) as f64,
            to: report.now.as_nanos() as f64,
            first_tick: plan.first_tick(),
            from_bank: plan.steps_from_bank(),
            bank_after: plan.remainder_units() as f64,
            per_step,
            gained: plan.scaled_units() as f64 - plan.dropped_units() as f64
                + plan.phase_shift_units() as f64,
        };
        let paused_empty = plan.speed().is_paused() && report.steps == 0;
        out.spans.push((seen.pump, span, paused_empty));
        out.tick_pump
            .resize(plan.end_tick() as usize, Some(seen.pump));
        seen.pump += 1;
    }
    out.went = seen.went;
    out
}

/// Checks the laws on a run, naming the first one broken.
fn check(run: &Run) -> Result<(), TestCaseError> {
    // Exactly once, in the order pushed.
    let ids: Vec<u64> = run.went.iter().map(|(id, _)| *id).collect();
    let pushed: Vec<u64> = (0..run.times.len() as u64).collect();
    prop_assert_eq!(
        &ids,
        &pushed,
        "every event reaches one step or hook, in order"
    );
    for &(id, went) in &run.went {
        let at = run.times[id as usize] as f64;
        let pushed_before = run.pushed_before[id as usize];
        match went {
            Went::Paused(pump) => {
                let (_, span, paused_empty) = run.spans[pump];
                prop_assert!(
                    paused_empty,
                    "event {} went to a pump that was not paused",
                    id
                );
                prop_assert!(
                    at <= span.to,
                    "event {} reached a paused hook before its time",
                    id
                );
            }
            Went::Step(tick) => {
                let Some(pump) = run.tick_pump[tick as usize] else {
                    return Err(TestCaseError::fail(format!(
                        "event {id} reached catch-up tick {tick}"
                    )));
                };
                let span = run.spans[pump].1;
                let end = span.end(tick);
                prop_assert!(
                    at <= end + 1.0,
                    "event {} at {} reached tick {} ending at {}",
                    id,
                    at,
                    tick,
                    end
                );
                // It was not due by the end of the step before, if that
                // step ran once it was waiting.
                if tick > 0
                    && let Some(previous_pump) = run.tick_pump[tick as usize - 1]
                    && previous_pump >= pushed_before
                {
                    let previous = run.spans[previous_pump].1.end(tick - 1);
                    prop_assert!(
                        at > previous - 2.0,
                        "event {} at {} was due by tick {}'s end {} but reached tick {}",
                        id,
                        at,
                        tick - 1,
                        previous,
                        tick
                    );
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::config(96))]

    #[test]
    fn every_event_reaches_the_first_step_that_ends_at_or_after_it_exactly_once(
        frames in prop::collection::vec(frame(), 1..60),
        pacing in 0_usize..4,
        timestep in prop::sample::select(vec![Timestep::HZ_60, Timestep::HZ_30, Timestep::HZ_120]),
    ) {
        let run = run(timestep, common::pacings()[pacing], &frames);
        check(&run)?;
    }
}

#[test]
fn a_broken_rule_is_caught_by_the_law() {
    // Negative control: move one event to the step after its own, and the
    // law names it.
    let frames = [
        Frame {
            delta_us: 10_000,
            events_us: vec![-5_000],
            control: Control::None,
        },
        Frame {
            delta_us: 30_000,
            events_us: vec![],
            control: Control::None,
        },
    ];
    let mut run = run(Timestep::HZ_60, Pacing::OFF, &frames);
    check(&run).unwrap();
    let Went::Step(tick) = run.went[0].1 else {
        panic!("a step took it")
    };
    run.went[0].1 = Went::Step(tick + 1);
    assert!(check(&run).is_err());
}

/// What each step read of three keys, against its events: `(pressed,
/// released, held)` per key, and the events.
type Readings = Vec<([(bool, bool, bool); 3], Vec<InputEvent>)>;

const KEYS: [evenstep::input::Key; 3] = [
    evenstep::input::Key::A,
    evenstep::input::Key::D,
    evenstep::input::Key::SPACE,
];

proptest! {
    #![proptest_config(common::config(96))]

    /// A step's readings are its events folded in order: a key is pressed
    /// or released in a step exactly when the step has that event, so a
    /// press and release inside one step read as a press that is not held;
    /// and held is the state the events since the start leave, over random
    /// frame timings (frames of no step to the budget's, stalls) and
    /// random presses and releases.
    #[test]
    fn a_steps_readings_are_its_events_folded_in_order(
        frames in prop::collection::vec(
            (
                prop_oneof![6 => 0_u64..40_000, 1 => 40_000_u64..300_000],
                prop::collection::vec((0_i64..40_000, 0_usize..3, any::<bool>()), 0..5),
            ),
            1..60,
        ),
        pacing in 0_usize..4,
    ) {
        use evenstep::input::Button;
        let clock = ManualClock::new();
        let mut game_loop = Loop::<Readings>::builder()
            .clock(clock.clone())
            .pacing(common::pacings()[pacing])
            .build()
            .unwrap();
        game_loop.on_update(|readings, step| {
            let input = step.input();
            let read = KEYS.map(|key| (input.pressed(key), input.released(key), input.held(key)));
            readings.push((read, input.events().to_vec()));
        });
        game_loop.start();
        let mut readings = Readings::new();
        let mut now = 0_u64;
        for (delta_us, events) in frames {
            for (back_us, key, down) in events {
                let at = Timestamp::from_nanos((now + delta_us * 1_000).saturating_sub(back_us as u64 * 1_000));
                let button = Button::Key(KEYS[key]);
                let event = if down { InputEvent::Press(button) } else { InputEvent::Release(button) };
                game_loop.push_input(at, event).unwrap();
            }
            now += delta_us * 1_000;
            clock.set(Timestamp::from_nanos(now));
            let _ = game_loop.pump(&mut readings, PumpKind::Paint);
        }
        let mut held = [false; 3];
        for (read, events) in &readings {
            for (k, key) in KEYS.iter().enumerate() {
                let button = Button::Key(*key);
                let pressed = events.contains(&InputEvent::Press(button));
                let released = events.contains(&InputEvent::Release(button));
                for event in events {
                    match event {
                        InputEvent::Press(b) if *b == button => held[k] = true,
                        InputEvent::Release(b) if *b == button => held[k] = false,
                        _ => {}
                    }
                }
                prop_assert_eq!(read[k], (pressed, released, held[k]), "key {}", key);
            }
        }
    }
}

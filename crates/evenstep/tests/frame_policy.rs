//! Contract: the frame-source policy paints each frame that arrives while
//! the source is seen, asks for the next frame when it is due (at once, or
//! at a paced slot kept in phase), starves a source whose frame asked for
//! is overdue, ticks only when the loop has something due while not
//! painting, begins an absence exactly when painting stops, asks for a
//! frame the moment the source comes back, and never wakes in the past.
//! Every decision exact, on a manual clock.

use std::time::Duration;

use evenstep::{
    Clock, Loop, ManualClock, Nanos, Pacing, PumpKind, Timestamp, Timestep,
    frame_policy::{FrameAction, FramePolicy, Painting},
};

/// A 60 Hz refresh period.
const PERIOD: u64 = 16_666_667;
/// Four periods: how long a frame asked for may take.
const STARVE: u64 = 4 * PERIOD;

fn at(nanos: u64) -> Timestamp {
    Timestamp::from_nanos(nanos)
}

/// A source whose display paces the frames (vsync, animation frames).
fn display_paced() -> FramePolicy {
    FramePolicy::new(Nanos::from_nanos(STARVE))
}

/// A source that paints once a refresh period on its own.
fn paced() -> FramePolicy {
    display_paced().paced(Nanos::from_nanos(PERIOD))
}

const ASK: FrameAction = FrameAction {
    request_redraw: true,
    ..FrameAction::NONE
};
const PAINT: FrameAction = FrameAction {
    pump: Some(PumpKind::Paint),
    ..FrameAction::NONE
};
const TICK: FrameAction = FrameAction {
    pump: Some(PumpKind::Tick),
    ..FrameAction::NONE
};

#[test]
fn a_started_source_asks_for_its_first_frame_at_once() {
    let clock = ManualClock::new();
    clock.set(at(5_000));
    let mut policy = paced();
    assert_eq!(policy.start(clock.now(), false), ASK);
    assert!(policy.is_painting());
    // The frame asked for is awaited for the starvation time.
    assert_eq!(policy.wake_at(clock.now(), None), Some(at(5_000 + STARVE)));
}

#[test]
fn a_source_started_away_asks_for_nothing_and_ticks_when_due() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let started = policy.start(clock.now(), true);
    assert_eq!(
        started,
        FrameAction {
            painting: Some(Painting::Away),
            ..FrameAction::NONE
        }
    );
    assert!(policy.is_away());
    assert!(!policy.wants_frames());
    assert_eq!(
        policy.poll(clock.now(), Some(at(50_000_000))),
        FrameAction::NONE
    );
    clock.set(at(50_000_000));
    assert_eq!(policy.poll(clock.now(), Some(at(50_000_000))), TICK);
}

#[test]
fn a_frame_that_arrives_is_painted_and_a_paced_source_sleeps_until_the_next_slot() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    clock.set(at(2_000_000));
    assert_eq!(policy.frame_arrived(clock.now()), PAINT);
    // The next slot is one period after the start's, not after the frame.
    assert_eq!(policy.wake_at(clock.now(), None), Some(at(PERIOD)));
    clock.set(at(3_000_000));
    assert_eq!(policy.poll(clock.now(), None), FrameAction::NONE);
    clock.set(at(PERIOD));
    assert_eq!(policy.poll(clock.now(), None), ASK);
    assert_eq!(policy.wake_at(clock.now(), None), Some(at(PERIOD + STARVE)));
}

#[test]
fn paced_slots_keep_their_phase_unless_a_frame_falls_a_whole_period_behind() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    let _ = policy.frame_arrived(clock.now());
    // 300 µs late: the next slot is still two periods from the start.
    clock.set(at(PERIOD + 300_000));
    let _ = policy.frame_arrived(clock.now());
    assert_eq!(policy.wake_at(clock.now(), None), Some(at(2 * PERIOD)));
    // A frame that arrives past its next slot starts the slots afresh.
    clock.set(at(5 * PERIOD));
    let _ = policy.frame_arrived(clock.now());
    assert_eq!(policy.wake_at(clock.now(), None), Some(at(6 * PERIOD)));
}

#[test]
fn a_display_paced_source_asks_for_the_next_frame_at_the_first_wake_up_after_a_paint() {
    let clock = ManualClock::new();
    let mut policy = display_paced();
    let _ = policy.start(clock.now(), false);
    assert_eq!(policy.frame_arrived(clock.now()), PAINT);
    assert_eq!(policy.wake_at(clock.now(), None), Some(at(0)));
    clock.set(at(1_000_000));
    assert_eq!(policy.poll(clock.now(), None), ASK);
    assert_eq!(
        policy.wake_at(clock.now(), None),
        Some(at(1_000_000 + STARVE))
    );
}

#[test]
fn a_frame_asked_for_that_does_not_arrive_starves_the_source_and_begins_an_absence() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    let due = Some(at(33_333_334));
    clock.set(at(STARVE - 1));
    assert_eq!(policy.poll(clock.now(), due), FrameAction::NONE);
    clock.set(at(STARVE));
    let starved = policy.poll(clock.now(), due);
    // Starved, a frame stays asked for, and the step due runs on a tick.
    assert_eq!(
        starved,
        FrameAction {
            pump: Some(PumpKind::Tick),
            request_redraw: true,
            painting: Some(Painting::Starved),
        }
    );
    assert!(starved.begin_absence());
    assert!(policy.is_starved());
    assert!(policy.wants_frames());
    // Not painting: the wake-up is the loop's next due time.
    assert_eq!(
        policy.wake_at(clock.now(), Some(at(100_000_000))),
        Some(at(100_000_000))
    );
}

#[test]
fn a_starved_source_keeps_a_frame_asked_for_and_ticks_only_when_something_is_due() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    clock.set(at(STARVE));
    let _ = policy.poll(clock.now(), None);
    clock.set(at(90_000_000));
    assert_eq!(policy.poll(clock.now(), Some(at(100_000_000))), ASK);
    clock.set(at(100_000_000));
    assert_eq!(
        policy.poll(clock.now(), Some(at(100_000_000))),
        FrameAction {
            pump: Some(PumpKind::Tick),
            request_redraw: true,
            painting: None,
        }
    );
}

#[test]
fn a_frame_arriving_while_starved_is_painted_and_resumes_painting() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    clock.set(at(STARVE));
    let _ = policy.poll(clock.now(), None);
    clock.set(at(80_000_000));
    assert_eq!(
        policy.frame_arrived(clock.now()),
        FrameAction {
            pump: Some(PumpKind::Paint),
            painting: Some(Painting::Resumed),
            ..FrameAction::NONE
        }
    );
    assert!(policy.is_painting());
    assert!(!policy.frame_arrived(clock.now()).begin_absence());
}

#[test]
fn going_away_stops_painting_begins_an_absence_and_forgets_the_frame_asked_for() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    clock.set(at(10_000_000));
    let away = policy.set_away(clock.now(), true);
    assert_eq!(
        away,
        FrameAction {
            painting: Some(Painting::Away),
            ..FrameAction::NONE
        }
    );
    assert!(away.begin_absence());
    // Long past the frame's starvation time: no starvation while away.
    clock.set(at(10 * STARVE));
    assert_eq!(policy.poll(clock.now(), None), FrameAction::NONE);
    assert!(policy.is_away());
    assert!(!policy.is_starved());
}

#[test]
fn frames_that_arrive_while_away_are_not_painted() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    let _ = policy.set_away(clock.now(), true);
    clock.set(at(20_000_000));
    assert_eq!(policy.frame_arrived(clock.now()), FrameAction::NONE);
    assert!(policy.is_away());
}

#[test]
fn a_source_that_starved_and_went_away_begins_no_second_absence() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    clock.set(at(STARVE));
    let _ = policy.poll(clock.now(), None);
    let away = policy.set_away(clock.now(), true);
    assert_eq!(away, FrameAction::NONE);
    assert!(policy.is_away());
    assert!(!policy.is_starved());
    // Away, it asks for no frames.
    assert_eq!(policy.poll(clock.now(), None), FrameAction::NONE);
}

#[test]
fn coming_back_asks_for_a_frame_at_once_and_watches_it_afresh() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    let _ = policy.set_away(clock.now(), true);
    clock.set(at(2_000_000_000));
    assert_eq!(
        policy.set_away(clock.now(), false),
        FrameAction {
            request_redraw: true,
            painting: Some(Painting::Resumed),
            ..FrameAction::NONE
        }
    );
    assert!(policy.is_painting());
    assert_eq!(
        policy.wake_at(clock.now(), Some(at(2_000_000_000))),
        Some(at(2_000_000_000 + STARVE))
    );
    // The frame slots start again from the return.
    assert_eq!(policy.frame_arrived(clock.now()), PAINT);
    assert_eq!(
        policy.wake_at(clock.now(), None),
        Some(at(2_000_000_000 + PERIOD))
    );
}

#[test]
fn a_signal_that_changes_nothing_is_no_action() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    assert_eq!(policy.set_away(clock.now(), false), FrameAction::NONE);
    let _ = policy.set_away(clock.now(), true);
    assert_eq!(policy.set_away(clock.now(), true), FrameAction::NONE);
}

#[test]
fn while_painting_nothing_ticks_whatever_is_due() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), false);
    clock.set(at(40_000_000));
    assert_eq!(policy.poll(clock.now(), Some(at(0))), FrameAction::NONE);
}

#[test]
fn a_tick_due_in_the_past_is_waited_for_a_millisecond_never_at_once() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), true);
    clock.set(at(10_000_000));
    assert_eq!(
        policy.wake_at(clock.now(), Some(at(3_000_000))),
        Some(at(11_000_000))
    );
    // Due within the millisecond: a millisecond from now too.
    assert_eq!(
        policy.wake_at(clock.now(), Some(at(10_300_000))),
        Some(at(11_000_000))
    );
    assert_eq!(
        policy.wake_at(clock.now(), Some(at(12_000_000))),
        Some(at(12_000_000))
    );
    assert_eq!(FramePolicy::MIN_TICK_WAIT, Nanos::from_millis(1));
}

#[test]
fn nothing_due_while_not_painting_is_a_wake_up_on_an_event_only() {
    let clock = ManualClock::new();
    let mut policy = paced();
    let _ = policy.start(clock.now(), true);
    assert_eq!(policy.wake_at(clock.now(), None), None);
}

#[test]
fn a_starvation_check_that_has_passed_wakes_now_not_in_the_past() {
    let clock = ManualClock::new();
    let mut policy = display_paced();
    let _ = policy.start(clock.now(), false);
    clock.set(at(STARVE + 5_000_000));
    assert_eq!(
        policy.wake_at(clock.now(), None),
        Some(at(STARVE + 5_000_000))
    );
}

#[test]
fn a_frame_asked_for_on_the_sources_own_schedule_starts_the_starvation_wait_then() {
    let clock = ManualClock::new();
    let mut policy = FramePolicy::new(Nanos::from_millis(250));
    let _ = policy.start(clock.now(), false);
    // A browser asks for the next animation frame within each one, at the
    // frame's own time, which may be before the clock's reading.
    clock.set(at(20_000_000));
    let _ = policy.frame_arrived(at(16_000_000));
    policy.redraw_requested(at(16_000_000));
    assert_eq!(policy.wake_at(clock.now(), None), Some(at(266_000_000)));
    clock.set(at(265_999_999));
    assert_eq!(policy.poll(clock.now(), None), FrameAction::NONE);
    clock.set(at(266_000_000));
    assert_eq!(
        policy.poll(clock.now(), None).painting,
        Some(Painting::Starved)
    );
}

#[test]
fn the_pace_and_the_starvation_time_can_change_on_the_way() {
    let mut policy = FramePolicy::new(Nanos::from_millis(250));
    assert_eq!(policy.frame_period(), None);
    policy.set_frame_period(Some(Nanos::from_nanos(PERIOD)));
    policy.set_starve_after(Nanos::from_nanos(STARVE));
    assert_eq!(policy.frame_period(), Some(Nanos::from_nanos(PERIOD)));
    assert_eq!(policy.starve_after(), Nanos::from_nanos(STARVE));
    assert_eq!(policy, paced());
}

#[test]
fn a_hidden_second_on_a_real_loop_wakes_once_per_step_and_runs_every_one() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<u64>::builder()
        .clock(clock.clone())
        .timestep(Timestep::from_hz(30).unwrap())
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    game_loop.on_update(|steps, _| *steps += 1);
    let mut steps = 0;
    let mut policy = paced();
    game_loop.start();
    let _ = policy.start(clock.now(), false);
    let _ = game_loop.pump_at(&mut steps, PumpKind::Paint, clock.now());
    assert!(policy.set_away(clock.now(), true).begin_absence());
    game_loop.begin_absence();

    let mut wakes = Vec::new();
    while let Some(wake) = policy.wake_at(clock.now(), game_loop.next_due()) {
        if wake > at(1_000_000_000) {
            break;
        }
        assert!(wake > clock.now(), "woke in the past at {wake:?}");
        clock.set(wake);
        wakes.push(wake.as_nanos());
        let action = policy.poll(clock.now(), game_loop.next_due());
        assert_eq!(action, TICK);
        let _ = game_loop.pump_at(&mut steps, PumpKind::Tick, clock.now());
    }
    assert_eq!(wakes.len(), 30);
    assert_eq!(&wakes[..3], [33_333_334, 66_666_667, 100_000_000]);
    assert_eq!(wakes[29], 1_000_000_000);
    assert_eq!(steps, 30);

    // Shown again: the next paint counts the hidden second as an absence.
    let shown = policy.set_away(clock.now(), false);
    assert!(shown.request_redraw);
    clock.advance(Duration::from_millis(5));
    assert_eq!(policy.frame_arrived(clock.now()), PAINT);
    let _ = game_loop.pump_at(&mut steps, PumpKind::Paint, clock.now());
    assert_eq!(game_loop.stats().absences(), 1);
}

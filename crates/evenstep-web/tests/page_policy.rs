//! Contract: the page driver paints at each animation frame's own time and
//! never lets time run backwards; while the page is not painting it ticks
//! when the next step is due, runs at most the step budget per throttled
//! wake-up and reports the rest dropped; it follows the page's lifecycle
//! (hidden, frozen, the back-forward cache) and, when the page is painted
//! again, reports the absence exactly; a page whose frames stop ticks after
//! the starvation time; starting twice is an error. All on a manual clock.

use std::cell::Cell;
use std::num::NonZeroU32;
use std::rc::Rc;
use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, StepBudget, Timestamp, Timestep};
use evenstep_web::{Away, PageDriver, PageEvent, PageOptions, WebError};

/// A 20 Hz loop (a 50 ms step), budget 5 steps (250 ms), the bank empty at
/// the start, counting steps in the state.
fn driver() -> (ManualClock, PageDriver<u64>) {
    let clock = ManualClock::new();
    let builder = Loop::builder()
        .timestep(Timestep::from_hz(20).unwrap())
        .budget(StepBudget::new(NonZeroU32::new(5).unwrap()))
        .pacing(Pacing::OFF);
    let mut driver = PageDriver::with_clock(builder, clock.clone(), PageOptions::new()).unwrap();
    driver
        .game_loop_mut()
        .on_update(|steps: &mut u64, _| *steps += 1);
    (clock, driver)
}

fn ms(millis: u64) -> Timestamp {
    Timestamp::from_nanos(millis * 1_000_000)
}

#[test]
fn a_visible_page_paints_at_each_frames_own_time() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    clock.set(ms(140)); // the callback runs a little after the frame began
    let report = driver.animation_frame(&mut steps, ms(120)).unwrap();
    assert_eq!(report.kind, PumpKind::Paint);
    assert_eq!(report.now, ms(120));
    assert!(report.rendered);
    assert_eq!(steps, 2);
    assert_eq!(driver.stats().paints, 1);
}

#[test]
fn a_frame_stamped_before_the_latest_pump_is_a_zero_delta_at_that_pumps_time() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    clock.set(ms(100));
    let _ = driver.animation_frame(&mut steps, ms(100));
    let late = driver.animation_frame(&mut steps, ms(90)).unwrap();
    assert_eq!(late.now, ms(100));
    assert_eq!(late.elapsed, Nanos::ZERO);
    assert_eq!(late.steps, 0);
    assert_eq!(driver.game_loop().real_time(), Nanos::from_millis(100));
}

#[test]
fn frames_that_arrive_while_the_page_is_away_are_not_painted() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    assert!(!driver.wants_frames());
    clock.set(ms(500));
    assert_eq!(driver.animation_frame(&mut steps, ms(500)), None);
    assert_eq!(driver.stats().ignored_frames, 1);
    assert_eq!(driver.stats().paints, 0);
    assert_eq!(driver.game_loop().stats().paints(), 0);
}

#[test]
fn a_hidden_page_wakes_when_the_next_step_is_due() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    clock.set(ms(10));
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    assert_eq!(driver.next_wake(), Some(Nanos::from_millis(40)));

    clock.set(ms(30)); // a timer that woke early ticks nothing
    assert_eq!(driver.timer(&mut steps), None);
    assert_eq!(driver.next_wake(), Some(Nanos::from_millis(20)));

    clock.set(ms(50));
    let tick = driver.timer(&mut steps).unwrap();
    assert_eq!(
        (tick.kind, tick.now, tick.steps),
        (PumpKind::Tick, ms(50), 1)
    );
    assert_eq!(driver.next_wake(), Some(Nanos::from_millis(50)));
}

#[test]
fn a_throttled_tick_runs_the_step_budget_and_reports_the_rest_dropped() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    clock.set(ms(1_000)); // throttled: one wake-up a second
    let tick = driver.timer(&mut steps).unwrap();
    assert_eq!(tick.steps, 5);
    assert_eq!(tick.plan.steps_dropped(), 15);
    assert_eq!(tick.plan.dropped(), Nanos::from_millis(750));
    clock.set(ms(61_000)); // later: one a minute
    let tick = driver.timer(&mut steps).unwrap();
    assert_eq!((tick.steps, tick.plan.steps_dropped()), (5, 1_195));
    assert_eq!(steps, 10);
    assert_eq!(driver.game_loop().real_time(), Nanos::from_secs(61));
}

#[test]
fn showing_the_page_ends_the_absence_with_its_span_and_what_was_dropped() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    for second in 1..=5 {
        clock.set(ms(second * 1_000));
        let _ = driver.timer(&mut steps);
    }
    clock.set(ms(5_300));
    let away = driver.page_event(&mut steps, PageEvent::Shown).unwrap();
    assert_eq!(
        away,
        Away {
            since: ms(0),
            until: ms(5_300),
            suspended: Nanos::ZERO,
            // Five ticks of 20 steps due, 5 run; the tick at showing: 6
            // due, 5 run.
            dropped: Nanos::from_millis(76 * 50),
            dropped_steps: 76,
            steps: 30,
            tick_pumps: 6,
        }
    );
    assert_eq!(away.span(), Nanos::from_millis(5_300));
    // Every step due over the absence ran or was dropped.
    assert_eq!(away.steps + away.dropped_steps, 5_300 / 50);
    assert_eq!(driver.game_loop().real_time(), Nanos::from_millis(5_300));
    assert_eq!(driver.stats().absences, 1);
    assert!(driver.wants_frames());

    // The first paint after it counts the gap as an absence.
    clock.set(ms(5_316));
    let _ = driver.animation_frame(&mut steps, ms(5_316));
    assert_eq!(driver.game_loop().stats().absences(), 0); // no paint before it
    clock.set(ms(5_333));
    let _ = driver.animation_frame(&mut steps, ms(5_333));
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    clock.set(ms(7_000));
    let _ = driver.page_event(&mut steps, PageEvent::Shown);
    let _ = driver.animation_frame(&mut steps, ms(7_016));
    assert_eq!(driver.game_loop().stats().absences(), 1);
}

#[test]
fn an_idle_game_catches_up_what_was_dropped_under_its_own_cap() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    clock.set(ms(10_000));
    let away = driver.page_event(&mut steps, PageEvent::Shown).unwrap();
    assert_eq!((steps, away.dropped_steps), (5, 195));

    let cap = Duration::from_secs(2);
    let owed = away.dropped.as_duration().min(cap);
    let caught_up = driver.game_loop_mut().catch_up(&mut steps, owed).unwrap();
    assert_eq!(caught_up.steps, 40);
    assert_eq!(steps, 45);
    assert_eq!(driver.game_loop().tick(), 45);
}

#[test]
fn a_frozen_page_counts_its_frozen_span_as_suspended_and_runs_it_on_resume() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    clock.set(ms(1_000));
    let _ = driver.timer(&mut steps);
    clock.set(ms(1_500));
    assert_eq!(driver.page_event(&mut steps, PageEvent::Frozen), None);
    assert_eq!(driver.next_wake(), None); // no timer runs in a frozen page
    assert!(driver.page().is_suspended());

    clock.set(ms(61_500));
    assert_eq!(driver.page_event(&mut steps, PageEvent::Resumed), None); // still hidden
    assert_eq!(driver.game_loop().real_time(), Nanos::from_millis(61_500));
    clock.set(ms(62_000));
    let away = driver.page_event(&mut steps, PageEvent::Shown).unwrap();
    assert_eq!(away.suspended, Nanos::from_secs(60));
    assert_eq!(away.span(), Nanos::from_secs(62));
    // Ticks at 1 s, at the freeze, at the resume and at the showing.
    assert_eq!(away.tick_pumps, 4);
    assert_eq!(away.steps, 20);
    assert_eq!(away.steps + away.dropped_steps, 62_000 / 50);
}

#[test]
fn a_page_restored_from_the_back_forward_cache_reports_its_absence() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    clock.set(ms(1_000));
    let _ = driver.animation_frame(&mut steps, ms(1_000));
    let _ = driver.page_event(&mut steps, PageEvent::PageHide { persisted: true });
    assert!(!driver.wants_frames());
    assert_eq!(driver.next_wake(), None);

    clock.set(ms(31_000));
    let away = driver
        .page_event(&mut steps, PageEvent::PageShow { persisted: true })
        .unwrap();
    assert_eq!((away.since, away.until), (ms(1_000), ms(31_000)));
    assert_eq!(away.suspended, Nanos::from_secs(30));
    assert_eq!(
        (away.tick_pumps, away.steps, away.dropped_steps),
        (1, 5, 595)
    );
    assert!(driver.wants_frames());
}

#[test]
fn a_first_loads_pageshow_changes_nothing() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    clock.set(ms(100));
    let shown = driver.page_event(&mut steps, PageEvent::PageShow { persisted: false });
    assert_eq!(shown, None);
    assert_eq!(driver.stats().ticks, 0);
    assert!(driver.page().is_painting());
}

#[test]
fn a_page_that_starts_hidden_ticks_and_is_away_until_first_shown() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(true).unwrap();
    assert!(!driver.wants_frames());
    assert_eq!(driver.next_wake(), Some(Nanos::from_millis(50)));
    clock.set(ms(1_000));
    let _ = driver.timer(&mut steps);
    clock.set(ms(2_000));
    let away = driver.page_event(&mut steps, PageEvent::Shown).unwrap();
    assert_eq!((away.since, away.span()), (ms(0), Nanos::from_secs(2)));
    assert_eq!(steps, 10);
}

#[test]
fn starting_a_started_driver_is_an_error_that_says_to_stop_first() {
    let (_clock, mut driver) = driver();
    driver.start(false).unwrap();
    let again = driver.start(true);
    assert_eq!(again, Err(WebError::AlreadyStarted));
    let message = again.unwrap_err().to_string();
    assert!(message.contains("already started"), "{message}");
    assert!(message.contains("stop it"), "{message}");
    assert!(driver.page().is_painting()); // the running page is untouched

    driver.stop();
    assert!(driver.start(false).is_ok());
}

#[test]
fn a_visible_page_whose_frames_stop_ticks_after_the_starvation_time() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    clock.set(ms(16));
    let _ = driver.animation_frame(&mut steps, ms(16));
    assert_eq!(driver.next_wake(), Some(Nanos::from_millis(250)));

    clock.set(ms(200)); // frames late, not yet starved
    assert_eq!(driver.timer(&mut steps), None);
    clock.set(ms(266));
    let tick = driver.timer(&mut steps).unwrap();
    assert_eq!((tick.kind, tick.steps), (PumpKind::Tick, 5));
    assert!(driver.page().starved);
    assert_eq!(driver.stats().starvations, 1);
    assert!(driver.wants_frames()); // still asking: a frame is the sign it renders
    assert_eq!(driver.next_wake(), Some(Nanos::from_millis(34)));

    clock.set(ms(300));
    let _ = driver.animation_frame(&mut steps, ms(300)).unwrap();
    assert!(!driver.page().starved);
    assert_eq!(driver.stats().absences, 0); // starving is not being away
}

#[test]
fn stopping_the_loop_from_an_update_ends_the_wakes_and_the_frames() {
    let (clock, mut driver) = driver();
    driver.game_loop_mut().on_update(|_: &mut u64, step| {
        if step.tick() == 2 {
            step.control().stop();
        }
    });
    let mut steps = 0;
    driver.start(false).unwrap();
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    clock.set(ms(1_000));
    let tick = driver.timer(&mut steps).unwrap();
    assert!(tick.stopped);
    assert_eq!(steps, 3);
    assert!(!driver.is_running());
    assert_eq!(driver.next_wake(), None);
    assert!(!driver.wants_frames());
    assert_eq!(driver.page_event(&mut steps, PageEvent::Shown), None);
}

#[test]
fn hidden_wake_gaps_measure_how_hard_the_timer_is_throttled() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    for at in [1_000, 2_000, 3_500] {
        clock.set(ms(at));
        let _ = driver.timer(&mut steps);
    }
    let stats = driver.stats();
    assert_eq!(stats.hidden_wakes, 3);
    assert_eq!(
        stats.shortest_hidden_wake_gap,
        Some(Nanos::from_millis(1_000))
    );
    assert_eq!(
        stats.longest_hidden_wake_gap,
        Some(Nanos::from_millis(1_500))
    );

    // A gap is measured only while the page stays hidden.
    clock.set(ms(4_000));
    let _ = driver.page_event(&mut steps, PageEvent::Shown);
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    clock.set(ms(4_100));
    let _ = driver.timer(&mut steps);
    assert_eq!(
        driver.stats().shortest_hidden_wake_gap,
        Some(Nanos::from_millis(1_000))
    );
    assert_eq!(driver.stats().hidden_wakes, 4);
}

#[test]
fn the_real_timeline_keeps_wall_time_through_a_hidden_spell() {
    let (clock, mut driver) = driver();
    let seconds = Rc::new(Cell::new(0));
    let counted = Rc::clone(&seconds);
    driver
        .game_loop_mut()
        .real()
        .every(Duration::from_secs(1), move |_, fire| {
            counted.set(counted.get() + fire.repeats());
        })
        .unwrap();
    let mut steps = 0;
    driver.start(false).unwrap();
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    for second in 1..=10 {
        clock.set(ms(second * 1_000));
        let _ = driver.timer(&mut steps);
    }
    assert_eq!(seconds.get(), 10);
    clock.set(ms(70_000)); // a wake-up a minute later: one call, 60 periods
    let _ = driver.timer(&mut steps);
    assert_eq!(seconds.get(), 70);
    assert_eq!(steps, 55); // the budget's 5 steps per tick
}

#[test]
fn a_request_made_while_hidden_is_acted_on_within_a_millisecond() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    driver.game_loop_mut().pause();
    clock.set(ms(10));
    assert_eq!(driver.next_wake(), Some(Nanos::from_millis(1)));
    let _ = driver.timer(&mut steps).unwrap();
    assert!(driver.game_loop().is_paused());
    driver.game_loop_mut().queue_steps(1);
    clock.set(ms(20));
    let tick = driver.timer(&mut steps).unwrap();
    assert_eq!(tick.steps, 1);
    // Paused, with no real timer: nothing is ever due, the timer rests.
    assert_eq!(driver.next_wake(), None);
}

#[test]
fn a_zero_starvation_time_is_taken_as_a_millisecond() {
    let options = PageOptions::new().starved_after(Nanos::ZERO);
    assert_eq!(options.starvation_time(), Nanos::from_millis(1));
    assert_eq!(
        PageOptions::default().starvation_time(),
        PageOptions::DEFAULT_STARVED_AFTER
    );
}

#[test]
fn a_starved_page_that_is_hidden_is_away_and_shown_again_waits_for_frames_afresh() {
    let (clock, mut driver) = driver();
    let mut steps = 0;
    driver.start(false).unwrap();
    clock.set(ms(250));
    let _ = driver.timer(&mut steps);
    assert!(driver.page().starved);

    clock.set(ms(400));
    let _ = driver.page_event(&mut steps, PageEvent::Hidden);
    assert!(!driver.page().starved);
    assert!(driver.policy().is_away());
    clock.set(ms(1_000));
    let away = driver.page_event(&mut steps, PageEvent::Shown).unwrap();
    assert_eq!((away.since, away.until), (ms(400), ms(1_000)));
    assert!(driver.page().is_painting());
    assert_eq!(driver.next_wake(), Some(Nanos::from_millis(250)));
    assert_eq!(driver.stats().starvations, 1);
}

//! Timelines: coalescing with `repeats`, due-then-registration order,
//! scheduling and cancelling from inside callbacks, zero durations refused,
//! the loop's real timeline running while paused and hidden and the sim
//! timeline following the clamped steps, scale, and a timeline that reads
//! right as soon as a panicking callback's panic leaves the advance.

use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, PumpKind, StepBudget, Timeline, TimerError, Timestep};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn an_hour_in_one_advance_is_one_call_with_repeats_3600() {
    let mut timeline = Timeline::<Vec<(u64, Nanos)>>::new();
    timeline
        .every(Duration::from_secs(1), |log, fire| {
            log.push((fire.repeats(), fire.due()));
        })
        .unwrap();
    let mut log = Vec::new();
    timeline.advance(&mut log, Duration::from_secs(3_600));
    assert_eq!(log, [(3_600, Nanos::from_secs(1))]);
    timeline.advance(&mut log, ms(999));
    assert_eq!(log.len(), 1);
    timeline.advance(&mut log, ms(1));
    assert_eq!(log[1], (1, Nanos::from_secs(3_601)));
    assert_eq!(timeline.next_due(), Some(Nanos::from_secs(3_602)));
}

#[test]
fn timers_due_in_one_advance_fire_in_due_order_then_registration_order() {
    let mut timeline = Timeline::<Vec<&'static str>>::new();
    timeline
        .after(ms(30), |log, _| log.push("c at 30"))
        .unwrap();
    timeline
        .after(ms(10), |log, _| log.push("a at 10"))
        .unwrap();
    timeline
        .every(ms(20), |log, _| log.push("b every 20"))
        .unwrap();
    timeline
        .after(ms(20), |log, _| log.push("b' at 20, registered later"))
        .unwrap();
    timeline
        .after(ms(10), |log, _| log.push("a' at 10, registered later"))
        .unwrap();
    let mut log = Vec::new();
    timeline.advance(&mut log, ms(45));
    assert_eq!(
        log,
        [
            "a at 10",
            "a' at 10, registered later",
            "b every 20", // once, covering 20 and 40
            "b' at 20, registered later",
            "c at 30",
        ]
    );
    assert_eq!(timeline.len(), 1);
}

#[test]
fn a_repeating_timer_keeps_its_registration_place() {
    let mut timeline = Timeline::<Vec<&'static str>>::new();
    timeline.every(ms(10), |log, _| log.push("first")).unwrap();
    timeline.every(ms(10), |log, _| log.push("second")).unwrap();
    let mut log = Vec::new();
    for _ in 0..3 {
        timeline.advance(&mut log, ms(10));
    }
    assert_eq!(
        log,
        ["first", "second", "first", "second", "first", "second"]
    );
}

#[test]
fn a_callback_can_cancel_a_later_timer_of_the_same_advance() {
    let mut timeline = Timeline::<Vec<&'static str>>::new();
    let victim = timeline.after(ms(20), |log, _| log.push("victim")).unwrap();
    timeline
        .after(ms(10), move |log, fire| {
            log.push("killer");
            assert!(fire.cancel(victim));
        })
        .unwrap();
    let mut log = Vec::new();
    timeline.advance(&mut log, ms(30));
    assert_eq!(log, ["killer"]);
    assert!(!timeline.is_armed(victim));
    assert!(timeline.is_empty());
}

#[test]
fn a_timer_scheduled_from_a_callback_waits_for_the_next_advance() {
    let mut timeline = Timeline::<Vec<String>>::new();
    timeline
        .after(ms(10), |log, fire| {
            log.push(format!("outer at {:?}", fire.now()));
            fire.after(Duration::from_nanos(1), |log, fire| {
                log.push(format!("inner at {:?}", fire.now()));
            })
            .unwrap();
        })
        .unwrap();
    let mut log = Vec::new();
    timeline.advance(&mut log, ms(50)); // the inner timer is due at 50 ms + 1 ns
    assert_eq!(log, ["outer at Nanos(50000000)"]);
    timeline.advance(&mut log, Duration::from_nanos(1));
    assert_eq!(log[1], "inner at Nanos(50000001)");
}

#[test]
fn a_repeating_timer_can_cancel_itself() {
    let mut timeline = Timeline::<u32>::new();
    timeline
        .every(ms(10), |count, fire| {
            *count += 1;
            if *count == 3 {
                fire.cancel_self();
            }
        })
        .unwrap();
    let mut count = 0;
    for _ in 0..10 {
        timeline.advance(&mut count, ms(10));
    }
    assert_eq!(count, 3);
    assert!(timeline.is_empty());
    assert_eq!(timeline.next_due(), None);
}

#[test]
fn zero_durations_are_refused_with_a_clear_error() {
    let mut timeline = Timeline::<()>::new();
    let error = timeline.every(Duration::ZERO, |(), _| {}).unwrap_err();
    assert_eq!(error, TimerError::ZeroDuration { what: "every" });
    assert_eq!(
        error.to_string(),
        "`every` needs a duration of at least 1 ns, got 0 (for work at the next pump, use a coalesced job)"
    );
    assert!(timeline.after(Duration::ZERO, |(), _| {}).is_err());
    assert!(timeline.is_empty());
}

#[test]
fn cancelled_handles_are_not_confused_with_reused_slots() {
    let mut timeline = Timeline::<Vec<u8>>::new();
    let old = timeline.after(ms(10), |log, _| log.push(1)).unwrap();
    assert!(timeline.cancel(old));
    assert!(!timeline.cancel(old), "cancelling twice is a no-op");
    let new = timeline.after(ms(10), |log, _| log.push(2)).unwrap();
    assert!(
        !timeline.cancel(old),
        "a stale handle cannot cancel the slot's new timer"
    );
    let mut log = Vec::new();
    timeline.advance(&mut log, ms(10));
    assert_eq!(log, [2]);
    assert!(!timeline.is_armed(new), "a fired one-shot is disarmed");
}

#[test]
fn a_hundred_thousand_armed_timers_cost_one_comparison_when_none_is_due() {
    let mut timeline = Timeline::<u64>::new();
    for i in 0..100_000_u64 {
        timeline
            .after(
                Duration::from_secs(3_600) + Duration::from_nanos(i),
                |n, _| *n += 1,
            )
            .unwrap();
    }
    let mut fired = 0;
    for _ in 0..1_000 {
        timeline.advance(&mut fired, ms(16));
    }
    assert_eq!(fired, 0);
    timeline.advance(&mut fired, Duration::from_secs(3_600));
    assert_eq!(fired, 100_000);
}

#[test]
fn cancelling_most_timers_leaves_the_rest_on_schedule() {
    let mut timeline = Timeline::<u64>::new();
    let handles: Vec<_> = (0..1_000)
        .map(|i| timeline.every(ms(1_000 + i), |n, _| *n += 1).unwrap())
        .collect();
    for handle in &handles[..990] {
        assert!(timeline.cancel(*handle));
    }
    assert_eq!(timeline.len(), 10);
    let mut fired = 0;
    timeline.advance(&mut fired, ms(1_999));
    assert_eq!(fired, 10);
    assert_eq!(timeline.next_due(), Some(Nanos::from_millis(2 * 1_990)));
}

#[derive(Default)]
struct Counters {
    real: Vec<u64>,
    sim: Vec<u64>,
}

#[test]
fn real_timers_fire_while_paused_and_on_tick_pumps_and_sim_timers_follow_the_steps() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Counters>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .budget(StepBudget::try_new(5).unwrap())
        .build()
        .unwrap();
    game_loop
        .real()
        .every(Duration::from_secs(1), |c, fire| {
            c.real.push(fire.repeats());
        })
        .unwrap();
    game_loop
        .sim()
        .every(Duration::from_secs(1), |c, fire| c.sim.push(fire.repeats()))
        .unwrap();
    let mut counters = Counters::default();
    game_loop.start();
    // Ten hidden seconds of one-second tick pumps: real fires every pump,
    // sim gets 5 steps (100 ms) a pump and so one second over the ten.
    for _ in 0..10 {
        clock.advance(Duration::from_secs(1));
        let _ = game_loop.pump(&mut counters, PumpKind::Tick);
    }
    assert_eq!(counters.real, [1; 10]);
    assert_eq!(counters.sim, [1]);
    assert_eq!(game_loop.sim_time(), Nanos::from_secs(1));
    // Paused, an hour in one pump: one real call for 3600 periods.
    game_loop.pause();
    clock.advance(Duration::from_secs(3_600));
    let _ = game_loop.pump(&mut counters, PumpKind::Paint);
    assert_eq!(counters.real.last(), Some(&3_600));
    assert_eq!(counters.sim, [1]);
}

#[test]
fn a_sim_timer_lands_on_the_same_tick_at_any_frame_rate() {
    fn tick_of_timer(frame: Duration) -> u64 {
        let clock = ManualClock::new();
        let mut game_loop = Loop::<(u64, Option<u64>)>::builder()
            .clock(clock.clone())
            .timestep(Timestep::HZ_60)
            .build()
            .unwrap();
        game_loop.on_update(|(tick, _), step| *tick = step.tick() + 1);
        game_loop
            .sim()
            .after(ms(500), |(tick, at), _| *at = Some(*tick))
            .unwrap();
        let mut state = (0, None);
        game_loop.start();
        while state.1.is_none() {
            clock.advance(frame);
            let _ = game_loop.pump(&mut state, PumpKind::Paint);
        }
        state.1.unwrap()
    }
    // Due at 500 ms: fires as the step ending at 500 ms (tick 29) begins.
    let at_60 = tick_of_timer(Duration::from_nanos(16_666_667));
    assert_eq!(at_60, 29);
    assert_eq!(tick_of_timer(ms(7)), at_60);
    assert_eq!(tick_of_timer(ms(33)), at_60);
    assert_eq!(tick_of_timer(Duration::from_nanos(6_944_444)), at_60);
}

#[test]
fn a_repeating_timer_at_the_end_of_time_fires_once_more_and_is_disarmed() {
    let mut timeline = Timeline::<Vec<u64>>::new();
    timeline
        .every(Duration::from_secs(1), |log, fire| log.push(fire.repeats()))
        .unwrap();
    let mut log = Vec::new();
    timeline.advance(&mut log, Duration::MAX); // saturates at Nanos::MAX
    assert_eq!(log.len(), 1);
    assert!(timeline.is_empty(), "no next due time fits");
    let mut other = Timeline::<u64>::new();
    other.every(Duration::MAX, |n, _| *n += 1).unwrap();
    let mut n = 0;
    other.advance_to(&mut n, Nanos::MAX);
    assert_eq!(n, 1);
}

#[test]
fn a_standalone_timeline_is_repaired_as_a_panic_leaves_its_advance() {
    let mut timeline = Timeline::<Vec<&str>>::new();
    timeline
        .after(Duration::from_millis(10), |_, _| panic!("a timer panics"))
        .unwrap();
    let mut log = Vec::new();
    let advance = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        timeline.advance(&mut log, Duration::from_millis(10));
    }));
    assert!(advance.is_err());
    timeline
        .after(Duration::from_millis(5), |log: &mut Vec<&str>, _| {
            log.push("fired");
        })
        .unwrap();
    timeline.advance(&mut log, Duration::from_millis(5));
    timeline.advance(&mut log, Duration::from_millis(5));
    assert_eq!(log, ["fired"]);
    assert!(timeline.is_empty());
}

#[test]
fn a_handle_only_ever_acts_on_the_timeline_that_made_it() {
    let mut game_loop = Loop::<Vec<&'static str>>::builder()
        .clock(ManualClock::new())
        .build()
        .unwrap();
    let real = game_loop.real().after(ms(100), |_, _| {}).unwrap();
    let sim = game_loop
        .sim()
        .after(ms(100), |log, _| log.push("sim"))
        .unwrap();
    assert!(
        !game_loop.sim().cancel(real),
        "a real handle on the sim timeline"
    );
    assert!(!game_loop.sim().is_armed(real));
    assert!(game_loop.sim().is_armed(sim), "the sim timer is untouched");
    assert!(
        !game_loop.real().cancel(sim),
        "a sim handle on the real timeline"
    );
    assert!(game_loop.real().is_armed(real));

    let mut first = Timeline::<()>::new();
    let mut second = Timeline::<()>::new();
    let handle = first.every(ms(1), |(), _| {}).unwrap();
    let other = second.every(ms(1), |(), _| {}).unwrap();
    assert_ne!(handle, other, "equal slots, different timelines");
    assert!(!second.cancel(handle));
    assert_eq!((first.len(), second.len()), (1, 1));
}

#[test]
fn a_repeating_timer_whose_callback_panicked_reads_disarmed_at_once() {
    let mut timeline = Timeline::<u32>::new();
    let panics = timeline
        .every(ms(10), |_, _| panic!("a repeating timer panics"))
        .unwrap();
    let later = timeline.every(ms(25), |n, _| *n += 1).unwrap();
    let mut n = 0;
    let advance = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        timeline.advance(&mut n, ms(10));
    }));
    assert!(advance.is_err());
    // Read before any further advance: the panicking timer is gone.
    assert!(!timeline.is_armed(panics));
    assert!(!timeline.cancel(panics), "nothing left to cancel");
    assert!(timeline.is_armed(later));
    assert_eq!(timeline.len(), 1);
    assert_eq!(timeline.next_due(), Some(Nanos::from_millis(25)));
    timeline.advance(&mut n, ms(15));
    assert_eq!(n, 1);
    assert_eq!(timeline.next_due(), Some(Nanos::from_millis(50)));
}

#[test]
fn timers_armed_by_a_callback_before_it_panicked_are_due_at_once() {
    let mut timeline = Timeline::<Vec<&str>>::new();
    timeline
        .after(ms(10), |_, fire| {
            fire.after(ms(5), |log: &mut Vec<&str>, _| log.push("armed"))
                .unwrap();
            panic!("a one-shot panics after arming another");
        })
        .unwrap();
    let mut log = Vec::new();
    let advance = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        timeline.advance(&mut log, ms(10));
    }));
    assert!(advance.is_err());
    assert_eq!(timeline.len(), 1);
    assert_eq!(timeline.next_due(), Some(Nanos::from_millis(15)));
    timeline.advance(&mut log, ms(5));
    assert_eq!(log, ["armed"]);
    assert!(timeline.is_empty());
}

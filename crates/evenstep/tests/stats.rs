//! Measured statistics, each against a hand-computed value: the loop's own
//! clock readings are the only input, so a manual clock makes every number
//! exact to the nanosecond.

use std::time::Duration;

use evenstep::{Loop, LoopBuilder, ManualClock, Nanos, Pacing, PumpKind, Timestamp, Timestep};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn builder(clock: &ManualClock) -> LoopBuilder<()> {
    Loop::<()>::builder()
        // These numbers were worked out for the centred bank (half a step).
        .pacing(Pacing::CENTRED)
        .clock(clock.clone())
        .timestep(Timestep::HZ_50)
        .warmup_frames(0)
}

fn paint(game_loop: &mut Loop<()>) {
    assert!(game_loop.pump(&mut (), PumpKind::Paint).ran());
}

#[test]
fn the_worst_gap_sees_a_pause_between_pumps_that_the_frame_cost_cannot() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).build().unwrap();
    game_loop.start();
    paint(&mut game_loop);
    clock.advance(ms(16));
    paint(&mut game_loop);
    clock.advance(ms(90)); // nothing the loop invoked was running
    paint(&mut game_loop);
    let stats = game_loop.stats();
    assert_eq!(stats.worst_gap(), Nanos::from_millis(90));
    assert_eq!(stats.cadence(), Nanos::from_millis(16));
    assert_eq!(stats.worst_frame(), Nanos::ZERO, "the pumps did no work");
    assert_eq!((stats.gaps(), stats.paints(), stats.pumps()), (2, 3, 3));
    assert_eq!(stats.gap_p50(), Nanos::from_millis(16));
    assert_eq!(stats.gap_p95(), Nanos::from_millis(90));
    assert_eq!(stats.gap_p99(), Nanos::from_millis(90));
}

#[test]
fn costs_are_one_eighth_moving_averages_of_the_loops_own_readings() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock)
        .work_budget(Duration::from_micros(2_500))
        .build()
        .unwrap();
    let in_update = clock.clone();
    game_loop.on_update(move |(), _| in_update.advance(ms(2))); // each step costs 2 ms
    let in_render = clock.clone();
    game_loop.on_render(move |(), _| in_render.advance(ms(1))); // each render 1 ms
    game_loop.start();

    clock.advance(ms(20)); // one step
    paint(&mut game_loop);
    let stats = game_loop.stats();
    assert_eq!(
        stats.frame_cost(),
        Nanos::from_millis(3),
        "the first sample seeds the average"
    );
    assert_eq!(stats.update_cost(), Nanos::from_millis(2));
    assert_eq!(stats.render_cost(), Nanos::from_millis(1));
    assert_eq!(stats.over_budget(), 1);

    // The pump ended at 23 ms; the next starts at 60 ms: 40 ms, two steps.
    clock.advance(ms(37));
    paint(&mut game_loop);
    let stats = game_loop.stats();
    assert_eq!(stats.steps_last_pump(), 2);
    assert_eq!(
        stats.frame_cost(),
        Nanos::from_micros(3_250),
        "3 + (5 - 3) / 8"
    );
    assert_eq!(
        stats.update_cost(),
        Nanos::from_micros(2_250),
        "2 + (4 - 2) / 8"
    );
    assert_eq!(stats.render_cost(), Nanos::from_millis(1));
    assert_eq!(stats.worst_frame(), Nanos::from_millis(5));
    assert_eq!(stats.over_budget(), 2);
    assert_eq!(
        stats.worst_gap(),
        Nanos::from_millis(40),
        "from reading 20 ms to reading 60 ms"
    );

    // A tick pump: no render cost sample, no paint, no gap.
    clock.advance(ms(18));
    assert!(game_loop.pump(&mut (), PumpKind::Tick).ran());
    let stats = game_loop.stats();
    assert_eq!(stats.render_cost(), Nanos::from_millis(1));
    assert_eq!(
        stats.frame_cost(),
        Nanos::from_nanos(3_093_750),
        "3.25 + (2 - 3.25) / 8"
    );
    assert_eq!((stats.paints(), stats.pumps(), stats.gaps()), (2, 3, 1));
}

#[test]
fn fps_counts_the_paints_of_the_last_completed_second_of_real_time() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).build().unwrap();
    game_loop.start();
    assert_eq!(game_loop.stats().fps(), 0);
    for k in 0..=150_u64 {
        clock.set(evenstep::Timestamp::from_nanos(k * 1_000_000_000 / 60));
        paint(&mut game_loop);
        if k == 59 {
            assert_eq!(game_loop.stats().fps(), 0, "no second has completed yet");
        }
        if k == 60 || k == 150 {
            assert_eq!(game_loop.stats().fps(), 60, "at k = {k}");
        }
    }
    // Hidden: tick pumps only. Second 2 held paints 120..=150.
    clock.set(evenstep::Timestamp::from_nanos(3_500_000_000));
    assert!(game_loop.pump(&mut (), PumpKind::Tick).ran());
    assert_eq!(game_loop.stats().fps(), 31);
    clock.set(evenstep::Timestamp::from_nanos(5_500_000_000));
    assert!(game_loop.pump(&mut (), PumpKind::Tick).ran());
    assert_eq!(game_loop.stats().fps(), 0, "second 4 painted nothing");
    assert_eq!(game_loop.stats().cadence(), Nanos::from_nanos(16_666_666));
    assert_eq!(game_loop.stats().worst_gap(), Nanos::from_nanos(16_666_667));
}

#[test]
fn an_absence_is_counted_excluded_and_re_bases_the_next_gap() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).absence_threshold(ms(500)).build().unwrap();
    game_loop.start();
    paint(&mut game_loop);
    clock.advance(ms(20));
    paint(&mut game_loop);
    clock.advance(ms(2_000)); // hidden
    paint(&mut game_loop);
    clock.advance(ms(16));
    paint(&mut game_loop);
    let stats = game_loop.stats();
    assert_eq!(stats.absences(), 1);
    assert_eq!(stats.gaps(), 2);
    assert_eq!(
        stats.worst_gap(),
        Nanos::from_millis(20),
        "the 2 s absence is not a gap"
    );
    assert_eq!(stats.gap_p99(), Nanos::from_millis(20));
    assert_eq!(stats.cadence(), Nanos::from_millis(16));
}

#[test]
fn the_opening_gaps_are_discarded_as_warm_up() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).warmup_frames(2).build().unwrap();
    game_loop.start();
    assert!(game_loop.stats().warming_up());
    for (at, warming, gaps) in [(0, true, 0), (10, true, 0), (30, false, 0), (60, false, 1)] {
        clock.set(evenstep::Timestamp::from_nanos(at * 1_000_000));
        paint(&mut game_loop);
        let stats = game_loop.stats();
        assert_eq!(
            (stats.warming_up(), stats.gaps()),
            (warming, gaps),
            "at {at} ms"
        );
    }
    assert_eq!(game_loop.stats().worst_gap(), Nanos::from_millis(30));
}

#[test]
fn the_worst_gap_and_cadence_forget_gaps_older_than_the_window() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock)
        .gap_window(Duration::from_secs(2))
        .build()
        .unwrap();
    game_loop.start();
    paint(&mut game_loop);
    clock.advance(ms(100));
    paint(&mut game_loop);
    clock.advance(ms(5));
    paint(&mut game_loop); // a 5 ms gap in second 0
    for _ in 0..200 {
        clock.advance(ms(20));
        paint(&mut game_loop);
    }
    let stats = game_loop.stats(); // at 4.105 s: the window is seconds 3 and 4
    assert_eq!(stats.worst_gap(), Nanos::from_millis(20));
    assert_eq!(stats.cadence(), Nanos::from_millis(20));
    assert_eq!(stats.gap_p99(), Nanos::from_millis(20));
    assert_eq!(
        stats.gaps(),
        202,
        "percentiles are since the last reset, not windowed"
    );
    assert!(game_loop.stats().gap_p50() == Nanos::from_millis(20));
}

#[test]
fn dropped_time_is_reported_and_reset_stats_forgets_everything_measured() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).build().unwrap();
    game_loop.start();
    paint(&mut game_loop);
    // 250 ms and the centred 10 ms: 13 steps due at 50 Hz, 5 run.
    clock.advance(ms(250));
    paint(&mut game_loop);
    let stats = game_loop.stats();
    assert_eq!(stats.dropped(), Nanos::from_millis(160));
    assert_eq!(stats.dropped_steps(), 8);
    assert_eq!(stats.dropped_secs(), 0.16);
    assert_eq!(stats.steps_last_pump(), 5);
    game_loop.reset_stats();
    let stats = game_loop.stats();
    assert_eq!(stats.dropped(), Nanos::ZERO);
    assert_eq!((stats.gaps(), stats.paints(), stats.pumps()), (0, 0, 0));
    assert_eq!(stats.worst_gap(), Nanos::ZERO);
    clock.advance(ms(20));
    paint(&mut game_loop);
    assert_eq!(
        game_loop.stats().worst_gap(),
        Nanos::from_millis(20),
        "gaps continue from the last paint"
    );
}

#[test]
fn at_the_end_of_real_time_the_gap_window_still_keeps_its_worst_gap() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).build().unwrap();
    game_loop.start();
    clock.set(Timestamp::from_nanos(u64::MAX - 1_000_000_000));
    paint(&mut game_loop);
    clock.set(Timestamp::ZERO); // backwards: no real time passes
    paint(&mut game_loop);
    clock.set(Timestamp::from_nanos(2_000_000_000)); // real time saturates
    paint(&mut game_loop);
    for gap in [30, 10, 10] {
        clock.advance(ms(gap));
        paint(&mut game_loop);
    }
    // Every pump now falls in the last second there is, which must keep
    // its gaps, not start over.
    assert_eq!(game_loop.stats().worst_gap(), Nanos::from_millis(30));
}

#[test]
fn bad_statistics_settings_are_refused_with_the_valid_range() {
    let clock = ManualClock::new();
    let zero = builder(&clock)
        .work_budget(Duration::ZERO)
        .build()
        .unwrap_err();
    assert_eq!(
        zero.to_string(),
        "`work_budget` must be a positive duration (at least 1 ns), got 0"
    );
    let window = builder(&clock).gap_window(ms(1_500)).build().unwrap_err();
    assert_eq!(
        window.to_string(),
        "`gap_window` must be a whole number of seconds from 1 to 60, got 1.5s"
    );
    assert!(
        builder(&clock)
            .gap_window(Duration::from_secs(61))
            .build()
            .is_err()
    );
    assert!(
        builder(&clock)
            .absence_threshold(Duration::ZERO)
            .build()
            .is_err()
    );
}

#[cfg(feature = "serde")]
#[test]
fn a_snapshot_round_trips_through_json() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).build().unwrap();
    game_loop.start();
    paint(&mut game_loop);
    clock.advance(ms(16));
    paint(&mut game_loop);
    let stats = game_loop.stats();
    let json = serde_json::to_string(&stats).unwrap();
    assert_eq!(
        serde_json::from_str::<evenstep::LoopStats>(&json).unwrap(),
        stats
    );
}

/// A snapshot saved before `LoopStats` read through accessors: the field
/// names and order of its serde form are a format, kept as they were.
#[cfg(feature = "serde")]
const SAVED_JSON: &str = r#"{"fps":0,"frame_cost":8776523,"update_cost":0,"render_cost":10030312,"worst_frame":30000000,"best_frame":0,"frame_cost_total":138000000,"worst_gap":702000000,"cadence":18000000,"absences":1,"warming_up":false,"over_budget":4,"steps_last_pump":0,"dropped":3740000000,"dropped_steps":187,"gap_p50":22000000,"gap_p95":702000000,"gap_p99":702000000,"gaps":11,"paints":13,"pumps":14}"#;

/// The same snapshot in postcard.
#[cfg(feature = "serde")]
const SAVED_POSTCARD: [u8; 56] = [
    0, 203, 214, 151, 4, 0, 232, 153, 228, 4, 128, 135, 167, 14, 0, 128, 237, 230, 65, 128, 215,
    222, 206, 2, 128, 209, 202, 8, 1, 0, 4, 0, 128, 190, 175, 247, 13, 187, 1, 128, 227, 190, 10,
    128, 215, 222, 206, 2, 128, 215, 222, 206, 2, 11, 13, 14,
];

#[cfg(feature = "serde")]
#[test]
fn a_snapshot_saved_before_loads_and_saves_byte_for_byte_the_same() {
    // The run that made it: paints with a render of 2 ms (30 ms past half
    // a step), gaps of every kind, a stall and a hidden spell.
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).build().unwrap();
    let render_clock = clock.clone();
    game_loop.on_render(move |(), render| {
        let cost = if render.alpha().as_f64() > 0.5 { 30 } else { 2 };
        render_clock.advance(ms(cost));
    });
    game_loop.start();
    paint(&mut game_loop);
    for gap in [16, 20, 20, 23, 300, 20, 20, 700, 20, 3_000, 20, 20] {
        clock.advance(ms(gap));
        paint(&mut game_loop);
    }
    clock.advance(ms(5));
    assert!(game_loop.pump(&mut (), PumpKind::Tick).ran());
    let stats = game_loop.stats();
    assert_eq!(serde_json::to_string(&stats).unwrap(), SAVED_JSON);
    assert_eq!(postcard::to_allocvec(&stats).unwrap(), SAVED_POSTCARD);

    let loaded: evenstep::LoopStats = serde_json::from_str(SAVED_JSON).unwrap();
    assert_eq!(loaded, stats);
    assert_eq!(serde_json::to_string(&loaded).unwrap(), SAVED_JSON);
    let loaded: evenstep::LoopStats = postcard::from_bytes(&SAVED_POSTCARD).unwrap();
    assert_eq!(loaded, stats);
    assert_eq!(
        (loaded.absences(), loaded.dropped_steps(), loaded.paints()),
        (1, 187, 13)
    );
    assert_eq!(loaded.dropped(), Nanos::from_millis(3_740));
    assert_eq!(loaded.dropped_secs(), 3.74);
}

/// Paints every 20 ms for `frames` frames.
fn paint_frames(clock: &ManualClock, game_loop: &mut Loop<()>, frames: u32) {
    for _ in 0..frames {
        clock.advance(ms(20));
        paint(game_loop);
    }
}

#[test]
fn a_short_hide_the_frame_source_announced_is_one_absence_and_no_gap() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).build().unwrap();
    game_loop.start();
    paint(&mut game_loop);
    paint_frames(&clock, &mut game_loop, 10);
    game_loop.begin_absence();
    clock.advance(ms(400)); // hidden for well under the 1 s threshold
    paint(&mut game_loop);
    paint_frames(&clock, &mut game_loop, 10);
    let stats = game_loop.stats();
    assert_eq!(stats.absences(), 1);
    assert_eq!(stats.worst_gap(), Nanos::from_millis(20));
    assert_eq!(stats.gap_p99(), Nanos::from_millis(20));
}

#[test]
fn the_same_hide_unannounced_is_a_slow_frame() {
    // The negative control: without `begin_absence` the 400 ms is a gap.
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).build().unwrap();
    game_loop.start();
    paint(&mut game_loop);
    paint_frames(&clock, &mut game_loop, 10);
    clock.advance(ms(400));
    paint(&mut game_loop);
    let stats = game_loop.stats();
    assert_eq!(stats.absences(), 0);
    assert_eq!(stats.worst_gap(), Nanos::from_millis(400));
}

#[test]
fn an_absence_announced_before_any_paint_or_across_a_restart_counts_nothing() {
    let clock = ManualClock::new();
    let mut game_loop = builder(&clock).build().unwrap();
    game_loop.start();
    game_loop.begin_absence(); // nothing painted yet: no gap to name
    paint(&mut game_loop);
    paint_frames(&clock, &mut game_loop, 3);
    game_loop.begin_absence();
    game_loop.stop();
    clock.advance(ms(300));
    game_loop.start(); // a restart forgets the previous paint, and the absence with it
    paint(&mut game_loop);
    paint_frames(&clock, &mut game_loop, 3);
    assert_eq!(game_loop.stats().absences(), 0);
}

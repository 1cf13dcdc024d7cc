//! Display feedback: plans carry a frame number; a report that a frame was
//! shown is taken only for a remembered, drawn frame, shown after its
//! timestamp and after the previous report; the numbering survives every
//! control; the reports teach the display's period and phase; frames are
//! planned for their predicted showing once feedback has been right often
//! enough where the stamps were wrong; and feedback that keeps no fixed
//! latency changes no plan.

use evenstep_core::{
    FRAMES_IN_FLIGHT, FeedbackError, FrameId, FrameLoop, FramePlan, Nanos, Pacing, Speed,
    StepBudget, Timestamp, Timestep,
};

const START: u64 = 1_000_000_000;

fn at(nanos: u64) -> Timestamp {
    Timestamp::from_nanos(nanos)
}

fn planner() -> FrameLoop {
    FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, at(START))
}

/// Snapped pacing (a half-millisecond tolerance), whose stamps [`LATE_60`]
/// throws off, so that feedback, right where they are wrong, plans.
fn snapping() -> FrameLoop {
    let pacing = Pacing::snapped(core::time::Duration::from_micros(500)).unwrap();
    planner().with_pacing(pacing)
}

/// A display refreshing every `period` ns from `START`, a game whose stamps
/// sit `jitter[k % len]` ns off frame `k`'s refresh, and a pipeline that
/// shows a frame stamped `t` at the first refresh at or after `t + latch`.
struct Display {
    period: u64,
    latch: u64,
    jitter: &'static [i64],
}

impl Display {
    /// Frame `k`'s stamp (frames 1, 2, ...).
    fn stamp(&self, k: u64) -> u64 {
        (START + k * self.period)
            .saturating_add_signed(self.jitter[(k as usize) % self.jitter.len()])
    }

    /// When a frame stamped `t` is shown.
    fn shown(&self, t: u64) -> u64 {
        let since = t + self.latch - START;
        START + since.div_ceil(self.period) * self.period
    }
}

/// Plans `count` frames of `display`, reporting each frame `late` frames
/// after it was planned (never, if `late` is `None`); returns the plans.
fn run(
    frames: &mut FrameLoop,
    display: &Display,
    count: u64,
    late: Option<usize>,
) -> Vec<FramePlan> {
    run_frames(frames, display, 1..=count, late)
}

/// [`run`] over frames `numbers` of the display; the last `late` frames
/// are never reported.
fn run_frames(
    frames: &mut FrameLoop,
    display: &Display,
    numbers: core::ops::RangeInclusive<u64>,
    late: Option<usize>,
) -> Vec<FramePlan> {
    let mut plans = Vec::new();
    let mut in_flight = std::collections::VecDeque::new();
    for k in numbers {
        let stamp = display.stamp(k);
        let plan = frames.begin_frame(at(stamp));
        plans.push(plan);
        if let Some(late) = late {
            in_flight.push_back((plan.frame(), display.shown(stamp)));
            if in_flight.len() > late {
                let (frame, shown) = in_flight.pop_front().unwrap();
                frames.frame_shown(frame, at(shown)).unwrap();
            }
        }
    }
    plans
}

/// Stamps swinging up to 6 ms either side of 60 Hz refreshes: more than
/// the stamps alone can be snapped through.
const WIDE: &[i64] = &[
    0, 6_000_000, -6_000_000, 3_000_000, -4_500_000, 5_500_000, -2_000_000,
];

/// A 60 Hz display, [`WIDE`] stamps, and a pipeline that shows each frame
/// at the refresh after its own.
const SWINGING_60: Display = Display {
    period: 16_666_667,
    latch: 8_000_000,
    jitter: WIDE,
};

/// Every seventh frame 12 ms late, the others within a millisecond of
/// their refresh.
const LATE: &[i64] = &[0, 1_000_000, -1_000_000, 0, 12_000_000, 500_000, 0];

/// A 60 Hz compositor that takes the latest frame 3 ms before each refresh,
/// and a game whose [`LATE`] frames are shown all the same at the refresh
/// after their own: the late frame's stamp spans 1.7 refreshes and the next
/// one 0.3, the screen one each.
const LATE_60: Display = Display {
    period: 16_666_667,
    latch: 3_000_000,
    jitter: LATE,
};

#[test]
fn frames_are_numbered_one_after_another_across_hidden_frames_catch_ups_resets_and_resyncs() {
    let mut frames = planner();
    assert_eq!(frames.next_frame(), FrameId::FIRST);
    let drawn = frames.begin_frame(at(START + 16_000_000)).frame();
    let hidden = frames.begin_hidden_frame(at(START + 33_000_000)).frame();
    let caught_up = frames.catch_up(Nanos::from_millis(100)).frame();
    frames.resync(at(START + 50_000_000));
    let resynced = frames.begin_frame(at(START + 66_000_000)).frame();
    frames.reset(at(START + 70_000_000));
    frames.set_speed(Speed::HALF);
    frames.set_pacing(Pacing::OFF);
    frames.set_timestep(Timestep::HZ_120);
    let after_reset = frames.begin_frame(at(START + 80_000_000)).frame();
    assert_eq!(
        [drawn, hidden, caught_up, resynced, after_reset].map(FrameId::get),
        [0, 1, 2, 3, 4]
    );
    assert_eq!(frames.next_frame(), FrameId::from_raw(5));
    assert_eq!(after_reset.to_string(), "frame 4");
}

#[test]
fn a_report_is_taken_only_for_a_remembered_drawn_frame_shown_after_its_stamp_and_the_previous_report()
 {
    let mut frames = planner();
    assert_eq!(
        frames.frame_shown(FrameId::FIRST, at(START)),
        Err(FeedbackError::UnknownFrame {
            frame: FrameId::FIRST,
            oldest: None,
            newest: None
        })
    );
    let first = frames.begin_frame(at(START + 16_000_000)).frame();
    let hidden = frames.begin_hidden_frame(at(START + 33_000_000)).frame();
    let third = frames.begin_frame(at(START + 50_000_000)).frame();
    let ahead = third.next();
    assert_eq!(
        frames.frame_shown(ahead, at(START + 60_000_000)),
        Err(FeedbackError::UnknownFrame {
            frame: ahead,
            oldest: Some(first),
            newest: Some(third)
        })
    );
    assert_eq!(
        frames.frame_shown(hidden, at(START + 40_000_000)),
        Err(FeedbackError::NotDrawn { frame: hidden })
    );
    assert_eq!(
        frames.frame_shown(first, at(START + 15_000_000)),
        Err(FeedbackError::BeforePlanned {
            frame: first,
            planned: at(START + 16_000_000),
            shown: at(START + 15_000_000)
        })
    );
    assert_eq!(frames.frame_shown(third, at(START + 66_666_667)), Ok(()));
    // An earlier frame, or a later one not shown later, comes out of order.
    let out_of_order = FeedbackError::OutOfOrder {
        frame: first,
        shown: at(START + 33_333_333),
        previous: third,
        previous_shown: at(START + 66_666_667),
    };
    assert_eq!(
        frames.frame_shown(first, at(START + 33_333_333)),
        Err(out_of_order)
    );
    let fourth = frames.begin_frame(at(START + 66_000_000)).frame();
    assert!(matches!(
        frames.frame_shown(fourth, at(START + 66_666_667)),
        Err(FeedbackError::OutOfOrder { .. })
    ));
    assert_eq!(frames.frame_shown(fourth, at(START + 83_333_333)), Ok(()));
    assert_eq!(
        out_of_order.to_string(),
        "frame 0 shown at 1033333333 ns does not come after frame 2 shown at 1066666667 ns: \
         reports must name later frames shown at later times"
    );
}

#[test]
fn a_frame_drawn_at_the_last_timestamp_is_reported_and_the_same_frame_again_is_refused() {
    let mut frames = planner();
    let last = frames.begin_frame(Timestamp::MAX).frame();
    assert_eq!(frames.frame_shown(last, Timestamp::MAX), Ok(()));
    assert_eq!(
        frames.frame_shown(last, Timestamp::MAX),
        Err(FeedbackError::OutOfOrder {
            frame: last,
            shown: Timestamp::MAX,
            previous: last,
            previous_shown: Timestamp::MAX,
        })
    );
    // A hidden frame in the same slot a lap later still reads as not drawn,
    // and a drawn one after it as drawn.
    let mut frames = planner();
    let mut now = START;
    for _ in 0..FRAMES_IN_FLIGHT {
        now += 16_000_000;
        let _ = frames.begin_frame(at(now));
    }
    let hidden = frames.begin_hidden_frame(at(now + 16_000_000)).frame();
    assert_eq!(
        frames.frame_shown(hidden, at(now + 20_000_000)),
        Err(FeedbackError::NotDrawn { frame: hidden })
    );
    let drawn = frames.begin_frame(at(now + 32_000_000)).frame();
    assert_eq!(frames.frame_shown(drawn, at(now + 40_000_000)), Ok(()));
}

#[test]
fn the_latest_thirty_two_frames_are_remembered_and_a_reset_forgets_them() {
    let mut frames = planner();
    let plans: Vec<FrameId> = (1..=40_u64)
        .map(|k| frames.begin_frame(at(START + k * 16_666_667)).frame())
        .collect();
    assert_eq!(FRAMES_IN_FLIGHT, 32);
    let too_old = plans[40 - 33];
    let error = frames
        .frame_shown(too_old, at(START + 41 * 16_666_667))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "frame 7 is not one of the frames remembered: the latest 32 planned, frames 8 to 39"
    );
    assert_eq!(
        frames.frame_shown(plans[40 - 32], at(START + 41 * 16_666_667)),
        Ok(())
    );
    frames.reset(at(START + 42 * 16_666_667));
    assert_eq!(
        frames.frame_shown(plans[39], at(START + 43 * 16_666_667)),
        Err(FeedbackError::UnknownFrame {
            frame: plans[39],
            oldest: None,
            newest: None
        })
    );
    assert_eq!(
        frames.shown_display(),
        None,
        "a reset forgets what feedback taught"
    );
}

#[test]
fn sixty_reports_of_a_steady_display_give_its_period_within_a_ten_thousandth_and_its_phase_within_a_tenth_of_a_millisecond()
 {
    // 59.95 Hz; stamps swing 6 ms; each frame is reported two frames late.
    let display = Display {
        period: 16_680_567,
        latch: 8_000_000,
        jitter: WIDE,
    };
    let mut frames = planner();
    run(&mut frames, &display, 62, Some(2));
    let shown = frames.shown_display().unwrap();
    let period = shown.period().as_nanos();
    assert!(
        period.abs_diff(display.period) * 10_000 <= display.period,
        "period {period}"
    );
    let phase = (shown.latest_refresh().as_nanos() - START) % display.period;
    let off = phase.min(display.period - phase);
    assert!(
        off <= 100_000,
        "the latest refresh is {off} ns off the display's"
    );
    // The hysteresis rule runs these stamps right: feedback, as right,
    // has no lead over them and does not plan.
    assert!(!shown.is_trusted());
    // The latch offset is known to within the stamps' swing.
    let latency = shown.latency().unwrap().as_nanos();
    assert!(
        (1_000_000..=9_000_000).contains(&latency),
        "latency {latency}"
    );
}

#[test]
fn with_feedback_frames_that_come_late_run_one_step_a_frame_once_feedback_has_proved_right() {
    let display = LATE_60;
    let mut fed = snapping();
    let plans = run(&mut fed, &display, 600, Some(3));
    // The stamps plan until feedback has been right on a dozen showings
    // they got wrong: FIRST_FED frames in, from then on every frame.
    let first_fed = plans.iter().position(FramePlan::predicted).unwrap();
    assert_eq!(first_fed, FIRST_FED);
    assert!(
        plans[first_fed..]
            .iter()
            .all(|plan| plan.steps_run() == 1 && plan.predicted())
    );
    assert!(fed.shown_display().unwrap().is_trusted());
    // The same stamps snapped without feedback: each late frame runs two
    // steps and the next none.
    let mut unfed = snapping();
    let plans = run(&mut unfed, &display, 600, None);
    let wrong = plans[first_fed..]
        .iter()
        .filter(|plan| plan.steps_run() != 1)
        .count();
    assert_eq!(wrong, UNFED_WRONG);
}

/// The frame (from 0) feedback first plans on [`LATE_60`] with reports
/// three frames late, and the frames snapped pacing without feedback runs
/// wrong from there to frame 600.
const FIRST_FED: usize = 44;
const UNFED_WRONG: usize = 160;

#[test]
fn feedback_whose_latency_swings_by_whole_refreshes_is_not_trusted_and_changes_no_plan() {
    // A FIFO queue whose depth wanders: frames are shown 2 to 5 refreshes
    // after their stamps.
    let display = Display {
        period: 16_666_667,
        latch: 0,
        jitter: WIDE,
    };
    let depths = [2_u64, 3, 5, 4, 2, 5, 3];
    let mut fed = planner();
    let mut twin = planner();
    let mut in_flight = std::collections::VecDeque::new();
    for k in 1..=600_u64 {
        let stamp = display.stamp(k);
        let plan = fed.begin_frame(at(stamp));
        let same = twin.begin_frame(at(stamp));
        assert_eq!(plan.steps_run(), same.steps_run());
        assert_eq!(plan.remainder_units(), same.remainder_units());
        assert_eq!(plan.phase_shift_units(), same.phase_shift_units());
        let shown = START + (k + depths[(k as usize) % depths.len()]) * display.period;
        in_flight.push_back((plan.frame(), shown));
        if in_flight.len() > 5 {
            let (frame, shown) = in_flight.pop_front().unwrap();
            let _refused = fed.frame_shown(frame, at(shown));
        }
    }
    assert!(!fed.shown_display().unwrap().is_trusted());
    assert_eq!(fed.remainder_units(), twin.remainder_units());
    assert_eq!(fed.tick(), twin.tick());
}

#[test]
fn at_half_speed_feedback_runs_a_step_every_other_frame_and_paused_none() {
    let display = LATE_60;
    let mut frames = snapping();
    run(&mut frames, &display, 120, Some(3));
    frames.set_speed(Speed::HALF);
    let mut steps: Vec<u64> = run_frames(&mut frames, &display, 121..=180, Some(3))
        .iter()
        .map(FramePlan::steps_run)
        .collect();
    frames.set_speed(Speed::PAUSED);
    let paused = run_frames(&mut frames, &display, 181..=240, Some(3));
    steps.extend(paused.iter().map(FramePlan::steps_run));
    let (half, paused) = steps.split_at(60);
    assert_eq!(half.iter().sum::<u64>(), 30);
    assert!(
        half.windows(2).all(|pair| pair[0] + pair[1] == 1),
        "{half:?}"
    );
    assert!(paused.iter().all(|&steps| steps == 0));
    assert!(frames.shown_display().unwrap().is_trusted());
}

#[test]
fn after_a_resync_the_next_frame_sets_the_count_and_reports_from_before_it_are_still_taken() {
    let display = LATE_60;
    let mut frames = snapping();
    let plans = run(&mut frames, &display, 120, Some(3));
    let before = &plans[117..];
    frames.resync(at(display.stamp(130)));
    let first = frames.begin_frame(at(display.stamp(131)));
    let second = frames.begin_frame(at(display.stamp(132)));
    assert!(!first.predicted());
    for plan in before {
        let shown =
            display.shown(display.stamp(118 + (plan.frame().get() - plans[117].frame().get())));
        assert_eq!(frames.frame_shown(plan.frame(), at(shown)), Ok(()));
    }
    assert!(second.predicted());
    assert_eq!(second.steps_run(), 1);
}

#[test]
fn a_step_rate_change_with_reports_in_flight_keeps_what_feedback_taught() {
    let display = LATE_60;
    let mut frames = snapping();
    let plans = run(&mut frames, &display, 120, Some(3));
    frames.set_timestep(Timestep::HZ_120);
    for (k, plan) in (118..=120).zip(&plans[117..]) {
        assert_eq!(
            frames.frame_shown(plan.frame(), at(display.shown(display.stamp(k)))),
            Ok(())
        );
    }
    assert!(frames.shown_display().unwrap().is_trusted());
    let steps: Vec<u64> = run_frames(&mut frames, &display, 121..=180, Some(3))
        .iter()
        .map(FramePlan::steps_run)
        .collect();
    // Two 120 Hz steps a 60 Hz refresh, from the second frame on.
    assert!(steps[1..].iter().all(|&steps| steps == 2), "{steps:?}");
}

#[test]
fn a_pacing_turned_off_and_on_again_under_feedback_banks_no_refresh_of_the_frames_in_between() {
    let display = LATE_60;
    let snapped = Pacing::snapped(core::time::Duration::from_micros(500)).unwrap();
    let mut frames = snapping();
    let mut in_flight = std::collections::VecDeque::new();
    let mut plans = Vec::new();
    for k in 1..=240 {
        match k {
            100 => frames.set_pacing(Pacing::OFF),
            160 => frames.set_pacing(snapped),
            _ => {}
        }
        let stamp = display.stamp(k);
        let plan = frames.begin_frame(at(stamp));
        plans.push(plan);
        in_flight.push_back((plan.frame(), display.shown(stamp)));
        if in_flight.len() > 3 {
            let (frame, shown) = in_flight.pop_front().unwrap();
            frames.frame_shown(frame, at(shown)).unwrap();
        }
    }
    assert!(plans[98].predicted());
    // Frame 160 (counted from 1) is planned from its stamp and sets where
    // the count starts again; from frame 161 on, feedback plans one step a
    // frame, as before pacing went off.
    assert!(!plans[159].predicted());
    assert_eq!(plans[159].steps_dropped(), 0);
    assert!(
        plans[160..]
            .iter()
            .all(|plan| plan.steps_run() == 1 && plan.predicted())
    );
}

#[test]
fn once_reports_stop_frames_are_planned_from_their_stamps_again() {
    let display = LATE_60;
    let mut frames = snapping();
    let plans = run(&mut frames, &display, 100, Some(3));
    assert!(plans[99].predicted());
    // No report for the next 40 frames: the latest names frame 96 (from
    // 0), stale once the frame planned is more than 32 past it, frame 129.
    let predicted: Vec<bool> = (101..=140_u64)
        .map(|k| frames.begin_frame(at(display.stamp(k))).predicted())
        .collect();
    let stale_from = predicted.iter().position(|&predicted| !predicted).unwrap();
    assert_eq!(stale_from, 29);
    assert!(predicted[stale_from..].iter().all(|&predicted| !predicted));
    assert!(!frames.shown_display().unwrap().is_trusted());
}

#[test]
fn a_report_far_in_the_future_is_refused_and_one_seconds_ahead_blocks_reports_only_while_fresh() {
    let display = SWINGING_60;
    let mut frames = planner();
    run(&mut frames, &display, 40, Some(3));
    let plan = frames.begin_frame(at(display.stamp(41)));
    let planned = display.stamp(41);
    assert!(matches!(
        frames.frame_shown(plan.frame(), at(planned + 5_000_000_000)),
        Err(FeedbackError::LongAfterPlanned { .. })
    ));
    // Three seconds ahead: taken, and later reports, at real times, come
    // out of order...
    assert_eq!(
        frames.frame_shown(plan.frame(), at(planned + 3_000_000_000)),
        Ok(())
    );
    let next = frames.begin_frame(at(display.stamp(42)));
    assert!(matches!(
        frames.frame_shown(next.frame(), at(display.shown(display.stamp(42)))),
        Err(FeedbackError::OutOfOrder { .. })
    ));
    // ...until that report is stale: more than 32 frames on, real reports
    // are taken again.
    let plans = run_frames(&mut frames, &display, 43..=80, None);
    let late = plans[plans.len() - 1];
    assert_eq!(
        frames.frame_shown(late.frame(), at(display.shown(display.stamp(80)))),
        Ok(())
    );
}

//! Frame pacing against display traces: centring and snapping keep a steady
//! display on a steady step count despite timestamp jitter (zero stutter on
//! 60, 120, 240 and 59.94 Hz displays), a missed refresh becomes exactly two
//! steps, the phase shift keeps the books exact, the render cap lands on the
//! frames nearest its ticks, and the governor halves and restores the render
//! rate. Unpaced runs of the same traces are the negative control: they
//! stutter.

mod common;

use core::num::NonZeroU32;

use common::SplitMix;
use core::time::Duration;

use evenstep_core::{
    DisplayModel, FrameLoop, FrameRateGovernor, Nanos, Pacing, Rate, Rhythm, StepBudget, Timestamp,
    Timestep,
};

/// A display at `hz_num / hz_den` Hz: `frames` timestamps, each the ideal
/// vsync (refresh `k` at `k · period`, exactly, from a start on a step
/// boundary) plus uniform jitter, with refreshes missed at `miss_per_mille`.
fn display(
    hz_num: u64,
    hz_den: u64,
    frames: usize,
    jitter_ns: u64,
    miss_per_mille: u64,
    seed: u64,
) -> Vec<u64> {
    let mut rng = SplitMix(seed);
    let start = 1_000_000_000_u64;
    let mut stamps = Vec::with_capacity(frames);
    let mut refresh = 0_u64;
    while stamps.len() < frames {
        refresh += 1;
        if miss_per_mille > 0 && rng.next() % 1_000 < miss_per_mille {
            refresh += 1; // the frame missed its vsync and shows one later
        }
        let ideal = start + refresh * 1_000_000_000 * hz_den / hz_num;
        stamps.push(ideal.saturating_add_signed(rng.jitter(jitter_ns)));
    }
    stamps
}

/// Steps per frame for `stamps`, planned at 60 Hz from the first stamp.
fn steps_per_frame(stamps: &[u64], pacing: Pacing) -> (Vec<u64>, FrameLoop) {
    let start = Timestamp::from_nanos(stamps[0] - 16_666_667);
    let mut frames =
        FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start).with_pacing(pacing);
    let steps = stamps
        .iter()
        .map(|&t| frames.begin_frame(Timestamp::from_nanos(t)).steps_run())
        .collect();
    (steps, frames)
}

fn snapped(tolerance_ms: u64) -> Pacing {
    Pacing::snapped(Duration::from_millis(tolerance_ms)).unwrap()
}

#[test]
fn a_jittery_60_hz_display_runs_one_step_every_frame_when_centred_or_snapped() {
    for jitter in [750_000, 1_500_000] {
        let stamps = display(60, 1, 10_000, jitter, 0, 7);
        let (off, _) = steps_per_frame(&stamps, Pacing::OFF);
        let (centred, _) = steps_per_frame(&stamps, Pacing::CENTRED);
        let (snap, _) = steps_per_frame(&stamps, snapped(2 * jitter / 1_000_000 + 1));
        let not_one = |steps: &[u64]| steps.iter().filter(|&&s| s != 1).count();
        // Negative control: frames that land on step boundaries stutter.
        assert!(
            not_one(&off) > 2_000,
            "±{jitter} ns unpaced: {}",
            not_one(&off)
        );
        assert_eq!(not_one(&centred), 0, "±{jitter} ns centred");
        assert_eq!(not_one(&snap), 0, "±{jitter} ns snapped");
    }
}

#[test]
fn a_120_hz_display_alternates_exactly_when_snapped() {
    let stamps = display(120, 1, 10_000, 500_000, 0, 11);
    let (snap, frames) = steps_per_frame(&stamps, snapped(1));
    let period = frames.refresh_period().unwrap().as_nanos();
    assert!(
        period.abs_diff(8_333_333) < 83_333,
        "within 1% of 8.33 ms: {period}"
    );
    // Once the display model trusts the rhythm (the anchor made the first delta
    // two refreshes, which it had to unlearn): 1, 0, 1, 0 ... exactly.
    let settled = &snap[64..];
    assert!(
        settled.windows(2).all(|w| w[0] + w[1] == 1 && w[0] != w[1]),
        "{:?}",
        &settled[..20]
    );
    let (off, _) = steps_per_frame(&stamps, Pacing::OFF);
    assert!(
        off[16..].windows(2).any(|w| w[0] == w[1]),
        "unpaced, the alternation breaks"
    );
}

#[test]
fn a_240_hz_display_runs_one_step_every_fourth_frame_when_snapped() {
    let stamps = display(240, 1, 10_000, 250_000, 0, 13);
    let (snap, _) = steps_per_frame(&stamps, snapped(1));
    let settled = &snap[64..];
    assert!(
        settled.windows(4).all(|w| w.iter().sum::<u64>() == 1),
        "{:?}",
        &settled[..16]
    );
    assert!(settled.iter().all(|&s| s <= 1));
}

#[test]
fn a_59_94_hz_display_runs_one_step_a_frame_and_game_time_runs_a_thousandth_slow() {
    let stamps = display(60_000, 1_001, 10_000, 750_000, 0, 17);
    let (snap, frames) = steps_per_frame(&stamps, snapped(2));
    assert!(snap.iter().all(|&s| s == 1));
    // 10,000 refreshes of a 59.94 Hz display are 166.83 s of wall time; the
    // game ran 10,000 steps, 166.67 s: one part in 1001 slow (999 ppm), as
    // stated, give or take the jitter of the two end stamps.
    let wall = Nanos::from_nanos(stamps[stamps.len() - 1] - stamps[0] + 16_683_333);
    assert_eq!(frames.tick(), 10_000);
    let drift_ppm = (wall.as_nanos() - frames.simulated().as_nanos()) * 1_000_000 / wall.as_nanos();
    assert!(
        drift_ppm.abs_diff(999) <= 10,
        "one part in 1001: {drift_ppm} ppm"
    );
    let (off, _) = steps_per_frame(&stamps, Pacing::OFF);
    assert!(
        off.iter().any(|&s| s != 1),
        "unpaced, the slower display drops a step now and then"
    );
}

#[test]
fn a_missed_refresh_is_exactly_two_steps_on_the_next_frame() {
    let stamps = display(60, 1, 10_000, 750_000, 10, 19);
    let (snap, _) = steps_per_frame(&stamps, snapped(2));
    let mut misses = 0;
    for (i, pair) in stamps.windows(2).enumerate() {
        let refreshes = (pair[1] - pair[0] + 8_333_333) / 16_666_667;
        assert_eq!(
            snap[i + 1],
            refreshes,
            "frame {} after {refreshes} refreshes",
            i + 1
        );
        misses += usize::from(refreshes == 2);
    }
    assert!(misses > 50, "1% of 10,000 frames missed: {misses}");
}

#[test]
fn behind_a_queue_a_late_frame_and_the_early_one_after_it_run_a_step_each() {
    // A 60 Hz vsync queue: the frame at 30 is 20 ms late, the one after it
    // comes 2 ms later, then the stamps are back on schedule. The screen
    // showed one frame a refresh throughout. The first such pair shows the
    // queue (two frames on one refresh); from then on a late frame banks
    // one refresh and owes the other to the early frame.
    let period = 16_666_667_u64;
    let mut stamps: Vec<u64> = Vec::new();
    for k in 1..=200_u64 {
        let on_time = 1_000_000_000 + k * period + 2_000_000;
        let stamp = match k % 50 {
            30 => on_time + 20_000_000,
            31 => stamps[stamps.len() - 1] + 2_000_000,
            _ => on_time,
        };
        stamps.push(stamp);
    }
    let (steps, _) = steps_per_frame(&stamps, Pacing::LOCKED);
    // The first pair (frames 30 and 31 of the first 50) counts as stamped.
    assert_eq!((steps[28], steps[29], steps[30]), (1, 2, 0));
    // Every later pair is one step each, and so is every other frame.
    for (i, &s) in steps.iter().enumerate().skip(40) {
        assert_eq!(s, 1, "frame {i}");
    }
}

#[test]
fn a_144_hz_display_keeps_its_uneven_pattern_but_never_runs_two_steps() {
    let stamps = display(144, 1, 10_000, 500_000, 0, 23);
    let (snap, frames) = steps_per_frame(&stamps, snapped(1));
    assert!(frames.refresh_period().is_some());
    // 60/144 = 5/12 of a step a frame: 0 or 1 step, never 2, five in twelve.
    assert!(snap.iter().all(|&s| s <= 1));
    let total: u64 = snap.iter().sum();
    assert!(total.abs_diff(10_000 * 5 / 12) <= 2, "{total}");
}

#[test]
fn snapping_and_centring_keep_the_books_exact_on_every_display() {
    for (num, den, jitter, misses) in [
        (60, 1, 750_000, 10),
        (120, 1, 500_000, 0),
        (60_000, 1_001, 750_000, 5),
        (144, 1, 500_000, 3),
        (75, 1, 1_000_000, 0),
    ] {
        let stamps = display(num, den, 5_000, jitter, misses, 29);
        let start = Timestamp::from_nanos(stamps[0] - 16_666_667);
        let mut frames =
            FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start).with_pacing(snapped(2));
        let per_step = i128::from(Timestep::HZ_60.units_per_step());
        let bank_at_start = i128::try_from(frames.remainder_units()).unwrap();
        let (mut submitted, mut shift, mut executed, mut dropped, mut snaps) =
            (0_i128, 0_i128, 0_i128, 0_i128, 0);
        for &t in &stamps {
            let plan = frames.begin_frame(Timestamp::from_nanos(t));
            submitted += i128::try_from(plan.scaled_units()).unwrap();
            shift += plan.phase_shift_units();
            executed += i128::from(plan.steps_run()) * per_step;
            dropped += i128::try_from(plan.dropped_units()).unwrap();
            snaps += usize::from(plan.snapped());
        }
        assert!(snaps > 4_000, "{num}/{den} Hz: snapping engaged ({snaps})");
        assert_eq!(
            submitted + shift + bank_at_start,
            executed + dropped + i128::try_from(frames.remainder_units()).unwrap(),
            "{num}/{den} Hz"
        );
        assert_eq!(shift, frames.phase_shift_units());
    }
}

#[test]
fn an_overrun_puts_a_centred_bank_back_mid_step_and_reports_the_shift() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::CENTRED);
    assert_eq!(
        frames.remainder_units(),
        25_000_000,
        "half a step to begin with"
    );
    let plan = frames.begin_frame(Timestamp::from_nanos(210_000_000)); // 12.5 + 0.6 steps
    assert_eq!((plan.steps_due(), plan.steps_run()), (13, 5));
    // 630,000,000 + 25,000,000 units = 13 steps and 5,000,000 left; centred.
    assert_eq!(plan.remainder_units(), 25_000_000);
    assert_eq!(plan.phase_shift_units(), 20_000_000);
    let off = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF)
        .begin_frame(Timestamp::from_nanos(210_000_000));
    assert_eq!(
        (off.remainder_units(), off.phase_shift_units()),
        (30_000_000, 0)
    );
}

#[test]
fn turning_centring_on_mid_run_shifts_the_bank_once_and_says_so() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF);
    let _ = frames.begin_frame(Timestamp::from_nanos(20_000_000)); // 1 step, 10,000,000 left
    frames.set_pacing(Pacing::CENTRED);
    assert_eq!(frames.pending_phase_shift_units(), 15_000_000);
    let plan = frames.begin_frame(Timestamp::from_nanos(20_000_000));
    assert_eq!(plan.phase_shift_units(), 15_000_000);
    assert_eq!(frames.pending_phase_shift_units(), 0);
}

#[test]
fn a_render_cap_at_the_display_rate_draws_every_jittery_frame_with_or_without_misses() {
    for miss_per_mille in [0, 20] {
        let stamps = display(60, 1, 2_000, 1_500_000, miss_per_mille, 31);
        let mut frames = FrameLoop::new(
            Timestep::HZ_60,
            StepBudget::DEFAULT,
            Timestamp::from_nanos(stamps[0]),
        );
        frames.set_render_cap(NonZeroU32::new(60).map(Rate::hz));
        let rendered = stamps
            .iter()
            .filter(|&&t| frames.begin_frame(Timestamp::from_nanos(t)).render())
            .count();
        assert_eq!(rendered, 2_000, "{miss_per_mille}‰ missed");
    }
}

#[test]
fn a_render_cap_of_half_the_display_rate_draws_every_other_frame_and_steps_run_on_all() {
    let stamps = display(60, 1, 2_000, 1_500_000, 0, 37);
    let mut frames = FrameLoop::new(
        Timestep::HZ_60,
        StepBudget::DEFAULT,
        Timestamp::from_nanos(stamps[0]),
    );
    frames.set_render_cap(NonZeroU32::new(30).map(Rate::hz));
    let plans: Vec<_> = stamps
        .iter()
        .map(|&t| frames.begin_frame(Timestamp::from_nanos(t)))
        .collect();
    let rendered: Vec<bool> = plans.iter().map(evenstep_core::FramePlan::render).collect();
    assert!(
        rendered[1..].windows(2).all(|w| w[0] != w[1]),
        "{:?}",
        &rendered[..12]
    );
    assert_eq!(
        plans
            .iter()
            .map(evenstep_core::FramePlan::steps_run)
            .sum::<u64>(),
        1_999,
        "every frame but the first stepped"
    );
}

#[test]
fn the_governor_halves_the_render_rate_while_frames_miss_and_restores_it_after() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(snapped(2));
    let mut governor = FrameRateGovernor::new();
    let mut now = 0_u64;
    let mut divisors = Vec::new();
    for k in 0..1_200_u64 {
        // Frames 100..300 miss every fourth refresh; the rest are clean.
        now += if (100..300).contains(&k) && k % 4 == 0 {
            33_333_334
        } else {
            16_666_667
        };
        let plan = frames.begin_frame(Timestamp::from_nanos(now));
        governor.observe(plan.raw_delta(), frames.refresh_period());
        frames.set_render_cap(governor.render_cap());
        divisors.push(governor.divisor());
    }
    assert_eq!(divisors[99], 1);
    assert!(
        divisors[299] >= 2,
        "halved while missing: {}",
        divisors[299]
    );
    assert_eq!(divisors[1_199], 1, "restored after the misses stopped");
    // Hysteresis: not restored the moment the misses stop.
    assert!(divisors[320] >= 2);
}

#[test]
fn a_snap_tolerance_outside_its_range_is_refused_with_the_range() {
    let error = Pacing::snapped(Duration::from_millis(51)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "a snap tolerance of 51ms; it must be from 1 ns to 50 ms \
         (how far, on average, frame stamps may sit from the display's refreshes)"
    );
    assert!(Pacing::snapped(Duration::ZERO).is_err());
}

#[test]
fn a_render_cap_that_admits_every_frame_changes_no_snapped_plan() {
    // A render cap of a million a second renders every frame: the plans must
    // match an uncapped planner's field for field, on displays with and
    // without a lattice and tolerances up to several times the jitter.
    for (num, den, jitter, misses, tolerance) in [
        (60, 1, 750_000, 10, 2),
        (120, 1, 500_000, 5, 1),
        (240, 1, 250_000, 0, 1),
        (60_000, 1_001, 750_000, 20, 2),
        (30, 1, 750_000, 0, 2),
        (144, 1, 500_000, 3, 1),
        // Tolerances of half a period and more.
        (240, 1, 250_000, 0, 3),
        (60, 1, 750_000, 10, 9),
        (120, 1, 500_000, 5, 50),
    ] {
        let stamps = display(num, den, 3_000, jitter, misses, 41);
        let start = Timestamp::from_nanos(stamps[0] - 16_666_667);
        let mut fast = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start)
            .with_pacing(snapped(tolerance));
        let mut general = fast.clone();
        general.set_render_cap(NonZeroU32::new(1_000_000).map(Rate::hz));
        let mut snaps = 0;
        for &t in &stamps {
            let a = fast.begin_frame(Timestamp::from_nanos(t));
            let b = general.begin_frame(Timestamp::from_nanos(t));
            assert!(b.render());
            assert_eq!(a, b, "{num}/{den} Hz at {t}");
            snaps += usize::from(a.snapped());
        }
        assert!(snaps > 2_500, "{num}/{den} Hz snapped {snaps} frames");
        assert_eq!(fast.phase_shift_units(), general.phase_shift_units());
    }
}

#[test]
fn a_render_cap_that_admits_every_frame_changes_no_plan_across_setters_stalls_and_hidden_frames() {
    // The same trace and the same calls on both planners; only the twin has
    // a render cap, one that admits every frame. Stalls break the rhythm and
    // snapping must stand down and resume with it; setters change the speed,
    // the queue, the budget and the tolerance mid-run.
    let stamps = display(60, 1, 6_000, 600_000, 10, 43);
    let start = Timestamp::from_nanos(stamps[0] - 16_666_667);
    let mut fast =
        FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start).with_pacing(snapped(2));
    let mut general = fast.clone();
    general.set_render_cap(NonZeroU32::new(1_000_000).map(Rate::hz));
    let mut stall = 0_u64;
    let mut snaps = 0;
    for (i, &t) in stamps.iter().enumerate() {
        if i % 700 == 350 {
            stall += 250_000_000; // a stall: a delta that fits no period
        }
        let both = |planner: &mut FrameLoop| {
            match i % 1_000 {
                100 => planner.set_pacing(snapped(3)),
                200 => planner.set_speed(evenstep_core::Speed::new(1, 2).unwrap()),
                230 => planner.set_speed(evenstep_core::Speed::NORMAL),
                300 => planner.queue_steps(2),
                400 => planner.set_budget(StepBudget::try_new(3).unwrap()),
                500 => planner.set_pacing(snapped(1)),
                600 => planner.set_pacing(Pacing::CENTRED),
                640 => planner.set_pacing(snapped(2)),
                700 => planner.resync(Timestamp::from_nanos(t + stall - 5_000_000)),
                _ => {}
            }
            let now = Timestamp::from_nanos(t + stall);
            if i % 97 == 13 {
                planner.begin_hidden_frame(now)
            } else {
                planner.begin_frame(now)
            }
        };
        let a = both(&mut fast);
        let b = both(&mut general);
        if i % 97 != 13 {
            assert!(b.render());
        }
        assert_eq!(a, b, "frame {i} at {t}");
        assert_eq!(fast.phase_shift_units(), general.phase_shift_units());
        snaps += usize::from(a.snapped());
    }
    assert!(snaps > 3_000, "snapped {snaps} frames");
}

#[test]
fn a_display_with_no_lattice_banks_whole_periods_and_game_time_keeps_to_the_wall() {
    // 14 ms is no whole multiple or divisor of a 60 Hz step: snapped frames
    // bank whole periods as the display model measures them, so their steps
    // follow the frame count while the model's period keeps game time on
    // the wall clock.
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(snapped(2));
    let mut rng = SplitMix(7);
    let mut now = 0_u64;
    let mut snaps = 0;
    for _ in 0..20_000 {
        now += 14_000_000 - 500_000 + rng.next() % 1_000_001;
        let plan = frames.begin_frame(Timestamp::from_nanos(now));
        snaps += usize::from(plan.snapped());
    }
    assert!(snaps > 19_900, "snapped {snaps} frames");
    let wall = now;
    let game = frames.simulated().as_nanos() + frames.remainder().as_nanos();
    // Within two refreshes over 280 s: the half step it started with, and
    // the period's first estimates.
    assert!(
        game.abs_diff(wall) < 28_000_000,
        "game {game} ns, wall {wall} ns"
    );
}

#[test]
fn snapping_stands_down_on_a_variable_refresh_display() {
    // Deltas anywhere from 48 to 144 Hz: there is a mean but no rhythm.
    let mut rng = SplitMix(43);
    let mut now = 1_000_000_000_u64;
    let mut stamps = Vec::new();
    for _ in 0..5_000 {
        now += 6_944_444 + rng.next() % (20_833_333 - 6_944_444);
        stamps.push(now);
    }
    let (_, frames) = steps_per_frame(&stamps, snapped(2));
    let snaps = {
        let mut frames = FrameLoop::new(
            Timestep::HZ_60,
            StepBudget::DEFAULT,
            Timestamp::from_nanos(stamps[0] - 16_666_667),
        )
        .with_pacing(snapped(2));
        stamps
            .iter()
            .filter(|&&t| frames.begin_frame(Timestamp::from_nanos(t)).snapped())
            .count()
    };
    // It stands down almost always; a run of deltas that happen to fit one
    // period can still snap a few (snapping is for fixed-rate displays).
    assert!(
        snaps < 250,
        "snapping stood down: {snaps} of 5,000 frames snapped"
    );
    assert!(frames.phase_shift_units().abs() < i128::from(Timestep::HZ_60.units_per_step()) * 10);
    let mut display = DisplayModel::new();
    for &t in &stamps {
        display.observe(Timestamp::from_nanos(t));
    }
    assert_eq!(display.rhythm(), Rhythm::Irregular);
    assert_eq!(frames.refresh_period(), None);
}

#[test]
fn a_step_of_two_to_the_63_units_or_more_is_refused() {
    // The blend factor and the 64-bit paths need headroom above the step.
    assert!(Timestep::from_step_ratio(u64::MAX - 1, u64::from(u32::MAX)).is_err());
    // Both under an hour a step; one is 2⁶³ units, one is one unit less.
    assert!(Timestep::from_step_ratio(1 << 63, 3_000_001).is_err());
    let largest = Timestep::from_step_ratio((1 << 63) - 1, 3_000_000).unwrap();
    assert_eq!(largest.units_per_step(), (1 << 63) - 1);
    let alpha = FrameLoop::new(largest, StepBudget::DEFAULT, Timestamp::ZERO)
        .begin_frame(Timestamp::from_nanos(1))
        .alpha();
    assert!((0.0..1.0).contains(&alpha.as_f64()) && (0.0..1.0).contains(&alpha.as_f32()));
}

#[test]
fn a_refresh_worth_more_than_64_bits_of_units_has_no_lattice_and_the_books_balance() {
    let ts = Timestep::from_ratio(4_294_967_291, 2_305_843_010).unwrap();
    let mut frames =
        FrameLoop::new(ts, StepBudget::UNLIMITED, Timestamp::ZERO).with_pacing(snapped(2));
    let per_step = i128::from(ts.units_per_step());
    let mut now = 0_u64;
    for frame in 0..40 {
        now += u64::from(u32::MAX);
        let before = i128::try_from(frames.remainder_units()).unwrap();
        let plan = frames.begin_frame(Timestamp::from_nanos(now));
        let submitted = i128::try_from(plan.scaled_units()).unwrap() + plan.phase_shift_units();
        let accounted = i128::from(plan.steps_run()) * per_step
            + i128::try_from(plan.dropped_units()).unwrap()
            + i128::from(plan.remainder_units())
            - before;
        assert_eq!(submitted, accounted, "frame {frame}");
    }
}

#[test]
fn an_outlier_that_pulls_the_period_inside_one_percent_plans_alike_with_and_without_a_cap() {
    // 1.1% off a 60 Hz step (no lattice), then an outlier that pulls the
    // period inside 1% without being snapped, then a snapped frame.
    let tolerance = Pacing::snapped(Duration::from_micros(100)).unwrap();
    let mut fast = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(tolerance);
    let mut general = fast.clone();
    general.set_render_cap(NonZeroU32::new(1_000_000).map(Rate::hz));
    let d = 16_850_000_u64;
    let mut deltas = vec![d; 40];
    deltas.extend([d - 320_000, d + 80_000, d, d, d, d, d]);
    let mut now = 0;
    for (i, delta) in deltas.into_iter().enumerate() {
        now += delta;
        let a = fast.begin_frame(Timestamp::from_nanos(now));
        let b = general.begin_frame(Timestamp::from_nanos(now));
        assert_eq!(a, b, "frame {i}");
    }
}

#[test]
fn a_paused_snapped_loop_keeps_its_alpha() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(snapped(1));
    let mut now = 0;
    for _ in 0..30 {
        now += 16_666_667;
        let _ = frames.begin_frame(Timestamp::from_nanos(now));
    }
    now += 16_666_667 + 1_500_000; // off the lattice, not snapped
    let _ = frames.begin_frame(Timestamp::from_nanos(now));
    frames.set_speed(evenstep_core::Speed::PAUSED);
    let before = frames.alpha();
    now += 16_666_667;
    let plan = frames.begin_frame(Timestamp::from_nanos(now));
    assert_eq!(plan.alpha(), before);
    assert_eq!(plan.phase_shift_units(), 0);
    assert!(!plan.snapped(), "a paused frame is not snapped");
}

#[test]
fn the_render_cap_never_draws_two_frames_in_a_row_after_a_hitch() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    frames.set_render_cap(NonZeroU32::new(30).map(Rate::hz));
    let frame = 16_666_667_u64;
    let mut stamps: Vec<u64> = (1..=6).map(|k| k * frame).collect();
    let mut t = stamps[5] + 56_000_000; // between one and two cap intervals
    for _ in 0..10 {
        stamps.push(t);
        t += frame;
    }
    let rendered: Vec<bool> = stamps
        .iter()
        .map(|&s| frames.begin_frame(Timestamp::from_nanos(s)).render())
        .collect();
    assert!(rendered.windows(2).all(|w| !(w[0] && w[1])), "{rendered:?}");
    assert!(rendered.iter().filter(|&&r| r).count() >= 7);
}

#[test]
fn hidden_frames_spend_no_render_of_the_cap() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    frames.set_render_cap(NonZeroU32::new(30).map(Rate::hz));
    let mut now = 0;
    let mut rendered = 0;
    for _ in 0..120 {
        now += 8_333_333;
        assert!(
            !frames
                .begin_hidden_frame(Timestamp::from_nanos(now))
                .render()
        );
        now += 8_333_334;
        rendered += usize::from(frames.begin_frame(Timestamp::from_nanos(now)).render());
    }
    assert_eq!(
        rendered, 60,
        "30 renders a second over 2 s, hidden frames between"
    );
}

#[test]
fn a_cap_at_the_display_rate_draws_the_frame_after_a_missed_refresh() {
    let frame = 16_666_667_u64;
    // 60 Hz with refresh 7 missed: the frame at 8 spans two periods.
    let mut stamps: Vec<u64> = (1..=6).map(|k| k * frame).collect();
    stamps.extend((8..=14).map(|k| k * frame));
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    frames.set_render_cap(NonZeroU32::new(60).map(Rate::hz));
    let rendered: Vec<bool> = stamps
        .iter()
        .map(|&s| frames.begin_frame(Timestamp::from_nanos(s)).render())
        .collect();
    assert_eq!(rendered, [true; 13]);
}

#[test]
fn hidden_frames_teach_the_display_model_nothing() {
    let period = 16_666_667_u64;
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::snapped(Duration::from_millis(2)).unwrap());
    let mut now = 0;
    for _ in 0..40 {
        now += period;
        let _ = frames.begin_frame(Timestamp::from_nanos(now));
    }
    let learned = frames.refresh_period();
    // A minute of hidden wake-ups every 100 ms.
    for _ in 0..600 {
        now += 100_000_000;
        assert!(
            !frames
                .begin_hidden_frame(Timestamp::from_nanos(now))
                .snapped()
        );
    }
    assert_eq!(frames.refresh_period(), learned);
}

#[test]
fn a_frame_at_the_instant_of_the_one_before_leaves_snapping_as_it_stood() {
    // A steady 60 Hz display, snapped to under locked pacing; then a frame
    // stamped again at the last frame's instant (a host that paints twice
    // on one clock reading). It brings no time and says nothing of the
    // display: no step, no phase shift, and the next frame snaps as before.
    for pacing in [
        Pacing::LOCKED,
        Pacing::snapped(Duration::from_millis(2)).unwrap(),
    ] {
        let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
            .with_pacing(pacing);
        let at = |k: u64| Timestamp::from_nanos(k * 16_666_667 + k % 3 * 300_000);
        for k in 1..=120 {
            let _ = frames.begin_frame(at(k));
        }
        let (bank, shift) = (frames.remainder_units(), frames.phase_shift_units());
        let again = frames.begin_frame(at(120));
        assert_eq!(
            (
                again.steps_run(),
                again.phase_shift_units(),
                again.snapped()
            ),
            (0, 0, false),
            "{pacing:?}"
        );
        assert_eq!(
            (frames.remainder_units(), frames.phase_shift_units()),
            (bank, shift)
        );
        for k in 121..=180 {
            let plan = frames.begin_frame(at(k));
            assert_eq!(
                (plan.steps_run(), plan.snapped()),
                (1, true),
                "{pacing:?}, frame {k}"
            );
        }
        // Only the display's own rate error: each 16,666,667 ns frame is a
        // unit (a third of a nanosecond) longer than the step it banks.
        assert_eq!(frames.phase_shift_units() - shift, -60, "{pacing:?}");
    }
}

/// `frames` stamps from `start`, `period` ns apart, each jittered
/// uniformly by up to `jitter_ns`.
fn paced(start: u64, period: u64, frames: usize, jitter_ns: u64, seed: u64) -> Vec<u64> {
    let mut rng = SplitMix(seed);
    (1..=frames as u64)
        .map(|k| (start + k * period).saturating_add_signed(rng.jitter(jitter_ns)))
        .collect()
}

/// 300 frames of a 59.95 Hz display (±0.5 ms), then 600 at `period` ns
/// (±1 ms): the stamps of a game that locked pacing snapped to the display
/// and that then keeps a pace of its own.
fn display_then_pace(period: u64) -> Vec<u64> {
    let mut stamps = paced(1_000_000_000, 16_680_567, 300, 500_000, 18);
    let last = *stamps.last().expect("300 frames");
    stamps.extend(paced(last, period, 600, 1_000_000, 19));
    stamps
}

/// The frames `pacing` snapped, of the last 600 of `stamps`.
fn snapped_at_the_end(stamps: &[u64], pacing: Pacing) -> usize {
    let start = Timestamp::from_nanos(stamps[0] - 16_680_567);
    let mut frames =
        FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start).with_pacing(pacing);
    let plans: Vec<bool> = stamps
        .iter()
        .map(|&t| frames.begin_frame(Timestamp::from_nanos(t)).snapped())
        .collect();
    plans[plans.len() - 600..].iter().filter(|&&s| s).count()
}

#[test]
fn behind_a_deep_queue_locked_pacing_follows_stamps_a_per_cent_slower_than_the_display() {
    // 16.84 ms is 1% longer than a 60 Hz step: no whole lattice of it, and
    // the display it locked onto is still showing one frame a refresh.
    let stamps = display_then_pace(16_840_000);
    assert_eq!(snapped_at_the_end(&stamps, Pacing::LOCKED), 600);
    assert_eq!(snapped_at_the_end(&stamps, snapped(2)), 600);
}

#[test]
fn locked_pacing_stands_down_once_the_stamps_leave_the_display_pace_and_keeps_their_step_pattern() {
    // 77 fps after a 59.95 Hz start: a frame limiter of the game's own.
    let stamps = display_then_pace(12_987_013);
    let start = Timestamp::from_nanos(stamps[0] - 16_680_567);
    let mut locked = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start);
    let mut off =
        FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start).with_pacing(Pacing::OFF);
    let plans: Vec<(bool, u64, u64)> = stamps
        .iter()
        .map(|&t| {
            let now = Timestamp::from_nanos(t);
            let plan = locked.begin_frame(now);
            (
                plan.snapped(),
                plan.steps_run(),
                off.begin_frame(now).steps_run(),
            )
        })
        .collect();
    let (before, after) = plans.split_at(300);
    assert!(before[100..].iter().all(|&(snapped, ..)| snapped));
    // It stands down when the display model loses the lattice and finds
    // none near the display it followed. From there no frame is snapped,
    // the bank stays where snapping left it (nothing moves it to the plain
    // accumulator's phase), and the hysteresis rule keeps the game's own
    // pattern: at 77 fps on 60 steps a second, 0 or 1 steps a frame, the
    // same total as pacing off within a step.
    let last_snapped = after
        .iter()
        .rposition(|&(snapped, ..)| snapped)
        .expect("locked pacing snaps on after the change of pace");
    assert_eq!(last_snapped, 14);
    let rest = &after[last_snapped + 1..];
    assert!(
        rest.iter()
            .all(|&(snapped, locked, _)| !snapped && locked <= 1)
    );
    let (locked, off) = rest
        .iter()
        .fold((0, 0), |(l, o), &(_, locked, off)| (l + locked, o + off));
    assert!(locked.abs_diff(off) <= 1, "locked {locked}, off {off}");
}

//! The deep-queue profiles of the default suite (18 to 21): their timing
//! statistics match a full-screen vsync capture with a deep present queue,
//! Godot's jitter fix and snapped pacing run fewer wrong frames on them than
//! the plain accumulator, as on the capture, the default runs no more than
//! snapped pacing, and their verdicts are pinned.

use evenstep_lab::{Config, Settings, SweepReport, TraceStats, default_suite, judge_trace};

/// Suite numbers of the deep-queue profiles.
const DEEP: [usize; 4] = [18, 19, 20, 21];

fn profile_stats(number: usize) -> TraceStats {
    TraceStats::of(&default_suite()[number - 1].generate()).expect("a vsync profile is shown")
}

fn verdict(number: usize) -> SweepReport {
    judge_trace(
        &default_suite()[number - 1].generate(),
        Settings::default(),
        None,
        8,
    )
    .expect("a 59.95 Hz display")
}

/// Total wrong frames over the eight start phases, in `Config::ALL` order.
fn totals(report: &SweepReport) -> [u64; 7] {
    Config::ALL.map(|config| report.counts(config).total())
}

#[test]
fn the_deep_queue_profiles_keep_the_timing_statistics_they_were_built_to() {
    let stats: Vec<TraceStats> = DEEP.iter().map(|&n| profile_stats(n)).collect();
    let pinned = [
        (
            16_732_053,
            22_403_981,
            36_812_751,
            16_681_435,
            33_261_873,
            32_972_010,
            101_327_141,
            10,
        ),
        (
            16_745_099,
            21_923_520,
            38_417_450,
            16_680_750,
            33_222_027,
            32_930_389,
            101_575_551,
            10,
        ),
        (
            16_763_281,
            22_959_980,
            38_188_654,
            16_681_753,
            33_339_608,
            32_940_526,
            101_450_692,
            14,
        ),
        (
            16_731_449,
            22_116_412,
            39_177_063,
            16_681_246,
            16_836_878,
            32_945_903,
            101_918_270,
            9,
        ),
    ];
    for ((number, stats), pinned) in DEEP.iter().zip(&stats).zip(pinned) {
        let got = (
            stats.present_gap_median,
            stats.present_gap_p99,
            stats.present_gap_max,
            stats.display_gap_median,
            stats.display_gap_p99,
            stats.latency_min,
            stats.latency_max,
            stats.long_display_gaps_per_mille,
        );
        assert_eq!(got, pinned, "profile {number}: {stats}");
    }
}

#[test]
fn the_deep_queue_profiles_sit_near_the_capture_they_model() {
    // The capture: present gaps median 16.82 ms, p99 21.7, max 38; display
    // gaps median 16.68, p99 16.83; latency 33 to 107 ms; about 1% of
    // display gaps of two refreshes or more.
    for number in DEEP {
        let stats = profile_stats(number);
        let ms = |nanos: u64| nanos as f64 / 1e6;
        assert!(
            (16.70..16.90).contains(&ms(stats.present_gap_median)),
            "{number}: {stats}"
        );
        assert!(
            (21.0..23.5).contains(&ms(stats.present_gap_p99)),
            "{number}: {stats}"
        );
        assert!(
            (35.0..40.0).contains(&ms(stats.present_gap_max)),
            "{number}: {stats}"
        );
        assert!(
            (16.67..16.69).contains(&ms(stats.display_gap_median)),
            "{number}: {stats}"
        );
        assert!(
            (32.0..35.0).contains(&ms(stats.latency_min)),
            "{number}: {stats}"
        );
        assert!(
            (100.0..110.0).contains(&ms(stats.latency_max)),
            "{number}: {stats}"
        );
        assert!(
            (8..=15).contains(&stats.long_display_gaps_per_mille),
            "{number}: {stats}"
        );
    }
}

#[test]
fn behind_a_deep_queue_godot_and_snapped_run_fewer_wrong_frames_than_the_plain_accumulator() {
    for number in DEEP {
        let report = verdict(number);
        let [naive, godot, _, _, snapped, locked, _] = totals(&report);
        assert!(
            godot < naive && snapped < naive && locked < naive,
            "profile {number}: {:?}",
            totals(&report)
        );
    }
}

#[test]
fn behind_a_deep_queue_the_default_runs_no_more_wrong_frames_than_snapped_pacing() {
    // Summed over the four profiles: locked pacing follows the stamps' own
    // pace as snapped pacing does, once it has locked onto the display.
    let sums = DEEP.iter().fold([0; 7], |mut sums, &number| {
        for (sum, total) in sums.iter_mut().zip(totals(&verdict(number))) {
            *sum += total;
        }
        sums
    });
    let [.., snapped, locked, _] = sums;
    assert!(locked <= snapped, "{sums:?}");
}

#[test]
fn the_deep_queue_verdicts_are_pinned() {
    // Total wrong frames over eight start phases (the mean is an eighth):
    // naive f64, godot jitter fix, off, centred, snapped, locked, and
    // locked with feedback. Re-pinned when the lattice came to be admitted
    // within 2% of the refresh (these games run 1 to 1.1% slower than the
    // display, at the edge of the 1% before), and trusted when clean within
    // a 16th of a period.
    let pinned = [
        [6_140, 3_729, 6_140, 6_140, 3_154, 2_536, 2_536],
        [5_518, 3_282, 5_518, 5_518, 2_432, 2_032, 2_032],
        [6_224, 3_965, 6_224, 6_224, 3_178, 2_688, 2_688],
        [5_925, 3_613, 5_925, 5_925, 3_001, 2_552, 2_552],
    ];
    for (number, pinned) in DEEP.iter().zip(pinned) {
        assert_eq!(totals(&verdict(*number)), pinned, "profile {number}");
    }
}

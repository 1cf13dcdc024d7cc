//! Pacing judged on the real captures whose sources state no licence, so
//! the repository does not carry them: they are read from `shared/traces`
//! beside it (`../shared/traces` from the clone's root). Every test here is
//! ignored by a plain `cargo test`; run them with
//!
//! ```sh
//! cargo test -p evenstep-workspace-tests --test unlicensed_captures -- --ignored
//! ```
//!
//! and they fail, saying where the captures were looked for, when the
//! captures are not there. Fed the present times a game read, each shown
//! frame's steps are judged against the refreshes it stayed on screen, over
//! eight start phases.
//!
//! - The default (locked pacing) runs no more wrong frames than Godot's
//!   jitter fix plus a frame or 2%, over the start phases, on any capture,
//!   the full-screen vsync game behind a deep queue (Judgment) included.
//! - Where the frames follow the display (Starfield, capped by the driver in
//!   step with the refreshes) snapped and locked pacing run no wrong frame,
//!   fewer than the naive accumulator and Godot's jitter fix.
//!
//! - With display feedback the default runs on each composed capture no
//!   more wrong frames than the better baseline. Over the six composed
//!   captures together (these three and the three in the repository) it
//!   does not reach a quarter of the better baseline's: the two GPU-bound
//!   captures, Cyberpunk 2077 and Like a Dragon Gaiden, show their frames
//!   when the GPU finishes them, which neither the timestamps nor a
//!   showing reported frames later can tell in advance.
//!
//! What is not reached, and why, is in the lab's README.

use std::path::{Path, PathBuf};

use evenstep_lab::{Config, Rate, Settings, SweepReport, judge_file};

// The lab's own judging of its captures (`real_captures.rs` runs it on the
// three the repository carries).
#[path = "../../evenstep-lab/tests/support/judged.rs"]
mod judged;
use judged::{beats_both_baselines, better_baseline, total};

const TRACES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/traces");

fn capture(name: &str) -> PathBuf {
    let path = Path::new(TRACES).join(format!("{name}.csv"));
    assert!(
        path.is_file(),
        "{} is missing: the captures without a stated licence are not in the \
         repository; these tests read them from `shared/traces` beside it \
         (../shared/traces from the clone's root), and fail without them",
        path.display()
    );
    path
}

fn judge(name: &str) -> SweepReport {
    let display_hz = name.contains("vrr").then(|| Rate::hz(120).unwrap());
    judged::judge(&capture(name), display_hz)
}

const ALL: [&str; 6] = [
    "starfield_120hz_composed",
    "likeadragongaiden_120hz_composed",
    "cyberpunk2077_120hz_composed",
    "naraka_120hz_vrr",
    "heaven_144hz_vsync",
    "judgment_60hz_vsync",
];

#[test]
#[ignore = "reads ../shared/traces beside the repository: run with --ignored"]
fn the_default_is_within_two_percent_of_godots_jitter_fix_and_feedback_never_makes_it_worse_on_every_capture()
 {
    for name in ALL {
        let report = judge(name);
        judged::assert_within_godot(name, &report);
        judged::assert_feedback_never_worse(name, &report);
    }
}

#[test]
#[ignore = "reads ../shared/traces beside the repository: run with --ignored"]
fn where_frames_follow_the_display_snapped_and_locked_run_no_wrong_frame() {
    let report = judge("starfield_120hz_composed");
    assert_eq!(total(&report, Config::Snapped), 0);
    assert_eq!(total(&report, Config::Locked), 0);
    assert!(
        total(&report, Config::Godot) > 0,
        "Godot's jitter fix: {}",
        total(&report, Config::Godot)
    );
    assert!(total(&report, Config::NaiveF64) > 600);
}

#[test]
#[ignore = "reads ../shared/traces beside the repository: run with --ignored"]
fn the_issue_targets_the_lab_readme_lists_as_met_are_met() {
    // The README's table of targets, the ones it lists as met: on
    // Starfield snapped and locked pacing beat both baselines, and snapped
    // runs at least 25% fewer wrong frames than the better one (none
    // against Godot's 2 in 8 phases). Those it lists as missed are not
    // pinned: a planner that meets one more is better.
    let report = judge("starfield_120hz_composed");
    for config in [Config::Snapped, Config::Locked] {
        assert!(beats_both_baselines(&report, config), "{config}");
    }
    let better = total(&report, Config::NaiveF64).min(total(&report, Config::Godot));
    let snapped = total(&report, Config::Snapped);
    assert!(
        snapped * 4 <= better * 3,
        "snapped {snapped}, better {better}"
    );
}

#[test]
#[ignore = "reads ../shared/traces beside the repository: run with --ignored"]
fn every_fixed_refresh_capture_is_measured_at_the_rate_its_display_times_show() {
    // All nine, the three in the repository included: the rate, and what
    // it was measured from (the variable refresh one is refused, below).
    let carried = concat!(env!("CARGO_MANIFEST_DIR"), "/../evenstep-lab/traces");
    let measured = [
        (
            "csgo_60hz_composed",
            "60 Hz (measured 60.002 Hz: 2169 display gaps covering 2169 refreshes of 16.666 ms)",
        ),
        (
            "cyberpunk2077_120hz_composed",
            "120 Hz (measured 120.003 Hz: 684 display gaps covering 3594 refreshes of 8.333 ms)",
        ),
        (
            "dwm_120hz_vsync",
            "120 Hz (measured 119.844 Hz: 1691 display gaps covering 1691 refreshes of 8.344 ms)",
        ),
        (
            "farcrynewdawn_120hz_composed",
            "120 Hz (measured 119.837 Hz: 1170 display gaps covering 1827 refreshes of 8.345 ms)",
        ),
        (
            "heaven_144hz_vsync",
            "144 Hz (measured 143.984 Hz: 1901 display gaps covering 1901 refreshes of 6.945 ms)",
        ),
        (
            "judgment_60hz_vsync",
            "60 Hz (measured 59.950 Hz: 6817 display gaps covering 6884 refreshes of 16.681 ms)",
        ),
        (
            "likeadragongaiden_120hz_composed",
            "120 Hz (measured 120.003 Hz: 2681 display gaps covering 3597 refreshes of 8.333 ms)",
        ),
        (
            "residentevil2_120hz_composed",
            "120 Hz (measured 119.838 Hz: 3048 display gaps covering 3048 refreshes of 8.345 ms)",
        ),
        (
            "starfield_120hz_composed",
            "60 Hz (measured 60.002 Hz: 1799 display gaps covering 1799 refreshes of 16.666 ms)",
        ),
    ];
    for (name, display) in measured {
        let carried = Path::new(carried).join(format!("{name}.csv"));
        let path = if carried.is_file() {
            carried
        } else {
            capture(name)
        };
        let report = judge_file(&path, Settings::default(), None, None, 1).unwrap();
        assert_eq!(report.display, display, "{name}");
    }
}

#[test]
#[ignore = "reads ../shared/traces beside the repository: run with --ignored"]
fn the_variable_refresh_capture_is_not_judged_without_a_rate() {
    let error = judge_file(
        &capture("naraka_120hz_vrr"),
        Settings::default(),
        None,
        None,
        8,
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("no steady refresh rate") && error.contains("--display-hz"),
        "{error}"
    );
}

#[test]
#[ignore = "reads ../shared/traces beside the repository: run with --ignored"]
fn with_feedback_the_default_is_within_the_better_baseline_on_five_of_six_composed_captures() {
    let carried = concat!(env!("CARGO_MANIFEST_DIR"), "/../evenstep-lab/traces");
    let composed = [
        (Path::new(carried).join("csgo_60hz_composed.csv"), 1_784),
        (
            Path::new(carried).join("farcrynewdawn_120hz_composed.csv"),
            1_194,
        ),
        (
            Path::new(carried).join("residentevil2_120hz_composed.csv"),
            1_925,
        ),
        (capture("starfield_120hz_composed"), 2),
        (capture("likeadragongaiden_120hz_composed"), 5_242),
        (capture("cyberpunk2077_120hz_composed"), 1_211),
    ];
    let (mut fed, mut better) = (0, 0);
    for (path, pinned_better) in composed {
        let name = path.display().to_string();
        let report = judged::judge(&path, None);
        // The lab README lists Like a Dragon Gaiden as missed (660.1 a
        // phase against the naive accumulator's 655.2): not pinned, so a
        // planner that meets it stays green.
        if !name.contains("likeadragongaiden") {
            judged::assert_feedback_within_the_better_baseline(&name, &report);
        }
        assert_eq!(better_baseline(&report), pinned_better, "{name}");
        fed += total(&report, Config::Feedback);
        better += pinned_better;
    }
    // Pinned (the README's table): 0.63 of the better baseline's.
    assert_eq!((fed, better), (7_109, 11_358));
}

#[test]
#[ignore = "reads ../shared/traces beside the repository: run with --ignored"]
fn where_the_game_follows_the_display_the_default_adds_under_a_quarter_step_of_latency_and_no_judder()
 {
    let report = judge("starfield_120hz_composed");
    let (mean, _) = report.latency_default_minus_off_steps.unwrap();
    assert!(mean.abs() < 0.25, "{mean}");
    let default = report.judder(Config::Locked).mean_mean().unwrap();
    let naive = report.judder(Config::NaiveF64).mean_mean().unwrap();
    // The negative control: the plain accumulator draws the presents' jitter.
    assert!(
        default < 0.05 && naive > 0.3,
        "default {default} ms, naive {naive} ms"
    );
}

//! Pacing judged on the real captures carried in the repository
//! (`traces/`, whose licences allow it): fed the present times a game read,
//! each shown frame's steps against the refreshes it stayed on screen, over
//! eight start phases. The captures whose sources state no licence are
//! judged by `unlicensed_captures.rs`, run on request.
//!
//! - The default (locked pacing) runs no more wrong frames than Godot's
//!   jitter fix plus a frame or 2%, over the start phases, on any capture.
//! - On Far Cry New Dawn, whose opening second follows the display, the
//!   default runs fewer wrong frames than the naive accumulator and Godot's
//!   jitter fix over the whole capture.
//!
//! - With display feedback (each shown frame's display time, given to the
//!   plan of the first row presented after it), the default runs on each
//!   composed capture no more wrong frames than the better baseline, and
//!   over the three together under a quarter of the better baseline's.
//!
//! What is not reached, and why, is in the lab's README: on captures whose
//! present times keep no phase with the display (a game presenting freely
//! into a compositor), no planner fed them can know which refresh a frame
//! will reach, and what snapping does there is luck.

use std::path::{Path, PathBuf};

use evenstep_lab::{Config, SweepReport};

#[path = "support/judged.rs"]
mod judged;
use judged::{beats_both_baselines, better_baseline, total};

const TRACES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/traces");

fn capture(name: &str) -> PathBuf {
    Path::new(TRACES).join(format!("{name}.csv"))
}

fn judge(name: &str) -> SweepReport {
    judged::judge(&capture(name), None)
}

const ALL: [&str; 3] = [
    "csgo_60hz_composed",
    "farcrynewdawn_120hz_composed",
    "residentevil2_120hz_composed",
];

#[test]
fn the_default_is_within_two_percent_of_godots_jitter_fix_and_feedback_never_makes_it_worse_on_every_capture()
 {
    for name in ALL {
        let report = judge(name);
        judged::assert_within_godot(name, &report);
        judged::assert_feedback_never_worse(name, &report);
    }
}

#[test]
fn on_far_cry_new_dawn_the_default_runs_fewer_wrong_frames_than_both_baselines() {
    let report = judge("farcrynewdawn_120hz_composed");
    let locked = total(&report, Config::Locked);
    for baseline in [Config::NaiveF64, Config::Godot] {
        let base = total(&report, baseline);
        assert!(locked < base, "locked {locked}, {baseline} {base}");
    }
}

#[test]
fn the_issue_targets_the_lab_readme_lists_as_met_are_met() {
    // The README's table of targets, the ones it lists as met: snapped
    // pacing beats both baselines on csgo and Resident Evil 2, the default
    // on Far Cry New Dawn. Those it lists as missed are not pinned here: a
    // planner that meets one more is better, and its test stays green.
    for (name, config) in [
        ("csgo_60hz_composed", Config::Snapped),
        ("farcrynewdawn_120hz_composed", Config::Locked),
        ("residentevil2_120hz_composed", Config::Snapped),
    ] {
        let report = judge(name);
        assert!(
            beats_both_baselines(&report, config),
            "{name}: {config} {}, naive {}, Godot {}",
            total(&report, config),
            total(&report, Config::NaiveF64),
            total(&report, Config::Godot)
        );
    }
}

#[test]
fn with_feedback_the_default_runs_under_a_quarter_of_the_better_baselines_wrong_frames() {
    let (mut fed, mut better) = (0, 0);
    for name in ALL {
        let report = judge(name);
        judged::assert_feedback_within_the_better_baseline(name, &report);
        fed += total(&report, Config::Feedback);
        better += better_baseline(&report);
    }
    // Pinned: 12.5, 48.2 and 16.1 wrong frames a phase against 223.0,
    // 149.2 and 240.6 (the README's table).
    assert_eq!((fed, better), (615, 4_903));
    assert!(fed * 4 <= better);
}

#[test]
fn on_every_capture_the_display_fed_accumulator_draws_no_judder_and_the_plain_one_does() {
    for name in ALL {
        let report = judge(name);
        let fed = report.display_fed_judder.mean_mean().unwrap();
        let naive = report.judder(Config::NaiveF64).mean_mean().unwrap();
        assert!(
            fed < 1e-3 && naive > 1.0,
            "{name}: fed {fed} ms, naive {naive} ms"
        );
    }
}

//! What the real-capture tests share: a capture judged at eight start
//! phases, and the verdicts they ask of it.

use std::path::Path;

use evenstep_lab::{Config, Rate, Settings, SweepReport, judge_file};

/// `path` judged by the lab's rule at eight start phases, with the
/// display's rate given for a variable-refresh capture.
pub(crate) fn judge(path: &Path, display_hz: Option<Rate>) -> SweepReport {
    judge_file(path, Settings::default(), display_hz, None, 8)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Total wrong frames over the start phases.
pub(crate) fn total(report: &SweepReport, config: Config) -> u64 {
    report.counts(config).total()
}

/// Whether `config` ran fewer wrong frames, over all start phases, than
/// both baselines fed the present times.
pub(crate) fn beats_both_baselines(report: &SweepReport, config: Config) -> bool {
    let wrong = total(report, config);
    [Config::NaiveF64, Config::Godot]
        .iter()
        .all(|&baseline| wrong < total(report, baseline))
}

/// The default (locked) is no worse than pacing off at every start phase.
pub(crate) fn assert_never_worse_than_off(name: &str, report: &SweepReport) {
    let off = &report.counts(Config::Off).wrong;
    let locked = &report.counts(Config::Locked).wrong;
    for (phase, (locked, off)) in locked.iter().zip(off).enumerate() {
        assert!(
            locked <= off,
            "{name}, phase {phase}/8: locked {locked}, off {off}"
        );
    }
}

/// The default plans exactly as pacing off, at every start phase.
pub(crate) fn assert_plans_as_off(name: &str, report: &SweepReport) {
    assert_eq!(
        report.counts(Config::Locked).wrong,
        report.counts(Config::Off).wrong,
        "{name}"
    );
}

/// The better baseline's total: the naive accumulator's or Godot's, both
/// fed the present times.
pub(crate) fn better_baseline(report: &SweepReport) -> u64 {
    total(report, Config::NaiveF64).min(total(report, Config::Godot))
}

/// With feedback, the default runs no more wrong frames than the better
/// baseline, or than one a start phase where that is fewer.
pub(crate) fn assert_feedback_within_the_better_baseline(name: &str, report: &SweepReport) {
    let fed = total(report, Config::Feedback);
    let phases = report.counts(Config::Feedback).wrong.len() as u64;
    let better = better_baseline(report);
    assert!(
        fed <= better.max(phases),
        "{name}: with feedback {fed}, the better baseline {better}"
    );
}

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

/// The default (locked) runs, over the start phases, no more wrong frames
/// than Godot's jitter fix plus a frame or 2% of Godot's, whichever is more
/// (in totals over the phases: a frame a phase).
pub(crate) fn assert_within_godot(name: &str, report: &SweepReport) {
    let godot = total(report, Config::Godot);
    let locked = total(report, Config::Locked);
    let phases = report.counts(Config::Locked).wrong.len() as u64;
    let allowed = godot + phases.max(godot.div_ceil(50));
    assert!(
        locked <= allowed,
        "{name}: locked {locked}, Godot {godot}, allowed {allowed} over {phases} phases"
    );
}

/// With display feedback the default runs no more wrong frames than
/// without it, over the start phases and at every phase but by two.
pub(crate) fn assert_feedback_never_worse(name: &str, report: &SweepReport) {
    let fed = &report.counts(Config::Feedback).wrong;
    let unfed = &report.counts(Config::Locked).wrong;
    let worst = fed
        .iter()
        .zip(unfed)
        .map(|(&f, &u)| f.saturating_sub(u))
        .max();
    assert!(
        fed.iter().sum::<u64>() <= unfed.iter().sum::<u64>() && worst <= Some(2),
        "{name}: with feedback {fed:?}, without {unfed:?}"
    );
}

/// The better baseline's total: the naive accumulator's or Godot's, both
/// fed the present times.
pub(crate) fn better_baseline(report: &SweepReport) -> u64 {
    total(report, Config::NaiveF64).min(total(report, Config::Godot))
}

/// With feedback, the default runs no more wrong frames than the better
/// baseline plus one a start phase or 2% of it, whichever is more (the
/// bound the default meets without feedback, against Godot): where
/// feedback does no better than the stamps, the referee leaves the stamps
/// to plan, and the default's own margin is what is left.
pub(crate) fn assert_feedback_within_the_better_baseline(name: &str, report: &SweepReport) {
    let fed = total(report, Config::Feedback);
    let phases = report.counts(Config::Feedback).wrong.len() as u64;
    let better = better_baseline(report);
    assert!(
        fed <= better + phases.max(better / 50),
        "{name}: with feedback {fed}, the better baseline {better}"
    );
}

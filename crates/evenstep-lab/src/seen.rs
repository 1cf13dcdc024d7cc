//! The input latency and judder tables: a block under each judged trace,
//! and a summary of each over every trace judged.

use core::fmt::Write as _;

use crate::config::Config;
use crate::judder::PhaseJudder;
use crate::latency::{PhaseLatency, spread};
use crate::sweep::SweepReport;
use crate::table::Table;

/// What the latency summary judges, printed under its heading.
pub(crate) const LATENCY_LABEL: &str = "  judges how long an input waits from its stamp to the \
pump whose steps read it (the evenstep loop's rule: the first
  step not yet run that ends at or after the stamp), stamps spread uniformly over wall time; \
default - off = the default's
  median minus pacing off's, in steps, mean over the start phases (worst phase)";

/// What the judder summary judges, printed under its heading.
pub(crate) const JUDDER_LABEL: &str = "  judges what a game that draws interpolated shows: \
|change in drawn time - change in display time| between
  consecutive shown frames, drawn time = (steps run + blend factor) x dt; display-fed = a \
naive f64 accumulator fed the display times";

/// The default's median latency minus pacing off's, in steps: the mean of
/// the start phases' differences and the largest, over the phases both
/// ran a step in.
pub(crate) fn default_minus_off(latency: &[PhaseLatency], step_ms: f64) -> Option<(f64, f64)> {
    let of = |config: Config| {
        latency
            .iter()
            .find(|line| line.config == config.key())
            .map(|line| line.median_ms.as_slice())
    };
    let differences: Vec<Option<f64>> = of(Config::Locked)?
        .iter()
        .zip(of(Config::Off)?)
        .map(|(default, off)| Some((default.as_ref()? - off.as_ref()?) / step_ms))
        .collect();
    let mean = crate::latency::mean(&differences)?;
    let (_, worst) = spread(&differences)?;
    Some((mean, worst))
}

/// `value` to `places` decimals, or `-` when there is none.
fn ms(value: Option<f64>, places: usize) -> String {
    value.map_or_else(|| "-".to_owned(), |value| format!("{value:.places$}"))
}

fn latency_cell(line: &PhaseLatency) -> String {
    format!("{} / {}", ms(line.median_mean(), 2), ms(line.p99_mean(), 2))
}

fn judder_cell(line: &PhaseJudder) -> String {
    format!("{} / {}", ms(line.mean_mean(), 3), ms(line.p99_mean(), 3))
}

/// `default - off` as `+0.062 (+0.125)`.
fn steps_cell(report: &SweepReport) -> String {
    report.latency_default_minus_off_steps.map_or_else(
        || "-".to_owned(),
        |(mean, worst)| format!("{mean:+.3} ({worst:+.3})"),
    )
}

/// The block under a judged trace: a line per configuration with its
/// latency and judder, each a mean over the start phases.
pub(crate) fn block(report: &SweepReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  input latency (stamp to the pump that reads it) and judder of the drawn time, ms, mean \
         over {} start phases:",
        report.phases
    );
    let mut table = Table::new(&[18, 10, 15, 9, 13, 12]);
    table.row([
        "configuration",
        "median",
        "median range",
        "p99",
        "judder mean",
        "judder p99",
    ]);
    for (latency, judder) in report.latency.iter().zip(&report.judder) {
        let range = latency.median_spread().map_or_else(
            || "-".to_owned(),
            |(low, high)| format!("{low:.2}-{high:.2}"),
        );
        table.row([
            latency.label.to_owned(),
            ms(latency.median_mean(), 2),
            range,
            ms(latency.p99_mean(), 2),
            ms(judder.mean_mean(), 3),
            ms(judder.p99_mean(), 3),
        ]);
    }
    let fed = &report.display_fed_judder;
    let dash = || "-".to_owned();
    table.row([
        "display-fed".to_owned(),
        dash(),
        dash(),
        dash(),
        ms(fed.mean_mean(), 3),
        ms(fed.p99_mean(), 3),
    ]);
    out.push_str(&table.render("  "));
    let _ = writeln!(
        out,
        "  default minus off, median latency: {} steps, mean over the start phases (worst phase)",
        steps_cell(report)
    );
    out
}

/// The latency summary: a row per judged trace, a cell per configuration.
pub(crate) fn latency_summary<'a>(
    out: &mut String,
    phases: u32,
    judged: impl Iterator<Item = (usize, &'a SweepReport)>,
) {
    let _ = writeln!(
        out,
        "\ninput latency, median / p99 ms, mean over {phases} start phases\n{LATENCY_LABEL}:"
    );
    let mut least = vec![42];
    least.extend(Config::ALL.map(|_| 18));
    least.push(17);
    let mut table = Table::new(&least);
    table.row(
        core::iter::once("trace")
            .chain(Config::ALL.map(Config::label))
            .chain(core::iter::once("default - off")),
    );
    for (number, report) in judged {
        let cells = report.latency.iter().map(latency_cell);
        table.row(
            core::iter::once(format!("#{number} {}", report.name))
                .chain(cells)
                .chain(core::iter::once(steps_cell(report))),
        );
    }
    out.push_str(&table.render(""));
}

/// The judder summary: a row per judged trace, a cell per configuration.
pub(crate) fn judder_summary<'a>(
    out: &mut String,
    phases: u32,
    judged: impl Iterator<Item = (usize, &'a SweepReport)>,
) {
    let _ = writeln!(
        out,
        "\njudder of the drawn time, mean / p99 ms over the shown frames, mean over {phases} \
         start phases\n{JUDDER_LABEL}:"
    );
    let mut least = vec![42];
    least.extend(Config::ALL.map(|_| 18));
    least.push(16);
    let mut table = Table::new(&least);
    table.row(
        core::iter::once("trace")
            .chain(Config::ALL.map(Config::label))
            .chain(core::iter::once("display-fed")),
    );
    for (number, report) in judged {
        let cells = report.judder.iter().map(judder_cell);
        table.row(
            core::iter::once(format!("#{number} {}", report.name))
                .chain(cells)
                .chain(core::iter::once(judder_cell(&report.display_fed_judder))),
        );
    }
    out.push_str(&table.render(""));
}

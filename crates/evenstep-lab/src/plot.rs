//! The SVG plot of one trace's report: steps per frame over a window of
//! frames, one band per configuration, and drift of simulation time against
//! the wall over the whole trace.

use core::fmt;
use core::ops::Range;

use plotters::prelude::*;

use crate::config::Config;
use crate::report::TraceReport;

/// The drawing's size in pixels.
const SIZE: (u32, u32) = (1200, 900);
/// Height of the steps panel; the drift panel gets the rest.
const STEPS_PANEL: u32 = 500;
/// Vertical distance between two configurations' step bands. Steps are drawn
/// from 0 to 4 (4 meaning 4 or more), so bands never touch.
const BAND_STEPS: u32 = 6;
const BAND: f64 = BAND_STEPS as f64;
/// At most this many stretches of frames per drift series.
const DRIFT_BUCKETS: usize = 500;
/// Width of the drift panel's legend, in pixels.
const LEGEND_WIDTH: u32 = 190;
/// Drift line widths, in configuration order: each narrower than the one
/// before and drawn over it, so lines that coincide stay visible, the last
/// still 2 px wide.
const LINE_WIDTHS: [u32; Config::ALL.len()] = [14, 12, 10, 8, 6, 4, 2];

/// One colour per configuration, in [`Config::ALL`] order, each its own:
/// naive f64 red, Godot orange, off blue, centred green, snapped purple,
/// locked (the default) brown, locked with feedback grey.
const COLOURS: [RGBColor; Config::ALL.len()] = [
    RGBColor(214, 39, 40),
    RGBColor(255, 127, 14),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(127, 127, 127),
];

/// The plot could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotError {
    message: String,
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "drawing the plot: {}", self.message)
    }
}

impl std::error::Error for PlotError {}

fn plot_error(error: impl fmt::Display) -> PlotError {
    PlotError {
        message: error.to_string(),
    }
}

/// Draws `report` as an SVG document: steps per frame for `frames` frames
/// from `first_frame` (one band per configuration, offset vertically), and
/// drift (simulation minus wall time, ms) over the whole trace.
///
/// # Errors
///
/// [`PlotError`] if the plotting library fails (it does not for any report
/// the lab makes; an empty trace gives empty panels).
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Rate, Report, Settings, Synthetic, svg};
///
/// let trace = Synthetic::new(Rate::hz(60)?).frames(200)?.generate();
/// let report = Report::new(Settings::default(), &[trace]);
/// let drawing = svg(&report.traces[0], 16, 120)?;
/// assert!(drawing.starts_with("<svg"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn svg(report: &TraceReport, first_frame: usize, frames: usize) -> Result<String, PlotError> {
    let mut document = String::new();
    {
        let root = SVGBackend::with_string(&mut document, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let (upper, lower) = root.split_vertically(STEPS_PANEL);
        steps_panel(&upper, report, first_frame, frames)?;
        drift_panel(&lower, report)?;
        root.present().map_err(plot_error)?;
    }
    Ok(document)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn seconds(nanos: u64) -> f64 {
    nanos as f64 / 1e9
}

fn steps_panel(
    area: &Area<'_>,
    report: &TraceReport,
    first_frame: usize,
    frames: usize,
) -> Result<(), PlotError> {
    let walls = report.trace().wall_times();
    let (Range { start, end }, Range { start: x0, end: x1 }) =
        steps_window(&walls, first_frame, frames);
    let bands = report.runs().len();
    let top = BAND * bands as f64 - 1.5;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "{}: steps per frame, frames {start}–{} (one band per configuration; 4 = 4 or more)",
                report.name,
                end.saturating_sub(1)
            ),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(44)
        .build_cartesian_2d(x0..x1, -0.5..top)
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(BAND_STEPS as usize * bands)
        .y_label_formatter(&|y| band_label(*y))
        .x_desc("time (s)")
        .y_desc("steps")
        .draw()
        .map_err(plot_error)?;
    for (index, run) in report.runs().iter().enumerate() {
        // The first configuration at the top.
        let base = BAND * (bands - 1 - index) as f64;
        let colour = COLOURS[index % COLOURS.len()];
        let points = staircase(&walls, run.steps(), start..end, (x0, x1), base);
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))
            .map_err(plot_error)?;
        chart
            .draw_series(std::iter::once(Text::new(
                run.config().label(),
                (x0 + (x1 - x0) * 0.005, base + 4.7),
                ("sans-serif", 15).into_font().color(&colour),
            )))
            .map_err(plot_error)?;
    }
    Ok(())
}

/// The frames the steps panel shows, `frames` from `first_frame` (as many
/// as there are), and the time axis they span, in seconds.
fn steps_window(walls: &[u64], first_frame: usize, frames: usize) -> (Range<usize>, Range<f64>) {
    let start = first_frame.min(walls.len());
    let end = start.saturating_add(frames).min(walls.len());
    let x0 = walls.get(start).copied().map_or(0.0, seconds);
    // The last frame's segment runs to where the next frame would be.
    let x1 = walls
        .get(end)
        .copied()
        .map_or_else(|| walls.last().copied().map_or(1.0, seconds), seconds)
        .max(x0 + 1e-3);
    (start..end, x0..x1)
}

/// Frames `frames` of `steps` as a staircase raised by `base`: each frame's
/// count (4 meaning 4 or more) held from its wall time to the next frame's,
/// on an axis from `x0` to `x1` seconds.
fn staircase(
    walls: &[u64],
    steps: &[u64],
    frames: Range<usize>,
    (x0, x1): (f64, f64),
    base: f64,
) -> Vec<(f64, f64)> {
    let mut points = Vec::with_capacity(2 * frames.len());
    for i in frames {
        let y = base + steps[i].min(4) as f64;
        // Jittered stamps need not be in order: a point far outside the
        // axis would overflow the plot's pixel arithmetic, so each is kept
        // on the axis.
        let next = walls.get(i + 1).copied().map_or(x1, seconds);
        points.push((seconds(walls[i]).clamp(x0, x1), y));
        points.push((next.clamp(x0, x1), y));
    }
    points
}

/// A step-band tick label: the step count within its band, blank between
/// bands.
fn band_label(y: f64) -> String {
    let value = y.round() as i64;
    match value.rem_euclid(i64::from(BAND_STEPS)) {
        4 => "4+".to_owned(),
        within @ 0..=3 if (y - value as f64).abs() < 1e-6 => within.to_string(),
        _ => String::new(),
    }
}

fn drift_panel(area: &Area<'_>, report: &TraceReport) -> Result<(), PlotError> {
    let (plot_area, legend_area) = area.split_horizontally(SIZE.0 - LEGEND_WIDTH);
    let walls = report.trace().wall_times();
    // The latest frame, not the last: jittered stamps need not be in order.
    let x1 = walls.iter().copied().max().map_or(1.0, seconds).max(1e-3);
    let series: Vec<Vec<Bucket>> = report
        .runs()
        .iter()
        .map(|run| buckets(&walls, run.drift_nanos()))
        .collect();
    let range = drift_range(&series);
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(
            "simulation time minus wall time (ms): the line is the mean, the shade the range",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..x1, range)
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc("drift (ms)")
        .draw()
        .map_err(plot_error)?;
    for (index, buckets) in series.iter().enumerate() {
        let colour = COLOURS[index % COLOURS.len()];
        let outline: Vec<(f64, f64)> = buckets
            .iter()
            .map(|b| (b.time, b.high))
            .chain(buckets.iter().rev().map(|b| (b.time, b.low)))
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                colour.mix(0.12).filled(),
            )))
            .map_err(plot_error)?;
    }
    // Identical series are common (the naive and the unpaced accumulator
    // often agree step for step): narrower lines on top keep both visible.
    for (index, buckets) in series.iter().enumerate() {
        let colour = COLOURS[index % COLOURS.len()];
        let width = LINE_WIDTHS[index % LINE_WIDTHS.len()];
        let mean = buckets.iter().map(|b| (b.time, b.mean));
        chart
            .draw_series(LineSeries::new(mean, colour.stroke_width(width)))
            .map_err(plot_error)?;
    }
    drift_legend(&legend_area, report)
}

/// The drift axis: from the lowest to the highest drift of any series,
/// padded by 8% (at least 0.5 ms), or around zero when there is none.
fn drift_range(series: &[Vec<Bucket>]) -> Range<f64> {
    let (mut low, mut high) = series
        .iter()
        .flatten()
        .fold((f64::MAX, f64::MIN), |(lo, hi), b| {
            (lo.min(b.low), hi.max(b.high))
        });
    if low > high {
        (low, high) = (-1.0, 1.0);
    }
    let pad = ((high - low) * 0.08).max(0.5);
    (low - pad)..(high + pad)
}

/// The drift panel's legend: each configuration's line, in its colour and
/// width, and its label.
fn drift_legend(area: &Area<'_>, report: &TraceReport) -> Result<(), PlotError> {
    for ((index, run), y) in report.runs().iter().enumerate().zip((60..).step_by(26)) {
        let colour = COLOURS[index % COLOURS.len()];
        let width = LINE_WIDTHS[index % LINE_WIDTHS.len()];
        area.draw(&PathElement::new(
            vec![(8, y), (36, y)],
            colour.stroke_width(width),
        ))
        .map_err(plot_error)?;
        area.draw(&Text::new(
            run.config().label(),
            (44, y - 8),
            ("sans-serif", 15).into_font(),
        ))
        .map_err(plot_error)?;
    }
    Ok(())
}

/// A stretch of frames of one drift series, in seconds and milliseconds.
struct Bucket {
    time: f64,
    low: f64,
    high: f64,
    mean: f64,
}

/// `drift` (ns) against `walls` (ns), cut into at most [`DRIFT_BUCKETS`]
/// stretches of frames, each with its lowest, highest and mean drift, so a
/// spike is never lost and a flicker between two values reads as a band.
fn buckets(walls: &[u64], drift: &[i64]) -> Vec<Bucket> {
    let frames = walls.len().min(drift.len());
    let per_bucket = frames.div_ceil(DRIFT_BUCKETS).max(1);
    (0..frames)
        .step_by(per_bucket)
        .map(|start| {
            let stretch = &drift[start..(start + per_bucket).min(frames)];
            let low = stretch.iter().copied().min().unwrap_or(0);
            let high = stretch.iter().copied().max().unwrap_or(0);
            let sum: i128 = stretch.iter().map(|&d| i128::from(d)).sum();
            Bucket {
                time: seconds(walls[start]),
                low: low as f64 / 1e6,
                high: high as f64 / 1e6,
                mean: sum as f64 / stretch.len() as f64 / 1e6,
            }
        })
        .collect()
}

//! Drawing a frame: the box and its balls scaled to the canvas, the text
//! overlay, and the strip chart of frame gaps and steps along the bottom.

#![allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "layout sizes are small non-negative pixel counts"
)]

use evenstep::Alpha;

use crate::bounce::millis;
use crate::bounce::{Bounce, Hud};
use crate::canvas::Canvas;
use crate::controls::KEY_HELP;
use crate::world::{WORLD_HEIGHT, WORLD_WIDTH};

/// Outside the box.
pub const BACKGROUND: u32 = 0x000E_1117;
/// Inside the box.
pub const ARENA: u32 = 0x001B_2230;
/// Overlay text.
pub const TEXT: u32 = 0x00D0_D6E0;
/// The chart's background.
const CHART_BACKGROUND: u32 = 0x000A_0C10;
/// A frame-gap bar.
const GAP_BAR: u32 = 0x005C_6B80;
/// A gap the loop counted as an absence (drawn full height).
pub const ABSENCE_BAR: u32 = 0x00B0_60C0;
/// The step marks: 0, 1, 2 and 3 or more steps in a frame.
const STEP_MARKS: [u32; 4] = [0x003A_3F4A, 0x004C_AF50, 0x00FF_D54F, 0x00FF_FFFF];
/// The gap that fills the chart's height: 50 ms.
const CHART_FULL_SCALE_MS: f64 = 50.0;

pub(crate) fn draw(canvas: &mut Canvas<'_>, bounce: &Bounce, alpha: Alpha, hud: &Hud) {
    canvas.clear(BACKGROUND);
    let width = canvas.width();
    let height = canvas.height();
    let chart_height = (height / 5).max(24).min(height);
    let arena_height = height - chart_height;

    // The box keeps its aspect ratio, centred in the space above the chart.
    let scale = (width as f32 / WORLD_WIDTH).min(arena_height as f32 / WORLD_HEIGHT);
    let box_width = WORLD_WIDTH * scale;
    let box_height = WORLD_HEIGHT * scale;
    let left = (width as f32 - box_width) / 2.0;
    let top = (arena_height as f32 - box_height) / 2.0;
    canvas.fill_rect(
        left as i32,
        top as i32,
        box_width as u32,
        box_height as u32,
        ARENA,
    );
    let interpolate = bounce.settings.interpolate;
    for (ball, [x, y]) in bounce
        .world
        .balls()
        .iter()
        .zip(bounce.world.drawn_positions(alpha, interpolate))
    {
        canvas.fill_disc(
            left + x * scale,
            top + y * scale,
            ball.radius * scale,
            ball.colour,
        );
    }

    draw_overlay(canvas, bounce, hud, arena_height);
    draw_chart(canvas, bounce, arena_height, chart_height);
}

fn draw_overlay(canvas: &mut Canvas<'_>, bounce: &Bounce, hud: &Hud, arena_height: u32) {
    let text_scale = if canvas.width() >= 480 { 2 } else { 1 };
    let line = (7 * text_scale) as i32;
    let settings = &bounce.settings;
    let lines = [
        format!(
            "REAL {:.2} S  SIM {:.2} S  TICK {}",
            hud.real_time.as_secs_f64(),
            hud.sim_time.as_secs_f64(),
            hud.tick
        ),
        format!(
            "FPS {}  P99 {:.1} MS  ABSENCES {}",
            hud.fps,
            millis(hud.gap_p99),
            hud.absences
        ),
        format!(
            "SPEED {}  PACING {}  INTERP {}{}{}",
            settings.speed_label(),
            settings.pacing_label(),
            if settings.interpolate { "ON" } else { "OFF" },
            if hud.paused { "  PAUSED" } else { "" },
            if hud.recording_broken {
                "  RECORDING BROKEN"
            } else {
                ""
            }
        ),
    ];
    for (row, text) in lines.iter().enumerate() {
        canvas.text(6, 6 + row as i32 * line, text, text_scale, TEXT);
    }
    canvas.text(6, arena_height as i32 - line, KEY_HELP, 1, TEXT);
}

/// The chart: one bar per frame, at least a pixel wide, the newest at the
/// right edge. A canvas narrower than the chart's capacity shows the newest
/// frames that fit, never the oldest.
fn draw_chart(canvas: &mut Canvas<'_>, bounce: &Bounce, top: u32, chart_height: u32) {
    let width = canvas.width();
    canvas.fill_rect(0, top as i32, width, chart_height, CHART_BACKGROUND);
    let capacity = u32::try_from(bounce.chart.capacity().get()).unwrap_or(u32::MAX);
    let bar = (width / capacity).max(1);
    let slots = (width / bar) as usize;
    let kept = bounce.chart.samples().len();
    let shown = kept.min(slots);
    let first = slots - shown;
    // A strip of step marks along the top, the gap bars below it.
    let mark_height = 4.min(chart_height);
    let bars_height = chart_height - mark_height;
    let bottom = (top + chart_height) as i32;
    for (index, sample) in bounce.chart.samples().skip(kept - shown).enumerate() {
        let x = ((first + index) as u32 * bar) as i32;
        let (fraction, colour) = if sample.absence {
            (1.0, ABSENCE_BAR)
        } else {
            ((millis(sample.gap) / CHART_FULL_SCALE_MS).min(1.0), GAP_BAR)
        };
        let gap_height = (fraction * f64::from(bars_height)).round() as u32;
        canvas.fill_rect(x, bottom - gap_height as i32, bar, gap_height, colour);
        let mark = STEP_MARKS[(sample.steps as usize).min(STEP_MARKS.len() - 1)];
        canvas.fill_rect(x, top as i32, bar, mark_height, mark);
    }
}

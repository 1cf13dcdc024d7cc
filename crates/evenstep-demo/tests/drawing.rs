//! Contract: the demo draws into a pixel buffer of the size it is given,
//! hard-edged in exact colours, balls between steps when interpolating, a
//! strip chart of the newest frames that marks the loop's own absences, and
//! converts to the RGBA bytes a browser canvas takes.

mod common;

use std::num::NonZeroUsize;
use std::time::Duration;

use evenstep::{Alpha, Loop, ManualClock, Pacing, PumpKind, Timestamp};
use evenstep_demo::{
    ABSENCE_BAR, ARENA, BACKGROUND, BALL_COLOURS, Bounce, Canvas, FrameChart, Hud, TEXT,
};

#[test]
fn a_buffer_of_the_wrong_size_is_refused_with_the_size_it_needs() {
    let mut pixels = vec![0; 99];
    let error = Canvas::new(&mut pixels, 10, 10).err().unwrap();
    assert_eq!(error.len, 99);
    assert!(
        error
            .to_string()
            .contains("exactly width × height = 100 pixels"),
        "{error}"
    );
}

#[test]
fn a_disc_is_drawn_in_exactly_its_colour_and_clipped_to_the_canvas() {
    let mut pixels = vec![0; 20 * 20];
    let mut canvas = Canvas::new(&mut pixels, 20, 20).unwrap();
    canvas.fill_disc(0.0, 10.0, 6.0, 0x0012_3456);
    let lit = pixels.iter().filter(|&&p| p == 0x0012_3456).count();
    assert!(pixels.iter().all(|&p| p == 0 || p == 0x0012_3456));
    // Half a disc of radius 6 is about 57 pixels.
    assert!((50..=64).contains(&lit), "{lit}");
}

#[test]
fn shapes_off_the_canvas_draw_nothing_and_do_not_panic() {
    let mut pixels = vec![0; 8 * 8];
    let mut canvas = Canvas::new(&mut pixels, 8, 8).unwrap();
    canvas.fill_rect(-20, -20, 5, 5, 1);
    canvas.fill_rect(100, 3, 5, 5, 1);
    canvas.fill_disc(-50.0, -50.0, 10.0, 1);
    canvas.text(9, 9, "OFF", 2, 1);
    assert!(pixels.iter().all(|&p| p == 0));
}

#[test]
fn text_is_drawn_in_the_three_by_five_font() {
    let mut pixels = vec![0; 12 * 5];
    let mut canvas = Canvas::new(&mut pixels, 12, 5).unwrap();
    let end = canvas.text(0, 0, "1", 1, 7);
    assert_eq!(end, 4);
    let rows: Vec<String> = pixels
        .chunks(12)
        .map(|row| {
            row[..3]
                .iter()
                .map(|&p| if p == 7 { '#' } else { '.' })
                .collect()
        })
        .collect();
    assert_eq!(rows, [".#.", "##.", ".#.", ".#.", "###"]);
}

#[test]
fn rgba_bytes_are_red_green_blue_and_opaque() {
    let mut pixels = vec![0x0011_2233, 0x00AA_BBCC];
    let canvas = Canvas::new(&mut pixels, 2, 1).unwrap();
    let mut bytes = [0; 8];
    canvas.write_rgba(&mut bytes).unwrap();
    assert_eq!(bytes, [0x11, 0x22, 0x33, 0xFF, 0xAA, 0xBB, 0xCC, 0xFF]);
    assert!(canvas.write_rgba(&mut [0; 7]).is_err());
}

#[test]
fn an_interpolated_ball_is_drawn_between_its_last_two_steps() {
    let mut bounce = Bounce::new();
    bounce.world.step(0.05);
    let ball = &bounce.world.balls()[0];
    let ([x0, _], [x1, _]) = (*ball.position.previous(), *ball.position.current());
    let half = Alpha::new(Bounce::timestep().units_per_step() / 2, Bounce::timestep());
    let drawn: Vec<[f32; 2]> = bounce.world.drawn_positions(half, true).collect();
    assert_eq!(drawn[0][0], x0 + (x1 - x0) * 0.5);
    bounce.settings.interpolate = false;
    let drawn: Vec<[f32; 2]> = bounce.world.drawn_positions(half, false).collect();
    assert_eq!(drawn[0][0], x1);
}

#[test]
fn a_drawn_frame_shows_every_ball_colour_the_overlay_and_the_chart() {
    let clock = ManualClock::new();
    let mut game_loop = common::demo_loop(&clock);
    let mut bounce = Bounce::new();
    for _ in 0..120 {
        clock.advance(Duration::from_nanos(16_666_667));
        let report = game_loop
            .pump(&mut bounce, PumpKind::Paint)
            .report()
            .unwrap();
        bounce.chart.record(&report, &game_loop);
    }
    let (width, height) = (640, 400);
    let mut pixels = vec![0; width * height];
    let mut canvas = Canvas::new(&mut pixels, width as u32, height as u32).unwrap();
    bounce.draw(&mut canvas, game_loop.alpha(), &Hud::read(&game_loop));
    let count = |colour: u32| pixels.iter().filter(|&&p| p == colour).count();
    for colour in BALL_COLOURS {
        assert!(count(colour) > 0, "no pixel of {colour:06X}");
    }
    assert!(count(TEXT) > 500, "{} text pixels", count(TEXT));
    assert!(count(ARENA) > width * height / 2);
    assert!(count(BACKGROUND) > 0);
}

/// A demo loop on `clock` with pacing off, so steps fall on whole 50 ms.
fn chart_loop(clock: &ManualClock, absence: Option<Duration>) -> Loop<Bounce> {
    let mut builder = Loop::<Bounce>::builder()
        .clock(clock.clone())
        .timestep(Bounce::timestep())
        .pacing(Pacing::OFF);
    if let Some(threshold) = absence {
        builder = builder.absence_threshold(threshold);
    }
    let mut game_loop = builder.build().unwrap();
    game_loop.on_update(Bounce::update);
    game_loop.start();
    game_loop
}

/// Paints at each of `times_ms` (from the loop's start), recording each
/// frame in `bounce`'s chart.
fn paint_at(
    clock: &ManualClock,
    game_loop: &mut Loop<Bounce>,
    bounce: &mut Bounce,
    times_ms: &[u64],
) {
    for &ms in times_ms {
        clock.set(Timestamp::from_nanos(ms * 1_000_000));
        let report = game_loop.pump(bounce, PumpKind::Paint).report().unwrap();
        bounce.chart.record(&report, game_loop);
    }
}

fn kept(chart: &FrameChart) -> Vec<(u64, u64, bool)> {
    chart
        .samples()
        .map(|s| (s.gap.as_nanos() / 1_000_000, s.steps, s.absence))
        .collect()
}

#[test]
fn the_chart_keeps_the_latest_frames_their_gaps_and_steps() {
    let clock = ManualClock::new();
    let mut game_loop = chart_loop(&clock, None);
    let mut bounce = Bounce::new();
    bounce.chart = FrameChart::new(NonZeroUsize::new(3).unwrap());
    paint_at(&clock, &mut game_loop, &mut bounce, &[0, 50, 100, 200, 250]);
    assert_eq!(
        kept(&bounce.chart),
        [(50, 1, false), (100, 2, false), (50, 1, false)]
    );
    assert_eq!(bounce.chart.capacity().get(), 3);
}

#[test]
fn a_gap_is_marked_as_an_absence_by_the_threshold_the_loop_was_built_with() {
    let times = [0, 50, 250, 300];
    let clock = ManualClock::new();
    let mut game_loop = chart_loop(&clock, Some(Duration::from_millis(150)));
    let mut bounce = Bounce::new();
    paint_at(&clock, &mut game_loop, &mut bounce, &times);
    assert_eq!(
        kept(&bounce.chart),
        [(50, 1, false), (200, 4, true), (50, 1, false)]
    );

    // The same frames under the default threshold (1 s): no absence.
    let clock = ManualClock::new();
    let mut game_loop = chart_loop(&clock, None);
    let mut bounce = Bounce::new();
    paint_at(&clock, &mut game_loop, &mut bounce, &times);
    assert!(bounce.chart.samples().all(|s| !s.absence));
}

/// The columns of a `width` × 100 frame of `bounce` that hold an absence
/// bar.
fn absence_columns(bounce: &Bounce, game_loop: &Loop<Bounce>, width: u32) -> Vec<u32> {
    let mut pixels = vec![0; width as usize * 100];
    let mut canvas = Canvas::new(&mut pixels, width, 100).unwrap();
    bounce.draw(&mut canvas, game_loop.alpha(), &Hud::read(game_loop));
    let mut columns: Vec<u32> = pixels
        .iter()
        .enumerate()
        .filter(|&(_, &p)| p == ABSENCE_BAR)
        .map(|(i, _)| i as u32 % width)
        .collect();
    columns.dedup();
    columns.sort_unstable();
    columns.dedup();
    columns
}

#[test]
fn a_canvas_narrower_than_the_chart_shows_its_newest_frames() {
    let clock = ManualClock::new();
    let mut game_loop = chart_loop(&clock, None);
    let mut bounce = Bounce::new();
    let times: Vec<u64> = (0..=300).map(|frame| frame * 50).collect();
    paint_at(&clock, &mut game_loop, &mut bounce, &times);
    // Hidden for two seconds: the newest frame follows an absence.
    paint_at(&clock, &mut game_loop, &mut bounce, &[17_000]);
    assert_eq!(bounce.chart.samples().len(), 300);
    assert!(bounce.chart.samples().last().unwrap().absence);

    // 120 pixels for 300 frames: the newest 120, the absence at the right.
    assert_eq!(absence_columns(&bounce, &game_loop, 120), [119]);
    // Wide enough for two pixels a frame.
    assert_eq!(absence_columns(&bounce, &game_loop, 640), [638, 639]);
}

//! Contract: the demo draws into a pixel buffer of the size it is given,
//! hard-edged in exact colours, balls between steps when interpolating, and
//! converts to the RGBA bytes a browser canvas takes.

use std::time::Duration;

use evenstep::{Alpha, Loop, ManualClock, PumpKind, Timestamp};
use evenstep_demo::{ARENA, BACKGROUND, BALL_COLOURS, Bounce, Canvas, FrameChart, Hud, TEXT};

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
    let mut game_loop = Loop::<Bounce>::builder()
        .clock(clock.clone())
        .timestep(Bounce::timestep())
        .build()
        .unwrap();
    game_loop.on_update(Bounce::update);
    let mut bounce = Bounce::new();
    game_loop.start();
    for _ in 0..120 {
        clock.advance(Duration::from_nanos(16_666_667));
        let report = game_loop
            .pump(&mut bounce, PumpKind::Paint)
            .report()
            .unwrap();
        bounce.chart.record(report.now, report.steps);
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

#[test]
fn the_chart_keeps_the_latest_frames_and_their_gaps() {
    let mut chart = FrameChart::new(3);
    for (ms, steps) in [(0, 0), (16, 1), (33, 1), (50, 2), (83, 0)] {
        chart.record(Timestamp::from_nanos(ms * 1_000_000), steps);
    }
    let kept: Vec<(u64, u64)> = chart
        .samples()
        .map(|s| (s.gap.as_nanos() / 1_000_000, s.steps))
        .collect();
    assert_eq!(kept, [(17, 1), (17, 2), (33, 0)]);
}

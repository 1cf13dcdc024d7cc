//! How pacing holds up as a game's render times get noisier: synthetic
//! vsync captures (60, 59.95 and 120 Hz; a queue one or two frames deep;
//! 3 or 9 ms of render work) with render-time noise from ±0.6 to ±12 ms
//! (the mean of four uniform draws, so the standard deviation is about 0.29
//! of the bound), each judged by the frames shown at eight start phases.
//!
//! `cargo run --release -p evenstep-lab --example noise_scan`
//!
//! Each row gives mean / worst wrong shown frames (of 10,000) for the naive
//! accumulator, Godot's jitter fix, pacing off, snapped (2 ms) and locked
//! pacing, then the display-fed count and the start phases at which locked
//! pacing ran more wrong frames than pacing off.

use evenstep_lab::{Config, Queued, Rate, Settings, judge_trace};

fn main() {
    println!(
        "{:>6} {:>5} {:>6} {:>7} {:>14} {:>14} {:>14} {:>14} {:>14} {:>7} {:>6}",
        "Hz",
        "queue",
        "render",
        "noise",
        "naive f64",
        "godot",
        "off",
        "snapped",
        "locked",
        "disp",
        "worse"
    );
    for rate in ["60", "59.95", "120"] {
        let hz: Rate = rate.parse().expect("a rate");
        for depth in [1_u64, 2] {
            for noise_us in [600_u64, 1_200, 2_400, 4_000, 6_000, 8_000, 12_000] {
                for render_us in [3_000_u64, 9_000] {
                    if rate == "120" && render_us == 9_000 {
                        continue; // longer than a refresh
                    }
                    let capture = Queued::new(hz)
                        .seed(noise_us + depth)
                        .render(render_us, noise_us)
                        .expect("spans of milliseconds are within the bounds")
                        .queue(&[depth], 0)
                        .generate();
                    let report = judge_trace(&capture, Settings::default(), None, 8)
                        .expect("a vsync capture has a steady display rate");
                    let cell = |config: Config| {
                        let counts = report.counts(config);
                        format!("{:.1} / {}", counts.mean(), counts.worst())
                    };
                    let off = &report.counts(Config::Off).wrong;
                    let locked = &report.counts(Config::Locked).wrong;
                    let worse = off.iter().zip(locked).filter(|(o, l)| l > o).count();
                    println!(
                        "{rate:>6} {depth:>5} {:>4}ms {:>5}ms {:>14} {:>14} {:>14} {:>14} {:>14} {:>7} {worse:>6}",
                        render_us / 1_000,
                        format!("±{:.1}", noise_us as f64 / 1_000.0),
                        cell(Config::NaiveF64),
                        cell(Config::Godot),
                        cell(Config::Off),
                        cell(Config::Snapped),
                        cell(Config::Locked),
                        report.display_fed,
                    );
                }
            }
        }
    }
}

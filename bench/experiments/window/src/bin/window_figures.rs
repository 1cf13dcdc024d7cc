//! Measures the bounce demo in a real window: the process's CPU use while
//! the window is shown and while it is hidden, and the frame gaps the loop
//! saw. Prints a Markdown table (the figures in evenstep-winit's README
//! come from it). The window is the bounce example's, whose code this
//! includes from `crates/evenstep-demo/examples/support/`.
//!
//! ```text
//! cd bench/experiments
//! xvfb-run -a -s "-screen 0 1024x768x24" cargo run --release --bin window_figures -- --seconds 10
//! ```
//!
//! Each phase lasts `--seconds` (default 5) after a one-second warm-up.

#[path = "../../../../../crates/evenstep-demo/examples/support/bounce_window.rs"]
mod bounce_window;
#[path = "../../../../../crates/evenstep-demo/examples/support/cpu_time.rs"]
mod cpu_time;
#[path = "../../../../../crates/evenstep-demo/examples/support/keys.rs"]
mod keys;
#[path = "../../../../../crates/evenstep-demo/examples/support/present.rs"]
mod present;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use bounce_window::BounceWindow;
use cpu_time::process_cpu_time;
use evenstep::{LoopStats, Nanos};
use evenstep_winit::{WindowDriver, WindowOptions, run};

/// What was seen at the end of each phase.
#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    real: Nanos,
    cpu: Duration,
    paints: u64,
    ticks: u64,
    wake_ups: u64,
    tick: u64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds = std::env::args()
        .skip_while(|a| a != "--seconds")
        .nth(1)
        .map(|s| {
            s.parse::<u64>()
                .map_err(|e| format!("--seconds {s}: {e}; give whole seconds"))
        })
        .transpose()?
        .unwrap_or(5);
    let phase = Nanos::from_secs(seconds);
    let warm_up = Nanos::from_secs(1);

    let marks = Rc::new(RefCell::new(Vec::<Mark>::new()));
    let visible_stats = Rc::new(RefCell::new(LoopStats::default()));
    let mut game = BounceWindow::new();
    let (script_marks, script_stats) = (marks.clone(), visible_stats.clone());
    game.on_wait = Some(Box::new(move |window, driver| {
        let mark = Mark {
            real: driver.game_loop().real_time(),
            cpu: process_cpu_time().unwrap_or_default(),
            paints: driver.stats().paints,
            ticks: driver.stats().ticks,
            wake_ups: driver.stats().wake_ups,
            tick: driver.game_loop().tick(),
        };
        let mut marks = script_marks.borrow_mut();
        let since = marks.last().map_or(Nanos::ZERO, |m: &Mark| m.real);
        match marks.len() {
            0 if mark.real >= warm_up => {
                driver.game_loop_mut().reset_stats();
                marks.push(mark);
            }
            1 if mark.real >= since.saturating_add(phase) => {
                *script_stats.borrow_mut() = driver.game_loop().stats();
                driver.set_visible(window.as_ref(), false);
                marks.push(mark);
            }
            2 if mark.real >= since.saturating_add(phase) => {
                driver.set_visible(window.as_ref(), true);
                marks.push(mark);
            }
            3 if mark.real >= since.saturating_add(Nanos::from_secs(1)) => {
                driver.request_close();
                marks.push(mark);
            }
            _ => {}
        }
    }));
    let driver = WindowDriver::new(BounceWindow::loop_builder(), WindowOptions::new())?;
    let (_, driver) = run(game, driver)?;

    let marks = marks.borrow();
    if process_cpu_time().is_none() || marks.len() < 4 {
        return Err("no CPU time from CLOCK_PROCESS_CPUTIME_ID, or the window closed early".into());
    }
    let cpu_share = |a: &Mark, b: &Mark| {
        b.cpu.saturating_sub(a.cpu).as_secs_f64() / b.real.saturating_sub(a.real).as_secs_f64()
            * 100.0
    };
    let ms = |n: Nanos| n.as_secs_f64() * 1e3;
    let stats = *visible_stats.borrow();
    let (visible, hidden) = ((marks[0], marks[1]), (marks[1], marks[2]));
    println!(
        "refresh: {} mHz ({:?}); {seconds} s per phase\n",
        driver.refresh().millihertz(),
        driver.refresh().source()
    );
    println!("| phase | CPU (% of a core) | paints | tick pumps | wake-ups | steps |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (name, (a, b)) in [("visible", visible), ("hidden", hidden)] {
        println!(
            "| {name} | {:.2} | {} | {} | {} | {} |",
            cpu_share(&a, &b),
            b.paints - a.paints,
            b.ticks - a.ticks,
            b.wake_ups - a.wake_ups,
            b.tick - a.tick
        );
    }
    println!("\n| frame gaps while visible | ms |");
    println!("| --- | ---: |");
    println!("| p50 | {:.2} |", ms(stats.gap_p50()));
    println!("| p95 | {:.2} |", ms(stats.gap_p95()));
    println!("| p99 | {:.2} |", ms(stats.gap_p99()));
    println!(
        "| worst, in the last gap window | {:.2} |",
        ms(stats.worst_gap())
    );
    println!(
        "\n{} gaps; absences counted after showing again: {}",
        stats.gaps(),
        driver.game_loop().stats().absences()
    );
    Ok(())
}

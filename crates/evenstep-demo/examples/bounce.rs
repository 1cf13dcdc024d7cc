//! The bounce demo: balls on a 20 Hz fixed step, drawn interpolated with
//! softbuffer (CPU only), with a strip chart of frame gaps and steps per
//! frame along the bottom. Run it with
//!
//! ```text
//! cargo run -p evenstep-demo --example bounce
//! ```
//!
//! Keys: I interpolation on/off, P or space pause, S one step, + and -
//! speed (¼× to 4×), M pacing mode, H hide for two seconds, N / X / R add,
//! remove or reverse balls, Esc quit.

#[path = "support/bounce_window.rs"]
mod bounce_window;
#[path = "support/keys.rs"]
mod keys;
#[path = "support/present.rs"]
mod present;

use bounce_window::BounceWindow;
use evenstep_winit::{WindowDriver, WindowOptions, run};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let driver = WindowDriver::new(BounceWindow::loop_builder(), WindowOptions::new())?;
    let (game, driver) = run(BounceWindow::new(), driver)?;
    let stats = driver.game_loop().stats();
    println!(
        "{} frames drawn, {} not drawn, {} ticks while hidden, {} absences, frame gaps p50 {:.1} ms, p99 {:.1} ms",
        game.frames_drawn,
        game.frames_failed,
        driver.stats().ticks,
        stats.absences(),
        stats.gap_p50().as_secs_f64() * 1e3,
        stats.gap_p99().as_secs_f64() * 1e3,
    );
    Ok(())
}

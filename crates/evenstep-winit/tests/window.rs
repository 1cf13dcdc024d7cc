//! Contract: in a real window, paint pumps arrive and steps keep to the
//! clock; a hidden window keeps its rules and real timers running on tick
//! pumps at almost no CPU and paints nothing; shown again, it paints and
//! counts the absence; closing the window or stopping the loop ends the
//! event loop; and the demo draws its balls on screen.
//!
//! These need a display. Run them under Xvfb with 24-bit colour:
//!
//! ```text
//! xvfb-run -a -s "-screen 0 1024x768x24" cargo test -p evenstep-winit --test window
//! ```
//!
//! winit allows one event loop per process, on the main thread, so this is
//! its own harness: run with no arguments it starts itself once per
//! scenario (`--scenario NAME`), and fails if any scenario does. Without a
//! display every scenario fails; none is skipped. Free arguments filter the
//! scenarios by name, as libtest's do.

#[path = "../examples/support/bounce_window.rs"]
mod bounce_window;
#[path = "../examples/support/cpu_time.rs"]
mod cpu_time;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use bounce_window::BounceWindow;
use cpu_time::process_cpu_time;
use evenstep::{Clock, MonotonicClock, Nanos, StepBudget, Timestamp};
use evenstep_demo::{ARENA, BACKGROUND, BALL_COLOURS};
use evenstep_winit::{WindowDriver, WindowOptions, run};
use winit::raw_window_handle::{HasWindowHandle, RawWindowHandle};
use winit::window::Window;

type Scenario = fn() -> Result<String, String>;

const SCENARIOS: &[(&str, Scenario)] = &[
    (
        "a_window_opens_and_paints_with_steps_that_keep_to_the_clock",
        paints_and_keeps_to_the_clock,
    ),
    (
        "a_hidden_window_ticks_at_almost_no_cpu_and_counts_the_absence_when_shown",
        hidden_window_ticks,
    ),
    (
        "closing_the_window_ends_the_event_loop",
        closing_ends_the_loop,
    ),
    (
        "stopping_the_loop_ends_the_event_loop",
        stopping_ends_the_loop,
    ),
    (
        "a_screenshot_of_the_demo_shows_its_balls_and_overlay",
        screenshot_shows_the_demo,
    ),
];

/// A scenario that has not ended after this long has hung.
const SCENARIO_TIMEOUT: Duration = Duration::from_secs(60);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|a| a == "--scenario") {
        let name = args.get(at + 1).map_or("", String::as_str);
        let Some((_, scenario)) = SCENARIOS.iter().find(|(n, _)| *n == name) else {
            eprintln!(
                "no scenario named {name:?}; the scenarios are: {:?}",
                names()
            );
            return ExitCode::FAILURE;
        };
        return match scenario() {
            Ok(note) => {
                println!("{note}");
                ExitCode::SUCCESS
            }
            Err(why) => {
                eprintln!("{why}");
                ExitCode::FAILURE
            }
        };
    }
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let chosen: Vec<&str> = names()
        .into_iter()
        .filter(|name| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str())))
        .collect();
    println!("\nrunning {} window scenarios", chosen.len());
    let mut failed = Vec::new();
    for name in &chosen {
        let (passed, output) = run_child(name);
        println!("test {name} ... {}", if passed { "ok" } else { "FAILED" });
        for line in output.lines().filter(|l| !l.trim().is_empty()) {
            println!("    {line}");
        }
        if !passed {
            failed.push(*name);
        }
    }
    println!(
        "\nwindow test result: {}. {} passed; {} failed",
        if failed.is_empty() { "ok" } else { "FAILED" },
        chosen.len() - failed.len(),
        failed.len()
    );
    if failed.is_empty() && !chosen.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn names() -> Vec<&'static str> {
    SCENARIOS.iter().map(|(name, _)| *name).collect()
}

/// Runs one scenario in a child process, killing it if it hangs.
fn run_child(name: &str) -> (bool, String) {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return (false, format!("cannot find this test binary: {e}")),
    };
    let out_path = scratch_dir().join(format!("{name}.log"));
    let Ok(log) = std::fs::File::create(&out_path) else {
        return (false, format!("cannot write {}", out_path.display()));
    };
    let Ok(log_err) = log.try_clone() else {
        return (false, "cannot share the log file".to_owned());
    };
    let mut child = match Command::new(exe)
        .args(["--scenario", name])
        .stdout(log)
        .stderr(log_err)
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return (false, format!("cannot start the scenario: {e}")),
    };
    let clock = MonotonicClock::new();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None)
                if clock.now().saturating_since(Timestamp::ZERO)
                    > Nanos::from_duration(SCENARIO_TIMEOUT) =>
            {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            #[allow(
                clippy::disallowed_methods,
                reason = "the harness waits for a child process, outside any event loop"
            )]
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break None,
        }
    };
    let mut output = std::fs::read_to_string(&out_path).unwrap_or_default();
    let Some(status) = status else {
        output = format!(
            "{output}\nhung: killed after {} s",
            SCENARIO_TIMEOUT.as_secs()
        );
        return (false, output);
    };
    (status.success(), output)
}

/// Where scenarios write logs and screenshots.
fn scratch_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("window-tests");
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// The demo with a script run at every `about_to_wait`, and its driver on
/// the monotonic clock.
fn demo(
    builder: evenstep::LoopBuilder<BounceWindow>,
    script: impl FnMut(&Arc<Window>, &mut WindowDriver<BounceWindow>) + 'static,
) -> Result<(BounceWindow, WindowDriver<BounceWindow>), String> {
    let driver = WindowDriver::new(builder, WindowOptions::new()).map_err(|e| e.to_string())?;
    let mut game = BounceWindow::new();
    game.on_wait = Some(Box::new(script));
    run(game, driver).map_err(|e| e.to_string())
}

fn check(ok: bool, what: String) -> Result<(), String> {
    if ok { Ok(()) } else { Err(what) }
}

/// Real time the loop has seen.
fn real(driver: &WindowDriver<BounceWindow>) -> Nanos {
    driver.game_loop().real_time()
}

fn paints_and_keeps_to_the_clock() -> Result<String, String> {
    let run_for = Nanos::from_millis(1_500);
    let (game, driver) = demo(BounceWindow::loop_builder(), move |_, driver| {
        if real(driver) >= run_for {
            driver.request_close();
        }
    })?;
    let game_loop = driver.game_loop();
    let paints = driver.stats().paints;
    let elapsed = game_loop.real_time();
    let step = game_loop.timestep();
    let expected = step.steps_in(elapsed);
    let budget = u64::from(StepBudget::default().get());
    let tick = game_loop.tick();
    check(
        paints >= 30,
        format!("{paints} paints in {elapsed:?}; at least 30 expected"),
    )?;
    check(
        game.frames_drawn >= 30,
        format!(
            "{} frames presented; at least 30 expected",
            game.frames_drawn
        ),
    )?;
    check(
        tick.abs_diff(expected) <= budget + 1,
        format!(
            "{tick} steps in {elapsed:?}, {expected} due: more than the budget ({budget}) + 1 apart"
        ),
    )?;
    Ok(format!(
        "{paints} paints and {tick} steps ({expected} due) in {:.3} s; refresh {:?} at {} mHz",
        elapsed.as_secs_f64(),
        driver.refresh().source(),
        driver.refresh().millihertz()
    ))
}

/// What the hidden-window scenario saw at each mark.
#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    real: Nanos,
    tick: u64,
    fires: u64,
    paints: u64,
    ticks: u64,
    cpu: Duration,
}

fn hidden_window_ticks() -> Result<String, String> {
    const SHOW_FOR: Nanos = Nanos::from_millis(500);
    const HIDE_FOR: Nanos = Nanos::from_secs(2);
    let fires = Rc::new(RefCell::new(0_u64));
    let marks = Rc::new(RefCell::new(Vec::<Mark>::new()));
    let mut builder = BounceWindow::loop_builder();
    builder = builder.timestep(evenstep::Timestep::from_hz(30).map_err(|e| e.to_string())?);
    let script_marks = marks.clone();
    let script_fires = fires.clone();
    let mut timer_armed = false;
    let (_, driver) = demo(builder, move |window, driver| {
        if !timer_armed {
            timer_armed = true;
            let fires = script_fires.clone();
            let _ =
                driver
                    .game_loop_mut()
                    .real()
                    .every(Duration::from_millis(100), move |_, fire| {
                        *fires.borrow_mut() += fire.repeats();
                    });
        }
        let mark = Mark {
            real: real(driver),
            tick: driver.game_loop().tick(),
            fires: *script_fires.borrow(),
            paints: driver.stats().paints,
            ticks: driver.stats().ticks,
            cpu: process_cpu_time().unwrap_or_default(),
        };
        let mut marks = script_marks.borrow_mut();
        match marks.len() {
            // Shown for half a second, then hidden.
            0 if mark.real >= SHOW_FOR => {
                marks.push(mark);
                driver.set_visible(window.as_ref(), false);
            }
            // Hidden for two seconds, then shown.
            1 if mark.real >= marks[0].real.saturating_add(HIDE_FOR) => {
                marks.push(mark);
                driver.set_visible(window.as_ref(), true);
            }
            // Shown for half a second, then closed.
            2 if mark.real >= marks[1].real.saturating_add(SHOW_FOR) => {
                marks.push(mark);
                driver.request_close();
            }
            _ => {}
        }
    })?;
    let marks = marks.borrow();
    let [hidden, shown, end] = [marks[0], marks[1], marks[2]];
    let span = shown.real.saturating_sub(hidden.real);
    let steps = shown.tick - hidden.tick;
    let due = driver.game_loop().timestep().steps_in(span);
    check(
        process_cpu_time().is_some(),
        "no CPU time in /proc/self/task/*/schedstat".to_owned(),
    )?;
    check(
        steps.abs_diff(due) <= 6,
        format!("hidden for {span:?}: {steps} steps, {due} due"),
    )?;
    check(
        shown.ticks - hidden.ticks >= 30,
        format!(
            "only {} tick pumps while hidden",
            shown.ticks - hidden.ticks
        ),
    )?;
    let timer_fires = shown.fires - hidden.fires;
    check(
        (18..=21).contains(&timer_fires),
        format!("a 100 ms real timer fired {timer_fires} times in {span:?}"),
    )?;
    check(
        shown.paints == hidden.paints,
        format!("{} paints while hidden", shown.paints - hidden.paints),
    )?;
    let cpu = shown.cpu.saturating_sub(hidden.cpu);
    let share = cpu.as_secs_f64() / span.as_secs_f64();
    check(
        share < 0.05,
        format!(
            "{cpu:?} of CPU in {span:?} hidden: {:.1}% of a core, 5% allowed",
            share * 100.0
        ),
    )?;
    check(
        end.paints - shown.paints >= 10,
        format!("{} paints after showing again", end.paints - shown.paints),
    )?;
    let absences = driver.game_loop().stats().absences;
    check(
        absences >= 1,
        "the hidden spell was not counted as an absence".to_owned(),
    )?;
    Ok(format!(
        "hidden {:.3} s: {steps} steps ({due} due), {} tick pumps, {timer_fires} timer fires, 0 paints, CPU {:.1} ms ({:.2}% of a core); shown: {} paints, {absences} absence",
        span.as_secs_f64(),
        shown.ticks - hidden.ticks,
        cpu.as_secs_f64() * 1e3,
        share * 100.0,
        end.paints - shown.paints
    ))
}

fn closing_ends_the_loop() -> Result<String, String> {
    let clock = MonotonicClock::new();
    let closed_at = Rc::new(RefCell::new(None::<Timestamp>));
    let seen = closed_at.clone();
    let (_, driver) = demo(BounceWindow::loop_builder(), move |window, driver| {
        if real(driver) >= Nanos::from_millis(300) && seen.borrow().is_none() {
            *seen.borrow_mut() = Some(clock.now());
            // The event a window manager sends when the close button is hit.
            driver.window_event(window.as_ref(), &winit::event::WindowEvent::CloseRequested);
        }
    })?;
    let ended = clock.now();
    let Some(closed) = *closed_at.borrow() else {
        return Err("the event loop ended before the window was closed".to_owned());
    };
    check(
        !driver.game_loop().is_running(),
        "the loop still runs after the window closed".to_owned(),
    )?;
    let after = ended.saturating_since(closed);
    check(
        after < Nanos::from_millis(500),
        format!("the event loop took {after:?} to end after the close"),
    )?;
    Ok(format!(
        "the event loop ended {:.1} ms after the close request",
        after.as_secs_f64() * 1e3
    ))
}

fn stopping_ends_the_loop() -> Result<String, String> {
    let builder = BounceWindow::loop_builder();
    let driver = WindowDriver::new(builder, WindowOptions::new()).map_err(|e| e.to_string())?;
    let mut driver = driver;
    driver.game_loop_mut().on_update(|_, step| {
        if step.tick() == 9 {
            step.control().stop();
        }
    });
    let (_, driver) = run(BounceWindow::new(), driver).map_err(|e| e.to_string())?;
    let tick = driver.game_loop().tick();
    check(
        !driver.game_loop().is_running(),
        "the loop is still running".to_owned(),
    )?;
    check(tick == 10, format!("stopped at tick {tick}, 10 expected"))?;
    Ok(format!(
        "stopped from an update at tick {tick}; the event loop ended"
    ))
}

fn screenshot_shows_the_demo() -> Result<String, String> {
    let dir = scratch_dir();
    let png = dir.join("bounce.png");
    let raw = dir.join("bounce.rgb");
    let shot = Rc::new(RefCell::new(None::<Result<(u32, u32), String>>));
    let taken = shot.clone();
    let (png_out, raw_out) = (png.clone(), raw.clone());
    let (_, _driver) = demo(BounceWindow::loop_builder(), move |window, driver| {
        if real(driver) >= Nanos::from_millis(1_500) && taken.borrow().is_none() {
            *taken.borrow_mut() = Some(capture(window, &png_out, &raw_out));
            driver.request_close();
        }
    })?;
    let (width, height) = shot.borrow().clone().ok_or("no screenshot was taken")??;
    let bytes = std::fs::read(&raw).map_err(|e| format!("{}: {e}", raw.display()))?;
    let pixels: Vec<u32> = bytes
        .chunks_exact(3)
        .map(|p| u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2]))
        .collect();
    let total = (width * height) as usize;
    check(
        pixels.len() == total,
        format!("{} pixels read, {width}×{height} expected", pixels.len()),
    )?;
    let count = |colour: u32| pixels.iter().filter(|&&p| p == colour).count();
    let per_ball: Vec<usize> = BALL_COLOURS.iter().map(|&c| count(c)).collect();
    let balls: usize = per_ball.iter().sum();
    let drawn = total - count(BACKGROUND);
    let content = total - count(BACKGROUND) - count(ARENA);
    // Balls may overlap, so one colour may be hidden; three must show.
    check(
        per_ball.iter().filter(|&&n| n >= 200).count() >= 3,
        format!("ball colours found: {per_ball:?} pixels; three with 200 or more expected"),
    )?;
    check(
        balls * 100 >= total,
        format!("balls cover {balls} of {total} pixels; 1% expected"),
    )?;
    check(
        drawn * 100 >= 60 * total,
        format!("{drawn} of {total} pixels differ from the background; 60% expected"),
    )?;
    check(
        content * 100 >= 3 * total,
        format!("{content} of {total} pixels are balls, text or chart; 3% expected"),
    )?;
    Ok(format!(
        "{width}×{height}: ball pixels {per_ball:?} ({:.1}%), not background {:.1}%, balls/text/chart {:.1}%; saved {}",
        balls as f64 * 100.0 / total as f64,
        drawn as f64 * 100.0 / total as f64,
        content as f64 * 100.0 / total as f64,
        png.display()
    ))
}

/// Takes the window's picture from the X server with `ImageMagick`'s
/// `import`: once as PNG to look at, once as raw RGB to check.
fn capture(window: &Window, png: &Path, raw: &Path) -> Result<(u32, u32), String> {
    let handle = window.window_handle().map_err(|e| e.to_string())?;
    let id = match handle.as_raw() {
        #[allow(
            clippy::useless_conversion,
            reason = "an X window id is a C unsigned long: 32 bits on some targets"
        )]
        RawWindowHandle::Xlib(h) => u64::from(h.window),
        RawWindowHandle::Xcb(h) => u64::from(h.window.get()),
        other => return Err(format!("not an X11 window ({other:?}): run under Xvfb")),
    };
    let size = window.inner_size();
    let id = format!("{id:#x}");
    for target in [png.display().to_string(), format!("rgb:{}", raw.display())] {
        let status = Command::new("import")
            .args(["-window", &id, "-depth", "8", &target])
            .status()
            .map_err(|e| format!("ImageMagick's import did not run ({e}); install imagemagick"))?;
        check(
            status.success(),
            format!("import -window {id} {target} failed: {status}"),
        )?;
    }
    Ok((size.width, size.height))
}

//! Contract: in a real window, paint pumps arrive no faster than the
//! display refreshes and steps keep to an independent clock; a hidden
//! window keeps its rules and real timers running on tick pumps, waking
//! only for them, at almost no CPU, and paints nothing; shown again, it
//! paints and counts the absence; a close request sent through the X server
//! or stopping the loop ends the event loop; the demo draws its balls on
//! screen; and a key and a click sent through the X server (XTEST) each
//! reach exactly one fixed step, and the recorded session replays.
//!
//! These need a display. Run them under Xvfb with 24-bit colour:
//!
//! ```text
//! xvfb-run -a -s "-screen 0 1024x768x24" cargo test -p evenstep-demo --test window
//! ```
//!
//! winit allows one event loop per process, on the main thread, so this is
//! its own harness: run with no arguments it starts itself once per
//! scenario (`--scenario NAME`), and fails if any scenario does. Without a
//! display every scenario fails; none is skipped. As with libtest, free
//! arguments keep the scenarios whose names contain one of them (`--exact`:
//! whose names equal one), `--skip NAME` leaves out those whose names
//! contain NAME, and `--list` lists them; any other flag is refused.
//!
//! Elapsed time is read from a `MonotonicClock` of the test's own, started
//! before the event loop, never from the loop under test: a loop whose
//! clock drifted would agree with itself.

#[path = "../examples/support/bounce_window.rs"]
mod bounce_window;
#[path = "../examples/support/cpu_time.rs"]
mod cpu_time;
#[path = "../examples/support/keys.rs"]
mod keys;
#[path = "../examples/support/present.rs"]
mod present;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use bounce_window::BounceWindow;
use cpu_time::process_cpu_time;
use evenstep::input::{Button, InputEvent, Key, MouseButton};
use evenstep::{Clock, MonotonicClock, Nanos, StepBudget, Timestamp};
use evenstep_demo::{ARENA, BACKGROUND, BALL_COLOURS, Bounce, WorldInput};
use evenstep_winit::{Refresh, WindowDriver, WindowOptions, run};
use winit::raw_window_handle::{HasWindowHandle, RawWindowHandle};
use winit::window::Window;
use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::xproto::{
    BUTTON_PRESS_EVENT, BUTTON_RELEASE_EVENT, ClientMessageEvent, ConnectionExt, EventMask,
    InputFocus, KEY_PRESS_EVENT, KEY_RELEASE_EVENT, MOTION_NOTIFY_EVENT,
};
use x11rb::protocol::xtest::{self, ConnectionExt as _};

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
        "a_close_request_from_the_x_server_ends_the_event_loop",
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
    (
        "a_key_and_a_click_sent_through_the_x_server_each_reach_exactly_one_step",
        real_input_reaches_one_step,
    ),
];

/// A scenario that has not ended after this long has hung.
const SCENARIO_TIMEOUT: Duration = Duration::from_secs(60);

/// The flags the harness takes, for the message that refuses another.
const USAGE: &str = "arguments: [FILTER...] [--exact] [--skip NAME]... [--list] \
                     (or --scenario NAME, to run one scenario in this process)";

/// Which scenarios the command line chose.
#[derive(Debug, Default)]
struct Selection {
    filters: Vec<String>,
    skips: Vec<String>,
    exact: bool,
    list: bool,
}

impl Selection {
    fn parse(args: &[String]) -> Result<Selection, String> {
        let mut selection = Selection::default();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--skip" => {
                    let name = args.next().ok_or("--skip needs a scenario name")?;
                    selection.skips.push(name.clone());
                }
                "--exact" => selection.exact = true,
                "--list" => selection.list = true,
                flag if flag.starts_with('-') => {
                    return Err(format!("unknown flag {flag:?}; {USAGE}"));
                }
                filter => selection.filters.push(filter.to_owned()),
            }
        }
        Ok(selection)
    }

    fn chooses(&self, name: &str) -> bool {
        let matches = |pattern: &String| {
            if self.exact {
                name == pattern
            } else {
                name.contains(pattern.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skips.iter().any(matches)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--scenario") {
        let name = args.get(1).map_or("", String::as_str);
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
    let selection = match Selection::parse(&args) {
        Ok(selection) => selection,
        Err(why) => {
            eprintln!("{why}");
            return ExitCode::FAILURE;
        }
    };
    let chosen: Vec<&str> = names()
        .into_iter()
        .filter(|name| selection.chooses(name))
        .collect();
    if selection.list {
        for name in &chosen {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
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

/// The step budget the loops here run with: the default.
fn budget() -> u64 {
    u64::from(StepBudget::default().get())
}

/// The most paints a window paced at `refresh` can show in `span`: one per
/// refresh, plus one for the paint at either end.
fn paint_cap(refresh: Refresh, span: Nanos) -> u64 {
    let per_second_milli = u128::from(refresh.millihertz());
    let whole = u128::from(span.as_nanos()) * per_second_milli / 1_000_000_000_000;
    u64::try_from(whole).unwrap_or(u64::MAX) + 2
}

fn paints_and_keeps_to_the_clock() -> Result<String, String> {
    let run_for = Nanos::from_millis(1_500);
    let clock = MonotonicClock::new();
    // The test's clock at the first `about_to_wait` (just after the window
    // was attached and the loop started) and when the close was asked for.
    let span = Rc::new(RefCell::new((None::<Timestamp>, None::<Timestamp>)));
    let seen = span.clone();
    let (game, driver) = demo(BounceWindow::loop_builder(), move |_, driver| {
        let now = clock.now();
        let mut seen = seen.borrow_mut();
        let first = *seen.0.get_or_insert(now);
        if now.saturating_since(first) >= run_for && seen.1.is_none() {
            seen.1 = Some(now);
            driver.request_close();
        }
    })?;
    let ended = clock.now();
    let (Some(first), Some(closed)) = *span.borrow() else {
        return Err("the event loop ended before the script asked it to".to_owned());
    };
    let elapsed = closed.saturating_since(first);
    let outer = ended.saturating_since(Timestamp::ZERO);
    let game_loop = driver.game_loop();
    let real = game_loop.real_time();
    let paints = driver.stats().paints;
    let step = game_loop.timestep();
    let expected = step.steps_in(elapsed);
    let budget = budget();
    let tick = game_loop.tick();
    let cap = paint_cap(driver.refresh(), elapsed);
    check(
        paints >= 30,
        format!("{paints} paints in {elapsed:?}; at least 30 expected"),
    )?;
    check(
        paints <= cap,
        format!(
            "{paints} paints in {elapsed:?} at {} mHz: more than one a refresh (+2), {cap}",
            driver.refresh().millihertz()
        ),
    )?;
    check(
        game.frames_drawn >= 30,
        format!(
            "{} frames presented; at least 30 expected",
            game.frames_drawn
        ),
    )?;
    check(
        game.frames_failed == 0,
        format!("{} frames could not be drawn", game.frames_failed),
    )?;
    check(
        tick.abs_diff(expected) <= budget + 1,
        format!(
            "{tick} steps in {elapsed:?}, {expected} due: more than the budget ({budget}) + 1 apart"
        ),
    )?;
    // The loop's own real time can be neither longer than the whole run
    // nor shorter than the span the script saw, less the wait for the
    // last frame and some scheduling delay on a busy machine. A drift of
    // 7% would show here; a lost or doubled frame time, long before.
    check(
        real <= outer && real.saturating_add(Nanos::from_millis(100)) >= elapsed,
        format!("the loop saw {real:?} of real time in a run of {elapsed:?} ({outer:?} in all)"),
    )?;
    Ok(format!(
        "{paints} paints (at most {cap}) and {tick} steps ({expected} due) in {:.3} s by the test's clock, {:.3} s by the loop's; refresh {:?} at {} mHz",
        elapsed.as_secs_f64(),
        real.as_secs_f64(),
        driver.refresh().source(),
        driver.refresh().millihertz()
    ))
}

/// What the hidden-window scenario saw at each mark.
#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    /// The test's own clock.
    wall: Timestamp,
    /// The loop's real time.
    real: Nanos,
    tick: u64,
    fires: u64,
    paints: u64,
    ticks: u64,
    wake_ups: u64,
    cpu: Duration,
}

/// Runs the demo shown for half a second, hidden for two, shown for half
/// a second, with a 100 ms real timer, and marks each change.
fn hidden_window_session() -> Result<(Vec<Mark>, WindowDriver<BounceWindow>), String> {
    const SHOW_FOR: Nanos = Nanos::from_millis(500);
    const HIDE_FOR: Nanos = Nanos::from_secs(2);
    let clock = MonotonicClock::new();
    let fires = Rc::new(RefCell::new(0_u64));
    let marks = Rc::new(RefCell::new(Vec::<Mark>::new()));
    let timer_error = Rc::new(RefCell::new(None::<String>));
    let mut builder = BounceWindow::loop_builder();
    builder = builder.timestep(evenstep::Timestep::from_hz(30).map_err(|e| e.to_string())?);
    let (script_marks, script_fires, script_error) =
        (marks.clone(), fires.clone(), timer_error.clone());
    let mut timer_armed = false;
    let (_, driver) = demo(builder, move |window, driver| {
        if !timer_armed {
            timer_armed = true;
            let fires = script_fires.clone();
            let armed =
                driver
                    .game_loop_mut()
                    .real()
                    .every(Duration::from_millis(100), move |_, fire| {
                        *fires.borrow_mut() += fire.repeats();
                    });
            if let Err(e) = armed {
                *script_error.borrow_mut() = Some(e.to_string());
                driver.request_close();
            }
        }
        let mark = Mark {
            wall: clock.now(),
            real: driver.game_loop().real_time(),
            tick: driver.game_loop().tick(),
            fires: *script_fires.borrow(),
            paints: driver.stats().paints,
            ticks: driver.stats().ticks,
            wake_ups: driver.stats().wake_ups,
            cpu: process_cpu_time().unwrap_or_default(),
        };
        let mut marks = script_marks.borrow_mut();
        let since = marks
            .last()
            .map_or(Nanos::ZERO, |m: &Mark| mark.wall.saturating_since(m.wall));
        match marks.len() {
            // The first wake-up: the start of the first shown spell.
            0 => marks.push(mark),
            // Shown for half a second, then hidden.
            1 if since >= SHOW_FOR => {
                marks.push(mark);
                driver.set_visible(window.as_ref(), false);
            }
            // Hidden for two seconds, then shown.
            2 if since >= HIDE_FOR => {
                marks.push(mark);
                driver.set_visible(window.as_ref(), true);
            }
            // Shown for half a second, then closed.
            3 if since >= SHOW_FOR => {
                marks.push(mark);
                driver.request_close();
            }
            _ => {}
        }
    })?;
    if let Some(why) = timer_error.borrow().as_ref() {
        return Err(format!("the 100 ms real timer could not be set: {why}"));
    }
    let marks = marks.borrow().clone();
    Ok((marks, driver))
}

fn hidden_window_ticks() -> Result<String, String> {
    // Wake-ups beyond one per step and one per timer fire: the events the
    // hiding itself brings (unmapping, focus) and the mark's own.
    const WAKE_SLACK: u64 = 10;
    let (marks, driver) = hidden_window_session()?;
    let [start, hidden, shown, end] = marks[..] else {
        return Err(format!("{} of the 4 marks were reached", marks.len()));
    };
    let refresh = driver.refresh();
    let span = shown.wall.saturating_since(hidden.wall);
    let steps = shown.tick - hidden.tick;
    let due = driver.game_loop().timestep().steps_in(span);
    let budget = budget();
    check(
        process_cpu_time().is_some(),
        "no CPU time from CLOCK_PROCESS_CPUTIME_ID".to_owned(),
    )?;
    // Shown, before and after: no more than one paint a refresh.
    for (name, from, to) in [
        ("before hiding", start, hidden),
        ("after showing", shown, end),
    ] {
        let shown_for = to.wall.saturating_since(from.wall);
        let paints = to.paints - from.paints;
        let cap = paint_cap(refresh, shown_for);
        check(
            paints <= cap,
            format!("{paints} paints in {shown_for:?} {name}: more than {cap}"),
        )?;
    }
    check(
        steps.abs_diff(due) <= budget + 1,
        format!(
            "hidden for {span:?}: {steps} steps, {due} due: more than the budget ({budget}) + 1 apart"
        ),
    )?;
    // The loop's real time advances only at a pump, so each end of the
    // span may lag the test's clock by up to a step.
    let real_span = shown.real.saturating_sub(hidden.real);
    let lag = Nanos::from_millis(100);
    check(
        real_span <= span.saturating_add(lag) && real_span.saturating_add(lag) >= span,
        format!("hidden for {span:?} by the test's clock, {real_span:?} by the loop's"),
    )?;
    let tick_pumps = shown.ticks - hidden.ticks;
    check(
        tick_pumps >= 30,
        format!("only {tick_pumps} tick pumps while hidden"),
    )?;
    let timer_fires = shown.fires - hidden.fires;
    check(
        (18..=21).contains(&timer_fires),
        format!("a 100 ms real timer fired {timer_fires} times in {span:?}"),
    )?;
    let wake_ups = shown.wake_ups - hidden.wake_ups;
    check(
        wake_ups <= steps + timer_fires + WAKE_SLACK,
        format!(
            "{wake_ups} wake-ups while hidden for {steps} steps and {timer_fires} timer fires: more than {WAKE_SLACK} to spare"
        ),
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
    let absences = driver.game_loop().stats().absences();
    check(
        absences == 1,
        format!("the hidden spell was counted as {absences} absences, not one"),
    )?;
    Ok(format!(
        "hidden {:.3} s: {steps} steps ({due} due), {tick_pumps} tick pumps, {timer_fires} timer fires, {wake_ups} wake-ups, 0 paints, CPU {:.1} ms ({:.2}% of a core); shown: {} paints before, {} after, {absences} absence",
        span.as_secs_f64(),
        cpu.as_secs_f64() * 1e3,
        share * 100.0,
        hidden.paints - start.paints,
        end.paints - shown.paints
    ))
}

fn closing_ends_the_loop() -> Result<String, String> {
    // A close request that has not arrived by then never will.
    const GIVE_UP_AFTER: Nanos = Nanos::from_secs(2);
    let clock = MonotonicClock::new();
    let sent = Rc::new(RefCell::new(None::<Result<Timestamp, String>>));
    let seen = sent.clone();
    let gave_up = Rc::new(RefCell::new(false));
    let giving_up = gave_up.clone();
    let first_wait = Rc::new(RefCell::new(None::<Timestamp>));
    let (_, driver) = demo(BounceWindow::loop_builder(), move |window, driver| {
        let now = clock.now();
        let first = *first_wait.borrow_mut().get_or_insert(now);
        let mut seen = seen.borrow_mut();
        match &*seen {
            None if now.saturating_since(first) >= Nanos::from_millis(300) => {
                // What a window manager sends when the close button is hit,
                // sent the same way, through the X server; the event loop
                // turns it into `WindowEvent::CloseRequested`.
                let result = send_delete_window(window).map(|()| clock.now());
                if result.is_err() {
                    driver.request_close();
                }
                *seen = Some(result);
            }
            Some(Ok(at)) if now.saturating_since(*at) > GIVE_UP_AFTER => {
                *giving_up.borrow_mut() = true;
                driver.request_close();
            }
            _ => {}
        }
    })?;
    let ended = clock.now();
    let Some(sent) = sent.borrow().clone() else {
        return Err("the event loop ended before the close request was sent".to_owned());
    };
    let sent = sent?;
    check(
        !*gave_up.borrow(),
        format!(
            "no CloseRequested arrived within {GIVE_UP_AFTER:?} of the WM_DELETE_WINDOW message"
        ),
    )?;
    check(
        driver.close_requested(),
        "the event loop ended, but not on a close request".to_owned(),
    )?;
    check(
        !driver.game_loop().is_running(),
        "the loop still runs after the window closed".to_owned(),
    )?;
    let after = ended.saturating_since(sent);
    check(
        after < Nanos::from_millis(500),
        format!("the event loop took {after:?} to end after the close request"),
    )?;
    Ok(format!(
        "WM_DELETE_WINDOW sent through the X server; the event loop ended {:.1} ms later",
        after.as_secs_f64() * 1e3
    ))
}

/// Sends the window a `WM_DELETE_WINDOW` client message through the X
/// server, on a connection of its own, as a window manager does when the
/// close button is hit (Xvfb has no window manager to do it).
fn send_delete_window(window: &Window) -> Result<(), String> {
    let id = x11_window(window)?;
    let id = u32::try_from(id).map_err(|_| format!("X window id {id:#x} is over 32 bits"))?;
    let (connection, _) =
        x11rb::connect(None).map_err(|e| format!("no connection to the X server: {e}"))?;
    let atom = |name: &[u8]| -> Result<u32, String> {
        connection
            .intern_atom(false, name)
            .map_err(|e| e.to_string())?
            .reply()
            .map(|reply| reply.atom)
            .map_err(|e| e.to_string())
    };
    let protocols = atom(b"WM_PROTOCOLS")?;
    let delete = atom(b"WM_DELETE_WINDOW")?;
    // data: the protocol, then the time (CurrentTime).
    let message = ClientMessageEvent::new(32, id, protocols, [delete, 0, 0, 0, 0]);
    connection
        .send_event(false, id, EventMask::NO_EVENT, message)
        .map_err(|e| e.to_string())?;
    // A round trip before the connection closes: an X server may drop the
    // last requests of a client that hangs up straight after sending them.
    connection
        .get_input_focus()
        .map_err(|e| e.to_string())?
        .reply()
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// The X window id behind `window`.
fn x11_window(window: &Window) -> Result<u64, String> {
    let handle = window.window_handle().map_err(|e| e.to_string())?;
    match handle.as_raw() {
        #[allow(
            clippy::useless_conversion,
            reason = "an X window id is a C unsigned long: 32 bits on some targets"
        )]
        RawWindowHandle::Xlib(h) => Ok(u64::from(h.window)),
        RawWindowHandle::Xcb(h) => Ok(u64::from(h.window.get())),
        other => Err(format!("not an X11 window ({other:?}): run under Xvfb")),
    }
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
    let clock = MonotonicClock::new();
    let first_wait = Rc::new(RefCell::new(None::<Timestamp>));
    let (_, _driver) = demo(BounceWindow::loop_builder(), move |window, driver| {
        let now = clock.now();
        let first = *first_wait.borrow_mut().get_or_insert(now);
        if now.saturating_since(first) >= Nanos::from_millis(1_500) && taken.borrow().is_none() {
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
    let id = x11_window(window)?;
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

/// What the steps of the real-input scenario saw of the key and the button
/// sent: each event counted over every step, and the steps that saw a
/// press.
#[derive(Debug, Default)]
struct SeenInput {
    key_presses: u64,
    key_releases: u64,
    key_press_steps: Vec<u64>,
    clicks: u64,
    click_releases: u64,
    click_steps: Vec<u64>,
    text: String,
}

/// The X keycode of the key where a US layout has N: evdev's `KEY_N` (49)
/// plus 8, as X servers with evdev keycodes (Xvfb's default) number it.
/// winit names a physical key from the keycode alone, whatever the keymap.
const KEYCODE_N: u8 = 57;

impl SeenInput {
    /// Counts what a step's input holds of `key` and the main button.
    fn note(&mut self, key: Key, step: &evenstep::StepContext<'_>) {
        let input = step.input();
        for event in input.events() {
            match event {
                InputEvent::Press(Button::Key(k)) if *k == key => self.key_presses += 1,
                InputEvent::Release(Button::Key(k)) if *k == key => self.key_releases += 1,
                InputEvent::Press(Button::Mouse(MouseButton::LEFT)) => self.clicks += 1,
                InputEvent::Release(Button::Mouse(MouseButton::LEFT)) => self.click_releases += 1,
                InputEvent::Text(text) => self.text.push_str(text),
                _ => {}
            }
        }
        if input.pressed(key) {
            self.key_press_steps.push(step.tick());
        }
        if input.pressed(MouseButton::LEFT) {
            self.click_steps.push(step.tick());
        }
    }
}

/// Runs the demo, sends a click and a tap of N through the X server 0.3 s
/// in, and closes 1.8 s in (long enough for a checkpoint, one a second):
/// the demo, its driver and what the steps saw.
fn real_input_session() -> Result<(BounceWindow, WindowDriver<BounceWindow>, SeenInput), String> {
    const RUN_FOR: Nanos = Nanos::from_millis(1_800);
    const SEND_AFTER: Nanos = Nanos::from_millis(300);
    let seen = Rc::new(RefCell::new(SeenInput::default()));
    let mut driver = WindowDriver::new(BounceWindow::loop_builder(), WindowOptions::new())
        .map_err(|e| e.to_string())?;
    let counting = seen.clone();
    driver.game_loop_mut().on_update(move |_, step| {
        counting.borrow_mut().note(WorldInput::AddBall.key(), step);
    });
    let clock = MonotonicClock::new();
    let sent = Rc::new(RefCell::new(None::<Result<(), String>>));
    let sending = sent.clone();
    let first_wait = Rc::new(RefCell::new(None::<Timestamp>));
    let mut game = BounceWindow::new();
    game.on_wait = Some(Box::new(move |window, driver| {
        let now = clock.now();
        let since = now.saturating_since(*first_wait.borrow_mut().get_or_insert(now));
        let mut sent = sending.borrow_mut();
        if since >= SEND_AFTER && sent.is_none() {
            let result = send_key_and_click(window);
            if result.is_err() {
                driver.request_close();
            }
            *sent = Some(result);
        }
        if since >= RUN_FOR {
            driver.request_close();
        }
    }));
    let (game, driver) = run(game, driver).map_err(|e| e.to_string())?;
    sent.borrow()
        .clone()
        .ok_or("the event loop ended before the key and click were sent")??;
    let seen = seen.take();
    Ok((game, driver, seen))
}

fn real_input_reaches_one_step() -> Result<String, String> {
    let n = WorldInput::AddBall.key();
    let (game, mut driver, seen) = real_input_session()?;
    let stats = driver.stats();
    check(
        (seen.key_presses, seen.key_releases) == (1, 1),
        format!(
            "N sent once through the X server; the steps saw {} presses and {} releases of {n}",
            seen.key_presses, seen.key_releases
        ),
    )?;
    check(
        seen.key_press_steps.len() == 1,
        format!(
            "steps {:?} read N as pressed; one expected",
            seen.key_press_steps
        ),
    )?;
    check(
        (seen.clicks, seen.click_releases) == (1, 1),
        format!(
            "one click sent; the steps saw {} presses and {} releases of the main button",
            seen.clicks, seen.click_releases
        ),
    )?;
    check(
        seen.click_steps.len() == 1,
        format!(
            "steps {:?} read the click as pressed; one expected",
            seen.click_steps
        ),
    )?;
    // Xvfb's keymap is a US one: the key at N types "n".
    check(
        seen.text == "n",
        format!("the key at N typed {:?}; \"n\" expected", seen.text),
    )?;
    check(
        stats.input_refused == 0,
        format!("the loop refused {} input events", stats.input_refused),
    )?;
    let balls = game.bounce.world.balls().len();
    check(
        balls == 5,
        format!("the world has {balls} balls after one N; 5 expected"),
    )?;
    let mut log = driver
        .game_loop_mut()
        .take_input_log()
        .ok_or("the demo's loop recorded no session")?;
    let report = Bounce::replay(&mut log).map_err(|e| e.to_string())?;
    check(
        report.is_green(),
        format!("the recorded session does not replay: {report:?}"),
    )?;
    Ok(format!(
        "N pressed at step {:?}, clicked at step {:?}, text \"n\"; {} input events forwarded, 0 refused; {} ticks, {} checkpoints replayed",
        seen.key_press_steps,
        seen.click_steps,
        stats.input_forwarded,
        report.ticks,
        report.checkpoints
    ))
}

/// Focuses the window and sends, through the X server's XTEST extension,
/// what a user does: the pointer to the window's centre, a click of the
/// main button, and a tap of N.
fn send_key_and_click(window: &Window) -> Result<(), String> {
    let id = x11_window(window)?;
    let id = u32::try_from(id).map_err(|_| format!("X window id {id:#x} is over 32 bits"))?;
    let (connection, screen) =
        x11rb::connect(None).map_err(|e| format!("no connection to the X server: {e}"))?;
    let present = connection
        .extension_information(xtest::X11_EXTENSION_NAME)
        .map_err(|e| e.to_string())?;
    if present.is_none() {
        return Err("the X server has no XTEST extension to send input with".to_owned());
    }
    let root = connection.setup().roots[screen].root;
    let size = window.inner_size();
    let origin = connection
        .translate_coordinates(id, root, 0, 0)
        .map_err(|e| e.to_string())?
        .reply()
        .map_err(|e| e.to_string())?;
    let centre = |origin: i16, extent: u32| {
        i16::try_from(i32::from(origin) + i32::try_from(extent / 2).unwrap_or(0)).unwrap_or(0)
    };
    let (x, y) = (
        centre(origin.dst_x, size.width),
        centre(origin.dst_y, size.height),
    );
    connection
        .set_input_focus(InputFocus::PARENT, id, x11rb::CURRENT_TIME)
        .map_err(|e| e.to_string())?;
    let fake = |kind: u8, detail: u8| {
        connection
            .xtest_fake_input(
                kind,
                detail,
                x11rb::CURRENT_TIME,
                root,
                x,
                y,
                x11rb::NONE as u8,
            )
            .map(drop)
            .map_err(|e| e.to_string())
    };
    fake(MOTION_NOTIFY_EVENT, 0)?;
    fake(BUTTON_PRESS_EVENT, 1)?;
    fake(BUTTON_RELEASE_EVENT, 1)?;
    fake(KEY_PRESS_EVENT, KEYCODE_N)?;
    fake(KEY_RELEASE_EVENT, KEYCODE_N)?;
    // A round trip: the server has taken every request before the
    // connection closes.
    connection
        .get_input_focus()
        .map_err(|e| e.to_string())?
        .reply()
        .map_err(|e| e.to_string())?;
    Ok(())
}

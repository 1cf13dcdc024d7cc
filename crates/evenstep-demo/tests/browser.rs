//! Contract: in a real headless Chromium, with background throttling left
//! on, the demo page paints at about 60 frames a second with steps that
//! follow elapsed time and draws its balls; hidden for over five seconds it
//! paints nothing while tick pumps on a throttled timer keep the steps
//! (within the budget) and a real-timeline timer running, and shown again
//! it paints, counts the absence and reports the hidden span, with real
//! time advanced by it; a frozen page runs its frozen span on resume;
//! stopping, stopping from inside an update and dropping the frame source
//! each release every callback and listener; starting twice or reloading
//! mid-run gives an error or a fresh start, never a panic; a key press and
//! a click each reach exactly one fixed step, and a press stamped after a
//! frame began, handled before that frame's pump, waits for a later pump's
//! steps.
//!
//! Build the page, then run them (`test-browser.sh` does both):
//!
//! ```text
//! crates/evenstep-web/build-page.sh
//! cargo test -p evenstep-demo --test browser
//! ```
//!
//! One browser serves every scenario, each in a tab of its own, in order.
//! Without Chromium, or without the built page, every scenario fails; none
//! is skipped. Free arguments filter the scenarios by name.

#![allow(
    clippy::disallowed_methods,
    reason = "the harness times the browser from outside, on the host's clock, and waits for it"
)]

#[path = "support/cdp.rs"]
mod cdp;
#[path = "support/chromium.rs"]
mod chromium;
#[path = "support/server.rs"]
mod server;
#[path = "support/session.rs"]
mod session;

use std::process::ExitCode;
use std::thread::sleep;
use std::time::{Duration, Instant};

use cdp::Tab;
use chromium::THROTTLING_OFF_FLAGS;
use evenstep_demo::{BACKGROUND, BALL_COLOURS};
use serde_json::json;
use session::Session;

type Scenario = fn(&mut Session, &Tab) -> Result<String, String>;

const SCENARIOS: &[(&str, Scenario)] = &[
    (
        "the_browser_runs_with_background_throttling_left_on",
        throttling_is_on,
    ),
    (
        "a_visible_page_paints_at_about_60_fps_with_steps_that_follow_elapsed_time",
        visible_page_paints,
    ),
    (
        "a_screenshot_shows_the_balls_drawn_on_the_canvas",
        screenshot_shows_the_balls,
    ),
    (
        "a_hidden_page_ticks_on_a_throttled_timer_and_reports_its_absence_when_shown",
        hidden_page_ticks,
    ),
    (
        "a_frozen_page_runs_its_frozen_span_on_resume_and_reports_it",
        frozen_page_resumes,
    ),
    (
        "a_page_restored_from_the_back_forward_cache_reports_its_absence",
        cached_page_returns,
    ),
    (
        "stopping_and_dropping_the_frame_source_release_every_callback_and_listener",
        stopping_releases_everything,
    ),
    (
        "starting_twice_or_reloading_mid_run_is_an_error_or_a_fresh_start_never_a_panic",
        bad_page_state,
    ),
    (
        "a_key_press_and_a_click_each_reach_exactly_one_fixed_step",
        input_reaches_one_step,
    ),
    (
        "a_key_pressed_after_a_frame_began_waits_for_a_later_pumps_steps",
        late_input_waits,
    ),
];

/// Closures a running demo's frame source holds: a frame, a timer, five
/// lifecycle listeners and eight input listeners.
const LIVE_CALLBACKS: u64 = 15;

/// The demo's fixed step: 20 Hz.
const STEP_SECS: f64 = 0.05;
/// The loop's default step budget.
const BUDGET: u64 = 5;

fn main() -> ExitCode {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let chosen: Vec<&(&str, Scenario)> = SCENARIOS
        .iter()
        .filter(|(name, _)| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str())))
        .collect();
    println!("\nrunning {} browser scenarios", chosen.len());
    let mut session = match Session::start() {
        Ok(session) => Some(session),
        Err(why) => {
            println!("the browser session did not start: {why}");
            None
        }
    };
    let mut failed = 0;
    for (name, scenario) in &chosen {
        let began = Instant::now();
        let outcome = match session.as_mut() {
            Some(session) => run(session, *scenario),
            None => Err("no browser session".to_owned()),
        };
        let took = began.elapsed().as_secs_f64();
        match outcome {
            Ok(note) => {
                println!("test {name} ... ok ({took:.1} s)");
                for line in note.lines() {
                    println!("    {line}");
                }
            }
            Err(why) => {
                failed += 1;
                println!("test {name} ... FAILED ({took:.1} s)");
                for line in why.lines() {
                    println!("    {line}");
                }
            }
        }
    }
    drop(session);
    let passed = chosen.len() - failed;
    println!(
        "\ntest result: {}. {passed} passed; {failed} failed",
        if failed == 0 { "ok" } else { "FAILED" }
    );
    if failed == 0 && !chosen.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs a scenario in a fresh tab of the demo, then fails it on anything
/// the page's console reported as an error (a panic included), and closes
/// the tab.
fn run(session: &mut Session, scenario: Scenario) -> Result<String, String> {
    let tab = session.open_demo()?;
    let outcome = scenario(session, &tab);
    let errors = session.page_errors(&tab)?;
    let _ = tab.close(&mut session.cdp);
    let note = outcome?;
    if errors.is_empty() {
        Ok(note)
    } else {
        Err(format!("the page reported errors:\n{}", errors.join("\n")))
    }
}

fn check(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok { Ok(()) } else { Err(what()) }
}

fn throttling_is_on(session: &mut Session, _tab: &Tab) -> Result<String, String> {
    // chrome://version shows the command line the browser really runs
    // with, wrapper scripts' additions included.
    let version = Tab::open(&mut session.cdp, "chrome://version")?;
    let line = version.eval(
        &mut session.cdp,
        "document.getElementById('command_line').innerText",
    );
    let _ = version.close(&mut session.cdp);
    let line = line?;
    let line = line.as_str().ok_or("no command line on chrome://version")?;
    for flag in THROTTLING_OFF_FLAGS {
        check(!line.contains(flag), || {
            format!("the browser runs with {flag}: {line}")
        })?;
    }
    check(line.contains("--headless"), || {
        format!("the browser is not headless: {line}")
    })?;
    Ok(format!(
        "{} runs without {}",
        session.chromium.binary.display(),
        THROTTLING_OFF_FLAGS.join(", ")
    ))
}

fn visible_page_paints(session: &mut Session, tab: &Tab) -> Result<String, String> {
    sleep(Duration::from_millis(500)); // past the page load
    let before = session.status(tab)?;
    sleep(Duration::from_secs(3));
    let after = session.status(tab)?;
    let wall = after.secs("page_now") - before.secs("page_now");
    let paints = after.n("paints") - before.n("paints");
    let fps = paints as f64 / wall;
    check((54.0..=66.0).contains(&fps), || {
        format!("{paints} paints in {wall:.3} s is {fps:.1} a second, not about 60")
    })?;
    check(after.n("ticks") == before.n("ticks"), || {
        "a visible page that paints ran tick pumps".to_owned()
    })?;
    check(!after.flag("hidden") && !after.flag("starved"), || {
        format!("the page is not painting: {:?}", after.0)
    })?;
    // Steps follow elapsed time: the loop's real time kept to the page's
    // clock, and the steps to the real time.
    let real = after.secs("real_time") - before.secs("real_time");
    check((real - wall).abs() <= 0.05, || {
        format!("real time advanced {real:.3} s in {wall:.3} s of page time")
    })?;
    let steps = after.n("tick") - before.n("tick");
    let due = real / STEP_SECS;
    check((steps as f64 - due).abs() <= 2.0, || {
        format!("{steps} steps in {real:.3} s of real time, {due:.1} due")
    })?;
    check(after.n("world_steps") == after.n("tick"), || {
        "the world did not run every step".to_owned()
    })?;
    Ok(format!(
        "{paints} paints in {wall:.3} s ({fps:.1}/s, loop fps {}, p99 gap {:.1} ms); {steps} steps, {due:.1} due",
        after.n("fps"),
        after.secs("gap_p99") * 1e3
    ))
}

fn screenshot_shows_the_balls(session: &mut Session, tab: &Tab) -> Result<String, String> {
    sleep(Duration::from_millis(1_500)); // let the strip chart fill a little
    let rect = tab.eval(
        &mut session.cdp,
        "(() => { const r = document.getElementById('demo').getBoundingClientRect(); \
         return [r.x, r.y, r.width, r.height]; })()",
    )?;
    let rect: Vec<f64> = serde_json::from_value(rect).map_err(|e| e.to_string())?;
    let shot = session.cdp.call(
        Some(&tab.session),
        "Page.captureScreenshot",
        json!({
            "format": "png",
            "clip": { "x": rect[0], "y": rect[1], "width": rect[2], "height": rect[3], "scale": 1 }
        }),
    )?;
    let data = shot["data"].as_str().ok_or("no screenshot data")?;
    let png = data_encoding::BASE64
        .decode(data.as_bytes())
        .map_err(|e| format!("the screenshot is not base64: {e}"))?;
    let file = session.scratch.join("screenshot.png");
    std::fs::write(&file, &png).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    if let Some(keep) = std::env::var_os("EVENSTEP_WEB_SCREENSHOT") {
        // Relative to the workspace, wherever cargo runs the test from.
        let keep = session::workspace().join(keep);
        std::fs::write(&keep, &png).map_err(|e| format!("cannot write {}: {e}", keep.display()))?;
    }
    let (width, height, pixels) = decode_png(&png)?;
    let total = pixels.len() as f64;
    let near = |pixel: [u8; 3], colour: u32| {
        let [_, r, g, b] = colour.to_be_bytes();
        pixel
            .iter()
            .zip([r, g, b])
            .all(|(have, want)| have.abs_diff(want) <= 2)
    };
    let balls: Vec<usize> = BALL_COLOURS
        .iter()
        .map(|&colour| pixels.iter().filter(|&&p| near(p, colour)).count())
        .collect();
    let background = pixels.iter().filter(|&&p| near(p, BACKGROUND)).count();
    let coloured = balls.iter().filter(|&&count| count >= 200).count();
    check(coloured >= 3, || {
        format!("ball colours found: {balls:?} pixels; wanted at least three with 200 each")
    })?;
    let ball_share = balls.iter().sum::<usize>() as f64 / total;
    check(ball_share >= 0.01, || {
        format!("balls cover {:.2}% of the canvas", ball_share * 100.0)
    })?;
    let drawn = 1.0 - background as f64 / total;
    check(drawn >= 0.6, || {
        format!("only {:.1}% of the canvas is not background", drawn * 100.0)
    })?;
    Ok(format!(
        "{width}×{height}: ball pixels {balls:?} ({:.1}%), not background {:.1}%; kept in {}",
        ball_share * 100.0,
        drawn * 100.0,
        file.display()
    ))
}

fn decode_png(bytes: &[u8]) -> Result<(u32, u32, Vec<[u8; 3]>), String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| format!("bad PNG: {e}"))?;
    let mut buffer = vec![0; reader.output_buffer_size().ok_or("PNG too large")?];
    let info = reader
        .next_frame(&mut buffer)
        .map_err(|e| format!("bad PNG: {e}"))?;
    let channels = info.color_type.samples();
    check(channels >= 3, || format!("a {channels}-channel screenshot"))?;
    let pixels = buffer[..info.buffer_size()]
        .chunks_exact(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    Ok((info.width, info.height, pixels))
}

fn hidden_page_ticks(session: &mut Session, tab: &Tab) -> Result<String, String> {
    sleep(Duration::from_millis(500));
    let before = session.status(tab)?;
    let hiding = Instant::now();
    let blank = session.hide(tab)?;
    let hidden_at = session.status(tab)?;
    sleep(Duration::from_secs(6));
    let hidden = session.status(tab)?;
    let blank_result = session.show(tab, &blank);
    let shown_after = hiding.elapsed().as_secs_f64();
    blank_result?;
    sleep(Duration::from_secs(1));
    let after = session.status(tab)?;

    // Throttling first: without it this test would prove nothing.
    let gap = hidden.secs("shortest_hidden_wake_gap");
    check(hidden.n("hidden_wakes") >= 3 && gap >= 0.9, || {
        format!(
            "the hidden page's timer was not throttled: {} wake-ups, shortest gap {gap:.3} s",
            hidden.n("hidden_wakes")
        )
    })?;
    // Hidden: no paints, ticks keep the steps and the real timer going.
    let hidden_span = hidden.secs("page_now") - hidden_at.secs("page_now");
    check(hidden.n("paints") == hidden_at.n("paints"), || {
        format!(
            "{} paints while hidden",
            hidden.n("paints") - hidden_at.n("paints")
        )
    })?;
    let ticks = hidden.n("ticks") - hidden_at.n("ticks");
    check(ticks as f64 >= hidden_span - 2.0, || {
        format!("{ticks} tick pumps in {hidden_span:.1} s hidden")
    })?;
    let steps = hidden.n("tick") - hidden_at.n("tick");
    check(steps > 0 && steps <= ticks * BUDGET, || {
        format!("{steps} steps on {ticks} ticks, budget {BUDGET} a tick")
    })?;
    let real_seconds = hidden.n("real_seconds") - hidden_at.n("real_seconds");
    check((real_seconds as f64 - hidden_span).abs() <= 1.5, || {
        format!("the 1 s real timer counted {real_seconds} in {hidden_span:.1} s hidden")
    })?;
    // Shown again: painting, one absence, and the absence reported.
    check(after.n("paints") - hidden.n("paints") >= 45, || {
        format!(
            "{} paints in the second after showing",
            after.n("paints") - hidden.n("paints")
        )
    })?;
    check(
        after.n("loop_absences") == before.n("loop_absences") + 1,
        || {
            format!(
                "absences {} before, {} after",
                before.n("loop_absences"),
                after.n("loop_absences")
            )
        },
    )?;
    let span = after.away("span").ok_or("no absence was reported")? as f64 / 1e9;
    // `shown_after` is timed on the host, across the protocol's round
    // trips: on a loaded machine those take a tenth of a second and more,
    // so the two agree to a quarter of a second, not to a frame.
    check(span >= 5.0 && (span - shown_after).abs() <= 0.25, || {
        format!("the absence reported {span:.3} s; the page was hidden for {shown_after:.3} s")
    })?;
    // Real time advanced by the hidden span: over the whole run the loop's
    // real time kept to the page's clock.
    let wall = after.secs("page_now") - before.secs("page_now");
    let real = after.secs("real_time") - before.secs("real_time");
    check((real - wall).abs() <= 0.1, || {
        format!("real time advanced {real:.3} s across {wall:.3} s with a {span:.3} s absence")
    })?;
    // Every step due over the absence ran or was dropped, and the demo
    // caught up what was dropped (under its one-minute cap).
    let run = after.away("steps").unwrap_or(0);
    let dropped = after.away("dropped_steps").unwrap_or(0);
    let due = span / STEP_SECS;
    check(((run + dropped) as f64 - due).abs() <= 2.0, || {
        format!("{run} steps ran and {dropped} were dropped over {span:.3} s ({due:.1} due)")
    })?;
    check(after.away("caught_up") == Some(dropped), || {
        format!(
            "caught up {:?} of {dropped} dropped steps",
            after.away("caught_up")
        )
    })?;
    Ok(format!(
        "hidden {hidden_span:.2} s: {} timer wake-ups {gap:.3}–{:.3} s apart, {ticks} ticks, {steps} steps, \
         real timer {real_seconds}×, 0 paints\nshown after {shown_after:.3} s: absence of {span:.3} s reported, \
         {run} steps ran + {dropped} dropped ({due:.1} due), {dropped} caught up; real time {real:.3} s over {wall:.3} s",
        hidden.n("hidden_wakes") - hidden_at.n("hidden_wakes"),
        hidden.secs("longest_hidden_wake_gap"),
    ))
}

fn frozen_page_resumes(session: &mut Session, tab: &Tab) -> Result<String, String> {
    sleep(Duration::from_millis(300));
    let blank = session.hide(tab)?;
    let lifecycle = |session: &mut Session, state: &str| {
        session.cdp.call(
            Some(&tab.session),
            "Page.setWebLifecycleState",
            json!({ "state": state }),
        )
    };
    lifecycle(session, "frozen")?;
    let frozen = Instant::now();
    sleep(Duration::from_secs(2));
    lifecycle(session, "active")?;
    let frozen_for = frozen.elapsed().as_secs_f64();
    session.show(tab, &blank)?;
    sleep(Duration::from_millis(300));
    let after = session.status(tab)?;
    let suspended = after.away("suspended").ok_or("no absence was reported")? as f64 / 1e9;
    check((suspended - frozen_for).abs() <= 0.15, || {
        format!(
            "the absence reports {suspended:.3} s suspended; the page was frozen {frozen_for:.3} s"
        )
    })?;
    let run = after.away("steps").unwrap_or(0);
    let dropped = after.away("dropped_steps").unwrap_or(0);
    let span = after.away("span").unwrap_or(0) as f64 / 1e9;
    check(
        ((run + dropped) as f64 - span / STEP_SECS).abs() <= 2.0,
        || format!("{run} steps ran and {dropped} dropped over {span:.3} s"),
    )?;
    Ok(format!(
        "frozen {frozen_for:.3} s: absence {span:.3} s, {suspended:.3} s suspended, {run} steps ran + {dropped} dropped"
    ))
}

fn cached_page_returns(session: &mut Session, tab: &Tab) -> Result<String, String> {
    sleep(Duration::from_millis(300));
    let before = session.status(tab)?;
    // Another site (`localhost`, not `127.0.0.1`): a same-site navigation
    // may keep the browsing instance, which rules the cache out.
    let elsewhere = session
        .server
        .url("elsewhere.html")
        .replace("127.0.0.1", "localhost");
    tab.navigate(&mut session.cdp, &elsewhere)?;
    let left = Instant::now();
    sleep(Duration::from_secs(2));
    let history = session
        .cdp
        .call(Some(&tab.session), "Page.getNavigationHistory", json!({}))?;
    let current = history["currentIndex"].as_u64().ok_or("no history index")?;
    let previous = current.checked_sub(1).ok_or("no page to go back to")?;
    let entry = history["entries"][previous as usize]["id"].clone();
    session.cdp.call(
        Some(&tab.session),
        "Page.navigateToHistoryEntry",
        json!({ "entryId": entry }),
    )?;
    let deadline = Instant::now() + Duration::from_secs(10);
    let back = loop {
        if let Ok(status) = session.status(tab)
            && status.away("span").is_some()
        {
            break status;
        }
        check(Instant::now() < deadline, || {
            let why = session
                .cdp
                .wait_event(
                    Some(&tab.session),
                    "Page.backForwardCacheNotUsed",
                    Duration::from_millis(100),
                )
                .map_or_else(|_| "no reason given".to_owned(), |e| e.to_string());
            format!("the page did not come back from the back-forward cache: {why}")
        })?;
        sleep(Duration::from_millis(50));
    };
    let gone = left.elapsed().as_secs_f64();
    check(back.n("tick") >= before.n("tick"), || {
        "the page came back as a fresh page, not from the cache".to_owned()
    })?;
    let suspended = back.away("suspended").unwrap_or(0) as f64 / 1e9;
    let span = back.away("span").unwrap_or(0) as f64 / 1e9;
    check(
        suspended >= 1.9 && suspended <= span && span <= gone + 0.2,
        || {
            format!(
                "away {span:.3} s, {suspended:.3} s of it suspended; the page was left {gone:.3} s"
            )
        },
    )?;
    let run = back.away("steps").unwrap_or(0);
    let dropped = back.away("dropped_steps").unwrap_or(0);
    check(
        ((run + dropped) as f64 - span / STEP_SECS).abs() <= 2.0,
        || format!("{run} steps ran and {dropped} dropped over {span:.3} s"),
    )?;
    Ok(format!(
        "left for {gone:.3} s: absence {span:.3} s, {suspended:.3} s in the cache, {run} steps ran + {dropped} dropped"
    ))
}

/// The listeners of the kinds the frame source and the demo register,
/// still on `window` and `document`.
fn listeners(session: &mut Session, tab: &Tab) -> Result<Vec<String>, String> {
    let kinds = [
        "visibilitychange",
        "freeze",
        "resume",
        "pagehide",
        "pageshow",
        "keydown",
        "keyup",
        "compositionend",
        "mousedown",
        "mouseup",
        "mousemove",
        "wheel",
        "blur",
    ];
    let mut found = Vec::new();
    for object in ["window", "document"] {
        let handle = session.cdp.call(
            Some(&tab.session),
            "Runtime.evaluate",
            json!({ "expression": object }),
        )?;
        let id = handle["result"]["objectId"]
            .as_str()
            .ok_or("no object id")?
            .to_owned();
        let listed = session.cdp.call(
            Some(&tab.session),
            "DOMDebugger.getEventListeners",
            json!({ "objectId": id }),
        )?;
        for listener in listed["listeners"].as_array().into_iter().flatten() {
            let kind = listener["type"].as_str().unwrap_or("");
            if kinds.contains(&kind) {
                found.push(format!("{object}:{kind}"));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Checks nothing of the demo is left registered, and that it stays still.
fn check_released(session: &mut Session, tab: &Tab, when: &str) -> Result<(), String> {
    let left = listeners(session, tab)?;
    check(left.is_empty(), || {
        format!("{when}: listeners left: {left:?}")
    })?;
    let first = session.status(tab)?;
    check(first.n("live_callbacks") == 0, || {
        format!(
            "{when}: {} closures still registered",
            first.n("live_callbacks")
        )
    })?;
    sleep(Duration::from_millis(400));
    let later = session.status(tab)?;
    let moved = ["paints", "ticks", "wakes", "tick"]
        .iter()
        .any(|key| later.n(key) != first.n(key));
    check(!moved, || {
        format!("{when}: the demo still runs: {:?}", later.0)
    })
}

fn stopping_releases_everything(session: &mut Session, tab: &Tab) -> Result<String, String> {
    sleep(Duration::from_millis(300));
    let running = listeners(session, tab)?;
    // The demo's own keydown listener beside the frame source's.
    let expected = [
        "document:freeze",
        "document:resume",
        "document:visibilitychange",
        "window:blur",
        "window:compositionend",
        "window:keydown",
        "window:keydown",
        "window:keyup",
        "window:mousedown",
        "window:mousemove",
        "window:mouseup",
        "window:pagehide",
        "window:pageshow",
        "window:wheel",
    ];
    check(running == expected, || {
        format!("while running, listeners {running:?}")
    })?;
    check(
        session.status(tab)?.n("live_callbacks") == LIVE_CALLBACKS,
        || format!("a running frame source should hold {LIVE_CALLBACKS} closures"),
    )?;

    // The demo's quit key, as a real keydown event: its listener stops the
    // demo and removes itself while it runs.
    tab.eval(
        &mut session.cdp,
        "window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))",
    )?;
    check_released(session, tab, "after the quit key")?;

    tab.eval(&mut session.cdp, "demo.start('demo')")?;
    sleep(Duration::from_millis(300));
    let restarted = session.status(tab)?;
    check(
        restarted.flag("started") && restarted.n("live_callbacks") == LIVE_CALLBACKS,
        || format!("start() after stop() did not run again: {:?}", restarted.0),
    )?;

    // Stopped from inside an update: the frame source lets go by itself.
    let stop_at = restarted.n("tick") + 10;
    tab.eval(&mut session.cdp, &format!("demo.stop_at_tick({stop_at})"))?;
    sleep(Duration::from_secs(1));
    let stopped = session.status(tab)?;
    check(!stopped.flag("running") && !stopped.flag("started"), || {
        format!(
            "stopping from an update did not stop the frame source: {:?}",
            stopped.0
        )
    })?;
    check(stopped.n("tick") == stop_at + 1, || {
        format!("stopped at tick {}, asked at {stop_at}", stopped.n("tick"))
    })?;
    // The demo's key listener is its own, not the frame source's.
    tab.eval(&mut session.cdp, "demo.stop()")?;
    check_released(session, tab, "after a stop from inside an update")?;

    tab.eval(&mut session.cdp, "demo.start('demo')")?;
    sleep(Duration::from_millis(200));
    tab.eval(&mut session.cdp, "demo.release()")?;
    let released = session.status(tab)?;
    check(!released.flag("built"), || {
        "release() kept the demo".to_owned()
    })?;
    check_released(session, tab, "after release()")?;
    Ok(format!(
        "running: {LIVE_CALLBACKS} closures, listeners {running:?}; none left after the quit key, a stop from an update at tick {stop_at} and stop(), or release()"
    ))
}

fn bad_page_state(session: &mut Session, tab: &Tab) -> Result<String, String> {
    sleep(Duration::from_millis(300));
    let again = tab.eval(&mut session.cdp, "demo.start('demo')");
    let message = match again {
        Ok(value) => return Err(format!("starting twice was accepted: {value}")),
        Err(message) => message,
    };
    check(message.contains("already started"), || {
        format!("starting twice said: {message}")
    })?;
    let before = session.status(tab)?;
    sleep(Duration::from_millis(300));
    let after = session.status(tab)?;
    check(
        after.n("paints") > before.n("paints") && after.n("live_callbacks") == LIVE_CALLBACKS,
        || "the running demo did not go on after a second start".to_owned(),
    )?;

    // A key the demo uses and one it does not, then a reload mid-run.
    check(
        tab.eval(&mut session.cdp, "demo.press('i')")? == json!(true),
        || "the demo did not take 'i'".to_owned(),
    )?;
    check(
        tab.eval(&mut session.cdp, "demo.press('F5')")? == json!(false),
        || "the demo took 'F5'".to_owned(),
    )?;
    let run_before = session.status(tab)?;
    session
        .cdp
        .call(Some(&tab.session), "Page.reload", json!({}))?;
    session.cdp.wait_event(
        Some(&tab.session),
        "Page.loadEventFired",
        Duration::from_secs(30),
    )?;
    session.wait_ready(tab)?;
    sleep(Duration::from_millis(500));
    let reloaded = session.status(tab)?;
    check(
        reloaded.flag("running") && reloaded.n("paints") >= 20,
        || format!("the reloaded page does not run: {:?}", reloaded.0),
    )?;
    // `i` turned interpolation off; a fresh page has it on, and its loop
    // started in the new page's time origin.
    check(
        reloaded.flag("interpolate") && reloaded.n("real_time") <= reloaded.n("page_now"),
        || format!("the reloaded page did not start afresh: {:?}", reloaded.0),
    )?;
    Ok(format!(
        "second start refused: {message}\nreloaded at tick {}: a fresh page at tick {} after 0.5 s",
        run_before.n("tick"),
        reloaded.n("tick")
    ))
}

/// A press a step read: the step's tick, the button, the step's pointer.
type Press = (u64, String, Option<(f64, f64)>);

/// The presses the steps read.
fn presses(status: &session::Status) -> Vec<Press> {
    status.0["presses"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|press| {
            let pointer = press[2].as_array().map(|p| {
                (
                    p[0].as_f64().unwrap_or(f64::NAN),
                    p[1].as_f64().unwrap_or(f64::NAN),
                )
            });
            (
                press[0].as_u64().unwrap_or(u64::MAX),
                press[1].as_str().unwrap_or("?").to_owned(),
                pointer,
            )
        })
        .collect()
}

fn input_reaches_one_step(session: &mut Session, tab: &Tab) -> Result<String, String> {
    sleep(Duration::from_millis(300));
    let rect = tab.eval(
        &mut session.cdp,
        "(() => { const r = document.getElementById('demo').getBoundingClientRect(); \
         return [r.x, r.y]; })()",
    )?;
    let rect: Vec<f64> = serde_json::from_value(rect).map_err(|e| e.to_string())?;
    let (x, y) = (rect[0].round() + 100.0, rect[1].round() + 50.0);
    let mut input = |method: &str, params: serde_json::Value| {
        session
            .cdp
            .call(Some(&tab.session), method, params)
            .map(|_| ())
    };
    // Trusted events, through the browser's own input pipeline.
    let key = json!({ "code": "KeyJ", "key": "j", "windowsVirtualKeyCode": 74 });
    let mut down = key.clone();
    down["type"] = json!("keyDown");
    down["text"] = json!("j");
    input("Input.dispatchKeyEvent", down)?;
    let mut up = key;
    up["type"] = json!("keyUp");
    input("Input.dispatchKeyEvent", up)?;
    for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
        input(
            "Input.dispatchMouseEvent",
            json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
        )?;
    }
    input(
        "Input.dispatchMouseEvent",
        json!({ "type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": 120 }),
    )?;
    // A script's key event has no code: refused, counted, never a press.
    tab.eval(
        &mut session.cdp,
        "window.dispatchEvent(new KeyboardEvent('keydown', { key: 'F9' }))",
    )?;
    // Dispatched while the frame source is in use: kept, then forwarded.
    tab.eval(&mut session.cdp, "demo.press_from_inside('KeyL')")?;
    sleep(Duration::from_millis(400)); // eight 20 Hz steps
    let status = session.status(tab)?;
    let presses = presses(&status);
    let names: Vec<&str> = presses.iter().map(|(_, name, _)| name.as_str()).collect();
    check(names == ["KeyJ", "Mouse0", "KeyL"], || {
        format!("the steps read the presses {presses:?}, not one each of KeyJ, Mouse0 and KeyL")
    })?;
    let (key_tick, click_tick) = (presses[0].0, presses[1].0);
    let expected = (x - rect[0], y - rect[1]);
    check(presses[1].2 == Some(expected), || {
        format!(
            "the click's step read the pointer at {:?}, not {expected:?} on the canvas",
            presses[1].2
        )
    })?;
    check(status.0["text"] == json!("j"), || {
        format!("the steps read the text {}", status.0["text"])
    })?;
    let wheel = (status.0["wheel"][0].as_f64(), status.0["wheel"][1].as_f64());
    check(wheel == (Some(0.0), Some(120.0)), || {
        format!("the steps read the wheel {}", status.0["wheel"])
    })?;
    let counts = &status.0["input"];
    let refusal = counts["last_refusal"].as_str().unwrap_or("");
    check(
        counts["refused"] == json!(1)
            && refusal.contains("code")
            && counts["stamps_after_now"] == json!(0),
        || format!("input counts {counts}"),
    )?;
    Ok(format!(
        "KeyJ read by step {key_tick} alone, the click by step {click_tick} at {expected:?}; \
         text \"j\", wheel 120 px; KeyL from inside the frame source read once; \
         {} events forwarded, the code-less key refused: {refusal}",
        counts["forwarded"]
    ))
}

fn late_input_waits(session: &mut Session, tab: &Tab) -> Result<String, String> {
    const WANTED: u64 = 3;
    sleep(Duration::from_millis(300));
    tab.eval(
        &mut session.cdp,
        &format!("demo.probe_late_input({WANTED}, 40)"),
    )?;
    let deadline = Instant::now() + Duration::from_secs(15);
    let (status, trials) = loop {
        let status = session.status(tab)?;
        let trials = status.0["probe"].as_array().cloned().unwrap_or_default();
        let with_steps = trials
            .iter()
            .filter(|t| t["pump_steps"].as_u64().is_some_and(|s| s > 0))
            .count() as u64;
        let seen = presses(&status)
            .iter()
            .filter(|(_, name, _)| name == "KeyK")
            .count();
        if (with_steps >= WANTED || trials.len() >= 40) && seen >= trials.len() {
            break (status, trials);
        }
        check(Instant::now() < deadline, || {
            format!(
                "the probe did not finish in 15 s: {} trials, {seen} presses seen",
                trials.len()
            )
        })?;
        sleep(Duration::from_millis(100));
    };
    let seen: Vec<u64> = presses(&status)
        .iter()
        .filter(|(_, name, _)| name == "KeyK")
        .map(|(tick, _, _)| *tick)
        .collect();
    check(seen.len() == trials.len(), || {
        format!("{} trials, KeyK read by steps {seen:?}", trials.len())
    })?;
    let mut with_steps = 0;
    for (trial, tick) in trials.iter().zip(&seen) {
        let frame = trial["frame"].as_u64().unwrap_or(0);
        let queued = trial["queued_at"].as_u64();
        let steps = trial["pump_steps"].as_u64().unwrap_or(0);
        let (before, after) = (trial["tick_before"].as_u64(), trial["tick_after"].as_u64());
        check(trial["pump_at"].as_u64() == Some(frame), || {
            format!("the press was not handled before its frame's pump: {trial}")
        })?;
        check(queued.is_some_and(|at| at > frame), || {
            format!(
                "after its frame's pump the press was not queued after the frame's time: {trial}"
            )
        })?;
        check(
            before.zip(after).is_some_and(|(b, a)| a == b + steps),
            || format!("the pump's steps do not match its ticks: {trial}"),
        )?;
        check(after.is_some_and(|a| *tick >= a), || {
            format!("the press was read by step {tick}, one of its frame's pump: {trial}")
        })?;
        if steps > 0 {
            with_steps += 1;
        }
    }
    check(with_steps >= WANTED, || {
        format!(
            "only {with_steps} of {} trials' pumps ran a step",
            trials.len()
        )
    })?;
    let lead = trials
        .iter()
        .filter_map(|t| Some(t["queued_at"].as_u64()? - t["frame"].as_u64()?))
        .min()
        .unwrap_or(0);
    Ok(format!(
        "{} presses stamped at least {:.1} ms after their frame began: each queued past its frame's pump \
         ({with_steps} of those pumps ran steps) and read once, by a later pump's step",
        trials.len(),
        lead as f64 / 1e6
    ))
}

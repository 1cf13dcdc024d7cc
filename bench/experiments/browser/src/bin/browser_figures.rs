//! The browser figures in evenstep-web's README: the demo page in headless
//! Chromium, visible then hidden, with paints, ticks, timer wake-ups and
//! steps a second in each phase, the browser's CPU time, and the cost of a
//! pump in the page (in place, and in a tight loop against the same loop
//! natively). A measuring run, not a test: it asserts nothing.
//!
//! ```text
//! crates/evenstep-web/build-page.sh
//! cd bench/experiments && cargo run --release --bin browser_figures -- --visible 10 --hidden 180
//! ```
//!
//! The browser session is the browser tests' own, included from
//! `crates/evenstep-demo/tests/support/`.

#[path = "../../../../../crates/evenstep-demo/tests/support/cdp.rs"]
#[allow(
    dead_code,
    reason = "the test harness's support, of which the measuring run uses a part"
)]
mod cdp;
#[path = "../../../../../crates/evenstep-demo/tests/support/chromium.rs"]
#[allow(
    dead_code,
    reason = "the test harness's support, of which the measuring run uses a part"
)]
mod chromium;
#[path = "../../../../../crates/evenstep-demo/tests/support/server.rs"]
#[allow(
    dead_code,
    reason = "the test harness's support, of which the measuring run uses a part"
)]
mod server;
#[path = "../../../../../crates/evenstep-demo/tests/support/session.rs"]
#[allow(
    dead_code,
    reason = "the test harness's support, of which the measuring run uses a part"
)]
mod session;

use std::process::ExitCode;
use std::thread::sleep;
use std::time::{Duration, Instant};

use evenstep::{Loop, ManualClock, PumpKind, Timestamp};
use evenstep_demo::Bounce;
use serde_json::json;
use session::{Session, Status};

fn main() -> ExitCode {
    match measure() {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("{why}");
            ExitCode::FAILURE
        }
    }
}

fn seconds_arg(name: &str, default: u64) -> Result<u64, String> {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(at) => args
            .get(at + 1)
            .and_then(|v| v.parse().ok())
            .filter(|&v| v > 0)
            .ok_or_else(|| format!("{name} takes a whole number of seconds, 1 or more")),
    }
}

/// CPU time of every process of the browser so far, in seconds.
fn browser_cpu(session: &mut Session) -> Result<f64, String> {
    let info = session
        .cdp
        .call(None, "SystemInfo.getProcessInfo", json!({}))?;
    Ok(info["processInfo"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["cpuTime"].as_f64())
        .sum())
}

struct Phase {
    name: String,
    wall: f64,
    paints: u64,
    ticks: u64,
    wakes: u64,
    steps: u64,
    cpu: f64,
}

impl Phase {
    fn between(name: &str, a: &Status, b: &Status, cpu: f64) -> Phase {
        Phase {
            name: name.to_owned(),
            wall: b.secs("page_now") - a.secs("page_now"),
            paints: b.n("paints") - a.n("paints"),
            ticks: b.n("ticks") - a.n("ticks"),
            wakes: b.n("wakes") - a.n("wakes"),
            steps: b.n("tick") - a.n("tick"),
            cpu,
        }
    }

    fn row(&self) -> String {
        let per = |n: u64| n as f64 / self.wall;
        format!(
            "| {} | {:.1} | {:.1} | {:.2} | {:.2} | {:.1} | {:.2} |",
            self.name,
            self.wall,
            per(self.paints),
            per(self.ticks),
            per(self.wakes),
            per(self.steps),
            self.cpu / self.wall * 100.0
        )
    }
}

fn measure() -> Result<(), String> {
    let visible = seconds_arg("--visible", 10)?;
    let hidden = seconds_arg("--hidden", 90)?;
    let mut session = Session::start()?;
    let tab = session.open_demo()?;
    sleep(Duration::from_secs(1)); // past the page load and warm-up

    let cpu0 = browser_cpu(&mut session)?;
    let start = session.status(&tab)?;
    sleep(Duration::from_secs(visible));
    let shown = session.status(&tab)?;
    let cpu1 = browser_cpu(&mut session)?;
    let mut phases = vec![Phase::between("visible", &start, &shown, cpu1 - cpu0)];

    let blank = session.hide(&tab)?;
    let (hidden_phases, hidden_end) = hidden_stretches(&mut session, &tab, hidden)?;
    phases.extend(hidden_phases);
    session.show(&tab, &blank)?;
    sleep(Duration::from_secs(1));
    let back = session.status(&tab)?;

    println!("Chromium: {}", session.chromium.binary.display());
    println!(
        "\n| phase | seconds | paints/s | ticks/s | timer wake-ups/s | steps/s | browser CPU (% of a core) |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for phase in &phases {
        println!("{}", phase.row());
    }
    println!(
        "\nhidden wake-up gaps: shortest {:.3} s, longest {:.3} s; shown again: absence {:.3} s, \
         {} steps ran, {} dropped, {} caught up; loop absences {}",
        hidden_end.secs("shortest_hidden_wake_gap"),
        hidden_end.secs("longest_hidden_wake_gap"),
        back.away("span").unwrap_or(0) as f64 / 1e9,
        back.away("steps").unwrap_or(0),
        back.away("dropped_steps").unwrap_or(0),
        back.away("caught_up").unwrap_or(0),
        back.n("loop_absences"),
    );
    // Over the visible phase only: the first frames also compile the
    // module's functions, once.
    let paints = (shown.n("paints") - start.n("paints")).max(1) as f64;
    let per_paint = |key: &str| (shown.n(key) - start.n(key)) as f64 / paints / 1e3;
    println!(
        "\nper paint while visible (page clock, {} resolution): pump {:.1} µs, drawing {:.1} µs",
        if shown.flag("isolated") {
            "5 µs"
        } else {
            "100 µs"
        },
        per_paint("paint_pump_time"),
        per_paint("draw_time"),
    );
    pump_costs(&mut session, &tab)
}

/// The hidden phase in stretches, to see the throttling change over time,
/// and the whole of it; with the status at its end.
fn hidden_stretches(
    session: &mut Session,
    tab: &cdp::Tab,
    hidden: u64,
) -> Result<(Vec<Phase>, Status), String> {
    let hid = Instant::now();
    let mut previous = session.status(tab)?;
    let mut cpu_previous = browser_cpu(session)?;
    let hidden_start = previous.clone();
    let marks: Vec<u64> = [10, 30, 60, 90, 120, 180, 300]
        .into_iter()
        .filter(|&m| m < hidden)
        .chain([hidden])
        .collect();
    let mut phases = Vec::new();
    let mut from = 0;
    for mark in marks {
        let until = hid + Duration::from_secs(mark);
        sleep(until.saturating_duration_since(Instant::now()));
        let now = session.status(tab)?;
        let cpu = browser_cpu(session)?;
        phases.push(Phase::between(
            &format!("hidden, {from}–{mark} s"),
            &previous,
            &now,
            cpu - cpu_previous,
        ));
        previous = now;
        cpu_previous = cpu;
        from = mark;
    }
    let all = Phase::between(
        "hidden, all",
        &hidden_start,
        &previous,
        phases.iter().map(|p| p.cpu).sum(),
    );
    phases.push(all);
    Ok((phases, previous))
}

/// A pump in a tight loop, in the page (on a manual clock and on the
/// page's) and natively; and the page's clock read itself.
fn pump_costs(session: &mut Session, tab: &cdp::Tab) -> Result<(), String> {
    let pumps = 200_000;
    let mut wasm_per_pump = [0.0; 2];
    for (page_clock, figure) in [false, true].into_iter().zip(&mut wasm_per_pump) {
        *figure = tab
            .eval(
                &mut session.cdp,
                &format!("demo.measure_pump({pumps}, {page_clock})"),
            )?
            .as_f64()
            .ok_or("measure_pump gave no number")?;
    }
    let native_per_pump = native_pump(pumps);
    // A paint pump reads the page's clock five times: three in the loop,
    // two to time the pump.
    let clock_read = tab
        .eval(
            &mut session.cdp,
            "(() => { const n = 1e6; const t0 = performance.now(); \
             for (let i = 0; i < n; i++) performance.now(); \
             return (performance.now() - t0) * 1e6 / n; })()",
        )?
        .as_f64()
        .ok_or("no clock figure")?;
    println!("performance.now() from script: {clock_read:.0} ns a read");
    println!(
        "tight loop, {pumps} paint pumps at 60 Hz stamps (20 Hz steps): wasm in the page {:.0} ns/pump \
         on a manual clock, {:.0} ns/pump on the page's clock; native {native_per_pump:.0} ns/pump",
        wasm_per_pump[0], wasm_per_pump[1]
    );
    Ok(())
}

/// The page's `measure_pump`, natively: the same loop, world and stamps.
fn native_pump(pumps: u32) -> f64 {
    let clock = ManualClock::new();
    let Ok(mut game_loop) = Loop::<Bounce>::builder()
        .clock(clock.clone())
        .timestep(Bounce::timestep())
        .build()
    else {
        return f64::NAN;
    };
    game_loop.on_update(Bounce::update);
    let mut bounce = Bounce::new();
    game_loop.start();
    let began = Instant::now();
    for frame in 1..=u64::from(pumps) {
        let at = Timestamp::from_nanos(frame * 1_000_000_000 / 60);
        clock.set(at);
        let _ = game_loop.pump_at(&mut bounce, PumpKind::Paint, at);
    }
    began.elapsed().as_nanos() as f64 / f64::from(pumps)
}

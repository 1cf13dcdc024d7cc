//! `evenstep-ggrs-logs A.json B.json`: checks two peers' saved frame logs
//! of the peer command's world (`evenstep-ggrs-peer --log FILE`). Each log
//! is replayed from the opening state with the world's rules, naming the
//! first frame whose recorded state the rules do not give (the frame that
//! peer left the rules); then the two logs are compared, naming the first
//! frame they disagree on.
//!
//! Exits 0 when both logs replay green and agree, 1 when a log left the
//! rules, holds no frame or the logs differ, and 2 when a log cannot be
//! read (the message says why).

use std::fmt::Write as _;
use std::process::ExitCode;

use evenstep_ggrs::{FrameLog, first_difference, replay_frames};

#[path = "world.rs"]
mod world;

use world::Arena;

const USAGE: &str = "usage: evenstep-ggrs-logs A.json B.json (two peers' frame logs, as \
                     `evenstep-ggrs-peer --log FILE` saves them)";

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let [a, b] = paths.as_slice() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let logs = match (load(a), load(b)) {
        (Ok(log_a), Ok(log_b)) => [log_a, log_b],
        (Err(error), _) | (_, Err(error)) => {
            eprintln!("{error}");
            return ExitCode::from(2);
        }
    };
    let (report, all_good) = check(&[a, b], &logs);
    print!("{report}");
    if all_good {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The log at `path`, or why it cannot be read.
fn load(path: &str) -> Result<FrameLog<u8>, String> {
    let text = std::fs::read_to_string(path).map_err(|error| format!("{path}: {error}"))?;
    serde_json::from_str(&text).map_err(|error| format!("{path}: not a frame log: {error}"))
}

/// What the logs say, a line each and one for both, and whether all is
/// well.
fn check(paths: &[&String; 2], logs: &[FrameLog<u8>; 2]) -> (String, bool) {
    let mut report = String::new();
    let mut all_good = true;
    for (path, log) in paths.iter().zip(logs) {
        let (line, good) = replay_line(log);
        all_good &= good;
        let _ = writeln!(report, "{path}: {line}");
    }
    let [a, b] = logs;
    if a.timestep() != b.timestep() {
        all_good = false;
        let _ = writeln!(
            report,
            "the logs were recorded at {} and {}: the peers ran different steps",
            a.timestep(),
            b.timestep()
        );
    } else if let Some(frame) = first_difference(a, b) {
        all_good = false;
        let _ = writeln!(report, "the logs first differ at frame {frame}");
    } else {
        let both = a.ticks().min(b.ticks());
        let _ = writeln!(report, "the logs agree on all {both} frames both hold");
    }
    (report, all_good)
}

/// One log replayed with the world's rules: what it found, and whether it
/// is green.
fn replay_line(log: &FrameLog<u8>) -> (String, bool) {
    let frames = log.ticks();
    let step = log.timestep();
    let mut log = log.clone();
    match replay_frames(&mut log, step, Arena::default()) {
        Ok((report, _)) => match report.divergence {
            Some(divergence) => (
                format!(
                    "{frames} frames at {step}; left the rules at frame {} (the log holds \
                     state {:#018x}, the rules give {:#018x})",
                    divergence.tick, divergence.expected, divergence.actual
                ),
                false,
            ),
            None if report.is_green() => {
                (format!("{frames} frames at {step}; replays green"), true)
            }
            None => (format!("holds no frame at {step}: nothing to check"), false),
        },
        Err(error) => (format!("cannot be replayed: {error}"), false),
    }
}

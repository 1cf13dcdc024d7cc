//! Saved frame logs, with the `serde` feature: a log writes to JSON and
//! reads back equal, statuses by name; and `evenstep-ggrs-logs`, run on two
//! peers' saved logs, names the frame a nudged peer left the rules and the
//! frame the logs first differ, and refuses what is not a log.
#![cfg(feature = "serde")]

#[path = "../src/bin/world.rs"]
mod world;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use evenstep::{Loop, ManualClock, Pacing, PumpKind, Timestamp};
use evenstep_ggrs::ggrs::{InputStatus, PlayerType};
use evenstep_ggrs::{FrameInputs, FrameLog, Link, LinkAddr, LinkConfig, Rollback, session_builder};

use world::{Arena, STEP};

const LOGS: &str = env!("CARGO_BIN_EXE_evenstep-ggrs-logs");

/// Two peers of the world over a link with 2 ticks of delay, on manual
/// clocks, peer B's advance of `nudge_b` moving the puck aside; their
/// logs once both confirmed `frames` frames.
fn two_logs(nudge_b: Option<u32>, frames: u64) -> [FrameLog<u8>; 2] {
    let (link, a, b) = Link::pair(LinkConfig::new(2, 2, 0).unwrap(), 5);
    let mut peers: Vec<_> = [(0, a), (1, b)]
        .into_iter()
        .map(|(me, end)| {
            let peer: LinkAddr = end.peer();
            let session = session_builder::<Arena, LinkAddr>(STEP)
                .add_player(PlayerType::Local, me)
                .unwrap()
                .add_player(PlayerType::Remote(peer), 1 - me)
                .unwrap()
                .start_p2p_session(end)
                .unwrap();
            let mut arena = Arena::new(0x5EED + me as u64);
            if me == 1 {
                arena.nudge_at = nudge_b;
            }
            let clock = ManualClock::new();
            let mut game_loop = Loop::builder()
                .clock(clock.clone())
                .timestep(STEP)
                .pacing(Pacing::OFF)
                .build()
                .unwrap();
            Rollback::attach(&mut game_loop);
            game_loop.start();
            let rollback = Rollback::new(arena, session, STEP).recording_frames();
            (game_loop, clock, rollback)
        })
        .collect();
    for round in 0..5_000_u64 {
        if peers
            .iter()
            .all(|(_, _, rollback)| rollback.frame_log().unwrap().ticks() >= frames)
        {
            break;
        }
        for (game_loop, clock, rollback) in &mut peers {
            clock.set(Timestamp::from_nanos(round * 16_700_000 + 5_000_000));
            let _ = game_loop.pump(rollback, PumpKind::Tick);
        }
        link.advance(1);
    }
    let mut logs = peers
        .into_iter()
        .map(|(_, _, mut rollback)| rollback.take_frame_log().unwrap());
    let logs = [logs.next().unwrap(), logs.next().unwrap()];
    assert!(
        logs.iter().all(|log| log.ticks() >= frames),
        "{frames} frames confirmed"
    );
    logs
}

/// A scratch directory for this test alone, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evenstep-ggrs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn save(log: &FrameLog<u8>, path: &Path) {
    std::fs::write(path, serde_json::to_string(log).unwrap()).unwrap();
}

fn run_logs(args: &[&Path]) -> Output {
    Command::new(LOGS).args(args).output().unwrap()
}

#[test]
fn a_frame_log_writes_statuses_by_name_and_reads_back_equal() {
    let inputs = FrameInputs(vec![
        (3_u8, InputStatus::Confirmed),
        (0, InputStatus::Predicted),
        (0, InputStatus::Disconnected),
    ]);
    assert_eq!(
        serde_json::to_string(&inputs).unwrap(),
        r#"[[3,"Confirmed"],[0,"Predicted"],[0,"Disconnected"]]"#
    );
    let [log, _] = two_logs(None, 60);
    let text = serde_json::to_string(&log).unwrap();
    let read: FrameLog<u8> = serde_json::from_str(&text).unwrap();
    assert_eq!(read, log);
    assert!(serde_json::from_str::<FrameInputs<u8>>(r#"[[3,"Guessed"]]"#).is_err());
}

#[test]
fn the_command_names_frame_100_for_a_peer_nudged_there() {
    let dir = scratch("nudged");
    let [a, b] = two_logs(Some(100), 300);
    let (path_a, path_b) = (dir.join("a.json"), dir.join("b.json"));
    save(&a, &path_a);
    save(&b, &path_b);
    let output = run_logs(&[&path_a, &path_b]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(lines.len(), 3, "{stdout}");
    let frames_b = b.ticks();
    assert_eq!(
        lines[0],
        format!(
            "{}: {} frames at {STEP}; replays green",
            path_a.display(),
            a.ticks()
        )
    );
    let expected_b = format!(
        "{}: {frames_b} frames at {STEP}; left the rules at frame 100 (the log holds state",
        path_b.display()
    );
    assert!(lines[1].starts_with(&expected_b), "{}", lines[1]);
    assert_eq!(lines[2], "the logs first differ at frame 100");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_passes_two_peers_that_kept_the_rules() {
    let dir = scratch("green");
    let [a, b] = two_logs(None, 200);
    let (path_a, path_b) = (dir.join("a.json"), dir.join("b.json"));
    save(&a, &path_a);
    save(&b, &path_b);
    let output = run_logs(&[&path_a, &path_b]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let both = a.ticks().min(b.ticks());
    assert_eq!(
        stdout.lines().last(),
        Some(format!("the logs agree on all {both} frames both hold").as_str())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_refuses_a_file_that_is_not_a_log_and_a_wrong_count_of_files() {
    let dir = scratch("refused");
    let (log, junk) = (dir.join("a.json"), dir.join("junk.json"));
    save(&two_logs(None, 30)[0], &log);
    std::fs::write(&junk, "{\"frames\": 3}").unwrap();
    let output = run_logs(&[&log, &junk]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.starts_with(&format!("{}: not a frame log: ", junk.display())),
        "{stderr}"
    );
    let missing = dir.join("missing.json");
    let output = run_logs(&[&log, &missing]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!("{}: ", missing.display())),
        "{stderr}"
    );
    let output = run_logs(&[&log]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("usage: evenstep-ggrs-logs A.json B.json"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

//! Two peer processes over ggrs's own UDP socket (bound on all interfaces,
//! addressing each other at 127.0.0.1) play the world to equal state
//! hashes within a wall-clock bound; with one nudged, their saved logs name
//! the frame; bad arguments are refused naming the valid values. Real
//! time: a few seconds, every child killed if it overruns.

use std::net::UdpSocket;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const PEER: &str = env!("CARGO_BIN_EXE_evenstep-ggrs-peer");

/// Generous against a loaded machine: the peers need about 3 s.
const BOUND: Duration = Duration::from_secs(40);

/// Two UDP ports free a moment ago: bound together, so they differ, and
/// released for the peers.
fn free_ports() -> [u16; 2] {
    let a = UdpSocket::bind("0.0.0.0:0").unwrap();
    let b = UdpSocket::bind("0.0.0.0:0").unwrap();
    [
        a.local_addr().unwrap().port(),
        b.local_addr().unwrap().port(),
    ]
}

/// Starts player `me` on `ports[me]`, its peer at 127.0.0.1 on the other.
fn spawn(me: usize, ports: [u16; 2], extra: &[String]) -> Child {
    Command::new(PEER)
        .args([
            "--player",
            &me.to_string(),
            "--port",
            &ports[me].to_string(),
        ])
        .args(["--peer", &format!("127.0.0.1:{}", ports[1 - me])])
        .args(["--seconds", "30"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for both children within `BOUND`, killing both if either
/// overruns (the test then fails rather than hangs).
fn wait_both(mut children: [Child; 2]) -> [Output; 2] {
    let start = Instant::now();
    while children
        .iter_mut()
        .any(|child| child.try_wait().unwrap().is_none())
    {
        if start.elapsed() > BOUND {
            for child in &mut children {
                let _ = child.kill();
                let _ = child.wait();
            }
            panic!("the peers did not finish within {BOUND:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    children.map(|child| child.wait_with_output().unwrap())
}

fn hash_line(output: &Output, frames: u64) -> String {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let prefix = format!("after {frames} frames: state hash 0x");
    stdout
        .lines()
        .find(|line| line.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no hash line in:\n{stdout}"))
        .to_owned()
}

#[test]
fn two_peer_processes_over_udp_print_equal_state_hashes() {
    let ports = free_ports();
    let extra = ["--frames".to_owned(), "120".to_owned()];
    let outputs = wait_both([spawn(0, ports, &extra), spawn(1, ports, &extra)]);
    for output in &outputs {
        assert!(
            output.status.success(),
            "{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let [a, b] = [hash_line(&outputs[0], 120), hash_line(&outputs[1], 120)];
    assert_eq!(a, b);
    assert_eq!(a.len(), "after 120 frames: state hash 0x".len() + 16);
}

#[cfg(feature = "serde")]
#[test]
fn a_nudged_peer_process_is_named_by_its_saved_log() {
    let dir = std::env::temp_dir().join(format!("evenstep-ggrs-udp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let logs = [dir.join("a.json"), dir.join("b.json")];
    let ports = free_ports();
    let extra = |me: usize| {
        let mut extra = vec!["--frames".to_owned(), "150".to_owned()];
        extra.extend(["--log".to_owned(), logs[me].display().to_string()]);
        if me == 1 {
            extra.extend(["--nudge-at".to_owned(), "100".to_owned()]);
        }
        extra
    };
    let outputs = wait_both([spawn(0, ports, &extra(0)), spawn(1, ports, &extra(1))]);
    for output in &outputs {
        // A desync was reported: both exit 1, their logs saved.
        assert_eq!(output.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("desync at frame 110"), "{stderr}");
    }
    let checked = Command::new(env!("CARGO_BIN_EXE_evenstep-ggrs-logs"))
        .args(&logs)
        .output()
        .unwrap();
    let stdout = String::from_utf8(checked.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(checked.status.code(), Some(1));
    assert!(lines[0].ends_with("replays green"), "{stdout}");
    assert!(
        lines[1].contains("left the rules at frame 100 "),
        "{stdout}"
    );
    assert_eq!(lines[2], "the logs first differ at frame 100");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_refused_naming_the_valid_values() {
    for (args, expected) in [
        (
            vec!["--port", "7000", "--peer", "127.0.0.1:7001"],
            "--player is required",
        ),
        (
            vec![
                "--player",
                "2",
                "--port",
                "7000",
                "--peer",
                "127.0.0.1:7001",
            ],
            "--player 2: a whole number in 0..=1",
        ),
        (
            vec!["--player", "0", "--port", "7000", "--peer", "nowhere"],
            "--peer nowhere: an address is HOST:PORT, as 192.168.1.20:7000",
        ),
        (
            vec!["--player", "0", "--port", "0", "--peer", "127.0.0.1:7001"],
            "--port 0: a whole number in 1..=65535",
        ),
        (
            vec!["--speed", "2"],
            "unknown argument --speed: the arguments are --player",
        ),
    ] {
        let output = Command::new(PEER).args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.starts_with(expected), "{args:?}: {stderr}");
        assert!(stderr.contains("usage: evenstep-ggrs-peer"), "{stderr}");
    }
}

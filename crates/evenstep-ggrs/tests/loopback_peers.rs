//! Two peers over 127.0.0.1: with the same rules they agree on every
//! confirmed frame, report no desync, and their frame logs replay green;
//! a peer whose state is nudged at frame 100 is reported once, at the
//! first checksum after it, and its log's replay names frame 100.

mod common;

use evenstep::Timestep;
use evenstep_ggrs::replay_frames;

use common::{Pace, Setup, Walkers, compare_logs, run, udp_peers};

/// A step rate high enough that 600 frames pass in a few seconds of real
/// time (ggrs reads the real clock inside a session).
const FAST: Timestep = Timestep::HZ_240;

#[test]
fn two_peers_agree_on_every_confirmed_frame_and_their_logs_replay_green() {
    let setup = Setup {
        timestep: FAST,
        ..Setup::default()
    };
    let mut peers = udp_peers(setup);
    let finished = run(&mut peers, None, &Pace::default(), |peers| {
        peers.iter().all(|peer| peer.log().ticks() >= 600)
    });
    assert!(finished, "600 confirmed frames within the time limit");
    let (common, first_difference) = compare_logs(peers[0].log(), peers[1].log());
    assert!(common >= 600);
    assert_eq!(first_difference, None);
    for peer in &mut peers {
        assert_eq!(peer.rollback.desync(), None);
        assert_eq!(peer.rollback.last_error(), None);
        let stats = peer.rollback.stats();
        assert!(stats.frames >= 600, "{stats:?}");
        assert_eq!(stats.missing_snapshots, 0);
        let mut log = peer.rollback.take_frame_log().unwrap();
        let (report, replayed) = replay_frames(&mut log, FAST, Walkers::new(0)).unwrap();
        assert!(report.is_green(), "{report:?}");
        assert_eq!(report.checkpoints, log.ticks());
        assert_eq!(u64::from(replayed.walk.frame), log.ticks());
    }
}

#[test]
fn a_nudged_peer_is_reported_once_and_its_log_names_the_frame() {
    let setup = Setup {
        timestep: FAST,
        nudge_b: Some(100),
        ..Setup::default()
    };
    let mut peers = udp_peers(setup);
    let addresses = [
        peers[0].rollback.session().remote_player_handles(),
        peers[1].rollback.session().remote_player_handles(),
    ];
    assert_eq!(addresses, [vec![1], vec![0]]);
    // Until both have seen several reports and confirmed 300 frames.
    let finished = run(&mut peers, None, &Pace::default(), |peers| {
        peers.iter().all(|peer| {
            peer.log().ticks() >= 300 && peer.rollback.desync().is_some_and(|d| d.reports >= 3)
        })
    });
    assert!(finished, "desyncs reported within the time limit");
    for peer in &peers {
        let desync = peer.rollback.desync().unwrap();
        // The first checksum compared after the nudge: frame 110, one
        // interval (10) after frame 100.
        assert_eq!(desync.frame, 110, "{desync:?}");
        assert_ne!(desync.local_checksum, desync.remote_checksum);
    }
    let a = peers[0].rollback.desync().unwrap();
    let b = peers[1].rollback.desync().unwrap();
    assert_eq!(
        (a.local_checksum, a.remote_checksum),
        (b.remote_checksum, b.local_checksum)
    );
    // Each names the other's address.
    let sockets = [
        peers[0].rollback.session().handles_by_address(a.peer),
        peers[1].rollback.session().handles_by_address(b.peer),
    ];
    assert_eq!(sockets, [vec![1], vec![0]]);
    // The logs first differ at frame 100, and the rules name it too.
    let (_, first_difference) = compare_logs(peers[0].log(), peers[1].log());
    assert_eq!(first_difference, Some(100));
    let mut log_a = peers[0].rollback.take_frame_log().unwrap();
    let mut log_b = peers[1].rollback.take_frame_log().unwrap();
    let (report_a, _) = replay_frames(&mut log_a, FAST, Walkers::new(0)).unwrap();
    assert!(report_a.is_green(), "{report_a:?}");
    let (report_b, _) = replay_frames(&mut log_b, FAST, Walkers::new(0)).unwrap();
    assert_eq!(
        report_b.divergence.map(|d| d.tick),
        Some(100),
        "{report_b:?}"
    );
    // With the nudge in the rules, B's own log replays green: the log is
    // what B ran.
    let mut nudged = Walkers::new(0);
    nudged.nudge_at = Some(100);
    let (report_b, _) = replay_frames(&mut log_b, FAST, nudged).unwrap();
    assert!(report_b.is_green(), "{report_b:?}");
}

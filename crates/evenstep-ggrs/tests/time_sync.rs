//! Time sync against a clock 3% fast: with it, the fast peer slows by an
//! exact speed while ahead, stays under 3 frames ahead and is never told
//! to skip; without it, the fast peer runs 3 or more frames ahead, ggrs
//! recommends waits, and exactly the frames recommended are skipped (their
//! time dropped). Either way the peers agree on every confirmed frame.
//! While time sync is on it owns the speed: a speed the host sets is taken
//! back at the next step.

mod common;

use evenstep::{Speed, Timestep};
use evenstep_ggrs::TimeSync;

use common::{Pace, Peer, Setup, compare_logs, lone_peer, ms, run, udp_peers};

/// Peer B's clock runs 103/100 of real time.
fn fast_b() -> Pace {
    Pace {
        rates: [(1, 1), (103, 100)],
        ..Pace::default()
    }
}

/// Runs two peers, B's clock fast, for `frames` confirmed frames; returns
/// the slowest speed B's loop was set to.
fn run_fast_b(peers: &mut [Peer<std::net::SocketAddr>; 2], frames: u64) -> Speed {
    let mut slowest = Speed::NORMAL;
    let finished = run(peers, None, &fast_b(), |peers| {
        let speed = peers[1].game_loop.speed();
        if speed.numerator() * slowest.denominator() < slowest.numerator() * speed.denominator() {
            slowest = speed;
        }
        peers.iter().all(|peer| peer.log().ticks() >= frames)
    });
    assert!(finished, "{frames} confirmed frames within the time limit");
    let (common, first_difference) = compare_logs(peers[0].log(), peers[1].log());
    assert!(common as u64 >= frames);
    assert_eq!(first_difference, None);
    slowest
}

#[test]
fn with_time_sync_a_fast_peer_slows_and_is_never_told_to_skip() {
    let setup = Setup {
        timestep: Timestep::HZ_240,
        time_sync: TimeSync::DEFAULT,
        ..Setup::default()
    };
    let mut peers = udp_peers(setup);
    let slowest = run_fast_b(&mut peers, 1_200);
    assert!(slowest != Speed::NORMAL, "B slowed down");
    for peer in &peers {
        let stats = peer.rollback.stats();
        assert!(stats.max_frames_ahead < 3, "{stats:?}");
        assert_eq!(stats.wait_recommendations, 0, "{stats:?}");
        assert_eq!(stats.skipped_steps, 0, "{stats:?}");
    }
}

#[test]
fn without_time_sync_a_fast_peer_runs_ahead_and_skips_what_ggrs_recommends() {
    let setup = Setup {
        timestep: Timestep::HZ_240,
        time_sync: TimeSync::OFF,
        ..Setup::default()
    };
    let mut peers = udp_peers(setup);
    let slowest = run_fast_b(&mut peers, 1_200);
    assert_eq!(slowest, Speed::NORMAL, "nothing sets the speed");
    let fast = peers[1].rollback.stats();
    assert!(fast.max_frames_ahead >= 3, "{fast:?}");
    assert!(fast.wait_recommendations >= 1, "{fast:?}");
    // Every skip is a step whose time is dropped; what is not skipped yet
    // is still owed.
    assert!(fast.skipped_steps >= 3, "{fast:?}");
    assert!(fast.skipped_steps <= fast.skips_recommended, "{fast:?}");
    assert!(peers[1].game_loop.stats().dropped_steps() >= fast.skipped_steps);
    let slow = peers[0].rollback.stats();
    assert_eq!(slow.skipped_steps, 0, "the slow peer never skips: {slow:?}");
}

#[test]
fn a_speed_the_host_sets_is_taken_back_at_the_next_step_while_time_sync_is_on() {
    let half = Speed::new(1, 2).unwrap();
    for (time_sync, kept) in [(TimeSync::DEFAULT, Speed::NORMAL), (TimeSync::OFF, half)] {
        // A peer that never synchronizes: every step waits, level with no
        // one, so time sync wants the normal speed throughout.
        let (_link, mut peer) = lone_peer(Setup {
            time_sync,
            ..Setup::default()
        });
        let first = peer.pump_at(ms(20)).unwrap();
        assert_eq!(
            (first.plan.steps_run(), first.plan.speed()),
            (1, Speed::NORMAL)
        );
        peer.game_loop.set_speed(half);
        // The host's speed is in force for the pump after it was set, whose
        // steps (20 ms at half speed, on the 20 ms the first step gave
        // back) ask for the session's own; the pump after runs at it.
        let set = peer.pump_at(ms(60)).unwrap();
        assert_eq!((set.plan.steps_run(), set.plan.speed()), (2, half));
        let next = peer.pump_at(ms(80)).unwrap();
        assert_eq!(next.plan.speed(), kept, "{time_sync:?}");
        assert_eq!(peer.game_loop.speed(), kept, "{time_sync:?}");
    }
}

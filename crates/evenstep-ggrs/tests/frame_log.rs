//! The frame log's confirmed frames: both peers log the same input values
//! for every frame; a status reads `Predicted` only for a remote player's
//! input that ggrs predicted rightly (never for the peer's own), and the
//! logs replay green with the statuses as simulated.

mod common;

use evenstep::Timestep;
use evenstep_ggrs::ggrs::InputStatus;
use evenstep_ggrs::{LinkConfig, TimeSync, replay_frames};

use common::{Setup, Walkers, link_peers, ms, run_rounds};

#[test]
fn confirmed_frames_carry_final_values_and_predicted_only_where_a_prediction_was_right() {
    let setup = Setup {
        timestep: Timestep::HZ_100,
        input_delay: 0,
        time_sync: TimeSync::OFF,
        ..Setup::default()
    };
    let (link, mut peers) = link_peers(setup, LinkConfig::new(2, 2, 0).unwrap(), 11);
    let finished = run_rounds(&mut peers, &link, 5_000, |round, peers| {
        for peer in peers.iter_mut() {
            let _ = peer.pump_at(ms(10 * round + 5));
        }
        peers.iter().all(|peer| peer.log().ticks() >= 300)
    });
    assert!(finished, "300 confirmed frames on both peers");
    let [a, b] = [peers[0].log().events(), peers[1].log().events()];
    let mut predicted = 0;
    for ((frame, ours), (_, theirs)) in a.iter().zip(b).take(300) {
        let values =
            |inputs: &[(u8, InputStatus)]| inputs.iter().map(|(v, _)| *v).collect::<Vec<_>>();
        assert_eq!(values(&ours.0), values(&theirs.0), "frame {frame}");
        // Peer A is player 0, B player 1: each one's own input is never
        // predicted.
        assert_eq!(ours.0[0].1, InputStatus::Confirmed, "frame {frame}");
        assert_eq!(theirs.0[1].1, InputStatus::Confirmed, "frame {frame}");
        predicted += [ours.0[1].1, theirs.0[0].1]
            .iter()
            .filter(|status| **status == InputStatus::Predicted)
            .count();
    }
    assert!(predicted > 0, "right predictions leave Predicted statuses");
    for peer in &mut peers {
        assert!(
            peer.rollback.stats().rollbacks > 0,
            "wrong ones were rolled back"
        );
        let mut log = peer.rollback.take_frame_log().unwrap();
        let (report, _) = replay_frames(&mut log, Timestep::HZ_100, Walkers::new(0)).unwrap();
        assert!(report.is_green(), "{report:?}");
    }
}

//! Two peers over an in-memory link that delays every packet 4 frames and
//! loses 5% of them: predictions go wrong, rollbacks correct them, and the
//! peers agree on every confirmed frame.

mod common;

use evenstep::Timestep;
use evenstep_ggrs::LinkConfig;

use common::{Pace, Setup, compare_logs, link_peers, run};

#[test]
fn rollbacks_correct_a_delayed_lossy_link_and_the_peers_converge() {
    let setup = Setup {
        timestep: Timestep::HZ_240,
        ..Setup::default()
    };
    let (link, mut peers) = link_peers(setup, LinkConfig::new(4, 4, 5).unwrap(), 5);
    let finished = run(&mut peers, Some(&link), &Pace::default(), |peers| {
        peers.iter().all(|peer| peer.log().ticks() >= 600)
    });
    assert!(
        finished,
        "600 confirmed frames within the time limit: {link:?}"
    );
    let carried = link.stats();
    assert!(carried.lost > 0 && carried.delivered > 0, "{carried:?}");
    let (common, first_difference) = compare_logs(peers[0].log(), peers[1].log());
    assert!(common >= 600);
    assert_eq!(first_difference, None);
    for peer in &peers {
        let stats = peer.rollback.stats();
        assert!(stats.rollbacks > 0, "{stats:?}");
        assert!(stats.resimulated_frames >= stats.rollbacks, "{stats:?}");
        assert_eq!(peer.rollback.desync(), None);
        assert_eq!(peer.rollback.last_error(), None);
    }
}

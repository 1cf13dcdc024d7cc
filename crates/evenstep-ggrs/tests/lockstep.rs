//! Lockstep (no prediction) over a delayed link: steps wait for the peer's
//! input by giving their time back, and on every pump of either peer the
//! books balance exactly: ticks · step + banked + dropped = submitted.

mod common;

use evenstep::Timestep;
use evenstep_ggrs::{LinkConfig, TimeSync};

use common::{Pace, Setup, compare_logs, link_peers, run};

#[test]
fn lockstep_stalls_keep_the_books_exact() {
    let setup = Setup {
        timestep: Timestep::HZ_240,
        max_prediction: 0,
        input_delay: 1,
        time_sync: TimeSync::OFF,
        ..Setup::default()
    };
    let (link, mut peers) = link_peers(setup, LinkConfig::new(2, 3, 0).unwrap(), 9);
    let per_step = u128::from(Timestep::HZ_240.units_per_step());
    let mut checked = 0_u64;
    let finished = run(&mut peers, Some(&link), &Pace::default(), |peers| {
        for peer in peers {
            let game_loop = &peer.game_loop;
            let simulated = u128::from(game_loop.tick()) * per_step;
            let banked = game_loop.planner().remainder_units();
            let dropped = u128::from(game_loop.stats().dropped_steps()) * per_step;
            assert_eq!(
                simulated + banked + dropped,
                peer.submitted,
                "pump {checked}"
            );
            // The budget (5 steps) and the part of a step not yet due.
            assert!(banked < 6 * per_step, "the budget bounds the bank");
            checked += 1;
        }
        peers.iter().all(|peer| peer.log().ticks() >= 300)
    });
    assert!(finished, "300 confirmed frames within the time limit");
    let (common, first_difference) = compare_logs(peers[0].log(), peers[1].log());
    assert!(common >= 300);
    assert_eq!(first_difference, None);
    for peer in &peers {
        let stats = peer.rollback.stats();
        assert!(stats.stalls > 0, "lockstep waits: {stats:?}");
        assert_eq!(stats.rollbacks, 0, "lockstep never rolls back: {stats:?}");
        // A lockstep frame is confirmed when it runs: the loop's ticks are
        // the frames (stalled steps never counted a tick).
        assert_eq!(peer.game_loop.tick(), stats.frames);
    }
}

//! One step rate per session: a loop stepping at another rate than its
//! session was built for is refused at its first step, naming both; and
//! peers whose sessions and loops step at different rates desync at the
//! first checksum compared, the report naming both rates.

mod common;

use evenstep::{Pump, PumpKind, Timestep};
use evenstep_ggrs::{LinkConfig, StepRateMismatch, TimeSync};

use common::{Setup, link_peers, lone_peer, ms, run_rounds};

#[test]
fn a_session_built_for_60_hz_on_a_30_hz_loop_is_refused_at_the_first_step_naming_both() {
    let (_link, mut peer) = lone_peer(Setup {
        loop_timestep: Some(Timestep::HZ_30),
        ..Setup::default()
    });
    assert_eq!(peer.rollback.timestep(), Timestep::HZ_60);
    assert_eq!(
        peer.rollback.refused(),
        None,
        "nothing refused before a step"
    );
    // 40 ms: one 30 Hz step, refused before it reads input or advances.
    let report = peer.pump_at(ms(40)).unwrap();
    assert!(report.stopped, "the refusal stops the loop");
    let refused = *peer.rollback.refused().unwrap();
    assert_eq!(
        refused,
        StepRateMismatch {
            session: Timestep::HZ_60,
            game_loop: Timestep::HZ_30
        }
    );
    let text = refused.to_string();
    assert!(text.contains("60 Hz") && text.contains("30 Hz"), "{text}");
    assert_eq!(peer.rollback.frame(), 0);
    assert_eq!(peer.rollback.stats().stalls, 0, "refused, not waiting");
    peer.clock.set(ms(80));
    assert_eq!(
        peer.game_loop.pump(&mut peer.rollback, PumpKind::Tick),
        Pump::Stopped
    );
}

#[test]
fn a_loop_at_the_sessions_step_is_not_refused() {
    let (_link, mut peer) = lone_peer(Setup::default());
    let report = peer.pump_at(ms(40)).unwrap();
    assert!(!report.stopped);
    assert_eq!(peer.rollback.refused(), None);
    assert_eq!(report.plan.steps_run(), 2);
}

#[test]
fn peers_at_60_and_30_hz_desync_at_the_first_comparison_naming_both_rates() {
    let setup = Setup {
        timestep: Timestep::HZ_60,
        timestep_b: Some(Timestep::HZ_30),
        time_sync: TimeSync::OFF,
        desync_interval: Some(10),
        ..Setup::default()
    };
    let (link, mut peers) = link_peers(setup, LinkConfig::new(1, 1, 0).unwrap(), 5);
    // The walkers never read the step: equal inputs give equal states at
    // every frame, so only the rate in the checksum tells the peers apart.
    let found = run_rounds(&mut peers, &link, 4_000, |round, peers| {
        for peer in peers.iter_mut() {
            let _ = peer.pump_at(ms(5 * round));
        }
        peers.iter().all(|peer| peer.rollback.desync().is_some())
    });
    assert!(found, "both peers report the desync");
    for (peer, (here, there)) in peers.iter().zip([(60, 30), (30, 60)]) {
        let report = peer.rollback.desync().unwrap();
        assert_eq!(report.frame, 10, "the first frame compared");
        assert!(report.rates_differ());
        let rate = |hz: u32| Some(Timestep::from_hz(hz).unwrap().rate());
        assert_eq!(report.local_rate(), rate(here));
        assert_eq!(report.remote_rate(), rate(there));
        assert_eq!(report.local_state_hash(), report.remote_state_hash());
        let text = report.to_string();
        assert!(
            text.contains(&format!(
                "this peer steps at {here} Hz, the peer at {there} Hz"
            )),
            "{text}"
        );
    }
}

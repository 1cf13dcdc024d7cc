//! The predictor is a type parameter of the configuration, the session
//! builder and `Rollback`, defaulting to ggrs's `PredictRepeatLast`: a
//! remote input a confirmed frame kept as `Predicted` is exactly what the
//! chosen predictor predicts.

mod common;

use evenstep::Timestep;
use evenstep_ggrs::ggrs::{InputPredictor, InputStatus, PredictDefault, PredictRepeatLast};
use evenstep_ggrs::{LinkAddr, LinkConfig, Predictor, Rollback, TimeSync};

use common::{Peer, Setup, Walkers, link_peers_predicting, ms, run_rounds};

/// Predicts every missing input as "boost" (8), which the scripted walkers
/// never send: each prediction is wrong, so no confirmed frame keeps one.
struct PredictBoost;

impl InputPredictor<u8> for PredictBoost {
    fn predict(_previous: u8) -> u8 {
        8
    }
}

/// Runs two peers predicting with `P` until both confirmed 300 frames;
/// returns the remote inputs a confirmed frame kept as `Predicted` (peer A
/// is player 0, B player 1) and the rollbacks of both.
fn predicted_remote_inputs<P: Predictor<u8>>() -> (Vec<u8>, u64) {
    let setup = Setup {
        timestep: Timestep::HZ_100,
        input_delay: 0,
        time_sync: TimeSync::OFF,
        ..Setup::default()
    };
    let (link, mut peers) =
        link_peers_predicting::<P>(setup, LinkConfig::new(2, 2, 0).unwrap(), 11);
    let finished = run_rounds(&mut peers, &link, 5_000, |round, peers| {
        for peer in peers.iter_mut() {
            let _ = peer.pump_at(ms(10 * round + 5));
        }
        peers.iter().all(|peer| peer.log().ticks() >= 300)
    });
    assert!(finished, "300 confirmed frames on both peers");
    let mut predicted = Vec::new();
    for (peer, remote) in peers.iter().zip([1, 0]) {
        for (_, inputs) in peer.log().events().iter().take(300) {
            let (value, status) = inputs.0[remote];
            if status == InputStatus::Predicted {
                predicted.push(value);
            }
        }
    }
    let rollbacks = peers
        .iter()
        .map(|peer| peer.rollback.stats().rollbacks)
        .sum();
    (predicted, rollbacks)
}

#[test]
fn the_default_predictor_repeats_the_last_input() {
    // `Rollback<Walkers, LinkAddr>` names no predictor: it is the default.
    let _: fn(&Peer<LinkAddr>) -> &Rollback<Walkers, LinkAddr, PredictRepeatLast> =
        |peer| &peer.rollback;
    let (predicted, _) = predicted_remote_inputs::<PredictRepeatLast>();
    // The walkers' inputs hold for 8 ticks and are mostly not 0: right
    // repetitions of them are kept.
    assert!(predicted.iter().any(|&value| value != 0), "{predicted:?}");
}

#[test]
fn a_confirmed_prediction_of_ggrs_default_predictor_is_the_default_input() {
    let (predicted, rollbacks) = predicted_remote_inputs::<PredictDefault>();
    assert!(!predicted.is_empty(), "the walkers sometimes send 0");
    assert!(predicted.iter().all(|&value| value == 0), "{predicted:?}");
    let (_, repeat_rollbacks) = predicted_remote_inputs::<PredictRepeatLast>();
    assert!(
        rollbacks > repeat_rollbacks,
        "held inputs predicted as nothing roll back more: {rollbacks} against {repeat_rollbacks}"
    );
}

#[test]
fn a_predictor_that_is_always_wrong_leaves_no_prediction_in_a_confirmed_frame() {
    let (predicted, rollbacks) = predicted_remote_inputs::<PredictBoost>();
    // ggrs predicts the default input, not the predictor's, before a
    // player's first input arrives (frame 0 and the frames it waits for).
    assert!(predicted.iter().all(|&value| value == 0), "{predicted:?}");
    assert!(rollbacks > 0);
}

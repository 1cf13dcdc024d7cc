//! The local input of a frame is the step's input: a key held on peer A's
//! loop for 50 ms reaches both peers' frames as exactly the run of frames
//! whose steps it was held in (12 at 240 Hz, unless the budget dropped
//! steps), the same on both.

mod common;

use std::time::Duration;

use evenstep::input::{Button, InputEvent, Key};
use evenstep::{Timestamp, Timestep};

use common::{Pace, Setup, compare_logs, run, udp_peers};

#[test]
fn a_key_held_on_one_peer_reaches_both_peers_frames_for_the_steps_it_was_held() {
    let setup = Setup {
        timestep: Timestep::HZ_240,
        ..Setup::default()
    };
    let mut peers = udp_peers(setup);
    // Held from 0.95 s to 1 s of A's clock: 12 steps of 240 Hz. Pushed at
    // the start, so within the second ahead of the clock a stamp may be.
    let held_from = Duration::from_millis(950);
    let held_to = held_from + Duration::from_millis(50);
    let space = Button::Key(Key::SPACE);
    let game_loop = &mut peers[0].game_loop;
    game_loop
        .push_input(
            Timestamp::from_nanos(held_from.as_nanos() as u64),
            InputEvent::Press(space),
        )
        .unwrap();
    game_loop
        .push_input(
            Timestamp::from_nanos(held_to.as_nanos() as u64),
            InputEvent::Release(space),
        )
        .unwrap();
    let finished = run(&mut peers, None, &Pace::default(), |peers| {
        peers.iter().all(|peer| peer.log().ticks() >= 400)
    });
    assert!(finished, "400 confirmed frames within the time limit");
    let (_, first_difference) = compare_logs(peers[0].log(), peers[1].log());
    assert_eq!(first_difference, None);
    // A pump later than the budget (a scheduler stall of 20 ms) drops
    // steps, and the spans they stood for with them: then fewer frames.
    let dropped = peers[0].game_loop.stats().dropped_steps();
    for peer in &peers {
        let boosted: Vec<u64> = peer
            .log()
            .events()
            .iter()
            .filter(|(_, inputs)| inputs.0[0].0 & 8 != 0)
            .map(|(frame, _)| *frame)
            .collect();
        if dropped == 0 {
            assert_eq!(boosted.len(), 12, "{boosted:?}");
        } else {
            assert!((1..=12).contains(&boosted.len()), "{boosted:?}");
        }
        assert!(
            boosted.windows(2).all(|pair| pair[1] == pair[0] + 1),
            "{boosted:?}"
        );
        // No one held B's key.
        assert!(
            peer.log()
                .events()
                .iter()
                .all(|(_, inputs)| inputs.0[1].0 & 8 == 0)
        );
    }
}

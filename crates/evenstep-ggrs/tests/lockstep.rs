//! Lockstep (no prediction) over a delayed link: steps wait for the peer's
//! input by giving their time back, and on every pump of either peer the
//! books balance exactly: ticks · step + banked + dropped = submitted; and
//! an event made while a frame waits reaches exactly one frame.

mod common;

use evenstep::Timestep;
use evenstep::input::{Button, InputEvent, Key};
use evenstep_ggrs::ggrs::SessionState;
use evenstep_ggrs::{LinkConfig, TimeSync};

use common::{Pace, Setup, compare_logs, link_peers, ms, run, run_rounds};

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
        // the frames, and one more while a frame whose input ggrs took
        // waits (steps given back never counted a tick).
        let ticks = peer.game_loop.tick();
        assert!(
            ticks == stats.frames || ticks == stats.frames + 1,
            "{ticks} ticks: {stats:?}"
        );
    }
}

/// Taps made while a frame waits.
const TAPS: usize = 30;

#[test]
fn a_tap_made_while_a_frame_waits_reaches_exactly_one_frame_on_both_peers() {
    let setup = Setup {
        timestep: Timestep::HZ_100,
        max_prediction: 0,
        input_delay: 1,
        time_sync: TimeSync::OFF,
        ..Setup::default()
    };
    let (link, mut peers) = link_peers(setup, LinkConfig::new(1, 1, 0).unwrap(), 3);
    let enter = Button::Key(Key::ENTER);
    let (mut taps, mut last_tap, mut tapped_by) = (0, 0, 0);
    // Pumps 5 ms after each step is due, so a pump's span reaches past its
    // last step's end; B misses 3 rounds in every 10, so A's frames wait.
    let finished = run_rounds(&mut peers, &link, 5_000, |round, peers| {
        let at = 5 + round * 10;
        let before = peers[0].frame();
        let report = peers[0].pump_at(ms(at)).unwrap();
        let running = peers[0].rollback.session().current_state() == SessionState::Running;
        let waited = report.plan.steps_run() > 0 && peers[0].frame() == before;
        if running && waited && taps < TAPS && round > last_tap + 1 {
            // Pressed and released after the step that waited ended, before
            // the pump: the span of a step not yet run.
            let game_loop = &mut peers[0].game_loop;
            game_loop
                .push_input(ms(at - 3), InputEvent::Press(enter))
                .unwrap();
            game_loop
                .push_input(ms(at - 2), InputEvent::Release(enter))
                .unwrap();
            (taps, last_tap) = (taps + 1, round);
            tapped_by = peers[0].frame();
        }
        if round % 10 < 7 || round % 10 > 9 {
            let _ = peers[1].pump_at(ms(at));
        }
        taps == TAPS
            && peers
                .iter()
                .all(|peer| peer.log().ticks() > u64::try_from(tapped_by).unwrap() + 20)
    });
    assert!(finished, "{TAPS} taps made and confirmed: {taps} made");
    let (_, first_difference) = compare_logs(peers[0].log(), peers[1].log());
    assert_eq!(first_difference, None);
    for peer in &peers {
        let tapped = |player: usize| {
            peer.log()
                .events()
                .iter()
                .map(|(_, inputs)| usize::from(inputs.0[player].0 >> 4 & 7))
                .sum::<usize>()
        };
        assert_eq!(tapped(0), TAPS, "A's taps, each in one frame");
        assert_eq!(tapped(1), 0, "no one tapped on B");
    }
    let stats = peers[0].rollback.stats();
    assert!(stats.waited_frames > 0, "{stats:?}");
    assert_eq!(stats.rollbacks, 0, "lockstep never rolls back: {stats:?}");
}

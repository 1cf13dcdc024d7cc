//! Spectators: a spectator at the in-memory link's third end runs the
//! host's confirmed frames, one per step while in step, the same states
//! as the host; fallen behind, it runs up to the catch-up speed's frames
//! in one step, so `frames = steps + catch_up_frames` and its ticks are
//! its steps; without a catch-up speed it stays behind; further behind
//! than ggrs keeps input, it stops with the error; and a loop at another
//! step is refused.

mod common;

use evenstep::{Loop, ManualClock, Pacing, Timestep};
use evenstep_ggrs::ggrs::GgrsError;
use evenstep_ggrs::{
    LinkAddr, LinkConfig, LinkEnd, Spectator, StepRateMismatch, TimeSync, first_difference,
    session_builder,
};

use common::{Setup, Walkers, hosted_peers, ms};

const STEP: Timestep = Timestep::HZ_100;

/// A spectator's loop, clock and session, watching end 0 over `end`.
struct Watcher {
    game_loop: Loop<Spectator<Walkers, LinkAddr>>,
    clock: ManualClock,
    spectator: Spectator<Walkers, LinkAddr>,
}

impl Watcher {
    fn new(end: LinkEnd, catch_up: Option<(usize, usize)>, loop_step: Timestep) -> Watcher {
        let mut builder = session_builder::<Walkers, LinkAddr>(STEP);
        if let Some((behind, speed)) = catch_up {
            builder = builder
                .with_max_frames_behind(behind)
                .unwrap()
                .with_catchup_speed(speed)
                .unwrap();
        }
        let host = end.peer();
        let session = builder.start_spectator_session(host, end);
        let spectator = Spectator::new(Walkers::new(0), session, STEP).recording_frames();
        let clock = ManualClock::new();
        let mut game_loop = Loop::builder()
            .clock(clock.clone())
            .timestep(loop_step)
            .pacing(Pacing::OFF)
            .build()
            .unwrap();
        Spectator::attach(&mut game_loop);
        game_loop.start();
        Watcher {
            game_loop,
            clock,
            spectator,
        }
    }
}

/// Runs the host, its peer and a spectator 10 ms a round on manual clocks
/// until the spectator ran `frames` frames; the spectator is not pumped in
/// rounds `paused` (its process stalled). Returns the host's frame log's
/// first difference from the spectator's, and the watcher.
fn watch(
    catch_up: Option<(usize, usize)>,
    paused: std::ops::Range<u64>,
    frames: i32,
) -> (Option<u64>, Watcher) {
    let setup = Setup {
        timestep: STEP,
        time_sync: TimeSync::OFF,
        ..Setup::default()
    };
    let (link, mut peers, end) = hosted_peers(setup, LinkConfig::new(1, 1, 0).unwrap(), 21);
    let mut watcher = Watcher::new(end, catch_up, STEP);
    for round in 0..3_000 {
        if watcher.spectator.frame() >= frames || !watcher.game_loop.is_running() {
            break;
        }
        let at = ms(10 * round + 5);
        for peer in &mut peers {
            let _ = peer.pump_at(at);
        }
        if !paused.contains(&round) {
            watcher.clock.set(at);
            let _ = watcher
                .game_loop
                .pump(&mut watcher.spectator, evenstep::PumpKind::Tick);
        }
        link.advance(1);
    }
    let difference = first_difference(peers[0].log(), watcher.spectator.frame_log().unwrap());
    (difference, watcher)
}

#[test]
fn a_spectator_in_step_runs_the_hosts_frames_one_per_step() {
    let (difference, watcher) = watch(None, 0..0, 300);
    let spectator = &watcher.spectator;
    assert_eq!(spectator.frame(), 300);
    assert_eq!(difference, None, "the host's states, frame for frame");
    assert_eq!(spectator.frame_log().unwrap().ticks(), 300);
    let stats = spectator.stats();
    assert_eq!(stats.frames, 300);
    assert_eq!(stats.steps, 300);
    assert_eq!(stats.catch_up_frames, 0);
    assert_eq!(stats.most_frames_in_a_step, 1);
    assert_eq!(watcher.game_loop.tick(), 300, "a tick per step that ran");
    assert!(
        stats.stalls > 0,
        "it waited for the host's input: {stats:?}"
    );
    assert_eq!(spectator.last_error(), None);
}

#[test]
fn a_spectator_behind_runs_up_to_the_catch_up_speed_in_one_step() {
    let (difference, watcher) = watch(Some((4, 3)), 100..130, 300);
    let spectator = &watcher.spectator;
    let stats = spectator.stats();
    assert_eq!(difference, None, "{stats:?}");
    assert_eq!(stats.frames, 300);
    assert!(stats.catch_up_frames > 0, "{stats:?}");
    assert_eq!(stats.most_frames_in_a_step, 3, "{stats:?}");
    assert_eq!(stats.frames, stats.steps + stats.catch_up_frames);
    assert_eq!(watcher.game_loop.tick(), stats.steps);
    assert!(
        stats.max_frames_behind > 4,
        "the pause left it past the threshold: {stats:?}"
    );
    assert!(stats.frames_behind <= 5, "caught up: {stats:?}");
}

#[test]
fn a_spectator_without_a_catch_up_speed_stays_behind_after_a_stall() {
    let (difference, watcher) = watch(None, 100..130, 300);
    let stats = watcher.spectator.stats();
    assert_eq!(difference, None);
    assert_eq!(stats.catch_up_frames, 0);
    assert_eq!(stats.frames, stats.steps);
    assert!(stats.frames_behind > 20, "still behind: {stats:?}");
}

#[test]
fn a_spectator_further_behind_than_ggrs_keeps_input_stops_naming_it() {
    let (_, watcher) = watch(None, 100..200, 300);
    assert!(!watcher.game_loop.is_running(), "the loop is stopped");
    assert!(
        matches!(
            watcher.spectator.last_error(),
            Some(GgrsError::SpectatorTooFarBehind)
        ),
        "{:?}",
        watcher.spectator.last_error()
    );
    assert!(watcher.spectator.frame() < 300);
}

#[test]
fn a_spectator_on_a_loop_of_another_step_is_refused_at_its_first_step() {
    let (_link, _a, _b, end) = evenstep_ggrs::Link::with_spectator(LinkConfig::PERFECT, 1);
    let mut watcher = Watcher::new(end, None, Timestep::HZ_30);
    watcher.clock.set(ms(40));
    let report = watcher
        .game_loop
        .pump(&mut watcher.spectator, evenstep::PumpKind::Tick)
        .report()
        .unwrap();
    assert!(report.stopped);
    assert_eq!(
        watcher.spectator.refused(),
        Some(&StepRateMismatch {
            session: STEP,
            game_loop: Timestep::HZ_30
        })
    );
    assert_eq!(watcher.spectator.frame(), 0);
}

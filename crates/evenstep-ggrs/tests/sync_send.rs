//! With the `sync-send` feature, a rollback session, a spectator, its game's input,
//! snapshot and address, the in-memory link and the loopback socket are
//! `Send + Sync`: a session built on one thread runs its frames on another
//! and is read from several at once.
#![cfg(feature = "sync-send")]

mod common;

use std::net::SocketAddr;

use evenstep::{Loop, ManualClock, Pacing, PumpKind, Timestep};
use evenstep_ggrs::{
    Link, LinkAddr, LinkConfig, LinkEnd, LoopbackSocket, Rollback, RollbackConfig, RollbackStats,
    Spectator,
};

use common::{Setup, Walk, Walkers, compare_logs, link_peers, ms};

fn send_sync<T: Send + Sync>() {}

#[test]
fn the_session_its_types_and_the_transports_are_send_and_sync() {
    send_sync::<Rollback<Walkers, LinkAddr>>();
    send_sync::<Rollback<Walkers, SocketAddr>>();
    send_sync::<Spectator<Walkers, LinkAddr>>();
    send_sync::<RollbackConfig<Walkers, LinkAddr>>();
    send_sync::<Walkers>();
    send_sync::<Walk>();
    send_sync::<LinkAddr>();
    send_sync::<Link>();
    send_sync::<LinkEnd>();
    send_sync::<LoopbackSocket>();
    send_sync::<RollbackStats>();
}

#[test]
fn sessions_built_on_one_thread_run_their_frames_on_another() {
    let (link, peers) = link_peers(Setup::default(), LinkConfig::new(1, 1, 0).unwrap(), 3);
    let rollbacks: Vec<Rollback<Walkers, LinkAddr>> =
        peers.into_iter().map(|peer| peer.rollback).collect();
    // The loops stay behind (a loop holds its hooks, which need not be
    // `Send`); each thread builds its own.
    let rollbacks = std::thread::spawn(move || {
        let mut rollbacks = rollbacks;
        let mut loops: Vec<_> = (0..2).map(|_| manual_loop()).collect();
        for round in 0..2_000 {
            if rollbacks.iter().all(|rollback| rollback.frame() >= 120) {
                break;
            }
            for ((game_loop, clock), rollback) in loops.iter_mut().zip(&mut rollbacks) {
                clock.set(ms(17 * round + 5));
                let _ = game_loop.pump(rollback, PumpKind::Tick);
            }
            link.advance(1);
        }
        rollbacks
    })
    .join()
    .unwrap();
    assert!(rollbacks.iter().all(|rollback| rollback.frame() >= 120));
    // Read from two threads at once.
    let frames = std::thread::scope(|scope| {
        let shared = &rollbacks;
        let readers: Vec<_> = (0..2)
            .map(|index| scope.spawn(move || shared[index].stats().frames))
            .collect();
        readers
            .into_iter()
            .map(|reader| reader.join().unwrap())
            .collect::<Vec<_>>()
    });
    assert!(frames.iter().all(|&frames| frames >= 120), "{frames:?}");
    let [a, b] = [
        rollbacks[0].frame_log().unwrap(),
        rollbacks[1].frame_log().unwrap(),
    ];
    let (common, first_difference) = compare_logs(a, b);
    assert!(common >= 60, "{common}");
    assert_eq!(first_difference, None);
}

/// A loop on a manual clock, with the session attached, started.
fn manual_loop() -> (Loop<Rollback<Walkers, LinkAddr>>, ManualClock) {
    let clock = ManualClock::new();
    let mut game_loop = Loop::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_60)
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    Rollback::attach(&mut game_loop);
    game_loop.start();
    (game_loop, clock)
}

//! Two peers in one process over 127.0.0.1, playing the demos' bouncing
//! balls with rollback, headless: each peer's loop runs on the real clock,
//! each player presses keys on a script (A adds a ball, W reverses them,
//! D removes one), and once a second the example prints each peer's frame,
//! rollbacks and frames ahead, then the checksums of the last frame both
//! confirmed.
//!
//! `cargo run -p evenstep-demo --example two_peers`

#![allow(
    clippy::disallowed_methods,
    reason = "the example plays for a few seconds on the host's clock"
)]

use std::error::Error;
use std::time::{Duration, Instant};

use evenstep::input::{Button, InputEvent, Key};
use evenstep::{Loop, PumpKind, StateHash, StepContext, Timestep};
use evenstep_demo::{World, WorldInput};
use evenstep_ggrs::ggrs::{DesyncDetection, InputStatus, PlayerHandle, PlayerType};
use evenstep_ggrs::{LoopbackSocket, Rollback, RollbackGame, session_builder};

const STEP: Timestep = Timestep::HZ_60;
const RUN_FOR: Duration = Duration::from_secs(6);

/// Input bits: what a player pressed during the frame.
const ADD: u8 = 1;
const REVERSE: u8 = 2;
const REMOVE: u8 = 4;

/// The world, and the frame it is at: a snapshot is both.
#[derive(Clone)]
struct Table {
    world: World,
    frame: u32,
}

impl RollbackGame for Table {
    type Input = u8;
    type Snapshot = Table;

    fn save(&self) -> Table {
        self.clone()
    }

    fn load(&mut self, snapshot: &Table) {
        self.clone_from(snapshot);
    }

    fn state_hash(&self) -> u64 {
        StateHash::new()
            .u32(self.frame)
            .u64(self.world.state_hash())
            .finish()
    }

    fn advance(&mut self, inputs: &[(u8, InputStatus)], timestep: Timestep) {
        for (input, _) in inputs {
            for (bit, command) in [
                (ADD, WorldInput::AddBall),
                (REVERSE, WorldInput::Reverse),
                (REMOVE, WorldInput::RemoveBall),
            ] {
                if input & bit != 0 {
                    self.world.apply(command);
                }
            }
        }
        self.world.step(timestep.dt_secs_f32());
        self.frame += 1;
    }

    fn local_input(&self, _handle: PlayerHandle, step: &StepContext<'_>) -> u8 {
        let input = step.input();
        let mut bits = 0;
        for (key, bit) in [(Key::A, ADD), (Key::W, REVERSE), (Key::D, REMOVE)] {
            if input.pressed(key) {
                bits |= bit;
            }
        }
        bits
    }
}

/// A peer: its loop (on the real clock) and its session.
struct Peer {
    game_loop: Loop<Rollback<Table>>,
    rollback: Rollback<Table>,
}

fn peer(
    me: PlayerHandle,
    socket: LoopbackSocket,
    other: std::net::SocketAddr,
) -> Result<Peer, Box<dyn Error>> {
    let session = session_builder::<Table, _>(STEP)
        // No input delay: each press reaches the other peer a little after
        // its frame ran on a prediction, so it rolls back.
        .with_input_delay(0)
        .with_desync_detection_mode(DesyncDetection::On { interval: 30 })
        .add_player(PlayerType::Local, me)?
        .add_player(PlayerType::Remote(other), 1 - me)?
        .start_p2p_session(socket)?;
    let table = Table {
        world: World::new(),
        frame: 0,
    };
    let rollback = Rollback::new(table, session, STEP).recording_frames();
    let mut game_loop = Loop::builder().timestep(STEP).build()?;
    Rollback::attach(&mut game_loop);
    game_loop.start();
    Ok(Peer {
        game_loop,
        rollback,
    })
}

/// Player `me`'s key for second `second` of the script, if any.
fn scripted_key(me: usize, second: u64) -> Option<Key> {
    match (me, second % 4) {
        (0, 0) | (1, 3) => Some(Key::A),
        (1, 1) => Some(Key::W),
        (0, 2) => Some(Key::D),
        _ => None,
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let (a, b) = (LoopbackSocket::bind(0)?, LoopbackSocket::bind(0)?);
    let (addr_a, addr_b) = (a.local_addr()?, b.local_addr()?);
    let mut peers = [peer(0, a, addr_b)?, peer(1, b, addr_a)?];
    println!("peer 0 on {addr_a}, peer 1 on {addr_b}, {STEP}");

    let start = Instant::now();
    let mut second = 0;
    while start.elapsed() < RUN_FOR {
        let now_second = start.elapsed().as_secs();
        if now_second > second {
            second = now_second;
            for (me, peer) in peers.iter_mut().enumerate() {
                let stats = peer.rollback.stats();
                println!(
                    "{second}s peer {me}: frame {:>4}, rollbacks {:>3}, resimulated {:>4}, frames ahead {:>2}",
                    peer.rollback.frame(),
                    stats.rollbacks,
                    stats.resimulated_frames,
                    stats.frames_ahead,
                );
                if let Some(key) = scripted_key(me, second) {
                    peer.game_loop
                        .push_input_now(InputEvent::Press(Button::Key(key)))?;
                    peer.game_loop
                        .push_input_now(InputEvent::Release(Button::Key(key)))?;
                }
            }
        }
        for peer in &mut peers {
            let _ = peer.game_loop.pump(&mut peer.rollback, PumpKind::Tick);
        }
        std::thread::sleep(Duration::from_millis(1));
    }

    let logs = [peers[0].rollback.frame_log(), peers[1].rollback.frame_log()];
    let [Some(log_a), Some(log_b)] = logs else {
        return Err("both peers record their frames".into());
    };
    let common = log_a.checkpoints().len().min(log_b.checkpoints().len());
    if common == 0 {
        return Err("the peers confirmed no frame: did they synchronize?".into());
    }
    let (frame, hash_a) = log_a.checkpoints()[common - 1];
    let (_, hash_b) = log_b.checkpoints()[common - 1];
    println!("frame {frame}: peer 0 {hash_a:016x}, peer 1 {hash_b:016x}");
    for (me, peer) in peers.iter().enumerate() {
        let balls = peer.rollback.game().world.balls().len();
        match peer.rollback.desync() {
            Some(desync) => println!("peer {me}: desync at frame {}", desync.frame),
            None => println!("peer {me}: no desync, {balls} balls"),
        }
    }
    if hash_a == hash_b {
        println!("in sync");
        Ok(())
    } else {
        Err("the peers' checksums differ".into())
    }
}

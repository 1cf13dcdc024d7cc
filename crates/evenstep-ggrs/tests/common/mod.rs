//! The game and the two-peer harness the session tests share.
#![allow(dead_code, unreachable_pub)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use evenstep::input::{InputEvent, Key};
use evenstep::{
    Loop, ManualClock, Pacing, PumpKind, PumpReport, StateHash, StepContext, Timestamp, Timestep,
};
use evenstep_ggrs::ggrs::{
    DesyncDetection, InputStatus, PlayerHandle, PlayerType, PredictRepeatLast,
};
use evenstep_ggrs::{
    FrameLog, Link, LinkAddr, LinkConfig, LoopbackSocket, PeerAddress, Predictor, Rollback,
    RollbackConfig, RollbackGame, TimeSync,
};

/// The walkers' state: what a snapshot holds and the hash covers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    pub frame: u32,
    pub positions: [i64; 2],
    pub velocities: [i64; 2],
}

/// Two walkers steered by their players' input. The settings outside
/// `walk` are the test's, never saved or loaded: `seed` scripts the local
/// input, `nudge_at` changes the state in the advance of one frame (a
/// desync), and `impure_from` reads a global from a frame on (a rule that
/// is not deterministic).
#[derive(Clone, Debug, Default)]
pub struct Walkers {
    pub walk: Walk,
    pub seed: u64,
    pub nudge_at: Option<u32>,
    pub impure_from: Option<(u32, &'static AtomicU64)>,
}

impl Walkers {
    pub fn new(seed: u64) -> Walkers {
        Walkers {
            seed,
            ..Walkers::default()
        }
    }
}

/// Input bits: 1 left, 2 right, 4 brake (scripted), 8 boost (the space
/// bar held in the step's input), and in bits 4 to 6 the taps (presses of
/// enter during the step, up to 7; the rules ignore them, the frame log
/// shows them).
pub fn scripted_input(seed: u64, tick: u64) -> u8 {
    // A new input every 8 ticks: predictions (repeat the last) are mostly
    // right and wrong at each change, so rollbacks happen.
    let block = tick / 8;
    (StateHash::new().u64(seed).u64(block).finish() % 8) as u8
}

impl RollbackGame for Walkers {
    type Input = u8;
    type Snapshot = Walk;

    fn save(&self) -> Walk {
        self.walk.clone()
    }

    fn load(&mut self, snapshot: &Walk) {
        self.walk.clone_from(snapshot);
    }

    fn state_hash(&self) -> u64 {
        let walk = &self.walk;
        StateHash::new()
            .u32(walk.frame)
            .i64(walk.positions[0])
            .i64(walk.positions[1])
            .i64(walk.velocities[0])
            .i64(walk.velocities[1])
            .finish()
    }

    fn advance(&mut self, inputs: &[(u8, InputStatus)], _timestep: Timestep) {
        let walk = &mut self.walk;
        for (player, (input, _)) in inputs.iter().enumerate().take(2) {
            let velocity = &mut walk.velocities[player];
            if input & 1 != 0 {
                *velocity -= 1;
            }
            if input & 2 != 0 {
                *velocity += 1;
            }
            if input & 4 != 0 {
                *velocity /= 2;
            }
            if input & 8 != 0 {
                *velocity += 10;
            }
            walk.positions[player] = (walk.positions[player] + *velocity).rem_euclid(10_000);
        }
        if self.nudge_at == Some(walk.frame) {
            walk.positions[0] += 1;
        }
        if let Some((from, global)) = self.impure_from
            && walk.frame >= from
        {
            walk.positions[1] += global.fetch_add(1, Ordering::Relaxed).cast_signed();
        }
        walk.frame += 1;
    }

    fn local_input(&self, _handle: PlayerHandle, step: &StepContext<'_>) -> u8 {
        let boost = if step.input().held(Key::SPACE) { 8 } else { 0 };
        let enter = InputEvent::Press(Key::ENTER.into());
        let taps = step
            .input()
            .events()
            .iter()
            .filter(|event| **event == enter);
        let taps = taps.count().min(7) as u8;
        scripted_input(self.seed, step.tick()) | boost | taps << 4
    }
}

/// How the two peers are set up.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// Both peers' step, for their sessions and their loops.
    pub timestep: Timestep,
    /// Peer B's step, for its session and its loop, when not `timestep`.
    pub timestep_b: Option<Timestep>,
    /// Both loops' step, when not their sessions'.
    pub loop_timestep: Option<Timestep>,
    pub input_delay: usize,
    pub max_prediction: usize,
    pub desync_interval: Option<u32>,
    pub time_sync: TimeSync,
    /// Peer B's advance of this frame changes its state.
    pub nudge_b: Option<u32>,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            timestep: Timestep::HZ_60,
            timestep_b: None,
            loop_timestep: None,
            input_delay: 2,
            max_prediction: 8,
            desync_interval: Some(10),
            time_sync: TimeSync::DEFAULT,
            nudge_b: None,
        }
    }
}

/// One peer: its loop, the manual clock it runs on, and its session.
pub struct Peer<A: PeerAddress, P: Predictor<u8> = PredictRepeatLast> {
    pub game_loop: Loop<Rollback<Walkers, A, P>>,
    pub clock: ManualClock,
    pub rollback: Rollback<Walkers, A, P>,
    /// Time submitted to the planner over the pumps, in the step's units.
    pub submitted: u128,
}

impl<A: PeerAddress, P: Predictor<u8>> Peer<A, P> {
    pub fn new(
        setup: &Setup,
        me: PlayerHandle,
        peer: A,
        spectator: Option<A>,
        socket: impl evenstep_ggrs::ggrs::NonBlockingSocket<A> + 'static,
    ) -> Peer<A, P> {
        let timestep = match setup.timestep_b {
            Some(timestep) if me == 1 => timestep,
            _ => setup.timestep,
        };
        let mut builder = RollbackConfig::<Walkers, A, P>::session_builder(timestep)
            .with_input_delay(setup.input_delay)
            .with_max_prediction_window(setup.max_prediction);
        if let Some(interval) = setup.desync_interval {
            builder = builder.with_desync_detection_mode(DesyncDetection::On { interval });
        }
        builder = builder
            .add_player(PlayerType::Local, me)
            .unwrap()
            .add_player(PlayerType::Remote(peer), 1 - me)
            .unwrap();
        if let Some(spectator) = spectator {
            // Spectators' handles come after the players'.
            builder = builder
                .add_player(PlayerType::Spectator(spectator), 2)
                .unwrap();
        }
        let session = builder.start_p2p_session(socket).unwrap();
        let mut game = Walkers::new(0xA5A5 + me as u64);
        if me == 1 {
            game.nudge_at = setup.nudge_b;
        }
        let rollback = Rollback::new(game, session, timestep)
            .with_time_sync(setup.time_sync)
            .recording_frames();
        let clock = ManualClock::new();
        let mut game_loop = Loop::builder()
            .clock(clock.clone())
            .timestep(setup.loop_timestep.unwrap_or(timestep))
            .pacing(Pacing::OFF)
            .build()
            .unwrap();
        Rollback::attach(&mut game_loop);
        game_loop.start();
        Peer {
            game_loop,
            clock,
            rollback,
            submitted: 0,
        }
    }

    /// Pumps the loop at `at` on its clock.
    pub fn pump_at(&mut self, at: Timestamp) -> Option<PumpReport> {
        self.clock.set(at);
        let report = self
            .game_loop
            .pump(&mut self.rollback, PumpKind::Tick)
            .report();
        if let Some(report) = report {
            self.submitted += report.plan.scaled_units();
        }
        report
    }

    pub fn frame(&self) -> i32 {
        self.rollback.frame()
    }

    pub fn log(&self) -> &FrameLog<u8> {
        self.rollback.frame_log().unwrap()
    }
}

/// Two peers over 127.0.0.1.
pub fn udp_peers(setup: Setup) -> [Peer<SocketAddr>; 2] {
    let a = LoopbackSocket::bind(0).unwrap();
    let b = LoopbackSocket::bind(0).unwrap();
    let (addr_a, addr_b) = (a.local_addr().unwrap(), b.local_addr().unwrap());
    [
        Peer::new(&setup, 0, addr_b, None, a),
        Peer::new(&setup, 1, addr_a, None, b),
    ]
}

/// Peer A alone: its peer's end of the link is never pumped, so its
/// session never synchronizes and every step waits.
pub fn lone_peer(setup: Setup) -> (Link, Peer<LinkAddr>) {
    let (link, a, _b) = Link::pair(LinkConfig::PERFECT, 1);
    let peer = a.peer();
    (link, Peer::new(&setup, 0, peer, None, a))
}

/// Runs the peers on their manual clocks alone, never the real clock:
/// `round(r, peers)` pumps them for round `r`, then the link moves one
/// tick, until a round says it is done (true) or `rounds` have run
/// (false). ggrs's own timers (sync retries, keep-alives) run on the real
/// clock and take hundreds of milliseconds: a run this fast never meets
/// them.
pub fn run_rounds<A: PeerAddress, P: Predictor<u8>>(
    peers: &mut [Peer<A, P>; 2],
    link: &Link,
    rounds: u64,
    mut round: impl FnMut(u64, &mut [Peer<A, P>; 2]) -> bool,
) -> bool {
    for r in 0..rounds {
        if round(r, peers) {
            return true;
        }
        link.advance(1);
    }
    false
}

/// Milliseconds as a timestamp.
pub fn ms(millis: u64) -> Timestamp {
    Timestamp::from_nanos(millis * 1_000_000)
}

/// Two peers over an in-memory link.
pub fn link_peers(setup: Setup, link: LinkConfig, seed: u64) -> (Link, [Peer<LinkAddr>; 2]) {
    link_peers_predicting(setup, link, seed)
}

/// Two peers over an in-memory link, peer A hosting a spectator at the
/// link's third end, returned for the spectator's session.
pub fn hosted_peers(
    setup: Setup,
    link: LinkConfig,
    seed: u64,
) -> (Link, [Peer<LinkAddr>; 2], evenstep_ggrs::LinkEnd) {
    let (link, a, b, spectator) = Link::with_spectator(link, seed);
    let (peer_a, peer_b, watcher) = (a.peer(), b.peer(), spectator.addr());
    (
        link,
        [
            Peer::new(&setup, 0, peer_a, Some(watcher), a),
            Peer::new(&setup, 1, peer_b, None, b),
        ],
        spectator,
    )
}

/// Two peers over an in-memory link, predicting with `P`.
pub fn link_peers_predicting<P: Predictor<u8>>(
    setup: Setup,
    link: LinkConfig,
    seed: u64,
) -> (Link, [Peer<LinkAddr, P>; 2]) {
    let (link, a, b) = Link::pair(link, seed);
    let (peer_a, peer_b) = (a.peer(), b.peer());
    (
        link,
        [
            Peer::new(&setup, 0, peer_a, None, a),
            Peer::new(&setup, 1, peer_b, None, b),
        ],
    )
}

/// How a run paces the peers against the real clock.
pub struct Pace {
    /// Each peer's clock runs at `real · num / den`.
    pub rates: [(u64, u64); 2],
    /// The longest the run may take, in real time.
    pub limit: Duration,
    /// Peer A is not pumped while its clock reads inside this span (a
    /// hitch: the process stalled).
    pub hitch_a: Option<(Duration, Duration)>,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace {
            rates: [(1, 1), (1, 1)],
            limit: Duration::from_secs(20),
            hitch_a: None,
        }
    }
}

/// Runs the peers in real time until `done` says so or the limit passes;
/// the link (if any) moves one tick per frame of peer A's clock. Returns
/// whether `done` said so. ggrs reads the real clock inside a session, so
/// the pumps follow it, a fraction of a frame apart.
pub fn run<A: PeerAddress>(
    peers: &mut [Peer<A>; 2],
    link: Option<&Link>,
    pace: &Pace,
    mut done: impl FnMut(&[Peer<A>; 2]) -> bool,
) -> bool {
    let start = Instant::now();
    let step = peers[0].game_loop.timestep();
    loop {
        let real = start.elapsed();
        if done(peers) {
            return true;
        }
        if real > pace.limit {
            return false;
        }
        for (index, peer) in peers.iter_mut().enumerate() {
            let (num, den) = pace.rates[index];
            let at =
                Duration::from_nanos((real.as_nanos() * u128::from(num) / u128::from(den)) as u64);
            if index == 0
                && let Some((from, to)) = pace.hitch_a
                && at >= from
                && at < to
            {
                continue;
            }
            peer.pump_at(Timestamp::from_nanos(at.as_nanos() as u64));
        }
        if let Some(link) = link {
            let frames = peers[0].clock_frames(step);
            link.advance(frames.saturating_sub(link.now()));
        }
        std::thread::sleep(Duration::from_micros(500));
    }
}

impl<A: PeerAddress, P: Predictor<u8>> Peer<A, P> {
    /// Whole steps of time on this peer's clock.
    fn clock_frames(&self, step: Timestep) -> u64 {
        use evenstep::Clock;
        let now = self.clock.now().as_nanos();
        (u128::from(now) * u128::from(step.units_per_nanosecond())
            / u128::from(step.units_per_step())) as u64
    }
}

/// The frames both logs confirmed, and whether their hashes agree on each.
pub fn compare_logs(a: &FrameLog<u8>, b: &FrameLog<u8>) -> (usize, Option<u64>) {
    let common = a.checkpoints().len().min(b.checkpoints().len());
    let first_difference = a
        .checkpoints()
        .iter()
        .zip(b.checkpoints())
        .find(|(x, y)| x != y)
        .map(|(x, _)| x.0);
    (common, first_difference)
}

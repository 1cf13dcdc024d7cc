//! `evenstep-ggrs-peer`: one peer of a two-player rollback session over
//! ggrs's own UDP socket, bound on all interfaces, playing the paddles and
//! puck of `world.rs` on the real clock with scripted input, headless.
//! Start one per machine (or two on one), each naming its own port and the
//! other's address:
//!
//! ```sh
//! evenstep-ggrs-peer --player 0 --port 7000 --peer 192.168.1.21:7001
//! evenstep-ggrs-peer --player 1 --port 7001 --peer 192.168.1.20:7000
//! ```
//!
//! Once the session has confirmed `--frames` frames (default 600, ten
//! seconds at 60 Hz) it prints the state hash after them, which both
//! peers print alike, keeps the session up a second longer so the other
//! peer can confirm them too, and exits 0; it exits 1 if a desync was
//! reported or the frames were not confirmed within `--seconds` (default
//! 60), and 2 on bad arguments. `--log FILE` (with the `serde` feature)
//! saves the frame log for `evenstep-ggrs-logs`; `--nudge-at N` moves this
//! peer's puck aside at frame N, a peer leaving the rules.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use evenstep::{Loop, PumpKind};
use evenstep_ggrs::ggrs::{DesyncDetection, PlayerType, SessionState, UdpNonBlockingSocket};
use evenstep_ggrs::{Rollback, session_builder};

#[path = "world.rs"]
mod world;

use world::{Arena, STEP};

const USAGE: &str = "usage: evenstep-ggrs-peer --player 0|1 --port PORT --peer HOST:PORT \
                     [--frames 1..=100000] [--seconds 1..=3600] [--nudge-at FRAME] [--log FILE]";

/// How long a peer stays up after printing, so the other can confirm the
/// same frames from the inputs it still sends.
const LINGER: Duration = Duration::from_secs(1);

/// The command line.
#[derive(Debug)]
struct Args {
    player: usize,
    port: u16,
    peer: SocketAddr,
    frames: u64,
    seconds: u64,
    nudge_at: Option<u32>,
    log: Option<String>,
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(error) => {
            eprintln!("{error}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match play(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{error}");
            ExitCode::from(1)
        }
    }
}

/// The arguments, or what is wrong with them, naming the valid values.
fn parse(mut words: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut player, mut port, mut peer) = (None, None, None);
    let mut args = Args {
        player: 0,
        port: 0,
        peer: SocketAddr::from(([127, 0, 0, 1], 0)),
        frames: 600,
        seconds: 60,
        nudge_at: None,
        log: None,
    };
    while let Some(flag) = words.next() {
        let mut value = || words.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--player" => player = Some(number(&flag, &value()?, 0, 1)?),
            "--port" => port = Some(number(&flag, &value()?, 1, 65_535)?),
            "--peer" => {
                let text = value()?;
                let address = text.parse().map_err(|_| {
                    format!("--peer {text}: an address is HOST:PORT, as 192.168.1.20:7000")
                })?;
                peer = Some(address);
            }
            "--frames" => args.frames = number(&flag, &value()?, 1, 100_000)?,
            "--seconds" => args.seconds = number(&flag, &value()?, 1, 3_600)?,
            "--nudge-at" => args.nudge_at = Some(number(&flag, &value()?, 0, 100_000)? as u32),
            "--log" if cfg!(feature = "serde") => args.log = Some(value()?),
            "--log" => return Err("--log needs the `serde` feature (--features serde)".into()),
            other => {
                return Err(format!(
                    "unknown argument {other}: the arguments are --player, --port, --peer, \
                     --frames, --seconds, --nudge-at and --log"
                ));
            }
        }
    }
    let missing = |name: &str| format!("{name} is required");
    args.player = player.ok_or_else(|| missing("--player"))? as usize;
    args.port = port.ok_or_else(|| missing("--port"))? as u16;
    args.peer = peer.ok_or_else(|| missing("--peer"))?;
    Ok(args)
}

/// `text` as a whole number in `least..=most`, or an error naming the range.
fn number(flag: &str, text: &str, least: u64, most: u64) -> Result<u64, String> {
    text.parse()
        .ok()
        .filter(|value| (least..=most).contains(value))
        .ok_or(format!("{flag} {text}: a whole number in {least}..={most}"))
}

/// Plays until the frames are confirmed, then lingers, then says how it
/// went.
fn play(args: &Args) -> Result<(), String> {
    let (mut game_loop, mut rollback) = start(args)?;
    let began = Instant::now();
    let limit = Duration::from_secs(args.seconds);
    let mut synchronized = false;
    let mut done_at = None;
    while done_at.is_none_or(|at: Instant| at.elapsed() < LINGER) {
        if began.elapsed() > limit {
            return Err(format!(
                "gave up after {} s: {} of {} frames confirmed ({})",
                args.seconds,
                rollback.frame_log().map_or(0, evenstep::InputLog::ticks),
                args.frames,
                if synchronized {
                    "synchronized"
                } else {
                    "never synchronized: is the peer up?"
                }
            ));
        }
        let _ = game_loop.pump(&mut rollback, PumpKind::Tick);
        if !synchronized && rollback.session().current_state() == SessionState::Running {
            synchronized = true;
            println!("synchronized after {:.2} s", began.elapsed().as_secs_f64());
        }
        if done_at.is_none()
            && let Some(hash) = confirmed_hash(&rollback, args.frames)
        {
            println!("after {} frames: state hash {hash:#018x}", args.frames);
            done_at = Some(Instant::now());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    finish(args, &mut rollback)
}

/// The peer's loop on the real clock and its session, over ggrs's UDP
/// socket on all interfaces.
fn start(args: &Args) -> Result<(Loop<Rollback<Arena>>, Rollback<Arena>), String> {
    let socket = UdpNonBlockingSocket::bind_to_port(args.port)
        .map_err(|error| format!("cannot bind UDP port {}: {error}", args.port))?;
    let session = session_builder::<Arena, SocketAddr>(STEP)
        .with_input_delay(2)
        .with_desync_detection_mode(DesyncDetection::On { interval: 10 })
        .add_player(PlayerType::Local, args.player)
        .and_then(|builder| builder.add_player(PlayerType::Remote(args.peer), 1 - args.player))
        .and_then(|builder| builder.start_p2p_session(socket))
        .map_err(|error| format!("cannot start the session: {error}"))?;
    let mut arena = Arena::new(0x5EED + args.player as u64);
    arena.nudge_at = args.nudge_at;
    let rollback = Rollback::new(arena, session, STEP).recording_frames();
    let mut game_loop = Loop::builder()
        .timestep(STEP)
        .build()
        .map_err(|error| format!("cannot build the loop: {error}"))?;
    Rollback::attach(&mut game_loop);
    game_loop.start();
    println!(
        "player {} on UDP port {} (all interfaces), peer {}, {STEP}",
        args.player, args.port, args.peer
    );
    Ok((game_loop, rollback))
}

/// The state hash after `frames` frames, once they are confirmed.
fn confirmed_hash(rollback: &Rollback<Arena>, frames: u64) -> Option<u64> {
    let log = rollback.frame_log()?;
    let checkpoints = log.checkpoints();
    let index = usize::try_from(frames - 1).ok()?;
    checkpoints.get(index).map(|&(_, hash)| hash)
}

/// Prints the session's figures, saves the log if asked, and refuses a run
/// that saw a desync.
fn finish(args: &Args, rollback: &mut Rollback<Arena>) -> Result<(), String> {
    let stats = rollback.stats();
    println!(
        "frames {}, rollbacks {}, resimulated {}, stalls {}, most frames ahead {}",
        stats.frames,
        stats.rollbacks,
        stats.resimulated_frames,
        stats.stalls,
        stats.max_frames_ahead
    );
    if let Some(path) = &args.log
        && let Some(log) = rollback.take_frame_log()
    {
        save_log(path, &log)?;
        println!("frame log saved to {path}");
    }
    match rollback.desync() {
        Some(desync) => Err(desync.to_string()),
        None => Ok(()),
    }
}

#[cfg(feature = "serde")]
fn save_log(path: &str, log: &evenstep_ggrs::FrameLog<u8>) -> Result<(), String> {
    let text = serde_json::to_string(log).map_err(|error| error.to_string())?;
    std::fs::write(path, text).map_err(|error| format!("cannot write {path}: {error}"))
}

#[cfg(not(feature = "serde"))]
fn save_log(_path: &str, _log: &evenstep_ggrs::FrameLog<u8>) -> Result<(), String> {
    Err("--log needs the `serde` feature".into())
}

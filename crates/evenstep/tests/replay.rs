//! Replay: a small game with fixed-point physics, recorded live through a
//! loop with a jittery clock, replays green through the same update
//! function; an update that reads a clock diverges at exactly the tick where
//! it first did; a recording made at another timestep is refused, not
//! reported as a divergence; and a log round-trips through JSON and a
//! compact binary format.

use std::num::NonZeroU64;
use std::time::Duration;

use evenstep::{
    Clock, InputLog, Loop, ManualClock, PumpKind, StateHash, StepContext, Timestep, replay,
    replay::{Input, ReplayError},
};

/// Four bodies, positions and velocities in thousandths of a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
struct World {
    bodies: [[i64; 4]; 4],
    bounces: u64,
    first_bounce: Option<u64>,
}

impl Default for World {
    /// The bodies start at rest, at four heights.
    fn default() -> World {
        World {
            bodies: [
                [0, 3_000, 0, 0],
                [1_000, 6_000, 0, 0],
                [2_000, 9_000, 0, 0],
                [3_000, 12_000, 0, 0],
            ],
            bounces: 0,
            first_bounce: None,
        }
    }
}

/// A recorded input: a kick to one body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Kick {
    body: u8,
    dx: i16,
    dy: i16,
}

impl Input<World> for Kick {
    fn apply(&self, world: &mut World) {
        let body = &mut world.bodies[usize::from(self.body) % 4];
        body[2] += i64::from(self.dx);
        body[3] += i64::from(self.dy);
    }
}

/// The game's rules: gravity, motion, a floor that absorbs a quarter.
fn update(world: &mut World, step: &StepContext<'_>) {
    for body in &mut world.bodies {
        body[3] -= 9;
        body[0] += body[2];
        body[1] += body[3];
        if body[1] < 0 {
            body[1] = -body[1];
            body[3] = -body[3] * 3 / 4;
            world.bounces += 1;
            world.first_bounce.get_or_insert(step.tick());
        }
    }
}

fn hash(world: &World) -> u64 {
    let mut hash = StateHash::new();
    for body in &world.bodies {
        for &v in body {
            hash.i64(v);
        }
    }
    hash.u64(world.bounces).finish()
}

struct Game {
    world: World,
    log: InputLog<Kick>,
    pending: Vec<Kick>,
}

/// `SplitMix64` for the jitter and the kicks.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays `seconds` of the game live at a jittery ~60 fps, kicking bodies at
/// random frames, recording everything. `rules` is the update it runs.
fn record(
    seconds: u64,
    checkpoint_every: u64,
    clock: &ManualClock,
    rules: impl FnMut(&mut World, &StepContext<'_>) + 'static,
) -> Game {
    let mut game_loop = Loop::<Game>::builder()
        .clock(clock.clone())
        .build()
        .unwrap();
    let mut rules = rules;
    game_loop.on_update(move |game, step| {
        for kick in game.pending.drain(..) {
            game.log.record(step.tick(), kick).unwrap();
            kick.apply(&mut game.world);
        }
        rules(&mut game.world, step);
        let world = &game.world;
        game.log.end_tick_with(step.tick(), || hash(world)).unwrap();
    });
    let mut game = Game {
        world: World::default(),
        log: InputLog::new(Timestep::HZ_60, NonZeroU64::new(checkpoint_every).unwrap()),
        pending: Vec::new(),
    };
    let mut seed = 0x5eed_u64;
    game_loop.start();
    for _ in 0..seconds * 60 {
        let r = splitmix(&mut seed);
        clock.advance(Duration::from_nanos(15_000_000 + r % 3_333_334));
        if r % 9 == 0 {
            game.pending.push(Kick {
                body: (r >> 8) as u8 % 4,
                dx: (r >> 16) as i16 % 50,
                dy: 200 + (r >> 32) as i16 % 300,
            });
        }
        let _ = game_loop.pump(&mut game, PumpKind::Paint);
    }
    game
}

#[test]
fn a_recorded_session_replays_green_through_the_same_update() {
    let clock = ManualClock::new();
    let game = record(60, 60, &clock, update);
    let mut log = game.log;
    assert!(log.ticks() > 3_500, "a minute of ticks: {}", log.ticks());
    assert!(
        log.events().len() > 300,
        "kicks recorded: {}",
        log.events().len()
    );
    assert!(
        game.world.bounces > 50,
        "the bodies bounced: {}",
        game.world.bounces
    );
    let mut replayed = World::default();
    let report = replay(&mut log, Timestep::HZ_60, &mut replayed, update, hash).unwrap();
    assert!(report.is_green(), "{report:?}");
    assert_eq!(report.ticks, log.ticks());
    assert_eq!(report.checkpoints, log.ticks() / 60);
    assert_eq!(
        replayed, game.world,
        "the replay rebuilt the live world exactly"
    );
    // A second replay of the same log is green too (the cursor rewinds).
    assert!(
        replay(
            &mut log,
            Timestep::HZ_60,
            &mut World::default(),
            update,
            hash
        )
        .unwrap()
        .is_green()
    );
}

#[test]
fn an_update_that_reads_a_clock_diverges_at_the_tick_where_it_first_did() {
    // Negative control: on its first bounce the impure update mixes the
    // clock into the bounce. Live, the clock read that frame's time; in the
    // replay it reads whatever time it is then. Everything before that tick
    // agrees, so the replay must name exactly that tick.
    let clock = ManualClock::new();
    let impure = |clock: ManualClock| {
        move |world: &mut World, step: &StepContext<'_>| {
            let before = world.first_bounce;
            update(world, step);
            if before.is_none() && world.first_bounce.is_some() {
                world.bodies[0][3] += i64::from((clock.now().as_nanos() % 1_000) as u16) + 1;
            }
        }
    };
    let game = record(20, 1, &clock, impure(clock.clone()));
    let first_bounce = game.world.first_bounce.expect("something bounced");
    assert!(
        first_bounce > 10,
        "the bounce is not at the very start: {first_bounce}"
    );
    let mut log = game.log;
    clock.advance(Duration::from_nanos(123_456_789)); // replay happens later
    let report = replay(
        &mut log,
        Timestep::HZ_60,
        &mut World::default(),
        impure(clock.clone()),
        hash,
    )
    .unwrap();
    let divergence = report.divergence.expect("the clock read must show");
    assert_eq!(divergence.tick, first_bounce);
    assert_eq!(report.checkpoints, first_bounce + 1);
    // And the pure update replays the impure run's inputs up to that tick.
    let mut pure_log = log.clone();
    let pure = replay(
        &mut pure_log,
        Timestep::HZ_60,
        &mut World::default(),
        update,
        hash,
    )
    .unwrap();
    assert_eq!(pure.divergence.map(|d| d.tick), Some(first_bounce));
}

#[test]
fn a_recording_made_at_another_timestep_is_refused_not_diverged() {
    let clock = ManualClock::new();
    let mut log = record(2, 60, &clock, update).log;
    let error = replay(
        &mut log,
        Timestep::HZ_50,
        &mut World::default(),
        update,
        hash,
    )
    .unwrap_err();
    assert_eq!(
        error,
        ReplayError::TimestepMismatch {
            recorded: Timestep::HZ_60,
            running: Timestep::HZ_50
        }
    );
    assert_eq!(
        error.to_string(),
        "the session was recorded at 60 Hz and this game runs at 50 Hz; \
         a recording only replays at the fixed step it was made with"
    );
    assert!(log.check_timestep(Timestep::HZ_60).is_ok());
}

#[test]
fn events_must_be_recorded_in_tick_order() {
    let mut log = InputLog::new(Timestep::HZ_60, NonZeroU64::new(10).unwrap());
    log.record(
        5,
        Kick {
            body: 0,
            dx: 1,
            dy: 1,
        },
    )
    .unwrap();
    let error = log
        .record(
            4,
            Kick {
                body: 0,
                dx: 1,
                dy: 1,
            },
        )
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "an event for tick 4 after tick 5 was already recorded; a log is written in tick order, at or after tick 5"
    );
    log.record(
        5,
        Kick {
            body: 1,
            dx: 1,
            dy: 1,
        },
    )
    .unwrap();
    assert_eq!(log.events_at(5).len(), 2);
    assert!(log.events_at(6).is_empty());
}

#[cfg(feature = "serde")]
#[test]
fn a_log_round_trips_through_json_and_a_compact_binary_format() {
    let clock = ManualClock::new();
    let game = record(10, 60, &clock, update);
    let json = serde_json::to_string(&game.log).unwrap();
    let mut from_json: InputLog<Kick> = InputLog::load(
        &mut serde_json::Deserializer::from_str(&json),
        Timestep::HZ_60,
    )
    .unwrap();
    assert_eq!(from_json, game.log);
    let bytes = postcard::to_allocvec(&game.log).unwrap();
    assert!(
        bytes.len() * 3 < json.len(),
        "binary {} vs JSON {}",
        bytes.len(),
        json.len()
    );
    let from_bytes: InputLog<Kick> = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(from_bytes, game.log);
    let report = replay(
        &mut from_json,
        Timestep::HZ_60,
        &mut World::default(),
        update,
        hash,
    )
    .unwrap();
    assert!(report.is_green());
    // Ten seconds of frames 15 to 18.3 ms apart run just under 600 steps
    // under locked pacing, whose game time follows the frames' measured
    // pace within a step of the wall: nine checkpoints of 60 ticks.
    assert_eq!(report.checkpoints, 9);
}

#[cfg(feature = "serde")]
#[test]
fn loading_a_log_recorded_at_another_timestep_is_refused_with_a_clear_error() {
    let log: InputLog<Kick> = InputLog::new(Timestep::HZ_60, NonZeroU64::new(60).unwrap());
    let json = serde_json::to_string(&log).unwrap();
    let error = InputLog::<Kick>::load(
        &mut serde_json::Deserializer::from_str(&json),
        Timestep::HZ_30,
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("recorded at 60 Hz and this game runs at 30 Hz"),
        "{error}"
    );
    let broken = json.replace("\"units_per_nanosecond\":3", "\"units_per_nanosecond\":0");
    let error = InputLog::<Kick>::load(
        &mut serde_json::Deserializer::from_str(&broken),
        Timestep::HZ_60,
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("the log's timestep is invalid"),
        "{error}"
    );
}

#[test]
fn the_last_tick_a_log_holds_ends_and_checkpoints_and_a_later_one_is_refused() {
    use evenstep::replay::{RecordError, ReplaySource};
    let last = InputLog::<Kick>::MAX_TICKS - 1;
    let mut log = InputLog::<Kick>::new(Timestep::HZ_60, NonZeroU64::new(1).unwrap());
    log.end_tick(last, 7).unwrap();
    assert_eq!(log.ticks(), InputLog::<Kick>::MAX_TICKS);
    assert_eq!(log.checkpoints(), [(last, 7)]);
    for tick in [last + 1, u64::MAX] {
        let refused = log.end_tick(tick, 8).unwrap_err();
        assert_eq!(refused, RecordError::PastTickLimit { tick });
        assert_eq!(
            refused.to_string(),
            format!(
                "tick {tick} is past the end of a log, which holds ticks 0 to 4294967295; \
                 record a longer session as several logs"
            )
        );
        assert_eq!(
            log.end_tick_with(tick, || unreachable!("no hash for a refused tick")),
            Err(refused)
        );
    }
    assert_eq!(log.ticks(), InputLog::<Kick>::MAX_TICKS);
    assert_eq!(
        <InputLog<Kick> as ReplaySource<World>>::checkpoint(&log, u64::MAX),
        None
    );
    // Ending a tick twice records one checkpoint.
    let mut log = InputLog::<Kick>::new(Timestep::HZ_60, NonZeroU64::new(1).unwrap());
    log.end_tick(0, 1).unwrap();
    log.end_tick(0, 2).unwrap();
    assert_eq!(log.checkpoints(), [(0, 1)]);
}

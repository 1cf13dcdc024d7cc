//! Records a short session of a tiny game, saves the input log as JSON,
//! loads it back (checking the timestep), replays it, and prints the
//! verdict; then replays it through an update with a hidden clock read, to
//! show what a divergence looks like.
//!
//! Run it with `cargo run --example replay --features json`.

use std::num::NonZeroU64;
use std::time::Duration;

use evenstep::{
    Clock, InputLog, Loop, ManualClock, PumpKind, StateHash, StepContext, Timestep, replay,
    replay::Input,
};

/// A ball on a line, in thousandths of a unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Ball {
    x: i64,
    v: i64,
}

/// The one input: push the ball.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
struct Push(i64);

impl Input<Ball> for Push {
    fn apply(&self, ball: &mut Ball) {
        ball.v += self.0;
    }
}

/// The rules: friction and motion, integers only.
fn update(ball: &mut Ball, _: &StepContext<'_>) {
    ball.v -= ball.v / 16;
    ball.x += ball.v;
}

fn hash(ball: &Ball) -> u64 {
    StateHash::new().i64(ball.x).i64(ball.v).finish()
}

struct Game {
    ball: Ball,
    log: InputLog<Push>,
    pending: Vec<Push>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Game>::builder().clock(clock.clone()).build()?;
    game_loop.on_update(|game, step| {
        for push in game.pending.drain(..) {
            game.log.record(step.tick(), push).expect("in tick order");
            push.apply(&mut game.ball);
        }
        update(&mut game.ball, step);
        let ball = game.ball;
        game.log
            .end_tick_with(step.tick(), || hash(&ball))
            .expect("within the ticks a log holds");
    });

    // Ten seconds of play at an uneven ~60 fps, a push every 0.7 s.
    let mut game = Game {
        ball: Ball::default(),
        log: InputLog::new(Timestep::HZ_60, NonZeroU64::new(60).expect("non-zero")),
        pending: Vec::new(),
    };
    game_loop.start();
    for frame in 0..600_u64 {
        clock.advance(Duration::from_micros(15_500 + frame * 7_919 % 2_400));
        if frame % 42 == 0 {
            game.pending
                .push(Push(if frame % 84 == 0 { 900 } else { -700 }));
        }
        let _ = game_loop.pump(&mut game, PumpKind::Paint);
    }
    println!(
        "recorded {} ticks, {} pushes, {} checkpoints; the ball ended at x = {}",
        game.log.ticks(),
        game.log.events().len(),
        game.log.checkpoints().len(),
        game.ball.x
    );

    // Save and load: the load checks the timestep, validates the log and
    // refuses anything after it.
    let saved = serde_json::to_string(&game.log)?;
    println!("saved as {} bytes of JSON", saved.len());
    let mut loaded: InputLog<Push> = InputLog::from_json(&saved, Timestep::HZ_60)?;
    if let Err(error) = InputLog::<Push>::from_json(&format!("{saved} {{}}"), Timestep::HZ_60) {
        println!("the same log with bytes after it: refused: {error}");
    }

    let mut replayed = Ball::default();
    let report = replay(&mut loaded, Timestep::HZ_60, &mut replayed, update, hash)?;
    println!(
        "replay: {} ticks, {} checkpoints compared, {}; ball at x = {}",
        report.ticks,
        report.checkpoints,
        if report.is_green() {
            "GREEN"
        } else {
            "DIVERGED"
        },
        replayed.x
    );

    // The same recording through an update that sneaks in a clock read.
    let sneaky = move |ball: &mut Ball, step: &StepContext<'_>| {
        update(ball, step);
        if step.tick() == 300 {
            // Live, this read the clock of tick 300's frame; now it reads
            // whatever time it is. Either way it is not in the recording.
            ball.x += i64::try_from(clock.now().as_nanos() % 1_000).unwrap_or(0) + 1;
        }
    };
    let report = replay(
        &mut loaded,
        Timestep::HZ_60,
        &mut Ball::default(),
        sneaky,
        hash,
    )?;
    match report.divergence {
        Some(d) => println!(
            "with a clock read at tick 300: DIVERGED at the checkpoint after tick {} \
             (expected {:#018x}, got {:#018x})",
            d.tick, d.expected, d.actual
        ),
        None => println!("with a clock read at tick 300: green (it should not be)"),
    }

    // And at another timestep, a refusal rather than a divergence.
    match replay(
        &mut loaded,
        Timestep::HZ_30,
        &mut Ball::default(),
        update,
        hash,
    ) {
        Err(error) => println!("at 30 Hz: refused: {error}"),
        Ok(_) => println!("at 30 Hz: replayed (it should not)"),
    }
    Ok(())
}

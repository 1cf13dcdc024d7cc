//! Driver benchmarks: pump overhead beside the floor of its callbacks and
//! clock, an idle pump over 100,000 armed timers,
//! the cost of firing one timer, a day of catch-up beside the floor of
//! its callback calls, and the input queue's cost per event pushed and
//! delivered to a step. Run with
//! `cargo bench -p evenstep --bench driver`.

use std::cell::Cell;
use std::fmt;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

use divan::Bencher;
use divan::counter::ItemsCount;
use evenstep::input::{InputEvent, Key};
use evenstep::{Clock, Loop, ManualClock, PumpKind, StepBudget, Timeline, Timestamp, Timestep};

fn main() {
    divan::main();
}

/// A clock the benchmark moves with a plain store, so the measurement is the
/// pump and not the clock (a `ManualClock` advance is an atomic update).
fn bench_clock() -> (Rc<Cell<u64>>, impl Fn() -> Timestamp + 'static) {
    let now = Rc::new(Cell::new(0_u64));
    let read = Rc::clone(&now);
    (now, move || Timestamp::from_nanos(read.get()))
}

#[derive(Default)]
struct Game {
    x: f64,
    drawn: Cell<f64>,
}

fn game_loop() -> (Rc<Cell<u64>>, Loop<Game>) {
    let (now, clock) = bench_clock();
    let mut game_loop = Loop::<Game>::builder().clock(clock).build().unwrap();
    game_loop.on_update(|game, step| game.x += step.dt_secs_f64());
    game_loop.on_render(|game, frame| game.drawn.set(game.x + f64::from(frame.alpha_f32())));
    game_loop.start();
    (now, game_loop)
}

/// Measures one paint pump a refresh of a 60 Hz display.
fn pump_at_60hz(bencher: Bencher, now: &Cell<u64>, mut game_loop: Loop<Game>) {
    let mut game = Game::default();
    let mut k = 0_u64;
    bencher.bench_local(|| {
        k += 1;
        now.set(k * 1_000_000_000 / 60);
        black_box(game_loop.pump(&mut game, PumpKind::Paint).ran())
    });
}

/// One 60 Hz paint pump with one update and one render subscriber: the
/// callbacks are a float add each, so this is the loop's own overhead.
#[divan::bench(sample_count = 200, sample_size = 4_000)]
fn pump_steady_60hz(bencher: Bencher) {
    let (now, game_loop) = game_loop();
    pump_at_60hz(bencher, &now, game_loop);
}

/// The floor under `pump_steady_60hz`: what its callbacks and clock cost
/// without the loop. Three reads of the same clock through a boxed `Clock`,
/// one boxed update call and one boxed render call doing the same float work.
#[divan::bench(sample_count = 200, sample_size = 4_000)]
fn pump_floor_callbacks_and_clock(bencher: Bencher) {
    type Update = Box<dyn FnMut(&mut Game, f64)>;
    type Render = Box<dyn FnMut(&mut Game, f32)>;
    let (now, clock) = bench_clock();
    let clock: Box<dyn Clock> = Box::new(clock);
    let mut update: Update = Box::new(|game, dt| game.x += dt);
    let mut render: Render = Box::new(|game, alpha| game.drawn.set(game.x + f64::from(alpha)));
    let mut game = Game::default();
    let mut k = 0_u64;
    bencher.bench_local(|| {
        k += 1;
        now.set(k * 1_000_000_000 / 60);
        let start = clock.now();
        update(&mut game, black_box(1.0 / 60.0));
        let updated = clock.now();
        render(&mut game, black_box(0.5));
        let end = clock.now();
        black_box((start, updated, end))
    });
}

/// The same pump with 100,000 armed timers on each timeline, none due.
#[divan::bench(sample_count = 200, sample_size = 4_000)]
fn pump_idle_100k_timers(bencher: Bencher) {
    let (now, mut game_loop) = game_loop();
    for i in 0..100_000_u64 {
        let far = Duration::from_secs(1_000_000) + Duration::from_nanos(i);
        game_loop.real().after(far, |_, _| {}).unwrap();
        game_loop.sim().every(far, |_, _| {}).unwrap();
    }
    pump_at_60hz(bencher, &now, game_loop);
}

/// Firing cost per timer: 10,000 repeating timers all due in one advance.
#[divan::bench]
fn fire_per_timer(bencher: Bencher) {
    const TIMERS: u64 = 10_000;
    let mut timeline = Timeline::<u64>::new();
    for _ in 0..TIMERS {
        timeline
            .every(Duration::from_millis(1), |n, fire| *n += fire.repeats())
            .unwrap();
    }
    let mut fired = 0_u64;
    bencher
        .counter(ItemsCount::new(TIMERS))
        .bench_local(|| timeline.advance(black_box(&mut fired), Duration::from_millis(1)));
}

/// 24 hours of catch-up at 20 Hz (1,728,000 steps) with an empty update: the
/// loop's own cost a step. The steps run are read from the report.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn catch_up_24h_at_20hz(bencher: Bencher) {
    bencher
        .with_inputs(|| {
            let (_, clock) = bench_clock();
            let mut game_loop = Loop::<()>::builder()
                .clock(clock)
                .timestep(Timestep::HZ_20)
                .budget(StepBudget::DEFAULT)
                .build()
                .unwrap();
            game_loop.on_update(|(), _| {});
            game_loop.start();
            game_loop
        })
        .bench_local_values(|mut game_loop| {
            let done = game_loop.catch_up(&mut (), Duration::from_secs(24 * 3_600));
            black_box(done.map(|done| done.steps))
        });
}

/// The floor under `catch_up_24h_at_20hz`: the same 1,728,000 calls of an
/// empty update through a boxed callback, each followed by a stop-flag check,
/// and nothing else.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn catch_up_floor_boxed_calls(bencher: Bencher) {
    type Update = Box<dyn FnMut(&mut (), &Cell<bool>)>;
    bencher
        .with_inputs(|| {
            let update: Update = Box::new(|(), _| {});
            (vec![update], Cell::new(false))
        })
        .bench_local_values(|(mut updates, stop)| {
            let update = &mut updates[0];
            let mut calls = 0_u64;
            for _ in 0..black_box(24 * 3_600 * 20_u64) {
                update(&mut (), &stop);
                calls += 1;
                if stop.get() {
                    break;
                }
            }
            black_box(calls)
        });
}

/// The events pushed before each pump of `input::push_and_deliver`. Shown as
/// `events_N`, so that a row's name never reads as a figure.
#[derive(Clone, Copy)]
struct Events(u64);

impl fmt::Display for Events {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "events_{}", self.0)
    }
}

/// What `input::push_and_deliver` keeps: the float work of its steps and
/// renders, as `Game`'s, and how many events the steps read.
#[derive(Default)]
struct Player {
    x: f64,
    drawn: Cell<f64>,
    events: usize,
}

mod input {
    use super::{
        Bencher, Events, InputEvent, Key, Loop, ManualClock, Player, PumpKind, Timestamp, black_box,
    };

    /// Half a 60 Hz step, in ns: the pumps sit half a step off the step
    /// boundaries, so each pump's one step ends half a frame after the
    /// previous pump.
    const PHASE_NS: u64 = 8_333_333;

    /// The events of a frame are stamped over its first 8 ms, all before
    /// its step ends.
    const SPREAD_NS: u64 = 8_000_000;

    /// One 60 Hz paint pump of one step on a `ManualClock`, with `events`
    /// pushed before it, stamped inside the step's span, so that the step
    /// reads them all: a press of a key, a motion and the key's release, in
    /// turn. `events_0` is the same pump with an empty queue; the cost of an
    /// event is the difference over the events.
    #[divan::bench(
        args = [Events(0), Events(1), Events(8), Events(64)],
        sample_count = 200,
        sample_size = 4_000,
    )]
    fn push_and_deliver(bencher: Bencher, events: Events) {
        let Events(per_frame) = events;
        let clock = ManualClock::new();
        let mut game_loop = Loop::<Player>::builder()
            .clock(clock.clone())
            .build()
            .unwrap();
        game_loop.on_update(|player, step| {
            player.x += step.dt_secs_f64();
            player.events += step.input().events().len();
        });
        game_loop
            .on_render(|player, frame| player.drawn.set(player.x + f64::from(frame.alpha_f32())));
        game_loop.start();
        let mut player = Player::default();
        let mut frame = Frame::new(per_frame);
        // Warm up until the queue and the step's input hold the most they
        // ever will, and check that each pump's step reads its events.
        for _ in 0..64 {
            let before = player.events;
            frame.pump(&mut game_loop, &mut player, &clock);
            assert_eq!(game_loop.waiting_input().len(), 0);
            assert_eq!(player.events - before, usize::try_from(per_frame).unwrap());
        }
        bencher.bench_local(|| frame.pump(&mut game_loop, &mut player, &clock));
    }

    /// The frames of `push_and_deliver`: the events pushed before each
    /// pump and the time between them, the last pump's number and time, and
    /// the next event's turn of press, motion and release.
    struct Frame {
        events: u64,
        gap: u64,
        k: u64,
        from: u64,
        turn: u8,
    }

    impl Frame {
        /// Frames of `events` each, spread over `SPREAD_NS`.
        fn new(events: u64) -> Frame {
            Frame {
                events,
                gap: SPREAD_NS / events.max(1),
                k: 0,
                from: 0,
                turn: 0,
            }
        }

        /// Pushes the frame's events, stamped after the previous pump, then
        /// pumps the next refresh.
        fn pump(
            &mut self,
            game_loop: &mut Loop<Player>,
            player: &mut Player,
            clock: &ManualClock,
        ) -> bool {
            let mut at = self.from;
            for _ in 0..self.events {
                let event = match self.turn {
                    0 => InputEvent::Press(Key::SPACE.into()),
                    1 => InputEvent::Motion { dx: 1.0, dy: -1.0 },
                    _ => InputEvent::Release(Key::SPACE.into()),
                };
                self.turn = if self.turn == 2 { 0 } else { self.turn + 1 };
                black_box(game_loop.push_input(Timestamp::from_nanos(at), event)).unwrap();
                at += self.gap;
            }
            self.k += 1;
            self.from = PHASE_NS + self.k * 1_000_000_000 / 60;
            clock.set(Timestamp::from_nanos(self.from));
            black_box(game_loop.pump(player, PumpKind::Paint).ran())
        }
    }
}

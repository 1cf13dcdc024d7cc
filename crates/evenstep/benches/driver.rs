//! Driver benchmarks: pump overhead beside the floor of its callbacks and
//! clock, an idle pump over 100,000 armed timers,
//! the cost of firing one timer, and a day of catch-up beside the floor of
//! its callback calls. Run with
//! `cargo bench -p evenstep --bench driver`.

use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

use divan::Bencher;
use divan::counter::ItemsCount;
use evenstep::{Clock, Loop, PumpKind, StepBudget, Timeline, Timestamp, Timestep};

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

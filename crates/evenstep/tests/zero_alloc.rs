//! The allocation contract of the driver: a steady pump with update and
//! render subscribers, armed timers that are not due, and an idle job
//! allocates nothing; neither does reading the statistics. A counting global
//! allocator proves it, and a negative control proves the counter counts.

use std::cell::Cell;
use std::time::Duration;

use evenstep::{Loop, ManualClock, PumpKind};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations_in;

#[derive(Default)]
struct Game {
    x: f64,
    drawn: Cell<f64>,
    jobs: u64,
}

#[test]
fn a_steady_pump_with_subscribers_and_no_timer_due_allocates_nothing() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<Game>::builder()
        .clock(clock.clone())
        .build()
        .unwrap();
    game_loop.on_update(|game, step| game.x += step.dt_secs_f64());
    game_loop.on_render(|game, frame| game.drawn.set(game.x + f64::from(frame.alpha_f32())));
    let job = game_loop.coalesce(|game| game.jobs += 1);
    for i in 0..1_000 {
        game_loop
            .real()
            .every(Duration::from_secs(3_600 + i), |_, _| {})
            .unwrap();
        game_loop
            .sim()
            .after(Duration::from_secs(3_600 + i), |_, _| {})
            .unwrap();
    }
    let mut game = Game::default();
    game_loop.start();
    // Warm up: the first pumps size nothing, but keep them outside anyway.
    for _ in 0..10 {
        clock.advance(Duration::from_nanos(16_666_667));
        let _ = game_loop.pump(&mut game, PumpKind::Paint);
    }
    let count = allocations_in(|| {
        for frame in 0..10_000_u32 {
            clock.advance(Duration::from_nanos(16_666_667));
            if frame % 100 == 0 {
                job.request(); // a requested job costs no allocation either
            }
            let kind = if frame % 7 == 0 {
                PumpKind::Tick
            } else {
                PumpKind::Paint
            };
            let _ = game_loop.pump(&mut game, kind);
            let _ = game_loop.stats();
        }
    });
    assert!(
        game_loop.tick() >= 10_000 && game.jobs == 100,
        "the run was not vacuous"
    );
    assert_eq!(count, 0, "the pump allocated {count} times");
}

#[test]
fn the_counter_counts_an_allocation_when_one_happens() {
    let count = allocations_in(|| {
        let boxed = Box::new([7_u8; 64]);
        std::hint::black_box(&boxed);
    });
    assert_eq!(count, 1);
}

#[test]
fn stepping_tweens_allocates_nothing_completions_included() {
    use evenstep::{Ease, Timestep, Tween, Tweens};
    let mut tweens = Tweens::<Vec<f32>, f32>::new(Timestep::HZ_60);
    let start = |tweens: &mut Tweens<Vec<f32>, f32>, n: usize| {
        for i in 0..n {
            tweens.start(
                Tween::new(
                    0.0,
                    1.0,
                    Duration::from_millis(100 + i as u64 % 50),
                    move |out: &mut Vec<f32>, v| {
                        out[i] = v;
                    },
                )
                .ease(Ease::ALL[i % Ease::ALL.len()])
                .on_complete(move |out: &mut Vec<f32>| out[i] += 1.0),
            );
        }
    };
    let mut out = vec![0.0_f32; 1_000];
    // Warm up: one full generation sizes the completion list.
    start(&mut tweens, 1_000);
    for _ in 0..10 {
        tweens.step(&mut out);
    }
    assert!(tweens.is_empty());
    start(&mut tweens, 1_000); // starting allocates (the callbacks), stepping must not
    let count = allocations_in(|| {
        for _ in 0..10 {
            tweens.step(&mut out);
        }
    });
    assert!(
        tweens.is_empty(),
        "every tween completed inside the measurement"
    );
    assert!(
        out.iter().all(|&v| v == 2.0),
        "a final update of exactly 1.0, then one completion"
    );
    assert_eq!(count, 0, "stepping tweens allocated {count} times");
}

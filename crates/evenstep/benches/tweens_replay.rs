//! Benchmarks for the determinism tools: stepping 10,000 tweens, and
//! replaying an hour of 60 Hz ticks. Run with
//! `cargo bench -p evenstep --bench tweens_replay`.

use std::hint::black_box;
use std::num::NonZeroU64;
use std::time::Duration;

use divan::Bencher;
use divan::counter::ItemsCount;
use evenstep::{
    Ease, InputLog, StateHash, StepContext, Timestep, Tween, Tweens, replay, replay::Input,
};

fn main() {
    divan::main();
}

/// 10,000 tweens lasting an hour (none completes while measured), each
/// writing its value into a slot of the context, eased by `ease(i)`.
fn ten_thousand_tweens(ease: impl Fn(usize) -> Ease) -> Tweens<Vec<f32>, f32> {
    let mut tweens = Tweens::<Vec<f32>, f32>::new(Timestep::HZ_60);
    for i in 0..TWEENS {
        tweens.start(
            Tween::new(
                0.0,
                100.0,
                Duration::from_secs(3_600),
                move |out: &mut Vec<f32>, v| {
                    out[i] = v;
                },
            )
            .ease(ease(i)),
        );
    }
    tweens
}

const TWEENS: usize = 10_000;

/// One step of 10,000 tweens, all on one easing (the common case).
#[divan::bench(sample_count = 100, sample_size = 20)]
fn step_10k_tweens_one_easing(bencher: Bencher) {
    let mut tweens = ten_thousand_tweens(|_| Ease::CubicOut);
    let mut out = vec![0.0_f32; TWEENS];
    bencher
        .counter(ItemsCount::new(TWEENS))
        .bench_local(|| tweens.step(black_box(&mut out)));
}

/// One step of 10,000 tweens cycling through all 21 easings: the dispatch
/// on the curve mispredicts, which is what this one measures.
#[divan::bench(sample_count = 100, sample_size = 20)]
fn step_10k_tweens_every_easing(bencher: Bencher) {
    let mut tweens = ten_thousand_tweens(|i| Ease::ALL[i % Ease::ALL.len()]);
    let mut out = vec![0.0_f32; TWEENS];
    bencher
        .counter(ItemsCount::new(TWEENS))
        .bench_local(|| tweens.step(black_box(&mut out)));
}

#[derive(Clone, Copy)]
struct Nudge(i64);

impl Input<i64> for Nudge {
    fn apply(&self, x: &mut i64) {
        *x = x.wrapping_add(self.0);
    }
}

fn update(x: &mut i64, step: &StepContext<'_>) {
    *x = x
        .wrapping_mul(31)
        .wrapping_add(i64::try_from(step.tick()).unwrap_or(0));
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "replay hashes through `&S`"
)]
fn hash(x: &i64) -> u64 {
    StateHash::new().i64(*x).finish()
}

/// Replaying an hour of 60 Hz ticks (216,000) of a trivial game, with an
/// input every 30 ticks and a checkpoint every 60.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn replay_one_hour_at_60hz(bencher: Bencher) {
    const TICKS: u64 = 216_000;
    let mut log = InputLog::new(Timestep::HZ_60, NonZeroU64::new(60).unwrap());
    let mut x = 0_i64;
    for tick in 0..TICKS {
        if tick % 30 == 0 {
            log.record(tick, Nudge(i64::try_from(tick).unwrap_or(0)))
                .unwrap();
            Nudge(i64::try_from(tick).unwrap_or(0)).apply(&mut x);
        }
        x = x
            .wrapping_mul(31)
            .wrapping_add(i64::try_from(tick).unwrap_or(0));
        log.end_tick(tick, hash(&x)).unwrap();
    }
    bencher.bench_local(|| {
        let mut state = 0_i64;
        let report = replay(&mut log, Timestep::HZ_60, &mut state, update, hash).unwrap();
        assert!(report.is_green());
        black_box(report)
    });
}

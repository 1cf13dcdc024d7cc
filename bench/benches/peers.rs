//! Divan benchmark of evenstep-core against peer fixed-timestep accumulators:
//! "plan one frame + iterate its steps (+ alpha)" over deterministic synthetic
//! u64-ns timestamp traces (no real clock).
//!
//! Run: `cargo bench --ignore-rust-version` (renew-frame declares rust-version 1.97).
//! To add another accumulator: implement `evenstep_bench::Peer` for it and add
//! the type to `types = [...]` below.
//!
//! * a_steady_60hz / b_display_144hz: each iteration plans the next frame of a
//!   precomputed 1024-frame trace; after the last frame the trace replays
//!   from its start, shifted by the display time it spans, so one adapter
//!   sees one display running on (as a game has one planner for its run).
//! * c_catchup_12 / d_overload_200ms_budget5: the input is an adapter primed
//!   (untimed, `with_inputs`) with 60 steady 60 Hz frames; the timed part is
//!   exactly the one 200 ms frame (12 × 1/60 s) and its steps.
//! * e_steady_60hz_begin_frame_and_steps_no_alpha: trace (a) exactly as in
//!   a_steady_60hz, but each frame is `begin_frame` + step iteration only, no
//!   alpha (`PlanOnly::frame_no_alpha`): what evenstep-core's published
//!   ≤ 3 ns/frame target covers. renew-frame is the comparison.
//! * f_pacing_cost_jittery_60hz: evenstep-core under each pacing mode on a
//!   jittery 60 Hz trace, cycled as (a).
//! * g_feedback_jittery_60hz: trace (f), each frame with the time it is
//!   shown, cycled as (a); the adapters with feedback report each frame
//!   shown two frames after planning it (`Fed::frame_fed`).

use divan::{Bencher, black_box};
use evenstep_bench::{
    BUDGET_LARGE, BUDGET_OVERLOAD, BevyFixed, BevyVirtualFixed, EvenStep, EvenStepCentred,
    EvenStepLocked, EvenStepLockedFed, EvenStepOffFed, EvenStepSnapped, Fed, GameLoopPeer, Harness,
    Peer, PlanOnly, RenewFrame, cycle_span, trace_display_144, trace_jittery_60,
    trace_jittery_60_shown, trace_spike_200ms, trace_steady_60,
};

fn main() {
    divan::main();
}

fn cycle<P: Peer>(bencher: Bencher, trace: Vec<u64>, span: u64, budget: u32) {
    cycle_with(bencher, trace, span, budget, P::new, P::frame);
}

/// [`cycle`] with [`PlanOnly::frame_no_alpha`] in place of [`Peer::frame`];
/// everything else (trace, wrap, indexing) is identical.
fn cycle_no_alpha<P: PlanOnly>(bencher: Bencher, trace: Vec<u64>, span: u64, budget: u32) {
    cycle_with(bencher, trace, span, budget, P::new, P::frame_no_alpha);
}

/// Plans the next frame of `trace` on every iteration; after the last
/// frame the trace replays shifted on by `span`. `frame` is a function item,
/// a type of its own, so the call is direct, as in the adapters' own loops.
fn cycle_with<P, F: FnMut(&mut P, u64) -> u64>(
    bencher: Bencher,
    trace: Vec<u64>,
    span: u64,
    budget: u32,
    new: impl FnOnce(u32) -> P,
    mut frame: F,
) {
    let mut peer = new(budget);
    let mut i = 0usize;
    let mut base = 0u64;
    bencher.bench_local(move || {
        if i == trace.len() {
            base += span;
            i = 0;
        }
        let now = black_box(base + trace[i]);
        i += 1;
        frame(&mut peer, now)
    });
}

/// Iterations in a sample of the spike benchmarks (c) and (d).
const SPIKE_SAMPLE: u32 = 16;
/// Samples of the spike benchmarks: as many iterations in all as 1,000
/// samples of 64.
const SPIKE_SAMPLES: u32 = 4_000;

fn spike<P: Peer>(bencher: Bencher, budget: u32) {
    let trace = trace_spike_200ms();
    let (warmup, spike_ts) = trace.split_at(trace.len() - 1);
    let spike_ts = spike_ts[0];
    bencher
        .with_inputs(|| {
            let mut peer = P::new(budget);
            for &t in warmup {
                let _ = peer.frame(t);
            }
            peer
        })
        .bench_local_refs(|peer| peer.frame(black_box(spike_ts)));
}

/// Iterations in a sample of the cycling benchmarks: eight whole trace
/// cycles, so every sample holds the same mix of frames. Left to itself, divan sizes samples from a first
/// timing, and a slow first one (a cold start) gave samples of 100
/// iterations, timer overhead and all: the same code measured 25 ns in one
/// run and 60 ns in the next.
const CYCLE_SAMPLE: u32 = 8 * evenstep_bench::CYCLE as u32;

/// (a) 60 Hz display, 60 Hz steps: 1 step per frame for every peer.
#[divan::bench(
    types = [EvenStep, EvenStepLocked, RenewFrame, GameLoopPeer, BevyFixed, BevyVirtualFixed, Harness],
    sample_size = CYCLE_SAMPLE
)]
fn a_steady_60hz<P: Peer>(bencher: Bencher) {
    cycle::<P>(bencher, trace_steady_60(), cycle_span(60), BUDGET_LARGE);
}

/// (b) 144 Hz display, 60 Hz steps: 427 steps over 1024 frames (0 or 1 per frame).
#[divan::bench(
    types = [EvenStep, RenewFrame, GameLoopPeer, BevyFixed, BevyVirtualFixed],
    sample_size = CYCLE_SAMPLE
)]
fn b_display_144hz<P: Peer>(bencher: Bencher) {
    cycle::<P>(bencher, trace_display_144(), cycle_span(144), BUDGET_LARGE);
}

/// (c) one 200 ms frame after 60 steady frames, budget 16: 12 steps for every peer.
///
/// Each iteration needs its own primed planner, and divan makes a sample's
/// worth up front. Samples of 16 keep those planners in the level-1 cache, as
/// a game's one planner is (sixteen of evenstep-core's, the largest, take
/// under 9 KiB; samples of 64 took 35 KiB, more than the cache holds, and
/// measured misses on planners of different sizes instead of the frame).
#[divan::bench(
    types = [EvenStep, RenewFrame, GameLoopPeer, BevyFixed, BevyVirtualFixed],
    sample_count = SPIKE_SAMPLES,
    sample_size = SPIKE_SAMPLE
)]
fn c_catchup_12<P: Peer>(bencher: Bencher) {
    spike::<P>(bencher, BUDGET_LARGE);
}

/// (d) one 200 ms frame after 60 steady frames, budget 5: evenstep-core and
/// renew-frame run 5 and report 7 dropped; game-loop (max_frame_time =
/// 5/60 s) runs 5 and reports nothing; bevy has no budget and runs all 12.
/// Samples of 16, as in (c).
#[divan::bench(
    types = [EvenStep, RenewFrame, GameLoopPeer, BevyFixed, BevyVirtualFixed],
    sample_count = SPIKE_SAMPLES,
    sample_size = SPIKE_SAMPLE
)]
fn d_overload_200ms_budget5<P: Peer>(bencher: Bencher) {
    spike::<P>(bencher, BUDGET_OVERLOAD);
}

/// (e) trace (a), `begin_frame` + step iteration only, no alpha: the scope of
/// evenstep-core's published ≤ 3 ns/frame target; renew-frame for comparison.
#[divan::bench(types = [EvenStep, RenewFrame, Harness], sample_size = CYCLE_SAMPLE)]
fn e_steady_60hz_begin_frame_and_steps_no_alpha<P: PlanOnly>(bencher: Bencher) {
    cycle_no_alpha::<P>(bencher, trace_steady_60(), cycle_span(60), BUDGET_LARGE);
}

/// (f) The cost of pacing: evenstep-core off, centred, locked (the default)
/// and snapped on a jittery 60 Hz display (with alpha, as in (a)). The
/// target: pacing costs no more than twice the plain planner.
#[divan::bench(
    types = [EvenStep, EvenStepCentred, EvenStepLocked, EvenStepSnapped, Harness],
    sample_size = CYCLE_SAMPLE
)]
fn f_pacing_cost_jittery_60hz<P: Peer>(bencher: Bencher) {
    cycle::<P>(bencher, trace_jittery_60(), cycle_span(60), BUDGET_LARGE);
}

/// (g) The cost of display feedback: trace (f), each frame with the time it
/// is shown (the refresh after its timestamp plus 10 ms). Pacing off and
/// locked without feedback ignore the shown times; the `_fed` adapters
/// report each frame shown two frames after planning it, and locked pacing
/// then plans every frame for its predicted showing (`tests/traces.rs`
/// checks that it does). The target: locked pacing, with or without
/// feedback, costs no more than twice pacing off.
#[divan::bench(
    types = [EvenStep, EvenStepLocked, EvenStepLockedFed, EvenStepOffFed, Harness],
    sample_size = CYCLE_SAMPLE
)]
fn g_feedback_jittery_60hz<P: Fed>(bencher: Bencher) {
    let trace = trace_jittery_60_shown();
    let span = cycle_span(60);
    let mut peer = P::new(BUDGET_LARGE);
    let mut i = 0usize;
    let mut base = 0u64;
    bencher.bench_local(move || {
        if i == trace.len() {
            base += span;
            i = 0;
        }
        let (now, shown) = trace[i];
        let now = black_box(base + now);
        let shown = black_box(base + shown);
        i += 1;
        peer.frame_fed(now, shown)
    });
}

//! Runs one adapter over one trace many times, for `instructions.sh`, which
//! counts the instructions under callgrind. Instruction counts do not depend
//! on what else the machine is doing, so they compare peers reproducibly on a
//! shared machine where nanosecond timings wander by tens of percent.
//!
//! `cargo run --release --example instructions -- <adapter> <trace> <repeats>`,
//! where a trace is `a`, `b`, `e`, `f` or `g` (trace f with shown times,
//! for the adapters that report frames shown), or `c1`/`d1` (a spike frame
//! after the steady ones) and `c0`/`d0` (the steady ones alone).

use std::hint::black_box;

use evenstep_bench::{
    BUDGET_LARGE, BUDGET_OVERLOAD, BevyFixed, BevyVirtualFixed, EvenStep, EvenStepCentred,
    EvenStepLocked, EvenStepLockedFed, EvenStepOffFed, EvenStepSnapped, Fed, GameLoopPeer, Harness,
    Peer, PlanOnly, RenewFrame, cycle_span, trace_display_144, trace_jittery_60,
    trace_jittery_60_shown, trace_spike_200ms, trace_steady_60,
};

fn run<P: PlanOnly>(trace: &str, repeats: u64) -> u64 {
    let mut total = 0;
    match trace {
        "a" | "b" | "e" | "f" => {
            let (frames, span) = match trace {
                "b" => (trace_display_144(), cycle_span(144)),
                "f" => (trace_jittery_60(), cycle_span(60)),
                _ => (trace_steady_60(), cycle_span(60)),
            };
            // One adapter for every repeat, the trace shifted on each time,
            // as in the benchmark: a display running on.
            let mut peer = P::new(BUDGET_LARGE);
            let mut base = 0;
            for _ in 0..repeats {
                for &t in &frames {
                    total += if trace == "e" {
                        peer.frame_no_alpha(black_box(base + t))
                    } else {
                        peer.frame(black_box(base + t))
                    };
                }
                base += span;
            }
        }
        // `c0`/`d0`: the steady frames alone, to subtract. The names are as
        // long as `c1`/`d1` on purpose: the length of the command line moves
        // the stack, and with it what copying a planner costs.
        "c1" | "d1" | "c0" | "d0" => {
            let mut frames = trace_spike_200ms();
            if trace.ends_with('0') {
                frames.pop();
            }
            let budget = if trace.starts_with('c') {
                BUDGET_LARGE
            } else {
                BUDGET_OVERLOAD
            };
            for _ in 0..repeats {
                let mut peer = P::new(budget);
                for &t in &frames {
                    total += peer.frame(black_box(t));
                }
            }
        }
        other => panic!("unknown trace {other:?}: expected a, b, c1, d1, e, f, c0 or d0"),
    }
    total
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (adapter, trace) = (args[1].as_str(), args[2].as_str());
    let repeats: u64 = args[3].parse().expect("repeats");
    let steps = if trace == "g" {
        match adapter {
            "evenstep" => run_fed::<EvenStep>(repeats),
            "evenstep_locked" => run_fed::<EvenStepLocked>(repeats),
            "evenstep_locked_fed" => run_fed::<EvenStepLockedFed>(repeats),
            "evenstep_off_fed" => run_fed::<EvenStepOffFed>(repeats),
            "harness" => run_fed::<Harness>(repeats),
            other => panic!("unknown adapter {other:?} for trace g"),
        }
    } else {
        run_adapter(adapter, trace, repeats)
    };
    println!("{steps}");
}

/// Trace g: one adapter for every repeat, the trace (timestamps and shown
/// times) shifted on each time, as in the benchmark.
fn run_fed<P: Fed>(repeats: u64) -> u64 {
    let frames = trace_jittery_60_shown();
    let span = cycle_span(60);
    let mut peer = P::new(BUDGET_LARGE);
    let (mut total, mut base) = (0, 0);
    for _ in 0..repeats {
        for &(t, shown) in &frames {
            total += peer.frame_fed(black_box(base + t), black_box(base + shown));
        }
        base += span;
    }
    total
}

fn run_adapter(adapter: &str, trace: &str, repeats: u64) -> u64 {
    match adapter {
        "evenstep" => run::<EvenStep>(trace, repeats),
        "renew" => run::<RenewFrame>(trace, repeats),
        "harness" => run::<Harness>(trace, repeats),
        "evenstep_centred" => run_frames::<EvenStepCentred>(trace, repeats),
        "evenstep_locked" => run_frames::<EvenStepLocked>(trace, repeats),
        "evenstep_snapped" => run_frames::<EvenStepSnapped>(trace, repeats),
        "game_loop" => run_frames::<GameLoopPeer>(trace, repeats),
        "bevy" => run_frames::<BevyFixed>(trace, repeats),
        "bevy_virtual" => run_frames::<BevyVirtualFixed>(trace, repeats),
        other => panic!("unknown adapter {other:?}"),
    }
}

/// Peers without a no-alpha variant: trace e is not defined for them.
fn run_frames<P: Peer>(trace: &str, repeats: u64) -> u64 {
    struct Wrap<P>(P);
    impl<P: Peer> Peer for Wrap<P> {
        const NAME: &'static str = P::NAME;
        fn new(budget: u32) -> Self {
            Wrap(P::new(budget))
        }
        fn frame(&mut self, now_ns: u64) -> u64 {
            self.0.frame(now_ns)
        }
        fn last_alpha(&self) -> f64 {
            self.0.last_alpha()
        }
    }
    impl<P: Peer> PlanOnly for Wrap<P> {
        fn frame_no_alpha(&mut self, now_ns: u64) -> u64 {
            self.0.frame(now_ns)
        }
    }
    run::<Wrap<P>>(trace, repeats)
}

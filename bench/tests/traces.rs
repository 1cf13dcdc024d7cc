//! Trace tests: the step counts each peer and evenstep-core produce on the
//! benched traces (so a bench number can be read per step, and a broken
//! adapter shows up here).
//!
//! On the four benched traces (phase = half a step, `PHASE_NS`) evenstep-core's
//! exact 1/60 s step gives the same counts as every peer: its bank sits half a
//! step away from any boundary, so the 20 ns/s difference between 1/60 s and
//! the peers' 16_666_667 ns cannot change a count. The one place the counts
//! differ is phase 0 (display frames exactly on step boundaries, not benched);
//! see `phase_zero_*` at the end.
use evenstep_bench::*;

fn steps<P: Peer>(trace: &[u64], budget: u32) -> (u64, u64, u64) {
    let mut p = P::new(budget);
    let (mut total, mut last, mut dropped) = (0, 0, 0);
    for &t in trace {
        last = p.frame(t);
        total += last;
        dropped += p.last_dropped();
    }
    (total, last, dropped)
}

/// Steps per frame, as a histogram `[frames with 0, 1, 2 steps]` (panics on more).
fn histogram<P: Peer>(trace: &[u64], budget: u32) -> [u64; 3] {
    let mut p = P::new(budget);
    let mut h = [0; 3];
    for &t in trace {
        h[usize::try_from(p.frame(t)).unwrap()] += 1;
    }
    h
}

#[test]
fn steady_60hz_is_one_step_per_frame_for_every_peer() {
    let t = trace_steady_60();
    assert_eq!(steps::<EvenStep>(&t, BUDGET_LARGE).0, 1024);
    assert_eq!(histogram::<EvenStep>(&t, BUDGET_LARGE), [0, 1024, 0]);
    assert_eq!(steps::<RenewFrame>(&t, BUDGET_LARGE).0, 1024);
    assert_eq!(steps::<GameLoopPeer>(&t, BUDGET_LARGE).0, 1024);
    assert_eq!(steps::<BevyFixed>(&t, BUDGET_LARGE).0, 1024);
    assert_eq!(steps::<BevyVirtualFixed>(&t, BUDGET_LARGE).0, 1024);
}

#[test]
fn display_144hz_runs_427_steps_over_1024_frames() {
    let t = trace_display_144();
    assert_eq!(steps::<EvenStep>(&t, BUDGET_LARGE).0, 427);
    assert_eq!(histogram::<EvenStep>(&t, BUDGET_LARGE), [597, 427, 0]);
    assert_eq!(steps::<RenewFrame>(&t, BUDGET_LARGE).0, 427);
    assert_eq!(steps::<GameLoopPeer>(&t, BUDGET_LARGE).0, 427);
    assert_eq!(steps::<BevyFixed>(&t, BUDGET_LARGE).0, 427);
    assert_eq!(steps::<BevyVirtualFixed>(&t, BUDGET_LARGE).0, 427);
}

#[test]
fn catchup_frame_runs_twelve_steps() {
    let t = trace_spike_200ms();
    assert_eq!(steps::<EvenStep>(&t, BUDGET_LARGE), (72, 12, 0));
    assert_eq!(steps::<RenewFrame>(&t, BUDGET_LARGE).1, 12);
    assert_eq!(steps::<GameLoopPeer>(&t, BUDGET_LARGE).1, 12);
    assert_eq!(steps::<BevyFixed>(&t, BUDGET_LARGE).1, 12);
    assert_eq!(steps::<BevyVirtualFixed>(&t, BUDGET_LARGE).1, 12);
}

#[test]
fn overloaded_frame_budget_five() {
    let t = trace_spike_200ms();
    // evenstep-core, like renew-frame, runs 5 and reports the other 7 as dropped.
    assert_eq!(steps::<EvenStep>(&t, BUDGET_OVERLOAD), (65, 5, 7));
    assert_eq!(steps::<RenewFrame>(&t, BUDGET_OVERLOAD), (65, 5, 7));
    assert_eq!(steps::<GameLoopPeer>(&t, BUDGET_OVERLOAD), (65, 5, 0));
    assert_eq!(steps::<BevyFixed>(&t, BUDGET_OVERLOAD).1, 12);
    assert_eq!(steps::<BevyVirtualFixed>(&t, BUDGET_OVERLOAD).1, 12);
}

#[test]
fn no_alpha_variant_runs_the_same_steps() {
    // The second bench group (`PlanOnly::frame_no_alpha`) must do the same
    // planning and step work as `Peer::frame`, minus the alpha.
    fn no_alpha<P: PlanOnly>(trace: &[u64]) -> Vec<u64> {
        let mut p = P::new(BUDGET_LARGE);
        trace.iter().map(|&t| p.frame_no_alpha(t)).collect()
    }
    fn with_alpha<P: Peer>(trace: &[u64]) -> Vec<u64> {
        let mut p = P::new(BUDGET_LARGE);
        trace.iter().map(|&t| p.frame(t)).collect()
    }
    let t = trace_steady_60();
    assert_eq!(no_alpha::<EvenStep>(&t), with_alpha::<EvenStep>(&t));
    assert_eq!(no_alpha::<RenewFrame>(&t), with_alpha::<RenewFrame>(&t));
    assert_eq!(no_alpha::<EvenStep>(&t).iter().sum::<u64>(), 1024);
}

// Phase 0 (not benched): every display frame lands on a step boundary, up to
// the trace's rounding to whole nanoseconds. Here the exact step and the
// rounded step disagree. Frame k is at round(k · 16_666_666⅔) ns, which is
// alternately ⅓ ns past, ⅓ ns short of and exactly on step k, so evenstep-core
// (exact 1/60 s) runs 1, 0, 2, 1, 0, 2, ... steps: the same 341/342/341 pattern
// as game-loop's f64 1/60 s, and 1024 steps in all (one per frame on average).
// renew-frame and bevy step 16_666_667 ns, which is slow by 20 ns/s, so they run
// 0 steps on frame 2 and then exactly 1 per frame just short of the next
// boundary (alpha ≈ 0.99998): 1023 steps.
#[test]
fn phase_zero_steady_60hz_exact_step_differs_from_rounded_step() {
    let t = trace_steady_60_phase(0);
    assert_eq!(histogram::<EvenStep>(&t, BUDGET_LARGE), [341, 342, 341]);
    assert_eq!(steps::<EvenStep>(&t, BUDGET_LARGE).0, 1024);
    assert_eq!(histogram::<GameLoopPeer>(&t, BUDGET_LARGE), [341, 342, 341]);
    assert_eq!(histogram::<RenewFrame>(&t, BUDGET_LARGE), [1, 1023, 0]);
    assert_eq!(histogram::<BevyFixed>(&t, BUDGET_LARGE), [1, 1023, 0]);
}

#[test]
fn phase_zero_spike_exact_step_runs_one_more_step_than_rounded_step() {
    // 60 frames then 200 ms: evenstep-core (and game-loop) have run exactly 60
    // steps by t = 1 s and then 12; renew-frame and bevy are one step behind.
    let t = trace_spike_200ms_phase(0);
    assert_eq!(steps::<EvenStep>(&t, BUDGET_LARGE), (72, 12, 0));
    assert_eq!(steps::<EvenStep>(&t, BUDGET_OVERLOAD), (65, 5, 7));
    assert_eq!(steps::<RenewFrame>(&t, BUDGET_LARGE), (71, 12, 0));
    assert_eq!(steps::<RenewFrame>(&t, BUDGET_OVERLOAD), (64, 5, 7));
    assert_eq!(steps::<GameLoopPeer>(&t, BUDGET_LARGE), (72, 12, 0));
    assert_eq!(steps::<BevyFixed>(&t, BUDGET_LARGE), (71, 12, 0));
}

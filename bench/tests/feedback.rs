//! Display feedback in group (g): every report on the benched trace is
//! taken, locked pacing trusts the reports after a warm-up and then plans
//! every frame from them, snapped, one step a frame.
use evenstep_bench::*;

/// Cycles of trace (g) run, shifted on as in the benchmark.
const CYCLES: u64 = 4;

/// Each frame's steps, whether feedback was trusted after it, and whether
/// its plan was snapped, over [`CYCLES`] cycles of trace (g).
fn run_fed<P: Fed + AsRef<EvenStepFed>>() -> (Vec<(u64, bool, bool)>, u64) {
    let trace = trace_jittery_60_shown();
    let mut peer = P::new(BUDGET_LARGE);
    let mut frames = Vec::new();
    for cycle in 0..CYCLES {
        let base = cycle * cycle_span(60);
        for &(t, shown) in &trace {
            let steps = peer.frame_fed(base + t, base + shown);
            let fed = peer.as_ref();
            let trusted = fed.frames().shown_display().is_some_and(|d| d.is_trusted());
            frames.push((steps, trusted, fed.last_snapped()));
        }
    }
    (frames, peer.as_ref().refused())
}

/// Each frame's steps over [`CYCLES`] cycles of trace (g).
fn run_steps<P: Fed>() -> Vec<u64> {
    let trace = trace_jittery_60_shown();
    let mut peer = P::new(BUDGET_LARGE);
    (0..CYCLES)
        .flat_map(|cycle| {
            let base = cycle * cycle_span(60);
            trace
                .iter()
                .map(move |&(t, shown)| (base + t, base + shown))
                .collect::<Vec<_>>()
        })
        .map(|(t, shown)| peer.frame_fed(t, shown))
        .collect()
}

#[test]
fn every_frame_is_shown_on_the_refresh_after_the_one_it_is_stamped_near() {
    let trace = trace_jittery_60_shown();
    assert_eq!(trace.len(), CYCLE);
    for (i, &(t, shown)) in trace.iter().enumerate() {
        let k = i as u64 + 1;
        assert_eq!(t, trace_jittery_60()[i]);
        assert_eq!(shown, PHASE_NS + display_ts(k + 1, 60), "frame {k}");
    }
}

#[test]
fn locked_pacing_plans_every_frame_from_the_reports_after_warm_up() {
    let (frames, refused) = run_fed::<EvenStepLockedFed>();
    assert_eq!(refused, 0);
    let first_trusted = frames.iter().position(|f| f.1).unwrap();
    // Eight fitted, consistent reports, then four predictions proven right.
    assert_eq!(first_trusted, 15);
    let after = &frames[first_trusted + 1..];
    assert!(
        after
            .iter()
            .all(|&(steps, trusted, snapped)| steps == 1 && trusted && snapped)
    );
    assert_eq!(frames.iter().map(|f| f.0).sum::<u64>(), CYCLES * 1024);
}

#[test]
fn pacing_off_takes_the_reports_and_plans_without_them() {
    let (frames, refused) = run_fed::<EvenStepOffFed>();
    assert_eq!(refused, 0);
    // Pacing off makes no predictions, so none is ever proven: the
    // reports teach the lattice, and no frame is planned from them.
    assert!(
        frames[64..]
            .iter()
            .all(|&(steps, trusted, snapped)| steps == 1 && !trusted && !snapped)
    );
}

#[test]
fn every_row_of_the_group_runs_one_step_a_frame() {
    let one_each = vec![1; CYCLES as usize * CYCLE];
    assert_eq!(run_steps::<EvenStep>(), one_each);
    assert_eq!(run_steps::<EvenStepLocked>(), one_each);
    assert_eq!(run_steps::<EvenStepLockedFed>(), one_each);
    assert_eq!(run_steps::<EvenStepOffFed>(), one_each);
}

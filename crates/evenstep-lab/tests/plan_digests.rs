//! The planner's output is frozen: every profile of the lab's synthetic suite,
//! planned under eight configurations (every pacing mode, speeds, queued
//! steps, hidden frames, resyncs, a render cap, other step rates), gives the
//! per-plan digests committed in `tests/plan_digests.txt`. Any change to
//! what the planner plans, however small, changes a line of that file.
//!
//! After a deliberate, documented change of behaviour, regenerate the file
//! with `EVENSTEP_BLESS_PLAN_DIGESTS=1 cargo test -p evenstep-lab --test
//! plan_digests` and say why in the changelog.

use std::fmt::Write as _;
use std::num::NonZeroU32;
use std::time::Duration;

use evenstep_core::{FrameLoop, Pacing, Rate, Speed, StateHash, StepBudget, Timestamp, Timestep};
use evenstep_lab::default_suite;

/// The committed digests, one line per profile and configuration.
const FROZEN: &str = include_str!("plan_digests.txt");

/// The configurations each profile is planned under.
const VARIANTS: [&str; 9] = [
    "off",
    "centred",
    "locked",
    "snapped-2ms",
    "snapped-1ms-cap30",
    "centred-speed3/4-queued",
    "snapped-speed2-hidden",
    "snapped-59.94-budget3",
    "off-50hz-resync",
];

fn planner(variant: &str, start: Timestamp) -> FrameLoop {
    let snapped = |ms| Pacing::snapped(Duration::from_millis(ms)).unwrap();
    let at = |timestep: Timestep, budget: u32| {
        FrameLoop::new(
            timestep,
            StepBudget::new(NonZeroU32::new(budget).unwrap()),
            start,
        )
    };
    match variant {
        "off" => at(Timestep::HZ_60, 5).with_pacing(Pacing::OFF),
        "centred" => at(Timestep::HZ_60, 5).with_pacing(Pacing::CENTRED),
        "locked" => at(Timestep::HZ_60, 5),
        "snapped-2ms" => at(Timestep::HZ_60, 5).with_pacing(snapped(2)),
        "snapped-1ms-cap30" => {
            let mut frames = at(Timestep::HZ_60, 5).with_pacing(snapped(1));
            frames.set_render_cap(NonZeroU32::new(30).map(Rate::hz));
            frames
        }
        "centred-speed3/4-queued" => {
            let mut frames = at(Timestep::HZ_60, 5).with_pacing(Pacing::CENTRED);
            frames.set_speed(Speed::new(3, 4).unwrap());
            frames
        }
        "snapped-speed2-hidden" => {
            let mut frames = at(Timestep::HZ_60, 5).with_pacing(snapped(2));
            frames.set_speed(Speed::new(2, 1).unwrap());
            frames
        }
        "snapped-59.94-budget3" => {
            at(Timestep::from_ratio(60_000, 1_001).unwrap(), 3).with_pacing(snapped(2))
        }
        "off-50hz-resync" => at(Timestep::from_hz(50).unwrap(), 5).with_pacing(Pacing::OFF),
        other => unreachable!("no variant {other}"),
    }
}

/// The digest of every plan (and the planner's estimate after it) of one
/// profile under one configuration.
fn digest(variant: &str, stamps: &[u64]) -> u64 {
    let mut frames = planner(variant, Timestamp::from_nanos(stamps[0]));
    let mut hash = StateHash::new();
    for (k, &stamp) in stamps.iter().enumerate().skip(1) {
        let now = Timestamp::from_nanos(stamp);
        if variant == "centred-speed3/4-queued" && k % 50 == 0 {
            frames.queue_steps(2);
        }
        if variant == "off-50hz-resync" && k % 997 == 0 {
            frames.resync(now);
        }
        let plan = if variant == "snapped-speed2-hidden" && k % 61 == 0 {
            frames.begin_hidden_frame(now)
        } else {
            frames.begin_frame(now)
        };
        hash.absorb_plan(&plan)
            .f64(plan.alpha().as_f64())
            .u64(
                frames
                    .refresh_period()
                    .map_or(0, evenstep_core::Nanos::as_nanos),
            )
            .u64(frames.tick())
            .i128(frames.phase_shift_units());
    }
    hash.finish()
}

fn current() -> String {
    let mut out = String::new();
    for profile in default_suite() {
        let trace = profile.generate();
        for variant in VARIANTS {
            let digest = digest(variant, trace.stamps());
            writeln!(out, "{} | {variant} | {digest:#018x}", profile.name()).unwrap();
        }
    }
    out
}

#[test]
fn every_profile_plans_exactly_as_frozen_under_every_configuration() {
    let now = current();
    if std::env::var_os("EVENSTEP_BLESS_PLAN_DIGESTS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/plan_digests.txt");
        std::fs::write(path, &now).unwrap();
        return;
    }
    for (line, (got, want)) in now.lines().zip(FROZEN.lines()).enumerate() {
        assert_eq!(got, want, "line {} of plan_digests.txt", line + 1);
    }
    assert_eq!(now.lines().count(), FROZEN.lines().count());
    assert_eq!(
        FROZEN.lines().count(),
        default_suite().len() * VARIANTS.len()
    );
}

#[test]
fn one_nanosecond_moved_changes_the_digest() {
    // The negative control: the digest sees a single stamp moved by 1 ns.
    let trace = default_suite()[0].generate();
    let mut moved = trace.stamps().to_vec();
    moved[5_000] += 1;
    for variant in VARIANTS {
        assert_ne!(
            digest(variant, trace.stamps()),
            digest(variant, &moved),
            "{variant}"
        );
    }
}

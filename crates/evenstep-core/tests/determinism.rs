//! Determinism: a hostile trace (jitter, stalls, backwards stamps, speed
//! changes, queued steps, resyncs) planned eight times in one process gives one
//! frozen digest under each pacing (off, centred, locked, snapped with a
//! render cap), and moving a single timestamp by one nanosecond changes it.
//! Every test first checks that the trace was not vacuous.

mod common;

use std::num::NonZeroU32;

use common::SplitMix;

use evenstep_core::{
    FrameLoop, FrameStats, Nanos, Pacing, Rate, Speed, StateHash, StepBudget, Timestamp, Timestep,
};

/// The digests of [`hostile_trace`] planned at 60 Hz with a budget of 5,
/// under each pacing. If one changes, the planner's output changed: every
/// replay recorded before would diverge. Change them only for a deliberate,
/// documented change (and say so in the changelog).
const FROZEN: [(Paced, u64); 4] = [
    (Paced::Off, 0xeb30_b30e_075d_73b7),
    (Paced::Centred, 0x8593_7329_abcb_3ec0),
    // Re-frozen when locked pacing took up the hysteresis rule for the
    // frames it does not snap, in place of moving the bank back to the
    // plain accumulator's phase.
    // Re-frozen again when two tuned constants took the values chosen on
    // all the training traces: a whole lattice admitted within 2% of the
    // refresh, and a clean lattice trusted within a 16th of a period.
    (Paced::Locked, 0x0697_fbd4_ac4b_fc52),
    // Re-frozen with the first of those (snapped pacing shares the lattice).
    (Paced::SnappedCapped, 0x3d04_aa50_d992_dd36),
];

/// The pacing configurations the trace is planned under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Paced {
    Off,
    Centred,
    /// The default.
    Locked,
    /// Snapped to ±2 ms, with renders capped at 30 a second.
    SnappedCapped,
}

fn planner(paced: Paced) -> FrameLoop {
    let frames = FrameLoop::new(
        Timestep::HZ_60,
        StepBudget::DEFAULT,
        Timestamp::from_nanos(7_000_000_000),
    );
    match paced {
        Paced::Off => frames.with_pacing(Pacing::OFF),
        Paced::Centred => frames.with_pacing(Pacing::CENTRED),
        Paced::Locked => frames.with_pacing(Pacing::LOCKED),
        Paced::SnappedCapped => {
            let mut frames =
                frames.with_pacing(Pacing::snapped(std::time::Duration::from_millis(2)).unwrap());
            frames.set_render_cap(NonZeroU32::new(30).map(Rate::hz));
            frames
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Event {
    Frame(Timestamp),
    Speed(Speed),
    Queue(u32),
    Resync(Timestamp),
}

/// Two thousand frames of a 60 Hz display with ±1.5 ms jitter, 250 ms stalls,
/// backwards stamps, speed changes, queued steps and a resync.
fn hostile_trace() -> Vec<Event> {
    let mut rng = SplitMix(0xdead_beef_cafe_f00d);
    let mut events = Vec::new();
    let mut now: u64 = 7_000_000_000;
    for frame in 0..2_000_u64 {
        // 16.67 ms ± 1.5 ms.
        let mut delta = 15_166_667 + rng.below(3_000_001);
        match rng.below(100) {
            0..=2 => delta += 250_000_000 + rng.below(100_000_000), // a stall
            3 => delta = 0,                                         // a repeated stamp
            _ => {}
        }
        now += delta;
        if rng.below(150) == 0 {
            now -= rng.below(40_000_000); // a clock that steps backwards
        }
        events.push(Event::Frame(Timestamp::from_nanos(now)));
        if frame % 331 == 17 {
            let speeds = [
                Speed::HALF,
                Speed::DOUBLE,
                Speed::NORMAL,
                Speed::PAUSED,
                Speed::new(7, 3).unwrap(),
            ];
            events.push(Event::Speed(speeds[rng.below(5) as usize]));
        }
        if frame % 97 == 5 {
            events.push(Event::Queue(rng.below(4) as u32 + 1));
        }
        if frame == 1_234 {
            now += 5_000_000_000;
            events.push(Event::Resync(Timestamp::from_nanos(now)));
        }
    }
    events
}

/// A fixed-point reference world that only sees the steps: a body falling
/// under integer gravity with a tick-dependent wind.
#[derive(Default)]
struct World {
    x: i64,
    v: i64,
}

impl World {
    fn step(&mut self, tick: u64) {
        self.v += -981 + i64::from((tick % 7) as u8) * 13;
        self.x += self.v;
        if self.x < 0 {
            self.x = -self.x / 2;
            self.v = -self.v / 2;
        }
    }
}

struct Outcome {
    digest: u64,
    world: u64,
    stats: FrameStats,
    speed_changes: usize,
    backwards: usize,
}

fn plan(events: &[Event], paced: Paced) -> Outcome {
    let mut frames = planner(paced);
    let mut stats = FrameStats::new();
    let mut plans = StateHash::new();
    let mut world = World::default();
    let mut world_hash = StateHash::new();
    let (mut speed_changes, mut backwards, mut last) = (0, 0, Timestamp::ZERO);
    for event in events {
        match *event {
            Event::Frame(now) => {
                backwards += usize::from(now < last);
                last = now;
                let plan = frames.begin_frame(now);
                for step in plan.steps() {
                    world.step(step.tick());
                }
                world_hash.i64(world.x).i64(world.v);
                plans.absorb_plan(&plan);
                stats.absorb(&plan);
            }
            Event::Speed(speed) => {
                speed_changes += 1;
                frames.set_speed(speed);
            }
            Event::Queue(n) => frames.queue_steps(n),
            Event::Resync(now) => frames.resync(now),
        }
    }
    let digest = plans.u64(stats.digest()).u64(world_hash.finish()).finish();
    Outcome {
        digest,
        world: world_hash.finish(),
        stats,
        speed_changes,
        backwards,
    }
}

fn assert_not_vacuous(outcome: &Outcome, paced: Paced) {
    let stats = &outcome.stats;
    match paced {
        Paced::Off => assert_eq!(stats.phase_shift_units(), 0, "no pacing, no shift"),
        Paced::Centred => assert!(stats.phase_shift_units() != 0, "overruns were re-centred"),
        // A stall of a quarter second every 33 frames on average: locked
        // pacing trusts the lattice again only once it has settled anew.
        Paced::Locked => assert!(
            stats.snapped_frames() > 100,
            "locked onto the display: {}",
            stats.snapped_frames()
        ),
        Paced::SnappedCapped => {
            assert!(
                stats.snapped_frames() > 1_000,
                "snapped: {}",
                stats.snapped_frames()
            );
            assert!(
                stats.rendered_frames() < stats.frames() * 3 / 4,
                "the cap skipped renders"
            );
        }
    }
    assert!(stats.frames() >= 2_000, "frames: {}", stats.frames());
    assert!(stats.steps() > 1_000, "steps ran: {}", stats.steps());
    assert!(
        stats.clamped_frames() > 10,
        "the budget engaged: {}",
        stats.clamped_frames()
    );
    assert!(
        stats.dropped_steps() > 50,
        "drops happened: {}",
        stats.dropped_steps()
    );
    assert!(stats.dropped() > Nanos::from_secs(1));
    assert!(
        stats.queued_steps() > 20,
        "queued steps ran: {}",
        stats.queued_steps()
    );
    assert!(outcome.speed_changes >= 5);
    assert!(
        outcome.backwards > 5,
        "backwards stamps: {}",
        outcome.backwards
    );
    assert!(
        stats.largest_frame() < Nanos::from_secs(1),
        "the resync gap must not be billed"
    );
}

#[test]
fn a_hostile_trace_plans_to_one_frozen_digest_eight_times_over_under_each_pacing() {
    let trace = hostile_trace();
    let mut digests = Vec::new();
    for (paced, frozen) in FROZEN {
        let first = plan(&trace, paced);
        assert_not_vacuous(&first, paced);
        for run in 1..8 {
            assert_eq!(
                plan(&trace, paced).digest,
                first.digest,
                "{paced:?}: run {run} diverged"
            );
        }
        digests.push((paced, first.digest));
        assert_eq!(
            first.digest, frozen,
            "{paced:?}: the frozen digest moved: {:#018x}",
            first.digest
        );
    }
    assert!(
        digests.windows(2).all(|pair| pair[0].1 != pair[1].1),
        "pacing changes plans"
    );
}

#[test]
fn moving_one_timestamp_by_one_nanosecond_changes_the_digest_under_each_pacing() {
    let trace = hostile_trace();
    for (paced, _) in FROZEN {
        let baseline = plan(&trace, paced);
        assert_not_vacuous(&baseline, paced);
        let mut perturbed = trace.clone();
        let i = perturbed.len() / 2;
        let Event::Frame(t) = perturbed[i] else {
            panic!("the middle event should be a frame: {:?}", perturbed[i]);
        };
        perturbed[i] = Event::Frame(t + Nanos::from_nanos(1));
        let outcome = plan(&perturbed, paced);
        assert_not_vacuous(&outcome, paced);
        assert_ne!(outcome.digest, baseline.digest, "{paced:?}");
    }
}

#[test]
fn moving_a_frame_across_a_step_boundary_changes_the_world() {
    // Find the frame that ran steps with the least time banked after them
    // (at normal speed, unpaced), and move it to just before the boundary
    // its last step crossed: that step moves to the next frame, which the
    // world must notice.
    let trace = hostile_trace();
    let baseline = plan(&trace, Paced::Off);
    let mut frames = planner(Paced::Off);
    let mut best: Option<(u64, usize, Timestamp)> = None;
    let mut speed = Speed::NORMAL;
    for (i, event) in trace.iter().enumerate() {
        match *event {
            Event::Frame(now) => {
                let plan = frames.begin_frame(now);
                let clean = !plan.clamped() && plan.steps_queued() == 0 && plan.steps_run() > 0;
                if clean
                    && speed == Speed::NORMAL
                    && plan.raw_delta() > Nanos::from_millis(1)
                    && best.is_none_or(|(r, ..)| plan.remainder_units() < r)
                {
                    best = Some((plan.remainder_units(), i, now));
                }
            }
            Event::Speed(s) => {
                speed = s;
                frames.set_speed(s);
            }
            Event::Queue(n) => frames.queue_steps(n),
            Event::Resync(now) => frames.resync(now),
        }
    }
    let (remainder, i, now) = best.expect("some frame ran steps");
    // At normal speed one nanosecond is three units; move back past the bank.
    let back = remainder / 3 + 1;
    assert!(
        back < 200_000,
        "the nearest boundary should be close: {back} ns"
    );
    let mut perturbed = trace.clone();
    perturbed[i] = Event::Frame(now - Nanos::from_nanos(back));
    assert_ne!(plan(&perturbed, Paced::Off).world, baseline.world);
}

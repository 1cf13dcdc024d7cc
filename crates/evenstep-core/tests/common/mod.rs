//! Strategies shared by the property tests: valid configurations and hostile
//! operation sequences. Every property test runs on a fixed seed.

#![allow(dead_code, unreachable_pub)]

use core::num::NonZeroU32;
use core::time::Duration;

use evenstep_core::{FrameId, FrameLoop, Pacing, Rate, Speed, StepBudget, Timestamp, Timestep};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// The fixed-seed configuration every property test uses, so a run is
/// reproducible and a failure is the same failure on every machine.
///
/// A long search is opt-in: `EVENSTEP_PROPERTY_CASES` sets the cases of
/// every property (in place of `cases`) and `EVENSTEP_PROPERTY_SEED` the
/// seed (a `u64`), so a failure found that way is reproduced by the same
/// two variables.
pub fn config(cases: u32) -> Config {
    Config {
        cases: from_env::<u32>("EVENSTEP_PROPERTY_CASES").map_or(cases, |n| n.max(1)),
        rng_seed: RngSeed::Fixed(from_env::<u64>("EVENSTEP_PROPERTY_SEED").unwrap_or(0x0e7e_57e9)),
        failure_persistence: None,
        ..Config::default()
    }
}

/// An optional setting from the environment. A value that does not parse
/// stops the run naming the variable, the value and the valid range.
fn from_env<T: core::str::FromStr + core::fmt::Display + Bounded>(name: &str) -> Option<T> {
    let value = std::env::var(name).ok()?;
    Some(value.parse().unwrap_or_else(|_| {
        panic!(
            "{name}={value:?} is not valid: it must be a whole number from 0 to {}",
            T::MAX
        )
    }))
}

/// The largest value a setting may take, for its error message.
trait Bounded {
    const MAX: Self;
}

impl Bounded for u32 {
    const MAX: u32 = u32::MAX;
}

impl Bounded for u64 {
    const MAX: u64 = u64::MAX;
}

/// Any valid timestep: a rational rate from the whole accepted range, the
/// common display rates, or a whole-nanosecond duration.
pub fn timestep() -> impl Strategy<Value = Timestep> {
    prop_oneof![
        (1_u32..=1_000_000, 1_u32..=3_600)
            .prop_filter_map("out of range", |(n, d)| Timestep::from_ratio(n, d).ok()),
        (any::<u32>(), any::<u32>())
            .prop_filter_map("out of range", |(n, d)| Timestep::from_ratio(n, d).ok()),
        prop::sample::select(vec![
            Timestep::HZ_30,
            Timestep::HZ_50,
            Timestep::HZ_59_94,
            Timestep::HZ_60,
            Timestep::HZ_120,
            Timestep::HZ_144,
        ]),
        (1_u64..=3_600_000_000_000).prop_map(|ns| {
            Timestep::from_duration(core::time::Duration::from_nanos(ns)).unwrap()
        }),
    ]
}

/// Any budget, weighted towards the small ones games use.
pub fn budget() -> impl Strategy<Value = StepBudget> {
    prop_oneof![
        (1_u32..=16).prop_map(|n| StepBudget::try_new(n).unwrap()),
        (1_u32..=u32::MAX).prop_map(|n| StepBudget::try_new(n).unwrap()),
    ]
}

/// Any speed, paused and fast ones included.
pub fn speed() -> impl Strategy<Value = Speed> {
    prop_oneof![
        Just(Speed::NORMAL),
        Just(Speed::PAUSED),
        (0_u16..=8, 1_u16..=8).prop_map(|(n, d)| Speed::new(n, d).unwrap()),
        (any::<u16>(), 1_u16..=u16::MAX).prop_map(|(n, d)| Speed::new(n, d).unwrap()),
    ]
}

/// Any pacing: off, centred, locked, or snapped with a tolerance from 1 µs
/// to 50 ms.
pub fn pacing() -> impl Strategy<Value = Pacing> {
    prop_oneof![
        Just(Pacing::OFF),
        Just(Pacing::CENTRED),
        Just(Pacing::LOCKED),
        (1_u64..=50_000).prop_map(|us| Pacing::snapped(Duration::from_micros(us)).unwrap()),
    ]
}

/// A render cap, or none.
pub fn render_cap() -> impl Strategy<Value = Option<Rate>> {
    prop_oneof![
        Just(None),
        (1_u32..=500).prop_map(|fps| NonZeroU32::new(fps).map(Rate::hz))
    ]
}

/// One thing a caller can do to a planner between frames.
#[derive(Clone, Debug)]
pub enum Op {
    /// A frame this much after the previous timestamp.
    Forward(u64),
    /// A frame this much before the previous timestamp.
    Backward(u64),
    /// A frame at exactly this timestamp.
    At(u64),
    /// Change the speed.
    Speed(Speed),
    /// Queue steps for the next frame.
    Queue(u32),
    /// Forget the gap: the anchor moves to the previous timestamp plus this.
    Resync(u64),
    /// Catch up this much simulation time, unbudgeted.
    CatchUp(u64),
    /// Change the pacing.
    Pacing(Pacing),
    /// Change the render cap.
    Cap(Option<Rate>),
    /// Report the frame `back` frames before the next one shown at the
    /// latest timestamp plus `offset` (see [`report_shown`]).
    Shown { back: u64, offset: i64 },
}

/// Reports the frame `back` frames before the next plan's as shown at
/// `now + offset`: late, missing, out of order, unknown or absurd reports
/// alike; a refused one changes nothing.
pub fn report_shown(frames: &mut FrameLoop, back: u64, offset: i64, now: u64) {
    let frame = FrameId::from_raw(frames.next_frame().get().wrapping_sub(back));
    let at = Timestamp::from_nanos(now.saturating_add_signed(offset));
    let _refused = frames.frame_shown(frame, at);
}

/// A hostile sequence: ordinary frames, jitter, stalls, backwards stamps,
/// arbitrary absolute stamps, speed changes, queued steps and resyncs.
pub fn ops(max_len: usize) -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        8 => (0_u64..40_000_000).prop_map(Op::Forward),
        2 => (0_u64..2_000_000_000).prop_map(Op::Forward),
        1 => any::<u64>().prop_map(Op::Forward),
        1 => (0_u64..50_000_000).prop_map(Op::Backward),
        1 => any::<u64>().prop_map(Op::At),
        1 => speed().prop_map(Op::Speed),
        1 => (0_u32..8).prop_map(Op::Queue),
        1 => (0_u64..1_000_000_000).prop_map(Op::Resync),
        1 => (0_u64..2_000_000_000).prop_map(Op::CatchUp),
        1 => pacing().prop_map(Op::Pacing),
        1 => render_cap().prop_map(Op::Cap),
        2 => (0_u64..40, -50_000_000_i64..50_000_000).prop_map(|(back, offset)| Op::Shown { back, offset }),
        1 => (any::<u64>(), any::<i64>()).prop_map(|(back, offset)| Op::Shown { back, offset }),
    ];
    prop::collection::vec(op, 1..max_len)
}

/// A display-like sequence, for the pacings that learn the display: runs of
/// 8 to 160 frames a refresh apart (60, 59.95, 59.94, 120, 144 or 30 Hz),
/// each stamp early or late by up to 3 ms, with now and then a missed
/// refresh, two frames on one refresh or a stall, and between the runs a few
/// of the hostile operations of [`ops`]: so locked and snapped pacing find a
/// lattice, snap, stand down and put the bank back. In
/// half the runs every frame is reported shown two frames later, at the
/// refresh after its own (two frames on one refresh: the second report is
/// refused), so that display feedback plans too.
pub fn display_ops(runs: usize) -> impl Strategy<Value = Vec<Op>> {
    let period = prop_oneof![
        Just(16_666_667_u64),
        Just(16_680_567),
        Just(16_683_350),
        Just(8_333_333),
        Just(6_944_444),
        Just(33_333_333),
    ];
    let run = (
        period,
        0_u64..=3_000_000,
        8_usize..160,
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(period, jitter, frames, seed, feedback)| {
            let mut rng = SplitMix(seed);
            let period = i64::try_from(period).expect("a period");
            let mut previous = 0_i64;
            let mut lattice = 0_i64;
            let mut run = Vec::with_capacity(frames * 2);
            let mut shown = Vec::with_capacity(frames);
            for _ in 0..frames {
                let refreshes = match rng.below(100) {
                    0..=2 => 2,
                    3..=4 => 0,
                    5 => 5 + rng.below(25),
                    _ => 1,
                };
                lattice += period * i64::try_from(refreshes).expect("a few");
                let stamp = lattice + rng.jitter(jitter);
                run.push(Op::Forward(u64::try_from(stamp - previous).unwrap_or(0)));
                previous = previous.max(stamp);
                shown.push(lattice + period);
                if feedback && shown.len() >= 3 {
                    let at = shown[shown.len() - 3];
                    run.push(Op::Shown {
                        back: 3,
                        offset: at - previous,
                    });
                }
            }
            run
        });
    prop::collection::vec((run, ops(4)), 1..runs).prop_map(|runs| {
        runs.into_iter()
            .flat_map(|(run, between)| run.into_iter().chain(between))
            .collect()
    })
}

/// `SplitMix64`: a tiny, fixed, portable generator, so generated traces are
/// the same on every platform without a dependency whose output could change.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Uniform in `[-amplitude, amplitude]`.
    pub fn jitter(&mut self, amplitude: u64) -> i64 {
        if amplitude == 0 {
            return 0;
        }
        let span = 2 * amplitude + 1;
        i64::try_from(self.next() % span).expect("under 2^63")
            - i64::try_from(amplitude).expect("under 2^63")
    }
}

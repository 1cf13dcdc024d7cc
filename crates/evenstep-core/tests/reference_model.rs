//! The planner agrees, plan for plan, with a plain reference model of the
//! rules in 128-bit arithmetic, with pacing off or centred (snapping depends
//! on the display model and is pinned by `tests/pacing.rs`).

mod common;

use common::{Op, budget, config, ops, timestep};
use evenstep_core::Pacing;
use evenstep_core::{FrameLoop, Nanos, Speed, StepBudget, Timestamp, Timestep};
use proptest::prelude::*;

/// The planner's documented rules (see `FrameLoop`), in 128-bit arithmetic,
/// with no shortcut.
struct Model {
    per_step: u128,
    per_nano: u128,
    budget: u128,
    speed: Speed,
    last: u64,
    bank: u128,
    carry: u128,
    tick: u128,
    queued: u128,
    centred: bool,
    pending: i128,
}

/// What the model says a frame does.
#[derive(Debug, PartialEq, Eq)]
struct Expect {
    raw: u64,
    scaled: u128,
    run: u128,
    queued: u128,
    dropped: u128,
    first_tick: u128,
    remainder: u128,
    clamped: bool,
    phase_shift: i128,
}

impl Model {
    fn new(timestep: Timestep, budget: StepBudget, start: u64, centred: bool) -> Model {
        let per_step = u128::from(timestep.units_per_step());
        Model {
            centred,
            pending: 0,
            per_step: u128::from(timestep.units_per_step()),
            per_nano: u128::from(timestep.units_per_nanosecond()),
            budget: u128::from(budget.get()),
            speed: Speed::NORMAL,
            last: start,
            bank: if centred { per_step / 2 } else { 0 },
            carry: 0,
            tick: 0,
            queued: 0,
        }
    }

    fn set_centred(&mut self, centred: bool) {
        if centred && !self.centred {
            let half = self.per_step / 2;
            self.pending += signed(half) - signed(self.bank);
            self.bank = half;
        }
        self.centred = centred;
    }

    fn set_speed(&mut self, speed: Speed) {
        if speed != self.speed {
            self.carry = 0;
            self.speed = speed;
        }
    }

    fn frame(&mut self, now: u64) -> Expect {
        let raw = now.saturating_sub(self.last);
        self.last = now;
        let (num, den) = (
            u128::from(self.speed.numerator()),
            u128::from(self.speed.denominator()),
        );
        let exact = u128::from(raw) * self.per_nano * num + self.carry;
        let scaled = exact / den;
        self.carry = exact % den;
        let factor = num.div_ceil(den).max(1);
        self.settle(raw, scaled, self.budget * factor, true)
    }

    fn catch_up(&mut self, span: u64) -> Expect {
        self.settle(span, u128::from(span) * self.per_nano, u128::MAX, false)
    }

    fn settle(&mut self, raw: u64, scaled: u128, limit: u128, take_queue: bool) -> Expect {
        let bank = self.bank + scaled;
        let due = bank / self.per_step;
        let room = u128::from(u64::MAX) - self.tick;
        let run = due.min(limit).min(room);
        let queued = if take_queue {
            std::mem::take(&mut self.queued).min(room - run)
        } else {
            0
        };
        let first_tick = self.tick;
        self.tick += run + queued;
        let left = bank % self.per_step;
        let clamped = due > run;
        self.bank = if clamped && self.centred {
            self.per_step / 2
        } else {
            left
        };
        let phase_shift = signed(self.bank) - signed(left) + std::mem::take(&mut self.pending);
        Expect {
            raw,
            scaled,
            run,
            queued,
            dropped: (due - run) * self.per_step,
            first_tick,
            remainder: self.bank,
            clamped,
            phase_shift,
        }
    }
}

/// A bank or step in the model: always far under 2¹²⁷.
fn signed(units: u128) -> i128 {
    i128::try_from(units).expect("a bank fits an i128")
}

fn observed(plan: &evenstep_core::FramePlan) -> Expect {
    Expect {
        raw: plan.raw_delta().as_nanos(),
        scaled: plan.scaled_units(),
        run: u128::from(plan.steps_run() - plan.steps_queued()),
        queued: u128::from(plan.steps_queued()),
        dropped: plan.dropped_units(),
        first_tick: u128::from(plan.first_tick()),
        remainder: u128::from(plan.remainder_units()),
        clamped: plan.clamped(),
        phase_shift: plan.phase_shift_units(),
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn every_plan_matches_the_reference_model(
        timestep in timestep(),
        budget in budget(),
        centred in any::<bool>(),
        start in any::<u64>(),
        ops in ops(64),
    ) {
        let pacing = if centred { Pacing::CENTRED } else { Pacing::OFF };
        let mut frames = FrameLoop::new(timestep, budget, Timestamp::from_nanos(start)).with_pacing(pacing);
        let mut model = Model::new(timestep, budget, start, centred);
        let mut now = start;
        for op in ops {
            let (plan, expect) = match op {
                Op::Forward(by) => { now = now.saturating_add(by); (frames.begin_frame(Timestamp::from_nanos(now)), model.frame(now)) }
                Op::Backward(by) => { now = now.saturating_sub(by); (frames.begin_frame(Timestamp::from_nanos(now)), model.frame(now)) }
                Op::At(t) => { now = t; (frames.begin_frame(Timestamp::from_nanos(now)), model.frame(now)) }
                Op::Speed(s) => { frames.set_speed(s); model.set_speed(s); continue }
                Op::Queue(n) => { frames.queue_steps(n); model.queued += u128::from(n); continue }
                Op::Resync(by) => { now = now.saturating_add(by); frames.resync(Timestamp::from_nanos(now)); model.last = now; continue }
                Op::CatchUp(span) => (frames.catch_up(Nanos::from_nanos(span)), model.catch_up(span)),
                // Snapping is out of the model's scope: it stands for centred.
                Op::Pacing(p) => {
                    let centred = p.is_centred();
                    frames.set_pacing(if centred { Pacing::CENTRED } else { Pacing::OFF });
                    model.set_centred(centred);
                    continue
                }
                // A cap changes only `render`: the plans must not change.
                Op::Cap(cap) => { frames.set_render_cap(cap); continue }
                // Feedback reaches only snapped and locked pacing: the plans must not change.
                Op::Shown { back, offset } => { common::report_shown(&mut frames, back, offset, now); continue }
            };
            prop_assert_eq!(observed(&plan), expect);
        }
    }
}

#[test]
fn deltas_whose_bank_outgrows_64_bits_plan_as_the_model_says() {
    // The bound under which a delta in units plus a bank under one step
    // still fits a `u64`: both sides of it, with the bank as full as it
    // gets, must agree with the model.
    let steps = [
        Timestep::HZ_60,
        Timestep::from_ratio(60_000, 1_001).unwrap(),
        Timestep::from_hz(1_000_000_000).unwrap(),
        Timestep::from_ratio(1, 3_600).unwrap(),
    ];
    for timestep in steps {
        let per_step = timestep.units_per_step();
        let per_nano = timestep.units_per_nanosecond();
        let bound = ((u64::MAX - (per_step - 1)) / per_nano).saturating_add(1);
        for delta in [bound - 2, bound - 1, bound, bound.saturating_add(1)] {
            for centred in [false, true] {
                let pacing = if centred {
                    Pacing::CENTRED
                } else {
                    Pacing::OFF
                };
                let budget = StepBudget::UNLIMITED;
                let mut frames =
                    FrameLoop::new(timestep, budget, Timestamp::ZERO).with_pacing(pacing);
                let mut model = Model::new(timestep, budget, 0, centred);
                // Fill the bank to one unit short of a step (or as near as
                // whole nanoseconds allow) before the big delta.
                let fill = (per_step - 1) / per_nano;
                let plan = frames.begin_frame(Timestamp::from_nanos(fill));
                assert_eq!(observed(&plan), model.frame(fill));
                let now = fill.saturating_add(delta);
                let plan = frames.begin_frame(Timestamp::from_nanos(now));
                assert_eq!(
                    observed(&plan),
                    model.frame(now),
                    "{timestep} delta {delta}"
                );
            }
        }
    }
}

#[test]
fn the_model_is_not_vacuous_it_catches_a_wrong_remainder() {
    // Negative control: a model that forgets to keep the remainder on a clamp
    // disagrees with the planner on a stall.
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::OFF);
    let mut model = Model::new(Timestep::HZ_60, StepBudget::DEFAULT, 0, false);
    let plan = frames.begin_frame(Timestamp::from_nanos(210_000_000));
    let mut expect = model.frame(210_000_000);
    assert_eq!(observed(&plan), expect);
    expect.remainder = 0;
    assert_ne!(observed(&plan), expect);
}

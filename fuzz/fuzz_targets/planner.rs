//! The planner under any configuration and any sequence of frames, setters,
//! catch-ups, hidden frames, changes of step and display feedback (any
//! frame, any time, any order, refused or taken): every plan keeps the
//! conservation law (in each step's units between changes), a blend factor
//! in [0, 1) and consecutive ticks; a change of step keeps the bank as time;
//! and the same input gives the same plans twice.
#![no_main]

use std::num::NonZeroU32;
use std::time::Duration;

use arbitrary::Arbitrary;
use evenstep_core::{
    FrameId, FrameLoop, FramePlan, FrameRateGovernor, Nanos, Pacing, Rate, Speed, StepBudget,
    Timestamp, Timestep,
};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum PacingChoice {
    Off,
    Centred,
    Locked,
    Snapped(u32),
}

impl PacingChoice {
    fn pacing(self) -> Pacing {
        match self {
            PacingChoice::Off => Pacing::OFF,
            PacingChoice::Centred => Pacing::CENTRED,
            PacingChoice::Locked => Pacing::LOCKED,
            PacingChoice::Snapped(micros) => {
                Pacing::snapped(Duration::from_micros(u64::from(micros))).unwrap_or(Pacing::OFF)
            }
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    Forward(u32),
    ForwardFar(u64),
    Backward(u32),
    At(u64),
    Hidden(u32),
    Speed(u16, u16),
    SpeedF64(f64),
    Queue(u32),
    Resync(u64),
    Reset(u64),
    CatchUp(u64),
    Pacing(PacingChoice),
    Cap(u32),
    Budget(u32),
    SetTick(u64),
    Timestep(u32, u32),
    /// Report the frame this many before the next one shown at the latest
    /// timestamp plus this.
    Shown(u8, i32),
    /// Report any frame shown at any time.
    ShownAnywhere(u64, u64),
    /// Give back this many of the latest frame's steps, to run later.
    Refund(u64),
    /// Give back this many of the latest frame's steps, their time dropped.
    Skip(u64),
}

#[derive(Arbitrary, Debug)]
struct Input {
    steps: u32,
    per_seconds: u32,
    budget: u32,
    start: u64,
    pacing: PacingChoice,
    ops: Vec<Op>,
}

/// The accounting of one run since the last reset, in accumulator units.
#[derive(Default)]
struct Ledger {
    start_bank: i128,
    submitted: i128,
    shifted: i128,
    executed: i128,
    dropped: i128,
}

fn run(input: &Input) -> Vec<FramePlan> {
    let timestep = Timestep::from_ratio(input.steps, input.per_seconds).unwrap_or(Timestep::HZ_60);
    let budget = StepBudget::try_new(input.budget).unwrap_or(StepBudget::DEFAULT);
    let mut per_step = i128::from(timestep.units_per_step());
    let mut frames = FrameLoop::new(timestep, budget, Timestamp::from_nanos(input.start))
        .with_pacing(input.pacing.pacing());
    let mut governor = FrameRateGovernor::new();
    let mut ledger = Ledger {
        start_bank: i128::try_from(frames.remainder_units()).unwrap(),
        ..Ledger::default()
    };
    let mut now = input.start;
    let mut plans = Vec::new();
    // Whether steps were given back since the last plan: the bank may
    // then hold whole steps.
    let mut given_back = false;
    for &op in &input.ops {
        let tick_before = frames.tick();
        let plan = match op {
            Op::Forward(by) => {
                now = now.saturating_add(u64::from(by));
                frames.begin_frame(Timestamp::from_nanos(now))
            }
            Op::ForwardFar(by) => {
                now = now.saturating_add(by);
                frames.begin_frame(Timestamp::from_nanos(now))
            }
            Op::Backward(by) => {
                now = now.saturating_sub(u64::from(by));
                frames.begin_frame(Timestamp::from_nanos(now))
            }
            Op::At(at) => {
                now = at;
                frames.begin_frame(Timestamp::from_nanos(now))
            }
            Op::Hidden(by) => {
                now = now.saturating_add(u64::from(by));
                frames.begin_hidden_frame(Timestamp::from_nanos(now))
            }
            Op::CatchUp(span) => frames.catch_up(Nanos::from_nanos(span)),
            Op::Speed(num, den) => {
                if let Ok(speed) = Speed::new(num, den) {
                    frames.set_speed(speed);
                }
                continue;
            }
            Op::SpeedF64(speed) => {
                if let Ok(speed) = Speed::from_f64(speed) {
                    frames.set_speed(speed);
                }
                continue;
            }
            Op::Queue(count) => {
                frames.queue_steps(count);
                continue;
            }
            Op::Resync(by) => {
                now = now.saturating_add(by);
                frames.resync(Timestamp::from_nanos(now));
                continue;
            }
            Op::Shown(back, offset) => {
                let frame =
                    FrameId::from_raw(frames.next_frame().get().wrapping_sub(u64::from(back)));
                let at = now.saturating_add_signed(i64::from(offset));
                let _refused = frames.frame_shown(frame, Timestamp::from_nanos(at));
                continue;
            }
            Op::ShownAnywhere(frame, at) => {
                let _refused =
                    frames.frame_shown(FrameId::from_raw(frame), Timestamp::from_nanos(at));
                continue;
            }
            Op::Reset(at) => {
                now = at;
                frames.reset(Timestamp::from_nanos(now));
                ledger = Ledger {
                    start_bank: i128::try_from(frames.remainder_units()).unwrap(),
                    ..Ledger::default()
                };
                continue;
            }
            Op::Pacing(choice) => {
                frames.set_pacing(choice.pacing());
                continue;
            }
            Op::Cap(fps) => {
                frames.set_render_cap(NonZeroU32::new(fps).map(Rate::hz));
                continue;
            }
            Op::Budget(steps) => {
                if let Ok(budget) = StepBudget::try_new(steps) {
                    frames.set_budget(budget);
                }
                continue;
            }
            Op::SetTick(tick) => {
                frames.set_tick(tick);
                continue;
            }
            Op::Refund(count) | Op::Skip(count) => {
                // The latest plan, or any earlier one: the planner gives back
                // only steps the tick still counts.
                let Some(plan) = plans.last().copied() else {
                    continue;
                };
                let given = match op {
                    Op::Refund(_) => frames.refund_steps(&plan, count),
                    _ => frames.skip_steps(&plan, count),
                };
                assert_eq!(
                    frames.tick(),
                    tick_before - given.refunded - given.dropped,
                    "the tick goes back by the steps given back"
                );
                ledger.executed -= i128::try_from(given.refunded_units + given.dropped_units)
                    .expect("a frame's units fit");
                ledger.dropped += i128::try_from(given.dropped_units).expect("dropped units fit");
                given_back = true;
                continue;
            }
            Op::Timestep(steps, per_seconds) => {
                if let Ok(step) = Timestep::from_ratio(steps, per_seconds) {
                    change_step(&mut frames, step, &mut ledger);
                    per_step = i128::from(frames.timestep().units_per_step());
                }
                continue;
            }
        };
        check_plan(&plan, &frames, tick_before, per_step);
        given_back = false;
        ledger.submitted += i128::try_from(plan.scaled_units()).expect("a frame's units fit");
        ledger.shifted += plan.phase_shift_units();
        ledger.executed += i128::from(plan.steps_run() - plan.steps_queued()) * per_step;
        ledger.dropped += i128::try_from(plan.dropped_units()).expect("dropped units fit");
        governor.observe(plan.raw_delta(), frames.refresh_period());
        let _ = governor.render_cap();
        plans.push(plan);
    }
    let banked = i128::try_from(frames.remainder_units()).unwrap();
    if !given_back
        && plans
            .last()
            .is_some_and(|plan: &FramePlan| plan.timestep() == frames.timestep())
    {
        assert!(banked < per_step, "the bank holds less than a step");
    }
    assert_eq!(
        ledger.submitted + ledger.shifted + ledger.start_bank + frames.pending_phase_shift_units(),
        ledger.executed + ledger.dropped + banked,
        "every submitted unit is executed, dropped or banked"
    );
    plans
}

/// Changes the step, closing the books in the old step's units and opening
/// them in the new one's; the bank is kept as time, to under a unit.
fn change_step(frames: &mut FrameLoop, step: Timestep, ledger: &mut Ledger) {
    let old = frames.timestep();
    if step == old {
        let before = frames.clone();
        frames.set_timestep(step);
        assert_eq!(*frames, before, "a change to the same rate changes nothing");
        return;
    }
    let (bank, shift) = (frames.remainder_units(), frames.phase_shift_units());
    let time = frames.remainder();
    frames.set_timestep(step);
    // A pending shift is counted into the total at the change.
    let shifted = ledger.shifted + frames.phase_shift_units() - shift;
    assert_eq!(
        ledger.submitted + shifted + ledger.start_bank,
        ledger.executed + ledger.dropped + i128::try_from(bank).unwrap(),
        "the books close in the old step's units"
    );
    assert_eq!(frames.pending_phase_shift_units(), 0);
    let expected =
        bank * u128::from(step.units_per_nanosecond()) / u128::from(old.units_per_nanosecond());
    assert_eq!(
        frames.remainder_units(),
        expected,
        "the bank is kept, rounded down to a unit"
    );
    let after = frames.remainder();
    assert!(
        after <= time && time.as_nanos() - after.as_nanos() <= 1,
        "the bank is kept as time: {time:?} became {after:?}"
    );
    *ledger = Ledger {
        start_bank: i128::try_from(frames.remainder_units()).unwrap(),
        ..Ledger::default()
    };
}

fn check_plan(plan: &FramePlan, frames: &FrameLoop, tick_before: u64, per_step: i128) {
    let alpha = plan.alpha().as_f64();
    assert!((0.0..1.0).contains(&alpha), "alpha {alpha}");
    let alpha = plan.alpha().as_f32();
    assert!((0.0..1.0).contains(&alpha), "alpha {alpha}");
    assert_eq!(
        plan.first_tick(),
        tick_before,
        "a plan starts at the next tick"
    );
    assert_eq!(plan.end_tick(), plan.first_tick() + plan.steps_run());
    assert_eq!(
        frames.tick(),
        plan.end_tick(),
        "the tick rises by the steps run"
    );
    assert!(plan.steps_queued() <= plan.steps_run());
    // The count of dropped steps is the dropped time in steps, saturating at
    // u64::MAX (a nanosecond step, a high speed and a jump of centuries), plus
    // queued steps refused at the end of tick numbering.
    let time_dropped =
        u64::try_from(plan.dropped_units() / per_step.unsigned_abs()).unwrap_or(u64::MAX);
    if plan.end_tick() < u64::MAX {
        assert_eq!(plan.steps_dropped(), time_dropped);
    } else {
        assert!(plan.steps_dropped() >= time_dropped);
    }
    assert_eq!(u128::from(plan.remainder_units()), frames.remainder_units());
    let mut steps = plan.steps();
    assert_eq!(steps.len() as u64, plan.steps_run());
    for (k, step) in steps.by_ref().take(64).enumerate() {
        assert_eq!(
            step.tick(),
            plan.first_tick() + k as u64,
            "steps are consecutive"
        );
        assert_eq!(step.sim_time(), frames.sim_time_at(step.tick()));
    }
}

fuzz_target!(|input: Input| {
    let first = run(&input);
    let second = run(&input);
    assert_eq!(first, second, "the planner is a function of its input");
});

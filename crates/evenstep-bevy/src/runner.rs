//! The system that takes the place of `bevy_time`'s
//! `run_fixed_main_schedule` in `RunFixedMainLoop`: one frame, planned by
//! evenstep and run through Bevy's `FixedMain`.

use core::time::Duration;

use bevy_app::FixedMain;
use bevy_ecs::world::World;
use bevy_time::{Fixed, Real, Time, Virtual};
use evenstep_core::{FramePlan, Timestamp};

use crate::planner::{Anchor, Planned, Planner, Readings};
use crate::plugin::check_setup;
use crate::published::{FixedPlan, Stall};
use crate::settings::EvenstepSettings;

/// Runs one frame of the fixed loop: plans it from `Time<Real>` with
/// `Time<Virtual>`'s pause and speed mirrored, runs `FixedMain` once per
/// planned step with `Time<Fixed>` (and the generic `Time`) at that step's
/// exact end, leaves `Time<Fixed>`'s overstep at the plan's blend factor,
/// sets the generic `Time` back to `Time<Virtual>`, and publishes the
/// [`FixedPlan`], any [`Stall`] and any [`Refusal`](crate::Refusal).
///
/// [`EvenstepPlugin`](crate::EvenstepPlugin) schedules it in
/// `RunFixedMainLoop`, in `RunFixedMainLoopSystems::FixedMainLoop`; it is
/// public, as `bevy_time::run_fixed_main_schedule` is, for an app that
/// runs its schedules by hand.
///
/// # Panics
///
/// If the world lacks the resources `TimePlugin` and
/// [`EvenstepPlugin`](crate::EvenstepPlugin) insert, and at the first
/// frame if `bevy_time`'s own runner is still in place (see
/// [`EvenstepPlugin`](crate::EvenstepPlugin)).
pub fn run_fixed_main_loop(world: &mut World) {
    if !world.resource::<Planner>().started() {
        check_setup(world);
    }
    let readings = read(world);
    let Planned {
        plan,
        nominal,
        anchor,
        pacing,
        refresh_period,
        beyond_max_delta,
        refusals,
    } = world.resource_mut::<Planner>().plan(&readings);
    for refusal in refusals.into_iter().flatten() {
        refusal.log();
        world.write_message(refusal);
    }

    let mut fixed = world.resource_mut::<Time<Fixed>>();
    if fixed.timestep() != nominal {
        fixed.set_timestep(nominal);
    }
    let last_overstep = overstep(&plan, nominal);
    run_steps(world, &plan, anchor, nominal, last_overstep);
    set_overstep(&mut world.resource_mut::<Time<Fixed>>(), last_overstep);
    *world.resource_mut::<Time>() = world.resource::<Time<Virtual>>().as_generic();

    let published = FixedPlan::new(plan, pacing, refresh_period, beyond_max_delta);
    match world.get_resource_mut::<FixedPlan>() {
        Some(mut current) => *current = published,
        None => world.insert_resource(published),
    }
    if let Some(stall) = Stall::of(&plan, beyond_max_delta) {
        world.write_message(stall);
    }
}

/// The frame's readings of Bevy's clocks and of the settings.
fn read(world: &World) -> Readings {
    let real = world.resource::<Time<Real>>();
    let virt = world.resource::<Time<Virtual>>();
    let fixed = world.resource::<Time<Fixed>>();
    let now = u64::try_from(real.elapsed().as_nanos()).unwrap_or(u64::MAX);
    Readings {
        real: Timestamp::from_nanos(now),
        max_delta: virt.max_delta(),
        paused: virt.is_paused(),
        relative_speed: virt.relative_speed_f64(),
        settings: *world.resource::<EvenstepSettings>(),
        fixed_step: fixed.timestep(),
        fixed_elapsed: fixed.elapsed(),
    }
}

/// Runs `FixedMain` once for each step of `plan`, `Time<Fixed>` at the
/// step's end and its overstep at the time still banked after it, as
/// Bevy's loop leaves it: the whole steps still to run, plus `last`.
fn run_steps(
    world: &mut World,
    plan: &FramePlan,
    anchor: Anchor,
    nominal: Duration,
    last: Duration,
) {
    let count = plan.steps_run();
    let mut steps = plan.steps();
    let ran = world.try_schedule_scope(FixedMain, |world, schedule| {
        for (done, step) in (1..).zip(steps.by_ref()) {
            let ahead = u32::try_from(count - done).unwrap_or(u32::MAX);
            let end = anchor.elapsed_at(step.sim_time_after());
            advance(
                world,
                end,
                last.saturating_add(nominal.saturating_mul(ahead)),
            );
            schedule.run(world);
        }
    });
    if ran.is_err() {
        // No `FixedMain` to run: the steps still pass in `Time<Fixed>`.
        if let Some(step) = steps.next_back() {
            advance(world, anchor.elapsed_at(step.sim_time_after()), last);
        }
    }
}

/// Advances `Time<Fixed>` to `end` (never back) with `overstep` banked, and
/// sets the generic `Time` to it, as Bevy does for each step.
fn advance(world: &mut World, end: Duration, overstep: Duration) {
    let mut fixed = world.resource_mut::<Time<Fixed>>();
    let delta = end.saturating_sub(fixed.elapsed());
    fixed.advance_by(delta);
    set_overstep(&mut fixed, overstep);
    let generic = fixed.as_generic();
    *world.resource_mut::<Time>() = generic;
}

/// `Time<Fixed>`'s overstep for the plan's blend factor: the remainder as
/// a fraction of the nominal step, rounded to the nearest nanosecond and
/// kept under a step, so `overstep_fraction` is the plan's alpha.
fn overstep(plan: &FramePlan, nominal: Duration) -> Duration {
    let step = nominal.as_nanos();
    let units = u128::from(plan.timestep().units_per_step());
    let remainder = u128::from(plan.remainder_units());
    let nanos = (remainder * step + units / 2) / units;
    let nanos = nanos.min(step.saturating_sub(1));
    Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
}

fn set_overstep(fixed: &mut Time<Fixed>, overstep: Duration) {
    fixed.discard_overstep(Duration::MAX);
    fixed.accumulate_overstep(overstep);
}

//! The plugin: evenstep's runner in `RunFixedMainLoop`, in place of Bevy's.

use bevy_app::{App, Plugin, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::{IntoScheduleConfigs, ScheduleCleanupPolicy};
use bevy_ecs::world::World;
use bevy_time::{Real, Time, TimePlugin, run_fixed_main_schedule};

use crate::planner::Planner;
use crate::published::{Refusal, Stall};
use crate::runner::run_fixed_main_loop;
use crate::settings::EvenstepSettings;

/// Runs Bevy's `FixedMain` on evenstep's planner: add it after Bevy's own
/// plugins (`DefaultPlugins`, `MinimalPlugins`, or `TimePlugin` at least).
///
/// It adds [`EvenstepSettings`] (keeping one already inserted), the
/// [`Stall`] and [`Refusal`] messages (with the `reflect` feature, the
/// plugin's types in the type registry) and [`run_fixed_main_loop`] in
/// `RunFixedMainLoopSystems::FixedMainLoop`, and removes `bevy_time`'s
/// `run_fixed_main_schedule` from there, so that `FixedMain` runs exactly
/// the steps evenstep plans: at once when `TimePlugin` is already in the
/// app, and otherwise in [`Plugin::finish`]. The plan itself
/// ([`FixedPlan`](crate::FixedPlan)) appears at the first frame.
///
/// # Panics
///
/// In [`Plugin::finish`], if the app has no `TimePlugin`: without Bevy's
/// clocks there is nothing to plan from. At the first update, if Bevy's
/// runner is still in place: `TimePlugin` was added after this plugin and
/// the app was updated without `app.finish()` (`App::run` calls it; a test
/// that only calls `app.update()` does not), so `FixedMain` would run twice
/// the planned steps.
#[derive(Clone, Copy, Debug, Default)]
pub struct EvenstepPlugin;

impl Plugin for EvenstepPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<EvenstepSettings>()
            .add_message::<Stall>()
            .add_message::<Refusal>()
            .insert_resource(Planner::new())
            .add_systems(
                RunFixedMainLoop,
                run_fixed_main_loop.in_set(RunFixedMainLoopSystems::FixedMainLoop),
            );
        #[cfg(feature = "reflect")]
        app.register_type::<EvenstepSettings>()
            .register_type::<crate::Budget>()
            .register_type::<crate::FixedPlan>()
            .register_type::<Stall>()
            .register_type::<Refusal>();
        if app.is_plugin_added::<TimePlugin>() {
            // At once, for an app that is updated without `finish`.
            remove_bevys_runner(app);
        }
    }

    fn finish(&self, app: &mut App) {
        assert!(
            app.is_plugin_added::<TimePlugin>(),
            "EvenstepPlugin drives bevy_time's fixed loop: add TimePlugin \
             (or MinimalPlugins, or DefaultPlugins) to the app as well"
        );
        if !app.world().contains_resource::<BevyRunnerRemoved>() {
            remove_bevys_runner(app);
        }
    }
}

/// Set once `bevy_time`'s runner is out of `RunFixedMainLoop`.
#[derive(Resource, Debug)]
struct BevyRunnerRemoved;

/// Takes `bevy_time`'s runner out of `RunFixedMainLoop`: it would run
/// `FixedMain` a second time each frame, on its own accumulator.
fn remove_bevys_runner(app: &mut App) {
    let removed = app.remove_systems_in_set(
        RunFixedMainLoop,
        run_fixed_main_schedule,
        ScheduleCleanupPolicy::RemoveSystemsOnly,
    );
    if let Err(error) = removed {
        log::warn!("EvenstepPlugin found no run_fixed_main_schedule to remove: {error}");
    }
    app.insert_resource(BevyRunnerRemoved);
}

/// Checked at the first frame: the app has Bevy's clocks, and Bevy's
/// runner is out of the way.
///
/// # Panics
///
/// If either is not so, with what to change.
pub(crate) fn check_setup(world: &World) {
    assert!(
        world.contains_resource::<Time<Real>>(),
        "EvenstepPlugin drives bevy_time's fixed loop: add TimePlugin \
         (or MinimalPlugins, or DefaultPlugins) to the app as well"
    );
    assert!(
        world.contains_resource::<BevyRunnerRemoved>(),
        "EvenstepPlugin was added before TimePlugin and the app was updated without \
         app.finish(), so bevy_time's fixed loop is still in place and FixedMain would \
         run twice the planned steps: add TimePlugin (or MinimalPlugins, or \
         DefaultPlugins) before EvenstepPlugin, or call app.finish() and app.cleanup() \
         before the first app.update() (App::run calls them)"
    );
}

//! The plugin: evenstep's runner in `RunFixedMainLoop`, in place of Bevy's.

use bevy_app::{App, Plugin, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy_ecs::schedule::{IntoScheduleConfigs, ScheduleCleanupPolicy};
use bevy_time::{TimePlugin, run_fixed_main_schedule};

use crate::planner::Planner;
use crate::published::Stall;
use crate::runner::run_fixed_main_loop;
use crate::settings::EvenstepSettings;

/// Runs Bevy's `FixedMain` on evenstep's planner: add it after Bevy's own
/// plugins (`DefaultPlugins`, `MinimalPlugins`, or `TimePlugin` at least).
///
/// It adds [`EvenstepSettings`] (keeping one already inserted), the
/// [`Stall`] message and [`run_fixed_main_loop`] in
/// `RunFixedMainLoopSystems::FixedMainLoop`, and, in [`Plugin::finish`],
/// removes `bevy_time`'s `run_fixed_main_schedule` from there, so that
/// `FixedMain` runs exactly the steps evenstep plans. The plan itself
/// ([`FixedPlan`](crate::FixedPlan)) appears at the first frame.
///
/// # Panics
///
/// In [`Plugin::finish`], if the app has no `TimePlugin`: without Bevy's
/// clocks there is nothing to plan from.
#[derive(Clone, Copy, Debug, Default)]
pub struct EvenstepPlugin;

impl Plugin for EvenstepPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<EvenstepSettings>()
            .add_message::<Stall>()
            .insert_resource(Planner::new())
            .add_systems(
                RunFixedMainLoop,
                run_fixed_main_loop.in_set(RunFixedMainLoopSystems::FixedMainLoop),
            );
    }

    fn finish(&self, app: &mut App) {
        assert!(
            app.is_plugin_added::<TimePlugin>(),
            "EvenstepPlugin drives bevy_time's fixed loop: add TimePlugin \
             (or MinimalPlugins, or DefaultPlugins) to the app as well"
        );
        // Bevy's runner would run `FixedMain` a second time each frame, on
        // its own accumulator.
        let removed = app.remove_systems_in_set(
            RunFixedMainLoop,
            run_fixed_main_schedule,
            ScheduleCleanupPolicy::RemoveSystemsOnly,
        );
        if let Err(error) = removed {
            log::warn!("EvenstepPlugin found no run_fixed_main_schedule to remove: {error}");
        }
    }
}

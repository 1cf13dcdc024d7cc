//! The plugin's cost per frame against Bevy's own fixed-loop runner, in the
//! same app: `TimePlugin` on manual time, a 60 Hz step, a 60 Hz frame (one
//! step a frame) and one `FixedUpdate` system. `runner` times the runner
//! system alone (the frame's clocks advanced as `TimePlugin` advances them,
//! then Bevy's `run_fixed_main_schedule` or the plugin's
//! `run_fixed_main_loop`, `FixedMain` included); `update` times a whole
//! `App::update`, with `EvenstepDiagnosticsPlugin` beside the plugin when
//! the `diagnostics` feature is on. `evenstep` is the default settings
//! (locked pacing), `evenstep_bevy_compatible` the Bevy preset. Run with
//! `cargo bench -p evenstep-bevy --features reflect,diagnostics`.

#![allow(
    clippy::needless_pass_by_value,
    reason = "Bevy systems take their parameters by value"
)]

use std::hint::black_box;
use std::time::Duration;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::resource::Resource;
use bevy_ecs::system::ResMut;
use bevy_ecs::world::World;
use bevy_time::{
    Fixed, Real, Time, TimePlugin, TimeUpdateStrategy, Virtual, run_fixed_main_schedule,
    update_virtual_time,
};
use divan::Bencher;
use evenstep_bevy::{EvenstepPlugin, EvenstepSettings, run_fixed_main_loop};

fn main() {
    divan::main();
}

/// 60 Hz, as `Time<Real>` takes a frame: whole nanoseconds.
const FRAME: Duration = Duration::from_nanos(16_666_667);

#[derive(Resource, Default)]
struct Steps(u64);

fn step(mut steps: ResMut<Steps>) {
    steps.0 += 1;
}

/// The app, with the plugin under `evenstep`'s settings or with Bevy's own
/// runner, a second of frames in (so the plugin's pacing has locked).
fn app(evenstep: Option<EvenstepSettings>) -> App {
    let mut app = App::new();
    app.add_plugins(TimePlugin)
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME))
        .init_resource::<Steps>()
        .add_systems(FixedUpdate, step);
    if let Some(settings) = evenstep {
        app.insert_resource(settings).add_plugins(EvenstepPlugin);
        #[cfg(feature = "diagnostics")]
        app.add_plugins(evenstep_bevy::EvenstepDiagnosticsPlugin);
    }
    app.finish();
    app.cleanup();
    for _ in 0..60 {
        app.update();
    }
    app
}

/// What `TimePlugin`'s `time_system` does at the start of a frame.
fn advance_clocks(world: &mut World) {
    let mut real = world.resource_mut::<Time<Real>>();
    real.update_with_duration(FRAME);
    let real = *real;
    world.resource_scope(|world, mut virt: bevy_ecs::world::Mut<Time<Virtual>>| {
        update_virtual_time(&mut world.resource_mut::<Time>(), &mut virt, &real);
    });
}

fn time_runner(bencher: Bencher, evenstep: Option<EvenstepSettings>) {
    let runner = if evenstep.is_some() {
        run_fixed_main_loop
    } else {
        run_fixed_main_schedule
    };
    let mut app = app(evenstep);
    let world = app.world_mut();
    bencher.bench_local(|| {
        advance_clocks(world);
        runner(world);
        black_box(world.resource::<Steps>().0)
    });
}

fn time_update(bencher: Bencher, evenstep: Option<EvenstepSettings>) {
    let mut app = app(evenstep);
    bencher.bench_local(|| {
        app.update();
        black_box(app.world().resource::<Steps>().0)
    });
}

mod runner {
    use super::{Bencher, EvenstepSettings, time_runner};

    /// Bevy's `run_fixed_main_schedule`, a frame of one step.
    #[divan::bench(sample_count = 500, sample_size = 100)]
    fn bevy(bencher: Bencher) {
        time_runner(bencher, None);
    }

    /// The plugin's `run_fixed_main_loop`, a frame of one step.
    #[divan::bench(sample_count = 500, sample_size = 100)]
    fn evenstep(bencher: Bencher) {
        time_runner(bencher, Some(EvenstepSettings::default()));
    }

    /// The plugin's `run_fixed_main_loop` under the Bevy preset.
    #[divan::bench(sample_count = 500, sample_size = 100)]
    fn evenstep_bevy_compatible(bencher: Bencher) {
        time_runner(bencher, Some(EvenstepSettings::bevy_compatible()));
    }
}

mod update {
    use super::{Bencher, EvenstepSettings, time_update};

    /// A whole frame of the app with Bevy's own runner.
    #[divan::bench(sample_count = 500, sample_size = 100)]
    fn bevy(bencher: Bencher) {
        time_update(bencher, None);
    }

    /// A whole frame of the app with the plugin.
    #[divan::bench(sample_count = 500, sample_size = 100)]
    fn evenstep(bencher: Bencher) {
        time_update(bencher, Some(EvenstepSettings::default()));
    }

    /// A whole frame of the app with the plugin under the Bevy preset.
    #[divan::bench(sample_count = 500, sample_size = 100)]
    fn evenstep_bevy_compatible(bencher: Bencher) {
        time_update(bencher, Some(EvenstepSettings::bevy_compatible()));
    }
}

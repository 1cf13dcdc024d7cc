//! The plan as Bevy diagnostics (the `diagnostics` feature): what a
//! frame-time overlay or `LogDiagnosticsPlugin` can show beside the frame
//! rate.

use bevy_app::{App, Plugin, Update};
use bevy_diagnostic::{Diagnostic, DiagnosticPath, Diagnostics, RegisterDiagnostic};
use bevy_ecs::system::Res;

use crate::published::FixedPlan;

/// Publishes each frame's [`FixedPlan`] through `bevy_diagnostic`: the
/// steps run, the time dropped, and the pacing's state. Add it beside
/// [`EvenstepPlugin`](crate::EvenstepPlugin), as Bevy's
/// `FrameTimeDiagnosticsPlugin` is added beside its clocks; read the
/// values from `DiagnosticsStore`, or log them with `LogDiagnosticsPlugin`.
///
/// Measured in `Update`, once a frame, from the frame's plan.
///
/// # Examples
///
/// ```
/// use bevy_app::App;
/// use bevy_time::TimePlugin;
/// use evenstep_bevy::{EvenstepDiagnosticsPlugin, EvenstepPlugin};
///
/// let mut app = App::new();
/// app.add_plugins((TimePlugin, EvenstepPlugin, EvenstepDiagnosticsPlugin));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct EvenstepDiagnosticsPlugin;

impl EvenstepDiagnosticsPlugin {
    /// The steps `FixedMain` ran this frame.
    pub const STEPS: DiagnosticPath = DiagnosticPath::const_new("evenstep/steps");
    /// The simulation time the budget dropped this frame, in milliseconds.
    pub const DROPPED: DiagnosticPath = DiagnosticPath::const_new("evenstep/dropped");
    /// The real time `Time<Virtual>::max_delta` cut off this frame, in
    /// milliseconds (under `Budget::MaxDelta` only; zero otherwise).
    pub const BEYOND_MAX_DELTA: DiagnosticPath =
        DiagnosticPath::const_new("evenstep/beyond_max_delta");
    /// 1 when the frame was snapped to the display's refreshes, 0 when not:
    /// whether the pacing has locked onto the display.
    pub const SNAPPED: DiagnosticPath = DiagnosticPath::const_new("evenstep/snapped");
    /// The display's refresh period as the pacing has learned it, in
    /// milliseconds; measured only on frames where it has one.
    pub const REFRESH_PERIOD: DiagnosticPath = DiagnosticPath::const_new("evenstep/refresh_period");
}

impl Plugin for EvenstepDiagnosticsPlugin {
    fn build(&self, app: &mut App) {
        let in_ms = |path| Diagnostic::new(path).with_suffix("ms");
        app.register_diagnostic(Diagnostic::new(Self::STEPS))
            .register_diagnostic(in_ms(Self::DROPPED))
            .register_diagnostic(in_ms(Self::BEYOND_MAX_DELTA))
            .register_diagnostic(Diagnostic::new(Self::SNAPPED))
            .register_diagnostic(in_ms(Self::REFRESH_PERIOD))
            .add_systems(Update, measure);
    }
}

/// Measures this frame's plan; nothing before the first plan.
fn measure(mut diagnostics: Diagnostics, plan: Option<Res<FixedPlan>>) {
    let Some(plan) = plan else {
        return;
    };
    let ms = |duration: core::time::Duration| duration.as_secs_f64() * 1_000.0;
    diagnostics.add_measurement(&EvenstepDiagnosticsPlugin::STEPS, || {
        plan.steps_run() as f64
    });
    diagnostics.add_measurement(&EvenstepDiagnosticsPlugin::DROPPED, || ms(plan.dropped()));
    diagnostics.add_measurement(&EvenstepDiagnosticsPlugin::BEYOND_MAX_DELTA, || {
        ms(plan.beyond_max_delta())
    });
    diagnostics.add_measurement(&EvenstepDiagnosticsPlugin::SNAPPED, || {
        f64::from(u8::from(plan.snapped()))
    });
    if let Some(period) = plan.refresh_period() {
        diagnostics.add_measurement(&EvenstepDiagnosticsPlugin::REFRESH_PERIOD, || ms(period));
    }
}

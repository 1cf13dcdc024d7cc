//! Bevy's `FixedUpdate`, driven by evenstep.
//!
//! Bevy's fixed loop has no step budget (a stall runs every step it owes,
//! up to `Time<Virtual>`'s `max_delta`, and nothing reports what was lost),
//! rounds its step to whole nanoseconds (sixty 60 Hz steps are 20 ns longer
//! than a second), and runs frames of 0 and 2 steps when frame timestamps
//! jitter around a step boundary. [`EvenstepPlugin`] hands `FixedMain` to
//! evenstep's planner instead: exact rational steps, a budget that reports
//! what it drops, and frame pacing; every system, schedule and crate of the
//! game stays as it is.
//!
//! ```
//! use bevy_app::{App, FixedUpdate};
//! use bevy_time::{Fixed, Time, TimePlugin};
//! use evenstep_bevy::EvenstepPlugin;
//! # use core::time::Duration;
//! # use bevy_time::TimeUpdateStrategy;
//! # use evenstep_bevy::FixedPlan;
//!
//! let mut app = App::new();
//! app.add_plugins(TimePlugin) // or MinimalPlugins, or DefaultPlugins
//!     .add_plugins(EvenstepPlugin)
//!     .insert_resource(Time::<Fixed>::from_hz(60.0))
//!     .add_systems(FixedUpdate, || { /* physics */ });
//! # app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(200)));
//! # app.finish();
//! # app.cleanup();
//! # app.update();
//! # app.update();
//! # let plan = *app.world().resource::<FixedPlan>();
//! # assert_eq!((plan.steps_run(), plan.steps_dropped()), (5, 7));
//! ```
//!
//! # Each frame
//!
//! The plugin takes the place of Bevy's runner in `RunFixedMainLoop`
//! ([`run_fixed_main_loop`] in `RunFixedMainLoopSystems::FixedMainLoop`).
//! Bevy's `run_fixed_main_schedule` is removed as the plugin is added when
//! `TimePlugin` is already there, so an app driven by `app.update()` alone
//! (a headless test) runs the planned steps only; with `TimePlugin` added
//! after the plugin it is removed in `Plugin::finish`, and an app updated
//! without `app.finish()` then panics at the first update, naming both
//! remedies, rather than run `FixedMain` twice a step. Each frame, it:
//!
//! 1. applies [`EvenstepSettings`] and a change of `Time<Fixed>`'s step;
//! 2. plans the frame from **`Time<Real>`**, with `Time<Virtual>`'s pause
//!    and relative speed mirrored onto the planner. Not from
//!    `Time<Virtual>`: it clamps each frame to `max_delta` (250 ms) and
//!    drops the rest without a word, so the budget would never see a stall
//!    longer than that, nor report it whole ([`Budget::MaxDelta`], Bevy's
//!    bound, clamps as `Time<Virtual>` does, and reports what it cut);
//! 3. runs `FixedMain` once per planned step, with `Time<Fixed>` advanced
//!    to that step's exact end and the generic `Time` set to it, as Bevy
//!    does; all of `FixedMain`, so `FixedPostUpdate` still tells Bevy's
//!    messages that a step has run (see *Input in `FixedUpdate`*);
//! 4. leaves `Time<Fixed>`'s overstep so that `overstep_fraction()` is the
//!    plan's alpha (within `f32` rounding), for interpolation crates that
//!    read it, and sets the generic `Time` back to `Time<Virtual>`, as Bevy
//!    does;
//! 5. publishes the plan as the [`FixedPlan`] resource, writes a [`Stall`]
//!    message on a frame whose budget dropped steps, and a [`Refusal`] on
//!    a frame that refused a step or a speed (see *Settings*).
//!
//! # `Time<Fixed>` under the plugin
//!
//! - **Elapsed time is exact.** After `n` steps `Time<Fixed>::elapsed` is
//!   `n` exact steps rounded down to the nanosecond: sixty 60 Hz steps are
//!   exactly one second, and a change of step goes on from where it stood.
//! - **The nominal step is rounded.** `Time<Fixed>::timestep` holds whole
//!   nanoseconds: the exact step rounded to the nearest one (16,666,667 ns
//!   for 60 Hz, 16,683,333 ns for 59.94 Hz). Since elapsed time is exact,
//!   `Time<Fixed>::delta` is the whole nanoseconds from one exact step end
//!   to the next, each end rounded down, so it takes the two values around
//!   the exact step in a repeating pattern: 16,666,666, 16,666,667,
//!   16,666,667 ns, over and over, for 60 Hz; 16,683,333, 16,683,333,
//!   16,683,334 ns for 59.94 Hz; summing to the exact time.
//! - **A `Time<Fixed>` inserted anew** (to reset the fixed clock, or to
//!   change its rate) goes on from the elapsed time it holds, one step a
//!   step: its next step's `delta` is one step, never the time played
//!   before it. The planner's tick, bank and simulation time go on.
//! - **It can run ahead of `Time<Virtual>`.** Its elapsed time is the
//!   planner's simulation time, not `Time<Virtual>`'s. With pacing off it
//!   trails `Time<Virtual>::elapsed`, as in Bevy's loop, by the banked
//!   remainder and what the budget dropped, with two exceptions: a stall
//!   longer than `max_delta` whose steps the budget runs (a budget over
//!   250 ms) puts it ahead by the time `Time<Virtual>` clamped away, and at
//!   a speed other than 1 Bevy rounds each frame's scaled delta to the
//!   nanosecond where the planner keeps the fractions, a nanosecond a frame
//!   at most. Under pacing it can be ahead: centred and snapped pacing
//!   start the bank at half a step, and snapping (locked pacing, the
//!   default, once it has locked; snapped pacing always) banks whole display
//!   refreshes in place of measured deltas, so `Time<Fixed>` leads by up to
//!   about a step, plus the display's rate error against the step over time
//!   (see [`Pacing`]).
//!
//! # Settings
//!
//! [`EvenstepSettings`] is a resource read every frame: the step as an
//! exact [`Timestep`] (59.94 Hz is
//! `Timestep::HZ_59_94`, exactly 60000/1001), the [`Budget`] in steps or as
//! a span, and the [`Pacing`] (locked by default, as
//! in the core).
//!
//! **The step follows `Time<Fixed>` by default** (`timestep: None`): its
//! step is read as the rate of `n` steps every 1 or 1001 seconds whose
//! exact step lies within a nanosecond of it, if there is one
//! (`Time::<Fixed>::from_hz(60.0)` is exactly 60 Hz,
//! `from_hz(60_000.0 / 1_001.0)` exactly 59.94 Hz), and otherwise as the
//! whole nanoseconds it holds (`from_hz(59.94)`, 16,683,350 ns, is not
//! 60000/1001 Hz).
//!
//! **A change of `Time<Fixed>`'s rate** by user code at run time is picked
//! up at the next frame while the settings follow `Time<Fixed>`, as
//! `FrameLoop::set_timestep` takes it (the banked time kept as time, the
//! tick and simulation time going on). While the settings name a step,
//! that step is the one in force: a different rate written to
//! `Time<Fixed>` is refused loudly (a [`Refusal::FixedStep`] message is
//! written and an error logged, naming the setting to change) and
//! `Time<Fixed>` is set back to the step in force. A step longer than an
//! hour, evenstep's longest, runs as steps of an hour, refused in the same
//! way ([`Refusal::StepOutOfRange`]).
//!
//! **Pause and relative speed** are read from `Time<Virtual>` every frame.
//! A pause runs no steps and keeps the blend factor; the frame after the
//! pause ends has a zero delta, so the paused time is not replayed (as in
//! evenstep's `Loop`). Bevy's `f64` speed becomes the nearest fraction with
//! terms up to 65535 (`Speed::from_f64`): decimal speeds such as 0.1, 0.25,
//! 1.5 and 1/3 are exact, and the planner then carries every fraction of a
//! nanosecond where Bevy's `Duration::mul_f64` rounds each frame; a speed
//! that is no such fraction (π, or 10⁻⁶) runs at the nearest one, and a
//! speed above 65535 at 65535, refused with a [`Refusal::Speed`] message
//! and a warning.
//!
//! **`max_delta` no longer hides stalls.** The budget sees the whole real
//! delta and reports it: a 400 ms hitch at 60 Hz is 24 steps due, the
//! budget's run and the rest in the [`Stall`]. `Time<Virtual>` itself still
//! clamps to `max_delta`, so systems reading it (or the generic `Time` in
//! `Update`) see what they saw before.
//!
//! **Bevy's own loop, as a preset.** [`EvenstepSettings::bevy_compatible`]
//! runs the steps Bevy's runner would: each frame's time clamped to
//! `Time<Virtual>::max_delta` (read every frame, [`Budget::MaxDelta`]) and
//! no pacing, so the steps, `overstep_fraction` and the catch-up after a
//! hitch are Bevy's, at any step Bevy holds exactly (64 Hz, its default;
//! at 60 Hz Bevy's rounded step runs 20 ns a second slow, and the plugin's
//! exact one does not). What `max_delta` cut off is reported, in
//! [`FixedPlan::beyond_max_delta`] and a [`Stall`]. One difference stays:
//! the frame after a pause ends plans a zero delta, where Bevy's plays it.
//!
//! ```
//! use bevy_app::App;
//! use bevy_time::TimePlugin;
//! use evenstep_bevy::{EvenstepPlugin, EvenstepSettings};
//!
//! let mut app = App::new();
//! app.add_plugins(TimePlugin)
//!     .insert_resource(EvenstepSettings::bevy_compatible())
//!     .add_plugins(EvenstepPlugin);
//! ```
//!
//! **There is no render cap.** Bevy draws every frame it updates; a cap
//! that only says "skip this draw" has nothing in Bevy to act on. Limit the
//! frame rate in the runner (winit's `UpdateMode`, a frame limiter) instead.
//!
//! # Input in `FixedUpdate`
//!
//! Read input in `FixedUpdate` through a `MessageReader` of Bevy's input
//! messages (`KeyboardInput`, `MouseButtonInput`, `MouseMotion`,
//! `MouseWheel`, ...), never through `ButtonInput::just_pressed` (or
//! `just_released`). `ButtonInput<KeyCode>` is a per-frame resource,
//! updated once a frame in `PreUpdate`: a `FixedUpdate` system asking
//! `just_pressed` sees a press in both steps of a frame that runs two, and
//! misses it in a frame that runs none. Its held state
//! (`ButtonInput::pressed`) is the same snapshot for every step of a frame:
//! right for a held key, blind to a tap that begins and ends within one
//! frame.
//!
//! Messages are kept until a fixed step has run: `TimePlugin` lets Bevy
//! update their buffers (in `First`) only after `FixedPostUpdate` has run,
//! and the plugin runs the whole of `FixedMain` for each step. So a
//! `FixedUpdate` reader reads each message exactly once, in the first step
//! that runs after it was written: never missed, never doubled, across any
//! run of frames without a step, a pause, or a stall the budget clamps, as
//! under Bevy's own loop. Bevy's input messages are written before
//! `RunFixedMainLoop` (by the window's runner between updates, or in
//! `PreUpdate`), so they reach the first step of the frame that received
//! them, or of the next frame that runs one.
//!
//! That is the granularity: a frame. Bevy's input messages carry no
//! timestamp, so the plugin cannot place one within a frame: all of a
//! frame's messages go to the same step, the first that runs after they
//! were written, wherever in the frame's span they happened, and the other
//! steps of that frame read none. Pacing does not move them: under any
//! pacing a message waits only for the next step to run. Messages written
//! during a pause reach the first step after it.
//!
//! **Buttons per step** (the `input` feature): `StepInputPlugin` folds
//! the keyboard and mouse button messages, at the start of every fixed
//! step, into `StepButtons<KeyCode>` and `StepButtons<MouseButton>`: what
//! is `held` at the end of the step, and what was `pressed` and `released`
//! during it, each press in exactly one step, the first after its frame,
//! where `ButtonInput::just_pressed` misses or repeats it
//! (bevyengine/bevy#6183). The granularity is still the frame: a frame's
//! presses all land in the same step, and a press and release within one
//! frame is pressed and released in that step, never held.
//!
//! evenstep's own `Loop` (the `evenstep` crate), for a game that drives
//! its loop itself, places input by time: events are pushed with the time
//! they happened (`Loop::push_input`), and each goes to the first step that
//! ends at or after it. Without pacing (`Pacing::OFF`) that is the step
//! whose wall-clock span holds it, so a press late in a frame of three
//! steps is read by the third. Under pacing (locked, the default) the bank
//! is kept mid-step, so a frame's last step ends half a step before the
//! pump: a press in that last half step waits for the next frame's first
//! step, half a step more input latency (at 60 steps a second on a 60 Hz
//! display, a press in the last 8.3 ms before a pump waits a frame,
//! 16.7 ms). Each step reads its events folded into a `StepInput` (held
//! buttons, presses, summed motion, text); input during a pause goes to
//! paused-input hooks and never reaches a step as a press; and
//! `LoopBuilder::record_input` records every step's input for replay.
//!
//! # Features
//!
//! None by default. The plugin builds on Bevy's sub-crates (`bevy_app`,
//! `bevy_ecs`, `bevy_time`, with `std` only), not on the `bevy` umbrella,
//! and re-exports the planner's types its settings and plan speak in
//! ([`Timestep`], [`Pacing`], [`StepBudget`], [`Speed`], [`FramePlan`],
//! [`Alpha`]), so a game needs no second dependency.
//!
//! - **`input`**: `StepButtons` and `StepInputPlugin` (on `bevy_input`,
//!   default features off): keys and mouse buttons held, pressed and
//!   released per fixed step, each press in exactly one step.
//! - **`reflect`**: `Reflect` on [`EvenstepSettings`], [`Budget`],
//!   [`FixedPlan`], [`Stall`] and [`Refusal`], registered by the plugin
//!   (`bevy_reflect`, and the `bevy_reflect` features of `bevy_app`,
//!   `bevy_ecs` and `bevy_time`). [`Stall`] is reflected field by field;
//!   the others hold the planner's types and are reflected opaquely, as
//!   whole values (evenstep-core has no dependencies, `bevy_reflect`
//!   included): an inspector shows their `Debug` text and can set a new
//!   value, and `ReflectResource` reads and writes the two resources.
//! - **`diagnostics`**: `EvenstepDiagnosticsPlugin` publishes each frame's
//!   steps, dropped time and pacing state through `bevy_diagnostic`.
#![forbid(unsafe_code)]

#[cfg(feature = "diagnostics")]
mod diagnostics;
mod fixed_rate;
mod max_delta;
mod planner;
mod plugin;
mod published;
mod runner;
mod settings;
#[cfg(feature = "input")]
mod step_buttons;
mod virtual_speed;

#[cfg(feature = "diagnostics")]
pub use diagnostics::EvenstepDiagnosticsPlugin;
pub use plugin::EvenstepPlugin;
pub use published::{FixedPlan, Refusal, Stall};
pub use runner::run_fixed_main_loop;
pub use settings::{Budget, EvenstepSettings};
#[cfg(feature = "input")]
pub use step_buttons::{StepButtons, StepInputPlugin, StepInputSystems};

// The planner's types the settings and the plan speak in, so that a game
// needs no second dependency.
pub use evenstep_core::{Alpha, FramePlan, Pacing, Speed, StepBudget, Timestep};

//! Bevy's `FixedUpdate`, driven by evenstep.
//!
//! WIP crate doc.
#![forbid(unsafe_code)]

mod driver;
mod fixed_rate;
mod plugin;
mod published;
mod runner;
mod settings;
mod virtual_speed;

pub use plugin::EvenstepPlugin;
pub use published::{FixedPlan, Stall};
pub use runner::run_fixed_main_loop;
pub use settings::{Budget, EvenstepSettings};

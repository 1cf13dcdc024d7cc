//! Drives an [`evenstep`] loop from a [winit] window.
//!
//! placeholder
#![forbid(unsafe_code)]

mod display;
mod driver;
mod runner;
mod visibility;

pub use display::{Presentation, Refresh, RefreshSource};
pub use driver::{DriverStats, WindowDriver, WindowHandle, WindowOptions, Wake};
pub use runner::{RunError, WindowGame, run};
pub use visibility::Visibility;

//! The browser figures (placeholder).
fn main() {}

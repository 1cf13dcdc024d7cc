//! The process's CPU time, for the window tests and the window figures
//! (`bench/experiments`):
//! a hidden window's cost is judged by the CPU it burns, not by how often
//! it wakes.

use std::time::Duration;

/// CPU time used so far by the whole process: every thread, those that
/// have ended included, from the `CLOCK_PROCESS_CPUTIME_ID` clock. (Summing
/// the threads listed under `/proc/self/task` would miss the ended ones.)
#[cfg(target_os = "linux")]
pub(crate) fn process_cpu_time() -> Option<Duration> {
    let spent = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    let secs = u64::try_from(spent.tv_sec).ok()?;
    let nanos = u32::try_from(spent.tv_nsec).ok()?;
    Some(Duration::new(secs, nanos))
}

/// `None`: only Linux is measured.
#[cfg(not(target_os = "linux"))]
pub(crate) fn process_cpu_time() -> Option<Duration> {
    None
}

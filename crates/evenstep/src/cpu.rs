//! Process CPU time: how much processor time the whole process has used, so
//! a runner (or a benchmark) can say what share of a core it took per second
//! of wall time. Read from Linux's `/proc` files, with no unsafe code and no
//! dependency; elsewhere there is no reading and the figure is `None`.

use std::fs;
use std::time::Duration;

/// Clock ticks a second in `/proc/self/stat`: `USER_HZ`, which Linux fixes at
/// 100 on every architecture whatever the kernel's own tick rate.
const USER_HZ: u64 = 100;

/// The CPU time (user and system) the process has used so far, or `None`
/// where it cannot be read (not Linux, or `/proc` not mounted).
///
/// On Linux it is the sum of every live thread's run time in
/// `/proc/self/task/*/schedstat`, exact to the nanosecond; where the kernel
/// keeps no scheduler statistics, the process's `utime + stime` from
/// `/proc/self/stat`, in 10 ms ticks. Take the difference of two readings:
/// a thread that exited between them takes its time with it from the
/// nanosecond sum, so measure a span in which threads are not torn down.
///
/// # Examples
///
/// ```
/// let before = evenstep::runner::process_cpu_time();
/// let work: u64 = (0..1_000_000_u64).map(|n| n % 7).sum();
/// let after = evenstep::runner::process_cpu_time();
/// if let (Some(before), Some(after)) = (before, after) {
///     assert!(after >= before, "{work}");
/// }
/// ```
pub fn process_cpu_time() -> Option<Duration> {
    threads_run_time().or_else(process_ticks)
}

/// The sum of the first field (time on a CPU, in ns) of each thread's
/// `schedstat`.
fn threads_run_time() -> Option<Duration> {
    let mut total: u64 = 0;
    for entry in fs::read_dir("/proc/self/task").ok()? {
        let path = entry.ok()?.path().join("schedstat");
        // A thread may exit between listing and reading: it is skipped.
        let Ok(text) = fs::read_to_string(path) else {
            continue;
        };
        let run: u64 = text.split_whitespace().next()?.parse().ok()?;
        total = total.saturating_add(run);
    }
    Some(Duration::from_nanos(total))
}

/// `utime + stime` from `/proc/self/stat`, in `USER_HZ` ticks.
fn process_ticks() -> Option<Duration> {
    let text = fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: the
    // fields are counted after its closing one. utime and stime are fields
    // 14 and 15, so the 12th and 13th after it.
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    let ticks = utime.saturating_add(stime);
    Some(Duration::from_millis(ticks.saturating_mul(1_000 / USER_HZ)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn both_readings_are_there_on_linux() {
        assert!(process_ticks().is_some());
        assert!(process_cpu_time().is_some());
    }
}

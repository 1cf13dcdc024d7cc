//! The async host (the `tokio` feature): workers woken by tokio's timers,
//! inside a runtime that already holds the server's sockets, with no
//! runtime thread blocking.
//!
//! tokio's timer wheel counts whole milliseconds and rounds each deadline
//! up to the next, so a room's step runs up to a millisecond after it fell
//! due (half a millisecond on average), and the OS's wake-up latency comes
//! on top. A host that needs its steps closer than that sleeps on threads
//! with [`PreciseSleep`](crate::runner::PreciseSleep) ([`Host::run`],
//! [`Host::spawn`]): a spin before each deadline is what a runtime thread
//! must not do.

use std::io;

use tokio::runtime::{Builder, Runtime};

use crate::host::worker::Worker;
use crate::host::{Host, HostStats, HostThreads};

impl<Z> Host<Z> {
    /// Runs the host until it is stopped or drained: the first worker as
    /// this future, on the caller's current-thread runtime or
    /// [`LocalSet`](tokio::task::LocalSet) (its rooms are not `Send`), the
    /// others on threads of their own, each with a current-thread runtime.
    /// The future waits on tokio's timers and the handle's wake-ups, and
    /// yields between wake-ups, so the runtime's other tasks (the server's
    /// sockets) run between the rooms' pumps. A room's callbacks hand work
    /// to them through channels: a callback is not async, so it sends with
    /// an unbounded channel's `send` or a bounded one's `try_send`.
    ///
    /// Needs a runtime with its time driver enabled.
    ///
    /// # Errors
    ///
    /// The operating system's error if it cannot create a thread or a
    /// runtime for the other workers (the host is then stopped).
    pub async fn run_local(self) -> io::Result<HostStats> {
        let others = self.spawn_workers(1, current_thread_runtime, drive_on_runtime)?;
        run_async(self.worker(0)).await;
        let threads = HostThreads {
            threads: others,
            handle: self.handle(),
        };
        // The others return when this one did (a stop or a drain reaches
        // them all); joining them is still a blocking wait.
        let joined = tokio::task::spawn_blocking(move || threads.join()).await;
        match joined {
            Ok(Ok(stats)) => Ok(stats),
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(error) => Err(io::Error::other(error)),
        }
    }

    /// Runs every worker on a thread of its own, each on a current-thread
    /// runtime woken by tokio's timers, and returns at once.
    ///
    /// # Errors
    ///
    /// The operating system's error if it cannot create a thread or a
    /// runtime (the host is then stopped).
    pub fn spawn_tokio(self) -> io::Result<HostThreads> {
        Ok(HostThreads {
            threads: self.spawn_workers(0, current_thread_runtime, drive_on_runtime)?,
            handle: self.handle(),
        })
    }
}

fn current_thread_runtime() -> io::Result<Runtime> {
    Builder::new_current_thread().enable_time().build()
}

#[allow(
    clippy::needless_pass_by_value,
    reason = "the runtime is the worker's thread's own: it ends with it"
)]
fn drive_on_runtime(worker: Worker, runtime: Runtime) {
    runtime.block_on(run_async(worker));
}

/// A worker's rounds, waiting on tokio: take the handle's commands, wait
/// until the earliest room is due or a handle wakes the worker, pump the
/// rooms that are due.
async fn run_async(mut worker: Worker) {
    worker.begin();
    loop {
        if worker.take_commands().is_break() {
            break;
        }
        let wake = worker.next_wake();
        let wait = wake.saturating_since(worker.clock().now()).as_duration();
        if wait.is_zero() {
            // Behind: still let the runtime's other tasks run.
            tokio::task::yield_now().await;
        } else {
            // Woken by the timer or by a handle: either way, look again.
            let _ = tokio::time::timeout(wait, worker.shared().notify.notified()).await;
        }
        worker.pump_due();
        worker.report();
    }
    worker.finish();
}

//! Coalesced jobs: work that any number of requests run exactly once, before
//! the fixed steps of the next pump. Rebuilding a flow field after fifty road
//! edits is one rebuild, visible to every update that follows it.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

/// A request is waiting for the next run.
const REQUESTED: u8 = 1;
/// A run has taken the request and not yet reached the job (a panicking job
/// before it can leave it so until the next run).
const ARMED: u8 = 2;

/// Requests a coalesced job. Cheap to clone, `Send` and `Sync`: request from
/// a callback, an event handler or another thread.
///
/// # Examples
///
/// ```
/// use evenstep::{Loop, ManualClock, PumpKind};
///
/// let mut game_loop = Loop::<u32>::builder().clock(ManualClock::new()).build()?;
/// let rebuild = game_loop.coalesce(|rebuilds: &mut u32| *rebuilds += 1);
/// for _ in 0..50 {
///     rebuild.request(); // fifty edits...
/// }
/// let mut rebuilds = 0;
/// game_loop.start();
/// let _ = game_loop.pump(&mut rebuilds, PumpKind::Tick);
/// assert_eq!(rebuilds, 1); // ...one rebuild
/// # Ok::<(), evenstep::ConfigError>(())
/// ```
#[must_use = "a job can only be requested through its handle"]
#[derive(Clone)]
pub struct JobHandle {
    id: u64,
    state: Arc<AtomicU8>,
}

impl JobHandle {
    /// Asks for the job to run before the steps of the next pump. Any number
    /// of requests before that pump run it once.
    pub fn request(&self) {
        self.state.fetch_or(REQUESTED, Ordering::Relaxed);
    }

    /// Whether the job will run at the next pump: a request is waiting, or a
    /// pump cut short by a panicking callback did not reach the job.
    pub fn is_requested(&self) -> bool {
        self.state.load(Ordering::Relaxed) != 0
    }
}

impl fmt::Debug for JobHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JobHandle")
            .field("id", &self.id)
            .field("requested", &self.is_requested())
            .finish_non_exhaustive()
    }
}

struct Job<S> {
    id: u64,
    /// `REQUESTED` and `ARMED` bits, shared with the handles. A run turns
    /// every request into `ARMED` before the first job starts, so the set of
    /// jobs a pump runs is fixed then, and clears a job's `ARMED` just before
    /// calling it.
    state: Arc<AtomicU8>,
    run: Box<dyn FnMut(&mut S)>,
}

/// The loop's jobs, in creation order.
pub(crate) struct Jobs<S> {
    jobs: Vec<Job<S>>,
    next_id: u64,
}

impl<S> Jobs<S> {
    pub(crate) fn new() -> Jobs<S> {
        Jobs {
            jobs: Vec::new(),
            next_id: 0,
        }
    }

    pub(crate) fn add(&mut self, run: Box<dyn FnMut(&mut S)>) -> JobHandle {
        let state = Arc::new(AtomicU8::new(0));
        let id = self.next_id;
        self.next_id += 1;
        self.jobs.push(Job {
            id,
            state: Arc::clone(&state),
            run,
        });
        JobHandle { id, state }
    }

    pub(crate) fn remove(&mut self, handle: &JobHandle) -> bool {
        let before = self.jobs.len();
        self.jobs.retain(|job| job.id != handle.id);
        before != self.jobs.len()
    }

    pub(crate) fn len(&self) -> usize {
        self.jobs.len()
    }

    /// Whether the next run has a job to run: one requested since the last
    /// run, or one a panic kept from running.
    pub(crate) fn any_requested(&self) -> bool {
        self.jobs
            .iter()
            .any(|job| job.state.load(Ordering::Relaxed) != 0)
    }

    /// Runs every job requested before this call, once each, in creation
    /// order. Requests made while they run wait for the next call. Returns
    /// how many ran.
    pub(crate) fn run(&mut self, state: &mut S) -> usize {
        let mut any = false;
        for job in &self.jobs {
            // A plain load first: the locked update only when there is news.
            // A job armed by a pump that a panic cut short stays armed.
            let mut now = job.state.load(Ordering::Relaxed);
            if now & REQUESTED != 0 {
                now = job.state.swap(ARMED, Ordering::Relaxed);
            }
            any |= now != 0;
        }
        if !any {
            return 0;
        }
        let mut ran = 0;
        for job in &mut self.jobs {
            // Requests made from here on (by a job, or another thread) keep
            // their own bit and wait for the next run.
            if job.state.fetch_and(!ARMED, Ordering::Relaxed) & ARMED != 0 {
                (job.run)(state);
                ran += 1;
            }
        }
        ran
    }
}

//! Coalesced jobs: work that any number of requests run exactly once, before
//! the fixed steps of the next pump. Rebuilding a flow field after fifty road
//! edits is one rebuild, visible to every update that follows it.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
    requested: Arc<AtomicBool>,
}

impl JobHandle {
    /// Asks for the job to run before the steps of the next pump. Any number
    /// of requests before that pump run it once.
    pub fn request(&self) {
        self.requested.store(true, Ordering::Relaxed);
    }

    /// Whether a request is waiting for the next pump.
    pub fn is_requested(&self) -> bool {
        self.requested.load(Ordering::Relaxed)
    }
}

impl fmt::Debug for JobHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JobHandle")
            .field("id", &self.id)
            .field("requested", &self.is_requested())
            .finish()
    }
}

struct Job<S> {
    id: u64,
    requested: Arc<AtomicBool>,
    /// Set from `requested` at the start of a run, so the set of jobs a pump
    /// runs is fixed before the first one starts.
    armed: bool,
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
        let requested = Arc::new(AtomicBool::new(false));
        let id = self.next_id;
        self.next_id += 1;
        self.jobs.push(Job {
            id,
            requested: Arc::clone(&requested),
            armed: false,
            run,
        });
        JobHandle { id, requested }
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
            .any(|job| job.armed || job.requested.load(Ordering::Relaxed))
    }

    /// Runs every job requested before this call, once each, in creation
    /// order. Requests made while they run wait for the next call. Returns
    /// how many ran.
    pub(crate) fn run(&mut self, state: &mut S) -> usize {
        let mut any = false;
        for job in &mut self.jobs {
            // `|=`: a job armed by a pump that a panic cut short stays armed.
            // A plain load first: the locked swap only when there is news.
            if job.requested.load(Ordering::Relaxed) {
                job.armed |= job.requested.swap(false, Ordering::Relaxed);
            }
            any |= job.armed;
        }
        if !any {
            return 0;
        }
        let mut ran = 0;
        for job in &mut self.jobs {
            if std::mem::take(&mut job.armed) {
                (job.run)(state);
                ran += 1;
            }
        }
        ran
    }
}

//! The host's handle: what another thread (or a room's callback) holds to
//! add rooms, remove them, drain or stop the host, and read its statistics.

use std::error::Error;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use crate::clock::Clock;
use crate::host::room::{Factory, Room, RoomReport, RoomSetup, SharedClock};
use crate::host::stats::{HostStats, HostTally};
use crate::runner::StopHandle;

/// A room's identity, unique over its host's life: the order rooms were
/// added in, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoomId(u64);

impl RoomId {
    /// The number: rooms are numbered from 0 in the order they were added.
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for RoomId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "room {}", self.0)
    }
}

/// What a host refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostError {
    /// A worker count outside `1..=`[`MAX_WORKERS`](crate::host::MAX_WORKERS).
    Workers {
        /// The count asked for.
        given: usize,
    },
    /// A [wake slack](crate::host::HostBuilder::wake_slack) over
    /// [`MAX_WAKE_SLACK`](crate::host::MAX_WAKE_SLACK).
    WakeSlack {
        /// The slack asked for.
        given: Duration,
    },
    /// A room added after [`drain`](HostHandle::drain) or
    /// [`stop`](HostHandle::stop): the host takes no more rooms.
    Closed,
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::Workers { given } => write!(
                f,
                "a host has 1 to {} workers, not {given}",
                crate::host::MAX_WORKERS
            ),
            HostError::WakeSlack { given } => write!(
                f,
                "a host's wake slack is 0 to {:?}, not {given:?}",
                crate::host::MAX_WAKE_SLACK
            ),
            HostError::Closed => {
                f.write_str("the host is draining or stopped: it takes no more rooms")
            }
        }
    }
}

impl Error for HostError {}

/// What a handle asks of a worker; the worker takes them at its next wake.
pub(crate) enum Command {
    Add(RoomId, Factory),
    Remove(RoomId),
    Drain,
    Stop,
}

/// One worker's queue, as the handle and the worker share it.
pub(crate) struct WorkerShared {
    commands: Mutex<Vec<Command>>,
    /// Rooms the worker holds or has queued: what assignment balances.
    pub(crate) rooms: AtomicUsize,
    /// Wakes a worker that sleeps on a [`Sleep`](crate::runner::Sleep).
    pub(crate) signal: StopHandle,
    /// Wakes a worker that waits on tokio's timers.
    #[cfg(feature = "tokio")]
    pub(crate) notify: tokio::sync::Notify,
}

impl WorkerShared {
    fn new() -> WorkerShared {
        WorkerShared {
            commands: Mutex::new(Vec::new()),
            rooms: AtomicUsize::new(0),
            signal: StopHandle::default(),
            #[cfg(feature = "tokio")]
            notify: tokio::sync::Notify::new(),
        }
    }

    fn send(&self, command: Command) {
        lock(&self.commands).push(command);
        self.signal.wake();
        #[cfg(feature = "tokio")]
        self.notify.notify_one();
    }

    /// The commands sent since the last take, in the order they were sent.
    pub(crate) fn take_commands(&self) -> Vec<Command> {
        std::mem::take(&mut *lock(&self.commands))
    }
}

/// Called on a worker's thread with each room that ends.
pub(crate) type EndHook = Arc<dyn Fn(&RoomReport) + Send + Sync>;

/// What the handles and the workers of one host share.
pub(crate) struct HostShared {
    pub(crate) workers: Vec<WorkerShared>,
    pub(crate) clock: SharedClock,
    next_id: AtomicU64,
    open: AtomicBool,
    pub(crate) tally: Mutex<HostTally>,
    pub(crate) on_end: Option<EndHook>,
}

impl HostShared {
    pub(crate) fn new(workers: usize, clock: SharedClock, on_end: Option<EndHook>) -> HostShared {
        HostShared {
            workers: (0..workers).map(|_| WorkerShared::new()).collect(),
            clock,
            next_id: AtomicU64::new(0),
            open: AtomicBool::new(true),
            tally: Mutex::new(HostTally::default()),
            on_end,
        }
    }

    pub(crate) fn tally(&self) -> MutexGuard<'_, HostTally> {
        lock(&self.tally)
    }
}

/// A mutex's guard, poisoned or not: a panic elsewhere leaves a queue or a
/// tally consistent (each is changed in one statement), so it is used on.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Adds, removes and ends a host's rooms from any thread, and reads its
/// statistics: `Send`, `Sync` and cheap to clone. Each call queues work for
/// a worker and wakes it; the worker takes it at once if it sleeps, or after
/// the pump in progress.
#[derive(Clone)]
pub struct HostHandle {
    pub(crate) shared: Arc<HostShared>,
}

impl fmt::Debug for HostHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostHandle")
            .field("workers", &self.shared.workers.len())
            .field("open", &self.shared.open.load(Ordering::SeqCst))
            .finish_non_exhaustive()
    }
}

impl HostHandle {
    /// Adds a room: `factory` runs on the room's worker, builds the room's
    /// loop there (on [`RoomSetup::clock`]) and returns it with its state.
    /// The host starts the loop and pumps it from then on.
    ///
    /// The room goes to the worker with the fewest rooms (the lowest-numbered
    /// of those tied), and stays there: its steps never run on two threads.
    /// A factory that fails or panics ends the room at once as
    /// [`RoomEnd::Refused`](crate::host::RoomEnd::Refused).
    ///
    /// # Errors
    ///
    /// [`HostError::Closed`] once the host drains or stops.
    ///
    /// # Panics
    ///
    /// Never: a host has at least one worker.
    pub fn add<F, E>(&self, factory: F) -> Result<RoomId, HostError>
    where
        F: FnOnce(RoomSetup) -> Result<Room, E> + Send + 'static,
        E: fmt::Display,
    {
        if !self.shared.open.load(Ordering::SeqCst) {
            return Err(HostError::Closed);
        }
        let id = RoomId(self.shared.next_id.fetch_add(1, Ordering::SeqCst));
        let worker = self
            .shared
            .workers
            .iter()
            .min_by_key(|w| w.rooms.load(Ordering::SeqCst))
            .expect("a host has at least one worker");
        worker.rooms.fetch_add(1, Ordering::SeqCst);
        let factory: Factory =
            Box::new(move |setup| factory(setup).map_err(|error| error.to_string()));
        worker.send(Command::Add(id, factory));
        Ok(id)
    }

    /// Removes a room: it ends before its next pump (after the pump in
    /// progress, if it is being pumped), as
    /// [`RoomEnd::Removed`](crate::host::RoomEnd::Removed). An id that has
    /// already ended, or that this host never gave, is ignored.
    pub fn remove(&self, id: RoomId) {
        // The handle does not track which worker holds a room: the workers
        // that do not ignore it.
        for worker in &self.shared.workers {
            worker.send(Command::Remove(id));
        }
    }

    /// Drains the host: it takes no more rooms, lets the running ones run
    /// until they end (their loops stop, or they are removed), then its run
    /// returns. What an orchestrator asks of a server it is about to retire.
    pub fn drain(&self) {
        self.close(|| Command::Drain);
    }

    /// Stops the host: it takes no more rooms, ends every room at once (as
    /// [`RoomEnd::Stopped`](crate::host::RoomEnd::Stopped), after the pump in
    /// progress), and its run returns.
    pub fn stop(&self) {
        self.close(|| Command::Stop);
    }

    fn close(&self, command: impl Fn() -> Command) {
        self.shared.open.store(false, Ordering::SeqCst);
        for worker in &self.shared.workers {
            worker.send(command());
        }
    }

    /// Whether the host still takes rooms (it has not been drained or
    /// stopped).
    pub fn is_open(&self) -> bool {
        self.shared.open.load(Ordering::SeqCst)
    }

    /// Starts the host's statistics afresh from now (the room counts, the
    /// totals, the wake-ups, the wall and CPU times): for figures over a
    /// window, a minute's or a measurement's, not since the start. Rooms'
    /// own figures ([`RoomReport::stats`]) are over their whole life.
    pub fn reset_stats(&self) {
        let now = self.shared.clock.now();
        self.shared.tally().reset(now);
    }

    /// The host's statistics so far: every room's figures summed, with the
    /// lateness percentiles over all their steps, as of each worker's last
    /// wake-up.
    pub fn stats(&self) -> HostStats {
        let rooms = self
            .shared
            .workers
            .iter()
            .map(|w| w.rooms.load(Ordering::SeqCst))
            .sum();
        let now = self.shared.clock.now();
        self.shared.tally().stats(rooms, now)
    }
}

//! A host for many loops: a game server's rooms, each its own [`Loop`] with
//! its own world, step rate, speed and pacing, on a few worker threads.
//!
//! Each worker keeps its rooms in a heap by the instant each is next due
//! ([`Loop::next_due`]), sleeps until the earliest, pumps only the rooms
//! that are due (a [`PumpKind::Tick`](crate::PumpKind::Tick) each, measured
//! as a [`Runner`] measures its loop), and sleeps again: a
//! thousand rooms are one sleeping thread, not a thousand. It sleeps with
//! the runner's [`Sleep`] (by default a [sparing](PreciseSleep::sparing)
//! [`PreciseSleep`]), or, behind the
//! `tokio` feature, on tokio's timers inside a runtime that already holds
//! the server's sockets.
//!
//! A [`Loop`] is not `Send` (its callbacks need not be), so a room is built
//! on its worker, by a `Send` factory given to [`HostHandle::add`]; the
//! room then lives on that worker until it ends. **Rooms are assigned** at
//! the add to the worker with the fewest rooms (the lowest-numbered of those
//! tied) and never move, so a room's steps never run on two threads, nor
//! two at once.
//!
//! A room ends when its loop stops (a match that ends calls `stop` from an
//! update), when a handle removes it, when the host stops, or when one of
//! its callbacks panics: the panic ends that room alone, reported with its
//! id ([`RoomEnd::Panicked`]), and the other rooms run on. Every ending
//! reaches the [`on_room_end`](HostBuilder::on_room_end) hook with the
//! room's figures ([`RoomReport`]); [`HostHandle::stats`] has the whole
//! host's.
//!
//! # Examples
//!
//! Two matches at different rates on a manual clock, so the example runs
//! at once (a server uses [`Host::new`] on the real clock: see
//! `examples/rooms.rs`). Each match ends itself after 3 s; the host is
//! drained at once, so it takes no more rooms and returns when both end.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use evenstep::host::{Host, Room, RoomEnd, RoomReport};
//! use evenstep::{Loop, ManualClock, Timestep, runner::ManualSleep};
//!
//! let clock = ManualClock::new();
//! let ended = Arc::new(Mutex::new(Vec::<RoomReport>::new()));
//! let log = Arc::clone(&ended);
//! let host = Host::builder()
//!     .clock(clock.clone())
//!     .sleeper(ManualSleep::new(clock, std::time::Duration::ZERO))
//!     .on_room_end(move |report| log.lock().unwrap().push(report.clone()))
//!     .build()?;
//! let rooms = host.handle();
//! for hz in [10, 30] {
//!     rooms.add(move |setup| {
//!         let mut game = Loop::<u64>::builder()
//!             .clock(setup.clock())
//!             .timestep(Timestep::from_hz(hz)?)
//!             .build()?;
//!         game.on_update(move |steps, step| {
//!             *steps += 1;
//!             if *steps == 3 * u64::from(hz) {
//!                 step.control().stop(); // the match is over
//!             }
//!         });
//!         Ok::<_, Box<dyn std::error::Error>>(Room::new(game, 0))
//!     })?;
//! }
//! rooms.drain();
//! let stats = host.run()?; // on this thread, until both rooms end
//! let ended = ended.lock().unwrap();
//! assert!(ended.iter().all(|room| room.end == RoomEnd::Finished));
//! assert_eq!(stats.totals.steps, 30 + 90);
//! assert_eq!(stats.totals.lateness.max, evenstep::Nanos::ZERO);
//! assert_eq!(stats.wall, std::time::Duration::from_secs(3));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io;
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use evenstep_core::Nanos;

use crate::clock::{Clock, MonotonicClock};
#[cfg(doc)]
use crate::game_loop::Loop;
use crate::runner::{PreciseSleep, Runner, Sleep};

mod handle;
mod room;
mod stats;
#[cfg(feature = "tokio")]
mod tokio;
mod worker;

pub use handle::{HostError, HostHandle, RoomId};
pub use room::{Room, RoomEnd, RoomReport, RoomSetup, SharedClock};
pub use stats::{HostStats, RoomStats};

use handle::{EndHook, HostShared};
use worker::{Wakes, Worker, run_on_thread};

/// The most workers a host has.
pub const MAX_WORKERS: usize = 256;

/// The longest [wake slack](HostBuilder::wake_slack): 100 ms, two steps of a
/// 20 Hz room. A slack that long already makes every step of a 30 Hz room
/// up to three steps late.
pub const MAX_WAKE_SLACK: Duration = Duration::from_millis(100);

/// Configures a [`Host`]: how many workers, which clock, how they sleep, and
/// what hears of rooms that end.
pub struct HostBuilder<Z> {
    workers: usize,
    clock: SharedClock,
    sleeper: Z,
    idle_wake: Duration,
    wake_slack: Duration,
    on_end: Option<EndHook>,
}

impl<Z> HostBuilder<Z> {
    /// Worker threads (default 1), each with its own rooms and its own
    /// wake-up; 1 to [`MAX_WORKERS`].
    #[must_use = "a builder does nothing until built"]
    pub fn workers(mut self, workers: usize) -> HostBuilder<Z> {
        self.workers = workers;
        self
    }

    /// The clock the host wakes by and its rooms' loops are built on
    /// (default a [`MonotonicClock`]).
    #[must_use = "a builder does nothing until built"]
    pub fn clock(mut self, clock: impl Clock + Send + Sync + 'static) -> HostBuilder<Z> {
        self.clock = Arc::new(clock);
        self
    }

    /// How each worker sleeps (default [`PreciseSleep::sparing`] with the
    /// default margin: a worker whose rooms fall due microseconds apart
    /// would otherwise spin all the time); each worker has a clone.
    #[must_use = "a builder does nothing until built"]
    pub fn sleeper<Y>(self, sleeper: Y) -> HostBuilder<Y> {
        HostBuilder {
            workers: self.workers,
            clock: self.clock,
            sleeper,
            idle_wake: self.idle_wake,
            wake_slack: self.wake_slack,
            on_end: self.on_end,
        }
    }

    /// The longest a worker with nothing due sleeps before it looks again
    /// (default [`Runner::DEFAULT_IDLE_WAKE`]); a room paused by hand with no
    /// real timer is looked at this often. A handle's call wakes a worker at
    /// once whatever this is.
    #[must_use = "a builder does nothing until built"]
    pub fn idle_wake(mut self, idle_wake: Duration) -> HostBuilder<Z> {
        self.idle_wake = idle_wake;
        self
    }

    /// How long after the earliest room falls due a worker wakes (default
    /// zero: at once), 0 to [`MAX_WAKE_SLACK`]. Every room due by then
    /// shares that wake-up, so a worker whose rooms fall due microseconds
    /// apart wakes once a slack instead of once a room, and costs less CPU;
    /// each step then runs up to the slack late (about half of it on
    /// average, measured in `bench/README.md`, "Many rooms on one host").
    /// tokio's timers round every deadline up to their millisecond, so a
    /// slack of 1 ms is about what the host on tokio does anyway. Keep it
    /// under a room's step: a room whose steps wait longer than its step
    /// budget drops steps.
    #[must_use = "a builder does nothing until built"]
    pub fn wake_slack(mut self, slack: Duration) -> HostBuilder<Z> {
        self.wake_slack = slack;
        self
    }

    /// Called on the room's worker with each room that ends, however it
    /// ends. Keep it short: the worker's other rooms wait for it.
    #[must_use = "a builder does nothing until built"]
    pub fn on_room_end(
        mut self,
        hook: impl Fn(&RoomReport) + Send + Sync + 'static,
    ) -> HostBuilder<Z> {
        self.on_end = Some(Arc::new(hook));
        self
    }

    /// The host, not yet running.
    ///
    /// # Errors
    ///
    /// [`HostError::Workers`] for a worker count outside 1 to
    /// [`MAX_WORKERS`], [`HostError::WakeSlack`] for a slack over
    /// [`MAX_WAKE_SLACK`].
    pub fn build(self) -> Result<Host<Z>, HostError> {
        if !(1..=MAX_WORKERS).contains(&self.workers) {
            return Err(HostError::Workers {
                given: self.workers,
            });
        }
        if self.wake_slack > MAX_WAKE_SLACK {
            return Err(HostError::WakeSlack {
                given: self.wake_slack,
            });
        }
        Ok(Host {
            shared: Arc::new(HostShared::new(self.workers, self.clock, self.on_end)),
            sleeper: self.sleeper,
            wakes: Wakes {
                idle: Nanos::from_duration(self.idle_wake).max(Nanos::from_nanos(1)),
                slack: Nanos::from_duration(self.wake_slack),
            },
        })
    }
}

/// Hosts any number of rooms on a few worker threads: see the
/// [module](self).
///
/// Built with [`Host::new`] or [`Host::builder`]; rooms are added from its
/// [`handle`](Host::handle), before it runs or while it does; it runs with
/// [`run`](Host::run) (the first worker on this thread), [`spawn`](Host::spawn)
/// (every worker on a new thread) or, with the `tokio` feature,
/// `run_local` and `spawn_tokio`.
pub struct Host<Z = PreciseSleep> {
    shared: Arc<HostShared>,
    sleeper: Z,
    wakes: Wakes,
}

impl<Z> fmt::Debug for Host<Z> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Host")
            .field("workers", &self.shared.workers.len())
            .field("idle_wake", &self.wakes.idle)
            .field("wake_slack", &self.wakes.slack)
            .finish_non_exhaustive()
    }
}

impl Host<PreciseSleep> {
    /// A host of `workers` threads on the real clock, sleeping with
    /// [`PreciseSleep::sparing`] and the default margin.
    ///
    /// # Errors
    ///
    /// [`HostError::Workers`] for a count outside 1 to [`MAX_WORKERS`].
    pub fn new(workers: usize) -> Result<Host<PreciseSleep>, HostError> {
        Host::builder().workers(workers).build()
    }

    /// A builder, with one worker on the real clock and
    /// [`PreciseSleep::sparing`].
    pub fn builder() -> HostBuilder<PreciseSleep> {
        HostBuilder {
            workers: 1,
            clock: Arc::new(MonotonicClock::new()),
            sleeper: PreciseSleep::sparing(PreciseSleep::DEFAULT_MARGIN),
            idle_wake: Runner::DEFAULT_IDLE_WAKE,
            wake_slack: Duration::ZERO,
            on_end: None,
        }
    }
}

impl<Z> Host<Z> {
    /// The handle that adds and removes rooms, drains and stops the host,
    /// from any thread.
    pub fn handle(&self) -> HostHandle {
        HostHandle {
            shared: Arc::clone(&self.shared),
        }
    }

    /// The number of workers.
    pub fn workers(&self) -> usize {
        self.shared.workers.len()
    }

    fn worker(&self, index: usize) -> Worker {
        Worker::new(index, Arc::clone(&self.shared), self.wakes)
    }

    /// Starts workers `from..` on threads of their own: each gets what
    /// `prepare` made for it (made here, so that an error returns here) and
    /// runs `drive` with it.
    fn spawn_workers<P: Send + 'static>(
        &self,
        from: usize,
        mut prepare: impl FnMut() -> io::Result<P>,
        drive: fn(Worker, P),
    ) -> io::Result<Vec<JoinHandle<()>>> {
        let spawned: io::Result<Vec<_>> = (from..self.workers())
            .map(|index| {
                let prepared = prepare()?;
                // Built on its thread: a worker's rooms are not `Send`.
                let (shared, wakes) = (Arc::clone(&self.shared), self.wakes);
                thread::Builder::new()
                    .name(format!("evenstep-host-{index}"))
                    .spawn(move || drive(Worker::new(index, shared, wakes), prepared))
            })
            .collect();
        // A host that cannot have all its workers has none: those made
        // return at once.
        spawned.inspect_err(|_| self.handle().stop())
    }
}

impl<Z: Sleep + Clone + Send + 'static> Host<Z> {
    /// Runs the host until it is stopped or drained: the first worker on
    /// this thread, the others on threads of their own. Returns the host's
    /// statistics once every worker has returned.
    ///
    /// # Errors
    ///
    /// The operating system's error if it cannot create a worker's thread
    /// (the host is then stopped, and no worker runs).
    ///
    /// # Panics
    ///
    /// Only if the [`on_room_end`](HostBuilder::on_room_end) hook panics (a
    /// room's panic ends only the room); the panic passes through.
    pub fn run(self) -> io::Result<HostStats> {
        let others = self.spawn_workers(1, || Ok(self.sleeper.clone()), run_on_thread)?;
        run_on_thread(self.worker(0), self.sleeper.clone());
        HostThreads {
            threads: others,
            handle: self.handle(),
        }
        .join()
        .map_err(|panic| std::panic::resume_unwind(panic))
    }

    /// Runs every worker on a thread of its own, and returns at once.
    ///
    /// # Errors
    ///
    /// The operating system's error if it cannot create a thread (the
    /// host is then stopped).
    pub fn spawn(self) -> io::Result<HostThreads> {
        Ok(HostThreads {
            threads: self.spawn_workers(0, || Ok(self.sleeper.clone()), run_on_thread)?,
            handle: self.handle(),
        })
    }
}

/// A host's workers on threads of their own, from [`Host::spawn`].
#[derive(Debug)]
#[must_use = "dropping it detaches the workers: they run until the host is stopped or drained"]
pub struct HostThreads {
    threads: Vec<JoinHandle<()>>,
    handle: HostHandle,
}

impl HostThreads {
    /// The host's handle.
    pub fn handle(&self) -> HostHandle {
        self.handle.clone()
    }

    /// Waits for every worker to return (the host stopped or drained), and
    /// returns the host's statistics.
    ///
    /// # Errors
    ///
    /// The panic's payload, if a worker's thread panicked (only the
    /// [`on_room_end`](HostBuilder::on_room_end) hook can make it).
    pub fn join(self) -> thread::Result<HostStats> {
        let mut outcome = Ok(());
        for thread in self.threads {
            if let Err(panic) = thread.join() {
                outcome = Err(panic);
            }
        }
        outcome.map(|()| self.handle.stats())
    }

    /// Drains the host ([`HostHandle::drain`]) and waits for it, as
    /// [`join`](HostThreads::join) does: what a server does on SIGTERM.
    ///
    /// # Errors
    ///
    /// As [`join`](HostThreads::join).
    pub fn drain(self) -> thread::Result<HostStats> {
        self.handle.drain();
        self.join()
    }
}

//! Sleeping until a deadline: the [`Sleep`] trait, [`PreciseSleep`] (an OS
//! sleep, then a short bounded spin) and [`ManualSleep`] (moves a manual
//! clock instead).

use std::thread;
use std::time::Duration;

use evenstep_core::{Nanos, Timestamp};

use crate::clock::{Clock, ManualClock};
#[cfg(doc)]
use crate::runner::Runner;
use crate::runner::StopHandle;

/// How a runner waits for a deadline on a clock.
///
/// An implementation returns once `clock` reads `deadline` or later, or
/// early, as soon as it can, once `stop` [should wake](StopHandle::should_wake)
/// (it is stopped, or a host has new work for its worker).
/// Returning early for any other reason is allowed (the runner checks the
/// time and sleeps again); returning late is lateness the runner reports.
pub trait Sleep {
    /// Waits until `clock` reads `deadline` or later, or until `stop`
    /// should wake.
    fn sleep_until(&mut self, clock: &dyn Clock, deadline: Timestamp, stop: &StopHandle);
}

/// Sleeps on the operating system until `margin` before the deadline, then
/// polls the clock until it reaches the deadline. A stop (or a host's wake)
/// wakes the OS sleep at once.
///
/// The margin trades CPU for punctuality: the spin costs about one margin of
/// CPU per wake-up, and an OS sleep that oversleeps by more than the margin
/// makes the wake-up late. The default, 250 µs, covers Linux's default timer
/// slack (50 µs) and a lightly loaded scheduler; `bench/README.md` ("The
/// headless runner") measures what it costs.
///
/// A [sparing](PreciseSleep::sparing) sleeper spins only before a sleep of
/// at least [`SPARING_SLEEPS`](PreciseSleep::SPARING_SLEEPS) margins, so it
/// spins at most a sixteenth of the time however close its deadlines come:
/// what a host of many rooms, whose deadlines are microseconds apart, needs
/// (the [`Host`](crate::host::Host)'s default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreciseSleep {
    margin: Duration,
    sparing: bool,
}

impl PreciseSleep {
    /// The default margin: 250 µs.
    pub const DEFAULT_MARGIN: Duration = Duration::from_micros(250);

    /// A sleeper whose spin starts `margin` before each deadline
    /// ([`Duration::ZERO`]: OS sleep only).
    pub const fn with_margin(margin: Duration) -> PreciseSleep {
        PreciseSleep {
            margin,
            sparing: false,
        }
    }

    /// How many margins long a sleep must be for a sparing sleeper to spin
    /// its last margin: 16.
    pub const SPARING_SLEEPS: u32 = 16;

    /// A sleeper that spins the last `margin` only before a sleep of at
    /// least [`SPARING_SLEEPS`](PreciseSleep::SPARING_SLEEPS) margins, and
    /// sleeps shorter waits on the OS alone.
    pub const fn sparing(margin: Duration) -> PreciseSleep {
        PreciseSleep {
            margin,
            sparing: true,
        }
    }

    /// The margin before each deadline that is waited out without the OS.
    pub const fn margin(&self) -> Duration {
        self.margin
    }
}

impl Default for PreciseSleep {
    fn default() -> PreciseSleep {
        PreciseSleep::with_margin(PreciseSleep::DEFAULT_MARGIN)
    }
}

impl Sleep for PreciseSleep {
    fn sleep_until(&mut self, clock: &dyn Clock, deadline: Timestamp, stop: &StopHandle) {
        let mut margin = Nanos::from_duration(self.margin);
        let long_enough = margin.saturating_mul(u64::from(PreciseSleep::SPARING_SLEEPS));
        if self.sparing && deadline.saturating_since(clock.now()) < long_enough {
            margin = Nanos::ZERO;
        }
        loop {
            if stop.should_wake() {
                return;
            }
            let now = clock.now();
            if now >= deadline {
                return;
            }
            let left = deadline.saturating_since(now);
            if left > margin {
                // Parked, not slept, so that `StopHandle::stop` can wake it.
                // A park may return early; the loop sleeps again.
                thread::park_timeout((left - margin).as_duration());
            } else {
                // The last stretch, bounded by the margin: handing the core
                // back now could cost a scheduler slice of lateness.
                std::hint::spin_loop();
            }
        }
    }
}

/// Moves a [`ManualClock`] to each deadline (plus a fixed oversleep) instead
/// of sleeping: for tests and tools that run a server's hours in
/// microseconds.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use evenstep::{Loop, ManualClock, Runner, Timestep, runner::ManualSleep};
///
/// let clock = ManualClock::new();
/// let mut server = Loop::<u64>::builder()
///     .clock(clock.clone())
///     .timestep(Timestep::HZ_30)
///     .build()?;
/// server.on_update(|steps, step| {
///     *steps += 1;
///     if step.tick() == 299 {
///         step.control().stop(); // ten seconds of steps, then stop
///     }
/// });
/// // Every wake-up 40 µs late.
/// let mut runner = Runner::with_sleeper(ManualSleep::new(clock.clone(), Duration::from_micros(40)));
/// let mut steps = 0;
/// let report = runner.run(&mut server, &mut steps);
/// assert_eq!(steps, 300);
/// assert_eq!(report.lateness.max, evenstep::Nanos::from_micros(40));
/// # Ok::<(), evenstep::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ManualSleep {
    clock: ManualClock,
    oversleep: Nanos,
}

impl ManualSleep {
    /// Moves `clock` to each deadline plus `oversleep`.
    pub fn new(clock: ManualClock, oversleep: Duration) -> ManualSleep {
        ManualSleep {
            clock,
            oversleep: Nanos::from_duration(oversleep),
        }
    }
}

impl Sleep for ManualSleep {
    fn sleep_until(&mut self, clock: &dyn Clock, deadline: Timestamp, stop: &StopHandle) {
        if stop.should_wake() {
            return;
        }
        let wake = deadline.saturating_add(self.oversleep);
        if wake > clock.now() {
            self.clock.set(wake);
        }
    }
}

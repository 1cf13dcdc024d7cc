//! What rooms and hosts did and cost: [`RoomStats`] for one room,
//! [`HostStats`] for a whole host.

use std::time::Duration;

use evenstep_core::{Nanos, Timestamp};

use crate::runner::{Lateness, LatenessTally, MeasuredPump, process_cpu_time};
use crate::stats::CoarseHistogram;

/// What a room did over its life, or (in [`HostStats::totals`]) all of a
/// host's rooms together. Counts saturate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoomStats {
    /// Pumps that ran.
    pub pumps: u64,
    /// Fixed steps that ran.
    pub steps: u64,
    /// Steps the step budget dropped (a stall longer than the budget).
    pub dropped_steps: u64,
    /// Time the step budget dropped.
    pub dropped: Nanos,
    /// Time spent in the room's pumps, on the host's clock: the CPU the room
    /// cost its worker (the worker runs nothing else meanwhile).
    pub busy: Duration,
    /// How late the steps ran against when they fell due. For one room the
    /// percentiles are within 12.5% of the true value; for a host's totals
    /// ([`HostStats::totals`]), within 3.1%.
    pub lateness: Lateness,
}

/// The counters of [`RoomStats`], without the lateness.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counts {
    pumps: u64,
    steps: u64,
    dropped_steps: u64,
    dropped: Nanos,
    busy: Nanos,
}

impl Counts {
    /// Counts one pump that took `busy`.
    pub(crate) fn count(&mut self, pump: &MeasuredPump, busy: Nanos) {
        self.add(&Counts {
            pumps: 1,
            steps: pump.report.steps,
            dropped_steps: pump.plan().steps_dropped(),
            dropped: pump.plan().dropped(),
            busy,
        });
    }

    pub(crate) fn add(&mut self, other: &Counts) {
        self.pumps = self.pumps.saturating_add(other.pumps);
        self.steps = self.steps.saturating_add(other.steps);
        self.dropped_steps = self.dropped_steps.saturating_add(other.dropped_steps);
        self.dropped = self.dropped.saturating_add(other.dropped);
        self.busy = self.busy.saturating_add(other.busy);
    }

    fn stats(&self, lateness: Lateness) -> RoomStats {
        RoomStats {
            pumps: self.pumps,
            steps: self.steps,
            dropped_steps: self.dropped_steps,
            dropped: self.dropped,
            busy: self.busy.as_duration(),
            lateness,
        }
    }
}

/// One room's figures as its worker keeps them.
pub(crate) struct RoomTally {
    counts: Counts,
    /// Coarse: thousands of rooms each record every step, and a fine
    /// histogram's buckets for a room's usual lateness span four times the
    /// cache lines (the host's own totals keep the fine one).
    lateness: LatenessTally<CoarseHistogram>,
}

impl RoomTally {
    pub(crate) fn new() -> RoomTally {
        RoomTally {
            counts: Counts::default(),
            lateness: LatenessTally::new(),
        }
    }

    /// Counts one pump that took `busy`, in the room and in `batch`.
    pub(crate) fn count(&mut self, pump: &MeasuredPump, busy: Nanos, batch: &mut Batch) {
        self.counts.count(pump, busy);
        batch.counts.count(pump, busy);
        for late in pump.step_lateness() {
            self.lateness.record(late);
            batch.late.push(late);
        }
    }

    pub(crate) fn stats(&self) -> RoomStats {
        self.counts.stats(self.lateness.lateness())
    }
}

/// What a worker did since it last told the host: it tells the host once a
/// wake-up, under one lock, not once a room.
#[derive(Default)]
pub(crate) struct Batch {
    counts: Counts,
    late: Vec<Nanos>,
    /// Rooms that ended, and how many of them panicked or were refused.
    pub(crate) ended: u64,
    pub(crate) panicked: u64,
    pub(crate) refused: u64,
    /// Rooms that started.
    pub(crate) started: u64,
}

/// A host's figures, shared by its workers.
#[derive(Default)]
pub(crate) struct HostTally {
    counts: Counts,
    lateness: Option<LatenessTally>,
    started: u64,
    ended: u64,
    panicked: u64,
    refused: u64,
    wakes: u64,
    /// When the host started running, and the process's CPU time then.
    since: Option<(Timestamp, Option<Duration>)>,
    /// When its last worker returned, and the process's CPU time then.
    until: Option<(Timestamp, Option<Duration>)>,
    running: usize,
}

impl HostTally {
    /// A worker starts at `now`.
    pub(crate) fn worker_starts(&mut self, now: Timestamp) {
        if self.since.is_none() {
            self.since = Some((now, process_cpu_time()));
        }
        self.running += 1;
        self.until = None;
    }

    /// A worker returns at `now`.
    pub(crate) fn worker_ends(&mut self, now: Timestamp) {
        self.running = self.running.saturating_sub(1);
        if self.running == 0 {
            self.until = Some((now, process_cpu_time()));
        }
    }

    /// Forgets everything counted, as of `now`; running workers go on
    /// running.
    pub(crate) fn reset(&mut self, now: Timestamp) {
        let running = self.running;
        *self = HostTally {
            running,
            ..HostTally::default()
        };
        if running > 0 {
            self.since = Some((now, process_cpu_time()));
        }
    }

    /// Takes a worker's batch from one wake-up.
    pub(crate) fn absorb(&mut self, batch: &mut Batch) {
        self.counts.add(&batch.counts);
        let lateness = self.lateness.get_or_insert_with(LatenessTally::new);
        for late in batch.late.drain(..) {
            lateness.record(late);
        }
        self.started += batch.started;
        self.ended += batch.ended;
        self.panicked += batch.panicked;
        self.refused += batch.refused;
        self.wakes += 1;
        let reused = std::mem::take(&mut batch.late);
        *batch = Batch {
            late: reused,
            ..Batch::default()
        };
    }

    pub(crate) fn stats(&self, rooms: usize, now: Timestamp) -> HostStats {
        let lateness = self
            .lateness
            .as_ref()
            .map(LatenessTally::lateness)
            .unwrap_or_default();
        let (wall, cpu) = match self.since {
            None => (Duration::ZERO, None),
            Some((since, cpu_since)) => {
                let (until, cpu_until) = self.until.unwrap_or_else(|| (now, process_cpu_time()));
                let cpu = cpu_since
                    .zip(cpu_until)
                    .map(|(start, end)| end.saturating_sub(start));
                (until.saturating_since(since).as_duration(), cpu)
            }
        };
        HostStats {
            rooms,
            started: self.started,
            ended: self.ended,
            panicked: self.panicked,
            refused: self.refused,
            wakes: self.wakes,
            totals: self.counts.stats(lateness),
            wall,
            cpu,
        }
    }
}

/// What a host did and cost, over its rooms and workers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostStats {
    /// Rooms held or queued now.
    pub rooms: usize,
    /// Rooms that started (their factory built them).
    pub started: u64,
    /// Rooms that ended, however they did (refused ones included).
    pub ended: u64,
    /// Rooms ended by a panic.
    pub panicked: u64,
    /// Rooms whose factory failed or panicked.
    pub refused: u64,
    /// Worker wake-ups that pumped or took work.
    pub wakes: u64,
    /// Every room's figures summed, ended rooms included; the lateness
    /// percentiles are over every step of every room.
    pub totals: RoomStats,
    /// Time on the host's clock since the host started running (to when its
    /// last worker returned, once it has).
    pub wall: Duration,
    /// Process CPU time used since the host started running (`None` where it
    /// cannot be read: see [`process_cpu_time`]). The whole process's, so
    /// measure a process that does little else.
    pub cpu: Option<Duration>,
}

impl HostStats {
    /// CPU time per second of wall time: 0.015 is 1.5% of one core.
    pub fn cpu_share(&self) -> Option<f64> {
        let wall = self.wall.as_secs_f64();
        let cpu = self.cpu?.as_secs_f64();
        (wall > 0.0).then(|| cpu / wall)
    }

    /// CPU time spent outside the rooms' pumps: the host's own scheduling
    /// (and whatever else the process did).
    pub fn overhead(&self) -> Option<Duration> {
        Some(self.cpu?.saturating_sub(self.totals.busy))
    }
}

//! Seconds of real time, and the paints counted in each for fps.

use evenstep_core::Nanos;

const NANOS_PER_SEC: u64 = 1_000_000_000;

/// The second of real time the latest pump fell in.
#[derive(Clone, Copy, Debug)]
pub(super) struct Seconds {
    current: u64,
    /// Where the second after `current` begins, in nanoseconds of real time
    /// (saturating).
    next_at: u64,
}

impl Seconds {
    pub(super) fn new() -> Seconds {
        Seconds {
            current: 0,
            next_at: NANOS_PER_SEC,
        }
    }

    /// The second of real time the latest pump fell in.
    pub(super) fn current(&self) -> u64 {
        self.current
    }

    /// Moves to the second `real_time` falls in, and says whether that is a
    /// new one. Real time never goes back: a second turns when it reaches
    /// the next.
    #[inline]
    pub(super) fn reach(&mut self, real_time: Nanos) -> bool {
        real_time.as_nanos() >= self.next_at && self.turn(real_time)
    }

    /// Real time reached the start of the next second: it becomes the
    /// current one (unless real time has saturated, and the second stays
    /// the last one).
    #[inline(never)]
    fn turn(&mut self, real_time: Nanos) -> bool {
        let second = real_time.as_nanos() / NANOS_PER_SEC;
        self.next_at = (second + 1).saturating_mul(NANOS_PER_SEC);
        // Only at the end of time (real time saturated, and with it the
        // next second's start) does this run within one second.
        let turned = second != self.current;
        self.current = second;
        turned
    }
}

/// Paints per second of real time.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Fps {
    /// The second being counted, and its paints so far.
    second: u64,
    count: u32,
    /// Paints in the last completed second.
    completed: u32,
}

impl Fps {
    /// Counts a paint in the second being counted.
    #[inline]
    pub(super) fn paint(&mut self) {
        self.count += 1;
    }

    /// Real time moved on to `second`: the count rolls over.
    pub(super) fn roll(&mut self, second: u64) {
        if second != self.second {
            // The second just completed is the previous one only if no whole
            // second passed without a pump; otherwise the last completed
            // second saw no paint.
            self.completed = if second == self.second + 1 {
                self.count
            } else {
                0
            };
            self.second = second;
            self.count = 0;
        }
    }

    /// Forgets the counts, keeping the second being counted.
    pub(super) fn reset(&mut self) {
        self.count = 0;
        self.completed = 0;
    }

    /// Paints in the last completed second of real time.
    pub(super) fn fps(&self) -> u32 {
        self.completed
    }
}

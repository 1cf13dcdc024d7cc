//! A second baseline: the physics jitter fix Godot ships, the best widely
//! deployed answer to timestamp jitter in a fixed-step loop. Written for the
//! lab from what Godot's `MainTimerSync` does (`main/main_timer_sync.cpp`,
//! `advance_checked` and `advance_core`, as of commit
//! `005e0542455ecb50ba2829cb83c40f07e2660adf` of godotengine/godot, Godot
//! 4.x), with `physics/common/physics_jitter_fix` at its default of 0.5 and
//! Godot's delta smoothing off (it is a vsync-only feature outside the
//! physics clock).
//!
//! What it does, in its terms: the loop remembers, for the last 1 to 12
//! frames, how many steps those frames ran together, and the "typical"
//! counts (each within one of what was run). A new frame runs the plain
//! accumulator's count unless that breaks the typical pattern, and then the
//! nearest typical count, as long as the accumulator is within
//! `jitter_fix` steps of allowing it. The frame's time handed on is then
//! pulled toward the typical steps' worth and toward what the accumulator
//! allows, and whatever it gave or took (the deficit, at most `jitter_fix`
//! steps) is added to the next frame's time, so no time is lost for good.

/// Frames of step-count history kept.
const CONTROL_STEPS: usize = 12;

/// Godot's physics clock with its jitter fix, in `f64` seconds as Godot
/// keeps it.
///
/// Steps beyond the budget are dropped, as Godot's main loop drops steps
/// past `max_physics_steps_per_frame`.
///
/// # Examples
///
/// ```
/// use evenstep_lab::GodotJitterFix;
///
/// let mut godot = GodotJitterFix::new(60.0, 5);
/// // 60 Hz frames that swing 2 ms early and late run one step each.
/// let steps: Vec<u64> = (0..120)
///     .map(|k| godot.advance(if k % 2 == 0 { 0.018_666 } else { 0.014_666 }))
///     .collect();
/// assert!(steps[12..].iter().all(|&s| s == 1));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct GodotJitterFix {
    steps_per_second: f64,
    step: f64,
    jitter_fix: f64,
    budget: u64,
    /// Steps run by the last `i + 1` frames together.
    accumulated: [i64; CONTROL_STEPS],
    /// The typical step count of `i + 1` consecutive frames (a lower bound:
    /// the count is this or one more).
    typical: [i64; CONTROL_STEPS],
    /// Time banked toward the next step, in seconds.
    bank: f64,
    /// Time owed to (positive) or taken from the next frame, in seconds.
    deficit: f64,
}

/// Godot's default `physics_jitter_fix`.
pub const GODOT_JITTER_FIX: f64 = 0.5;

impl GodotJitterFix {
    /// A clock at `steps_per_second` with Godot's default jitter fix and a
    /// budget of `budget` steps a frame.
    pub fn new(steps_per_second: f64, budget: u32) -> GodotJitterFix {
        // Godot starts each window of `i + 1` frames at `i` steps.
        let history: [i64; CONTROL_STEPS] =
            core::array::from_fn(|i| i64::try_from(i).unwrap_or(i64::MAX));
        GodotJitterFix {
            steps_per_second,
            step: 1.0 / steps_per_second,
            jitter_fix: GODOT_JITTER_FIX,
            budget: u64::from(budget),
            accumulated: history,
            typical: history,
            bank: 0.0,
            deficit: 0.0,
        }
    }

    /// The steps to run for a frame `delta` seconds after the previous one.
    pub fn advance(&mut self, delta: f64) -> u64 {
        self.advance_reporting(delta).0
    }

    /// [`advance`](GodotJitterFix::advance), and the steps over the budget
    /// it dropped.
    pub fn advance_reporting(&mut self, delta: f64) -> (u64, u64) {
        let smallest_time = (delta / 8.0).max(1e-6);
        let owed = delta + self.deficit;
        let (mut steps, mut time) = self.count_steps(owed);
        // Keep what the frame hands on and the bank in step: their
        // difference is fixed now, and the bank follows the clamps below.
        let before_bank = time - self.bank;
        if let Some((low, high)) = self.typical_range() {
            time = time.clamp(low * self.step, high * self.step);
        }
        let deviation = self.jitter_fix * self.step;
        time = time.clamp(owed - deviation, owed + deviation);
        time = time.clamp(before_bank, before_bank + self.step);
        time = time.max(smallest_time);
        self.bank = time - before_bank;
        if self.bank > self.step {
            let extra = (self.bank * self.steps_per_second).floor();
            self.bank -= extra * self.step;
            steps += extra as i64;
        }
        self.deficit = owed - time;
        let steps = u64::try_from(steps.max(0)).unwrap_or(0);
        (steps.min(self.budget), steps.saturating_sub(self.budget))
    }

    /// Godot's physics interpolation fraction after the last frame's steps:
    /// `time_accum / physics_step` (`MainTimerSync::advance_checked`, which
    /// `Engine::get_physics_interpolation_fraction` returns), in `[0, 1]`.
    /// Steps over the budget dropped do not move it, as in Godot's main
    /// loop.
    pub fn interpolation_fraction(&self) -> f64 {
        self.bank / self.step
    }

    /// The accumulator's step count for `time` more seconds, kept to the
    /// typical pattern when the jitter fix allows; updates the history.
    fn count_steps(&mut self, time: f64) -> (i64, f64) {
        self.bank += time;
        let plain = (self.bank * self.steps_per_second).floor() as i64;
        // The counts this frame may run and stay typical of every window of
        // recent frames that ends with it.
        let mut fewest = self.typical[0];
        let mut most = fewest + 1;
        let mut off_pattern = false;
        for i in 0..CONTROL_STEPS - 1 {
            let left = self.typical[i + 1] - self.accumulated[i];
            if left > most || left + 1 < fewest {
                off_pattern = true;
                break;
            }
            fewest = fewest.max(left);
            most = most.min(left + 1);
        }
        let mut steps = plain;
        if plain < fewest {
            let stretched = (self.bank * self.steps_per_second + self.jitter_fix).floor() as i64;
            if stretched < fewest {
                steps = stretched;
                off_pattern = true;
            } else {
                steps = fewest;
            }
        } else if plain > most {
            let squeezed = (self.bank * self.steps_per_second - self.jitter_fix).floor() as i64;
            if squeezed > most {
                steps = squeezed;
                off_pattern = true;
            } else {
                steps = most;
            }
        }
        let steps = steps.max(0);
        self.bank -= steps as f64 * self.step;
        for i in (0..CONTROL_STEPS - 1).rev() {
            self.accumulated[i + 1] = self.accumulated[i] + steps;
        }
        self.accumulated[0] = steps;
        if off_pattern {
            for (typical, &run) in self.typical.iter_mut().zip(&self.accumulated) {
                *typical = (*typical).clamp(run - 1, run);
            }
        }
        (steps, time)
    }

    /// The range of steps a frame averages over the history, when at least
    /// four windows agree on it.
    fn typical_range(&self) -> Option<(f64, f64)> {
        let mut low = self.typical[0] as f64;
        let mut high = low + 1.0;
        let mut consistent = CONTROL_STEPS;
        for i in 1..CONTROL_STEPS {
            let frames = (i + 1) as f64;
            let at_least = self.typical[i] as f64 / frames;
            if at_least > high {
                consistent = i;
                break;
            }
            low = low.max(at_least);
            let at_most = (self.typical[i] + 1) as f64 / frames;
            if at_most < low {
                consistent = i;
                break;
            }
            high = high.min(at_most);
        }
        (consistent > 3).then_some((low, high))
    }
}

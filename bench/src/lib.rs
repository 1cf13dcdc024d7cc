//! Peer fixed-timestep accumulators and evenstep-core behind one adapter
//! shape, plus the synthetic timestamp traces the benchmark drives them with.
//!
//! Every adapter answers `frame(now_ns) -> steps run`: it plans one frame at
//! the absolute timestamp `now_ns` (u64 nanoseconds since the adapter's
//! start, which is always 0), iterates every step of that frame passing a
//! per-step value through `black_box`, computes the render interpolation
//! factor (alpha) and passes it through `black_box` too.
//!
//! [`PlanOnly`] is the one exception, and it is a separate method: planning
//! and step iteration with no alpha, for evenstep-core's published
//! "begin_frame + step iteration" target and renew-frame as its comparison.
//! [`Fed`] is the other: a frame that comes with the time it is shown, for
//! the adapters that report frames shown to evenstep-core (display
//! feedback).
//!
//! No adapter reads a real clock. Ported from the standalone `peerbench`
//! project; see README.md for the caveats of each peer.

#![deny(missing_docs)]

use core::hint::black_box;
use core::num::NonZeroU32;
use core::time::Duration;

/// 1/60 s rounded to the nearest nanosecond: the "60 Hz" step of renew-frame
/// and bevy. evenstep-core's `Timestep::HZ_60` is exactly 1/60 s instead
/// (16_666_666⅔ ns, held as 50_000_000 units of 1/3 ns).
pub const STEP_60HZ_NS: u64 = 16_666_667;

/// The uniform adapter shape used by the benchmark.
pub trait Peer {
    /// Peer name as it appears in bench output.
    const NAME: &'static str;
    /// A fresh accumulator anchored at t = 0 with a 60 Hz step and the given
    /// per-frame step budget (peers without a step budget map it onto their
    /// own knob or ignore it; see each impl).
    fn new(budget: u32) -> Self;
    /// Plan one frame at `now_ns`, run (iterate) its steps, return how many ran.
    fn frame(&mut self, now_ns: u64) -> u64;
    /// Steps the peer *reports* as dropped by its last frame (only renew-frame
    /// and evenstep-core report this; the others return 0 even when they
    /// discard time).
    fn last_dropped(&self) -> u64 {
        0
    }
    /// The alpha / blending factor computed by the last frame.
    fn last_alpha(&self) -> f64;
}

// ---------------------------------------------------------------------------
// 1. renew-frame 0.1.1 — real crate calls.
// ---------------------------------------------------------------------------

/// renew-frame 0.1.1 — **real crate calls**: its `FrameLoop::begin_frame`,
/// driven with `Timestamp::from_nanos(now_ns)`, and `plan.steps()`.
/// Alpha comes from `renew_math::Alpha::new(remainder, timestep)` (a call
/// into the sibling crate renew-math 0.1.1) because renew-frame 0.1.1 has no
/// `alpha()` (its README still shows one; the code moved the division to
/// renew-math). Its 60 Hz step is 16_666_667 ns, not exactly 1/60 s.
pub struct RenewFrame {
    inner: renew_frame::FrameLoop,
    last_dropped: u64,
    last_alpha: f32,
}

impl Peer for RenewFrame {
    const NAME: &'static str = "renew_frame";

    fn new(budget: u32) -> Self {
        use renew_frame::{FrameLoop, StepBudget, Timestamp, Timestep};
        let budget = StepBudget::new(NonZeroU32::new(budget).unwrap_or(NonZeroU32::MIN));
        // Timestep::HZ_60 == Timestep::from_nanos(NonZeroU64::new(16_666_667))
        Self {
            inner: FrameLoop::new(Timestep::HZ_60, budget, Timestamp::from_nanos(0)),
            last_dropped: 0,
            last_alpha: 0.0,
        }
    }

    #[inline]
    fn frame(&mut self, now_ns: u64) -> u64 {
        let plan = self
            .inner
            .begin_frame(renew_frame::Timestamp::from_nanos(now_ns));
        let mut ran = 0u64;
        for step in plan.steps() {
            black_box(step.tick); // the step's tick, as for every peer
            ran += 1;
        }
        self.last_dropped = plan.dropped();
        let alpha = renew_math::Alpha::new(plan.remainder().get(), plan.timestep().nanos());
        self.last_alpha = black_box(alpha.get());
        ran
    }

    fn last_dropped(&self) -> u64 {
        self.last_dropped
    }

    fn last_alpha(&self) -> f64 {
        f64::from(self.last_alpha)
    }
}

// ---------------------------------------------------------------------------
// 2. game-loop 1.3.0 — real crate calls, time injected through its TimeTrait.
// ---------------------------------------------------------------------------

/// A fake clock for game-loop (adapter code, not from the crate).
/// `GameLoop<G, T: TimeTrait, W>` is generic over the time source and
/// `TimeTrait::now()` is an associated fn without `self`, so the injected
/// "now" has to live in a thread-local the adapter sets right before
/// `next_frame`.
#[derive(Clone, Copy)]
pub struct FakeTime(u64);

std::thread_local! {
    static FAKE_NOW_NS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

impl game_loop::TimeTrait for FakeTime {
    #[inline]
    fn now() -> Self {
        FakeTime(FAKE_NOW_NS.with(core::cell::Cell::get))
    }
    #[inline]
    fn sub(&self, other: &Self) -> f64 {
        // Same as game-loop's own `Time`: duration_since(..).as_secs_f64().
        Duration::from_nanos(self.0.saturating_sub(other.0)).as_secs_f64()
    }
    fn supports_sleep() -> bool {
        false
    }
    fn sleep(_seconds: f64) {}
}

/// game-loop 1.3.0 — **real crate calls with injected time**: its own
/// `GameLoop::next_frame` and `blending_factor`, with the clock replaced by
/// [`FakeTime`] through its public `TimeTrait` (one thread-local read per
/// frame instead of `Instant::now()`). `updates_per_second = 60` and
/// `max_frame_time = budget / 60` s (game-loop has no step budget; its
/// only guard clamps the *elapsed time* before it is accumulated, and it
/// reports nothing about the time it threw away).
pub struct GameLoopPeer {
    inner: game_loop::GameLoop<(), FakeTime, ()>,
    last_alpha: f64,
}

impl Peer for GameLoopPeer {
    const NAME: &'static str = "game_loop";

    fn new(budget: u32) -> Self {
        FAKE_NOW_NS.with(|c| c.set(0)); // GameLoop::new calls T::now() twice
        let max_frame_time = f64::from(budget) / 60.0;
        Self {
            inner: game_loop::GameLoop::new((), 60, max_frame_time, ()),
            last_alpha: 0.0,
        }
    }

    #[inline]
    fn frame(&mut self, now_ns: u64) -> u64 {
        FAKE_NOW_NS.with(|c| c.set(now_ns));
        let mut ran = 0u64;
        let _ = self.inner.next_frame(
            |g| {
                black_box(g.number_of_updates()); // the step's tick
                ran += 1;
            },
            |_| {}, // render: nothing
        );
        self.last_alpha = black_box(self.inner.blending_factor());
        ran
    }

    fn last_alpha(&self) -> f64 {
        self.last_alpha
    }
}

// ---------------------------------------------------------------------------
// 3. bevy_time 0.20.1 `Time<Fixed>` — real crate calls.
// ---------------------------------------------------------------------------

/// bevy_time 0.20.1 `Time<Fixed>` — **real crate methods, hand-driven**: not
/// bevy's ECS schedule, but its public methods called in the order
/// `run_fixed_main_schedule` calls their equivalents:
/// `accumulate_overstep(delta)` then, while a whole timestep is banked,
/// `discard_overstep(timestep); advance_by(timestep)` — the public
/// equivalent of the private `expend()`. The delta is the raw trace delta
/// (no `Time<Virtual>` in front, so no `max_delta` clamp; see
/// [`BevyVirtualFixed`]). No step budget: every owed step runs. Leaves out
/// the ECS, the schedule and the per-step `Time = fixed.as_generic()` copy.
/// `from_hz(60.0)` is a 16_666_667 ns step.
pub struct BevyFixed {
    fixed: bevy_time::Time<bevy_time::Fixed>,
    last_ns: u64,
    last_alpha: f64,
}

impl Peer for BevyFixed {
    const NAME: &'static str = "bevy_fixed";

    fn new(_budget: u32) -> Self {
        Self {
            fixed: bevy_time::Time::<bevy_time::Fixed>::from_hz(60.0),
            last_ns: 0,
            last_alpha: 0.0,
        }
    }

    #[inline]
    fn frame(&mut self, now_ns: u64) -> u64 {
        let delta = Duration::from_nanos(now_ns.saturating_sub(self.last_ns));
        self.last_ns = now_ns;
        self.fixed.accumulate_overstep(delta);
        let timestep = self.fixed.timestep();
        let mut ran = 0u64;
        // == `while expend() { run FixedMain }`
        while self.fixed.overstep() >= timestep {
            self.fixed.discard_overstep(timestep);
            self.fixed.advance_by(timestep);
            black_box(self.fixed.elapsed()); // the step's sim time
            ran += 1;
        }
        self.last_alpha = black_box(self.fixed.overstep_fraction_f64());
        ran
    }

    fn last_alpha(&self) -> f64 {
        self.last_alpha
    }
}

/// bevy_time 0.20.1 Real → Virtual → Fixed — **real crate methods and a
/// real public system fn, hand-driven, without the ECS**:
/// `Time<Real>::advance_by(raw)`, then the public system fn `update_virtual_time(&mut Time, &mut
/// Time<Virtual>, &Time<Real>)` (which applies `Time<Virtual>`'s default
/// `max_delta` = 250 ms clamp), then the same accumulate + expend loop as
/// [`BevyFixed`] on `Time<Virtual>::delta()`.
pub struct BevyVirtualFixed {
    real: bevy_time::Time<bevy_time::Real>,
    virt: bevy_time::Time<bevy_time::Virtual>,
    generic: bevy_time::Time<()>,
    fixed: bevy_time::Time<bevy_time::Fixed>,
    last_ns: u64,
    last_alpha: f64,
}

impl Peer for BevyVirtualFixed {
    const NAME: &'static str = "bevy_virtual_fixed";

    fn new(_budget: u32) -> Self {
        Self {
            real: bevy_time::Time::<bevy_time::Real>::default(),
            virt: bevy_time::Time::<bevy_time::Virtual>::default(),
            generic: bevy_time::Time::<()>::default(),
            fixed: bevy_time::Time::<bevy_time::Fixed>::from_hz(60.0),
            last_ns: 0,
            last_alpha: 0.0,
        }
    }

    #[inline]
    fn frame(&mut self, now_ns: u64) -> u64 {
        let raw = Duration::from_nanos(now_ns.saturating_sub(self.last_ns));
        self.last_ns = now_ns;
        self.real.advance_by(raw);
        bevy_time::update_virtual_time(&mut self.generic, &mut self.virt, &self.real);
        self.fixed.accumulate_overstep(self.virt.delta());
        let timestep = self.fixed.timestep();
        let mut ran = 0u64;
        while self.fixed.overstep() >= timestep {
            self.fixed.discard_overstep(timestep);
            self.fixed.advance_by(timestep);
            black_box(self.fixed.elapsed());
            ran += 1;
        }
        self.last_alpha = black_box(self.fixed.overstep_fraction_f64());
        ran
    }

    fn last_alpha(&self) -> f64 {
        self.last_alpha
    }
}

// ---------------------------------------------------------------------------
// 4. evenstep-core (this repository, by path) — real crate calls.
// ---------------------------------------------------------------------------

/// evenstep-core (this repository's `crates/evenstep-core`, by path) —
/// **real crate calls**: `FrameLoop::begin_frame(Timestamp::from_nanos(now_ns))`,
/// `plan.steps()`, `plan.steps_dropped()` and `plan.alpha().as_f32()`.
/// `Timestep::HZ_60` is exactly 1/60 s (a rational step), unlike the
/// 16_666_667 ns of renew-frame and bevy. A budget of 0 is mapped to 1, as
/// [`RenewFrame`] does.
pub struct EvenStep {
    inner: evenstep_core::FrameLoop,
    last_dropped: u64,
    last_alpha: f32,
}

impl EvenStep {
    /// A 60 Hz planner with `pacing`. The peer comparison uses
    /// [`Pacing::OFF`](evenstep_core::Pacing::OFF): the plain accumulator,
    /// like every peer; the pacing group measures the others.
    pub fn paced(budget: u32, pacing: evenstep_core::Pacing) -> Self {
        use evenstep_core::{FrameLoop, StepBudget, Timestamp, Timestep};
        let budget = StepBudget::try_new(budget).unwrap_or(StepBudget::ONE);
        Self {
            inner: FrameLoop::new(Timestep::HZ_60, budget, Timestamp::from_nanos(0))
                .with_pacing(pacing),
            last_dropped: 0,
            last_alpha: 0.0,
        }
    }
}

/// [`EvenStep`] with centred pacing.
pub struct EvenStepCentred(EvenStep);

/// [`EvenStep`] with locked pacing (evenstep-core's default).
pub struct EvenStepLocked(EvenStep);

/// [`EvenStep`] snapped to refresh periods with a 2 ms tolerance.
pub struct EvenStepSnapped(EvenStep);

macro_rules! paced_adapter {
    ($name:ident, $label:literal, $pacing:expr) => {
        impl Peer for $name {
            const NAME: &'static str = $label;

            fn new(budget: u32) -> Self {
                Self(EvenStep::paced(budget, $pacing))
            }

            #[inline]
            fn frame(&mut self, now_ns: u64) -> u64 {
                self.0.frame(now_ns)
            }

            fn last_dropped(&self) -> u64 {
                self.0.last_dropped()
            }

            fn last_alpha(&self) -> f64 {
                self.0.last_alpha()
            }
        }
    };
}

paced_adapter!(
    EvenStepCentred,
    "evenstep_core_centred",
    evenstep_core::Pacing::CENTRED
);
paced_adapter!(
    EvenStepLocked,
    "evenstep_core_locked",
    evenstep_core::Pacing::LOCKED
);
paced_adapter!(
    EvenStepSnapped,
    "evenstep_core_snapped",
    evenstep_core::Pacing::snapped(Duration::from_millis(2)).expect("2 ms is a valid tolerance")
);

impl EvenStep {
    /// [`Peer::frame`], also returning the plan's frame number and whether
    /// it was snapped, for the adapters that report frames shown.
    #[inline]
    fn plan_frame(&mut self, now_ns: u64) -> (u64, evenstep_core::FrameId, bool) {
        let plan = self
            .inner
            .begin_frame(evenstep_core::Timestamp::from_nanos(now_ns));
        let mut ran = 0u64;
        for step in plan.steps() {
            black_box(step.tick()); // the step's tick, as for every peer
            ran += 1;
        }
        self.last_dropped = plan.steps_dropped();
        self.last_alpha = black_box(plan.alpha().as_f32());
        (ran, plan.frame(), plan.snapped())
    }
}

impl Peer for EvenStep {
    const NAME: &'static str = "evenstep_core";

    fn new(budget: u32) -> Self {
        Self::paced(budget, evenstep_core::Pacing::OFF)
    }

    #[inline]
    fn frame(&mut self, now_ns: u64) -> u64 {
        self.plan_frame(now_ns).0
    }

    fn last_dropped(&self) -> u64 {
        self.last_dropped
    }

    fn last_alpha(&self) -> f64 {
        f64::from(self.last_alpha)
    }
}

// ---------------------------------------------------------------------------
// Display feedback (group g only).
// ---------------------------------------------------------------------------

/// Frames that come with the time the display will show them: the shape of
/// group (g). An adapter with display feedback reports each frame shown
/// [`REPORT_LAG`] frames after planning it, as a platform's present timing
/// arrives a few frames late; one without ignores `shown_ns`, so every row
/// of the group pays the same harness.
pub trait Fed: Peer {
    /// Plan one frame at `now_ns`, which the display shows at `shown_ns`,
    /// run its steps and compute its alpha, as [`Peer::frame`] does; an
    /// adapter with feedback first reports the frame planned
    /// [`REPORT_LAG`] frames before. Returns the steps run.
    fn frame_fed(&mut self, now_ns: u64, shown_ns: u64) -> u64;
}

/// How many frames after planning a frame its report comes.
pub const REPORT_LAG: usize = 2;

/// [`EvenStep`] reporting every frame shown [`REPORT_LAG`] frames after
/// planning it, through `FrameLoop::frame_shown`, before planning the next.
pub struct EvenStepFed {
    inner: EvenStep,
    /// The frames planned and not reported yet, with their shown times,
    /// in the order planned, modulo [`REPORT_LAG`].
    pending: [Option<(evenstep_core::FrameId, u64)>; REPORT_LAG],
    next: usize,
    last_snapped: bool,
    refused: u64,
}

impl EvenStepFed {
    /// A 60 Hz planner with `pacing` that will be told when frames are shown.
    pub fn paced(budget: u32, pacing: evenstep_core::Pacing) -> Self {
        Self {
            inner: EvenStep::paced(budget, pacing),
            pending: [None; REPORT_LAG],
            next: 0,
            last_snapped: false,
            refused: 0,
        }
    }

    /// The planner, to read what feedback has taught it.
    pub fn frames(&self) -> &evenstep_core::FrameLoop {
        &self.inner.inner
    }

    /// Whether the last frame's plan was snapped.
    pub fn last_snapped(&self) -> bool {
        self.last_snapped
    }

    /// Reports the planner refused (none on the benched trace).
    pub fn refused(&self) -> u64 {
        self.refused
    }

    /// [`Fed::frame_fed`]: report the frame planned [`REPORT_LAG`] frames
    /// ago, then plan this one.
    #[inline]
    fn frame_fed(&mut self, now_ns: u64, shown_ns: u64) -> u64 {
        let slot = &mut self.pending[self.next];
        if let Some((frame, at)) = slot.take() {
            let at = evenstep_core::Timestamp::from_nanos(at);
            if self.inner.inner.frame_shown(frame, at).is_err() {
                self.refused += 1;
            }
        }
        let (ran, frame, snapped) = self.inner.plan_frame(now_ns);
        self.pending[self.next] = Some((frame, shown_ns));
        self.next = (self.next + 1) % REPORT_LAG;
        self.last_snapped = snapped;
        ran
    }
}

/// [`EvenStepFed`] with pacing off: what taking the reports costs a
/// planner that does not use them.
pub struct EvenStepOffFed(pub EvenStepFed);

/// [`EvenStepFed`] with locked pacing (evenstep-core's default), which
/// plans each frame for its predicted showing once the reports are trusted.
pub struct EvenStepLockedFed(pub EvenStepFed);

macro_rules! fed_adapter {
    ($name:ident, $label:literal, $pacing:expr) => {
        impl Peer for $name {
            const NAME: &'static str = $label;

            fn new(budget: u32) -> Self {
                Self(EvenStepFed::paced(budget, $pacing))
            }

            /// Without a shown time there is nothing to report.
            #[inline]
            fn frame(&mut self, now_ns: u64) -> u64 {
                self.0.inner.frame(now_ns)
            }

            fn last_dropped(&self) -> u64 {
                self.0.inner.last_dropped()
            }

            fn last_alpha(&self) -> f64 {
                self.0.inner.last_alpha()
            }
        }

        impl Fed for $name {
            #[inline]
            fn frame_fed(&mut self, now_ns: u64, shown_ns: u64) -> u64 {
                self.0.frame_fed(now_ns, shown_ns)
            }
        }
    };
}

impl AsRef<EvenStepFed> for EvenStepOffFed {
    fn as_ref(&self) -> &EvenStepFed {
        &self.0
    }
}

impl AsRef<EvenStepFed> for EvenStepLockedFed {
    fn as_ref(&self) -> &EvenStepFed {
        &self.0
    }
}

fed_adapter!(
    EvenStepOffFed,
    "evenstep_core_off_fed",
    evenstep_core::Pacing::OFF
);
fed_adapter!(
    EvenStepLockedFed,
    "evenstep_core_locked_fed",
    evenstep_core::Pacing::LOCKED
);

/// Adapters without feedback: the shown time is not theirs to know.
macro_rules! unfed {
    ($($name:ident),*) => {
        $(impl Fed for $name {
            #[inline]
            fn frame_fed(&mut self, now_ns: u64, _shown_ns: u64) -> u64 {
                self.frame(now_ns)
            }
        })*
    };
}

unfed!(EvenStep, EvenStepLocked, Harness);

// ---------------------------------------------------------------------------
// The harness floor.
// ---------------------------------------------------------------------------

/// Not a planner: it plans nothing and runs one pretend step per frame, so
/// its time is what the harness itself costs per frame (the trace load, the
/// wrap check, `black_box`, divan's loop). Subtract it from a row to see
/// what the planner costs.
pub struct Harness {
    last: u64,
}

impl Peer for Harness {
    const NAME: &'static str = "harness_floor";

    fn new(_budget: u32) -> Self {
        Self { last: 0 }
    }

    #[inline]
    fn frame(&mut self, now_ns: u64) -> u64 {
        self.last = black_box(now_ns);
        1
    }

    fn last_alpha(&self) -> f64 {
        0.0
    }
}

impl PlanOnly for Harness {
    #[inline]
    fn frame_no_alpha(&mut self, now_ns: u64) -> u64 {
        self.frame(now_ns)
    }
}

// ---------------------------------------------------------------------------
// The no-alpha variant (second bench group only).
// ---------------------------------------------------------------------------

/// "`begin_frame` + step iteration only": the same adapter and the same
/// crate calls as [`Peer::frame`], minus the alpha and the drop bookkeeping.
/// It exists for evenstep-core's published per-frame target, which covers
/// exactly this; renew-frame implements it too, for comparison. After a
/// `frame_no_alpha`, [`Peer::last_alpha`] and [`Peer::last_dropped`] are
/// stale.
pub trait PlanOnly: Peer {
    /// Plan one frame at `now_ns` and iterate its steps (each through
    /// `black_box`); return how many ran. No alpha is computed.
    fn frame_no_alpha(&mut self, now_ns: u64) -> u64;
}

impl PlanOnly for EvenStep {
    #[inline]
    fn frame_no_alpha(&mut self, now_ns: u64) -> u64 {
        let plan = self
            .inner
            .begin_frame(evenstep_core::Timestamp::from_nanos(now_ns));
        let mut ran = 0u64;
        for step in plan.steps() {
            black_box(step.tick());
            ran += 1;
        }
        ran
    }
}

impl PlanOnly for RenewFrame {
    #[inline]
    fn frame_no_alpha(&mut self, now_ns: u64) -> u64 {
        let plan = self
            .inner
            .begin_frame(renew_frame::Timestamp::from_nanos(now_ns));
        let mut ran = 0u64;
        for step in plan.steps() {
            black_box(step.tick);
            ran += 1;
        }
        ran
    }
}

// ---------------------------------------------------------------------------
// Traces. All timestamps are absolute u64 ns from an origin of 0.
// ---------------------------------------------------------------------------

/// Number of frames in the cycling traces (a) and (b).
pub const CYCLE: usize = 1024;
/// Steady frames that precede the spike frame in traces (c) and (d).
pub const WARMUP_FRAMES: usize = 60;

/// Frame k of an exact `hz` display: round(k * 1e9 / hz). For 60 Hz the
/// deltas are 16_666_667 / 16_666_666 / 16_666_667 / ... (exact 1/60 s average).
pub fn display_ts(k: u64, hz: u64) -> u64 {
    (k * 1_000_000_000 + hz / 2) / hz
}

/// The display time one cycle of a trace at `hz` spans: each replay of a
/// cycling trace is shifted by this much more than the last, so one adapter
/// sees one display running on, as a game's one planner does, and a planner
/// that learns the display (snapped pacing) learns it once, not once a cycle.
pub fn cycle_span(hz: u64) -> u64 {
    display_ts(CYCLE as u64, hz)
}

/// Phase of the display timeline relative to the accumulators' start (t = 0):
/// half a 60 Hz step. With phase 0 every 60 Hz frame lands exactly on a step
/// boundary and ns/f64 rounding decides 0/1/2 steps per frame;
/// half a step keeps every peer at a steady 1 step per frame with alpha ~0.5.
pub const PHASE_NS: u64 = 8_333_333;

/// (a) 60 Hz display, frames 1..=CYCLE.
pub fn trace_steady_60_phase(phase: u64) -> Vec<u64> {
    (1..=CYCLE as u64)
        .map(|k| phase + display_ts(k, 60))
        .collect()
}
/// (a) at the benched phase, [`PHASE_NS`].
pub fn trace_steady_60() -> Vec<u64> {
    trace_steady_60_phase(PHASE_NS)
}

/// (f) a 60 Hz display with ±0.75 ms of timestamp jitter (a fixed
/// pattern), at the benched phase: where snapping has work to do.
pub fn trace_jittery_60() -> Vec<u64> {
    const JITTER: [i64; 8] = [
        0, 410_000, -730_000, 150_000, 690_000, -280_000, -560_000, 320_000,
    ];
    (1..=CYCLE as u64)
        .map(|k| (PHASE_NS + display_ts(k, 60)).saturating_add_signed(JITTER[k as usize % 8]))
        .collect()
}

/// The pipeline's latch in trace (g): a frame stamped `t` is shown at the
/// first refresh at or after `t` plus this.
pub const SHOWN_LATCH_NS: u64 = 10_000_000;

/// (g) trace (f), each frame with the time it is shown: the first refresh
/// at or after its timestamp plus [`SHOWN_LATCH_NS`], on the 60 Hz display
/// the timestamps jitter around (refresh `n` at `PHASE_NS + display_ts(n, 60)`).
/// With ±0.75 ms of jitter, every frame is shown on the refresh after the
/// one it is stamped near, so the latency is steady.
pub fn trace_jittery_60_shown() -> Vec<(u64, u64)> {
    let mut refresh = 0;
    trace_jittery_60()
        .into_iter()
        .map(|t| {
            let latch = t + SHOWN_LATCH_NS;
            while PHASE_NS + display_ts(refresh, 60) < latch {
                refresh += 1;
            }
            (t, PHASE_NS + display_ts(refresh, 60))
        })
        .collect()
}

/// (b) 144 Hz display, frames 1..=CYCLE.
pub fn trace_display_144_phase(phase: u64) -> Vec<u64> {
    (1..=CYCLE as u64)
        .map(|k| phase + display_ts(k, 144))
        .collect()
}
/// (b) at the benched phase, [`PHASE_NS`].
pub fn trace_display_144() -> Vec<u64> {
    trace_display_144_phase(PHASE_NS)
}

/// (c)/(d) WARMUP_FRAMES steady 60 Hz frames, then one frame 12 × 1/60 s
/// (= exactly 200 ms) long. The last element is the spike frame.
pub fn trace_spike_200ms_phase(phase: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (1..=WARMUP_FRAMES as u64)
        .map(|k| phase + display_ts(k, 60))
        .collect();
    let last = *v.last().unwrap_or(&0);
    v.push(last + 200_000_000);
    v
}
/// (c)/(d) at the benched phase, [`PHASE_NS`].
pub fn trace_spike_200ms() -> Vec<u64> {
    trace_spike_200ms_phase(PHASE_NS)
}

/// Budget used for traces (a), (b), (c): large enough that all 12 catch-up steps run.
pub const BUDGET_LARGE: u32 = 16;
/// Budget used for trace (d): 5 steps.
pub const BUDGET_OVERLOAD: u32 = 5;

//! One planner of each kind the lab compares, behind one interface: give it
//! each frame's timestamp, get the steps it runs. The naive accumulator and
//! Godot's jitter fix count in `f64` seconds as they do in the wild;
//! evenstep's planner in its exact integers.

use evenstep_core::{FrameId, FrameLoop, Timestamp};

use crate::config::{Config, Settings};
use crate::godot::GodotJitterFix;
use crate::step_ends::StepSpan;

/// The naive accumulator's clamp on one frame's delta, in seconds.
pub(crate) const NAIVE_CLAMP_SECS: f64 = 0.25;
const NAIVE_CLAMP_NANOS: u64 = 250_000_000;

/// A planner of one [`Config`], anchored at a timestamp (the frame before
/// the first).
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Config, Planner, Settings};
///
/// let mut naive = Planner::new(Config::NaiveF64, &Settings::default(), 0);
/// assert_eq!(naive.frame(16_000_000), 0); // just under a step
/// assert_eq!(naive.frame(34_000_000), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Planner {
    kind: Kind,
    last: u64,
    /// Time dropped so far, in the planner's own terms (see
    /// [`dropped_nanos`](Planner::dropped_nanos)).
    dropped_units: u128,
    step_nanos: f64,
    /// Whether display feedback reaches it ([`Config::Feedback`]).
    feedback: bool,
}

#[derive(Clone, Debug)]
enum Kind {
    Naive { bank: f64, step: f64 },
    Godot(Box<GodotJitterFix>),
    Evenstep(Box<FrameLoop>),
}

impl Planner {
    /// A planner of `config` with `settings`, anchored at `anchor` (ns).
    pub fn new(config: Config, settings: &Settings, anchor: u64) -> Planner {
        let kind = match (config, settings.pacing(config)) {
            (_, Some(pacing)) => Kind::Evenstep(Box::new(
                FrameLoop::new(
                    settings.timestep(),
                    settings.budget(),
                    Timestamp::from_nanos(anchor),
                )
                .with_pacing(pacing),
            )),
            (Config::Godot, None) => Kind::Godot(Box::new(GodotJitterFix::new(
                settings.step_rate().as_f64(),
                settings.budget().get(),
            ))),
            (_, None) => Kind::Naive {
                bank: 0.0,
                step: 1.0 / settings.step_rate().as_f64(),
            },
        };
        let step_nanos = 1e9 / settings.step_rate().as_f64();
        Planner {
            kind,
            last: anchor,
            dropped_units: 0,
            step_nanos,
            feedback: config == Config::Feedback,
        }
    }

    /// Tells a [`Config::Feedback`] planner that the frame of row `row`
    /// (counted from 0, one row a [`frame`](Planner::frame)) was shown at
    /// `display` (ns); the others ignore it. A report the planner refuses
    /// (see [`evenstep_core::FeedbackError`]) changes nothing: it is
    /// dropped, as a game would drop it.
    pub fn shown(&mut self, row: u64, display: u64) {
        if let (true, Kind::Evenstep(frames)) = (self.feedback, &mut self.kind) {
            let _refused =
                frames.frame_shown(FrameId::from_raw(row), Timestamp::from_nanos(display));
        }
    }

    /// Whether display feedback reaches this planner.
    pub const fn takes_feedback(&self) -> bool {
        self.feedback
    }

    /// The steps run by the frame at `now` (ns; a backwards stamp is a zero
    /// delta).
    pub fn frame(&mut self, now: u64) -> u64 {
        self.plan(now).steps
    }

    /// The frame at `now` (ns; a backwards stamp is a zero delta): its
    /// steps, when they end, and the blend factor it leaves.
    pub fn plan(&mut self, now: u64) -> Planned {
        let delta = now.saturating_sub(self.last);
        let from = now.saturating_sub(delta);
        self.last = self.last.max(now);
        match &mut self.kind {
            Kind::Naive { bank, step } => {
                let over = delta.saturating_sub(NAIVE_CLAMP_NANOS);
                self.dropped_units += u128::from(over);
                let before = *bank / *step;
                *bank += (delta as f64 / 1e9).min(NAIVE_CLAMP_SECS);
                let mut steps = 0;
                while *bank >= *step {
                    *bank -= *step;
                    steps += 1;
                }
                let alpha = *bank / *step;
                Planned::of_bank(from, now, before, steps, alpha)
            }
            Kind::Godot(clock) => {
                let before = clock.interpolation_fraction();
                let (steps, dropped) = clock.advance_reporting(delta as f64 / 1e9);
                self.dropped_units += u128::from(dropped);
                Planned::of_bank(from, now, before, steps, clock.interpolation_fraction())
            }
            Kind::Evenstep(frames) => {
                let plan = frames.begin_frame(Timestamp::from_nanos(now));
                self.dropped_units = self.dropped_units.saturating_add(plan.dropped_units());
                Planned {
                    steps: plan.steps_run(),
                    span: StepSpan::of_plan(&plan, now),
                    alpha: plan.alpha().as_f64(),
                }
            }
        }
    }

    /// Time dropped so far, in ns: steps the budget refused (evenstep and
    /// Godot), or time over the 0.25 s clamp (the naive accumulator).
    pub fn dropped_nanos(&self) -> u64 {
        let nanos = match &self.kind {
            Kind::Naive { .. } => self.dropped_units,
            Kind::Godot(_) => u128::from(whole_nanos(self.dropped_units as f64 * self.step_nanos)),
            Kind::Evenstep(frames) => frames
                .timestep()
                .units_to_nanos(self.dropped_units)
                .as_nanos()
                .into(),
        };
        u64::try_from(nanos).unwrap_or(u64::MAX)
    }

    /// The evenstep planner, if this is one.
    pub fn frame_loop(&self) -> Option<&FrameLoop> {
        match &self.kind {
            Kind::Evenstep(frames) => Some(frames),
            Kind::Naive { .. } | Kind::Godot(_) => None,
        }
    }
}

/// One frame as [`Planner::plan`] planned it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Planned {
    /// The steps it runs.
    pub steps: u64,
    /// When they end in wall time (which input each reads).
    pub span: StepSpan,
    /// The blend factor it leaves, in `[0, 1)`: how far into the next step
    /// the frame draws (the naive accumulator's `acc / dt`, Godot's physics
    /// interpolation fraction, evenstep's [`FramePlan::alpha`]).
    ///
    /// [`FramePlan::alpha`]: evenstep_core::FramePlan::alpha
    pub alpha: f64,
}

impl Planned {
    /// A baseline's frame from `from` to `to` that ran `steps` from a bank
    /// of `before` steps, leaving `alpha`.
    fn of_bank(from: u64, to: u64, before: f64, steps: u64, alpha: f64) -> Planned {
        Planned {
            steps,
            span: StepSpan::of_bank(from, to, before, steps, alpha),
            alpha,
        }
    }
}

/// A non-negative number of nanoseconds in an `f64`, to the nearest whole
/// one (negative or NaN: zero; past `u64`: saturated).
pub(crate) fn whole_nanos(nanos: f64) -> u64 {
    #[allow(clippy::cast_sign_loss, reason = "clamped to be non-negative first")]
    let whole = nanos.round().max(0.0) as u64;
    whole
}

//! The stutter verdict: which frames' step counts depart from the ideal
//! cadence of a step rate on a display. The definition is in [`Cadence`];
//! it depends only on the frame deltas and the step counts, so it judges the
//! naive accumulator and evenstep by the same rule.

use core::fmt;

use crate::rate::Rate;
use crate::rate::gcd;
use crate::trace::Refresh;

/// Windows longer than this many refreshes are not checked (the per-frame
/// bounds still are).
const LONGEST_WINDOW: u64 = 64;

/// How step rate and refresh rate relate: which step counts are ideal.
///
/// Let `r` = step rate / display rate, and let each frame span
/// `n = max(1, round(delta / refresh period))` refreshes (a missed refresh
/// is `n = 2`).
///
/// - **Whole** (`r` within 1% of a whole number `m`; 60 steps/s on 60 or
///   59.94 Hz is `m = 1`, on 30 Hz `m = 2`): every frame must run exactly
///   `n · m` steps.
/// - **Divided** (`r` within 1% of `1/d` for a whole `d` from 2 to 8; 60
///   steps/s on 120 Hz is `d = 2`, on 240 Hz `d = 4`): no frame may run more
///   than `ceil(n / d)` steps, and the frames spanning the last `d`
///   refreshes must hold exactly one step between them.
/// - **Ratio** (anything else, `r = p/q` in lowest terms; 60 steps/s on 144
///   Hz is 5/12, on 165 Hz 4/11, on 75 Hz 4/5): a frame must run
///   `floor(n · r)` or `ceil(n · r)` steps, and when `q ≤ 64` the frames
///   spanning the last `q` refreshes must hold exactly `p` steps.
/// - **Variable** (a variable refresh rate display, no fixed period): a
///   frame must run its own length in steps, rounded down or up.
///
/// The window checks walk back whole frames from the current one until they
/// span at least the window; when a long frame makes them span `R` refreshes
/// more than the window, the steps must be `floor(R · r)` or `ceil(R · r)`.
/// A frame stutters if it fails either check. Warm-up frames are never
/// counted, and no window reaches back into them.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Cadence, CadenceKind, Rate, Refresh};
///
/// let on_120 = Cadence::new(Rate::hz(60)?, Refresh::Fixed(Rate::hz(120)?));
/// assert_eq!(on_120.kind(), CadenceKind::Divided { refreshes_per_step: 2 });
/// let period = 8_333_333;
/// let deltas = vec![period; 8];
/// // Steps 1, 0, 1, 0 ... are ideal; a 1, 1 pair breaks it.
/// let flags = on_120.stutters(&deltas, &[1, 0, 1, 0, 1, 1, 0, 1], 0);
/// assert_eq!(flags, vec![false, false, false, false, false, true, false, false]);
/// # Ok::<(), evenstep_lab::RateError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cadence {
    step: Rate,
    refresh: Refresh,
    kind: CadenceKind,
}

/// Which of the four ideals of [`Cadence`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CadenceKind {
    /// A whole number of steps per refresh.
    Whole {
        /// Steps per refresh.
        steps_per_refresh: u64,
    },
    /// One step per whole number of refreshes.
    Divided {
        /// Refreshes per step.
        refreshes_per_step: u64,
    },
    /// `steps` steps per `refreshes` refreshes, in lowest terms.
    Ratio {
        /// Steps per `refreshes` refreshes.
        steps: u64,
        /// Refreshes the steps are spread over.
        refreshes: u64,
    },
    /// No fixed refresh period.
    Variable,
}

impl Cadence {
    /// The cadence of `step` steps a second on a display refreshing as
    /// `refresh` says.
    pub fn new(step: Rate, refresh: Refresh) -> Cadence {
        let kind = match refresh {
            Refresh::Variable { .. } => CadenceKind::Variable,
            Refresh::Fixed(display) => {
                // r = (s_num / s_den) / (d_num / d_den); each factor < 2^32.
                let p = step.numerator() * display.denominator();
                let q = step.denominator() * display.numerator();
                // Rates are positive, so p, q and their divisor are too.
                let g = gcd(u128::from(p), u128::from(q)) as u64;
                classify(p / g, q / g)
            }
        };
        Cadence {
            step,
            refresh,
            kind,
        }
    }

    /// Which ideal applies.
    pub const fn kind(&self) -> CadenceKind {
        self.kind
    }

    /// How many refreshes a frame of `delta_nanos` spans: at least one, and
    /// one on a variable refresh display.
    pub fn refreshes(&self, delta_nanos: u64) -> u64 {
        match self.refresh {
            Refresh::Fixed(rate) => rate.periods_in(delta_nanos).max(1),
            Refresh::Variable { .. } => 1,
        }
    }

    /// For each frame, whether it stutters: `deltas_nanos[i]` is frame `i`'s
    /// time since the previous frame and `steps[i]` the steps it ran. Frames
    /// before `warm_up` are never flagged, and windows do not reach back into
    /// them. Extra entries of the longer slice are ignored.
    pub fn stutters(&self, deltas_nanos: &[u64], steps: &[u64], warm_up: usize) -> Vec<bool> {
        let refreshes: Vec<u64> = deltas_nanos.iter().map(|&d| self.refreshes(d)).collect();
        let frames = refreshes.len().min(steps.len());
        (0..frames)
            .map(|i| {
                i >= warm_up
                    && (!self.frame_fits(deltas_nanos[i], refreshes[i], steps[i])
                        || !self.window_fits(&refreshes[warm_up..=i], &steps[warm_up..=i]))
            })
            .collect()
    }

    /// The per-frame bound.
    fn frame_fits(&self, delta: u64, n: u64, steps: u64) -> bool {
        let (num, den) = match self.kind {
            CadenceKind::Whole { steps_per_refresh } => {
                return steps == n.saturating_mul(steps_per_refresh);
            }
            CadenceKind::Divided { refreshes_per_step } => {
                return steps <= n.div_ceil(refreshes_per_step);
            }
            CadenceKind::Ratio {
                steps: p,
                refreshes: q,
            } => (u128::from(n) * u128::from(p), u128::from(q)),
            CadenceKind::Variable => self.step.periods_in_exact(delta),
        };
        let steps = u128::from(steps);
        num / den <= steps && steps <= num.div_ceil(den)
    }

    /// The window check for the last frame of `refreshes`/`steps`. True when
    /// the window does not fit after the warm-up.
    fn window_fits(&self, refreshes: &[u64], steps: &[u64]) -> bool {
        let (window, p, q) = match self.kind {
            CadenceKind::Divided { refreshes_per_step } => {
                (refreshes_per_step, 1, refreshes_per_step)
            }
            CadenceKind::Ratio {
                steps: p,
                refreshes: q,
            } if q <= LONGEST_WINDOW => (q, p, q),
            _ => return true,
        };
        let (mut spanned, mut total) = (0_u64, 0_u64);
        for (&n, &s) in refreshes.iter().zip(steps).rev() {
            spanned = spanned.saturating_add(n);
            total = total.saturating_add(s);
            if spanned >= window {
                let num = u128::from(spanned) * u128::from(p);
                let den = u128::from(q);
                let total = u128::from(total);
                return num / den <= total && total <= num.div_ceil(den);
            }
        }
        true
    }
}

impl fmt::Display for Cadence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            CadenceKind::Whole {
                steps_per_refresh: 1,
            } => write!(f, "1 step per refresh"),
            CadenceKind::Whole { steps_per_refresh } => {
                write!(f, "{steps_per_refresh} steps per refresh")
            }
            CadenceKind::Divided { refreshes_per_step } => {
                write!(f, "1 step per {refreshes_per_step} refreshes")
            }
            CadenceKind::Ratio { steps, refreshes } if refreshes <= LONGEST_WINDOW => {
                write!(f, "{steps} steps per {refreshes} refreshes")
            }
            CadenceKind::Ratio { steps, refreshes } => write!(
                f,
                "{steps}/{refreshes} steps per refresh, rounded down or up"
            ),
            CadenceKind::Variable => write!(f, "each frame's length in steps, rounded down or up"),
        }
    }
}

/// The cadence of `p/q` steps per refresh, in lowest terms.
fn classify(p: u64, q: u64) -> CadenceKind {
    let (p_wide, q_wide) = (u128::from(p), u128::from(q));
    let m = (2 * p_wide + q_wide) / (2 * q_wide);
    if m >= 1 && p_wide.abs_diff(m * q_wide) * 100 <= m * q_wide {
        return CadenceKind::Whole {
            steps_per_refresh: m as u64,
        };
    }
    let d = (2 * q_wide + p_wide) / (2 * p_wide);
    if (2..=8).contains(&d) && (p_wide * d).abs_diff(q_wide) * 100 <= q_wide {
        return CadenceKind::Divided {
            refreshes_per_step: d as u64,
        };
    }
    CadenceKind::Ratio {
        steps: p,
        refreshes: q,
    }
}

//! When a frame's steps end in wall time, by the rule the `evenstep` loop
//! hands input to steps with: within a pump, the wall time since the
//! previous frame maps linearly onto what the bank gained in that pump, a
//! step ends where the bank reached its full length, and a step the bank
//! did not pay for (a queued one) ends at the pump's time. An event goes
//! to the first step not yet run that ends at or after its stamp.

use evenstep_core::FramePlan;

/// The wall-clock span of one frame's steps: where each ends.
///
/// evenstep's planner keeps exact books ([`StepSpan::of_plan`]: the
/// driver's arithmetic, in the planner's integer units); the baselines
/// keep an `f64` accumulator, and their steps end where it reached a whole
/// step ([`StepSpan::of_bank`]).
///
/// # Examples
///
/// ```
/// use evenstep_lab::StepSpan;
///
/// // A 40 ms frame from a bank a quarter of a step full, leaving a third
/// // of a step: it gained 2 + 1/3 - 1/4 = 2.083 steps over the 40 ms, so
/// // its steps end 0.75 and 1.75 of those in (14.4 and 33.6 ms, to the
/// // nanosecond below).
/// let span = StepSpan::of_bank(0, 40_000_000, 0.25, 2, 1.0 / 3.0);
/// assert_eq!(span.steps(), 2);
/// assert!(14_399_999 <= span.end_of(0) && span.end_of(0) <= 14_400_000);
/// assert!(33_599_999 <= span.end_of(1) && span.end_of(1) <= 33_600_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepSpan {
    from: u64,
    to: u64,
    books: Books,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Books {
    /// evenstep's, in accumulator units.
    Exact {
        bank_before: u128,
        bank_after: u128,
        per_step: u128,
        from_bank: u64,
        run: u64,
    },
    /// A baseline's, in steps.
    Float {
        bank_before: f64,
        bank_after: f64,
        run: u64,
    },
}

impl StepSpan {
    /// The span of `plan`'s steps, planned at `now` (ns), from the plan's
    /// own books: the wall time since the previous frame is its raw delta,
    /// and what the bank gained is its scaled time less what the budget
    /// dropped, plus the phase shift.
    pub fn of_plan(plan: &FramePlan, now: u64) -> StepSpan {
        let per_step = u128::from(plan.timestep().units_per_step());
        let bank_after = u128::from(plan.remainder_units());
        let gained = i128::try_from(plan.scaled_units().saturating_sub(plan.dropped_units()))
            .unwrap_or(i128::MAX)
            .saturating_add(plan.phase_shift_units());
        let paid = u128::from(plan.steps_from_bank()) * per_step + bank_after;
        let bank_before = i128::try_from(paid)
            .unwrap_or(i128::MAX)
            .saturating_sub(gained);
        StepSpan {
            from: now.saturating_sub(plan.raw_delta().as_nanos()),
            to: now,
            books: Books::Exact {
                bank_before: u128::try_from(bank_before).unwrap_or(0),
                bank_after,
                per_step,
                from_bank: plan.steps_from_bank(),
                run: plan.steps_run(),
            },
        }
    }

    /// The span of a baseline's frame from `from` to `to` (ns) that ran
    /// `run` steps from a bank of `bank_before` steps, leaving `bank_after`:
    /// it gained `run + bank_after - bank_before` steps over the frame.
    pub fn of_bank(from: u64, to: u64, bank_before: f64, run: u64, bank_after: f64) -> StepSpan {
        StepSpan {
            from: from.min(to),
            to,
            books: Books::Float {
                bank_before,
                bank_after,
                run,
            },
        }
    }

    /// The steps the frame ran.
    pub const fn steps(&self) -> u64 {
        match self.books {
            Books::Exact { run, .. } | Books::Float { run, .. } => run,
        }
    }

    /// The previous frame's time, in ns.
    pub const fn from(&self) -> u64 {
        self.from
    }

    /// The frame's own time (its pump's), in ns.
    pub const fn to(&self) -> u64 {
        self.to
    }

    /// When the frame's step `index` (from 0) ends, in ns: where the bank
    /// reached its full length, the frame's wall time mapped linearly onto
    /// what the bank gained (rounded down to the nanosecond); a step the
    /// bank did not pay for ends at the frame's time.
    pub fn end_of(&self, index: u64) -> u64 {
        let wall = self.to - self.from;
        let offset = match self.books {
            Books::Exact {
                bank_before,
                bank_after,
                per_step,
                from_bank,
                ..
            } => {
                if index >= from_bank {
                    return self.to;
                }
                let paid = u128::from(from_bank) * per_step + bank_after;
                let gained = paid.saturating_sub(bank_before);
                let filled = (u128::from(index) + 1) * per_step;
                exact_offset(wall, filled.saturating_sub(bank_before), gained)
            }
            Books::Float {
                bank_before,
                bank_after,
                run,
            } => {
                let gained = run as f64 + bank_after - bank_before;
                float_offset(wall, (index + 1) as f64 - bank_before, gained)
            }
        };
        self.from + offset.min(wall)
    }
}

/// `wall · filled / gained`, rounded down: 0 when nothing was filled, the
/// whole wall time when the bank filled all it gained.
fn exact_offset(wall: u64, filled: u128, gained: u128) -> u64 {
    if filled == 0 {
        return 0;
    }
    if filled >= gained {
        return wall;
    }
    // `filled / gained` is under 1: scale both down until the product fits,
    // which loses only what no nanosecond shows.
    let shift = (128 - gained.leading_zeros()).saturating_sub(64);
    let narrow = |units: u128| u64::try_from(units >> shift).unwrap_or(u64::MAX);
    floor_ratio(wall, narrow(filled), narrow(gained).max(1))
}

/// `floor(wall · filled / gained)` for `filled < gained`, exactly: a
/// floating-point guess, corrected by multiplying back (a 128-bit division
/// costs more than the rest of a frame's books).
fn floor_ratio(wall: u64, filled: u64, gained: u64) -> u64 {
    let product = u128::from(wall) * u128::from(filled);
    #[allow(clippy::cast_sign_loss, reason = "a non-negative ratio, saturated")]
    let mut guess = ((wall as f64 * filled as f64) / gained as f64) as u64;
    guess = guess.min(wall);
    while guess > 0 && u128::from(guess) * u128::from(gained) > product {
        guess -= 1;
    }
    while guess < wall && u128::from(guess + 1) * u128::from(gained) <= product {
        guess += 1;
    }
    guess
}

/// [`exact_offset`] for a baseline's `f64` books.
fn float_offset(wall: u64, filled: f64, gained: f64) -> u64 {
    if filled.is_nan() || filled <= 0.0 {
        return 0;
    }
    if filled >= gained {
        return wall;
    }
    crate::planner::whole_nanos((wall as f64 * filled / gained).floor())
}

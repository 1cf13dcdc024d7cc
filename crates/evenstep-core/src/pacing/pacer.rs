//! The pacer: everything pacing holds (the mode, what snapping has learned
//! of the display, display feedback and the render cap) behind the few
//! calls the planner makes. The planner keeps the books (the step, the
//! budget, the speed, the anchor, the bank, the tick); once a frame it
//! tells the pacer what kind of frame it plans and reads back the frame's
//! number and snap, asks where the bank goes, whether the frame renders,
//! and says what the frame ran. Between frames it passes on reports of
//! frames shown and the events that break the frames' run (a resync, a
//! reset, a change of pacing or of step). Nothing else of pacing's state
//! crosses.

use crate::frame_id::{FeedbackError, FrameId};
use crate::pacing::{Shown, ShownDisplay, Snap, Snapper};
use crate::rate::Rate;
use crate::{Nanos, Pacing, RenderCap, Speed, StepBudget, Timestamp, Timestep};

/// What the planner's books hold as a frame is planned: what pacing weighs
/// a frame against.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Books {
    /// The bank before the frame, in accumulator units.
    pub(crate) bank: u128,
    pub(crate) timestep: Timestep,
    pub(crate) speed: Speed,
    pub(crate) budget: StepBudget,
}

/// What kind of frame the planner plans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FrameKind {
    /// A frame the display may show: its stamp teaches the display model.
    Drawn,
    /// A wake-up while nothing is shown: it breaks the run of refreshes.
    Hidden,
    /// An explicit catch-up: time credited, no frame drawn, the run of
    /// refreshes left as it stood.
    CatchUp,
}

/// What breaks the frames' run or changes what pacing paces, between
/// frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PacingEvent {
    /// The time since the previous frame is not the game's (a load, a
    /// breakpoint): the next delta says nothing of the display.
    Resync,
    /// The planner starts again: every frame in flight and everything
    /// learned is forgotten, the frames' numbering goes on.
    Reset,
    /// Another pacing from the next frame.
    Pacing(Pacing),
    /// Another step: what was learned in the old step's units goes.
    Timestep,
}

/// When pacing is asked, between frames, where the part of the bank under
/// a step goes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Placing {
    /// A bank starting (a new planner, a reset).
    Start,
    /// Before pacing changes to the given one.
    Change(Pacing),
}

/// Pacing's whole state: see the module's docs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pacer {
    mode: Pacing,
    render_cap: Option<RenderCap>,
    /// What snapping has learned of the display from the stamps.
    snapper: Snapper,
    /// The frames in flight, and what display feedback has taught.
    shown: Shown,
}

/// The four calls every frame makes (`begin`, `ran`, `bank_after_frame` and
/// `renders_every_frame`) are the common frame's path, and are planned in
/// place as the planner's fast path is: pacing off's frame takes 194
/// instructions with them in place and 273 without (`bench/README.md`, "The
/// pacer seam").
impl Pacer {
    /// A pacer of `mode` that has seen no frame.
    pub(crate) const fn new(mode: Pacing) -> Pacer {
        Pacer {
            mode,
            render_cap: None,
            snapper: Snapper::new(),
            shown: Shown::new(),
        }
    }

    /// Numbers a frame of `kind` at `now`, `raw` after the previous one,
    /// and decides how pacing snaps it: `None` plans the delta as measured.
    /// The `books` are read only when pacing snaps (a closure: the frames
    /// of pacing off never gather them).
    #[inline]
    pub(crate) fn begin(
        &mut self,
        now: Timestamp,
        raw: Nanos,
        kind: FrameKind,
        books: impl FnOnce() -> Books,
    ) -> (FrameId, Option<Snap>) {
        match kind {
            FrameKind::Drawn => {
                let frame = self.shown.number_drawn(now);
                let snap = match (self.mode.is_snapped(), self.shown.has_lattice()) {
                    (false, _) => None,
                    (true, false) => self.snap(now, raw, &books()),
                    (true, true) => self.pace(now, raw, &books()),
                };
                (frame, snap)
            }
            FrameKind::Hidden => {
                let frame = self.shown.number_hidden();
                self.snapper.mark_gap();
                (frame, None)
            }
            FrameKind::CatchUp => (self.shown.number_hidden(), None),
        }
    }

    /// The frame begun last, `raw` after the one before, became due
    /// `steps_due` steps at `speed`.
    #[inline]
    pub(crate) fn ran(&mut self, kind: FrameKind, raw: Nanos, steps_due: u64, speed: Speed) {
        if kind == FrameKind::Drawn && self.mode.needs_lattice() && !raw.is_zero() {
            self.snapper.hysteresis.ran(steps_due);
        }
        self.shown
            .ran(steps_due, speed == Speed::NORMAL && self.mode.is_snapped());
    }

    /// Where the part of the bank under a step of `per_step` units goes
    /// once a frame's steps left `left` of it, the budget having `clamped`
    /// them or not, the frame snapped by `snap`: mid-way between the step
    /// boundaries the display's refreshes fall on (at the `speed`) after a
    /// frame snapped to a lattice, back at mid-step after an overrun under
    /// centred pacing, and otherwise where it is. With
    /// [`place_bank`](Pacer::place_bank), the only place pacing decides
    /// where the bank sits.
    #[inline]
    pub(crate) fn bank_after_frame(
        &self,
        left: u64,
        clamped: bool,
        snap: Option<Snap>,
        per_step: u64,
        speed: Speed,
    ) -> u64 {
        match snap.and_then(|snap| snap.centre(left, per_step, speed)) {
            Some(centred) if !clamped => centred,
            _ if clamped && self.mode.is_centred() => per_step / 2,
            _ => left,
        }
    }

    /// Where the part of the bank under a step of `per_step` units goes
    /// between frames; `None` leaves it where it is. A centred bank starts
    /// at mid-step, and moves there when pacing becomes centred.
    pub(crate) fn place_bank(&self, placing: Placing, per_step: u64) -> Option<u64> {
        let centred = self.mode.is_centred();
        match placing {
            Placing::Start => centred.then_some(per_step / 2),
            Placing::Change(to) => (to.is_centred() && !centred).then_some(per_step / 2),
        }
    }

    /// Whether every frame drawn renders (no render cap): the planner's
    /// common frame.
    #[inline]
    pub(crate) const fn renders_every_frame(&self) -> bool {
        self.render_cap.is_none()
    }

    /// Whether the render cap lets a frame `raw` after the previous one
    /// render. A frame not `drawn` never renders, but its time passes for
    /// the cap. Frames with `queued` steps always render (frame-by-frame
    /// stepping shows every step).
    pub(crate) fn admit_render(&mut self, raw: Nanos, drawn: bool, queued: u64) -> bool {
        let Some(cap) = self.render_cap.as_mut() else {
            return drawn;
        };
        if !drawn {
            cap.pass(raw);
            return false;
        }
        // Frames are expected a refresh apart once the display is known.
        let spacing = self.snapper.frame_spacing().unwrap_or(raw);
        cap.admit(raw, spacing) || queued > 0
    }

    /// Takes a report that `frame` was shown at `at` (see
    /// [`FrameLoop::frame_shown`](crate::FrameLoop::frame_shown)).
    pub(crate) fn frame_shown(
        &mut self,
        frame: FrameId,
        at: Timestamp,
        timestep: Timestep,
    ) -> Result<(), FeedbackError> {
        self.shown.report(frame, at, timestep)
    }

    /// Takes an event between frames.
    pub(crate) fn event(&mut self, event: PacingEvent) {
        match event {
            PacingEvent::Resync => {
                self.snapper.mark_gap();
                self.shown.mark_gap();
            }
            PacingEvent::Reset => {
                self.forget_display();
                self.shown.forget();
                if let Some(cap) = self.render_cap.as_mut() {
                    *cap = cap.restarted();
                }
            }
            PacingEvent::Pacing(mode) => {
                if !mode.is_snapped() {
                    self.forget_display();
                    // Frames planned without pacing predict no refresh: the
                    // count starts again when pacing snaps again.
                    self.shown.mark_gap();
                }
                self.mode = mode;
            }
            PacingEvent::Timestep => self.forget_display(),
        }
    }

    /// Forgets what snapping learned of the display, but the refresh hint,
    /// and the lattice found for feedback's period.
    fn forget_display(&mut self) {
        self.snapper.forget();
        self.shown.forget_lattice();
    }

    /// The pacing.
    pub(crate) const fn mode(&self) -> Pacing {
        self.mode
    }

    /// Sets the render cap; the same rate keeps the cap's phase.
    pub(crate) fn set_render_cap(&mut self, rate: Option<Rate>) {
        if self.render_cap.map(|cap| cap.rate()) != rate {
            self.render_cap = rate.map(RenderCap::new);
        }
    }

    /// The render cap's rate.
    pub(crate) fn render_cap(&self) -> Option<Rate> {
        self.render_cap.map(|cap| cap.rate())
    }

    /// The display's refresh period, as the stamps show it.
    pub(crate) fn refresh_period(&self) -> Option<Nanos> {
        self.snapper.refresh_period()
    }

    /// Sets the refresh hint.
    pub(crate) fn set_refresh_hint(&mut self, period: Option<Nanos>) {
        self.snapper.set_period_hint(period);
    }

    /// The refresh hint.
    pub(crate) const fn refresh_hint(&self) -> Option<Nanos> {
        self.snapper.period_hint()
    }

    /// The number the next frame takes.
    pub(crate) const fn next_frame(&self) -> FrameId {
        self.shown.next_frame()
    }

    /// What display feedback has taught of the display.
    pub(crate) fn shown_display(&self) -> Option<ShownDisplay> {
        self.shown.display()
    }

    /// Whether and how pacing snaps the frame at `now` once display
    /// feedback has started a lattice. The timestamps plan the frame as
    /// without feedback; once feedback predicts its refreshes too, both
    /// candidates go to the referee, which has decided from the frames
    /// already shown which of the two stands (see `referee.rs`). Out of
    /// line, so that the frame of a game without feedback is planned in
    /// place without it.
    fn pace(&mut self, now: Timestamp, raw: Nanos, books: &Books) -> Option<Snap> {
        let predicted = self.shown.refreshes_to(now);
        let stamps = self.snap(now, raw, books);
        if books.speed.is_paused() || raw.is_zero() {
            return stamps;
        }
        let timestep = books.timestep;
        let Some((refreshes, fed)) = predicted.and_then(|(refreshes, period)| {
            let snap = self.shown.snap(refreshes, period, timestep)?;
            Some((refreshes, snap))
        }) else {
            return stamps;
        };
        if books.speed == Speed::NORMAL {
            // The stamps' candidate: the steps their snap, or the delta
            // itself, takes from the bank.
            let units = stamps.map_or_else(
                || signed(timestep.nanos_to_units(raw)),
                |snap| i128::from(snap.units),
            );
            let banked = (signed(books.bank) + units).max(0);
            let steps = banked / i128::from(timestep.units_per_step());
            let steps = u64::try_from(steps).unwrap_or(u64::MAX);
            self.shown.candidates(steps, refreshes);
        }
        // At another speed the referee's verdict so far stands.
        if self.shown.feedback_plans() {
            Some(fed)
        } else {
            stamps
        }
    }

    /// Shows a drawn frame to the display model and, if the pacing snaps,
    /// snaps it to the refreshes it spans.
    fn snap(&mut self, now: Timestamp, raw: Nanos, books: &Books) -> Option<Snap> {
        let paused = books.speed.is_paused();
        let snap = self
            .snapper
            .snap(now, raw, self.mode, books.timestep, paused);
        if snap.is_some() {
            // A snap places the bank: what the hysteresis owed is settled.
            self.snapper.hysteresis.settle_debt();
        } else if !raw.is_zero() && self.mode.needs_lattice() {
            return self.hold_pattern(raw, books);
        }
        snap
    }

    /// Locked pacing's frame when it does not snap: the delta moved by the
    /// hysteresis rule (see `hysteresis.rs`), at normal speed only. A
    /// frame the budget clamps (a stall: its rhythm is lost anyway, and
    /// what it drops is reported exactly), and every frame at another speed
    /// (so slow and fast motion keep their exact rate), plan as pacing off
    /// does, and the debt is settled.
    fn hold_pattern(&mut self, raw: Nanos, books: &Books) -> Option<Snap> {
        let units = books.timestep.nanos_to_units(raw);
        let per_step = books.timestep.units_per_step();
        let stall = (books.bank + units) / u128::from(per_step) > u128::from(books.budget.get());
        let hysteresis = &mut self.snapper.hysteresis;
        if books.speed != Speed::NORMAL || stall {
            hysteresis.settle_debt();
            return None;
        }
        let shift = hysteresis.shift(books.bank, units, per_step);
        Snap::moved(signed(units) + shift)
    }
}

/// Accumulator units as a signed count: every count of them is under 2¹¹⁰.
fn signed(units: u128) -> i128 {
    i128::try_from(units).unwrap_or(i128::MAX)
}

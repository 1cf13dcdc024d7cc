//! The frame-source policy, without IO: a [`FramePolicy`] is the state
//! machine a frame source (a window, a browser page) feeds with what it
//! observes, each at a time it read from its own clock (a frame arrived, a
//! frame was asked for, its frames became unseen or seen again, it woke up),
//! and that answers what to do: run a paint or a tick pump, ask the platform
//! for a frame, tell the loop an absence began ([`Loop::begin_absence`]),
//! and when to wake next, never in the past. A source is painting while its
//! frames are seen and arrive; it is *away* while the platform says they are
//! not seen (hidden, occluded, minimized, frozen) and *starved* while frames
//! it asked for stop arriving; in both cases tick pumps keep the rules and
//! the real timeline running on the clock. The policy reads no clock and
//! knows no platform, so one set of rules serves every source and runs in a
//! test to the nanosecond.
//!
//! [`Loop::begin_absence`]: crate::Loop::begin_absence

use evenstep_core::{Nanos, Timestamp};

use crate::game_loop::PumpKind;

/// When a frame source paints, ticks, asks for frames and wakes.
///
/// Feed it every observation with the time it happened:
///
/// - [`start`](FramePolicy::start) when the source starts (or gets a new
///   surface);
/// - [`frame_arrived`](FramePolicy::frame_arrived) for each frame the
///   platform delivers (`RedrawRequested`, an animation frame);
/// - [`redraw_requested`](FramePolicy::redraw_requested) when the source
///   asks for a frame on its own schedule;
/// - [`set_away`](FramePolicy::set_away) whenever the platform's signals
///   about whether the frames are seen change;
/// - [`poll`](FramePolicy::poll) at each wake-up (a timer fired, the event
///   loop is about to wait), with the loop's
///   [`next_due`](crate::Loop::next_due).
///
/// Each returns a [`FrameAction`] to carry out; then sleep until
/// [`wake_at`](FramePolicy::wake_at), asked with the loop's `next_due` as it
/// is after the action's pump.
///
/// # Examples
///
/// A window painted twice, then hidden: tick pumps when the steps are due.
///
/// ```
/// use std::time::Duration;
/// use evenstep::frame_policy::{FrameAction, FramePolicy, Painting};
/// use evenstep::{Clock, Loop, ManualClock, Nanos, Pacing, PumpKind, Timestamp, Timestep};
///
/// let clock = ManualClock::new();
/// let mut game_loop = Loop::<u64>::builder()
///     .clock(clock.clone())
///     .timestep(Timestep::from_hz(30)?)
///     .pacing(Pacing::OFF)
///     .build()?;
/// game_loop.on_update(|steps, _| *steps += 1);
/// let mut steps = 0;
/// let period = Nanos::from_nanos(16_666_667); // a 60 Hz display
/// let mut policy = FramePolicy::new(period.saturating_mul(4)).paced(period);
///
/// game_loop.start();
/// let started = policy.start(clock.now(), false);
/// assert!(started.request_redraw); // ask for the first frame
///
/// // A frame arrives: paint it, then sleep until the next one is due.
/// assert_eq!(policy.frame_arrived(clock.now()).pump, Some(PumpKind::Paint));
/// let _ = game_loop.pump_at(&mut steps, PumpKind::Paint, clock.now());
/// assert_eq!(policy.wake_at(clock.now(), game_loop.next_due()), Some(Timestamp::from_nanos(16_666_667)));
///
/// // Hidden: no frames are seen, an absence begins, ticks run the steps.
/// let hidden = policy.set_away(clock.now(), true);
/// assert_eq!(hidden.painting, Some(Painting::Away));
/// assert!(hidden.begin_absence());
/// game_loop.begin_absence();
/// let due = policy.wake_at(clock.now(), game_loop.next_due());
/// assert_eq!(due, Some(Timestamp::from_nanos(33_333_334))); // the first step
///
/// clock.advance(Duration::from_nanos(33_333_334));
/// let woken = policy.poll(clock.now(), game_loop.next_due());
/// assert_eq!(woken, FrameAction { pump: Some(PumpKind::Tick), ..FrameAction::NONE });
/// let _ = game_loop.pump_at(&mut steps, PumpKind::Tick, clock.now());
/// assert_eq!(steps, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramePolicy {
    /// How long a frame asked for may take before the source counts as
    /// starved.
    starve_after: Nanos,
    /// The time between paints the source keeps, if it paces them itself.
    frame_period: Option<Nanos>,
    state: State,
    /// When the frame asked for and not yet arrived was asked for, while
    /// painting.
    asked: Option<Timestamp>,
    /// When a paced source may ask for its next frame.
    next_frame: Timestamp,
}

/// What a frame source should do after telling its [`FramePolicy`] what it
/// observed: a plain record, carried out in field order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use = "the policy decided something; carry it out"]
pub struct FrameAction {
    /// The pump to run at the observation's time: [`PumpKind::Paint`] for a
    /// frame to paint, [`PumpKind::Tick`] for a wake-up while not painting
    /// with something due. `None`: no pump (a frame that arrived while away
    /// is not painted).
    pub pump: Option<PumpKind>,
    /// Ask the platform for a frame (`request_redraw`,
    /// `requestAnimationFrame`). The policy counts the frame as asked for
    /// at the observation's time.
    pub request_redraw: bool,
    /// Painting stopped or resumed with this observation.
    pub painting: Option<Painting>,
}

impl FrameAction {
    /// Nothing to do.
    pub const NONE: FrameAction = FrameAction {
        pump: None,
        request_redraw: false,
        painting: None,
    };

    /// Whether to call [`Loop::begin_absence`](crate::Loop::begin_absence):
    /// painting stopped, so the gap to the next paint is an absence, not a
    /// slow frame.
    pub fn begin_absence(&self) -> bool {
        matches!(self.painting, Some(Painting::Away | Painting::Starved))
    }
}

/// A change in whether a frame source paints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Painting {
    /// The platform said the frames are no longer seen (hidden, occluded,
    /// minimized, frozen): tick pumps take over.
    Away,
    /// A frame asked for did not arrive within the starvation time (a
    /// compositor that stopped sending frames, a window minimized without
    /// a word): tick pumps take over, and a frame stays asked for, since
    /// its arrival is how the source says it is seen again.
    Starved,
    /// Frames are painted again: the source came back, or a frame arrived
    /// while starved.
    Resumed,
}

impl FramePolicy {
    /// The shortest wait for a tick. The loop's next due time can be one
    /// that has passed and stays due (a request the next pump serves, a
    /// step the budget left): waking for it at once, again and again, would
    /// spin, so a tick is waited for at least this long.
    pub const MIN_TICK_WAIT: Nanos = Nanos::from_millis(1);

    /// A policy for a source whose display paces the frames (a surface
    /// that waits for vsync, a browser's animation frames): the next frame
    /// is asked for at the first wake-up after one is painted. A frame
    /// asked for that has not arrived after `starve_after` starves the
    /// source (zero: at the first wake-up after asking).
    pub const fn new(starve_after: Nanos) -> FramePolicy {
        FramePolicy {
            starve_after,
            frame_period: None,
            state: State::Painting,
            asked: None,
            next_frame: Timestamp::ZERO,
        }
    }

    /// The same policy for a source that paces its own paints, one every
    /// `period`, phase-locked: each next frame is one period after the
    /// previous frame's slot, not after its (slightly late) arrival, unless
    /// it fell a whole period behind.
    #[must_use]
    pub const fn paced(mut self, period: Nanos) -> FramePolicy {
        self.frame_period = Some(period);
        self
    }

    /// Sets the time between paints the source keeps: `None` when the
    /// display paces them (see [`new`](FramePolicy::new)).
    pub fn set_frame_period(&mut self, period: Option<Nanos>) {
        self.frame_period = period;
    }

    /// The time between paints the source keeps, if it paces them.
    pub const fn frame_period(&self) -> Option<Nanos> {
        self.frame_period
    }

    /// Sets how long a frame asked for may take to arrive.
    pub fn set_starve_after(&mut self, wait: Nanos) {
        self.starve_after = wait;
    }

    /// How long a frame asked for may take to arrive before the source
    /// counts as starved.
    pub const fn starve_after(&self) -> Nanos {
        self.starve_after
    }

    /// Whether frames are being painted: the source is neither away nor
    /// starved.
    pub const fn is_painting(&self) -> bool {
        matches!(self.state, State::Painting)
    }

    /// Whether the platform says the frames are not seen.
    pub const fn is_away(&self) -> bool {
        matches!(self.state, State::Away)
    }

    /// Whether frames asked for stopped arriving while the source was not
    /// away.
    pub const fn is_starved(&self) -> bool {
        matches!(self.state, State::Starved)
    }

    /// Whether frames should be asked for, and painted when they arrive:
    /// the source is not away. A starved source's should: a frame arriving
    /// is how it says it is seen again.
    pub const fn wants_frames(&self) -> bool {
        !self.is_away()
    }

    /// The source starts at `now`, or starts again with a new surface;
    /// `away` is whether its frames are unseen now. Starvation is
    /// forgotten and the next frame is due at once: asked for now unless
    /// away.
    pub fn start(&mut self, now: Timestamp, away: bool) -> FrameAction {
        let was_painting = self.is_painting();
        self.state = if away { State::Away } else { State::Painting };
        self.next_frame = now;
        self.asked = (!away).then_some(now);
        FrameAction {
            pump: None,
            request_redraw: !away,
            painting: change(was_painting, !away),
        }
    }

    /// A frame arrived at `at`: paint it ([`PumpKind::Paint`] at `at`)
    /// unless the source is away (platforms may deliver frames to a hidden
    /// or minimized window). A frame that arrives while starved ends the
    /// starvation.
    pub fn frame_arrived(&mut self, at: Timestamp) -> FrameAction {
        self.asked = None;
        let resumed = match self.state {
            State::Away => return FrameAction::NONE,
            State::Starved => true,
            State::Painting => false,
        };
        self.state = State::Painting;
        self.next_frame = match self.frame_period {
            Some(period) => {
                let next = self.next_frame.saturating_add(period);
                if next > at {
                    next
                } else {
                    at.saturating_add(period)
                }
            }
            None => at,
        };
        FrameAction {
            pump: Some(PumpKind::Paint),
            request_redraw: false,
            painting: resumed.then_some(Painting::Resumed),
        }
    }

    /// The source asked for a frame at `at` on its own schedule (a browser
    /// asks for the next animation frame in each one): the starvation time
    /// runs from `at`.
    pub fn redraw_requested(&mut self, at: Timestamp) {
        self.asked = Some(at);
    }

    /// The platform's signals changed at `now`: `away` is whether the
    /// frames are unseen now (any signal up). Going away stops painting (a
    /// starvation is forgotten: the source is away, whatever its frames
    /// do) and begins an absence; coming back makes the next frame due at
    /// once and asks for it. No change, no action.
    pub fn set_away(&mut self, now: Timestamp, away: bool) -> FrameAction {
        if away == self.is_away() {
            return FrameAction::NONE;
        }
        if away {
            let was_painting = self.is_painting();
            self.state = State::Away;
            self.asked = None;
            return FrameAction {
                painting: change(was_painting, false),
                ..FrameAction::NONE
            };
        }
        self.start(now, false)
    }

    /// A wake-up at `now`, with the loop's next due time
    /// ([`Loop::next_due`](crate::Loop::next_due)). While painting: asks
    /// for the next frame once it is due (at once, unless the source paces
    /// its paints), and starves the source once the frame asked for is
    /// overdue. While not painting (and so after starving): a tick pump
    /// when something is due, and, while starved, a frame asked for again.
    pub fn poll(&mut self, now: Timestamp, next_due: Option<Timestamp>) -> FrameAction {
        let mut action = FrameAction::NONE;
        if self.is_painting() {
            match self.asked {
                None if self.frame_period.is_some() && now < self.next_frame => return action,
                None => {
                    self.asked = Some(now);
                    action.request_redraw = true;
                    return action;
                }
                Some(asked) if now < asked.saturating_add(self.starve_after) => return action,
                Some(_) => {
                    self.state = State::Starved;
                    self.asked = None;
                    action.painting = Some(Painting::Starved);
                }
            }
        }
        action.request_redraw = self.is_starved();
        if next_due.is_some_and(|due| due <= now) {
            action.pump = Some(PumpKind::Tick);
        }
        action
    }

    /// When to wake next, seen from `now`, with the loop's next due time as
    /// it is after the last action's pump; `None`: only when something
    /// happens (nothing is due while not painting). Never in the past.
    /// While painting: when the next frame is due, or when the frame asked
    /// for would be overdue (now, if either has passed). While not
    /// painting: when the loop is next due, at least
    /// [`MIN_TICK_WAIT`](FramePolicy::MIN_TICK_WAIT) from now.
    pub fn wake_at(&self, now: Timestamp, next_due: Option<Timestamp>) -> Option<Timestamp> {
        if !self.is_painting() {
            return next_due.map(|due| due.max(now.saturating_add(FramePolicy::MIN_TICK_WAIT)));
        }
        let at = match self.asked {
            Some(asked) => asked.saturating_add(self.starve_after),
            None => self.next_frame,
        };
        Some(at.max(now))
    }
}

/// Where a frame source stands: the three are exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Frames are seen and arrive.
    Painting,
    /// Frames asked for stopped arriving, though the platform says nothing
    /// of the frames being unseen.
    Starved,
    /// The platform says the frames are not seen.
    Away,
}

/// The change from painting `was` to painting `is`.
fn change(was: bool, is: bool) -> Option<Painting> {
    match (was, is) {
        (true, false) => Some(Painting::Away),
        (false, true) => Some(Painting::Resumed),
        _ => None,
    }
}

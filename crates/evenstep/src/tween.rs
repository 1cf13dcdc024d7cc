//! Tweens: values eased from one end to another over a duration, stepped on
//! the fixed step, so they land on the same tick with the same bits on every
//! machine. The last update of a tween is exactly its target, then its
//! completion runs exactly once.

use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::time::Duration;

use evenstep_core::{Nanos, Timestep};

use crate::ease::Ease;
use crate::lerp::Lerp;

type OnUpdate<C, T> = Box<dyn FnMut(&mut C, T)>;
type OnComplete<C> = Box<dyn FnOnce(&mut C)>;

/// Names a slot: at most one tween runs in a slot, and starting another
/// cancels the incumbent without its completion. Slots make re-targeting
/// mid-flight (a panel told to go elsewhere while it slides) the default.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot(Cow<'static, str>);

impl Slot {
    /// The slot called `name`.
    pub fn new(name: impl Into<Cow<'static, str>>) -> Slot {
        Slot(name.into())
    }
}

impl From<&'static str> for Slot {
    fn from(name: &'static str) -> Slot {
        Slot(Cow::Borrowed(name))
    }
}

impl From<String> for Slot {
    fn from(name: String) -> Slot {
        Slot(Cow::Owned(name))
    }
}

/// Names a running tween, to cancel it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TweenHandle(u64);

/// A tween to start: built with [`Tween::new`] and the chained setters, then
/// given to [`Tweens::start`].
#[must_use = "a tween does nothing until it is started"]
pub struct Tween<C, T> {
    from: T,
    to: T,
    duration: Duration,
    ease: Ease,
    slot: Option<Slot>,
    on_update: OnUpdate<C, T>,
    on_complete: Option<OnComplete<C>>,
}

impl<C, T: Lerp> Tween<C, T> {
    /// A tween from `from` to `to` over `duration`, linear, in no slot,
    /// calling `on_update` with the value on every step it runs.
    pub fn new<F>(from: T, to: T, duration: Duration, on_update: F) -> Tween<C, T>
    where
        F: FnMut(&mut C, T) + 'static,
    {
        Tween {
            from,
            to,
            duration,
            ease: Ease::Linear,
            slot: None,
            on_update: Box::new(on_update),
            on_complete: None,
        }
    }

    /// The easing curve.
    pub fn ease(mut self, ease: Ease) -> Tween<C, T> {
        self.ease = ease;
        self
    }

    /// The slot: starting this tween cancels whatever runs there, silently.
    pub fn slot(mut self, slot: impl Into<Slot>) -> Tween<C, T> {
        self.slot = Some(slot.into());
        self
    }

    /// Runs once, after the final update (which is exactly `to`). Not run
    /// if the tween is cancelled or displaced from its slot.
    pub fn on_complete<F>(mut self, on_complete: F) -> Tween<C, T>
    where
        F: FnOnce(&mut C) + 'static,
    {
        self.on_complete = Some(Box::new(on_complete));
        self
    }
}

/// A running tween, kept small: stepping 10,000 of them touches each once.
struct Running<C, T> {
    handle: TweenHandle,
    /// Steps taken (a tween of more than 2³² steps, two years at 60 Hz,
    /// ends at 2³² − 1).
    steps: u32,
    /// The step at which the tween ends: the first with
    /// `steps · dt ≥ duration`, computed exactly at the start.
    end_step: u32,
    /// `duration / dt`: the steps the tween lasts, as a float; progress is
    /// `steps / total`, a division so that whole fractions come out exact.
    total: f64,
    from: T,
    to: T,
    ease: Ease,
    /// Whether the tween holds a slot (named in `Tweens::slot_of`).
    slotted: bool,
    /// Whether it has a completion (kept in `Tweens::completions`, off the
    /// path every step walks).
    completes: bool,
    on_update: OnUpdate<C, T>,
}

/// Running tweens of values of type `T`, whose callbacks receive a `&mut C`
/// (the part of the game state the tweens write to).
///
/// Step it once per fixed step, from an update subscriber. Progress is the
/// exact number of steps taken against the duration, so a tween's values and
/// its last tick are the same at any frame rate.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use evenstep::{Ease, Timestep, Tween, Tweens};
///
/// #[derive(Default)]
/// struct Panel { y: f32, buttons_enabled: bool }
///
/// let mut tweens = Tweens::<Panel, f32>::new(Timestep::HZ_60);
/// tweens.start(
///     Tween::new(300.0, 0.0, Duration::from_millis(350), |panel: &mut Panel, y| panel.y = y)
///         .ease(Ease::CubicOut)
///         .slot("panel.y")
///         .on_complete(|panel: &mut Panel| panel.buttons_enabled = true),
/// );
/// let mut panel = Panel::default();
/// for _ in 0..21 {
///     tweens.step(&mut panel); // from an update subscriber
/// }
/// assert_eq!(panel.y, 0.0); // exactly the target
/// assert!(panel.buttons_enabled);
/// assert!(tweens.is_empty());
/// ```
pub struct Tweens<C, T> {
    timestep: Timestep,
    running: Vec<Running<C, T>>,
    slots: BTreeMap<Slot, TweenHandle>,
    /// The slot each slotted tween holds.
    slot_of: BTreeMap<TweenHandle, Slot>,
    /// The completion of each tween that has one.
    completions: BTreeMap<TweenHandle, OnComplete<C>>,
    next: u64,
    /// Completions due and not yet run, in order: this step's, run after
    /// every update, and any a panicking completion left behind (kept
    /// allocated).
    done: VecDeque<OnComplete<C>>,
}

impl<C, T: Lerp> Tweens<C, T> {
    /// No tweens, stepped at `timestep` (the loop's fixed step).
    pub fn new(timestep: Timestep) -> Tweens<C, T> {
        Tweens {
            timestep,
            running: Vec::new(),
            slots: BTreeMap::new(),
            slot_of: BTreeMap::new(),
            completions: BTreeMap::new(),
            next: 0,
            done: VecDeque::new(),
        }
    }

    /// Starts a tween. Its first update comes at the next [`step`](Tweens::step).
    /// A tween in an occupied slot cancels the incumbent silently, without its
    /// completion. A zero duration completes at the next step, with one
    /// update of exactly `to`.
    pub fn start(&mut self, tween: Tween<C, T>) -> TweenHandle {
        let handle = TweenHandle(self.next);
        self.next += 1;
        let slotted = tween.slot.is_some();
        if let Some(slot) = tween.slot {
            if let Some(incumbent) = self.slots.insert(slot.clone(), handle) {
                self.running.retain(|r| r.handle != incumbent);
                self.slot_of.remove(&incumbent);
                self.completions.remove(&incumbent);
            }
            self.slot_of.insert(handle, slot);
        }
        let duration = Nanos::from_duration(tween.duration);
        let per_step = u128::from(self.timestep.units_per_step());
        let end_units = self.timestep.nanos_to_units(duration);
        // The first step whose end reaches the duration, exactly; at least 1.
        let end_step = u32::try_from(end_units.div_ceil(per_step).max(1)).unwrap_or(u32::MAX);
        self.running.push(Running {
            handle,
            steps: 0,
            end_step,
            total: end_units.max(1) as f64 / per_step as f64,
            from: tween.from,
            to: tween.to,
            ease: tween.ease,
            slotted,
            completes: tween.on_complete.is_some(),
            on_update: tween.on_update,
        });
        if let Some(complete) = tween.on_complete {
            self.completions.insert(handle, complete);
        }
        handle
    }

    /// Cancels a tween: no more updates and no completion. Returns whether it
    /// was running.
    pub fn cancel(&mut self, handle: TweenHandle) -> bool {
        let Some(index) = self.running.iter().position(|r| r.handle == handle) else {
            return false;
        };
        let running = self.running.remove(index);
        if running.completes {
            self.completions.remove(&handle);
        }
        if running.slotted
            && let Some(slot) = self.slot_of.remove(&handle)
        {
            self.slots.remove(&slot);
        }
        true
    }

    /// Advances every tween one fixed step, in start order: each gets its
    /// update; those that reached their end get an update of exactly `to`,
    /// then, after every update of the step, their completions in start
    /// order. Allocates nothing once running.
    ///
    /// # Panics
    ///
    /// Only if a callback panics; the panic passes through. A completion
    /// that panics has run (it is not run again), and the completions after
    /// it are kept: each runs exactly once, in order, at the start of the
    /// next step, before that step's updates. The tweens they belong to have
    /// ended and had their last update.
    pub fn step(&mut self, ctx: &mut C) {
        // Completions a panicking one left at the last step come first:
        // they belong to that step.
        self.run_completions(ctx);
        // A plain loop first (a closure handed to `retain_mut` was not
        // inlined, and every tween paid for the call); the rare step on which
        // a tween ends then takes a second pass to remove it.
        let mut any_ended = false;
        for r in &mut self.running {
            // Saturating: a panicking update can leave a tween that ended
            // at step 2³² − 1 to be stepped once more.
            r.steps = r.steps.saturating_add(1);
            if r.steps >= r.end_step {
                (r.on_update)(ctx, r.to.clone());
                any_ended = true;
            } else {
                let t = r.ease.apply(f64::from(r.steps) / r.total);
                (r.on_update)(ctx, r.from.lerp(&r.to, t));
            }
        }
        if any_ended {
            let (slots, slot_of) = (&mut self.slots, &mut self.slot_of);
            let (done, completions) = (&mut self.done, &mut self.completions);
            self.running.retain(|r| {
                if r.steps < r.end_step {
                    return true;
                }
                if r.completes
                    && let Some(complete) = completions.remove(&r.handle)
                {
                    done.push_back(complete);
                }
                if r.slotted
                    && let Some(slot) = slot_of.remove(&r.handle)
                {
                    slots.remove(&slot);
                }
                false
            });
        }
        self.run_completions(ctx);
    }

    /// Runs the completions due, in order. Each is taken out before it runs,
    /// so one that panics has run once and the rest stay due.
    fn run_completions(&mut self, ctx: &mut C) {
        while let Some(complete) = self.done.pop_front() {
            complete(ctx);
        }
    }

    /// Tweens running.
    pub fn len(&self) -> usize {
        self.running.len()
    }

    /// Whether no tween is running.
    pub fn is_empty(&self) -> bool {
        self.running.is_empty()
    }

    /// Whether `handle` is still running.
    pub fn is_running(&self, handle: TweenHandle) -> bool {
        self.running.iter().any(|r| r.handle == handle)
    }

    /// The tween running in `slot`, if any.
    pub fn in_slot(&self, slot: &Slot) -> Option<TweenHandle> {
        self.slots.get(slot).copied()
    }
}

impl<C, T> fmt::Debug for Tweens<C, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tweens")
            .field("timestep", &self.timestep)
            .field("running", &self.running.len())
            .finish_non_exhaustive()
    }
}

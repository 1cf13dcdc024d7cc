//! The browser glue (wasm32 only): the page's clock, and [`PageLoop`],
//! which owns a [`PageDriver`] and the game state and forwards the
//! browser's callbacks to it: animation frames, one timer, the lifecycle
//! events and, unless turned off, the input events. What it registers is held in one place
//! ([`Callbacks`]) and released from there, so stopping or dropping it
//! leaves nothing behind.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use evenstep::{Clock, Loop, LoopBuilder, PumpReport, Timestamp};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{Document, Element, Event, EventTarget, PageTransitionEvent, Performance, Window};

use crate::away::Away;
use crate::callbacks::Callbacks;
use crate::error::WebError;
use crate::input_listeners::{self, INPUT_EVENTS};
use crate::page::{PageEvent, PageState};
use crate::page_driver::{PageDriver, PageOptions, PageStats};
use crate::page_input::PageInput;
use crate::time::timestamp_from_millis;

/// The page's clock: `performance.now()` as integer nanoseconds since the
/// page's time origin, the time base animation frames are stamped in.
#[derive(Clone, Debug)]
pub struct PageClock {
    performance: Performance,
}

impl PageClock {
    /// The clock of the page this module runs in.
    ///
    /// # Errors
    ///
    /// [`WebError::NoPage`] outside a page's main thread.
    pub fn new() -> Result<PageClock, WebError> {
        let window = web_sys::window().ok_or(WebError::NoPage { missing: "window" })?;
        let performance = window.performance().ok_or(WebError::NoPage {
            missing: "performance",
        })?;
        Ok(PageClock { performance })
    }
}

impl Clock for PageClock {
    fn now(&self) -> Timestamp {
        timestamp_from_millis(self.performance.now())
    }
}

/// What runs after a paint pump that rendered: draw.
type PaintHook<S> = Box<dyn FnMut(&mut S, &Loop<S>, &PumpReport)>;
/// What runs when the page is painted again after an absence.
type ReturnHook<S> = Box<dyn FnMut(&mut S, &mut Loop<S>, Away)>;

struct Core<S> {
    driver: PageDriver<S>,
    state: S,
    on_paint: Option<PaintHook<S>>,
    on_return: Option<ReturnHook<S>>,
}

struct Shared<S> {
    core: RefCell<Core<S>>,
    /// Present while started.
    callbacks: RefCell<Option<Callbacks>>,
    /// What pointer positions are measured from; the viewport without one.
    pointer_element: RefCell<Option<Element>>,
    /// Input events that arrived while the driver was in use (dispatched
    /// from inside a hook), forwarded in order as soon as it is free.
    deferred_input: RefCell<Vec<(Timestamp, PageInput)>>,
}

impl<S: 'static> Shared<S> {
    /// After anything the driver did: forwards deferred input, releases
    /// everything if the loop stopped, else asks for frames or stops
    /// asking, and arms the timer.
    fn schedule(&self) {
        self.forward_input();
        let Ok(core) = self.core.try_borrow() else {
            return;
        };
        if !core.driver.is_running() {
            drop(core);
            self.release();
            return;
        }
        let wants_frames = core.driver.wants_frames();
        let now = core.driver.now();
        let wake = core.driver.next_wake();
        drop(core);
        let Ok(callbacks) = self.callbacks.try_borrow() else {
            return;
        };
        let Some(callbacks) = callbacks.as_ref() else {
            return;
        };
        if wants_frames {
            callbacks.request_frame();
        } else {
            callbacks.cancel_frame();
        }
        if let Some(wake) = wake {
            callbacks.arm_timer(now, now.saturating_add(wake));
        }
    }

    fn release(&self) {
        let callbacks = self
            .callbacks
            .try_borrow_mut()
            .ok()
            .and_then(|mut c| c.take());
        drop(callbacks);
    }

    fn on_frame(&self, time_millis: f64) {
        if let Ok(callbacks) = self.callbacks.try_borrow()
            && let Some(callbacks) = callbacks.as_ref()
        {
            callbacks.frame_arrived();
        }
        // JavaScript never re-enters a callback, so the state is free here.
        if let Ok(mut core) = self.core.try_borrow_mut() {
            let Core {
                driver,
                state,
                on_paint,
                ..
            } = &mut *core;
            if let Some(report) = driver.animation_frame(state, timestamp_from_millis(time_millis))
                && report.rendered
                && let Some(paint) = on_paint
            {
                paint(state, driver.game_loop(), &report);
            }
        }
        self.schedule();
    }

    fn on_timer(&self) {
        if let Ok(callbacks) = self.callbacks.try_borrow()
            && let Some(callbacks) = callbacks.as_ref()
        {
            callbacks.timer_fired();
        }
        if let Ok(mut core) = self.core.try_borrow_mut() {
            let Core { driver, state, .. } = &mut *core;
            let _ = driver.timer(state);
        }
        self.schedule();
    }

    /// An input event of `kind`: read now (the pointer's place is where
    /// it is now), forwarded at its own `timeStamp`.
    fn on_input(&self, kind: &str, event: &Event, window: &Window) {
        let origin = self
            .pointer_element
            .try_borrow()
            .ok()
            .and_then(|element| element.clone());
        let input = input_listeners::read(kind, event, window, origin.as_ref());
        let at = timestamp_from_millis(event.time_stamp());
        if let Ok(mut deferred) = self.deferred_input.try_borrow_mut() {
            deferred.push((at, input));
        }
        self.forward_input();
    }

    /// Hands the driver every input event waiting for it, oldest first,
    /// unless it is in use: then the callback using it forwards them as it
    /// ends ([`schedule`](Shared::schedule)). Refusals are counted in the
    /// driver's statistics.
    fn forward_input(&self) {
        let Ok(mut core) = self.core.try_borrow_mut() else {
            return;
        };
        let Ok(mut deferred) = self.deferred_input.try_borrow_mut() else {
            return;
        };
        for (at, input) in deferred.drain(..) {
            let _ = core.driver.input(at, input);
        }
    }

    fn on_page_event(&self, event: PageEvent) {
        if let Ok(mut core) = self.core.try_borrow_mut() {
            let Core {
                driver,
                state,
                on_return,
                ..
            } = &mut *core;
            if let Some(away) = driver.page_event(state, event)
                && let Some(hook) = on_return
            {
                hook(state, driver.game_loop_mut(), away);
            }
        }
        self.schedule();
    }
}

/// A [`Loop`] run by a browser page, with its game state.
///
/// [`start`](PageLoop::start) registers the callbacks: one animation frame
/// at a time (a paint pump at the frame's time, then the paint hook), one
/// timer (tick pumps while the page is not painting), listeners for
/// `visibilitychange`, `freeze` and `resume` on the document and `pagehide`
/// and `pageshow` on the window, and, while input is forwarded (the
/// default, [`PageOptions::forward_input`]), passive listeners on the
/// window for `keydown`, `keyup`, `compositionend`, `mousedown`,
/// `mouseup`, `mousemove`, `wheel` and `blur`, each pushing its events into
/// the loop's input queue at the event's own `timeStamp`
/// ([`PageDriver::input`]). [`stop`](PageLoop::stop), the loop being
/// stopped from anywhere (a callback's `control().stop()` included), and
/// dropping the `PageLoop` each cancel and remove all of them and free
/// their closures; [`live_callbacks`](crate::live_callbacks) counts what is left.
///
/// The state lives inside; reach it, and the loop, with
/// [`with`](PageLoop::with). JavaScript runs one callback at a time, so the
/// only way to find the state in use is to reach the `PageLoop` from
/// inside one of its own hooks: that is [`WebError::Busy`], never a panic.
pub struct PageLoop<S: 'static> {
    shared: Rc<Shared<S>>,
}

impl<S: 'static> PageLoop<S> {
    /// A frame source for `state`, whose loop is built from `builder` on the
    /// page's clock ([`PageClock`]; any clock the builder had is replaced).
    /// Nothing runs until [`start`](PageLoop::start).
    ///
    /// # Errors
    ///
    /// [`WebError::NoPage`] outside a page's main thread;
    /// [`WebError::Config`] if the builder's configuration is refused.
    pub fn new(
        builder: LoopBuilder<S>,
        state: S,
        options: PageOptions,
    ) -> Result<PageLoop<S>, WebError> {
        let driver = PageDriver::with_clock(builder, PageClock::new()?, options)?;
        Ok(PageLoop {
            shared: Rc::new(Shared {
                core: RefCell::new(Core {
                    driver,
                    state,
                    on_paint: None,
                    on_return: None,
                }),
                callbacks: RefCell::new(None),
                pointer_element: RefCell::new(None),
                deferred_input: RefCell::new(Vec::new()),
            }),
        })
    }

    /// Measures pointer positions ([`InputEvent::Pointer`](evenstep::input::InputEvent::Pointer))
    /// from the top left of `element`'s border box, in CSS pixels: the
    /// game's canvas, so that a step reads where on it the pointer is. With
    /// `None` (the default) they are from the viewport's top left
    /// (`clientX` / `clientY`). Either way the pointer is followed over the
    /// whole page, so a position off the element is negative or past its
    /// size. Takes effect with the next event, started or not.
    ///
    /// # Errors
    ///
    /// [`WebError::Busy`] from inside the reading of an input event (no
    /// hook runs there, so in practice never).
    pub fn set_pointer_element(&self, element: Option<Element>) -> Result<(), WebError> {
        *self
            .shared
            .pointer_element
            .try_borrow_mut()
            .map_err(|_| WebError::Busy)? = element;
        Ok(())
    }

    /// Sets what runs after each paint pump that rendered, with the state,
    /// the loop (its alpha, statistics and timelines) and the pump's
    /// report: draw the frame. Replaces any earlier hook.
    ///
    /// # Errors
    ///
    /// [`WebError::Busy`] from inside one of this frame source's hooks.
    pub fn on_paint<F>(&self, hook: F) -> Result<(), WebError>
    where
        F: FnMut(&mut S, &Loop<S>, &PumpReport) + 'static,
    {
        self.core_mut()?.on_paint = Some(Box::new(hook));
        Ok(())
    }

    /// Sets what runs when the page is painted again after it was hidden,
    /// frozen or in the back-forward cache, with the [`Away`] report. The
    /// loop is lent mutably, for [`Loop::catch_up`]. Replaces any earlier
    /// hook.
    ///
    /// # Errors
    ///
    /// [`WebError::Busy`] from inside one of this frame source's hooks.
    pub fn on_return<F>(&self, hook: F) -> Result<(), WebError>
    where
        F: FnMut(&mut S, &mut Loop<S>, Away) + 'static,
    {
        self.core_mut()?.on_return = Some(Box::new(hook));
        Ok(())
    }

    /// Starts the loop at the page's clock and registers the callbacks.
    /// A hidden page starts ticking, and is away until first shown.
    ///
    /// # Errors
    ///
    /// [`WebError::AlreadyStarted`] if started (nothing changes: the
    /// running loop goes on); [`WebError::Busy`] from inside one of its
    /// hooks; [`WebError::NoPage`] or [`WebError::Browser`] if the page
    /// refuses a listener.
    pub fn start(&self) -> Result<(), WebError> {
        if self
            .shared
            .callbacks
            .try_borrow()
            .map_err(|_| WebError::Busy)?
            .is_some()
        {
            return Err(WebError::AlreadyStarted);
        }
        let window = web_sys::window().ok_or(WebError::NoPage { missing: "window" })?;
        let document = window.document().ok_or(WebError::NoPage {
            missing: "document",
        })?;
        let callbacks = self.callbacks(&window, &document)?;
        self.core_mut()?.driver.start(document.hidden())?;
        *self
            .shared
            .callbacks
            .try_borrow_mut()
            .map_err(|_| WebError::Busy)? = Some(callbacks);
        self.shared.schedule();
        Ok(())
    }

    /// Stops the loop and releases every callback. Stopping a stopped
    /// frame source does nothing. To stop from inside a hook, stop the loop
    /// the hook is given: the frame source releases everything as the hook
    /// returns.
    ///
    /// # Errors
    ///
    /// [`WebError::Busy`] from inside one of its hooks (nothing changes).
    pub fn stop(&self) -> Result<(), WebError> {
        self.core_mut()?.driver.stop();
        self.shared.release();
        Ok(())
    }

    /// Whether the frame source is started: its callbacks are registered.
    pub fn is_started(&self) -> bool {
        self.shared
            .callbacks
            .try_borrow()
            .is_ok_and(|callbacks| callbacks.is_some())
    }

    /// Runs `f` with the state and the loop: input, subscribers, timers,
    /// pause, speed. The timer is re-armed afterwards, so a request made
    /// while the page is hidden is acted on without waiting for a step.
    ///
    /// # Errors
    ///
    /// [`WebError::Busy`] from inside one of its hooks.
    pub fn with<R>(&self, f: impl FnOnce(&mut S, &mut Loop<S>) -> R) -> Result<R, WebError> {
        let result = {
            let mut core = self.core_mut()?;
            let Core { driver, state, .. } = &mut *core;
            f(state, driver.game_loop_mut())
        };
        self.shared.schedule();
        Ok(result)
    }

    /// Runs `f` with the state and the driver (its statistics, page state
    /// and loop), to read them.
    ///
    /// # Errors
    ///
    /// [`WebError::Busy`] from inside one of its hooks.
    pub fn inspect<R>(&self, f: impl FnOnce(&S, &PageDriver<S>) -> R) -> Result<R, WebError> {
        let core = self.shared.core.try_borrow().map_err(|_| WebError::Busy)?;
        Ok(f(&core.state, &core.driver))
    }

    /// What the driver has done.
    ///
    /// # Errors
    ///
    /// [`WebError::Busy`] from inside one of its hooks.
    pub fn stats(&self) -> Result<PageStats, WebError> {
        self.inspect(|_, driver| driver.stats())
    }

    /// What the driver knows of the page.
    ///
    /// # Errors
    ///
    /// [`WebError::Busy`] from inside one of its hooks.
    pub fn page(&self) -> Result<PageState, WebError> {
        self.inspect(|_, driver| driver.page())
    }

    fn core_mut(&self) -> Result<std::cell::RefMut<'_, Core<S>>, WebError> {
        self.shared
            .core
            .try_borrow_mut()
            .map_err(|_| WebError::Busy)
    }

    /// The closures and listeners, registered, each holding the frame
    /// source weakly so that they never keep it alive.
    fn callbacks(&self, window: &Window, document: &Document) -> Result<Callbacks, WebError> {
        let weak: Weak<Shared<S>> = Rc::downgrade(&self.shared);
        let mut callbacks = Callbacks::new(window, frame_closure(&weak), timer_closure(&weak));
        let document_target: &EventTarget = document.as_ref();
        let window_target: &EventTarget = window.as_ref();
        let kinds = [
            (document_target, "visibilitychange"),
            (document_target, "freeze"),
            (document_target, "resume"),
            (window_target, "pagehide"),
            (window_target, "pageshow"),
        ];
        for (target, kind) in kinds {
            callbacks.listen(target, kind, listener_closure(&weak, kind, document), false)?;
        }
        let forwards_input = self
            .shared
            .core
            .try_borrow()
            .map_err(|_| WebError::Busy)?
            .driver
            .options()
            .forwards_input();
        if forwards_input {
            for kind in INPUT_EVENTS {
                callbacks.listen(
                    window_target,
                    kind,
                    input_closure(&weak, kind, window),
                    true,
                )?;
            }
        }
        Ok(callbacks)
    }
}

/// The listener for the input event `kind`.
fn input_closure<S: 'static>(
    weak: &Weak<Shared<S>>,
    kind: &'static str,
    window: &Window,
) -> Closure<dyn FnMut(Event)> {
    let weak = weak.clone();
    let window = window.clone();
    Closure::<dyn FnMut(Event)>::new(move |event: Event| {
        if let Some(shared) = weak.upgrade() {
            shared.on_input(kind, &event, &window);
        }
    })
}

/// The animation-frame callback: a paint at the frame's time.
fn frame_closure<S: 'static>(weak: &Weak<Shared<S>>) -> Closure<dyn FnMut(f64)> {
    let weak = weak.clone();
    Closure::<dyn FnMut(f64)>::new(move |time: f64| {
        if let Some(shared) = weak.upgrade() {
            shared.on_frame(time);
        }
    })
}

/// The timer's callback: a wake-up.
fn timer_closure<S: 'static>(weak: &Weak<Shared<S>>) -> Closure<dyn FnMut()> {
    let weak = weak.clone();
    Closure::<dyn FnMut()>::new(move || {
        if let Some(shared) = weak.upgrade() {
            shared.on_timer();
        }
    })
}

/// The listener for the lifecycle event `kind`.
fn listener_closure<S: 'static>(
    weak: &Weak<Shared<S>>,
    kind: &'static str,
    document: &Document,
) -> Closure<dyn FnMut(Event)> {
    let weak = weak.clone();
    let document = document.clone();
    Closure::<dyn FnMut(Event)>::new(move |event: Event| {
        if let Some(shared) = weak.upgrade() {
            shared.on_page_event(page_event(kind, &event, &document));
        }
    })
}

/// The lifecycle change a browser event of `kind` announces.
fn page_event(kind: &str, event: &Event, document: &Document) -> PageEvent {
    let persisted = || {
        event
            .dyn_ref::<PageTransitionEvent>()
            .is_some_and(PageTransitionEvent::persisted)
    };
    match kind {
        "visibilitychange" if document.hidden() => PageEvent::Hidden,
        "visibilitychange" => PageEvent::Shown,
        "freeze" => PageEvent::Frozen,
        "resume" => PageEvent::Resumed,
        "pagehide" => PageEvent::PageHide {
            persisted: persisted(),
        },
        _ => PageEvent::PageShow {
            persisted: persisted(),
        },
    }
}

impl<S: 'static> Drop for PageLoop<S> {
    /// Stops the loop and releases every callback.
    fn drop(&mut self) {
        if let Ok(mut core) = self.shared.core.try_borrow_mut() {
            core.driver.stop();
        }
        self.shared.release();
    }
}

impl<S: 'static> std::fmt::Debug for PageLoop<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageLoop")
            .field("started", &self.is_started())
            .finish_non_exhaustive()
    }
}

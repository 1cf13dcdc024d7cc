//! What a started [`PageLoop`](crate::PageLoop) registers with the browser
//! (wasm32 only): one animation-frame callback, one timer, five lifecycle
//! listeners and, while input is forwarded, eight input listeners, held in
//! one place and released from there, so stopping or
//! dropping the frame source leaves nothing behind; and the count of what
//! is registered, page-wide.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use evenstep::Timestamp;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;
use web_sys::{AddEventListenerOptions, Event, EventTarget, Window};

use crate::error::WebError;
use crate::time::timer_millis;

/// Closures registered with the browser by every frame source of the page.
static LIVE_CALLBACKS: AtomicUsize = AtomicUsize::new(0);

/// How many closures the page's frame sources hold registered with the
/// browser (animation frame, timer and event listeners) right now: per
/// started [`PageLoop`](crate::PageLoop), fifteen while it forwards input
/// (the default) and seven without; none once every one is stopped or
/// dropped.
pub fn live_callbacks() -> usize {
    LIVE_CALLBACKS.load(Ordering::Relaxed)
}

/// One event listener, kept so it can be removed.
struct Listener {
    target: EventTarget,
    kind: &'static str,
    closure: Closure<dyn FnMut(Event)>,
}

/// Everything registered with the browser. Dropping it cancels the
/// animation frame and the timer, removes the listeners and frees the
/// closures; a closure dropped while it runs is freed by wasm-bindgen when
/// it returns.
pub(crate) struct Callbacks {
    window: Window,
    frame: Closure<dyn FnMut(f64)>,
    frame_request: Cell<Option<i32>>,
    timer: Closure<dyn FnMut()>,
    timer_id: Cell<Option<i32>>,
    /// When the armed timer is due, on the page's clock.
    timer_due: Cell<Option<Timestamp>>,
    listeners: Vec<Listener>,
}

impl Callbacks {
    /// The animation-frame callback and the timer's, held for `window`,
    /// neither registered yet; listeners follow with
    /// [`listen`](Callbacks::listen).
    pub(crate) fn new(
        window: &Window,
        frame: Closure<dyn FnMut(f64)>,
        timer: Closure<dyn FnMut()>,
    ) -> Callbacks {
        let callbacks = Callbacks {
            window: window.clone(),
            frame,
            frame_request: Cell::new(None),
            timer,
            timer_id: Cell::new(None),
            timer_due: Cell::new(None),
            listeners: Vec::new(),
        };
        LIVE_CALLBACKS.fetch_add(callbacks.closures(), Ordering::Relaxed);
        callbacks
    }

    /// Registers `closure` as `target`'s listener for `kind`, held until
    /// these callbacks are dropped; `passive` promises the browser it never
    /// cancels the event, so scrolling never waits for it.
    ///
    /// # Errors
    ///
    /// [`WebError::Browser`] if the page refuses it (it is still held, and
    /// freed with the rest).
    pub(crate) fn listen(
        &mut self,
        target: &EventTarget,
        kind: &'static str,
        closure: Closure<dyn FnMut(Event)>,
        passive: bool,
    ) -> Result<(), WebError> {
        // Counted as soon as it is held, so the drop balances even if
        // registering it fails.
        LIVE_CALLBACKS.fetch_add(1, Ordering::Relaxed);
        let options = AddEventListenerOptions::new();
        options.set_passive(passive);
        let added = target.add_event_listener_with_callback_and_add_event_listener_options(
            kind,
            closure.as_ref().unchecked_ref(),
            &options,
        );
        self.listeners.push(Listener {
            target: target.clone(),
            kind,
            closure,
        });
        added.map_err(|error| browser_error("addEventListener", &error))
    }

    fn closures(&self) -> usize {
        2 + self.listeners.len()
    }

    /// The animation frame asked for has arrived: none is pending.
    pub(crate) fn frame_arrived(&self) {
        self.frame_request.set(None);
    }

    /// The timer has fired: none is armed.
    pub(crate) fn timer_fired(&self) {
        self.timer_id.set(None);
        self.timer_due.set(None);
    }

    /// Asks for an animation frame, unless one is pending.
    pub(crate) fn request_frame(&self) {
        if self.frame_request.get().is_none() {
            let id = self
                .window
                .request_animation_frame(self.frame.as_ref().unchecked_ref())
                .ok();
            self.frame_request.set(id);
        }
    }

    /// Cancels the pending animation frame, if any.
    pub(crate) fn cancel_frame(&self) {
        if let Some(id) = self.frame_request.take() {
            let _ = self.window.cancel_animation_frame(id);
        }
    }

    /// Arms the timer for `due` unless it is armed for no later than that:
    /// a wake-up that finds nothing to do costs less than re-arming on every
    /// frame.
    pub(crate) fn arm_timer(&self, now: Timestamp, due: Timestamp) {
        if self.timer_due.get().is_some_and(|armed| armed <= due) {
            return;
        }
        self.clear_timer();
        let delay = timer_millis(due.saturating_since(now));
        let id = self
            .window
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                self.timer.as_ref().unchecked_ref(),
                delay,
            )
            .ok();
        self.timer_id.set(id);
        self.timer_due.set(id.map(|_| due));
    }

    fn clear_timer(&self) {
        if let Some(id) = self.timer_id.take() {
            self.window.clear_timeout_with_handle(id);
        }
        self.timer_due.set(None);
    }
}

impl Drop for Callbacks {
    fn drop(&mut self) {
        self.cancel_frame();
        self.clear_timer();
        for listener in &self.listeners {
            let _ = listener.target.remove_event_listener_with_callback(
                listener.kind,
                listener.closure.as_ref().unchecked_ref(),
            );
        }
        LIVE_CALLBACKS.fetch_sub(self.closures(), Ordering::Relaxed);
    }
}

/// A refusal from the browser, with what it said.
fn browser_error(call: &'static str, error: &JsValue) -> WebError {
    WebError::Browser {
        call,
        message: error
            .as_string()
            .or_else(|| {
                error
                    .dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
            })
            .unwrap_or_else(|| format!("{error:?}")),
    }
}

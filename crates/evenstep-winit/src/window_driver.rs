//! The window driver: a [`Loop`] fed from a window's events. It gathers
//! what the platform says of the window (hidden, occluded, minimized) and
//! hands it, with each redraw and each `about_to_wait`, to evenstep's
//! [`FramePolicy`], then does what the policy answers: a paint pump on
//! `RedrawRequested` with the clock read there, the next redraw asked for,
//! a tick pump while the window is not painting, and a sleep with
//! `ControlFlow::WaitUntil` the next thing due, never a busy loop.

use std::num::NonZeroU32;

use evenstep::input::InputEvent;
use evenstep::{
    Clock, ConfigError, Loop, LoopBuilder, MonotonicClock, Nanos, PumpReport, Timestamp,
    frame_policy::{FrameAction, FramePolicy, Painting},
};
use winit::event::{DeviceEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow};

use crate::display::{Presentation, Refresh, RefreshSource};
use crate::visibility::Visibility;
use crate::window_handle::WindowHandle;

/// How the driver runs a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowOptions {
    presentation: Presentation,
    starved_after: NonZeroU32,
    refresh: Option<Refresh>,
}

impl Default for WindowOptions {
    fn default() -> WindowOptions {
        WindowOptions::new()
    }
}

impl WindowOptions {
    /// Refresh periods without an asked-for redraw before the window counts
    /// as not painting, by default.
    pub const DEFAULT_STARVED_AFTER: u32 = 4;

    /// Immediate presentation capped at the refresh rate, the refresh rate
    /// read from the monitor, starvation after four periods.
    pub const fn new() -> WindowOptions {
        WindowOptions {
            presentation: Presentation::Immediate { max_fps: None },
            starved_after: match NonZeroU32::new(WindowOptions::DEFAULT_STARVED_AFTER) {
                Some(periods) => periods,
                None => NonZeroU32::MIN,
            },
            refresh: None,
        }
    }

    /// How the game's surface presents: see [`Presentation`].
    #[must_use]
    pub const fn presentation(mut self, presentation: Presentation) -> WindowOptions {
        self.presentation = presentation;
        self
    }

    /// Refresh periods a requested redraw may take to arrive before the
    /// window counts as not painting and tick pumps take over.
    #[must_use]
    pub const fn starved_after(mut self, periods: NonZeroU32) -> WindowOptions {
        self.starved_after = periods;
        self
    }

    /// Uses `refresh` instead of asking the monitor (a game that knows
    /// better, or a test).
    #[must_use]
    pub const fn refresh(mut self, refresh: Refresh) -> WindowOptions {
        self.refresh = Some(refresh);
        self
    }
}

/// What the event loop should do after `about_to_wait`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// End the event loop: the window was closed or the loop stopped.
    Exit,
    /// Sleep until this clock reading, or an event.
    At(Timestamp),
    /// Sleep until an event: nothing is due.
    OnEvent,
}

/// Counts of what the driver did, for tests and overlays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriverStats {
    /// Paint pumps run on a redraw.
    pub paints: u64,
    /// Tick pumps run while the window was not painting.
    pub ticks: u64,
    /// Redraws that arrived while the window was hidden, occluded or
    /// minimized, and were not painted.
    pub ignored_redraws: u64,
    /// Times redraws stopped arriving and tick pumps took over.
    pub starvations: u64,
    /// Times painting resumed after the window had stopped painting.
    pub resumptions: u64,
    /// Times the driver was asked what to do next
    /// ([`about_to_wait`](WindowDriver::about_to_wait) or
    /// [`poll`](WindowDriver::poll)): one per wake-up of the event loop.
    /// While nothing paints, this stays close to the steps and real timers
    /// due; far more would be a busy loop.
    pub wake_ups: u64,
    /// Input events pushed into the loop's queue (see the crate doc's
    /// "Input" section for which window and device events are input).
    pub input_forwarded: u64,
    /// Input events the loop refused ([`InputError`](evenstep::input::InputError)): a NaN or infinite
    /// pointer, wheel or motion value from the platform, or a queue full
    /// because the loop has not been pumped for a long time. Each is
    /// dropped, counted here, and never panics.
    pub input_refused: u64,
}

/// Drives a [`Loop`] from a winit window.
///
/// Forward four things from an `ApplicationHandler`, and the driver does
/// the rest:
///
/// - on `WindowEvent::RedrawRequested`, [`redraw`](WindowDriver::redraw):
///   a paint pump at the clock's reading; draw if its report says it
///   rendered;
/// - every window event, [`window_event`](WindowDriver::window_event): it
///   notes `Occluded` and `CloseRequested`, and pushes keyboard and mouse
///   input into the loop's queue, stamped as it arrives;
/// - for raw mouse motion, every device event,
///   [`device_event`](WindowDriver::device_event);
/// - `about_to_wait`, [`about_to_wait`](WindowDriver::about_to_wait): asks
///   for the next redraw when one is due, runs a tick pump when the window
///   is not painting and a step or real timer is due, sets
///   `ControlFlow::WaitUntil` the next of those, and exits the event loop
///   once the window was closed or the loop stopped.
///
/// Hide and show the window with [`set_visible`](WindowDriver::set_visible)
/// so the driver knows; see [`Visibility`] for what else it watches. When
/// to paint, tick, ask for a redraw and wake is [`FramePolicy`]'s to say:
/// the driver feeds it the window's events and carries out its answers.
///
/// The driver reads time from the same [`Clock`] it gives the loop, so a
/// manual clock drives a whole windowed session in a test.
pub struct WindowDriver<S> {
    game_loop: Loop<S>,
    clock: Box<dyn Clock>,
    options: WindowOptions,
    refresh: Refresh,
    /// What the platform says of the window; its `starved` is the
    /// policy's, and stays false here.
    signals: Visibility,
    policy: FramePolicy,
    /// When the window is next asked whether it is minimized.
    next_minimized_check: Timestamp,
    close_requested: bool,
    attached: bool,
    stats: DriverStats,
}

impl<S> WindowDriver<S> {
    /// A driver whose loop is built from `builder`, on the monotonic clock.
    ///
    /// # Errors
    ///
    /// The builder's [`ConfigError`].
    pub fn new(
        builder: LoopBuilder<S>,
        options: WindowOptions,
    ) -> Result<WindowDriver<S>, ConfigError> {
        WindowDriver::with_clock(builder, MonotonicClock::new(), options)
    }

    /// A driver whose loop is built from `builder` and reads `clock`, as the
    /// driver does. Any clock the builder was given is replaced, so the two
    /// can never disagree.
    ///
    /// # Errors
    ///
    /// The builder's [`ConfigError`].
    pub fn with_clock<C>(
        builder: LoopBuilder<S>,
        clock: C,
        options: WindowOptions,
    ) -> Result<WindowDriver<S>, ConfigError>
    where
        C: Clock + Clone + 'static,
    {
        let game_loop = builder.clock(clock.clone()).build()?;
        let mut driver = WindowDriver {
            game_loop,
            clock: Box::new(clock),
            options,
            refresh: options.refresh.unwrap_or_else(Refresh::fallback),
            signals: Visibility::default(),
            policy: FramePolicy::new(Nanos::ZERO),
            next_minimized_check: Timestamp::ZERO,
            close_requested: false,
            attached: false,
            stats: DriverStats::default(),
        };
        driver.pace_policy();
        Ok(driver)
    }

    /// The loop, to register subscribers and timers or to read statistics.
    pub fn game_loop(&self) -> &Loop<S> {
        &self.game_loop
    }

    /// The loop, mutably: subscribers, timers, pause, speed, stop.
    pub fn game_loop_mut(&mut self) -> &mut Loop<S> {
        &mut self.game_loop
    }

    /// The display refresh in use: read from the monitor at
    /// [`attach`](WindowDriver::attach) only, so a window moved to another
    /// monitor keeps the first monitor's rate until it is attached again
    /// (or the game passes its own with [`WindowOptions::refresh`]).
    pub fn refresh(&self) -> Refresh {
        self.refresh
    }

    /// What the driver knows of the window's visibility.
    pub fn visibility(&self) -> Visibility {
        Visibility {
            starved: self.policy.is_starved(),
            ..self.signals
        }
    }

    /// The frame-source policy as it stands: painting, away or starved, and
    /// what it waits for.
    pub fn policy(&self) -> &FramePolicy {
        &self.policy
    }

    /// What the driver has done.
    pub fn stats(&self) -> DriverStats {
        self.stats
    }

    /// Whether the window asked to close.
    pub fn close_requested(&self) -> bool {
        self.close_requested
    }

    /// Asks for the event loop to end at the next `about_to_wait`, as a
    /// `CloseRequested` does.
    pub fn request_close(&mut self) {
        self.close_requested = true;
    }

    /// Attaches the window once it exists (in `resumed`): reads the
    /// monitor's refresh rate unless the options gave one, starts the loop
    /// at the clock's reading, and asks for the first redraw. Calling it
    /// again (a window re-created after a suspend) re-reads the refresh rate,
    /// asks for a redraw and leaves the loop running.
    ///
    /// The refresh rate is read here and nowhere else: winit sends no event
    /// when a window moves to another monitor or the monitor's mode changes.
    pub fn attach(&mut self, window: &impl WindowHandle) {
        if self.options.refresh.is_none() {
            self.refresh = Refresh::from_millihertz(window.refresh_rate_millihertz());
        }
        self.pace_policy();
        // What the monitor said of its rate seeds the loop's display model;
        // the fallback is no word from the display, and says nothing.
        let reported = self.refresh.source() == RefreshSource::Monitor;
        let hint = reported.then(|| self.refresh.period().as_duration());
        self.game_loop.set_refresh_hint(hint);
        if !self.attached {
            self.attached = true;
            self.game_loop.start();
        }
        let now = self.clock.now();
        let _ = self.read_minimized(window, now);
        let action = self.policy.start(now, self.signals.is_away());
        self.carry_out(window, action);
    }

    /// Shows or hides the window and tells the driver. Hidden, the window
    /// is not painted and tick pumps keep the rules and the real timeline
    /// running; shown again, the next redraw is asked for at once.
    ///
    /// winit cannot hide a window on Wayland: there the window stays on
    /// screen showing its last frame, and the driver still stops painting
    /// it and runs tick pumps until it is shown again.
    pub fn set_visible(&mut self, window: &impl WindowHandle, visible: bool) {
        window.set_visible(visible);
        self.signals.hidden = !visible;
        let now = self.clock.now();
        self.signals_changed(window, now);
    }

    /// Notes what the driver needs from a window event: `Occluded`,
    /// `CloseRequested`, and on `Resized` and `Focused`, whether the window
    /// is now minimized; and pushes the input it means into the loop's
    /// queue, stamped with the clock's reading now (winit's events carry no
    /// time): keys, text, mouse buttons, the pointer, the wheel and a focus
    /// loss, as the crate doc's "Input" section lists. Forward every event;
    /// the game may read any of them too. (`RedrawRequested` goes to
    /// [`redraw`](WindowDriver::redraw), which needs the game state.)
    pub fn window_event(&mut self, window: &impl WindowHandle, event: &WindowEvent) {
        crate::input::window_input(event, &mut |input| self.forward(input));
        match event {
            // Minimizing and restoring come with a resize or a change of
            // focus on most desktops, though with no event of their own.
            WindowEvent::Resized(_) | WindowEvent::Focused(_) if self.attached => {
                let now = self.clock.now();
                self.note_minimized(window, now);
            }
            WindowEvent::Occluded(occluded) => {
                self.signals.occluded = *occluded;
                let now = self.clock.now();
                self.signals_changed(window, now);
            }
            WindowEvent::CloseRequested | WindowEvent::Destroyed => self.close_requested = true,
            _ => {}
        }
    }

    /// Pushes the input a device event means into the loop's queue,
    /// stamped with the clock's reading now: raw mouse motion
    /// (`DeviceEvent::MouseMotion`, in the device's units, before pointer
    /// acceleration), for mouse look. Forward every device
    /// event from `ApplicationHandler::device_event`; the rest are ignored.
    /// [`run`](crate::run) forwards them itself.
    pub fn device_event(&mut self, event: &DeviceEvent) {
        if let Some(input) = crate::input::device_input(event) {
            self.forward(input);
        }
    }

    /// Pushes `input` into the loop's queue at the clock's reading, counting
    /// it as forwarded or refused.
    fn forward(&mut self, input: InputEvent) {
        match self.game_loop.push_input_now(input) {
            Ok(()) => self.stats.input_forwarded += 1,
            Err(_) => self.stats.input_refused += 1,
        }
    }

    /// Handles `WindowEvent::RedrawRequested`: a paint pump at the clock's
    /// reading, unless the window is hidden, occluded or minimized (X11 may
    /// still send redraws to an unmapped or minimized window). Returns the
    /// pump's report when it ran; draw and present if `report.rendered`.
    pub fn redraw(&mut self, state: &mut S) -> Option<PumpReport> {
        let now = self.clock.now();
        let action = self.policy.frame_arrived(now);
        let Some(kind) = action.pump else {
            self.stats.ignored_redraws += 1;
            return None;
        };
        self.count(action.painting);
        let report = self.game_loop.pump_at(state, kind, now).report()?;
        self.stats.paints += 1;
        Some(report)
    }

    /// Handles `about_to_wait`: does what [`poll`](WindowDriver::poll)
    /// decides and sets the event loop's control flow to match.
    pub fn about_to_wait(
        &mut self,
        state: &mut S,
        event_loop: &ActiveEventLoop,
        window: &impl WindowHandle,
    ) {
        match self.poll(state, window) {
            Wake::Exit => event_loop.exit(),
            Wake::At(due) => {
                let wait = due.saturating_since(self.clock.now());
                event_loop.set_control_flow(ControlFlow::wait_duration(wait.as_duration()));
            }
            Wake::OnEvent => event_loop.set_control_flow(ControlFlow::Wait),
        }
    }

    /// The loop policy, without the event loop: exits once closed or
    /// stopped; asks the window whether it is minimized every
    /// [`Visibility::MINIMIZED_CHECK_PERIOD`]; then does what
    /// [`FramePolicy::poll`] answers: while painting, asks for a redraw
    /// when the next frame is due and notices when asked-for redraws stop
    /// arriving; while not painting, runs a tick pump when a step or real
    /// timer is due. Returns when to wake next.
    pub fn poll(&mut self, state: &mut S, window: &impl WindowHandle) -> Wake {
        self.stats.wake_ups += 1;
        if let Some(wake) = self.closing() {
            return wake;
        }
        let now = self.clock.now();
        if now >= self.next_minimized_check {
            self.note_minimized(window, now);
        }
        let action = self.policy.poll(now, self.game_loop.next_due());
        self.carry_out(window, action);
        if let Some(kind) = action.pump {
            if self.game_loop.pump_at(state, kind, now).ran() {
                self.stats.ticks += 1;
            }
            if !self.game_loop.is_running() {
                return Wake::Exit;
            }
        }
        self.wake(now)
    }

    /// `Exit` once closed (stopping the loop) or once the loop stopped;
    /// `OnEvent` until the window is attached; `None` otherwise.
    fn closing(&mut self) -> Option<Wake> {
        if self.close_requested && self.game_loop.is_running() {
            self.game_loop.stop();
        }
        if self.close_requested || (self.attached && !self.game_loop.is_running()) {
            Some(Wake::Exit)
        } else if self.attached {
            None
        } else {
            Some(Wake::OnEvent)
        }
    }

    /// When to wake after a poll at `now`: the policy's wake-up, or sooner
    /// to ask a minimized window whether it still is.
    fn wake(&self, now: Timestamp) -> Wake {
        let due = self.policy.wake_at(now, self.game_loop.next_due());
        // A minimized window may be restored with no event to say so: wake
        // to ask it, on the slow timer.
        let check = self.signals.minimized.then_some(self.next_minimized_check);
        match (due, check) {
            (Some(due), Some(check)) => Wake::At(due.min(check)),
            (Some(at), None) | (None, Some(at)) => Wake::At(at),
            (None, None) => Wake::OnEvent,
        }
    }

    /// Asks the window whether it is minimized and, on a change, tells the
    /// policy. A window that cannot tell (`None`, always on Wayland)
    /// changes nothing.
    fn note_minimized(&mut self, window: &impl WindowHandle, now: Timestamp) {
        if self.read_minimized(window, now) {
            self.signals_changed(window, now);
        }
    }

    /// Asks the window whether it is minimized, notes the answer and when
    /// to ask next, and says whether the answer changed.
    fn read_minimized(&mut self, window: &impl WindowHandle, now: Timestamp) -> bool {
        self.next_minimized_check =
            now.saturating_add(Nanos::from_duration(Visibility::MINIMIZED_CHECK_PERIOD));
        let Some(minimized) = window.is_minimized() else {
            return false;
        };
        let changed = minimized != self.signals.minimized;
        self.signals.minimized = minimized;
        changed
    }

    /// The platform's signals changed at `now`: the policy decides whether
    /// painting stops or resumes. Before the window is attached there is
    /// nothing to paint; [`attach`](WindowDriver::attach) reads the signals.
    fn signals_changed(&mut self, window: &impl WindowHandle, now: Timestamp) {
        if self.attached {
            let action = self.policy.set_away(now, self.signals.is_away());
            self.carry_out(window, action);
        }
    }

    /// Carries out what the policy answered, but its pump.
    fn carry_out(&mut self, window: &impl WindowHandle, action: FrameAction) {
        if action.request_redraw {
            window.request_redraw();
        }
        if action.begin_absence() {
            self.game_loop.begin_absence();
        }
        self.count(action.painting);
    }

    /// Sets the policy's pace for the refresh in use: paints paced unless
    /// the surface waits for vsync, starvation after the options' refresh
    /// periods.
    fn pace_policy(&mut self) {
        let presentation = self.options.presentation;
        self.policy
            .set_frame_period(presentation.frame_period(self.refresh));
        let periods = u64::from(self.options.starved_after.get());
        self.policy
            .set_starve_after(self.refresh.period().saturating_mul(periods));
    }

    fn count(&mut self, painting: Option<Painting>) {
        match painting {
            Some(Painting::Starved) => self.stats.starvations += 1,
            Some(Painting::Resumed) => self.stats.resumptions += 1,
            Some(Painting::Away) | None => {}
        }
    }
}

impl<S> std::fmt::Debug for WindowDriver<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WindowDriver")
            .field("game_loop", &self.game_loop)
            .field("options", &self.options)
            .field("refresh", &self.refresh)
            .field("visibility", &self.visibility())
            .field("policy", &self.policy)
            .field("close_requested", &self.close_requested)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

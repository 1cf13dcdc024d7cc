//! The window driver: a [`Loop`] fed from a window's events. It paints on
//! `RedrawRequested` with the clock read there, decides in `about_to_wait`
//! whether to ask for the next redraw, run a tick pump or sleep, and sleeps
//! with `ControlFlow::WaitUntil` the next thing due, never in a busy loop.

use std::num::NonZeroU32;

use evenstep::{
    Clock, ConfigError, Loop, LoopBuilder, MonotonicClock, Nanos, PumpKind, PumpReport, Timestamp,
};
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::window::Window;

use crate::{Presentation, Refresh, RefreshSource, Visibility};

/// The few things the driver asks of a window. Implemented for winit's
/// [`Window`]; a test can implement it to drive the policy without a
/// display.
pub trait WindowHandle {
    /// Asks the platform for a `RedrawRequested` event.
    fn request_redraw(&self);
    /// Shows or hides the window. (winit cannot hide a window on Wayland:
    /// there this does nothing, and the window stays on screen with its
    /// last frame.)
    fn set_visible(&self, visible: bool);
    /// The refresh rate of the monitor the window is on, if the platform
    /// reports one.
    fn refresh_rate_millihertz(&self) -> Option<u32>;
    /// Whether the window is minimized, if the platform can tell (`None`
    /// always on Wayland). By default the window cannot tell.
    fn is_minimized(&self) -> Option<bool> {
        None
    }
}

impl WindowHandle for Window {
    fn request_redraw(&self) {
        Window::request_redraw(self);
    }

    fn set_visible(&self, visible: bool) {
        Window::set_visible(self, visible);
    }

    fn refresh_rate_millihertz(&self) -> Option<u32> {
        self.current_monitor()?.refresh_rate_millihertz()
    }

    fn is_minimized(&self) -> Option<bool> {
        Window::is_minimized(self)
    }
}

// A window is usually held in an `Arc` (softbuffer and renderers keep a
// clone); a window held otherwise is passed as `&*window`.
impl<W: WindowHandle + ?Sized> WindowHandle for std::sync::Arc<W> {
    fn request_redraw(&self) {
        (**self).request_redraw();
    }

    fn set_visible(&self, visible: bool) {
        (**self).set_visible(visible);
    }

    fn refresh_rate_millihertz(&self) -> Option<u32> {
        (**self).refresh_rate_millihertz()
    }

    fn is_minimized(&self) -> Option<bool> {
        (**self).is_minimized()
    }
}

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
    /// Redraws that arrived while the window was hidden or occluded, and
    /// were not painted.
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
}

/// Drives a [`Loop`] from a winit window.
///
/// Forward three things from an `ApplicationHandler`, and the driver does
/// the rest:
///
/// - on `WindowEvent::RedrawRequested`, [`redraw`](WindowDriver::redraw):
///   a paint pump at the clock's reading; draw if its report says it
///   rendered;
/// - every window event, [`window_event`](WindowDriver::window_event): it
///   notes `Occluded` and `CloseRequested`;
/// - `about_to_wait`, [`about_to_wait`](WindowDriver::about_to_wait): asks
///   for the next redraw when one is due, runs a tick pump when the window
///   is not painting and a step or real timer is due, sets
///   `ControlFlow::WaitUntil` the next of those, and exits the event loop
///   once the window was closed or the loop stopped.
///
/// Hide and show the window with [`set_visible`](WindowDriver::set_visible)
/// so the driver knows; see [`Visibility`] for what else it watches.
///
/// The driver reads time from the same [`Clock`] it gives the loop, so a
/// manual clock drives a whole windowed session in a test.
pub struct WindowDriver<S> {
    game_loop: Loop<S>,
    clock: Box<dyn Clock>,
    options: WindowOptions,
    refresh: Refresh,
    visibility: Visibility,
    /// When the next paint may be asked for, when the driver paces paints.
    next_frame: Timestamp,
    /// When the redraw asked for and not yet arrived was asked for.
    redraw_asked: Option<Timestamp>,
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
        Ok(WindowDriver {
            game_loop,
            clock: Box::new(clock),
            options,
            refresh: options.refresh.unwrap_or_else(Refresh::fallback),
            visibility: Visibility::default(),
            next_frame: Timestamp::ZERO,
            redraw_asked: None,
            next_minimized_check: Timestamp::ZERO,
            close_requested: false,
            attached: false,
            stats: DriverStats::default(),
        })
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
        self.visibility
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
    /// again (a window re-created after a suspend) re-reads the refresh rate
    /// and leaves the loop running.
    ///
    /// The refresh rate is read here and nowhere else: winit sends no event
    /// when a window moves to another monitor or the monitor's mode changes.
    pub fn attach(&mut self, window: &impl WindowHandle) {
        if self.options.refresh.is_none() {
            self.refresh = Refresh::from_millihertz(window.refresh_rate_millihertz());
        }
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
        self.next_frame = now;
        self.note_minimized(window, now);
        if self.visibility.is_painting() {
            self.ask_redraw(window, now);
        }
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
        self.visibility.hidden = !visible;
        if visible {
            self.resume_painting(window);
        } else {
            self.stop_painting();
        }
    }

    /// Notes what the driver needs from a window event: `Occluded`,
    /// `CloseRequested`, and on `Resized` and `Focused`, whether the window
    /// is now minimized. Forward every event; the rest are the game's.
    /// (`RedrawRequested` goes to [`redraw`](WindowDriver::redraw), which
    /// needs the game state.)
    pub fn window_event(&mut self, window: &impl WindowHandle, event: &WindowEvent) {
        match event {
            // Minimizing and restoring come with a resize or a change of
            // focus on most desktops, though with no event of their own.
            WindowEvent::Resized(_) | WindowEvent::Focused(_) if self.attached => {
                let now = self.clock.now();
                self.note_minimized(window, now);
            }
            WindowEvent::Occluded(occluded) => {
                self.visibility.occluded = *occluded;
                if *occluded {
                    self.stop_painting();
                } else {
                    self.resume_painting(window);
                }
            }
            WindowEvent::CloseRequested | WindowEvent::Destroyed => self.close_requested = true,
            _ => {}
        }
    }

    /// Handles `WindowEvent::RedrawRequested`: a paint pump at the clock's
    /// reading, unless the window is hidden or occluded (an unmapped X11
    /// window may still be sent redraws). Returns the pump's report when it
    /// ran; draw and present if `report.rendered`.
    pub fn redraw(&mut self, state: &mut S) -> Option<PumpReport> {
        self.redraw_asked = None;
        if !self.visibility.accepts_redraw() {
            self.stats.ignored_redraws += 1;
            return None;
        }
        let now = self.clock.now();
        if self.visibility.starved {
            self.visibility.starved = false;
            self.stats.resumptions += 1;
        }
        let report = self
            .game_loop
            .pump_at(state, PumpKind::Paint, now)
            .report()?;
        self.stats.paints += 1;
        if let Some(period) = self.frame_period() {
            // Phase-locked: the next paint is one period after this one's
            // slot, not after its (slightly late) wake-up, unless it fell a
            // whole period behind.
            let next = self.next_frame.saturating_add(period);
            self.next_frame = if next > now {
                next
            } else {
                now.saturating_add(period)
            };
        }
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
    /// [`Visibility::MINIMIZED_CHECK_PERIOD`]; while painting, asks for a
    /// redraw when the next frame is due and notices when asked-for redraws
    /// stop arriving; while not painting, runs a tick pump when a step or
    /// real timer is due. Returns when to wake next.
    pub fn poll(&mut self, state: &mut S, window: &impl WindowHandle) -> Wake {
        self.stats.wake_ups += 1;
        if self.close_requested && self.game_loop.is_running() {
            self.game_loop.stop();
        }
        if self.close_requested || (self.attached && !self.game_loop.is_running()) {
            return Wake::Exit;
        }
        if !self.attached {
            return Wake::OnEvent;
        }
        let now = self.clock.now();
        if now >= self.next_minimized_check {
            self.note_minimized(window, now);
        }
        if self.visibility.is_painting() {
            let Some(asked) = self.redraw_asked else {
                if self.frame_period().is_some() && now < self.next_frame {
                    return Wake::At(self.next_frame);
                }
                self.ask_redraw(window, now);
                return Wake::At(now.saturating_add(self.starve_time()));
            };
            let starve_at = asked.saturating_add(self.starve_time());
            if now < starve_at {
                return Wake::At(starve_at);
            }
            // The redraw asked for never came: the window is minimized, or
            // the compositor stopped sending frames.
            self.visibility.starved = true;
            self.stats.starvations += 1;
            self.stop_painting();
        }
        // Not painting: the rules and the real timeline run on tick pumps.
        if self.visibility.starved {
            // Keep one redraw asked for: its arrival is how a window that
            // is shown again (a restored minimized window) says so.
            window.request_redraw();
        }
        if self.game_loop.next_due().is_some_and(|due| due <= now) {
            let ran = self.game_loop.pump_at(state, PumpKind::Tick, now);
            if ran.ran() {
                self.stats.ticks += 1;
            }
            if !self.game_loop.is_running() {
                return Wake::Exit;
            }
        }
        // Never wake for a due time that has passed: a timer that keeps
        // being due would otherwise spin.
        let due = self
            .game_loop
            .next_due()
            .map(|due| due.max(now.saturating_add(Nanos::from_millis(1))));
        // A minimized window may be restored with no event to say so: wake
        // to ask it, on the slow timer.
        let check = self
            .visibility
            .minimized
            .then_some(self.next_minimized_check);
        match (due, check) {
            (Some(due), Some(check)) => Wake::At(due.min(check)),
            (Some(at), None) | (None, Some(at)) => Wake::At(at),
            (None, None) => Wake::OnEvent,
        }
    }

    /// Asks the window whether it is minimized and acts on a change: stops
    /// painting when it is, paints again when it no longer is. A window
    /// that cannot tell (`None`, always on Wayland) changes nothing.
    fn note_minimized(&mut self, window: &impl WindowHandle, now: Timestamp) {
        self.next_minimized_check =
            now.saturating_add(Nanos::from_duration(Visibility::MINIMIZED_CHECK_PERIOD));
        let Some(minimized) = window.is_minimized() else {
            return;
        };
        if minimized == self.visibility.minimized {
            return;
        }
        self.visibility.minimized = minimized;
        if minimized {
            self.stop_painting();
        } else {
            self.resume_painting(window);
        }
    }

    /// The window stopped showing frames: no redraw is awaited, and the
    /// loop counts the gap to the next paint as an absence, however short.
    fn stop_painting(&mut self) {
        self.redraw_asked = None;
        self.game_loop.begin_absence();
    }

    fn ask_redraw(&mut self, window: &impl WindowHandle, now: Timestamp) {
        window.request_redraw();
        self.redraw_asked = Some(now);
    }

    fn resume_painting(&mut self, window: &impl WindowHandle) {
        if self.visibility.is_painting() && self.attached {
            let now = self.clock.now();
            self.stats.resumptions += 1;
            self.next_frame = now;
            self.ask_redraw(window, now);
        }
    }

    fn frame_period(&self) -> Option<Nanos> {
        self.options.presentation.frame_period(self.refresh)
    }

    fn starve_time(&self) -> Nanos {
        self.refresh
            .period()
            .saturating_mul(u64::from(self.options.starved_after.get()))
    }
}

impl<S> std::fmt::Debug for WindowDriver<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WindowDriver")
            .field("game_loop", &self.game_loop)
            .field("options", &self.options)
            .field("refresh", &self.refresh)
            .field("visibility", &self.visibility)
            .field("next_frame", &self.next_frame)
            .field("redraw_asked", &self.redraw_asked)
            .field("close_requested", &self.close_requested)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

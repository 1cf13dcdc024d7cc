//! The bounce demo in a window: evenstep-demo's world, drawn with
//! softbuffer, driven by the window driver. Shared by the `bounce` example,
//! the window tests and the window figures (`bench/experiments`).

use std::sync::Arc;
use std::time::Duration;

use evenstep::{Loop, LoopBuilder, Nanos, PumpReport};
use evenstep_demo::{Action, Bounce, Outcome};
use evenstep_winit::{WindowDriver, WindowGame};
use winit::dpi::LogicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::window::{Window, WindowAttributes};

/// How long `H` hides the window.
const HIDE_FOR: Duration = Duration::from_secs(2);
/// How often the title is rewritten, in real time.
const TITLE_EVERY: Nanos = Nanos::from_millis(500);

/// The demo's state in a window.
pub(crate) struct BounceWindow {
    /// The world, settings and chart, as every host has them.
    pub(crate) bounce: Bounce,
    surface: Option<crate::present::Surface>,
    /// Set by a real-time timer two seconds after the window hid itself.
    show_due: bool,
    title_written: Option<Nanos>,
    /// Frames drawn and presented.
    pub(crate) frames_drawn: u64,
    /// Frames that could not be drawn or presented (the surface refused a
    /// resize, a buffer or the present). The first is printed; the rest
    /// are only counted, so a broken surface does not flood the terminal.
    pub(crate) frames_failed: u64,
    /// Called at every `about_to_wait` before the demo's own work: how the
    /// measuring example and the window tests script a session.
    pub(crate) on_wait: Option<Box<WaitHook>>,
}

/// A script run at every `about_to_wait`.
pub(crate) type WaitHook = dyn FnMut(&Arc<Window>, &mut WindowDriver<BounceWindow>);

impl BounceWindow {
    pub(crate) fn new() -> BounceWindow {
        BounceWindow {
            bounce: Bounce::new(),
            surface: None,
            show_due: false,
            title_written: None,
            frames_drawn: 0,
            frames_failed: 0,
            on_wait: None,
        }
    }

    /// The loop the demo runs: 20 Hz steps, recording every step's input.
    pub(crate) fn loop_builder() -> LoopBuilder<BounceWindow> {
        Bounce::loop_builder(|game: &BounceWindow| &game.bounce)
    }

    /// Hides the window; a real-time timer shows it again, so the rules,
    /// the real clock and the timer all keep running while nothing paints.
    /// If the timer cannot be set, the window is not hidden: it would never
    /// come back.
    fn hide_briefly(window: &Window, driver: &mut WindowDriver<BounceWindow>) {
        let timer = driver
            .game_loop_mut()
            .real()
            .after(HIDE_FOR, |game: &mut BounceWindow, _| game.show_due = true);
        match timer {
            Ok(_) => driver.set_visible(window, false),
            Err(e) => eprintln!("bounce: not hiding, no timer to show the window again: {e}"),
        }
    }

    /// Notes a frame that could not be drawn: printed the first time,
    /// counted every time.
    fn frame_failed(&mut self, why: &dyn std::fmt::Display) {
        if self.frames_failed == 0 {
            eprintln!("bounce: a frame was not drawn: {why} (later failures are only counted)");
        }
        self.frames_failed += 1;
    }
}

impl WindowGame for BounceWindow {
    fn window_attributes(&self) -> WindowAttributes {
        Window::default_attributes()
            .with_title("evenstep bounce")
            .with_inner_size(LogicalSize::new(640.0, 400.0))
    }

    fn attached(&mut self, window: &Arc<Window>, driver: &mut WindowDriver<BounceWindow>) {
        let game_loop = driver.game_loop_mut();
        game_loop.on_update(|game: &mut BounceWindow, step| game.bounce.update(step));
        game_loop.set_speed(self.bounce.settings.speed());
        game_loop.set_pacing(self.bounce.settings.pacing());
        // A surface that cannot be made leaves the window undrawn; the
        // loop, the title and the keys still work.
        self.surface = crate::present::surface(window)
            .map_err(|e| eprintln!("bounce: {e}"))
            .ok();
    }

    fn window_event(
        &mut self,
        window: &Arc<Window>,
        driver: &mut WindowDriver<BounceWindow>,
        event: &WindowEvent,
    ) {
        // The world's keys (N, X, R) need nothing here: the driver has
        // pushed them into the loop's input queue, where the steps read them.
        if let WindowEvent::KeyboardInput { event, .. } = event
            && event.state == ElementState::Pressed
            && let Some(action) = crate::keys::key_of(&event.logical_key).and_then(Action::for_key)
            // A held key repeats steps and speed, never a toggle.
            && (!event.repeat || action.repeats())
        {
            match self.bounce.act(action, driver.game_loop_mut()) {
                Outcome::Handled => {}
                Outcome::HideBriefly => BounceWindow::hide_briefly(window, driver),
                Outcome::Quit => driver.request_close(),
            }
        }
    }

    fn draw(&mut self, window: &Arc<Window>, game_loop: &Loop<BounceWindow>, report: &PumpReport) {
        self.bounce.chart.record(report, game_loop);
        // No surface was made: already reported at attach.
        if self.surface.is_none() {
            return;
        }
        match crate::present::present(self.surface.as_mut(), window, &self.bounce, game_loop) {
            Ok(true) => self.frames_drawn += 1,
            Ok(false) => {} // minimized to nothing: there is nothing to draw on
            Err(why) => self.frame_failed(&why),
        }
    }

    fn about_to_wait(&mut self, window: &Arc<Window>, driver: &mut WindowDriver<BounceWindow>) {
        if let Some(hook) = self.on_wait.as_mut() {
            hook(window, driver);
        }
        if self.show_due {
            self.show_due = false;
            driver.set_visible(window, true);
        }
        let real = driver.game_loop().real_time();
        if self
            .title_written
            .is_none_or(|at| real.saturating_sub(at) >= TITLE_EVERY)
        {
            self.title_written = Some(real);
            window.set_title(&self.bounce.title(driver.game_loop()));
        }
    }
}

//! The window as the driver sees it: the few things it asks of one, so that
//! winit's [`Window`] and a test's stand-in serve alike.

use winit::window::Window;

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

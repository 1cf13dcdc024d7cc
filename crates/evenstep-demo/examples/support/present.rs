//! Drawing a bounce frame into a softbuffer surface and presenting it: what
//! every example that opens a window does with a paint pump that rendered.

use std::num::NonZeroU32;
use std::sync::Arc;

use evenstep::Loop;
use evenstep_demo::{Bounce, Canvas, Hud};
use winit::window::Window;

/// The software surface the examples draw on.
pub(crate) type Surface = softbuffer::Surface<Arc<Window>, Arc<Window>>;

/// A software surface for `window`; an error says why there is none.
pub(crate) fn surface(window: &Arc<Window>) -> Result<Surface, String> {
    softbuffer::Context::new(window.clone())
        .and_then(|context| Surface::new(&context, window.clone()))
        .map_err(|e| format!("no software surface for the window: {e}"))
}

/// Draws `bounce`, interpolated at the loop's alpha and with its overlay,
/// into `surface` at the window's size, and presents it. `Ok(false)`: the
/// window is minimized to nothing, and there is nothing to draw on. An
/// error says which part failed.
pub(crate) fn present<S>(
    surface: Option<&mut Surface>,
    window: &Window,
    bounce: &Bounce,
    game_loop: &Loop<S>,
) -> Result<bool, String> {
    let Some(surface) = surface else {
        return Err("no surface".to_owned());
    };
    let size = window.inner_size();
    let (Some(width), Some(height)) = (NonZeroU32::new(size.width), NonZeroU32::new(size.height))
    else {
        return Ok(false);
    };
    surface
        .resize(width, height)
        .map_err(|e| format!("resizing the surface to {width}×{height}: {e}"))?;
    let mut buffer = surface
        .buffer_mut()
        .map_err(|e| format!("getting the surface's buffer: {e}"))?;
    let mut canvas = Canvas::new(&mut buffer, width.get(), height.get())
        .map_err(|e| format!("the surface's buffer: {e}"))?;
    bounce.draw(&mut canvas, game_loop.alpha(), &Hud::read(game_loop));
    window.pre_present_notify();
    buffer
        .present()
        .map_err(|e| format!("presenting the frame: {e}"))
        .map(|()| true)
}

//! Drawing the demo into the page's canvas: the shared world drawn into a
//! pixel buffer, converted to RGBA and put on a 2D canvas, with a line
//! under the overlay for what only a page has to say.

use evenstep::{Clock, Loop, PumpReport};
use evenstep_demo::{Canvas, Hud, TEXT};
use evenstep_web::PageClock;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

use crate::{Game, error};

/// The canvas and the buffers drawn into it.
pub(crate) struct Painter {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    pixels: Vec<u32>,
    rgba: Vec<u8>,
    clock: PageClock,
}

impl Painter {
    /// A painter for the `<canvas>` with id `canvas_id`.
    pub(crate) fn for_canvas(canvas_id: &str) -> Result<Painter, JsValue> {
        let document = web_sys::window()
            .and_then(|w| w.document())
            .ok_or_else(|| error("no document: the demo runs in a browser page"))?;
        let canvas = document
            .get_element_by_id(canvas_id)
            .ok_or_else(|| error(format!("no element with id {canvas_id:?} in the page")))?
            .dyn_into::<HtmlCanvasElement>()
            .map_err(|_| error(format!("the element {canvas_id:?} is not a <canvas>")))?;
        let context = canvas
            .get_context("2d")?
            .ok_or_else(|| error("the canvas has no 2d context"))?
            .dyn_into::<CanvasRenderingContext2d>()?;
        Ok(Painter {
            canvas,
            context,
            pixels: Vec::new(),
            rgba: Vec::new(),
            clock: PageClock::new().map_err(error)?,
        })
    }

    /// The canvas drawn into.
    pub(crate) fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }

    /// Draws a frame that rendered, interpolated at the loop's alpha, and
    /// adds the time it took to the game's `draw_time`.
    pub(crate) fn paint(&mut self, game: &mut Game, game_loop: &Loop<Game>, report: &PumpReport) {
        let began = self.clock.now();
        let (width, height) = (self.canvas.width(), self.canvas.height());
        let pixels = (width as usize) * (height as usize);
        self.pixels.resize(pixels, 0);
        self.rgba.resize(pixels * 4, 0);
        game.bounce.chart.record(report, game_loop);
        let Ok(mut canvas) = Canvas::new(&mut self.pixels, width, height) else {
            return;
        };
        game.bounce
            .draw(&mut canvas, game_loop.alpha(), &Hud::read(game_loop));
        // Under the overlay's three lines (7 font pixels each, from y 6).
        let (scale, line_y) = if width >= 480 { (2, 48) } else { (1, 27) };
        let line = match (game.note, game.last_away) {
            (Some(note), _) => Some(note.to_owned()),
            (None, Some((away, caught_up))) => Some(format!(
                "BACK AFTER {:.1} S: {} STEPS RAN, {} DROPPED, {} CAUGHT UP",
                away.span().as_secs_f64(),
                away.steps,
                away.dropped_steps,
                caught_up
            )),
            (None, None) => None,
        };
        if let Some(line) = line {
            canvas.text(6, line_y, &line, scale, TEXT);
        }
        if canvas.write_rgba(&mut self.rgba).is_ok()
            && let Ok(image) =
                ImageData::new_with_u8_clamped_array_and_sh(Clamped(&self.rgba), width, height)
        {
            let _ = self.context.put_image_data(&image, 0.0, 0.0);
        }
        game.draw_time = game
            .draw_time
            .saturating_add(self.clock.now().saturating_since(began));
    }
}

//! The canvas: a borrowed buffer of `0x00RRGGBB` pixels with the few shapes
//! the demo draws. That is softbuffer's native format; a browser's canvas
//! takes RGBA bytes, which [`Canvas::write_rgba`] produces.

// Pixel coordinates move between signed (a shape may start off the canvas)
// and unsigned (indices); every cast here follows a clamp to the canvas.
#![allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "each coordinate is clamped to the canvas before it is cast"
)]

use core::fmt;

use crate::font;

/// A buffer of `width × height` pixels, row by row, each `0x00RRGGBB`.
pub struct Canvas<'a> {
    pixels: &'a mut [u32],
    width: u32,
    height: u32,
}

/// A buffer whose length is not `width × height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeMismatch {
    /// The pixels the buffer holds.
    pub len: usize,
    /// The width asked for.
    pub width: u32,
    /// The height asked for.
    pub height: u32,
}

impl fmt::Display for SizeMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a buffer of {} pixels cannot be a {}×{} canvas; it must hold exactly width × height = {} pixels",
            self.len,
            self.width,
            self.height,
            u64::from(self.width) * u64::from(self.height)
        )
    }
}

impl std::error::Error for SizeMismatch {}

impl<'a> Canvas<'a> {
    /// A canvas over `pixels`.
    ///
    /// # Errors
    ///
    /// [`SizeMismatch`] unless `pixels` holds exactly `width × height`
    /// pixels.
    pub fn new(pixels: &'a mut [u32], width: u32, height: u32) -> Result<Canvas<'a>, SizeMismatch> {
        let wanted = u64::from(width) * u64::from(height);
        if pixels.len() as u64 != wanted {
            return Err(SizeMismatch {
                len: pixels.len(),
                width,
                height,
            });
        }
        Ok(Canvas {
            pixels,
            width,
            height,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, row by row.
    pub fn pixels(&self) -> &[u32] {
        self.pixels
    }

    /// Paints every pixel `colour`.
    pub fn clear(&mut self, colour: u32) {
        self.pixels.fill(colour);
    }

    /// Fills the rectangle from `(x, y)`, `w × h` pixels, clipped to the
    /// canvas.
    pub fn fill_rect(&mut self, x: i32, y: i32, w: u32, h: u32, colour: u32) {
        let x0 = x.clamp(0, self.width as i32) as u32;
        let y0 = y.clamp(0, self.height as i32) as u32;
        let x1 = (i64::from(x) + i64::from(w)).clamp(0, i64::from(self.width)) as u32;
        let y1 = (i64::from(y) + i64::from(h)).clamp(0, i64::from(self.height)) as u32;
        for row in y0..y1 {
            let start = (row * self.width) as usize;
            self.pixels[start + x0 as usize..start + x1 as usize].fill(colour);
        }
    }

    /// Fills a disc centred at `(cx, cy)`, clipped to the canvas. Hard edged:
    /// every pixel is exactly `colour`, which a screenshot test relies on.
    pub fn fill_disc(&mut self, cx: f32, cy: f32, radius: f32, colour: u32) {
        let top = (cy - radius).floor().max(0.0) as u32;
        let bottom = ((cy + radius).ceil().max(0.0) as u32).min(self.height);
        let r2 = radius * radius;
        for row in top..bottom {
            let dy = row as f32 + 0.5 - cy;
            let half = r2 - dy * dy;
            if half <= 0.0 {
                continue;
            }
            let half = half.sqrt();
            let left = (cx - half).round().max(0.0) as u32;
            let right = ((cx + half).round().max(0.0) as u32).min(self.width);
            if left < right {
                let start = (row * self.width) as usize;
                self.pixels[start + left as usize..start + right as usize].fill(colour);
            }
        }
    }

    /// Writes `text` with its top-left corner at `(x, y)` in the 3×5 font,
    /// each font pixel `scale` pixels square. Returns the x after the text.
    pub fn text(&mut self, x: i32, y: i32, text: &str, scale: u32, colour: u32) -> i32 {
        let scale = scale.max(1);
        let mut pen = x;
        for c in text.chars() {
            let glyph = font::glyph_of(c);
            for row in 0..5 {
                for column in 0..3 {
                    if font::lit(glyph, column, row) {
                        self.fill_rect(
                            pen + (column * scale) as i32,
                            y + (row * scale) as i32,
                            scale,
                            scale,
                            colour,
                        );
                    }
                }
            }
            pen += (4 * scale) as i32;
        }
        pen
    }

    /// The canvas as RGBA bytes (alpha opaque), the layout a browser's
    /// `ImageData` takes.
    ///
    /// # Errors
    ///
    /// [`SizeMismatch`] unless `out` holds exactly four bytes per pixel.
    pub fn write_rgba(&self, out: &mut [u8]) -> Result<(), SizeMismatch> {
        if out.len() != self.pixels.len() * 4 {
            return Err(SizeMismatch {
                len: out.len() / 4,
                width: self.width,
                height: self.height,
            });
        }
        for (bytes, &pixel) in out.chunks_exact_mut(4).zip(self.pixels.iter()) {
            let [_, r, g, b] = pixel.to_be_bytes();
            bytes.copy_from_slice(&[r, g, b, 0xFF]);
        }
        Ok(())
    }
}

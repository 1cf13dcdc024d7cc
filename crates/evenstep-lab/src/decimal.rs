//! Exact decimal parsing: `"16.666667"` milliseconds is exactly 16,666,667
//! nanoseconds, with no float rounding on the way, so timestamps written as
//! decimals round-trip.

/// Parses a non-negative decimal (`123`, `0.5`, `.25`, `+7`, or an exponent
/// form such as `1.5e3`) into its value times `10^scale`, rounded to the
/// nearest integer. `None` for anything else, negatives and NaN included.
pub(crate) fn parse_scaled(text: &str, scale: u32) -> Option<u128> {
    let text = text.trim();
    let text = text.strip_prefix('+').unwrap_or(text);
    if text.contains(['e', 'E']) {
        return parse_exponent_form(text, scale);
    }
    let (whole, fraction) = split_plain(text)?;
    let mut value: u128 = 0;
    for b in whole.bytes() {
        value = value.checked_mul(10)?.checked_add(u128::from(b - b'0'))?;
    }
    let mut digits = fraction.bytes();
    for _ in 0..scale {
        let digit = digits.next().map_or(0, |b| b - b'0');
        value = value.checked_mul(10)?.checked_add(u128::from(digit))?;
    }
    // Round half up on the first digit past the scale.
    if digits.next().is_some_and(|b| b >= b'5') {
        value = value.checked_add(1)?;
    }
    Some(value)
}

/// Splits plain digits with an optional point into the digits before and
/// after it. `None` when there are no digits at all or anything else appears.
fn split_plain(text: &str) -> Option<(&str, &str)> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = whole.bytes().chain(fraction.bytes());
    if (whole.is_empty() && fraction.is_empty()) || !digits.clone().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((whole, fraction))
}

/// The exponent form, through `f64` (it is rare in timestamp files, and its
/// precision is already a float's).
fn parse_exponent_form(text: &str, scale: u32) -> Option<u128> {
    let value: f64 = text.parse().ok()?;
    let scaled = value * 10_f64.powi(i32::try_from(scale).ok()?);
    if !scaled.is_finite() || scaled < 0.0 || scaled >= 2_f64.powi(100) {
        return None;
    }
    // Non-negative and under 2^100: the cast is exact after rounding.
    #[allow(clippy::cast_sign_loss, reason = "checked non-negative above")]
    Some(scaled.round() as u128)
}

/// A decimal as an exact fraction `(numerator, 10^digits)`, for rates such as
/// `59.94`. `None` for anything that is not plain digits with an optional
/// point, or that does not fit.
pub(crate) fn parse_fraction(text: &str) -> Option<(u64, u64)> {
    let text = text.trim();
    let (whole, fraction) = split_plain(text)?;
    let mut numerator: u64 = 0;
    let mut denominator: u64 = 1;
    for b in whole.bytes() {
        numerator = numerator
            .checked_mul(10)?
            .checked_add(u64::from(b - b'0'))?;
    }
    for b in fraction.bytes() {
        numerator = numerator
            .checked_mul(10)?
            .checked_add(u64::from(b - b'0'))?;
        denominator = denominator.checked_mul(10)?;
    }
    Some((numerator, denominator))
}

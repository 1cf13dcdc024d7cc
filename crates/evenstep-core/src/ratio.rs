//! The arithmetic of exact fractions that the rate, step and speed types
//! share: reduction to lowest terms keeps each of them canonical, so equal
//! values compare equal in any terms.

/// The greatest common divisor of `a` and `b`, by Euclid's algorithm;
/// `gcd(0, b)` is `b`, and `gcd(0, 0)` is 0. One width serves every caller:
/// their operands fit 128 bits, and none of them reduces in a hot path.
pub(crate) const fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::gcd;

    #[test]
    fn the_gcd_is_the_largest_common_divisor_and_zero_leaves_the_other_term() {
        assert_eq!(gcd(60_000, 1_001), 1);
        assert_eq!(gcd(120, 2), 2);
        assert_eq!(gcd(2, 120), 2);
        assert_eq!(gcd(0, 7), 7);
        assert_eq!(gcd(7, 0), 7);
        assert_eq!(gcd(0, 0), 0);
        assert_eq!(gcd(u128::MAX, u128::MAX), u128::MAX);
    }
}

//! Contract: every Rust example in the crate's README is one of the crate
//! doc's examples, line for line (less the lines a doctest hides), so the
//! doctests compile and run what the README shows.

// One check for every published crate, kept beside the core's tests.
#[path = "../../evenstep-core/tests/support/readme.rs"]
mod readme;

#[test]
fn every_rust_example_in_the_readme_is_a_doctest_of_the_crate_doc() {
    readme::check(include_str!("../README.md"), include_str!("../src/lib.rs"));
}

//! Contract: every Rust example in a published crate's README is one of the
//! crate doc's examples, line for line (less the lines a doctest hides), so
//! the doctests compile and run what the README shows.

#[path = "support/readme.rs"]
mod readme;

/// A crate's README and the root of its library, by the crate's folder.
macro_rules! crate_files {
    ($dir:literal) => {
        (
            include_str!(concat!("../../", $dir, "/README.md")),
            include_str!(concat!("../../", $dir, "/src/lib.rs")),
        )
    };
}

#[test]
fn every_rust_example_in_the_core_readme_is_a_doctest_of_its_crate_doc() {
    let (readme, lib_rs) = crate_files!("evenstep-core");
    readme::check(readme, lib_rs);
}

#[test]
fn every_rust_example_in_the_loop_readme_is_a_doctest_of_its_crate_doc() {
    let (readme, lib_rs) = crate_files!("evenstep");
    readme::check(readme, lib_rs);
}

#[test]
fn every_rust_example_in_the_bevy_readme_is_a_doctest_of_its_crate_doc() {
    let (readme, lib_rs) = crate_files!("evenstep-bevy");
    readme::check(readme, lib_rs);
}

#[test]
fn every_rust_example_in_the_web_readme_is_a_doctest_of_its_crate_doc() {
    let (readme, lib_rs) = crate_files!("evenstep-web");
    readme::check(readme, lib_rs);
}

#[test]
fn every_rust_example_in_the_winit_readme_is_a_doctest_of_its_crate_doc() {
    let (readme, lib_rs) = crate_files!("evenstep-winit");
    readme::check(readme, lib_rs);
}

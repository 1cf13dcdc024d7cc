//! Nothing to use: this crate holds the workspace's own tests, those that
//! read more than one crate's files or files beside the repository, so no
//! crate's package can carry them. Its tests are in `tests/`; the root
//! README's examples are its doctests.

// The root README's examples are compiled and run as doctests, so they
// never rot.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct RootReadmeDoctests;

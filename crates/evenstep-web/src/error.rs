//! What can go wrong when a frame source is built, started or reached, each
//! said with what to do instead.

use core::fmt;

use evenstep::ConfigError;

/// An error from a page frame source.
#[derive(Clone, Debug, PartialEq)]
pub enum WebError {
    /// `start` on a frame source that is already started: its callbacks are
    /// registered once. Stop it first, or keep using the running one.
    AlreadyStarted,
    /// The frame source was reached from inside one of its own callbacks
    /// (a paint or return hook, or code they ran synchronously), while the
    /// state and the loop were in use. Use the loop the hook is given.
    Busy,
    /// Something a frame source needs is not there: it runs on a browser
    /// page's main thread, with a `window`, a `document` and `performance`.
    NoPage {
        /// What was missing.
        missing: &'static str,
    },
    /// The loop's configuration was refused.
    Config(ConfigError),
    /// A browser call failed.
    Browser {
        /// The call.
        call: &'static str,
        /// What the browser said.
        message: String,
    },
}

impl fmt::Display for WebError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebError::AlreadyStarted => f.write_str(
                "the frame source is already started: its callbacks are registered once; stop it before starting it again",
            ),
            WebError::Busy => f.write_str(
                "the frame source is busy: it was reached from inside one of its own callbacks; use the state and loop the callback was given",
            ),
            WebError::NoPage { missing } => write!(
                f,
                "no {missing}: a page frame source runs on a browser page's main thread (with window, document and performance), not in a worker or outside a browser"
            ),
            WebError::Config(error) => write!(f, "the loop's configuration was refused: {error}"),
            WebError::Browser { call, message } => write!(f, "the browser refused {call}: {message}"),
        }
    }
}

impl std::error::Error for WebError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WebError::Config(error) => Some(error),
            _ => None,
        }
    }
}

impl From<ConfigError> for WebError {
    fn from(error: ConfigError) -> WebError {
        WebError::Config(error)
    }
}

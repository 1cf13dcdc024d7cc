//! Contract: every error a page frame source gives says what went wrong and
//! what to do instead, and a refused loop configuration keeps its cause.

use std::error::Error;
use std::time::Duration;

use evenstep::{Loop, ManualClock};
use evenstep_web::{PageDriver, PageOptions, WebError};

#[test]
fn each_error_says_what_to_do_instead() {
    let cases = [
        (WebError::AlreadyStarted, "stop it before starting it again"),
        (
            WebError::Busy,
            "use the state and loop the callback was given",
        ),
        (WebError::NoPage { missing: "window" }, "no window"),
        (
            WebError::Browser {
                call: "addEventListener",
                message: "refused".to_owned(),
            },
            "the browser refused addEventListener: refused",
        ),
    ];
    for (error, says) in cases {
        let message = error.to_string();
        assert!(message.contains(says), "{message:?} does not say {says:?}");
    }
    let no_page = WebError::NoPage { missing: "window" }.to_string();
    assert!(no_page.contains("main thread"), "{no_page}");
}

#[test]
fn a_refused_loop_configuration_is_a_config_error_with_its_cause() {
    let refused = PageDriver::<()>::with_clock(
        Loop::builder().absence_threshold(Duration::ZERO),
        ManualClock::new(),
        PageOptions::new(),
    );
    let error = WebError::from(refused.unwrap_err());
    assert!(matches!(error, WebError::Config(_)));
    assert!(error.source().is_some());
    assert!(
        error
            .to_string()
            .starts_with("the loop's configuration was refused")
    );
}

//! A browser session for the tests and the measuring run: the built page
//! (refused if missing or older than its sources), served locally, one
//! headless Chromium, and the helpers every scenario uses: open the demo in
//! a tab and wait for it, read its status, hide and show it, collect the
//! errors its console reported.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

use crate::cdp::{Cdp, Tab, close_target};
use crate::chromium::Chromium;
use crate::server::StaticServer;

/// Everything a scenario needs.
pub(crate) struct Session {
    pub(crate) cdp: Cdp,
    pub(crate) server: StaticServer,
    pub(crate) scratch: PathBuf,
    // Last, so the connection and server go before the browser is killed.
    pub(crate) chromium: Chromium,
}

impl Session {
    /// Finds the built page, serves it, launches Chromium and connects.
    pub(crate) fn start() -> Result<Session, String> {
        let workspace = workspace();
        let page = page_dir(&workspace);
        check_page(&workspace, &page)?;
        let scratch = target_dir(&workspace).join("tmp").join("browser-tests");
        std::fs::create_dir_all(&scratch)
            .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
        let server = StaticServer::start(&page)?;
        let chromium = Chromium::launch(&scratch)?;
        let cdp = Cdp::connect(&chromium.websocket)?;
        Ok(Session {
            cdp,
            server,
            scratch,
            chromium,
        })
    }

    /// Opens the demo page in a new tab in front, and waits until it runs.
    pub(crate) fn open_demo(&mut self) -> Result<Tab, String> {
        let url = self.server.url("index.html");
        let tab = Tab::open(&mut self.cdp, &url)?;
        tab.activate(&mut self.cdp)?;
        self.wait_ready(&tab)?;
        Ok(tab)
    }

    /// Waits until the page says the demo started, or why it did not.
    pub(crate) fn wait_ready(&mut self, tab: &Tab) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let state = tab.eval(
                &mut self.cdp,
                "window.demoError ? 'error: ' + window.demoError : (window.demoReady === true ? 'ready' : 'loading')",
            )?;
            match state.as_str() {
                Some("ready") => return Ok(()),
                Some(error) if error.starts_with("error") => {
                    return Err(format!("the demo did not start: {error}"));
                }
                _ if Instant::now() >= deadline => {
                    return Err("the demo did not start within 15 s".to_owned());
                }
                _ => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// The demo's status (see the `page` example's `status`).
    pub(crate) fn status(&mut self, tab: &Tab) -> Result<Status, String> {
        let json = tab.eval(&mut self.cdp, "demo.status()")?;
        let text = json.as_str().ok_or("status() did not return a string")?;
        serde_json::from_str(text)
            .map(Status)
            .map_err(|e| format!("status() returned bad JSON ({e}): {text}"))
    }

    /// Hides `tab` by opening a blank tab in front of it. Returns the blank
    /// tab, to close when done.
    pub(crate) fn hide(&mut self, tab: &Tab) -> Result<String, String> {
        let blank = Tab::blank(&mut self.cdp)?;
        self.cdp.call(
            None,
            "Target.activateTarget",
            serde_json::json!({ "targetId": blank }),
        )?;
        self.wait_hidden(tab, true)?;
        Ok(blank)
    }

    /// Shows `tab` again by bringing it to the front and closing `blank`.
    pub(crate) fn show(&mut self, tab: &Tab, blank: &str) -> Result<(), String> {
        tab.activate(&mut self.cdp)?;
        self.wait_hidden(tab, false)?;
        close_target(&mut self.cdp, blank)
    }

    fn wait_hidden(&mut self, tab: &Tab, hidden: bool) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(5);
        while tab.eval(&mut self.cdp, "document.hidden")? != Value::Bool(hidden) {
            if Instant::now() >= deadline {
                return Err(format!(
                    "document.hidden did not become {hidden} within 5 s"
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }

    /// The exceptions and console errors `tab` reported since the last call.
    pub(crate) fn page_errors(&mut self, tab: &Tab) -> Result<Vec<String>, String> {
        let events = self.cdp.take_events(&tab.session)?;
        Ok(events
            .iter()
            .filter_map(|event| match event["method"].as_str() {
                Some("Runtime.exceptionThrown") => Some(format!(
                    "exception: {}",
                    event["params"]["exceptionDetails"]["exception"]["description"]
                        .as_str()
                        .or_else(|| event["params"]["exceptionDetails"]["text"].as_str())
                        .unwrap_or("?")
                )),
                Some("Runtime.consoleAPICalled")
                    if event["params"]["type"].as_str() == Some("error") =>
                {
                    Some(format!(
                        "console error: {}",
                        event["params"]["args"]
                            .as_array()
                            .map(|args| {
                                args.iter()
                                    .map(|a| a["value"].as_str().unwrap_or("?").to_owned())
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            })
                            .unwrap_or_default()
                    ))
                }
                _ => None,
            })
            .collect())
    }
}

/// The demo's status, with typed readers.
#[derive(Clone, Debug)]
pub(crate) struct Status(pub(crate) Value);

impl Status {
    /// A whole-number field.
    pub(crate) fn n(&self, key: &str) -> u64 {
        self.0[key].as_u64().unwrap_or(0)
    }

    /// A nanosecond field in seconds.
    pub(crate) fn secs(&self, key: &str) -> f64 {
        self.n(key) as f64 / 1e9
    }

    /// A boolean field.
    pub(crate) fn flag(&self, key: &str) -> bool {
        self.0[key].as_bool().unwrap_or(false)
    }

    /// A whole-number field of the latest absence.
    pub(crate) fn away(&self, key: &str) -> Option<u64> {
        self.0["away"][key].as_u64()
    }
}

/// The repository's root: the nearest folder above the crate being built
/// that holds `crates/evenstep-web` (`crates/evenstep-demo`, for the browser
/// tests; `bench/experiments/browser`, for the measuring run).
pub(crate) fn workspace() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("crates/evenstep-web/build-page.sh").is_file())
        .unwrap_or(manifest)
        .to_path_buf()
}

fn target_dir(workspace: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace.join("target"), PathBuf::from)
}

/// `$EVENSTEP_WEB_PAGE`, or where `build-page.sh` puts the page.
fn page_dir(workspace: &Path) -> PathBuf {
    std::env::var_os("EVENSTEP_WEB_PAGE").map_or_else(
        || target_dir(workspace).join("evenstep-web-page"),
        PathBuf::from,
    )
}

/// Refuses a missing page, and one older than the code it was built from:
/// a test of a stale page would test the wrong thing.
fn check_page(workspace: &Path, page: &Path) -> Result<(), String> {
    let module = page.join("page_bg.wasm");
    let built = std::fs::metadata(&module)
        .and_then(|m| m.modified())
        .map_err(|_| {
            format!(
                "the demo page is not built ({} is missing): run crates/evenstep-web/build-page.sh",
                module.display()
            )
        })?;
    let sources = [
        "crates/evenstep-core/src",
        "crates/evenstep/src",
        "crates/evenstep-demo/src",
        "crates/evenstep-web/src",
        "crates/evenstep-demo/examples/page.rs",
        "crates/evenstep-demo/examples/page",
    ];
    for source in sources {
        if let Some((newest, file)) = newest(&workspace.join(source))
            && newest > built
        {
            return Err(format!(
                "the demo page is older than {}: run crates/evenstep-web/build-page.sh",
                file.display()
            ));
        }
    }
    Ok(())
}

fn newest(path: &Path) -> Option<(SystemTime, PathBuf)> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.is_file() {
        return Some((meta.modified().ok()?, path.to_path_buf()));
    }
    std::fs::read_dir(path)
        .ok()?
        .flatten()
        .filter_map(|entry| newest(&entry.path()))
        .max_by_key(|(time, _)| *time)
}

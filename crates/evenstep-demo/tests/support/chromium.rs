//! Launching Chromium headless with its DevTools endpoint on a free port,
//! and nothing that would switch off what the tests are about: no flag
//! that disables background timer throttling, renderer backgrounding or the
//! backgrounding of occluded windows, and no focus emulation (which pins a
//! page visible). The child is killed, by its own id, when dropped.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Flags some launchers add by default that would make a hidden-page test
/// pass without testing anything. The tests refuse to run with them.
pub(crate) const THROTTLING_OFF_FLAGS: [&str; 3] = [
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
];

/// A running headless Chromium.
pub(crate) struct Chromium {
    child: Child,
    /// The browser's DevTools websocket.
    pub(crate) websocket: String,
    /// The binary that was launched.
    pub(crate) binary: PathBuf,
}

impl Chromium {
    /// Launches the browser named by `$CHROMIUM`, or the first of
    /// `chromium`, `chromium-browser`, `google-chrome` on the `PATH`, with a
    /// fresh profile under `scratch`.
    pub(crate) fn launch(scratch: &Path) -> Result<Chromium, String> {
        let binary = find_binary()?;
        let profile = scratch.join(format!("profile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile)
            .map_err(|e| format!("cannot create the profile {}: {e}", profile.display()))?;
        let mut child = Command::new(&binary)
            .arg("--headless")
            .arg("--remote-debugging-port=0")
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("--no-first-run")
            .arg("--no-default-browser-check")
            // Chromium's sandbox refuses to run as root, which CI is.
            .arg("--no-sandbox")
            .arg("--window-size=800,600")
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let stderr = child.stderr.take().ok_or("no stderr from the browser")?;
        let (sender, receiver) = mpsc::channel();
        thread::spawn(move || {
            let mut told = false;
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if !told && let Some(at) = line.find("ws://") {
                    let _ = sender.send(line[at..].trim().to_owned());
                    told = true;
                }
            }
        });
        if let Ok(websocket) = receiver.recv_timeout(Duration::from_secs(30)) {
            Ok(Chromium {
                child,
                websocket,
                binary,
            })
        } else {
            let _ = child.kill();
            let _ = child.wait();
            Err(format!(
                "{} did not announce its DevTools endpoint within 30 s",
                binary.display()
            ))
        }
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find_binary() -> Result<PathBuf, String> {
    if let Some(named) = std::env::var_os("CHROMIUM") {
        let named = PathBuf::from(named);
        return if named.is_file() {
            Ok(named)
        } else {
            Err(format!(
                "$CHROMIUM names {}, which is not a file",
                named.display()
            ))
        };
    }
    let candidates = ["chromium", "chromium-browser", "google-chrome"];
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in candidates {
        for dir in std::env::split_paths(&path) {
            let file = dir.join(name);
            if file.is_file() {
                return Ok(file);
            }
        }
    }
    Err(format!(
        "no Chromium found (looked for {candidates:?} on the PATH, and $CHROMIUM): \
         install it with `apt-get install -y chromium`"
    ))
}

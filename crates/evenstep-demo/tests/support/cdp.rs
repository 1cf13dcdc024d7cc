//! A minimal client of the Chrome DevTools protocol: JSON commands and
//! events over the browser's websocket, with each tab reached through a
//! flattened session. Enough to open tabs, switch between them, evaluate
//! script, read the console and take screenshots.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

/// How long a command may take before the browser counts as hung.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

/// A connection to the browser.
pub(crate) struct Cdp {
    socket: WebSocket<TcpStream>,
    next_id: u64,
    /// Events read while waiting for something else, oldest first.
    events: Vec<Value>,
}

impl Cdp {
    /// Connects to the browser's DevTools websocket (`ws://host:port/...`).
    pub(crate) fn connect(url: &str) -> Result<Cdp, String> {
        let address = url
            .strip_prefix("ws://")
            .and_then(|rest| rest.split('/').next())
            .ok_or_else(|| format!("not a ws:// address: {url}"))?;
        let stream = TcpStream::connect(address)
            .map_err(|e| format!("cannot reach the browser at {address}: {e}"))?;
        stream
            .set_read_timeout(Some(COMMAND_TIMEOUT))
            .map_err(|e| e.to_string())?;
        let (socket, _) = tungstenite::client::client(url, stream)
            .map_err(|e| format!("the DevTools handshake failed: {e}"))?;
        // From here on reads wake often, so waits can keep their deadlines.
        socket
            .get_ref()
            .set_read_timeout(Some(Duration::from_millis(50)))
            .map_err(|e| e.to_string())?;
        Ok(Cdp {
            socket,
            next_id: 1,
            events: Vec::new(),
        })
    }

    /// Sends `method` with `params` (to a tab when `session` is given) and
    /// returns its result.
    pub(crate) fn call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        let mut command = serde_json::Map::new();
        command.insert("id".to_owned(), json!(id));
        command.insert("method".to_owned(), json!(method));
        command.insert("params".to_owned(), params);
        if let Some(session) = session {
            command.insert("sessionId".to_owned(), json!(session));
        }
        self.socket
            .send(Message::text(Value::Object(command).to_string()))
            .map_err(|e| format!("{method}: cannot send: {e}"))?;
        let deadline = Instant::now() + COMMAND_TIMEOUT;
        loop {
            let Some(message) = self.read_until(deadline)? else {
                return Err(format!("{method}: no answer within {COMMAND_TIMEOUT:?}"));
            };
            if message.get("id").and_then(Value::as_u64) == Some(id) {
                if let Some(error) = message.get("error") {
                    return Err(format!("{method} failed: {error}"));
                }
                return Ok(message.get("result").cloned().unwrap_or(Value::Null));
            }
            if message.get("method").is_some() {
                self.events.push(message);
            }
        }
    }

    /// Waits for the event `method` (from `session` when given), returning
    /// its params; one that already arrived counts.
    pub(crate) fn wait_event(
        &mut self,
        session: Option<&str>,
        method: &str,
        timeout: Duration,
    ) -> Result<Value, String> {
        let matches = |event: &Value| {
            event.get("method").and_then(Value::as_str) == Some(method)
                && (session.is_none() || event.get("sessionId").and_then(Value::as_str) == session)
        };
        if let Some(at) = self.events.iter().position(matches) {
            let event = self.events.remove(at);
            return Ok(event.get("params").cloned().unwrap_or(Value::Null));
        }
        let deadline = Instant::now() + timeout;
        while let Some(message) = self.read_until(deadline)? {
            if matches(&message) {
                return Ok(message.get("params").cloned().unwrap_or(Value::Null));
            }
            if message.get("method").is_some() {
                self.events.push(message);
            }
        }
        Err(format!("no {method} event within {timeout:?}"))
    }

    /// Reads what has arrived so far, then returns the events kept for
    /// `session` (all of them, taken).
    pub(crate) fn take_events(&mut self, session: &str) -> Result<Vec<Value>, String> {
        while let Some(message) = self.read_until(Instant::now())? {
            if message.get("method").is_some() {
                self.events.push(message);
            }
        }
        let (mine, others) = std::mem::take(&mut self.events)
            .into_iter()
            .partition(|e| e.get("sessionId").and_then(Value::as_str) == Some(session));
        self.events = others;
        Ok(mine)
    }

    /// The next message, or `None` once `deadline` has passed.
    fn read_until(&mut self, deadline: Instant) -> Result<Option<Value>, String> {
        loop {
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    return serde_json::from_str(text.as_str())
                        .map(Some)
                        .map_err(|e| format!("the browser sent bad JSON: {e}"));
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    if Instant::now() >= deadline {
                        return Ok(None);
                    }
                }
                Err(e) => return Err(format!("the DevTools connection failed: {e}")),
            }
        }
    }
}

/// A tab, reached through its own session.
pub(crate) struct Tab {
    /// The tab's target id.
    pub(crate) target: String,
    /// The flattened session the tab's commands go to.
    pub(crate) session: String,
}

impl Tab {
    /// Opens a new tab (in front) at `url` and waits for its load event.
    pub(crate) fn open(cdp: &mut Cdp, url: &str) -> Result<Tab, String> {
        let target = Tab::blank(cdp)?;
        let attached = cdp.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        )?;
        let session = attached["sessionId"]
            .as_str()
            .ok_or("attachToTarget gave no session")?
            .to_owned();
        let tab = Tab { target, session };
        cdp.call(Some(&tab.session), "Page.enable", json!({}))?;
        cdp.call(Some(&tab.session), "Runtime.enable", json!({}))?;
        tab.navigate(cdp, url)?;
        Ok(tab)
    }

    /// Opens a blank tab in front, returning its target id: the way to hide
    /// every other tab.
    pub(crate) fn blank(cdp: &mut Cdp) -> Result<String, String> {
        let created = cdp.call(None, "Target.createTarget", json!({ "url": "about:blank" }))?;
        created["targetId"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| "createTarget gave no target id".to_owned())
    }

    /// Loads `url` and waits for its load event.
    pub(crate) fn navigate(&self, cdp: &mut Cdp, url: &str) -> Result<(), String> {
        // A load event from an earlier page must not count.
        let _ = cdp.take_events(&self.session)?;
        cdp.call(Some(&self.session), "Page.navigate", json!({ "url": url }))?;
        cdp.wait_event(
            Some(&self.session),
            "Page.loadEventFired",
            Duration::from_secs(30),
        )?;
        Ok(())
    }

    /// Evaluates `expression` in the page (awaiting a promise) and returns
    /// its value; a thrown exception is an error with its message.
    pub(crate) fn eval(&self, cdp: &mut Cdp, expression: &str) -> Result<Value, String> {
        let result = cdp.call(
            Some(&self.session),
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        )?;
        if let Some(details) = result.get("exceptionDetails") {
            let message = details["exception"]["description"]
                .as_str()
                .or_else(|| details["text"].as_str())
                .unwrap_or("an exception");
            // The first line: the message, without the stack.
            return Err(message.lines().next().unwrap_or(message).to_owned());
        }
        Ok(result["result"]["value"].clone())
    }

    /// Brings this tab to the front: it is shown, the others hidden.
    pub(crate) fn activate(&self, cdp: &mut Cdp) -> Result<(), String> {
        cdp.call(
            None,
            "Target.activateTarget",
            json!({ "targetId": self.target }),
        )?;
        Ok(())
    }

    /// Closes the tab.
    pub(crate) fn close(&self, cdp: &mut Cdp) -> Result<(), String> {
        cdp.call(
            None,
            "Target.closeTarget",
            json!({ "targetId": self.target }),
        )?;
        Ok(())
    }
}

/// Closes a tab opened by [`Tab::blank`].
pub(crate) fn close_target(cdp: &mut Cdp, target: &str) -> Result<(), String> {
    cdp.call(None, "Target.closeTarget", json!({ "targetId": target }))?;
    Ok(())
}

//! A static file server for the built page, on a free local port: just
//! enough HTTP for a browser to load an HTML file, its script and its
//! WebAssembly module. It sends the two headers that make the page
//! cross-origin isolated, which gives `performance.now()` its 5 µs
//! resolution instead of 100 µs.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::thread;

/// A server running on its own thread until the process ends.
pub(crate) struct StaticServer {
    port: u16,
}

impl StaticServer {
    /// Serves the files under `root`.
    pub(crate) fn start(root: &Path) -> Result<StaticServer, String> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .map_err(|e| format!("cannot listen on a local port: {e}"))?;
        let port = listener
            .local_addr()
            .map_err(|e| format!("no local address: {e}"))?
            .port();
        let root = root.to_path_buf();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let root = root.clone();
                thread::spawn(move || {
                    let _ = serve(stream, &root);
                });
            }
        });
        Ok(StaticServer { port })
    }

    /// The URL of `path` on this server.
    pub(crate) fn url(&self, path: &str) -> String {
        format!(
            "http://127.0.0.1:{}/{}",
            self.port,
            path.trim_start_matches('/')
        )
    }
}

fn serve(mut stream: TcpStream, root: &Path) -> std::io::Result<()> {
    let mut request = String::new();
    let mut reader = BufReader::new(stream.try_clone()?);
    reader.read_line(&mut request)?;
    // The headers are not needed; read them so the client is not cut off.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let file = resolve(root, path);
    let (status, body, kind) = match file.and_then(|f| std::fs::read(&f).ok().map(|b| (f, b))) {
        Some((file, body)) => ("200 OK", body, content_type(&file)),
        // Somewhere else to go, for a page to leave and come back to.
        None if path == "/elsewhere.html" => (
            "200 OK",
            b"<!doctype html><title>elsewhere</title><p>elsewhere</p>".to_vec(),
            "text/html; charset=utf-8",
        ),
        None => ("404 Not Found", b"not found".to_vec(), "text/plain"),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n\
         Cache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&body)?;
    stream.flush()
}

/// The file a request path names under `root`; none for a path that tries
/// to leave it.
fn resolve(root: &Path, path: &str) -> Option<PathBuf> {
    let mut file = root.to_path_buf();
    for part in Path::new(path.trim_start_matches('/')).components() {
        match part {
            Component::Normal(name) => file.push(name),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    Some(file)
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}

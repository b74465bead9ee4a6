//! `lcmem ui`: the real server process on a store built through the real
//! CLI; [`security`] speaks raw HTTP to it, [`browser`] drives headless
//! Chromium through WebDriver (Python's selenium, `browser.py`).

mod browser;
mod pages;
mod security;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Stdio};

use crate::common::{Sandbox, message, tool};

/// The fact the browser marks not true: in the digest until then.
pub const WRONG_FACT: &str = "The billing service retries failed charges three times.";
/// A fact carrying markup a hostile repository might plant.
pub const POISON: &str =
    "Deploys use <script>window.__pwned = 1</script> and <img src=x onerror=\"window.__pwned = 2\"> tags.";
/// The convention a session stated, withheld until confirmed.
pub const CONVENTION: &str = "Never force-push to main, open a pull request.";
/// The session the browser pins, and the one it forgets.
pub const PIN_SESSION: &str = "conventions";
pub const FORGET_SESSION: &str = "2026-10-20-flaky-checkout";

/// The example project, sealed and consolidated, plus a session stating
/// conventions (one withheld), a fact to correct and a poisoned one.
pub fn store() -> Sandbox {
    let sandbox = Sandbox::new();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop/sessions");
    sandbox.assert_cmd().arg("import").arg(&examples).assert().success();
    let file = sandbox.write_session(
        PIN_SESSION,
        &[
            message("user", &format!("We use conventional commits. Deploys go out from tags only. {CONVENTION}")),
            tool("Read", &["CONTRIBUTING.md"]),
            message("assistant", "Noted, thanks."),
        ],
    );
    sandbox.assert_cmd().arg("import").arg(&file).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    for text in [WRONG_FACT, POISON] {
        sandbox.assert_cmd().args(["facts", "add", text]).assert().success();
    }
    sandbox.assert_cmd().arg("consolidate").assert().success();
    sandbox
}

/// A running `lcmem ui --no-open --port 0`, stopped when dropped.
pub struct Server {
    child: Child,
    /// Kept open: the server prints more, and a closed pipe would stop it.
    _stdout: BufReader<std::process::ChildStdout>,
    pub port: u16,
    pub token: String,
    pub url: String,
}

impl Server {
    pub fn start(sandbox: &Sandbox) -> Server {
        let mut child = sandbox
            .cmd()
            .args(["ui", "--no-open", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut first = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut first).unwrap();
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {first:?}"));
        let rest = url.strip_prefix("http://127.0.0.1:").unwrap();
        let (port, token) = rest.split_once("/?token=").unwrap();
        Server { port: port.parse().unwrap(), token: token.to_string(), url: url.to_string(), child, _stdout: stdout }
    }

    pub fn cookie(&self) -> String {
        format!("lcmem_ui_{}={}", self.port, self.token)
    }

    /// One raw HTTP/1.1 request: the status and the whole response text.
    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: 127.0.0.1:{}\r\n", self.port));
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        if method == "POST" {
            head.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
        }
        stream.write_all(format!("{head}\r\n{body}").as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        (status, response)
    }

    /// A GET with the cookie, as the user's browser sends it.
    pub fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, &[("Cookie", &self.cookie())], "")
    }

    /// The CSRF token the page's forms carry.
    pub fn csrf(&self) -> String {
        let (_, page) = self.get("/facts");
        let at = page.find("name=\"csrf\" value=\"").expect("the page has forms") + 19;
        page[at..at + 32].to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `lcmem` in the sandbox and returns its stdout.
pub fn lcmem(sandbox: &Sandbox, args: &[&str]) -> String {
    let out = sandbox.cmd().args(args).output().unwrap();
    assert!(out.status.success(), "lcmem {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The fact with this text, from `lcmem facts --all --json`.
pub fn fact(sandbox: &Sandbox, text: &str) -> serde_json::Value {
    let facts: Vec<serde_json::Value> = serde_json::from_str(&lcmem(sandbox, &["facts", "--all", "--json"])).unwrap();
    facts.into_iter().find(|f| f["text"] == text).unwrap_or_else(|| panic!("no fact {text:?}"))
}

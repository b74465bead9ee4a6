//! Claude Code as a person uses it: interactive, in a terminal, left with
//! `/exit`. The terminal is util-linux's `script`, which gives the client a
//! pseudo-terminal and passes what the test types through to it.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::World;
use super::messages_api::REPORT;

/// The screen so far, without terminal escapes and spacing, for waiting on
/// what the client shows ("Added notes.txt with …" renders with its spaces
/// moved around).
fn plain(screen: &[u8]) -> String {
    let text = String::from_utf8_lossy(screen);
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI, OSC and two-character escapes.
            match chars.next() {
                Some('[') => while chars.next().is_some_and(|c| !('@'..='~').contains(&c)) {},
                Some(']') => while chars.next().is_some_and(|c| c != '\u{7}') {},
                _ => {}
            }
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// An interactive `claude` in a terminal 160 columns wide.
struct Terminal {
    child: Child,
    screen: Arc<Mutex<Vec<u8>>>,
}

impl Terminal {
    fn start(world: &World, claude: &Path) -> Terminal {
        let line = format!(
            "stty cols 160 rows 50; exec '{}' --allowedTools Write mcp__lcmem__recall_sessions",
            claude.display()
        );
        let mut command = Command::new("script");
        command.args(["-q", "-f", "-e", "-c", &line, "/dev/null"]);
        world.client_env(&mut command);
        command.env("TERM", "xterm-256color").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = command.spawn().expect("util-linux `script` runs");
        let screen = Arc::new(Mutex::new(Vec::new()));
        let mut out = child.stdout.take().unwrap();
        let kept = Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                kept.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Terminal { child, screen }
    }

    fn shows(&self, text: &str) -> bool {
        let wanted: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        plain(&self.screen.lock().unwrap()).contains(&wanted)
    }

    fn tail(&self) -> String {
        let all = plain(&self.screen.lock().unwrap());
        all.chars().rev().take(1500).collect::<Vec<_>>().into_iter().rev().collect()
    }

    /// Types `text`, then Enter a moment later, as a person would.
    fn type_line(&mut self, text: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(Duration::from_millis(400));
        stdin.write_all(b"\r").unwrap();
        stdin.flush().unwrap();
    }

    fn wait_for(&self, what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(start.elapsed() < limit, "waited {limit:?} for {what}; the screen ends:\n{}", self.tail());
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl World {
    /// Everything Claude Code recorded for the project so far.
    fn transcript_text(&self) -> String {
        let files = crate::common::files_under(&self.user.join(".claude/projects"));
        files.iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect()
    }

    /// What a person who set Claude Code up once has in `~/.claude.json`:
    /// onboarding done, the key approved, the project trusted.
    fn onboarded(&self) {
        let path = self.user.join(".claude.json");
        let mut state: serde_json::Value = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_else(|| serde_json::json!({}));
        state["hasCompletedOnboarding"] = true.into();
        state["theme"] = "dark".into();
        state["customApiKeyResponses"] = serde_json::json!({"approved": ["scripted"], "rejected": []});
        let project = self.sandbox.project().to_string_lossy().into_owned();
        state["projects"][project] = serde_json::json!({"hasTrustDialogAccepted": true, "allowedTools": []});
        std::fs::write(&path, serde_json::to_string_pretty(&state).unwrap()).unwrap();
    }
}

#[test]
fn interactive_claude_code_left_with_exit_is_sealed_with_the_file_it_wrote() {
    let Some(claude) = super::claude() else { return };
    let world = World::new();
    world.onboarded();
    let mut terminal = Terminal::start(&world, &claude);
    // The prompt's hint, or a while: the client redraws only what changed,
    // so the screen is a hint, never the evidence.
    let start = Instant::now();
    let ready = || terminal.shows("for shortcuts") || start.elapsed() > Duration::from_secs(15);
    terminal.wait_for("the prompt", Duration::from_secs(60), ready);
    std::thread::sleep(Duration::from_millis(500));
    terminal.type_line("add a notes file");
    // Done when the file is written and the client recorded the report.
    let notes = world.sandbox.project().join("notes.txt");
    let reported = || world.transcript_text().contains(REPORT);
    terminal.wait_for("the notes and the report", Duration::from_secs(90), || notes.exists() && reported());
    std::thread::sleep(Duration::from_secs(1));
    terminal.type_line("/exit");
    let start = Instant::now();
    while terminal.child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "claude did not exit; the screen ends:\n{}",
            terminal.tail()
        );
        if start.elapsed() > Duration::from_secs(3) {
            // A menu may have taken the first Enter.
            let _ = terminal.child.stdin.as_mut().unwrap().write_all(b"\r");
        }
        std::thread::sleep(Duration::from_millis(500));
    }

    // SessionEnd sealed it in the background, once the transcript was still.
    let session = world.transcripts().pop().expect("Claude Code recorded the session");
    let log = || format!("hooks log:\n{}", crate::common::hooks_log(&world.sandbox));
    let sealed = || world.journal().iter().any(|e| e["session_id"] == session.as_str());
    crate::common::eventually_or(&format!("{session} is sealed"), sealed, log);
    let entry = world.journal().into_iter().find(|e| e["session_id"] == session.as_str()).unwrap();
    let summary = entry["summary"].as_str().unwrap().to_lowercase();
    assert!(!summary.contains("no changes made"), "a session that wrote a file: {entry:#}");
    assert!(entry["files"].to_string().contains("notes.txt"), "{entry:#}\n{}", log());
    // The background catch-up logs once it is done (after the seal, the
    // digest and any model lane).
    crate::common::eventually_or("the SessionEnd catch-up logs what it did", || log().contains("SessionEnd"), log);
}

//! The lanes against llm-katan (PyPI), a server that speaks the real OpenAI
//! chat-completions and Anthropic messages formats, with its key checks and
//! its failure injection. Its echo backend answers a forced Anthropic tool
//! with arguments built from the tool's schema, and a chat completion with
//! plain text (it has no JSON-schema mode), which is how a model that
//! ignores the response format behaves.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{entries, sandbox};

/// A running llm-katan, stopped when dropped.
struct Katan {
    child: Child,
    port: u16,
}

impl Drop for Katan {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `llm-katan` program: `$LCMEM_TEST_KATAN` (what `.ci/run` installs),
/// else one on PATH.
fn program() -> Option<String> {
    let program = std::env::var("LCMEM_TEST_KATAN").unwrap_or_else(|_| "llm-katan".into());
    let ok = Command::new(&program).arg("--help").output().is_ok_and(|o| o.status.success());
    ok.then_some(program)
}

fn start(extra: &[&str]) -> Option<Katan> {
    let Some(program) = program() else {
        assert!(std::env::var_os("CI").is_none(), "CI must install llm-katan (see .ci/run)");
        eprintln!("skipped: llm-katan is not installed (pip install llm-katan; set LCMEM_TEST_KATAN)");
        return None;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(program)
        .args(["--model", "katan-model", "--backend", "echo", "--providers", "openai,anthropic", "--validate-keys"])
        .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--log-level", "warning"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let katan = Katan { child, port };
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(60), "llm-katan did not start listening");
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(katan)
}

/// The lane settings for `lane` at katan, with katan's default test key
/// for that provider in `LCMEM_TEST_LANE_KEY`.
fn settings(katan: &Katan, lane: &str) -> Vec<(&'static str, String)> {
    let endpoint = match lane {
        "openai" => format!("http://127.0.0.1:{}/v1", katan.port),
        _ => format!("http://127.0.0.1:{}", katan.port),
    };
    vec![
        ("extract.lane", lane.to_string()),
        ("extract.endpoint", endpoint),
        ("extract.model", "katan-model".into()),
        ("extract.api_key_env", "LCMEM_TEST_LANE_KEY".into()),
        ("extract.timeout_secs", "5".into()),
    ]
}

fn apply(sandbox: &crate::common::Sandbox, settings: &[(&'static str, String)]) {
    let pairs: Vec<(&str, &str)> = settings.iter().map(|(k, v)| (*k, v.as_str())).collect();
    super::configure(sandbox, &pairs);
}

/// `lcmem seal` with katan's key for `provider`.
fn seal_with_key(sandbox: &crate::common::Sandbox, id: &str, provider: &str) {
    let out = sandbox
        .cmd()
        .args(["seal", id])
        .env("LCMEM_TEST_LANE_KEY", format!("llm-katan-{provider}-key"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn the_anthropic_format_with_a_forced_tool_is_answered_and_read() {
    let Some(katan) = start(&[]) else { return };
    let sandbox = sandbox(1, &[]);
    apply(&sandbox, &settings(&katan, "anthropic"));
    seal_with_key(&sandbox, "s1", "anthropic");
    let entry = &entries(&sandbox)[0];
    assert_eq!(entry["extractor"], "anthropic:katan-model", "{entry}");
    // The echo backend fills a string with "test_<name>" and an enum with its first value.
    assert_eq!(entry["summary"], "test_summary");
    assert_eq!(entry["outcome"], "progress", "`shipped` is the evidence's to say, not the model's");
    assert_eq!(entry["files"], serde_json::json!(["src/cache.rs"]));
    assert!(entry["cost"]["tokens_in"].as_u64().unwrap() > 0, "{entry}");
}

#[test]
fn an_answer_outside_the_schema_and_a_refused_key_fall_back() {
    let Some(katan) = start(&[]) else { return };
    let sandbox = sandbox(2, &[]);
    apply(&sandbox, &settings(&katan, "openai"));
    seal_with_key(&sandbox, "s1", "openai");
    let entry = &entries(&sandbox)[0];
    assert_eq!(entry["extractor"], "offline-v1");
    assert!(entry["fallback"].as_str().unwrap().starts_with("openai:katan-model: malformed answer"), "{entry}");

    seal_with_key(&sandbox, "s2", "wrong");
    let entry = &entries(&sandbox)[1];
    assert!(entry["fallback"].as_str().unwrap().contains("HTTP 401"), "{entry}");
}

#[test]
fn a_rate_limit_is_retried_a_bounded_number_of_times() {
    let Some(katan) = start(&["--rate-limit-after", "1"]) else { return };
    let sandbox = sandbox(2, &[]);
    apply(&sandbox, &settings(&katan, "anthropic"));
    seal_with_key(&sandbox, "s1", "anthropic");
    seal_with_key(&sandbox, "s2", "anthropic");
    let all = entries(&sandbox);
    assert_eq!(all[0]["extractor"], "anthropic:katan-model");
    let fallback = all[1]["fallback"].as_str().unwrap();
    assert!(fallback.contains("gave up after 3 attempts") && fallback.contains("HTTP 429"), "{fallback}");
    assert_eq!(all[1]["cost"]["requests"], 3);
}

#[test]
fn a_slow_server_times_out_and_the_seal_still_writes() {
    let Some(katan) = start(&["--latency-ms", "4000"]) else { return };
    let sandbox = sandbox(1, &[]);
    let mut settings = settings(&katan, "anthropic");
    settings.push(("extract.timeout_secs", "1".into()));
    apply(&sandbox, &settings);
    seal_with_key(&sandbox, "s1", "anthropic");
    let entry = &entries(&sandbox)[0];
    assert_eq!(entry["extractor"], "offline-v1");
    assert!(entry["fallback"].as_str().unwrap().contains("timed out after 1 s"), "{entry}");
    assert!(entry["summary"].as_str().unwrap().contains("cache"));
}

#[test]
fn seal_uses_the_lane_without_a_key_in_any_file() {
    let Some(katan) = start(&[]) else { return };
    let sandbox = sandbox(1, &[]);
    apply(&sandbox, &settings(&katan, "anthropic"));
    seal_with_key(&sandbox, "s1", "anthropic");
    let text = super::store_text(&sandbox);
    assert!(!text.contains("llm-katan-anthropic-key"), "the key was written to the store");
    assert!(text.contains("LCMEM_TEST_LANE_KEY"), "the variable's name is what settings hold");
}

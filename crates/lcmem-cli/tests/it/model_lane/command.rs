//! The command lane, with a script standing in for a signed-in CLI such as
//! `claude -p --output-format json`: the request goes in on stdin, the
//! answer (or a wrapper carrying it) comes out on stdout.

use super::{answer, entries, sandbox, seal};

/// Writes an executable script into the sandbox and returns its path.
fn script(dir: &std::path::Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn a_wrapped_answer_is_read_with_the_cost_the_program_reports() {
    let sandbox = sandbox(1, &[]);
    let inner = answer("Moved the cache to Postgres in src/cache.rs.", "progress", &[]).to_string();
    let wrapper = serde_json::json!({
        "type": "result", "subtype": "success", "is_error": false, "result": inner,
        "usage": {"input_tokens": 2100, "output_tokens": 140}, "total_cost_usd": 0.0031
    });
    let request = sandbox.dir.path().join("request.txt");
    let fake = script(
        sandbox.dir.path(),
        "fake-claude",
        &format!("cat > '{}'\ncat <<'JSON'\n{wrapper}\nJSON", request.display()),
    );
    super::configure(
        &sandbox,
        &[("extract.lane", "command"), ("extract.command", &format!("{fake} -p --output-format json"))],
    );
    let out = seal(&sandbox, "s1");
    let entry = &entries(&sandbox)[0];
    assert_eq!(entry["extractor"], "command:fake-claude");
    assert_eq!(entry["summary"], "Moved the cache to Postgres in src/cache.rs.");
    assert_eq!(entry["cost"]["usd"].as_f64(), Some(0.0031));
    assert_eq!(entry["cost"]["priced_by"], "reported");
    assert!(out.contains("2,100 tokens in, 140 out · $0.0031"), "{out}");
    let sent = std::fs::read_to_string(request).unwrap();
    assert!(sent.contains("following this JSON schema") && sent.contains("src/cache.rs"), "{sent}");
    assert!(!sent.contains("PLANTED-TOOL-OUTPUT") && !sent.contains(&super::pasted_key()), "{sent}");
}

#[test]
fn a_program_that_fails_or_hangs_falls_back_and_says_why() {
    let sandbox = sandbox(2, &[]);
    let failing = script(sandbox.dir.path(), "failing", "cat > /dev/null\necho 'not signed in' >&2\nexit 3");
    super::configure(&sandbox, &[("extract.lane", "command"), ("extract.command", &failing)]);
    seal(&sandbox, "s1");
    let entry = &entries(&sandbox)[0];
    assert_eq!(entry["extractor"], "offline-v1");
    let fallback = entry["fallback"].as_str().unwrap();
    assert!(fallback.contains("exit status: 3") && fallback.contains("not signed in"), "{fallback}");

    let hanging = script(sandbox.dir.path(), "hanging", "sleep 30");
    super::configure(&sandbox, &[("extract.command", &hanging), ("extract.timeout_secs", "1")]);
    let started = std::time::Instant::now();
    seal(&sandbox, "s2");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    let entry = &entries(&sandbox)[1];
    assert!(entry["fallback"].as_str().unwrap().contains("timed out after 1 s"), "{entry}");
}

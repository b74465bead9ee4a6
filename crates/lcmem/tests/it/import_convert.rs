//! Converting Claude Code and Codex CLI transcripts to session format v1.
//! The fixtures under `tests/fixtures/` are synthetic transcripts written for
//! these tests.

use std::path::{Path, PathBuf};

use lcmem::import::{Converted, Format, convert, detect};
use lcmem::jsonl;
use lcmem::session::{Line, Role, Session};
use proptest::prelude::*;

pub(super) fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

fn convert_fixture(name: &str) -> (Converted, Session) {
    let path = fixture(name);
    let bytes = std::fs::read(&path).unwrap();
    let format = detect(&bytes).unwrap_or_else(|| panic!("{name}: format not detected"));
    let converted = convert(format, &path, &bytes);
    let session = parse(&converted.session_bytes);
    (converted, session)
}

/// Parses converted output as the store will, insisting it is clean v1.
fn parse(bytes: &[u8]) -> Session {
    let path = Path::new("converted.jsonl");
    let session = Session::from_lines(path, jsonl::read_from(bytes, path).unwrap()).unwrap();
    assert!(session.diagnostics.is_empty(), "converted output has bad lines: {:?}", session.diagnostics);
    session
}

fn messages(session: &Session) -> Vec<(Role, String, Option<String>)> {
    session
        .events
        .iter()
        .filter_map(|e| match &e.value {
            Line::Message { role, text, id, .. } => Some((*role, text.clone(), id.clone())),
            _ => None,
        })
        .collect()
}

fn tools(session: &Session) -> Vec<(String, Vec<String>)> {
    session
        .events
        .iter()
        .filter_map(|e| match &e.value {
            Line::Tool { name, files, .. } => Some((name.clone(), files.clone())),
            _ => None,
        })
        .collect()
}

fn text(converted: &Converted) -> String {
    String::from_utf8(converted.session_bytes.clone()).unwrap()
}

#[test]
fn claude_code_messages_keep_their_uuid_time_and_role() {
    let (converted, session) = convert_fixture("claude_code_session.jsonl");
    assert!(converted.diagnostics.is_empty(), "{:?}", converted.diagnostics);
    assert_eq!(session.header.id, "5f0c1b9e-2a4d-4c7e-9b1a-0d3e6f7a8b9c");
    assert_eq!(session.header.title, "Add retries with exponential backoff to the HTTP client in src/http.rs.");
    assert_eq!(session.header.created_at.to_string(), "2026-11-20T09:00:00Z");
    assert_eq!(converted.cwd.as_deref(), Some(Path::new("/home/ana/code/shop")));

    let all = messages(&session);
    let find = |id: &str| all.iter().find(|(_, _, i)| i.as_deref() == Some(id)).cloned();
    let prompt = find("u-04").unwrap();
    assert_eq!(prompt.0, Role::User);
    assert!(prompt.1.contains("\nKeep the public API unchanged."), "multi-line text kept whole");
    assert_eq!(find("a-05").unwrap(), (Role::Assistant, "I'll read the client first.".into(), Some("a-05".into())));
    assert_eq!(find("a-11").unwrap().0, Role::Assistant);
    let first = session.events.iter().find(|e| matches!(&e.value, Line::Message { id: Some(i), .. } if i == "u-04"));
    assert_eq!(first.unwrap().value.ts().unwrap().to_string(), "2026-11-20T09:01:00Z");
    // Only the prompt is the user's; the image block is kept as a marker.
    let user: Vec<_> = all.iter().filter(|m| m.0 == Role::User).map(|m| m.1.as_str()).collect();
    assert_eq!(user.len(), 2, "{user:?}");
    assert_eq!(user[1], "[image]\n\nHere is the latency graph after the change.");
    // A record written twice is converted once.
    assert_eq!(all.iter().filter(|m| m.2.as_deref() == Some("a-11")).count(), 1);
    assert_eq!(converted.counts.messages, all.len());
}

#[test]
fn claude_code_tool_use_becomes_tool_actions_with_their_files() {
    let (converted, session) = convert_fixture("claude_code_session.jsonl");
    let expected: Vec<(String, Vec<String>)> = [
        ("Read", vec!["src/http.rs"]),
        ("Edit", vec!["src/http.rs"]),
        ("MultiEdit", vec!["src/retry.rs"]),
        ("Write", vec!["/tmp/scratch.txt"]),
        ("NotebookEdit", vec!["notebooks/latency.ipynb"]),
        ("Bash", vec![]),
        ("Grep", vec![]),
        ("Write", vec!["docs/retries.md"]),
    ]
    .into_iter()
    .map(|(n, f)| (n.to_string(), f.into_iter().map(str::to_string).collect()))
    .collect();
    assert_eq!(tools(&session), expected);
    assert_eq!(converted.counts.tools, expected.len());
    // Tool lines carry no output and no input beyond the files.
    assert!(!text(&converted).contains("retry(|| send(url))"));
}

#[test]
fn claude_code_tool_results_are_tool_messages_and_thinking_is_dropped() {
    let (converted, session) = convert_fixture("claude_code_session.jsonl");
    let all = messages(&session);
    let tool = |id: &str| all.iter().find(|m| m.2.as_deref() == Some(id)).unwrap().clone();
    assert_eq!(tool("u-06").0, Role::Tool);
    assert!(tool("u-06").1.starts_with("pub fn get"));
    assert_eq!(tool("u-08"), (Role::Tool, "test result: ok. 12 passed\n[image]".into(), Some("u-08".into())));
    let out = text(&converted);
    assert!(!out.contains("SECRET-THOUGHT"), "thinking reached the session");
    assert!(!out.contains("Caveat: The messages below"), "the local-command caveat is boilerplate");
    assert!(!out.contains("Conversation compacted"), "system records are bookkeeping");
}

#[test]
fn claude_code_wrappers_sidechains_and_errors_are_not_the_users_words() {
    let (_, session) = convert_fixture("claude_code_session.jsonl");
    let all = messages(&session);
    let role_of = |id: &str| all.iter().find(|m| m.2.as_deref() == Some(id)).map(|m| (m.0, m.1.clone()));
    assert_eq!(role_of("u-02"), Some((Role::System, "/model sonnet".into())));
    assert_eq!(role_of("u-03").unwrap().0, Role::Tool, "local command output is tool output");
    assert_eq!(role_of("u-09").unwrap().0, Role::Tool, "a sidechain prompt is the main agent's");
    assert_eq!(role_of("a-10").unwrap().0, Role::Tool, "a sidechain reply is a subagent's");
    assert_eq!(role_of("u-13").unwrap().0, Role::System);
    assert_eq!(role_of("a-15"), Some((Role::System, "API Error: 529 overloaded".into())));
}

#[test]
fn a_summary_titles_the_session_only_when_it_names_one_of_its_records() {
    let (converted, session) = convert_fixture("claude_code_session.jsonl");
    assert_ne!(session.header.title, "HTTP client retries with backoff", "the header never changes as a file grows");
    let last = text(&converted).lines().last().unwrap().to_string();
    assert_eq!(last, r#"{"type":"title","title":"HTTP client retries with backoff"}"#);
    assert_eq!(session.title, "HTTP client retries with backoff", "the latest title line is the session's title");

    // Claude Code copies other conversations' summaries into a file: one
    // whose leaf is not a record of this file titles nothing here.
    let (_, early) = convert_fixture("claude_code_summary_first.jsonl");
    assert_eq!(early.header.title, "The checkout test fails one run in ten; find out why.");
    assert_eq!(early.title, early.header.title, "another conversation's summary is no title");
    assert_eq!(early.header.id, "9a8b7c6d-0000-4000-8000-000000000002");
}

#[test]
fn codex_rollouts_keep_the_conversation_and_the_patched_files() {
    let (converted, session) = convert_fixture("codex_rollout.jsonl");
    assert!(converted.diagnostics.is_empty(), "{:?}", converted.diagnostics);
    assert_eq!(session.header.id, "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    assert_eq!(session.header.title, "Round invoice totals to cents in invoice.py");
    assert_eq!(session.header.created_at.to_string(), "2026-11-23T14:00:00Z");
    assert_eq!(converted.cwd.as_deref(), Some(Path::new("/home/ana/code/billing")));
    let all = messages(&session);
    let said: Vec<_> = all.iter().filter(|m| m.0 != Role::Tool).map(|m| (m.0, m.1.as_str())).collect();
    assert_eq!(
        said,
        [
            (Role::User, "Round invoice totals to cents in invoice.py"),
            (Role::Assistant, "Invoice totals are now rounded to cents in invoice.py, with a test."),
        ],
        "instructions, environment, reasoning and UI events are left out; nothing is said twice"
    );
    let outputs: Vec<_> =
        all.iter().filter(|m| m.0 == Role::Tool).map(|m| (m.2.clone().unwrap(), m.1.clone())).collect();
    assert_eq!(outputs[0], ("call_1".into(), "def total(items):\n    return sum(items)\n".into()));
    assert_eq!(outputs[2], ("call_3".into(), "Done!".into()));
    assert_eq!(outputs.len(), 4);
    let names: Vec<_> = tools(&session);
    assert_eq!(
        names,
        [
            ("shell".to_string(), vec![]),
            ("apply_patch".to_string(), vec!["invoice.py".to_string()]),
            ("apply_patch".to_string(), vec!["tests/test_invoice.py".to_string()]),
            ("exec_command".to_string(), vec![]),
        ]
    );
    let out = text(&converted);
    for absent in ["AGENTS.md", "environment_context", "permissions", "REASONING", "ENCRYPTED", "a_record_from"] {
        assert!(!out.contains(absent), "{absent} reached the session");
    }
}

#[test]
fn old_codex_rollouts_without_the_envelope_are_read() {
    let (converted, session) = convert_fixture("codex_legacy.jsonl");
    assert!(converted.diagnostics.is_empty(), "{:?}", converted.diagnostics);
    assert_eq!(session.header.id, "0d6e5f4a-1111-4222-8333-444455556666");
    assert_eq!(session.header.created_at.to_string(), "2025-05-02T09:00:00Z");
    let all = messages(&session);
    assert_eq!(all.len(), 3);
    assert_eq!(all[0].1, "Why does make fail on a clean checkout?");
    assert_eq!(all[1], (Role::Tool, "make: *** No rule to make target 'gen'.".into(), Some("c1".into())));
    assert_eq!(tools(&session), [("shell".to_string(), vec![])]);
}

#[test]
fn malformed_lines_are_reported_with_file_and_line_and_skipped() {
    let (converted, session) = convert_fixture("claude_code_malformed.jsonl");
    let lines: Vec<usize> = converted.diagnostics.iter().map(|d| d.line).collect();
    assert_eq!(lines, [2, 3, 4, 5, 6, 6, 7], "{:?}", converted.diagnostics);
    let first = converted.diagnostics[0].to_string();
    assert!(first.contains("claude_code_malformed.jsonl:2: line is not valid JSON"), "{first}");
    assert!(converted.diagnostics[4].message.contains("not an RFC 3339 time"));
    // What could be read around the damage is kept.
    let all = messages(&session);
    assert_eq!(all.len(), 2);
    assert_eq!(all[1], (Role::Assistant, "Renamed it to ConfigSource.".into(), Some("m-04".into())));
}

#[test]
fn formats_are_told_apart_by_content() {
    assert_eq!(
        detect(&std::fs::read(fixture("claude_code_session.jsonl")).unwrap()),
        Some(Format::named("claude-code").unwrap())
    );
    assert_eq!(
        detect(&std::fs::read(fixture("claude_code_summary_first.jsonl")).unwrap()),
        Some(Format::named("claude-code").unwrap())
    );
    assert_eq!(detect(&std::fs::read(fixture("codex_rollout.jsonl")).unwrap()), Some(Format::named("codex").unwrap()));
    assert_eq!(detect(&std::fs::read(fixture("codex_legacy.jsonl")).unwrap()), Some(Format::named("codex").unwrap()));
    let v1 = br#"{"type":"session","v":1,"id":"s","created_at":"2026-11-01T10:00:00Z"}
{"type":"message","role":"user","text":"hi"}
"#;
    assert_eq!(detect(v1), Some(Format::V1));
    assert_eq!(detect(b"not json\n{\"a\":1}\n"), None);
    assert_eq!(detect(b""), None);
    // Converting v1 passes it through untouched.
    let converted = convert(Format::V1, Path::new("s.jsonl"), v1);
    assert_eq!(converted.session_bytes, v1);
    assert_eq!(converted.id.as_deref(), Some("s"));
}

#[test]
fn a_transcript_with_no_prompt_of_its_own_converts_to_nothing() {
    let subagent = r#"{"type":"user","isSidechain":true,"sessionId":"p","uuid":"1","timestamp":"2026-11-01T10:00:00Z","message":{"role":"user","content":"Search the repo"}}
{"type":"assistant","isSidechain":true,"sessionId":"p","uuid":"2","timestamp":"2026-11-01T10:00:05Z","message":{"role":"assistant","content":[{"type":"text","text":"Found it."}]}}
{"type":"summary","summary":"Only a summary","leafUuid":"2"}
"#;
    let converted = convert(Format::named("claude-code").unwrap(), Path::new("agent-1.jsonl"), subagent.as_bytes());
    assert!(converted.is_empty() && converted.id.is_none() && converted.diagnostics.is_empty());
    let codex = r#"{"timestamp":"2026-11-01T10:00:00Z","type":"session_meta","payload":{"id":"x","cwd":"/a"}}"#;
    let converted = convert(Format::named("codex").unwrap(), Path::new("rollout.jsonl"), codex.as_bytes());
    assert!(converted.is_empty());
    assert_eq!(converted.cwd.as_deref(), Some(Path::new("/a")));
}

/// The byte offsets just after each line of `bytes`.
fn line_ends(bytes: &[u8]) -> Vec<usize> {
    bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i + 1).collect()
}

fn assert_grows_by_appending(format: Format, bytes: &[u8]) {
    let path = Path::new("t.jsonl");
    let full = convert(format, path, bytes).session_bytes;
    let mut previous: Vec<u8> = Vec::new();
    for end in line_ends(bytes) {
        let out = convert(format, path, &bytes[..end]).session_bytes;
        assert!(full.starts_with(&out), "converting the first {end} bytes is not a prefix of the whole");
        assert!(out.starts_with(&previous), "a longer transcript rewrote earlier output");
        assert!(out.is_empty() || out.ends_with(b"\n"));
        previous = out;
    }
}

#[test]
fn a_growing_transcript_converts_to_a_growing_session() {
    for name in ["claude_code_session.jsonl", "claude_code_summary_first.jsonl", "claude_code_malformed.jsonl"] {
        assert_grows_by_appending(Format::named("claude-code").unwrap(), &std::fs::read(fixture(name)).unwrap());
    }
    for name in ["codex_rollout.jsonl", "codex_legacy.jsonl"] {
        assert_grows_by_appending(Format::named("codex").unwrap(), &std::fs::read(fixture(name)).unwrap());
    }
}

#[test]
fn a_line_still_being_written_is_left_for_later() {
    let bytes = std::fs::read(fixture("claude_code_session.jsonl")).unwrap();
    let ends = line_ends(&bytes);
    let whole = &bytes[..ends[6]];
    let torn = &bytes[..ends[6] + 40];
    let a = convert(Format::named("claude-code").unwrap(), Path::new("t.jsonl"), whole);
    let b = convert(Format::named("claude-code").unwrap(), Path::new("t.jsonl"), torn);
    assert_eq!(a.session_bytes, b.session_bytes);
    assert_eq!(b.diagnostics.len(), 1);
    assert!(b.diagnostics[0].message.contains("still being written"), "{}", b.diagnostics[0]);
}

#[test]
fn conversion_is_deterministic() {
    for (format, name) in [
        (Format::named("claude-code").unwrap(), "claude_code_session.jsonl"),
        (Format::named("codex").unwrap(), "codex_rollout.jsonl"),
    ] {
        let bytes = std::fs::read(fixture(name)).unwrap();
        let a = convert(format, Path::new("t.jsonl"), &bytes);
        let b = convert(format, Path::new("t.jsonl"), &bytes);
        assert_eq!(a.session_bytes, b.session_bytes);
    }
}

/// Lines for the property tests: real fixture lines, damaged copies of them,
/// plausible records with odd values, and noise.
pub(super) fn any_line() -> impl Strategy<Value = String> {
    let mut real = Vec::new();
    for name in [
        "claude_code_session.jsonl",
        "codex_rollout.jsonl",
        "codex_legacy.jsonl",
        "claude_code_malformed.jsonl",
        "gemini_cli_session.jsonl",
    ] {
        real.extend(std::fs::read_to_string(fixture(name)).unwrap().lines().map(str::to_string));
    }
    let value = prop_oneof![
        Just(serde_json::Value::Null),
        any::<i64>().prop_map(serde_json::Value::from),
        "[a-z ]{0,8}".prop_map(serde_json::Value::from),
        Just(serde_json::json!([{"type": "text"}, "x", 1])),
        Just(serde_json::json!({"type": "tool_use", "input": []})),
        Just(serde_json::json!("2026-13-45T99:00:00Z")),
    ];
    let kinds = prop_oneof![
        Just("user"),
        Just("assistant"),
        Just("summary"),
        Just("session_meta"),
        Just("response_item"),
        Just("message"),
        Just("function_call"),
        Just("session"),
        Just("title"),
    ];
    let keys = prop_oneof![
        Just("message"),
        Just("content"),
        Just("payload"),
        Just("timestamp"),
        Just("uuid"),
        Just("sessionId"),
        Just("cwd"),
        Just("role"),
        Just("isSidechain"),
        Just("summary"),
        Just("arguments"),
        Just("output"),
    ];
    let record = (kinds, proptest::collection::vec((keys, value), 0..5)).prop_map(|(kind, fields)| {
        let mut map = serde_json::Map::new();
        map.insert("type".into(), kind.into());
        for (k, v) in fields {
            map.insert(k.to_string(), v);
        }
        serde_json::Value::Object(map).to_string()
    });
    let real = proptest::sample::select(real);
    let damaged = (real.clone(), any::<prop::sample::Index>(), any::<u8>()).prop_map(|(line, at, byte)| {
        let mut bytes = line.into_bytes();
        if !bytes.is_empty() {
            let i = at.index(bytes.len());
            bytes[i] = if byte == b'\n' { b' ' } else { byte };
        }
        String::from_utf8_lossy(&bytes).into_owned()
    });
    prop_oneof![4 => real, 3 => damaged, 3 => record, 1 => "[^\n]{0,40}"]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_input_converts_to_clean_v1_that_grows_by_appending(
        lines in proptest::collection::vec(any_line(), 0..30),
        cut in any::<prop::sample::Index>(),
        format in prop_oneof![Just(Format::named("claude-code").unwrap()), Just(Format::named("codex").unwrap())],
    ) {
        let mut bytes = Vec::new();
        for line in &lines {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        let path = Path::new("random.jsonl");
        let full = convert(format, path, &bytes);
        if !full.is_empty() {
            let session = parse(&full.session_bytes);
            prop_assert_eq!(Some(session.header.id), full.id);
        }
        let ends = line_ends(&bytes);
        if !ends.is_empty() {
            let end = ends[cut.index(ends.len())];
            let part = convert(format, path, &bytes[..end]);
            prop_assert!(full.session_bytes.starts_with(&part.session_bytes));
        }
    }

    #[test]
    fn raw_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        for format in [Format::named("claude-code").unwrap(), Format::named("codex").unwrap()] {
            let converted = convert(format, Path::new("noise.jsonl"), &bytes);
            if !converted.is_empty() {
                parse(&converted.session_bytes);
            }
        }
        let _ = detect(&bytes);
    }
}

#[test]
fn a_memory_tools_output_is_kept_and_marked_recalled_in_both_formats() {
    let answer = format!("{}\n\n1 hit(s) for \"scratch\": notes/scratch.md", lcmem::own_output::RECALL_FRAME);
    let at = "2026-11-01T10:00:00Z";
    let codex = [
        serde_json::json!({"timestamp": at, "type": "session_meta", "payload": {"id": "x", "cwd": "/a"}}),
        serde_json::json!({"timestamp": at, "type": "response_item", "payload": {"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "Where do scratch notes go?"}]}}),
        serde_json::json!({"timestamp": at, "type": "response_item", "payload": {"type": "function_call",
            "namespace": "mcp__lcmem", "name": "recall_sessions", "arguments": "{\"query\":\"scratch\"}", "call_id": "c1"}}),
        serde_json::json!({"timestamp": at, "type": "response_item", "payload": {"type": "function_call_output",
            "call_id": "c1", "output": "ok: the stored answer"}}),
        serde_json::json!({"timestamp": at, "type": "response_item", "payload": {"type": "function_call",
            "name": "shell", "arguments": "{\"command\":[\"ls\"]}", "call_id": "c2"}}),
        serde_json::json!({"timestamp": at, "type": "response_item", "payload": {"type": "function_call_output",
            "call_id": "c2", "output": "notes"}}),
    ];
    let claude = [
        serde_json::json!({"type": "user", "sessionId": "y", "uuid": "u1", "cwd": "/a", "timestamp": at,
            "message": {"role": "user", "content": "Where do scratch notes go?"}}),
        serde_json::json!({"type": "assistant", "sessionId": "y", "uuid": "a1", "cwd": "/a", "timestamp": at,
            "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1",
                "name": "mcp__lcmem__recall_sessions", "input": {"query": "scratch"}}]}}),
        serde_json::json!({"type": "user", "sessionId": "y", "uuid": "u2", "cwd": "/a", "timestamp": at,
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok: the stored answer"}]}}),
        // The digest at SessionStart, known by its shape whatever carried it.
        serde_json::json!({"type": "user", "sessionId": "y", "uuid": "u3", "cwd": "/a", "timestamp": at, "isMeta": true,
            "message": {"role": "user", "content": "<project-memory project=\"a\" as-of=\"2026-11-01\">\nnotes\n</project-memory>"}}),
        serde_json::json!({"type": "user", "sessionId": "y", "uuid": "u4", "cwd": "/a", "timestamp": at,
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t9", "content": answer}]}}),
    ];
    for (format, lines, want) in
        [(Format::named("codex").unwrap(), &codex[..], 1), (Format::named("claude-code").unwrap(), &claude[..], 3)]
    {
        let bytes: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let session = parse(&convert(format, Path::new("t.jsonl"), bytes.as_bytes()).session_bytes);
        let recalled: Vec<&str> = session
            .events
            .iter()
            .filter_map(|e| match &e.value {
                Line::Message { recalled: true, text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(recalled.len(), want, "{format:?}: {recalled:?}");
        assert!(recalled.contains(&"ok: the stored answer"), "{format:?}: the memory tool's result: {recalled:?}");
        let kept_plain = session.events.iter().any(|e| {
            matches!(&e.value, Line::Message { recalled: false, text, .. } if text == "notes" || text.contains("Where do"))
        });
        assert!(kept_plain, "{format:?}: other tools' output and the prompt are not memory's");
    }
}

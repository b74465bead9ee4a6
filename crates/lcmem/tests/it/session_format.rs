//! The v1 session parser on good, bad and random input.

use std::path::Path;

use lcmem::jsonl;
use lcmem::session::{Line, Role, Session, Status};
use proptest::prelude::*;

fn parse(text: &[u8]) -> lcmem::Result<Session> {
    let path = Path::new("mem.jsonl");
    Session::from_lines(path, jsonl::read_from(text, path).unwrap())
}

const HEADER: &str =
    r#"{"type":"session","v":1,"id":"s-1","title":"T","created_at":"2026-11-01T10:00:00Z","client":"x"}"#;

#[test]
fn every_line_type_is_read_and_unknown_ones_are_ignored() {
    let text = format!(
        "{HEADER}\n{}\n{}\n{}\n{}\n",
        r#"{"type":"message","role":"user","text":"hi","ts":"2026-11-01T10:01:00Z","id":"u1","extra":true}"#,
        r#"{"type":"tool","name":"Edit","files":["a.rs"],"ts":"2026-11-01T10:02:00Z"}"#,
        r#"{"type":"reaction","emoji":"+1"}"#,
        r#"{"type":"status","status":"pinned","ts":"2026-11-03T10:00:00Z"}"#,
    );
    let s = parse(text.as_bytes()).unwrap();
    assert!(s.diagnostics.is_empty(), "{:?}", s.diagnostics);
    assert_eq!(s.events.len(), 3);
    assert_eq!(s.events[0].line, 2);
    assert!(matches!(&s.events[0].value, Line::Message { role: Role::User, id: Some(id), .. } if id == "u1"));
    assert_eq!(s.events[2].line, 5);
    assert!(s.pinned());
    assert_eq!(s.last_active().to_string(), "2026-11-03T10:00:00Z");
    assert_eq!(s.closing_status(), None);
    let _ = Status::Done;
}

#[test]
fn bad_lines_are_reported_with_file_and_line_and_skipped() {
    let text = format!(
        "{HEADER}\n{}\n{}\n{}\n{}\n{}\n",
        r#"{"type":"message","role":"robot","text":"x"}"#,
        r#"{"type":"message","role":"user"}"#,
        r#"{"type":"message","role":"user","text":"ok","ts":"yesterday"}"#,
        "\u{1}\u{2} garbage",
        r#"{"type":"message","role":"assistant","text":"fine"}"#,
    );
    let s = parse(text.as_bytes()).unwrap();
    let lines: Vec<usize> = s.diagnostics.iter().map(|d| d.line).collect();
    assert_eq!(lines, [2, 3, 4, 5]);
    assert!(s.diagnostics[0].to_string().starts_with("mem.jsonl:2: "), "{}", s.diagnostics[0]);
    assert_eq!(s.events.len(), 1);
}

#[test]
fn a_file_without_a_header_or_of_another_version_is_an_error_naming_the_line() {
    let no_header = parse(br#"{"type":"message","role":"user","text":"hi"}"#).unwrap_err();
    assert!(no_header.to_string().starts_with("mem.jsonl:1: missing header"), "{no_header}");
    let v2 = parse(br#"{"type":"session","v":2,"id":"a","created_at":"2026-11-01T10:00:00Z"}"#).unwrap_err();
    assert!(v2.to_string().contains("version 2 is not supported"), "{v2}");
    let empty = parse(b"").unwrap_err();
    assert!(empty.to_string().contains("empty file"), "{empty}");
    let bad_id = parse(br#"{"type":"session","v":1,"id":"../etc","created_at":"2026-11-01T10:00:00Z"}"#).unwrap_err();
    assert!(bad_id.to_string().contains("not usable"), "{bad_id}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random bytes after a good header never panic, and every line is either
    /// an event, ignored, or reported.
    #[test]
    fn random_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let mut text = format!("{HEADER}\n").into_bytes();
        text.extend_from_slice(&body);
        let s = parse(&text).unwrap();
        for d in &s.diagnostics {
            prop_assert!(d.line >= 2);
        }
    }

    /// Lines built from JSON-ish fragments, the kind a half-broken writer leaves.
    #[test]
    fn json_shaped_garbage_never_panics(lines in proptest::collection::vec(
        prop_oneof![
            Just(r#"{"type":"message""#.to_string()),
            Just(r#"{"type":"message","role":"user","text":"#.to_string()),
            Just(r#"{"type":"tool","files":[1,2]}"#.to_string()),
            Just(r#"{"type":"status","status":"gone"}"#.to_string()),
            Just(r#"{"type":"session","v":1}"#.to_string()),
            Just("[]".to_string()),
            Just("null".to_string()),
            "\\PC{0,40}",
        ], 0..20)) {
        let text = format!("{HEADER}\n{}", lines.join("\n"));
        let _ = parse(text.as_bytes()).unwrap();
    }

    /// Any header line at all: an error or a session, never a panic.
    #[test]
    fn any_first_line_never_panics(first in "\\PC{0,200}") {
        let _ = parse(first.as_bytes());
    }
}

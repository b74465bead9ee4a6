//! Gemini CLI's transcripts, as the real client (0.61.0) wrote one: a
//! headless session that asked lcmem's recall tool and wrote a file, resumed
//! for a second prompt (`tests/fixtures/gemini_cli_session.jsonl`, recorded
//! against a scripted model on 127.0.0.1).

use std::path::Path;

use lcmem::import::{self, Format, convert, detect};
use lcmem::jsonl;
use lcmem::session::{Line, Role, Session};

use super::import_convert::fixture;

fn converted() -> Session {
    let path = fixture("gemini_cli_session.jsonl");
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(detect(&bytes), Format::named("gemini-cli"), "the format is told from the content");
    let converted = convert(Format::named("gemini-cli").unwrap(), &path, &bytes);
    assert!(converted.diagnostics.is_empty(), "{:?}", converted.diagnostics);
    let out = Path::new("converted.jsonl");
    let session = Session::from_lines(out, jsonl::read_from(converted.session_bytes.as_slice(), out).unwrap()).unwrap();
    assert!(session.diagnostics.is_empty(), "{:?}", session.diagnostics);
    session
}

#[test]
fn the_users_prompts_are_theirs_alone_and_the_working_folder_is_found() {
    let session = converted();
    assert_eq!(session.header.source.as_deref(), Some("gemini-cli"));
    assert_eq!(session.header.id, "fb367840-67e1-41b9-84fa-a70fd7c87190");
    // Named only in Gemini CLI's description of the machine.
    assert_eq!(session.header.cwd.as_deref(), Some("/tmp/gemini-research/proj3"));
    let prompts: Vec<&str> = session
        .events
        .iter()
        .filter_map(|e| match &e.value {
            Line::Message { role: Role::User, text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    // The digest lcmem's hook gave (inside <hook_context>), the machine's
    // description and the tool results sent back as the user are not prompts;
    // the resumed session's rewrite of its history adds nothing twice.
    assert_eq!(prompts, ["add a notes file", "add the notes file again"]);
    let all = String::from_utf8(std::fs::read(fixture("gemini_cli_session.jsonl")).unwrap()).unwrap();
    assert!(all.contains("LCMEM-DIGEST") && all.contains("<session_context>"), "the fixture holds what is left out");
    for e in &session.events {
        let text = serde_json::to_string(&e.value).unwrap();
        assert!(!text.contains("LCMEM-DIGEST") && !text.contains("session_context"), "{text}");
    }
}

#[test]
fn the_recall_answer_is_memorys_own_and_the_write_is_a_write_of_the_projects_file() {
    let session = converted();
    let mut recalled = 0;
    let mut tools = Vec::new();
    for e in &session.events {
        match &e.value {
            Line::Message { role: Role::Tool, recalled: true, text, .. } => {
                recalled += 1;
                assert!(text.contains("scratch notes"), "{text}");
            }
            Line::Tool { name, files, .. } => tools.push((name.clone(), files.clone())),
            _ => {}
        }
    }
    assert_eq!(recalled, 1, "the recall tool's answer is kept, marked as memory's");
    assert_eq!(
        tools,
        [("mcp_lcmem_recall_sessions".to_string(), vec![]), ("Write".to_string(), vec!["notes.txt".to_string()])],
        "each call once, though Gemini CLI writes a reply again when its calls are added"
    );
}

#[test]
fn discovery_finds_sessions_and_not_subagents_or_bookkeeping() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join(".gemini/tmp");
    let write = |rel: &str| {
        let path = tmp.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{}\n").unwrap();
        path
    };
    let session = write("proj/chats/session-2026-12-05T02-26-fb367840.jsonl");
    let other = write("other-1/chats/session-2026-12-01T10-00-aaaa0000.jsonl");
    write("proj/chats/fb367840/subagent-1.jsonl");
    write("proj/logs.json");
    write("proj/chats/notes.jsonl");
    let gemini = import::source("gemini-cli").unwrap();
    assert_eq!(import::discover(gemini, &tmp).unwrap(), [other, session]);
    let folder = gemini.transcripts().unwrap().folder(|_| None, Some(dir.path()));
    assert_eq!(folder, Some(tmp), "~/.gemini/tmp, without GEMINI_CLI_HOME");
}

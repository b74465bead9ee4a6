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
    let gemini = lcmem::agents::source("gemini-cli").unwrap();
    assert_eq!(import::discover(gemini, &tmp).unwrap(), [other, session]);
    let folder = gemini.transcripts().unwrap().folder(|_| None, Some(dir.path()));
    assert_eq!(folder, Some(tmp), "~/.gemini/tmp, without GEMINI_CLI_HOME");
}

/// A session file of Gemini CLI before 0.39: one JSON document, rewritten
/// whole as the session goes on (`tests/fixtures/gemini/`, written for these
/// tests in the shape the client writes).
fn legacy() -> (std::path::PathBuf, Vec<u8>) {
    let path = fixture("gemini/session-2025-10-02T12-21-5a1b2c3d.json");
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

fn parse(converted: &import::Converted) -> Session {
    assert!(converted.diagnostics.is_empty(), "{:?}", converted.diagnostics);
    let out = Path::new("converted.jsonl");
    let session = Session::from_lines(out, jsonl::read_from(converted.session_bytes.as_slice(), out).unwrap()).unwrap();
    assert!(session.diagnostics.is_empty(), "{:?}", session.diagnostics);
    session
}

fn prompts(session: &Session) -> Vec<String> {
    let prompts = session.events.iter().filter_map(|e| match &e.value {
        Line::Message { role: Role::User, text, .. } => Some(text.clone()),
        _ => None,
    });
    prompts.collect()
}

fn tools(session: &Session) -> Vec<(String, Vec<String>, Option<String>)> {
    let tools = session.events.iter().filter_map(|e| match &e.value {
        Line::Tool { name, files, commit, .. } => Some((name.clone(), files.clone(), commit.clone())),
        _ => None,
    });
    tools.collect()
}

#[test]
fn a_session_file_of_an_earlier_version_converts_with_its_prompts_replies_and_calls() {
    let (path, bytes) = legacy();
    let gemini = Format::named("gemini-cli");
    assert_eq!(detect(&bytes), gemini, "a document is told apart by its shape");
    let session = parse(&convert(gemini.unwrap(), &path, &bytes));
    // Named by its file: Gemini CLI starts a new file under the same
    // sessionId for a new chat.
    assert_eq!(session.header.id, "session-2025-10-02T12-21-5a1b2c3d");
    assert_eq!(session.header.cwd.as_deref(), Some("/home/dev/shop"), "from the session's directories");
    assert_eq!(session.header.created_at.to_string(), "2025-10-02T12:21:04.112Z");
    assert_eq!(
        prompts(&session),
        ["The export script writes CSV. Make it write JSON lines instead, one order per line.", "Commit it."],
        "a prompt as a string and as parts; the client's own notice is no prompt"
    );
    let replies = session.events.iter().filter(|e| matches!(&e.value, Line::Message { role: Role::Assistant, .. }));
    assert_eq!(replies.count(), 2);
    let export = vec!["scripts/export.py".to_string()];
    assert_eq!(
        tools(&session),
        [
            ("Read".to_string(), export.clone(), None),
            ("Write".to_string(), export, None),
            ("Bash".to_string(), vec![], None),
            ("Bash".to_string(), vec![], Some("export: write JSON lines instead of CSV".to_string())),
        ]
    );
}

#[test]
fn a_session_file_seals_to_a_line_that_says_what_it_did() {
    let (path, bytes) = legacy();
    let dirs = lcmem_test_support::TempDirs::with_project("shop");
    let store = lcmem::Store::open(&dirs.home(), &dirs.project()).unwrap();
    let converted = convert(Format::named("gemini-cli").unwrap(), &path, &bytes);
    import::store_converted(&store, &path, converted).unwrap();
    let now: jiff::Timestamp = "2025-10-03T09:00:00Z".parse().unwrap();
    let id = "session-2025-10-02T12-21-5a1b2c3d";
    lcmem::seal::seal(&store, id, None, &lcmem::extract::offline::OfflineExtractor, now).unwrap();
    let journal = lcmem::journal::Journal::read(&store.journal_path()).unwrap();
    let entry = journal.entries.into_iter().find(|c| c.entry.session_id == id).expect("sealed").entry;
    let line = entry.summary.to_lowercase();
    assert!(line.contains("json lines") || line.contains("export"), "{}", entry.summary);
    assert!(!line.contains("no changes made") && !line.starts_with("answered"), "{}", entry.summary);
    assert!(entry.files.iter().any(|f| f == "scripts/export.py"), "{:?}", entry.files);
}

#[test]
fn a_saved_conversation_reads_the_models_history_dated_by_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("checkpoint-export-question.json");
    std::fs::copy(fixture("gemini/checkpoint-export-question.json"), &path).unwrap();
    let saved: jiff::Timestamp = "2025-10-02T15:00:00Z".parse().unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    let secs = u64::try_from(saved.as_second()).unwrap();
    file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs)).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let gemini = Format::named("gemini-cli");
    assert_eq!(detect(&bytes), gemini);
    let session = parse(&convert(gemini.unwrap(), &path, &bytes));
    assert_eq!(session.header.created_at, saved, "a history holds no time: the file's is used");
    assert_eq!(session.header.cwd.as_deref(), Some("/home/dev/shop"), "from Gemini CLI's description of the machine");
    assert_eq!(prompts(&session), ["Which test covers the export?"], "the description and its answer are left out");
    assert_eq!(tools(&session), [("Glob".to_string(), vec![], None)]);
    let results = session.events.iter().filter(|e| matches!(&e.value, Line::Message { role: Role::Tool, .. }));
    assert_eq!(results.count(), 1, "the call's response, sent back in the next turn, is the call's");
}

#[test]
fn a_resumed_session_file_is_found_once_and_a_projects_folder_by_its_hash_or_its_name() {
    use sha2::Digest as _;
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join(".gemini/tmp");
    let root = Path::new("/home/dev/shop");
    let hash: String = sha2::Sha256::digest(b"/home/dev/shop").iter().map(|b| format!("{b:02x}")).collect();
    let (_, bytes) = legacy();
    let put = |rel: &str, content: &[u8]| {
        let path = tmp.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        path
    };
    // Before 0.29, under the hash; the document has no working folder of its own.
    let document = String::from_utf8(bytes.clone()).unwrap().replace(r#""directories": ["#, r#""dirs": ["#);
    let hashed = put(&format!("{hash}/chats/session-2025-10-02T12-21-5a1b2c3d.json"), document.as_bytes());
    // Resumed by a later version: the .jsonl copy replaces the document.
    put(&format!("{hash}/chats/session-2025-10-01T08-00-11112222.json"), &bytes);
    let resumed = put(
        &format!("{hash}/chats/session-2025-10-01T08-00-11112222.jsonl"),
        &std::fs::read(fixture("gemini_cli_session.jsonl")).unwrap(),
    );
    // From 0.29, under a short name that projects.json gives the folder.
    let named = put("shop/chats/session-2025-11-01T08-00-33334444.json", document.as_bytes());
    std::fs::write(dir.path().join(".gemini/projects.json"), r#"{"projects": {"/home/dev/shop": "shop"}}"#).unwrap();
    put("elsewhere/chats/session-2025-11-02T08-00-55556666.json", document.as_bytes());
    let gemini = lcmem::agents::source("gemini-cli").unwrap();
    let found = import::discover(gemini, &tmp).unwrap();
    assert!(found.contains(&resumed) && found.contains(&hashed), "{found:?}");
    assert_eq!(found.iter().filter(|p| p.to_string_lossy().contains("11112222")).count(), 1, "{found:?}");
    let ours: Vec<_> =
        import::project_transcripts(gemini, &tmp, root, None, &|_| true).into_iter().map(|f| f.path).collect();
    assert_eq!(ours, [hashed, named], "the resumed copy records another folder; `elsewhere` is another project's");
}

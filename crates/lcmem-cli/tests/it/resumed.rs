//! Sessions that go on after they were sealed (Claude Code `--resume`), and
//! transcripts re-imported over a stored copy lcmem itself changed (pins,
//! closing status) or that an older converter wrote.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{Sandbox, sealed_ids};

const ID: &str = "7c2e9a10-resume";

/// One Claude Code record of the session, in the shape Claude Code writes.
fn record(kind: &str, uuid: &str, ts: &str, cwd: &Path, content: Value) -> String {
    json!({
        "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": cwd, "sessionId": ID,
        "version": "2.0.14", "type": kind, "uuid": uuid, "timestamp": ts,
        "message": {"role": kind, "content": content}
    })
    .to_string()
}

/// The session's first stretch of work: a request, an edit and a report.
fn first_part(cwd: &Path) -> Vec<String> {
    vec![
        record("user", "u-1", "2026-11-20T09:00:00Z", cwd, json!("Add retries to the HTTP client in src/http.rs.")),
        record(
            "assistant",
            "a-1",
            "2026-11-20T09:05:00Z",
            cwd,
            json!([
                {"type": "tool_use", "id": "t1", "name": "Edit", "input": {"file_path": cwd.join("src/http.rs")}},
                {"type": "text", "text": "Added retries with exponential backoff to the HTTP client in src/http.rs."}
            ]),
        ),
    ]
}

/// What the session did after it was resumed.
fn second_part(cwd: &Path) -> Vec<String> {
    vec![
        record("user", "u-2", "2026-11-21T10:00:00Z", cwd, json!("Now make the request timeout configurable.")),
        record(
            "assistant",
            "a-2",
            "2026-11-21T10:10:00Z",
            cwd,
            json!([
                {"type": "tool_use", "id": "t2", "name": "Edit", "input": {"file_path": cwd.join("src/settings.rs")}},
                {"type": "text", "text": "Moved the request timeout into src/settings.rs and made it configurable, thirty seconds by default."}
            ]),
        ),
    ]
}

/// A third stretch, ended through the agent hook.
fn third_part(cwd: &Path) -> Vec<String> {
    vec![
        record("user", "u-3", "2026-11-22T08:00:00Z", cwd, json!("Document the timeout in the README.")),
        record(
            "assistant",
            "a-3",
            "2026-11-22T08:04:00Z",
            cwd,
            json!([
                {"type": "tool_use", "id": "t3", "name": "Edit", "input": {"file_path": cwd.join("README.md")}},
                {"type": "text", "text": "Documented the configurable timeout in README.md under Configuration."}
            ]),
        ),
    ]
}

fn write_transcript(path: &Path, records: &[String]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, records.iter().map(|r| format!("{r}\n")).collect::<String>()).unwrap();
}

fn transcript(sandbox: &Sandbox) -> PathBuf {
    sandbox.inbox().join(format!("{ID}.jsonl"))
}

fn stored(sandbox: &Sandbox) -> PathBuf {
    sandbox.store_dir().join(format!("{ID}.jsonl"))
}

/// Runs `lcmem ARGS`, asserting it succeeds; its stdout.
fn ok(sandbox: &Sandbox, args: &[&str]) -> String {
    let out = sandbox.cmd().args(args).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "lcmem {args:?} failed:\n{stdout}\n{stderr}");
    stdout.into_owned()
}

fn import(sandbox: &Sandbox) -> String {
    let path = transcript(sandbox);
    ok(sandbox, &["import", "--format", "claude-code", path.to_str().unwrap()])
}

/// The current journal entry of the session, as `lcmem journal --json` shows it.
fn current(sandbox: &Sandbox) -> Value {
    let entries: Vec<Value> = serde_json::from_str(&ok(sandbox, &["journal", "--json"])).unwrap();
    let mine: Vec<&Value> = entries.iter().filter(|e| e["session_id"] == ID).collect();
    assert_eq!(mine.len(), 1, "one current entry per session: {entries:?}");
    mine[0].clone()
}

/// The `sealed` lines of the journal file for the session.
fn sealed_lines(sandbox: &Sandbox) -> Vec<Value> {
    std::fs::read_to_string(sandbox.journal())
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "sealed" && v["session_id"] == ID)
        .collect()
}

fn hook_session_end(sandbox: &Sandbox) -> std::process::Output {
    let input = json!({
        "session_id": ID, "transcript_path": transcript(sandbox), "cwd": sandbox.project(),
        "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"
    });
    // The seal runs in the background: wait for it to say what it did.
    let said = || crate::common::hooks_log(sandbox).matches("SessionEnd: ").count();
    let before = said();
    let out = sandbox.assert_cmd().args(["hook", "claude-code"]).write_stdin(input.to_string()).output().unwrap();
    crate::common::eventually("the background seal is done", || said() > before);
    out
}

#[test]
fn a_resumed_session_is_sealed_again_as_a_revision_and_the_first_stays_findable() {
    let sandbox = Sandbox::new();
    // MEMORY.md is rewritten after every seal, so a reseal must count as one.
    ok(&sandbox, &["config", "set", "memory.consolidate_every", "1"]);
    let cwd = sandbox.project();
    let mut records = first_part(&cwd);
    write_transcript(&transcript(&sandbox), &records);
    assert!(import(&sandbox).starts_with(&format!("added     {ID}")));
    assert!(ok(&sandbox, &["seal", ID]).starts_with(&format!("sealed  {ID}")));
    let first = current(&sandbox);
    assert_eq!((first["revision"].as_u64(), first["earlier_revisions"].as_u64()), (Some(1), Some(0)), "{first}");
    assert!(first["summary"].as_str().unwrap().contains("exponential backoff"), "{first}");

    // Resumed: more work, imported by hand and sealed again.
    records.extend(second_part(&cwd));
    write_transcript(&transcript(&sandbox), &records);
    assert!(import(&sandbox).starts_with(&format!("extended  {ID}: 3 new line(s)")));
    let resealed = ok(&sandbox, &["seal", ID]);
    assert!(resealed.starts_with(&format!("sealed again  {ID}")) && resealed.contains("revision 2"), "{resealed}");
    let second = current(&sandbox);
    assert_eq!((second["revision"].as_u64(), second["earlier_revisions"].as_u64()), (Some(2), Some(1)), "{second}");
    assert!(second["summary"].as_str().unwrap().contains("request timeout into src/settings.rs"), "{second}");
    let files: Vec<&str> = second["files"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(files.contains(&"src/settings.rs") && files.contains(&"src/http.rs"), "the whole session: {files:?}");
    assert!(ok(&sandbox, &["journal"]).contains("revision 2"));
    assert!(ok(&sandbox, &["seal", ID]).starts_with("already sealed"), "unchanged: nothing to seal");

    // The first revision is still in the file, and recall still finds it, marked.
    let lines = sealed_lines(&sandbox);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0]["summary"].as_str().unwrap().contains("exponential backoff")
            && !lines[0].to_string().contains("settings.rs")
    );
    let hits: Vec<Value> =
        serde_json::from_str(&ok(&sandbox, &["recall", "exponential backoff", "--kinds", "journal", "--json"]))
            .unwrap();
    let earlier = hits.iter().find(|h| h["note"].as_str().is_some_and(|n| n.contains("earlier revision 1 of 2")));
    assert!(earlier.is_some_and(|h| h["session"] == ID), "the first revision is not found: {hits:#?}");

    // Resumed again and ended through the agent hook: a third revision.
    records.extend(third_part(&cwd));
    write_transcript(&transcript(&sandbox), &records);
    assert!(hook_session_end(&sandbox).status.success());
    let log = crate::common::hooks_log(&sandbox);
    assert!(log.contains(&format!("SessionEnd: extended {ID} by 3 line(s), sealed again as revision 3")), "{log}");
    let third = current(&sandbox);
    assert_eq!(third["revision"].as_u64(), Some(3), "{third}");
    assert!(third["files"].to_string().contains("README.md"), "{third}");
    // The digest a new session loads carries the work after the resume.
    let digest = std::fs::read_to_string(sandbox.store_dir().join("memory/MEMORY.md")).unwrap();
    assert!(
        digest.to_lowercase().contains("documented the configurable timeout"),
        "the reseal never reached MEMORY.md:\n{digest}"
    );
    assert_eq!(sealed_lines(&sandbox).len(), 3);
    assert!(hook_session_end(&sandbox).status.success());
    assert_eq!(sealed_lines(&sandbox).len(), 3, "an unchanged session is not sealed again");
}

#[test]
fn seal_all_reseals_sessions_that_went_on_and_only_those() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let mut records = first_part(&cwd);
    write_transcript(&transcript(&sandbox), &records);
    import(&sandbox);
    let other = sandbox.write_session("other", &crate::common::working_session(1));
    ok(&sandbox, &["import", other.to_str().unwrap()]);
    ok(&sandbox, &["seal", "--all"]);
    assert_eq!(sealed_ids(&sandbox.journal()), [ID, "other"]);

    records.extend(second_part(&cwd));
    write_transcript(&transcript(&sandbox), &records);
    import(&sandbox);
    let out = ok(&sandbox, &["seal", "--all"]);
    assert!(out.contains(&format!("sealed again  {ID}")) && !out.contains("other"), "{out}");
    assert_eq!(sealed_ids(&sandbox.journal()), [ID, "other", ID]);
}

#[test]
fn a_pinned_session_takes_new_lines_and_stays_pinned() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let mut records = first_part(&cwd);
    write_transcript(&transcript(&sandbox), &records);
    import(&sandbox);
    ok(&sandbox, &["seal", ID]);
    ok(&sandbox, &["pin", ID]);
    assert!(import(&sandbox).starts_with(&format!("unchanged {ID}")), "the pin is not a difference");

    records.extend(second_part(&cwd));
    write_transcript(&transcript(&sandbox), &records);
    let out = import(&sandbox);
    assert!(out.starts_with(&format!("extended  {ID}: 3 new line(s)")), "{out}");
    let copy = std::fs::read_to_string(stored(&sandbox)).unwrap();
    assert!(copy.contains("request timeout into") && copy.contains(r#""status":"pinned""#), "{copy}");
    let sessions: Vec<Value> = serde_json::from_str(&ok(&sandbox, &["sessions", "--json"])).unwrap();
    assert_eq!(sessions[0]["pinned"], true, "{sessions:?}");
    ok(&sandbox, &["seal", ID]);
    let entry = current(&sandbox);
    assert_eq!((entry["revision"].as_u64(), &entry["pinned"]), (Some(2), &json!(true)), "{entry}");
}

#[test]
fn pinning_a_sealed_session_is_no_new_work() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let mut records = first_part(&cwd);
    write_transcript(&transcript(&sandbox), &records);
    import(&sandbox);
    ok(&sandbox, &["seal", ID]);
    ok(&sandbox, &["pin", ID]);
    ok(&sandbox, &["unpin", ID]);
    ok(&sandbox, &["pin", ID]);
    assert!(ok(&sandbox, &["seal", ID]).starts_with("already sealed"));
    assert!(!ok(&sandbox, &["seal", "--all"]).contains(ID));
    assert!(hook_session_end(&sandbox).status.success());
    assert_eq!(sealed_lines(&sandbox).len(), 1, "status lines are not growth");

    // Work is: the same session, once it goes on, is sealed again.
    records.extend(second_part(&cwd));
    write_transcript(&transcript(&sandbox), &records);
    assert!(hook_session_end(&sandbox).status.success());
    assert_eq!(
        sealed_lines(&sandbox).len(),
        2,
        "{}",
        std::fs::read_to_string(sandbox.home().join("logs/hooks.log")).unwrap_or_default()
    );
}

/// A transcript with a shell command in it, which this version's converter
/// keeps (`command`) and the previous one did not.
fn with_a_command(cwd: &Path) -> Vec<String> {
    let mut records = first_part(cwd);
    records.push(record(
        "assistant",
        "a-1b",
        "2026-11-20T09:06:00Z",
        cwd,
        json!([{"type": "tool_use", "id": "t9", "name": "Bash",
                "input": {"command": "cargo test -p http", "description": "Run the HTTP tests"}}]),
    ));
    records
}

/// The stored copy as the previous version wrote it: tool lines without the
/// inputs this version keeps.
fn strip_new_fields(path: &Path) {
    let old: String = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            for key in ["command", "purpose", "todos", "compaction"] {
                v.as_object_mut().unwrap().remove(key);
            }
            format!("{v}\n")
        })
        .collect();
    std::fs::write(path, old).unwrap();
}

#[test]
fn a_copy_an_older_converter_wrote_is_converted_again_and_a_shrunk_transcript_conflicts() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let records = with_a_command(&cwd);
    write_transcript(&transcript(&sandbox), &records);
    import(&sandbox);
    ok(&sandbox, &["seal", "--done", ID]);
    ok(&sandbox, &["pin", ID]);
    strip_new_fields(&stored(&sandbox));
    assert!(!std::fs::read_to_string(stored(&sandbox)).unwrap().contains("cargo test"));

    let out = import(&sandbox);
    assert!(out.starts_with(&format!("updated   {ID}: converted again")), "{out}");
    let copy = std::fs::read_to_string(stored(&sandbox)).unwrap();
    assert!(copy.contains(r#""command":"cargo test -p http""#), "the new fields: {copy}");
    assert!(
        copy.trim_end().ends_with(r#""status":"pinned","ts":"2026-11-30T12:00:00Z"}"#),
        "the pin, at the end: {copy}"
    );
    assert!(import(&sandbox).starts_with(&format!("unchanged {ID}")));

    // Stripped again, and grown: converted again with the new lines.
    strip_new_fields(&stored(&sandbox));
    let mut grown = records.clone();
    grown.extend(second_part(&cwd));
    write_transcript(&transcript(&sandbox), &grown);
    assert!(import(&sandbox).starts_with(&format!("updated   {ID}")));
    let copy = std::fs::read_to_string(stored(&sandbox)).unwrap();
    assert!(copy.contains("cargo test -p http") && copy.contains("request timeout into"), "{copy}");

    // A transcript that lost messages is not this one grown: a conflict, and the copy is left alone.
    write_transcript(&transcript(&sandbox), &records[..1]);
    let path = transcript(&sandbox);
    let out = sandbox.cmd().args(["import", "--format", "claude-code", path.to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists in the store with different content"));
    assert_eq!(std::fs::read_to_string(stored(&sandbox)).unwrap(), copy);
}

#[test]
fn the_users_own_v1_file_still_conflicts() {
    let sandbox = Sandbox::new();
    let file = sandbox.write_session("mine", &crate::common::working_session(1));
    ok(&sandbox, &["import", file.to_str().unwrap()]);
    ok(&sandbox, &["pin", "mine"]);
    let mut body = crate::common::working_session(1);
    body.push(crate::common::message("user", "One more thing."));
    let file = sandbox.write_session("mine", &body);
    let out = sandbox.cmd().args(["import", file.to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists in the store with different content"));
}

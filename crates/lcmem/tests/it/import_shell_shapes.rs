//! Shell commands as agents write them, through every reader that looks at
//! a command or its output: the commit reader (a subject from `-m`, `-F` and
//! here-documents, message files written earlier), the files a redirect or
//! `tee` writes, and what a result says (an exit code, a commit made, long
//! output cut around multi-byte characters). Here-documents with and without
//! redirection, `tee`, pipes, chains, quoting and unicode, whole or cut off
//! anywhere, in a Claude Code, a Codex and a Gemini CLI transcript: no shape
//! may stop a conversion, and a message written to a file and committed with
//! `-F` is read back.

use std::path::Path;

use lcmem::import::{Format, convert};
use lcmem::jsonl;
use lcmem::session::{Line, Session};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Names a command may give a file: plain, nested, quoted, with spaces and
/// characters outside ASCII.
fn file_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_]{1,8}\\.(md|txt|rs)",
        "[a-z]{1,6}/[a-z]{1,6}\\.md",
        Just("/tmp/commit-msg.txt".to_string()),
        Just(".git/COMMIT_EDITMSG".to_string()),
        Just("'notes é.md'".to_string()),
        Just("\"中文 说明.md\"".to_string()),
        Just("$OUT".to_string()),
    ]
}

/// A here-document's opening tag, as written after `<<`, and the line that
/// ends it.
fn tag() -> impl Strategy<Value = (String, String)> {
    prop_oneof![
        Just(("'EOF'".to_string(), "EOF".to_string())),
        Just(("EOF".to_string(), "EOF".to_string())),
        Just(("\"MSG\"".to_string(), "MSG".to_string())),
        Just(("-END".to_string(), "END".to_string())),
        Just(("'EOF'".to_string(), "  EOF".to_string())),
    ]
}

/// Lines of a body: words, unicode, shell-looking text, a line that only
/// starts like the end tag.
fn body() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "[A-Za-z ]{0,30}",
        "[^\n]{0,20}",
        Just("feat(api): rate-limit login — 五次/分".to_string()),
        Just("EOF is not the end".to_string()),
        Just("$(echo nested) `tick` \"quote\" 'single'".to_string()),
        Just("Co-Authored-By: Someone <a@b.c>".to_string()),
        Just("👩‍💻 ünïcödé".to_string()),
    ];
    proptest::collection::vec(line, 0..5).prop_map(|lines| lines.join("\n"))
}

/// One command, in one of the shapes agents write.
fn command() -> impl Strategy<Value = String> {
    let shape = (0..12usize, file_name(), tag(), body(), "[^\n]{0,12}");
    shape.prop_map(|(shape, file, (open, end), body, text)| match shape {
        0 => format!("cat <<{open} > {file}\n{body}\n{end}"),
        1 => format!("cat > {file} <<{open}\n{body}\n{end}"),
        2 => format!("cat <<{open} | tee -a {file}\n{body}\n{end}"),
        3 => format!("git commit -m \"$(cat <<{open}\n{body}\n{end}\n)\""),
        4 => format!("git commit -F - <<{open}\n{body}\n{end}"),
        5 => format!("cat <<{open} | git commit -F -\n{body}\n{end}"),
        6 => format!("git add -A && git commit -am '{text}' && git push"),
        7 => format!("git commit -F {file}"),
        8 => format!("git -C repo commit --message={text} -m\"{text}\""),
        9 => format!("printf '{text}\\n' > {file} 2>&1 | tee {file}"),
        10 => format!("echo \"{text} > not-a-file\" >> {file}; git commit -F"),
        _ => text,
    })
}

/// Several commands chained, and perhaps cut off at any character.
fn script() -> impl Strategy<Value = String> {
    let joiner = prop_oneof![Just(" && "), Just(" | "), Just("; "), Just("\n"), Just(" || ")];
    (proptest::collection::vec((command(), joiner), 1..4), any::<prop::sample::Index>(), any::<bool>()).prop_map(
        |(parts, cut, whole)| {
            let script: String = parts.iter().map(|(c, j)| format!("{c}{j}")).collect();
            if whole {
                return script;
            }
            let chars: Vec<char> = script.chars().collect();
            chars[..cut.index(chars.len() + 1)].iter().collect()
        },
    )
}

/// What a command printed: short, or long enough that only its ends are
/// read, with multi-byte characters where it is cut.
fn output() -> impl Strategy<Value = String> {
    prop_oneof![
        "[^\n]{0,40}",
        Just("[main 3f2a1b9] feat: done\n 1 file changed".to_string()),
        Just("Exit code 1\nerror: nothing to commit".to_string()),
        (1..4usize, "[^\n]{0,3}").prop_map(|(n, s)| format!("{}{s}{}", "é".repeat(8_000 * n), "中".repeat(6_000))),
    ]
}

/// A Claude Code transcript running `commands`.
fn claude(commands: &[(String, String)]) -> Vec<u8> {
    let mut lines = vec![json!({"type": "user", "uuid": "u0", "sessionId": "s", "cwd": "/w",
        "timestamp": "2026-11-20T10:00:00Z", "message": {"role": "user", "content": "go"}})];
    for (i, (command, output)) in commands.iter().enumerate() {
        let id = format!("t{i}");
        lines.push(json!({"type": "assistant", "uuid": format!("a{i}"), "sessionId": "s",
            "timestamp": "2026-11-20T10:01:00Z",
            "message": {"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": "Bash",
                "input": {"command": command, "description": "run it"}}]}}));
        lines.push(json!({"type": "user", "uuid": format!("r{i}"), "sessionId": "s",
            "timestamp": "2026-11-20T10:02:00Z",
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": output}]}}));
    }
    to_bytes(&lines)
}

/// A Codex rollout running `commands`.
fn codex(commands: &[(String, String)]) -> Vec<u8> {
    let item =
        |payload: Value| json!({"timestamp": "2026-11-21T09:01:00Z", "type": "response_item", "payload": payload});
    let mut lines = vec![
        json!({"timestamp": "2026-11-21T09:00:00Z", "type": "session_meta",
               "payload": {"id": "c1", "timestamp": "2026-11-21T09:00:00Z", "cwd": "/w"}}),
        item(json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]})),
    ];
    for (i, (command, output)) in commands.iter().enumerate() {
        let call = format!("call_{i}");
        let arguments = json!({"command": ["bash", "-lc", command]}).to_string();
        let out = json!({"output": output, "metadata": {"exit_code": 0}}).to_string();
        lines.push(item(json!({"type": "function_call", "name": "shell", "arguments": arguments, "call_id": call})));
        lines.push(item(json!({"type": "function_call_output", "call_id": call, "output": out})));
    }
    to_bytes(&lines)
}

/// A Gemini CLI session running `commands`.
fn gemini(commands: &[(String, String)]) -> Vec<u8> {
    let mut lines = vec![
        json!({"sessionId": "g1", "projectHash": "h", "startTime": "2026-11-22T09:00:00Z"}),
        json!({"id": "m0", "timestamp": "2026-11-22T09:00:01Z", "type": "user", "content": "go"}),
    ];
    let calls: Vec<Value> = commands
        .iter()
        .enumerate()
        .map(|(i, (command, output))| {
            json!({"id": format!("run_{i}"), "name": "run_shell_command", "args": {"command": command},
                   "status": "success", "timestamp": "2026-11-22T09:00:02Z",
                   "result": [{"functionResponse": {"id": format!("run_{i}"), "response": {"output": output}}}]})
        })
        .collect();
    lines.push(
        json!({"id": "m1", "timestamp": "2026-11-22T09:00:02Z", "type": "gemini", "content": "", "toolCalls": calls}),
    );
    to_bytes(&lines)
}

fn to_bytes(lines: &[Value]) -> Vec<u8> {
    lines.iter().map(|l| format!("{l}\n")).collect::<String>().into_bytes()
}

/// Converts, and insists the result is clean session format v1.
fn converted(format: &str, bytes: &[u8]) -> Session {
    let path = Path::new("transcript.jsonl");
    let converted = convert(Format::named(format).unwrap(), path, bytes);
    let out = Path::new("converted.jsonl");
    let session = Session::from_lines(out, jsonl::read_from(converted.session_bytes.as_slice(), out).unwrap()).unwrap();
    assert!(session.diagnostics.is_empty(), "{:?}", session.diagnostics);
    session
}

fn commits(session: &Session) -> Vec<String> {
    session
        .events
        .iter()
        .filter_map(|e| match &e.value {
            Line::Tool { commit, .. } => commit.clone(),
            _ => None,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn no_shell_command_stops_a_conversion(
        commands in proptest::collection::vec((script(), output()), 1..4),
        agent in 0..3usize,
    ) {
        let (format, bytes) = match agent {
            0 => ("claude-code", claude(&commands)),
            1 => ("codex", codex(&commands)),
            _ => ("gemini-cli", gemini(&commands)),
        };
        let session = converted(format, &bytes);
        let tools = session.events.iter().filter(|e| matches!(e.value, Line::Tool { .. })).count();
        prop_assert_eq!(tools, commands.len(), "every call is kept");
    }

    #[test]
    fn a_message_written_to_a_file_is_read_back_when_committed_with_it(
        subject in "[A-Za-z]{3}[A-Za-z0-9 ]{0,40}[a-z]",
        (open, end) in tag(),
        agent in 0..3usize,
        redirect_first in any::<bool>(),
    ) {
        let file = "/tmp/commit-msg.txt";
        let write = match redirect_first {
            true => format!("cat > {file} <<{open}\n{subject}\n\nbody\n{end}"),
            false => format!("cat <<{open} > {file}\n{subject}\n\nbody\n{end}"),
        };
        let commands = [(write, String::new()), (format!("git commit -F {file}"), String::new())];
        let (format, bytes) = match agent {
            0 => ("claude-code", claude(&commands)),
            1 => ("codex", codex(&commands)),
            _ => ("gemini-cli", gemini(&commands)),
        };
        let collapsed = subject.split_whitespace().collect::<Vec<_>>().join(" ");
        prop_assert_eq!(commits(&converted(format, &bytes)), vec![collapsed]);
    }
}

//! Every command the README shows, and every concrete example a `--help`
//! gives, runs as written: each in a fresh sandbox holding the example
//! project imported and sealed, with its placeholders (SESSION, ID, QUERY …)
//! filled in. A few commands run until stopped or download; they are listed
//! with where they are tested instead, and the list is checked against the
//! README so that it cannot grow stale.

use std::path::Path;

use crate::common::{Sandbox, example_sessions};

/// Commands not run here, each with the test that holds it.
const NOT_RUN_HERE: &[(&str, &str)] = &[
    ("lcmem ui", "serves until stopped: tests/it/ui (a real browser)"),
    ("lcmem watch", "follows folders until stopped: `watch --once` in tests/it/ending.rs"),
    ("lcmem mcp", "a server on stdin: tests/it/mcp (the Python and TypeScript SDKs)"),
    ("lcmem model install", "downloads 91 MB: tests/it/semantic_fetch.rs (the same fetch from a local server)"),
];

fn sealed_sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.assert_cmd().arg("import").args(example_sessions()).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    sandbox
}

/// The `lcmem …` lines of the README's shell blocks, comments taken off.
fn readme_lines() -> Vec<String> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap();
    let mut lines = Vec::new();
    let mut in_shell = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_shell = line == "```sh";
            continue;
        }
        let command = line.split(" # ").next().unwrap_or("").trim();
        if in_shell && command.starts_with("lcmem ") {
            lines.push(command.to_string());
        }
    }
    lines
}

/// One README line as the commands it stands for: `A / B` and `A, B` are
/// two commands (`B` may be a word that takes the last word's place, or the
/// command without `lcmem`), `a|b` is each of them, `[x]` is without and with it.
fn expand(line: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let first: Vec<&str> = line.split(" / ").collect();
    let mut parts: Vec<String> = Vec::new();
    for (i, part) in first.iter().enumerate() {
        let part = part.trim();
        let full = if part.starts_with("lcmem ") {
            part.to_string()
        } else if !part.contains(' ') && i > 0 {
            let base = parts[0].rsplit_once(' ').map_or(parts[0].as_str(), |(b, _)| b);
            format!("{base} {part}")
        } else {
            format!("lcmem {part}")
        };
        parts.extend(
            full.split(", lcmem ").enumerate().map(|(k, p)| if k == 0 { p.into() } else { format!("lcmem {p}") }),
        );
    }
    for part in parts {
        let mut variants = vec![String::new()];
        for word in part.split_whitespace() {
            let choices: Vec<String> = match word.strip_prefix('[').and_then(|w| w.strip_suffix(']')) {
                Some(optional) => std::iter::once(String::new()).chain(optional.split('|').map(String::from)).collect(),
                None if word.contains('|') => word.split('|').map(String::from).collect(),
                None => vec![word.to_string()],
            };
            variants = variants
                .iter()
                .flat_map(|v| choices.iter().map(move |c| format!("{v} {c}").trim().to_string()))
                .collect();
        }
        commands.extend(variants);
    }
    commands
}

/// The arguments of `command` with its placeholders filled in for `sandbox`.
fn filled(sandbox: &Sandbox, command: &str) -> Vec<String> {
    let sessions = example_sessions();
    let example = sessions[0].display().to_string();
    let folder = sessions[0].parent().unwrap().display().to_string();
    let words = shell_words(command.strip_prefix("lcmem ").unwrap());
    words
        .into_iter()
        .map(|w| match w.as_str() {
            "path/to/session.jsonl" => example.clone(),
            "SESSION" => "2026-11-12-refund-retries".into(),
            "ID" => first_fact_id(sandbox),
            "TEXT" => "Deploys go out from the release branch.".into(),
            "QUERY" => "refund retries".into(),
            "DIR" => folder.clone(),
            "AGENT" => "claude-code".into(),
            _ => w,
        })
        .collect()
}

/// The id of the sealed example's first active fact. Read only for a
/// command that names a fact; when there is none, says what the sandbox
/// holds, so the cause can be seen.
fn first_fact_id(sandbox: &Sandbox) -> String {
    let run = |args: &[&str]| {
        let out = sandbox.assert_cmd().args(args).output().unwrap();
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    };
    let listed = sandbox.assert_cmd().args(["facts", "--json"]).output().unwrap();
    let facts: Vec<serde_json::Value> = serde_json::from_slice(&listed.stdout).unwrap();
    match facts.first() {
        Some(fact) => fact["id"].as_str().unwrap().to_string(),
        None => panic!(
            "the sealed example has no active fact\nsessions:\n{}\nfacts --all --json:\n{}\nseal --all again:\n{}",
            run(&["sessions"]),
            run(&["facts", "--all", "--json"]),
            run(&["seal", "--all"]),
        ),
    }
}

/// Words as a shell splits them, for the quoting the help examples use.
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

fn not_run_here(command: &str) -> bool {
    NOT_RUN_HERE.iter().any(|(skipped, _)| command == *skipped)
}

/// Runs `command` in a fresh sealed sandbox; `lcmem doctor` may exit 1 (it
/// says so when an agent is not wired in, as in a sandbox).
fn runs(command: &str) -> Result<(), String> {
    let sandbox = sealed_sandbox();
    // What the README's own words say comes first.
    if command.contains("--all-projects") {
        sandbox.assert_cmd().args(["config", "set", "recall.cross_project", "true"]).assert().success();
    }
    if command.starts_with("lcmem consolidate --undo") {
        sandbox.assert_cmd().args(["facts", "add", "Deploys go out from the release branch."]).assert().success();
        sandbox.assert_cmd().arg("consolidate").assert().success();
    }
    let args = filled(&sandbox, command);
    let output = sandbox.cmd().args(&args).stdin(std::process::Stdio::null()).output().unwrap();
    let allowed: &[i32] = if args[0] == "doctor" { &[0, 1] } else { &[0] };
    match output.status.code() {
        Some(code) if allowed.contains(&code) => Ok(()),
        code => Err(format!(
            "`{command}` (run as {args:?}) exited {code:?}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )),
    }
}

#[test]
fn every_readme_command_runs_as_written() {
    let lines = readme_lines();
    for (skipped, _) in NOT_RUN_HERE {
        assert!(
            lines.iter().flat_map(|l| expand(l)).any(|c| c == *skipped),
            "{skipped} is listed as not run here but the README no longer shows it"
        );
    }
    let commands: Vec<String> = lines.iter().flat_map(|l| expand(l)).filter(|c| !not_run_here(c)).collect();
    assert!(commands.len() > 40, "read only {} commands from the README: {commands:?}", commands.len());
    let failures: Vec<String> = commands.iter().filter_map(|c| runs(c).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} README commands failed:\n{}",
        failures.len(),
        commands.len(),
        failures.join("\n\n")
    );
}

/// The examples `--help` gives that name no placeholder.
fn help_examples() -> Vec<String> {
    let commands = [
        "",
        "import",
        "seal",
        "sessions",
        "journal",
        "consolidate",
        "digest",
        "welcome",
        "pin",
        "config",
        "facts",
        "forget",
        "guard",
        "redact",
        "recall",
        "index",
        "model",
        "mcp",
        "hook",
        "project",
        "share",
        "install",
        "uninstall",
        "watch",
        "catch-up",
        "doctor",
        "tour",
        "ui",
        "export",
    ];
    let sandbox = Sandbox::new();
    let mut examples = Vec::new();
    for command in commands {
        let mut cmd = sandbox.assert_cmd();
        cmd.args(command.split_whitespace()).arg("--help");
        let text = String::from_utf8(cmd.output().unwrap().stdout).unwrap();
        let quoted = text.split('`').skip(1).step_by(2).map(|q| q.split_whitespace().collect::<Vec<_>>().join(" "));
        let listed = text.lines().filter_map(|l| {
            let l = l.trim_start();
            l.starts_with("lcmem ").then(|| l.split("  ").next().unwrap().trim().to_string())
        });
        examples.extend(quoted.chain(listed).filter(|e| e.starts_with("lcmem ")));
    }
    // A word in capitals outside quotes is a placeholder ("ID", "N").
    let placeholder = |e: &String| {
        let unquoted: String = e.split('"').step_by(2).collect();
        e.contains('…')
            || e.contains('<')
            || unquoted.split_whitespace().any(|w| w.chars().all(|c| c.is_ascii_uppercase()))
    };
    let mut examples: Vec<String> = examples.into_iter().filter(|e| !placeholder(e) && !not_run_here(e)).collect();
    examples.sort();
    examples.dedup();
    examples
}

#[test]
fn every_concrete_help_example_runs_as_written() {
    let examples = help_examples();
    assert!(examples.len() >= 10, "found only {examples:?}");
    let failures: Vec<String> = examples.iter().filter_map(|c| runs(c).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} help examples failed:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n\n")
    );
}

#[test]
fn readme_lines_expand_into_the_commands_they_stand_for() {
    assert_eq!(expand("lcmem pin SESSION / lcmem unpin SESSION"), ["lcmem pin SESSION", "lcmem unpin SESSION"]);
    assert_eq!(
        expand("lcmem install codex / cursor / gemini-cli"),
        ["lcmem install codex", "lcmem install cursor", "lcmem install gemini-cli"]
    );
    assert_eq!(expand("lcmem export session ID / export memory"), ["lcmem export session ID", "lcmem export memory"]);
    assert_eq!(
        expand("lcmem seal SESSION [--done|--archived]"),
        ["lcmem seal SESSION", "lcmem seal SESSION --done", "lcmem seal SESSION --archived"]
    );
    assert_eq!(
        expand("lcmem facts pin|not-true ID, lcmem facts add TEXT"),
        ["lcmem facts pin ID", "lcmem facts not-true ID", "lcmem facts add TEXT"]
    );
}

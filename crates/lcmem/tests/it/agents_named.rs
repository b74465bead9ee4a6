//! Everything that differs from one agent to another is that agent's own
//! file: the engine's `agents/<agent>.rs` (its `Source`), and, for an agent
//! whose settings need an editor of their own, the CLI's
//! `cmd/install/<agent>*.rs`. No other code of the engine or the CLI names
//! an agent, in an identifier or in a string: what they do for each agent
//! they read from the registry. Comments, tests, module declarations and the
//! registry's one line are left out of the count.

use std::path::{Path, PathBuf};

use regex::Regex;

/// The words of `text`, lower-case, one space apart and around:
/// `ClaudeCode`, `claude_code`, `claude-code` and `Claude Code` alike.
fn words(text: &str) -> String {
    let camel = Regex::new("([a-z0-9])([A-Z])").unwrap();
    let text = camel.replace_all(text, "$1 $2").to_lowercase();
    let separators = Regex::new(r"[^a-z0-9]+").unwrap();
    format!(" {} ", separators.replace_all(&text, " "))
}

/// The code of a source file: its test module (last, by the house style)
/// and its comments left out.
fn code(source: &str) -> String {
    let source = source.split("#[cfg(test)]").next().unwrap_or("");
    source.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// A line that only joins a module in: `mod codex;`, `use codex as x;`, and
/// the registry's list of every agent.
fn joins(line: &str) -> bool {
    let line = line.trim();
    let declaration = Regex::new(r"^(pub(\([a-z:]+\))? )?(mod [a-z_]+;|use [a-z_:]+ as [a-z_]+;)$").unwrap();
    declaration.is_match(line) || line.starts_with("&[&super::")
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

#[test]
fn no_agent_is_named_outside_its_own_file() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let engine = crates.join("lcmem-pipeline/src");
    let cli = crates.join("lcmem-cli/src");
    let files: Vec<PathBuf> = [
        engine.clone(),
        crates.join("lcmem/src"),
        crates.join("lcmem-store/src"),
        crates.join("lcmem-recall/src"),
        cli.clone(),
    ]
    .iter()
    .flat_map(|dir| rust_files(dir))
    .collect();
    assert!(files.len() > 100, "the sources were not found: {}", files.len());
    let mut named = Vec::new();
    for source in lcmem::agents::SOURCES {
        let own_engine = engine.join("agents").join(format!("{}.rs", source.name().replace('-', "_")));
        assert!(own_engine.is_file(), "{} has no file of its own: {}", source.name(), own_engine.display());
        let stem = source.name().split('-').next().unwrap_or_default();
        let own_cli = |path: &Path| {
            path.starts_with(cli.join("cmd/install"))
                && path.file_name().is_some_and(|n| n.to_string_lossy().starts_with(stem))
        };
        let names = [words(source.name()), words(source.title())];
        for file in &files {
            if *file == own_engine || own_cli(file) {
                continue;
            }
            let text = code(&std::fs::read_to_string(file).unwrap());
            for (n, line) in text.lines().enumerate() {
                let said = words(line);
                if !joins(line) && names.iter().any(|name| said.contains(name.as_str())) {
                    named.push(format!("{}:{}: {} in {}", file.display(), n + 1, source.name(), line.trim()));
                }
            }
        }
    }
    assert!(named.is_empty(), "agents named outside their own files:\n{}", named.join("\n"));
}

#[test]
fn the_check_sees_an_agent_named_in_code_and_in_strings() {
    let lines = [
        r#"    if source == "codex" {"#,
        r#"    let t = ClaudeCode;"#,
        r#"    help: "see Gemini CLI's folder","#,
        r#"    Server::CodexToml { file } => x,"#,
    ];
    let names: Vec<String> = lcmem::agents::SOURCES.iter().flat_map(|s| [words(s.name()), words(s.title())]).collect();
    for line in lines {
        let said = words(line);
        assert!(!joins(line) && names.iter().any(|n| said.contains(n.as_str())), "{line}");
    }
    assert!(joins("pub(super) mod codex;") && joins("mod gemini_cli;"));
    assert!(!words("let cursors = 3; // the reader's position").contains(&words("cursor")), "a word is matched whole");
}

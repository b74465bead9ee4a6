//! `lcmem-bench synth`: a synthetic project of realistic coding sessions, for
//! measuring recall at scale.
//!
//! Each session is what a coding assistant's transcript looks like: the user
//! asks for something about a part of the code base, the assistant explains
//! and plans, tools read, search and edit files (tool actions with paths),
//! tool output brings back source code, test runs, compiler errors and logs,
//! and the assistant reports. Words are drawn from a fixed vocabulary with a
//! Zipf-like skew (a few words everywhere, most words rare), identifiers are
//! built in camelCase and snake_case, and every number comes from a seeded
//! generator: the same seed always writes the same bytes.
//!
//! The sessions are written straight into a store under `OUT/home`, for the
//! project folder `OUT/project`, as plain session files: exactly what recall
//! must cope with when the index has never seen them.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::vocab::{
    ADJECTIVES, FILLER, LEVELS, NOUNS, Rng, TOOLS, VERBS, capitalise, file_path, identifier, project_name,
};

/// A sentence of prose about the topic.
fn sentence(rng: &mut Rng, topic: &[&str]) -> String {
    let mut words: Vec<String> = Vec::new();
    let n = rng.range(8, 22);
    for i in 0..n {
        let w = match rng.below(10) {
            0..=3 => rng.pick(FILLER).to_string(),
            4 | 5 => rng.pick(topic).to_string(),
            6 => rng.pick_skewed(NOUNS).to_string(),
            7 => rng.pick(VERBS).to_string(),
            8 => rng.pick(ADJECTIVES).to_string(),
            _ => {
                if rng.chance(50) {
                    format!("`{}`", identifier(rng))
                } else {
                    rng.pick_skewed(NOUNS).to_string()
                }
            }
        };
        words.push(if i == 0 { capitalise(&w) } else { w });
    }
    let mut s = words.join(" ");
    s.push(if rng.chance(15) { '?' } else { '.' });
    s
}

fn paragraph(rng: &mut Rng, topic: &[&str], sentences: usize) -> String {
    (0..sentences).map(|_| sentence(rng, topic)).collect::<Vec<_>>().join(" ")
}

/// Source code as a tool reads it back.
fn code(rng: &mut Rng, lines: usize) -> String {
    let mut out = String::new();
    for i in 0..lines {
        let indent = "    ".repeat(rng.below(3));
        let line = match rng.below(6) {
            0 => format!(
                "fn {}({}: &{}) -> Result<{}> {{",
                identifier(rng),
                rng.pick_skewed(NOUNS),
                capitalise(rng.pick_skewed(NOUNS)),
                capitalise(rng.pick_skewed(NOUNS))
            ),
            1 => format!("let {} = {}.{}()?;", rng.pick_skewed(NOUNS), rng.pick_skewed(NOUNS), identifier(rng)),
            2 => format!(
                "if {}.is_{}() {{ return Err(Error::{}); }}",
                rng.pick_skewed(NOUNS),
                rng.pick(ADJECTIVES),
                capitalise(rng.pick(ADJECTIVES))
            ),
            3 => format!("// {}", sentence(rng, NOUNS)),
            4 => format!("{}.insert(\"{}\", {});", rng.pick_skewed(NOUNS), rng.pick_skewed(NOUNS), rng.below(10_000)),
            _ => "}".to_string(),
        };
        writeln!(out, "{:>4} {indent}{line}", i + 1).unwrap();
    }
    out
}

/// Log lines or a test run.
fn logs(rng: &mut Rng, lines: usize, day: u32) -> String {
    let mut out = String::new();
    for _ in 0..lines {
        let (h, m, s) = (rng.below(24), rng.below(60), rng.below(60));
        let level = rng.pick(LEVELS);
        let msg = match rng.below(5) {
            0 => format!(
                "{} {} failed: {} after {}ms",
                rng.pick_skewed(NOUNS),
                rng.pick_skewed(NOUNS),
                rng.pick(ADJECTIVES),
                rng.below(5000)
            ),
            1 => format!(
                "request_id={:016x} {} {} status={}",
                rng.next(),
                rng.pick(&["GET", "POST", "PUT", "DELETE"]),
                file_path(rng).replace('.', "/"),
                rng.pick(&["200", "201", "204", "400", "404", "409", "500", "503"])
            ),
            2 => format!(
                "test {}::{} ... {}",
                rng.pick_skewed(NOUNS),
                identifier(rng),
                rng.pick(&["ok", "ok", "ok", "FAILED", "ignored"])
            ),
            3 => format!(
                "error[E0{}]: {} `{}` in {}:{}",
                rng.range(100, 799),
                rng.pick(&["mismatched types", "cannot borrow", "unresolved import", "use of moved value"]),
                identifier(rng),
                file_path(rng),
                rng.range(1, 900)
            ),
            _ => format!(
                "{} {} {} in {} ms",
                rng.pick(VERBS),
                rng.pick_skewed(NOUNS),
                rng.pick_skewed(NOUNS),
                rng.below(900)
            ),
        };
        writeln!(out, "2026-{:02}-{:02}T{h:02}:{m:02}:{s:02}Z {level} {msg}", 1 + day / 28 % 12, 1 + day % 28).unwrap();
    }
    out
}

fn line(kind: &str, role: &str, text: &str, ts: &str, id: usize) -> String {
    serde_json::json!({"type": kind, "role": role, "text": text, "ts": ts, "id": format!("m{id}")}).to_string()
}

/// One session's file content, about `target` bytes.
pub fn session(rng: &mut Rng, n: usize, target: usize) -> (String, String) {
    let day = (n * 3 / 7) as u32;
    let date = jiff::civil::date(2024, 1, 1).checked_add(jiff::Span::new().days(i64::from(day))).expect("in range");
    // What the session is about: two of the project's own names and two
    // everyday words.
    let topic: Vec<&str> = vec![project_name(rng), rng.pick_skewed(NOUNS), project_name(rng), rng.pick_skewed(NOUNS)];
    let id = format!("{date}-{}-{}-{n:05}", topic[0], topic[1]);
    let title = format!("{} the {} {} {}", capitalise(rng.pick(VERBS)), rng.pick(ADJECTIVES), topic[0], topic[1]);
    let mut out = serde_json::json!({"type": "session", "v": 1, "id": id, "title": title, "created_at": format!("{date}T09:00:00Z")}).to_string();
    out.push('\n');
    let mut minute = 0;
    let mut msg = 0;
    while out.len() < target {
        minute += 1;
        let ts = format!("{date}T{:02}:{:02}:00Z", 9 + minute / 60 % 14, minute % 60);
        msg += 1;
        let k = rng.range(1, 3);
        let ask = format!(
            "{} {}",
            paragraph(rng, &topic, k),
            if rng.chance(40) { format!("See {}.", file_path(rng)) } else { String::new() }
        );
        out.push_str(&line("message", "user", ask.trim(), &ts, msg));
        out.push('\n');
        msg += 1;
        let k = rng.range(2, 8);
        out.push_str(&line("message", "assistant", &paragraph(rng, &topic, k), &ts, msg));
        out.push('\n');
        for _ in 0..rng.range(1, 4) {
            let files: Vec<String> = (0..rng.range(1, 3)).map(|_| file_path(rng)).collect();
            out.push_str(
                &serde_json::json!({"type": "tool", "name": rng.pick(TOOLS), "files": files, "ts": ts}).to_string(),
            );
            out.push('\n');
            msg += 1;
            let output = if rng.chance(50) {
                let k = rng.range(10, 120);
                code(rng, k)
            } else {
                let k = rng.range(5, 80);
                logs(rng, k, day)
            };
            out.push_str(&line("message", "tool", &output, &ts, msg));
            out.push('\n');
        }
        msg += 1;
        let k = rng.range(1, 4);
        out.push_str(&line("message", "assistant", &paragraph(rng, &topic, k), &ts, msg));
        out.push('\n');
    }
    if rng.chance(60) {
        out.push_str(&serde_json::json!({"type": "status", "status": if rng.chance(80) { "done" } else { "archived" }, "ts": format!("{date}T23:00:00Z")}).to_string());
        out.push('\n');
    }
    (id, out)
}

/// Where a synthetic project's store lives.
pub fn store_paths(out: &Path) -> (PathBuf, PathBuf) {
    (out.join("home"), out.join("project"))
}

pub fn run(sessions: usize, out: &Path, seed: u64, mean_bytes: usize) -> anyhow::Result<String> {
    let (home, project) = store_paths(out);
    std::fs::create_dir_all(&project).with_context(|| format!("cannot create {}", project.display()))?;
    let store = lcmem::Store::open(&home, &project)?;
    std::fs::create_dir_all(store.dir()).with_context(|| format!("cannot create {}", store.dir().display()))?;
    let mut rng = Rng::new(seed);
    let mut total = 0u64;
    let started = std::time::Instant::now();
    for n in 0..sessions {
        // Sizes vary a lot in real projects: from a quick question to a long day.
        let target = mean_bytes / 4 + rng.zipf(mean_bytes * 3);
        let (id, text) = session(&mut rng, n, target);
        let path = store.session_path(&id);
        let mut file = std::fs::File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
        file.write_all(text.as_bytes())?;
        total += text.len() as u64;
        if (n + 1) % 1000 == 0 {
            eprintln!("  {} sessions, {:.0} MB", n + 1, total as f64 / 1e6);
        }
    }
    Ok(format!(
        "wrote {sessions} sessions, {:.1} MB, into {} in {:.1} s (seed {seed})\nproject: --home {} --project {}\n",
        total as f64 / 1e6,
        store.dir().display(),
        started.elapsed().as_secs_f64(),
        home.display(),
        project.display()
    ))
}

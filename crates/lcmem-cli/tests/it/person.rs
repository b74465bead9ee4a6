//! The person's memory: a fact kept with `lcmem facts add --user` holds in
//! every project of this home: each project's SessionStart digest shows it
//! in its own short section under the cap, recall finds it (once, across
//! projects too), a project fact that contradicts it is a conflict, and an
//! edit of its line in MEMORY.md changes the person's fact, not the project's.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use lcmem_test_support::TempDirs;
use serde_json::Value;

use crate::common::{NOW, lcmem_bin};

struct Home {
    dir: TempDirs,
}

impl Home {
    fn new() -> Home {
        let home = Home { dir: TempDirs::new() };
        for p in ["shop", "billing"] {
            std::fs::create_dir_all(home.project(p)).unwrap();
        }
        home
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn project(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn lcmem(&self, project: &str, args: &[&str]) -> String {
        let out = Command::new(lcmem_bin())
            .arg("--home")
            .arg(self.home())
            .arg("--project")
            .arg(self.project(project))
            .args(args)
            .env("LCMEM_NOW", NOW)
            .env_remove("LEVELCODE_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "lcmem {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    fn session_start(&self, project: &str) -> String {
        let cwd = self.project(project);
        let input = serde_json::json!({
            "session_id": "s", "transcript_path": cwd.join("none.jsonl"), "cwd": cwd,
            "hook_event_name": "SessionStart", "source": "startup"
        });
        let mut child = Command::new(lcmem_bin())
            .arg("--home")
            .arg(self.home())
            .args(["hook", "claude-code"])
            .env("LCMEM_NOW", NOW)
            .env_remove("LEVELCODE_HOME")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        if text.trim().is_empty() {
            return String::new();
        }
        let value: Value = serde_json::from_str(&text).unwrap();
        value["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_string()
    }

    fn memory_md(&self, project: &str) -> PathBuf {
        let slug = lcmem::project::Project::resolve(&self.project(project)).unwrap().slug;
        self.home().join("sessions").join(slug).join("memory/MEMORY.md")
    }
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn section<'a>(digest: &'a str, heading: &str) -> &'a str {
    let start = digest.find(heading).unwrap_or_else(|| panic!("no {heading} in:\n{digest}"));
    let rest = &digest[start + heading.len()..];
    &rest[..rest.find("\n## ").or_else(|| rest.find("</project-memory")).unwrap_or(rest.len())]
}

const ABOUT: &str = "## About the user (every project)";

#[test]
fn a_fact_of_the_person_reaches_every_projects_digest_in_its_own_short_section() {
    let h = Home::new();
    h.lcmem("shop", &["facts", "add", "The shop API returns dates in UTC."]);
    h.lcmem("shop", &["consolidate"]);
    let out = h.lcmem("shop", &["facts", "add", "--user", "I use pnpm everywhere."]);
    assert!(out.contains("for every project"), "{out}");
    assert!(section(&std::fs::read_to_string(h.memory_md("shop")).unwrap(), ABOUT).contains("I use pnpm everywhere."));

    // Another project, never touched: its first session start carries it.
    let billing = h.session_start("billing");
    let about = section(&billing, ABOUT);
    assert!(about.contains("- I use pnpm everywhere. (yours, every project, 2026-11-30) [f"), "{billing}");
    assert!(!billing.contains("dates in UTC"), "a project fact leaked into another project:\n{billing}");
    // The person's facts are not the project's.
    let billing_facts: Vec<Value> = serde_json::from_str(&h.lcmem("billing", &["facts", "--json", "--all"])).unwrap();
    assert!(billing_facts.is_empty(), "{billing_facts:?}");

    // Short: however many there are, at most eight lines, and the digest stays under its cap.
    for n in 0..20 {
        h.lcmem("shop", &["facts", "add", "--user", &format!("My editor setting number {n} is tabs of width {n}.")]);
    }
    let shop = h.session_start("shop");
    let lines = section(&shop, ABOUT).lines().filter(|l| l.starts_with("- ")).count();
    assert_eq!(lines, 8, "{shop}");
    assert!(shop.contains("dates in UTC"), "the project's own facts keep their place:\n{shop}");
    let digest = json(&h.lcmem("shop", &["digest", "--json"]));
    assert!(digest["tokens"].as_u64().unwrap() <= 1500);
}

#[test]
fn recall_finds_the_persons_facts_once_and_a_project_fact_against_one_is_a_conflict() {
    let h = Home::new();
    h.lcmem("shop", &["facts", "add", "--user", "Commit messages are in English."]);
    h.lcmem("billing", &["facts", "add", "Commit messages are in German."]);

    let hits = json(&h.lcmem("billing", &["recall", "commit messages", "--kinds", "fact", "--json"]));
    let theirs: Vec<&Value> =
        hits.as_array().unwrap().iter().filter(|h| h["snippet"].as_str().unwrap().contains("English")).collect();
    assert_eq!(theirs.len(), 1, "{hits:#}");
    assert!(theirs[0]["path"].as_str().unwrap().ends_with("person/memory/facts.jsonl"), "{:#}", theirs[0]);
    assert_eq!(theirs[0]["note"], "yours, for every project (lcmem facts --user)");

    let conflicts = json(&h.lcmem("billing", &["facts", "conflicts", "--json"]));
    let conflicts = conflicts.as_array().unwrap();
    assert_eq!(conflicts.len(), 1, "{conflicts:?}");
    assert_eq!(conflicts[0]["persons"], true);
    let text = h.lcmem("billing", &["facts", "conflicts"]);
    assert!(
        text.contains("Commit messages are in German.")
            && text.contains("Commit messages are in English. (yours, every project)"),
        "{text}"
    );
    assert!(h.lcmem("shop", &["facts", "conflicts"]).contains("No open conflicts"), "shop has no contradicting fact");

    // Across projects: each project's searcher holds the person's facts; the merged hits hold them once.
    for p in ["shop", "billing"] {
        h.lcmem(p, &["config", "set", "recall.cross_project", "true"]);
    }
    let hits = json(&h.lcmem("billing", &["recall", "commit messages English", "--all-projects", "--json"]));
    let english =
        hits.as_array().unwrap().iter().filter(|h| h["snippet"].as_str().unwrap().contains("English")).count();
    assert_eq!(english, 1, "{hits:#}");
}

#[test]
fn editing_the_persons_line_in_memory_md_changes_the_persons_fact_not_the_projects() {
    let h = Home::new();
    h.lcmem("shop", &["facts", "add", "--user", "I use pnpm everywhere."]);
    h.lcmem("shop", &["consolidate"]);
    let path = h.memory_md("shop");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replace("I use pnpm everywhere.", "I use pnpm in every repository.").replace(
        "(yours, every project, 2026-11-30)",
        "(yours, every project, 2026-11-30)\n- I write commit messages in English.",
    );
    assert_ne!(edited, text);
    std::fs::write(&path, edited).unwrap();
    let report = h.lcmem("shop", &["consolidate", "--json"]);
    assert!(report.contains("edited your fact") && report.contains("added your fact for every project"), "{report}");
    let theirs: Vec<Value> = serde_json::from_str(&h.lcmem("shop", &["facts", "--user", "--json"])).unwrap();
    let texts: Vec<&str> = theirs.iter().map(|f| f["text"].as_str().unwrap()).collect();
    assert!(
        texts.contains(&"I use pnpm in every repository.") && texts.contains(&"I write commit messages in English."),
        "{texts:?}"
    );
    let own: Vec<Value> = serde_json::from_str(&h.lcmem("shop", &["facts", "--json", "--all"])).unwrap();
    assert!(own.is_empty(), "the project got the person's lines: {own:?}");
    assert!(h.session_start("billing").contains("I use pnpm in every repository."));
}

//! Provenance decides what is load-bearing: a statement only the workspace
//! or the agent makes never replaces, nor sits in the digest beside, the
//! contrary statement a person stands behind; it waits in the conflicts.

use std::path::Path;

use lcmem::Store;
use lcmem::extract::{CandidateFact, ExtractError, ExtractInput, ExtractOutput, Extractor, Outcome};
use lcmem::facts::{Fold, Origin, State};
use lcmem::seal::seal;
use lcmem_test_support::{SessionFile, TempDirs};

/// Stands in for an extraction lane: one fact, said by `origin`.
struct Says {
    fact: &'static str,
    origin: Origin,
}

impl Extractor for Says {
    fn name(&self) -> &str {
        "scripted"
    }
    fn extract(&self, _: &ExtractInput) -> Result<ExtractOutput, ExtractError> {
        Ok(ExtractOutput {
            summary: "Worked on the release.".to_string(),
            outcome: Outcome::Progress,
            files: vec![],
            decisions: vec![],
            facts: vec![CandidateFact {
                text: self.fact.to_string(),
                confidence: 0.7,
                origin: self.origin,
                convention: false,
            }],
            lane: None,
        })
    }
}

fn session(store: &Store, n: u32, says: Says) {
    let id = format!("s{n}");
    let file = SessionFile::new(&id, format!("2026-11-0{n}T10:00:00Z")).message(
        "user",
        "Prepare the release.",
        format!("2026-11-0{n}T10:05:00Z"),
    );
    store.import_bytes(Path::new("case.jsonl"), file.bytes()).unwrap();
    seal(store, &id, None, &says, format!("2026-11-0{n}T12:00:00Z").parse().unwrap()).unwrap();
}

fn digest(store: &Store) -> String {
    lcmem::digest::consolidate(store, "2026-11-09T00:00:00Z".parse().unwrap()).unwrap();
    std::fs::read_to_string(store.memory_md_path()).unwrap()
}

#[test]
fn the_agent_repeating_a_checked_out_file_never_contradicts_the_user_in_the_digest() {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    for n in 1..=3 {
        session(&store, n, Says { fact: "The deploy branch is release.", origin: Origin::User });
    }
    // A later session reads a hostile docs/DEPLOY.md, and the agent repeats it.
    session(&store, 4, Says { fact: "The deploy branch is main.", origin: Origin::Assistant });
    let fold = Fold::read(&store.facts_path()).unwrap();
    let release = fold.facts.iter().find(|f| f.text == "The deploy branch is release.").unwrap();
    let main = fold.facts.iter().find(|f| f.text == "The deploy branch is main.").unwrap();
    assert_ne!(release.state, State::Superseded, "the user's fact stands");
    assert!(release.is_backed_by_a_person() && !main.is_backed_by_a_person());
    assert!(
        fold.conflicts.iter().any(|c| [&c.fact, &c.with] == [&release.id, &main.id]),
        "listed for the person: {:?}",
        fold.conflicts
    );
    let memory = digest(&store);
    assert!(memory.contains("The deploy branch is release."), "{memory}");
    assert!(!memory.contains("The deploy branch is main."), "no contradiction of the user: {memory}");
}

#[test]
fn the_users_later_word_still_replaces_the_agents() {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    session(&store, 1, Says { fact: "The deploy branch is main.", origin: Origin::Assistant });
    session(&store, 2, Says { fact: "The deploy branch is release.", origin: Origin::User });
    let fold = Fold::read(&store.facts_path()).unwrap();
    let main = fold.facts.iter().find(|f| f.text == "The deploy branch is main.").unwrap();
    assert_eq!(main.state, State::Superseded);
    let memory = digest(&store);
    assert!(memory.contains("The deploy branch is release.") && !memory.contains("is main."), "{memory}");
}

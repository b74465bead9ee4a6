//! A question that names the shape of its answer (a cause, a command, an
//! amount, a place) finds the statement of that shape first, though the
//! statement shares fewer of its words than the chatter around it; and facts
//! and journal lines are found by what they are (the user's words, a
//! decision). Each scene is ranked twice: with the lift, and with it off, to
//! show that the lift is what puts the answer first.

use std::path::Path;

use lcmem::Store;
use lcmem::extract::{ExtractError, ExtractInput, ExtractOutput, Extractor, Outcome};
use lcmem::facts::Origin;
use lcmem::recall::{Hit, HitKind, Query, Quiet, Searcher, Tuning};
use lcmem::seal::seal;
use lcmem_test_support::{SessionFile, TempDirs};

use crate::recall_answers::observed;

/// One session of `turns` (role, text), a minute apart.
fn store_with(turns: &[(&str, &str)]) -> (TempDirs, Store) {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    let mut file = SessionFile::new("2026-11-20-work", "2026-11-20T09:00:00Z");
    for (i, (role, text)) in turns.iter().enumerate() {
        file = file.message(role, text, format!("2026-11-20T09:{:02}:00Z", i + 1));
    }
    store.import_bytes(Path::new("work.jsonl"), file.bytes()).unwrap();
    (dirs, store)
}

fn hits(store: &Store, question: &str, lift: f64) -> Vec<Hit> {
    let mut query = Query::new(question);
    query.tuning = Tuning { intent_lift: lift, ..Tuning::default() };
    Searcher::new(store.clone()).search(&query, &mut Quiet).unwrap().hits
}

/// The answer is the first hit with the lift, and not without it.
fn lifted_first(turns: &[(&str, &str)], question: &str, answer: &str) {
    let (_dirs, store) = store_with(turns);
    let with = hits(&store, question, Tuning::default().intent_lift);
    assert!(with.first().is_some_and(|h| h.snippet.contains(answer)), "{answer:?} first for {question:?}: {with:#?}");
    let without = hits(&store, question, 0.0);
    assert!(
        without.first().is_some_and(|h| !h.snippet.contains(answer)),
        "without the lift, the chatter comes first (else this scene proves nothing): {without:#?}"
    );
}

#[test]
fn a_cause_is_found_by_being_stated() {
    lifted_first(
        &[
            ("user", "Build the contracts, then the web front end."),
            ("assistant", "Contracts compile. Now the web front end."),
            ("tool", "Failed to compile. ./src/lib/odds.ts: BigInt literals are not available below ES2020."),
            ("assistant", "Two issues: the TS target was too low for BigInt literals, and a wallet SDK warning."),
            ("assistant", "The web front end compiles now, and the contracts still compile."),
        ],
        "What stopped the web front end from compiling at first?",
        "Two issues",
    );
}

#[test]
fn an_amount_is_found_by_its_number() {
    lifted_first(
        &[
            ("user", "A piece should wait before it can move again, and wait at the start of the game too."),
            ("assistant", "I'll add a timer so a piece must wait before it can move again."),
            ("assistant", "Done: the cooldown is 3s at the start and 10s after each move."),
            ("user", "A piece can still move again without the wait sometimes; make it wait before it moves."),
        ],
        "How long does a piece have to wait before it can move again?",
        "3s at the start",
    );
}

#[test]
fn a_command_is_found_by_being_spelled() {
    lifted_first(
        &[
            ("user", "Put the contracts on the test chain once the tests pass."),
            ("assistant", "The contracts are ready for the test chain: the tests pass and the test chain is set up."),
            ("assistant", "To ship them: `cd contracts && npx hardhat run scripts/deploy.js --network testnet`."),
            ("user", "The contracts never reached the test chain; the test chain said out of gas."),
        ],
        "What's the command to put the contracts on the test chain?",
        "npx hardhat run",
    );
}

#[test]
fn a_place_is_found_by_its_path() {
    lifted_first(
        &[
            ("user", "Write a plan for detecting when a session ends and a new session begins."),
            (
                "assistant",
                "Plan for detecting session ends: watch the history, end the session on /clear, begin a new session.",
            ),
            ("assistant", "Written to `specs/session-detection.md`."),
            ("user", "Good plan for the session ends; keep the new session begins part short."),
        ],
        "Where is the written plan for detecting when a session ends?",
        "specs/session-detection.md",
    );
}

#[test]
fn a_question_of_no_particular_shape_is_ranked_by_its_words_alone() {
    let turns = [
        ("user", "Which artwork set do the pieces use?"),
        ("assistant", "The pieces use the cburnett artwork set, 45px, from `assets/pieces/`."),
        ("assistant", "Issue: the artwork set failed to load in 3s; fixed with `npm run assets`."),
    ];
    let (_dirs, store) = store_with(&turns);
    let text = |h: &[Hit]| h.iter().map(|h| h.snippet.clone()).collect::<Vec<_>>();
    let question = "Which artwork set do the pieces use?";
    assert_eq!(text(&hits(&store, question, 1.0)), text(&hits(&store, question, 0.0)));
}

#[test]
fn the_user_s_own_words_are_found_as_theirs() {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    let observe = |text: &str, origin: Origin| observed(text, false, origin);
    let lock = store.lock().unwrap();
    let facts = [
        observe("The release notes go in CHANGELOG.md.", Origin::User),
        observe("The release notes say what changed in each release.", Origin::Assistant),
    ];
    lcmem::facts::append(&store, &lock, &facts).unwrap();
    drop(lock);
    let found = hits(&store, "what did the user say about release notes", 1.0);
    let facts: Vec<&str> = found.iter().filter(|h| h.kind == HitKind::Fact).map(|h| h.snippet.as_str()).collect();
    assert!(facts.first().is_some_and(|f| f.starts_with("The release notes go in CHANGELOG.md.")), "{facts:?}");
}

/// Stands in for an extraction lane: a session that decided one thing.
struct Decides;

impl Extractor for Decides {
    fn name(&self) -> &str {
        "scripted"
    }
    fn extract(&self, _: &ExtractInput) -> Result<ExtractOutput, ExtractError> {
        Ok(ExtractOutput {
            summary: "Reworked the upload queue.".to_string(),
            outcome: Outcome::Progress,
            files: vec![],
            decisions: vec!["Retries stay in the queue worker, not in the client.".to_string()],
            facts: vec![],
            lane: None,
        })
    }
}

#[test]
fn a_decision_in_the_journal_is_found_as_one() {
    let (_dirs, store) = store_with(&[("user", "Rework the upload queue."), ("assistant", "Retries moved.")]);
    seal(&store, "2026-11-20-work", None, &Decides, "2026-11-20T12:00:00Z".parse().unwrap()).unwrap();
    let found = hits(&store, "upload queue decisions", 1.0);
    assert!(
        found.first().is_some_and(|h| h.kind == HitKind::Journal && h.snippet.contains("Decision: Retries stay")),
        "{found:#?}"
    );
}

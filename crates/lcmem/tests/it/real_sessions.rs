//! Memory from sessions as the real agents write them: each failure mode
//! seen on real Claude Code and Codex transcripts, in a transcript of that
//! shape, sealed by the offline lane and read back as a teammate would.

#[path = "real_sessions/agents.rs"]
mod agents;

use std::path::Path;

use jiff::Timestamp;
use lcmem::Store;
use lcmem::extract::Outcome;
use lcmem::extract::offline::OfflineExtractor;
use lcmem::facts::{Fold, Provenance, State};
use lcmem::import::{Format, convert, store_converted};
use lcmem::journal::{Entry, Journal};
use lcmem::seal::seal;
use lcmem_test_support::TempDirs;

use agents::{Claude, Codex};

/// What a reader sees at once as machine-made, judged here on its own terms
/// (not by the engine's own check): shell syntax, a chat opener, a report
/// heading read as a sentence, a temporary path, a quote, backtick or
/// parenthesis left open.
fn is_clean(text: &str) -> bool {
    let lower = text.trim().to_lowercase();
    let shell = text.contains("$(") || text.contains("<<") || text.contains("EOF");
    let opener = [
        "yes",
        "no ",
        "ok",
        "sure",
        "great",
        "perfect",
        "that's",
        "i have",
        "i've",
        "i'll",
        "let me",
        "here's",
        "background task",
    ]
    .iter()
    .any(|o| lower.starts_with(o));
    let heading = ["summary.", "overview.", "next steps:", "changes made."]
        .iter()
        .any(|h| lower.starts_with(h) || lower.contains(&format!(". {h}")));
    let outside_code: String = text.split('`').step_by(2).collect();
    let unbalanced = text.matches('`').count() % 2 == 1
        || outside_code.matches('(').count() != outside_code.matches(')').count()
        || outside_code.matches('"').count() % 2 == 1;
    !(shell || opener || heading || text.contains("/tmp/") || unbalanced)
}

struct Project {
    _dirs: TempDirs,
    store: Store,
}

fn project() -> Project {
    let dirs = TempDirs::with_project("app");
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    Project { _dirs: dirs, store }
}

impl Project {
    /// Imports a transcript and seals it; its journal entry.
    fn seal(&self, format: Format, id: &str, bytes: Vec<u8>) -> Entry {
        let path = Path::new("transcript.jsonl");
        store_converted(&self.store, path, convert(format, path, &bytes)).unwrap();
        let now: Timestamp = "2026-11-22T00:00:00Z".parse().unwrap();
        seal(&self.store, id, None, &OfflineExtractor, now).unwrap();
        let journal = Journal::read(&self.store.journal_path()).unwrap();
        let entry = journal.entries.into_iter().find(|c| c.entry.session_id == id).expect("sealed").entry;
        assert!(is_clean(&entry.summary), "a journal line a reader sees as machine-made: {}", entry.summary);
        entry
    }

    fn facts(&self) -> Vec<lcmem::facts::Fact> {
        Fold::read(&self.store.facts_path()).unwrap().facts
    }
}

const HEREDOC_COMMIT: &str = "git add -A && git commit -m \"$(cat <<'EOF'\nfeat(auth): rate-limit login attempts\n\n\
                              Five tries a minute per address.\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"";

#[test]
fn a_commit_in_a_here_document_is_told_by_its_subject_never_its_shell() {
    let p = project();
    let t = Claude::new("c-heredoc")
        .user("Add rate limiting to the login endpoint and commit it.")
        .edit("src/auth/login.ts")
        .bash(HEREDOC_COMMIT, "[main 3f2a1b9] feat(auth): rate-limit login attempts\n 1 file changed")
        .says("Committed \"$(cat <<'EOF'\n\nThe login endpoint now allows five attempts a minute per address.");
    let entry = p.seal(Format::named("claude-code").unwrap(), "c-heredoc", t.bytes());
    assert!(entry.summary.contains("rate-limit login attempts"), "{}", entry.summary);
    assert!(!entry.summary.contains("cat <<") && !entry.summary.contains("EOF"), "{}", entry.summary);
}

#[test]
fn a_commit_that_committed_nothing_and_a_rejected_push_are_no_work() {
    let p = project();
    let t = Codex::new("x-nothing")
        .user("Commit the work and push the branch.")
        .shell(
            "git commit -m \"feat: optimise the team sheet\"",
            "On branch fix/sheet\nnothing to commit, working tree clean\n",
            1,
        )
        .shell(
            "git push origin main",
            " ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs",
            1,
        )
        .says("There was nothing new to commit, and the push to main was rejected because the remote has new work.");
    let entry = p.seal(Format::named("codex").unwrap(), "x-nothing", t.bytes());
    assert!(!entry.summary.to_lowercase().contains("committed \""), "{}", entry.summary);
    assert!(!entry.summary.contains("Pushed"), "{}", entry.summary);
    assert_ne!(entry.outcome, Outcome::Shipped);
}

#[test]
fn a_push_to_a_branch_is_progress_and_a_tag_is_a_release() {
    let p = project();
    let branch = Claude::new("c-branch")
        .user("Fix the date parsing in the CSV importer and push it to my branch.")
        .edit("src/csv/date.ts")
        .bash("npm test", "Tests: 12 passed, 12 total")
        .bash("git commit -am 'fix(csv): parse ISO dates'", "[wip/csv 1a2b3c4] fix(csv): parse ISO dates")
        .bash("git push origin wip/csv", "To github.com:me/app.git\n   1a2b3c4..5d6e7f8  wip/csv -> wip/csv")
        .says("Fixed the date parsing: ISO dates with offsets now parse. Pushed to `wip/csv`.");
    assert_ne!(p.seal(Format::named("claude-code").unwrap(), "c-branch", branch.bytes()).outcome, Outcome::Shipped);
    // Work in progress pushed to a personal repository's main: nothing says
    // the project releases from main, so nothing was released.
    let main = Claude::new("c-main")
        .user("Add the settings page and push.")
        .edit("src/pages/settings.tsx")
        .bash("git commit -am 'feat: settings page'", "[main 2b3c4d5] feat: settings page")
        .bash("git push", "To github.com:me/sandbox.git\n   1a2b3c4..2b3c4d5  main -> main")
        .says("Added the settings page and pushed it.");
    assert_eq!(p.seal(Format::named("claude-code").unwrap(), "c-main", main.bytes()).outcome, Outcome::Progress);
    let tag = Claude::new("c-tag")
        .user("Cut release 1.4.0.")
        .edit("CHANGELOG.md")
        .bash(
            "git commit -am 'chore(release): 1.4.0' && git tag v1.4.0 && git push origin main --tags",
            "[main 9f8e7d6] chore(release): 1.4.0",
        )
        .says("Released 1.4.0: the changelog is tidied, `v1.4.0` is tagged and pushed.");
    assert_eq!(p.seal(Format::named("claude-code").unwrap(), "c-tag", tag.bytes()).outcome, Outcome::Shipped);
}

#[test]
fn building_a_project_from_scratch_is_progress_not_a_fix() {
    let p = project();
    let t = Claude::new("c-build")
        .user("Build the prediction market from this spec. Bets are in native PAS. The frontend fails to build if BigInt is not supported, so target ES2020.")
        .write("contracts/Market.sol", "contract Market {}")
        .write("contracts/IOracle.sol", "interface IOracle {}")
        .write("test/Market.test.js", "describe()")
        .write("frontend/app/page.tsx", "export default 1")
        .bash("npx hardhat test", "  69 passing (2s)")
        .says("Built the market contract with 69 passing tests; fixed the TS target for BigInt so the frontend builds.");
    assert_eq!(p.seal(Format::named("claude-code").unwrap(), "c-build", t.bytes()).outcome, Outcome::Progress);
}

#[test]
fn another_sessions_summary_and_a_client_message_are_never_the_title() {
    let p = project();
    let t = Claude::new("c-title")
        .summary("Fixed all tests: simplified v4 response structure", "other-session-leaf")
        .user("Search the docs for the response types of the SDK.")
        .client_says("API Error: 401 {\"type\":\"error\",\"error\":{\"type\":\"authentication_error\"}}")
        .says("The SDK's response types are `Message` and `ContentBlock`; the stream yields `MessageStreamEvent`.");
    let entry = p.seal(Format::named("claude-code").unwrap(), "c-title", t.bytes());
    assert!(!entry.title.contains("Fixed all tests"), "{}", entry.title);
    assert!(!entry.summary.contains("Fixed all tests") && !entry.summary.contains("API Error"), "{}", entry.summary);
    let own = Claude::new("c-own")
        .user("Rename the cache module.")
        .edit("src/cache.rs")
        .says("Renamed the cache module to `store`.");
    let leaf = own.last_uuid();
    let own = own.summary("Cache module renamed to store", &leaf);
    assert_eq!(
        p.seal(Format::named("claude-code").unwrap(), "c-own", own.bytes()).title,
        "Cache module renamed to store"
    );
}

#[test]
fn chatter_never_heads_the_line_and_the_work_does() {
    let p = project();
    let t = Claude::new("c-chatter")
        .user("Share the pipeline between the list view and the detail view, and truncate long tool output.")
        .edit("src/pipeline.ts")
        .edit("src/views/list.tsx")
        .edit("src/views/detail.tsx")
        .says(
            "Perfect! I've successfully extracted a shared render pipeline used by both the list and the detail views.",
        )
        .user("<task-notification>background task finished</task-notification>")
        .edit("src/output/truncate.ts")
        .says(
            "That's a notification from a background task that was started in the previous session. \
               Also truncated tool output longer than 200 lines, with a marker saying how much was cut.",
        )
        .user("is everything pushed?")
        .says("Yes — everything is pushed and clean Both commits are on `origin/feature/pipeline`.");
    let entry = p.seal(Format::named("claude-code").unwrap(), "c-chatter", t.bytes());
    let lower = entry.summary.to_lowercase();
    for chatter in ["perfect", "notification", "yes —", "successfully", "i've"] {
        assert!(!lower.contains(chatter), "{chatter:?} in {}", entry.summary);
    }
    assert!(lower.contains("pipeline") && lower.contains("truncat"), "the work is told: {}", entry.summary);
}

#[test]
fn a_session_that_completed_tracked_tasks_lists_them_with_their_ids() {
    let p = project();
    let t = Claude::new("c-epic")
        .user("Work through the auth epic.")
        .todos(&[
            ("API-12 login rate limit", "in_progress"),
            ("API-13 audit log", "pending"),
            ("API-14 CSV export", "pending"),
            ("API-15 SSO", "pending"),
        ])
        .edit("src/auth/limit.ts")
        .edit("src/audit/log.ts")
        .edit("src/export/csv.ts")
        .todos(&[
            ("API-12 login rate limit", "completed"),
            ("API-13 audit log", "completed"),
            ("API-14 CSV export", "completed"),
            ("API-15 SSO", "pending"),
        ])
        .says("All three done. Next up is API-15.");
    let entry = p.seal(Format::named("claude-code").unwrap(), "c-epic", t.bytes());
    for id in ["API-12", "API-13", "API-14"] {
        assert!(entry.summary.contains(id), "{id} in {}", entry.summary);
    }
    assert!(entry.summary.contains("next: API-15"), "{}", entry.summary);
}

#[test]
fn a_codex_plan_worked_through_is_told_by_its_completed_steps() {
    let p = project();
    let t = Codex::new("x-epic")
        .user("Work through the billing epic.")
        .plan(&[("BIL-3 proration", "in_progress"), ("BIL-4 invoice PDF", "pending"), ("BIL-5 dunning", "pending")])
        .patch("src/billing/proration.rs")
        .patch("src/billing/invoice.rs")
        .plan(&[("BIL-3 proration", "completed"), ("BIL-4 invoice PDF", "completed"), ("BIL-5 dunning", "pending")])
        .says("Both done; dunning is next.");
    let entry = p.seal(Format::named("codex").unwrap(), "x-epic", t.bytes());
    for id in ["BIL-3", "BIL-4"] {
        assert!(entry.summary.contains(id), "{id} in {}", entry.summary);
    }
    assert!(entry.summary.contains("next: BIL-5"), "{}", entry.summary);
}

#[test]
fn a_line_is_a_line_and_nothing_is_cut_in_mid_phrase() {
    let p = project();
    let long = "Implemented the importer (reading each line of the export in a streaming pass, mapping every \
                column to the schema with its declared type, normalising dates and currencies on the way, and \
                skipping rows without an id, which the old importer silently kept and later duplicated) so that \
                imports are idempotent and a second run changes nothing at all in the database, in the search \
                index or in the audit log that the nightly job writes.";
    let t = Codex::new("x-long")
        .user("Make the importer idempotent.")
        .patch("src/import.rs")
        .says(&format!("{long}\n\n- `src/import.rs`: keyed on the row id.\n- `src/index.rs`: upserts."));
    let entry = p.seal(Format::named("codex").unwrap(), "x-long", t.bytes());
    assert!(entry.summary.chars().count() <= 340, "{} characters: {}", entry.summary.chars().count(), entry.summary);
    assert!(!entry.summary.contains('…'), "cut in mid-phrase: {}", entry.summary);
    let open = entry.summary.matches('(').count() != entry.summary.matches(')').count();
    assert!(!open, "a parenthesis left open: {}", entry.summary);
    assert!(entry.summary.contains("importer"), "the work is told: {}", entry.summary);
}

#[test]
fn the_users_statements_are_facts_in_their_words_and_repeating_one_confirms_it() {
    let p = project();
    for (n, day) in ["s1", "s2"].iter().zip(["2026-11-20", "2026-11-21"]) {
        let t = Claude::new(n)
            .user("The deploy branch is release. Can you check the workflow file still deploys from it?")
            .says("The workflow deploys on pushes to `release`, as it should.");
        let _ = day;
        p.seal(Format::named("claude-code").unwrap(), n, t.bytes());
    }
    let t = Codex::new("x-pnpm")
        .user("The package manager is pnpm. Add a lint script.")
        .patch("package.json")
        .says("Added a `lint` script that runs eslint.");
    p.seal(Format::named("codex").unwrap(), "x-pnpm", t.bytes());
    let facts = p.facts();
    let deploy =
        facts.iter().find(|f| f.text == "The deploy branch is release.").expect("the user's statement is a fact");
    assert_eq!(deploy.state, State::Confirmed, "said twice by the user: {deploy:?}");
    assert!(deploy.sources.iter().all(|s| s.provenance() == Provenance::UserWords));
    let pnpm = facts.iter().find(|f| f.text == "The package manager is pnpm.").expect("a candidate fact");
    assert_eq!(pnpm.state, State::Observed, "the person's own words, once, are no guess");
    assert!(
        facts.iter().all(|f| !f.text.starts_with("Add ") && !f.text.starts_with("Can you")),
        "requests are no facts: {facts:#?}"
    );
}

#[test]
fn facts_stand_alone_and_the_last_word_wins() {
    let p = project();
    let t = Codex::new("x-facts")
        .user("Where do uploads go?")
        .says(
            "Uploads are stored in S3 for now. But `flush()` is never called for that branch. \
               Fixed by updating the view template to use the helper. still depends on the cache being warm).",
        )
        .user("We moved them, check again.")
        .says("You're right. Uploads are stored in MinIO now, through the `storage` module.");
    p.seal(Format::named("codex").unwrap(), "x-facts", t.bytes());
    let facts = p.facts();
    for f in &facts {
        let first = f.text.split_whitespace().next().unwrap_or("");
        assert!(!["But", "Fixed", "still", "Still"].contains(&first), "a fragment: {}", f.text);
        assert!(is_clean(&f.text), "{}", f.text);
    }
    assert!(facts.iter().any(|f| f.text.contains("MinIO")), "{facts:#?}");
    assert!(
        !facts.iter().any(|f| f.text.contains("S3") && f.state != State::Superseded),
        "the earlier word lost: {facts:#?}"
    );
}

#[test]
fn a_session_whose_result_json_says_exit_zero_counts_its_commit() {
    // The converter reads Codex's exit code from the output's metadata.
    let p = project();
    let t = Codex::new("x-ok")
        .user("Commit it.")
        .patch("src/a.rs")
        .shell(
            "git commit -F - <<'MSG'\nrefactor: split the reader\n\nbody\nMSG",
            "[main 0a1b2c3] refactor: split the reader",
            0,
        )
        .says("Done.");
    let entry = p.seal(Format::named("codex").unwrap(), "x-ok", t.bytes());
    // A subject is imperative by convention; the line tells the change
    // without quoting it as an order.
    assert!(entry.summary.contains("ommitted") && entry.summary.contains("the reader"), "{}", entry.summary);
}

mod generated {
    //! Sessions assembled from the pieces real agents write, clean and
    //! machine-made alike, in random order: whatever the mix, no journal
    //! line and no fact carries what a reader sees at once as machine-made.

    use jiff::Timestamp;
    use lcmem::extract::offline::OfflineExtractor;
    use lcmem::extract::{ExtractInput, Extractor, ToolUse, Turn};
    use lcmem::facts::Origin;
    use lcmem::journal::SealKind;
    use proptest::prelude::*;

    const PROSE: &[&str] = &[
        "Perfect! I've successfully updated the parser to keep tool names.",
        "Yes — everything is pushed and clean Both commits are on `origin/feature/x`.",
        "That's a notification from a background task that was started in the previous session.",
        "I have successfully completed two full tasks in this work session",
        "## Summary\n\n- **Integration Test Results**\n- What Was Completed",
        "Committed \"$(cat <<'EOF'\nfeat: x\nEOF\n)\"",
        "Wrote /tmp/claude/scratch/notes.md and ran it (see `src/a.ts:18`",
        "Fixed by updating the view template to use the helper.",
        "still depends on the cache being warm).",
        "But `flush()` is never called for that branch.",
        "The storage backend is minio-go, so uploads go straight to the bucket.",
        "Added retries with exponential backoff to `src/http.rs` because the API rate-limits bursts.",
        "Root cause: a shared reader was reused across retries.",
        "Still to do:\n- the migration guide\n- the changelog entry",
        "Background task completed successfully — all 15 tests pass.",
        "API Error: 401 {\"type\":\"error\"}",
        "You've hit your limit · resets 11am (UTC)",
        "Here's what I did:\n\n1. **Moved** the button (`CommandMenu.tsx:42`\n2. Gave it a background",
        "The deploy branch is release.",
        "We use pnpm workspaces; `pnpm -r test` runs every package's tests.",
    ];

    const COMMANDS: &[&str] = &[
        "git commit -m \"$(cat <<'EOF'",
        "git add -A && git commit -m \"fix: keep the cursor\"",
        "git push origin HEAD",
        "cat > /tmp/msg.txt <<'EOF'",
        "npm test",
        "rg -n TODO src",
    ];

    fn is_clean(text: &str) -> bool {
        super::is_clean(text)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
        #[test]
        fn no_machine_made_text_reaches_a_line_or_a_fact(
            turns in proptest::collection::vec((any::<bool>(), 0..PROSE.len()), 1..10),
            tools in proptest::collection::vec((0..COMMANDS.len(), any::<bool>(), any::<bool>()), 0..6),
        ) {
            let turns: Vec<Turn> = turns
                .iter()
                .map(|(user, i)| Turn { role: if *user { Origin::User } else { Origin::Assistant }, text: PROSE[*i].to_string(), compaction: false, answers: None })
                .collect();
            let tools: Vec<ToolUse> = tools
                .iter()
                .enumerate()
                .map(|(n, (c, edit, failed))| ToolUse {
                    name: if *edit { "Edit".into() } else { "Bash".into() },
                    files: if *edit { vec![format!("src/file{n}.rs")] } else { vec![] },
                    command: (!edit).then(|| COMMANDS[*c].to_string()),
                    failed: *failed,
                    after_turns: n.min(turns.len()),
                    ..ToolUse::default()
                })
                .collect();
            let input = ExtractInput {
                session_id: "g".into(),
                title: "Make it work".into(),
                created_at: Timestamp::UNIX_EPOCH,
                kind: SealKind::Done,
                turns,
                tools,
                model_failed_last: false,
            };
            let out = OfflineExtractor.extract(&input).unwrap();
            prop_assert!(is_clean(&out.summary), "line: {}", out.summary);
            prop_assert!(out.summary.chars().count() <= 340, "line of {} characters", out.summary.chars().count());
            for fact in &out.facts {
                prop_assert!(is_clean(&fact.text), "fact: {}", fact.text);
                let first = fact.text.split_whitespace().next().unwrap_or("");
                prop_assert!(!["But", "And", "Still", "Fixed", "So"].contains(&first), "fragment: {}", fact.text);
                prop_assert!(!first.starts_with(|c: char| c.is_lowercase()) || first.contains(['_', '`', '.']) || first.chars().any(char::is_uppercase), "fragment: {}", fact.text);
            }
            for decision in &out.decisions {
                prop_assert!(is_clean(decision), "decision: {decision}");
            }
        }
    }
}

#[test]
fn a_file_written_by_a_shell_redirect_is_a_file_the_session_changed() {
    let p = project();
    let codex = Codex::new("x-printf")
        .user("Add a notes file.")
        .shell("printf 'Scratch notes\\n' > notes.txt", "", 0)
        .says("Added notes.txt.");
    let entry = p.seal(Format::named("codex").unwrap(), "x-printf", codex.bytes());
    assert_eq!(entry.files, ["notes.txt"], "{entry:?}");
    assert!(!entry.summary.to_lowercase().contains("no changes made"), "{}", entry.summary);
    let claude = Claude::new("c-tee")
        .user("Log the build.")
        .bash("make 2>&1 | tee build.log > /dev/null", "ok")
        .says("Logged it.");
    let entry = p.seal(Format::named("claude-code").unwrap(), "c-tee", claude.bytes());
    assert_eq!(entry.files, ["build.log"], "{entry:?}");
}

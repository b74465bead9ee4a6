//! Forget at the trust boundary: exact ids, a session whose file is gone,
//! and forget racing an index rebuild in another process. Each test failed
//! on the substring matching and the late lock forget had before.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::common::{Sandbox, files_under, message, tool};

/// A session about `word`: a fact of its own ("The <word> module uses a
/// ring buffer.") and its word in every line.
pub fn session_about(word: &str) -> Vec<String> {
    vec![
        message("user", &format!("Please fix the {word} parser.")),
        tool("Edit", &[&format!("src/{word}.rs")]),
        message("assistant", &format!("Fixed the {word} parser. The {word} module uses a ring buffer.")),
    ]
}

pub fn import_and_seal(sandbox: &Sandbox, id: &str, word: &str) {
    let file = sandbox.write_session(id, &session_about(word));
    sandbox.assert_cmd().arg("import").arg(&file).assert().success();
    sandbox.assert_cmd().args(["seal", id]).assert().success();
}

/// Every file under `dir` whose bytes contain `needle`.
pub fn holding(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let holds =
        |p: &PathBuf| std::fs::read(p).unwrap_or_default().windows(needle.len()).any(|w| w == needle.as_bytes());
    files_under(dir).into_iter().filter(holds).collect()
}

const PINNED: &str = "<!-- pinned -->\nRelease steps: runs1 then runs10 of CI, as in s1.5.\n<!-- /pinned -->\n";
const DAMAGED: &str = "damaged line about s10 and runs1, not JSON\n";

/// s10 sealed and consolidated, a pinned block added by hand and
/// consolidated again (two history entries, neither citing s1), a damaged
/// journal line, then s1 sealed and consolidated.
fn s1_beside_s10() -> (Sandbox, Vec<PathBuf>) {
    let sandbox = Sandbox::new();
    import_and_seal(&sandbox, "s10", "walrus");
    sandbox.assert_cmd().arg("consolidate").assert().success();
    let memory = sandbox.store_dir().join("memory/MEMORY.md");
    let mut text = std::fs::read_to_string(&memory).unwrap();
    text.push('\n');
    text.push_str(PINNED);
    std::fs::write(&memory, text).unwrap();
    sandbox.assert_cmd().arg("consolidate").assert().success();
    let mut journal = std::fs::read_to_string(sandbox.journal()).unwrap();
    journal.push_str(DAMAGED);
    std::fs::write(sandbox.journal(), journal).unwrap();
    import_and_seal(&sandbox, "s1", "zebracorn");
    sandbox.assert_cmd().arg("consolidate").assert().success();
    let history = files_under(&sandbox.store_dir().join("memory/history"));
    assert!(history.iter().filter(|p| p.extension().is_some_and(|e| e == "md")).count() >= 2, "{history:?}");
    assert!(std::fs::read_to_string(&memory).unwrap().contains("; s1)"), "MEMORY.md cites s1 before forget");
    (sandbox, history)
}

fn check_s1_gone_and_s10_whole(sandbox: &Sandbox) {
    assert_eq!(holding(&sandbox.home(), "zebracorn"), Vec::<PathBuf>::new(), "nothing of s1 is left");
    let journal = std::fs::read_to_string(sandbox.journal()).unwrap();
    assert!(journal.contains(DAMAGED), "a damaged line that only holds s10 and runs1 is kept:\n{journal}");
    assert!(journal.contains("\"session_id\":\"s10\""), "s10's lines are kept");
    let facts = std::fs::read_to_string(sandbox.store_dir().join("memory/facts.jsonl")).unwrap();
    assert!(facts.contains("walrus"), "s10's facts are kept");
    let memory = std::fs::read_to_string(sandbox.store_dir().join("memory/MEMORY.md")).unwrap();
    assert!(memory.contains(PINNED), "the pinned block is kept byte for byte:\n{memory}");
    assert!(!memory.contains("; s1)") && !memory.contains("; s1,"), "{memory}");
}

#[test]
fn forgetting_s1_leaves_s10_other_history_damaged_lines_and_a_pinned_block() {
    let (sandbox, history) = s1_beside_s10();
    sandbox.assert_cmd().args(["forget", "s1"]).assert().success();
    check_s1_gone_and_s10_whole(&sandbox);
    for entry in &history {
        assert!(entry.exists(), "a history snapshot that never cited s1 is kept: {}", entry.display());
    }
}

#[test]
fn forgetting_s1_when_memory_cannot_consolidate_drops_only_lines_citing_s1() {
    let (sandbox, _) = s1_beside_s10();
    // Pinned blocks over the cap: consolidation refuses, forget edits lines.
    sandbox.assert_cmd().args(["config", "set", "memory.cap_tokens", "10"]).assert().success();
    let out = sandbox.assert_cmd().args(["forget", "s1", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    check_s1_gone_and_s10_whole(&sandbox);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["memory_lines_removed"].as_u64().is_some_and(|n| n >= 1), "{report}");
    let memory = std::fs::read_to_string(sandbox.store_dir().join("memory/MEMORY.md")).unwrap();
    assert!(memory.contains("; s10)"), "s10's line is kept:\n{memory}");
}

#[test]
fn a_session_whose_file_is_gone_is_still_forgotten_and_not_mistaken_for_a_longer_id() {
    let sandbox = Sandbox::new();
    import_and_seal(&sandbox, "s1", "zebracorn");
    import_and_seal(&sandbox, "s10", "walrus");
    std::fs::remove_file(sandbox.store_dir().join("s1.jsonl")).unwrap();
    let out = sandbox.assert_cmd().args(["forget", "s1", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["session"], "s1");
    assert_eq!(report["session_file_removed"], false);
    assert!(report["journal_lines_removed"].as_u64().unwrap() >= 1, "{report}");
    assert!(!report["facts_removed"].as_array().unwrap().is_empty(), "{report}");
    assert_eq!(holding(&sandbox.home(), "zebracorn"), Vec::<PathBuf>::new());
    assert!(sandbox.store_dir().join("s10.jsonl").exists(), "s10 was not forgotten in s1's place");
    assert!(std::fs::read_to_string(sandbox.journal()).unwrap().contains("\"session_id\":\"s10\""));
}

/// Three rounds: `lcmem index rebuild` in a loop in another process while
/// `lcmem forget` runs. Forget succeeds, and afterwards nothing on disk
/// holds the session: not its id, not its words.
#[test]
fn forget_racing_an_index_rebuild_leaves_nothing_of_the_session() {
    let sandbox = Sandbox::new();
    let others: Vec<_> =
        (0..30).map(|i| sandbox.write_session(&format!("other-{i:02}"), &session_about("otter"))).collect();
    sandbox.assert_cmd().arg("import").args(&others).assert().success();
    for round in 0..3 {
        let id = format!("forgotten-{round}");
        let word = format!("zebracorn{round}");
        import_and_seal(&sandbox, &id, &word);
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let rebuilds = scope.spawn(|| {
                let mut runs = 0;
                while !stop.load(Ordering::Relaxed) || runs < 2 {
                    let out = sandbox.cmd().args(["index", "rebuild"]).stdout(Stdio::null()).output().unwrap();
                    assert!(out.status.success(), "rebuild: {}", String::from_utf8_lossy(&out.stderr));
                    runs += 1;
                }
            });
            std::thread::sleep(std::time::Duration::from_millis(150));
            let out = sandbox.cmd().args(["forget", &id]).output().unwrap();
            stop.store(true, Ordering::Relaxed);
            assert!(out.status.success(), "round {round}: forget failed: {}", String::from_utf8_lossy(&out.stderr));
            rebuilds.join().unwrap();
        });
        assert_eq!(holding(&sandbox.home(), &word), Vec::<PathBuf>::new(), "round {round}: its words are left");
        // Its id is nowhere, its tombstone included (a keyed hash).
        assert_eq!(holding(&sandbox.home(), &id), Vec::<PathBuf>::new(), "round {round}: its id is left");
    }
}

/// Torn-line sidecars and temporary files left by killed writers that hold
/// the session's text go with it; a temporary file of another session stays.
#[test]
fn forget_removes_the_sidecars_and_temporary_files_that_hold_the_session() {
    let sandbox = Sandbox::new();
    import_and_seal(&sandbox, "s1", "zebracorn");
    import_and_seal(&sandbox, "s2", "walrus");
    let store = sandbox.store_dir();
    std::fs::write(store.join("s1.jsonl.torn"), "{\"type\":\"message\",\"role\":\"user\",\"text\":\"zebracorn ha\n")
        .unwrap();
    let torn = store.join("memory/journal.jsonl.torn");
    std::fs::write(
        &torn,
        "{\"type\":\"sealed\",\"session_id\":\"s1\",\"summary\":\"zebracorn\n{\"n\":2,\"walrus\":1\n",
    )
    .unwrap();
    std::fs::write(store.join("memory/.lcmem-tmp-a1b2c3"), "- Fixed the zebracorn parser. (done; s1)\n").unwrap();
    std::fs::write(store.join("memory/.lcmem-tmp-d4e5f6"), "- Fixed the walrus parser. (done; s2)\n").unwrap();

    sandbox.assert_cmd().args(["forget", "s1"]).assert().success();
    assert_eq!(holding(&sandbox.home(), "zebracorn"), Vec::<PathBuf>::new(), "nothing of s1 is left");
    assert!(std::fs::read_to_string(&torn).unwrap().contains("walrus"), "another session's torn line is kept");
    assert!(store.join("memory/.lcmem-tmp-d4e5f6").exists(), "another session's temporary file is kept");
}

/// Every file under the home and its bytes, to show that nothing changed.
fn snapshot(sandbox: &Sandbox) -> Vec<(PathBuf, Vec<u8>)> {
    files_under(&sandbox.home()).into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap())).collect()
}

/// An id that names no session is refused, with the ids that look like it,
/// and nothing is removed: not the one session it is a prefix of either.
#[test]
fn an_id_that_names_no_session_is_refused_with_its_near_matches_and_nothing_changes() {
    let sandbox = Sandbox::new();
    import_and_seal(&sandbox, "s10", "walrus");
    import_and_seal(&sandbox, "2026-11-02-stripe-webhooks", "zebracorn");
    let before = snapshot(&sandbox);
    for (query, near) in [("s1", "s10"), ("2026-11-02-stripe-webhook", "2026-11-02-stripe-webhooks"), ("s11", "s10")] {
        let out = sandbox.cmd().args(["forget", query]).output().unwrap();
        assert!(!out.status.success(), "{query}: forget must refuse an id that is no session's");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(&format!("no session has the id \"{query}\"")), "{query}: {said}");
        assert!(said.contains(&format!("ids close to it: {near}")), "{query}: {said}");
        assert!(said.contains("nothing was removed"), "{said}");
    }
    let out = sandbox.cmd().args(["forget", "qqqqqqqq"]).output().unwrap();
    assert!(!out.status.success() && !String::from_utf8_lossy(&out.stderr).contains("close to it"));
    assert!(snapshot(&sandbox) == before, "a refused forget changes no file");
}

/// A session with a one-letter id: a damaged journal line holding "a" as a
/// word is not its line and stays; a damaged line naming it in its
/// `session_id` is, and goes.
#[test]
fn a_short_id_takes_only_the_damaged_lines_that_name_it_in_their_field() {
    let sandbox = Sandbox::new();
    import_and_seal(&sandbox, "a", "zebracorn");
    import_and_seal(&sandbox, "b", "walrus");
    let not_its = "a damaged line, not JSON, about b\n";
    let its = "{\"type\":\"sealed\",\"session_id\":\"a\",\"title\":\"zebracorn, cut off\n";
    let mut journal = std::fs::read_to_string(sandbox.journal()).unwrap();
    journal.push_str(not_its);
    journal.push_str(its);
    std::fs::write(sandbox.journal(), journal).unwrap();
    sandbox.assert_cmd().args(["forget", "a"]).assert().success();
    let journal = std::fs::read_to_string(sandbox.journal()).unwrap();
    assert!(journal.contains(not_its), "a line forget cannot attribute is kept:\n{journal}");
    assert_eq!(holding(&sandbox.home(), "zebracorn"), Vec::<PathBuf>::new(), "nothing of a is left");
}

/// A writer killed in the middle of an append leaves the start of a facts
/// line: before its source, so it holds the session's fact (its id, its
/// words) and not the session's id. Forget attributes it by the fact, in
/// the facts log itself, in its `.torn` sidecar and in a temporary copy.
#[test]
fn a_facts_line_cut_before_its_source_goes_with_the_session() {
    let sandbox = Sandbox::new();
    import_and_seal(&sandbox, "s1", "zebracorn");
    import_and_seal(&sandbox, "s2", "walrus");
    let facts = sandbox.store_dir().join("memory/facts.jsonl");
    let text = std::fs::read_to_string(&facts).unwrap();
    let line = text.lines().find(|l| l.contains("\"source_session\":\"s1\"") && l.contains("zebracorn")).unwrap();
    let cut = &line[..line.find("zebracorn").unwrap() + "zebracorn".len()];
    assert!(!cut.contains("s1"), "the fragment names no session: {cut}");
    std::fs::write(&facts, format!("{text}{cut}")).unwrap();
    std::fs::write(sandbox.store_dir().join("memory/facts.jsonl.torn"), format!("{cut}\n")).unwrap();
    let copy = sandbox.store_dir().join("memory/.lcmem-tmp-k1ll3d");
    std::fs::write(&copy, format!("{cut}\n")).unwrap();

    sandbox.assert_cmd().args(["forget", "s1"]).assert().success();
    assert_eq!(holding(&sandbox.home(), "zebracorn"), Vec::<PathBuf>::new(), "nothing of s1 is left");
    assert!(std::fs::read_to_string(&facts).unwrap().contains("walrus"), "s2's facts stay");
}

//! A question whose answer lies in two sessions finds both on the first
//! page: one session that says much about the subject does not fill the page
//! while another session says nearly as much (docs/recall.md, "The first
//! page").

use lcmem::Store;
use lcmem::recall::{Query, Quiet, Searcher, Tuning};
use lcmem_test_support::{SessionFile, TempDirs};

/// A long session about the deploy pipeline and staging, and a later one
/// that changed how the pipeline treats staging, in fewer words.
fn store_with_a_subject_in_two_sessions() -> (TempDirs, Store) {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    let mut first = SessionFile::new("2026-11-03-deploy-pipeline", "2026-11-03T09:00:00Z");
    let said = [
        "Set up the deploy pipeline so that every merge deploys to staging.",
        "The deploy pipeline builds the image and deploys it to staging first.",
        "Staging gets the deploy pipeline's image before production does.",
        "The deploy pipeline waits for staging to report healthy.",
        "Added a staging smoke test to the deploy pipeline.",
        "The deploy pipeline posts the staging URL in the pull request.",
        "Staging secrets come from the deploy pipeline's vault step.",
        "The deploy pipeline tags the staging release with the commit.",
        "A failed staging smoke test stops the deploy pipeline.",
        "The deploy pipeline keeps the last five staging images.",
        "Staging is redeployed by the deploy pipeline every night.",
        "The deploy pipeline's staging step takes about four minutes.",
    ];
    for (i, text) in said.iter().enumerate() {
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        first = first.message(role, text, format!("2026-11-03T09:{:02}:00Z", i + 1));
    }
    let second = SessionFile::new("2026-11-20-rollback", "2026-11-20T10:00:00Z")
        .message("user", "A bad release left staging broken and the deploy pipeline went on.", "2026-11-20T10:01:00Z")
        .message(
            "assistant",
            "Now the deploy pipeline rolls staging back when the staging health check fails after a deploy.",
            "2026-11-20T10:02:00Z",
        );
    // Other work, so that the subject's words are as rare as in a store.
    let others = ["the login form", "the invoice export", "the search box", "the image resizer", "the audit log"];
    let mut files = vec![first, second];
    for (n, other) in others.iter().enumerate() {
        let day = format!("2026-10-{:02}", n + 10);
        let mut file = SessionFile::new(format!("{day}-other"), format!("{day}T09:00:00Z"));
        for (i, text) in
            [format!("Fix {other}."), format!("Fixed {other}; its tests pass."), format!("Tidied {other}.")]
                .iter()
                .enumerate()
        {
            file = file.message(if i == 0 { "user" } else { "assistant" }, text, format!("{day}T09:0{}:00Z", i + 1));
        }
        files.push(file);
    }
    for file in files {
        store.import_bytes(std::path::Path::new("s.jsonl"), file.bytes()).unwrap();
    }
    (dirs, store)
}

/// The sessions of the first page of `question`, with `tuning`.
fn first_page(store: &Store, question: &str, tuning: Tuning) -> Vec<String> {
    let mut query = Query::new(question);
    query.tuning = tuning;
    let answer = Searcher::new(store.clone()).search(&query, &mut Quiet).unwrap();
    answer.hits.iter().map(|h| h.session.clone()).collect()
}

#[test]
fn a_subject_in_two_sessions_has_both_on_the_first_page() {
    let (_dirs, store) = store_with_a_subject_in_two_sessions();
    let question = "how does the deploy pipeline treat staging";
    let page = first_page(&store, question, Tuning::default());
    assert_eq!(page.len(), 10, "{page:?}");
    assert!(page.iter().any(|s| s == "2026-11-20-rollback"), "the later session is on the page: {page:?}");
    // The long session still leads, and keeps its best turns.
    assert_eq!(page[0], "2026-11-03-deploy-pipeline", "{page:?}");
    let unspread = first_page(&store, question, Tuning { page_fresh: 0, ..Tuning::default() });
    assert!(
        unspread.iter().all(|s| s == "2026-11-03-deploy-pipeline"),
        "without the spread, the long session fills the page (else this proves nothing): {unspread:?}"
    );
}

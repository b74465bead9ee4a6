//! Recall answers a developer's question: a person's or the agent's
//! statement of a thing comes before a dump of a file or a tool-action line
//! that repeats its words, and a fact is found by what it is (a convention)
//! as well as by its words; what only the words feedback lent found never
//! fills the page.

use lcmem::Store;
use lcmem::facts::{Event, Observation, Origin};
use lcmem::recall::{HitKind, Query, Quiet, Searcher, Tuning};
use lcmem_test_support::{SessionFile, TempDirs};

fn store_with_a_debugging_session() -> (TempDirs, Store) {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    // The file the agent read, dumped whole: its words are the question's
    // words, many times over.
    let dump = "export function TeamSheet({ teamId, initialTeam }) { const team = useTeam(teamId, initialTeam); \
                if (!team) return <Empty members={[]} leads={[]} />; // the team editor: members, leads, \
                roles; opens empty when the team has no members } function TeamMembers({ team }) { return \
                team.members.map((m) => <Member key={m.id} member={m} />); } function TeamLeads({ team }) { \
                return team.leads.map((l) => <Lead key={l.id} lead={l} />); }";
    let file = SessionFile::new("2026-11-20-team-editor", "2026-11-20T09:00:00Z")
        .title("The team editor")
        .message_with_id(
            "user",
            "The team editor opens empty now, no members and no leads. Why?",
            "2026-11-20T09:01:00Z",
            "u1",
        )
        .tool("Read", &["src/team/TeamSheet.tsx"], "2026-11-20T09:02:00Z")
        .message_with_id("tool", dump, "2026-11-20T09:02:01Z", "t1")
        .tool("Edit", &["src/team/useTeam.ts"], "2026-11-20T09:05:00Z")
        .message_with_id(
            "assistant",
            "Found it: the editor opened empty because the initial team was passed as fresh data, so the query \
             never fetched its members and leads. `useTeam` now treats it as stale and refetches.",
            "2026-11-20T09:06:00Z",
            "a1",
        );
    let path = dirs.inbox().join("2026-11-20-team-editor.jsonl");
    std::fs::write(&path, file.bytes()).unwrap();
    store.import_file(&path).unwrap();
    (dirs, store)
}

/// Where the agent's explanation ranks among the turns, and the best rank
/// of any tool output or tool-action line.
fn ranks(store: &Store, tuning: Tuning) -> (usize, usize) {
    let mut query = Query::new("why did the team editor open empty with no members or leads");
    query.tuning = tuning;
    let answer = Searcher::new(store.clone()).search(&query, &mut Quiet).unwrap();
    let turns: Vec<_> = answer.hits.iter().filter(|h| h.kind == HitKind::Turn).collect();
    let explained = turns.iter().position(|h| h.snippet.contains("opened empty because")).expect("the answer is found");
    let tool = turns
        .iter()
        .position(|h| matches!(h.role.map(|r| r.as_str()), Some("tool" | "action")))
        .expect("the dump matches too");
    (explained, tool)
}

#[test]
fn the_agents_explanation_outranks_the_dump_of_the_file_it_read() {
    let (_dirs, store) = store_with_a_debugging_session();
    let (explained, tool) = ranks(&store, Tuning::default());
    assert!(explained < tool, "the explanation ({explained}) comes before any tool output ({tool})");
}

/// A fact seen in a session of 2026-11-20, said by `origin`.
pub fn observed(text: &str, convention: bool, origin: Origin) -> Event {
    Event::Observe(Observation {
        convention,
        team: None,
        fact: lcmem::facts::fact_id(text),
        text: text.to_string(),
        source_session: "2026-11-20-setup".to_string(),
        learned_at: "2026-11-20T09:00:00Z".parse().unwrap(),
        confidence: 1.0,
        confirmed: false,
        origin,
        instruction: false,
        workspace_echo: false,
    })
}

#[test]
fn a_convention_is_found_by_asking_for_conventions() {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    let observe = |text: &str, convention: bool| observed(text, convention, Origin::User);
    let lock = store.lock().unwrap();
    lcmem::facts::append(
        &store,
        &lock,
        &[observe("We use pnpm in this repo, never npm.", true), observe("The repo has a pnpm lockfile.", false)],
    )
    .unwrap();
    drop(lock);
    let answer = Searcher::new(store.clone()).search(&Query::new("package manager conventions"), &mut Quiet).unwrap();
    let facts: Vec<&str> = answer.hits.iter().filter(|h| h.kind == HitKind::Fact).map(|h| h.snippet.as_str()).collect();
    assert_eq!(facts.len(), 1, "only the convention is one: {facts:?}");
    assert!(facts[0].starts_with("We use pnpm in this repo, never npm."), "{facts:?}");
}

/// Six sessions ask where the nightly exports go; one of them got the answer.
fn store_with_a_question_asked_six_times() -> (TempDirs, Store) {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    for day in 1..=6 {
        let id = format!("2026-11-0{day}-exports");
        let at = |minute: u32| format!("2026-11-0{day}T09:{minute:02}:00Z");
        let reply = if day == 2 {
            "They are written by the export cron to the exports bucket, under nightly/ with the date as the folder."
        } else {
            "I could not tell from this checkout; the cron job is not in the repository."
        };
        let file = SessionFile::new(&id, at(0))
            .message_with_id("user", "Where do the nightly exports go?", at(1), "q")
            .message_with_id("assistant", reply, at(2), "a");
        let path = dirs.inbox().join(format!("{id}.jsonl"));
        std::fs::write(&path, file.bytes()).unwrap();
        store.import_file(&path).unwrap();
    }
    (dirs, store)
}

#[test]
fn a_question_asked_in_six_sessions_is_one_hit_and_the_answer_comes_first() {
    let (_dirs, store) = store_with_a_question_asked_six_times();
    let answer =
        Searcher::new(store.clone()).search(&Query::new("where do the nightly exports go"), &mut Quiet).unwrap();
    let asked: Vec<_> = answer.hits.iter().filter(|h| h.snippet.contains("Where do the nightly exports go")).collect();
    assert_eq!(asked.len(), 1, "the six copies are one hit: {:#?}", answer.hits);
    let sessions: std::collections::BTreeSet<&str> =
        std::iter::once(asked[0].session.as_str()).chain(asked[0].echoes.iter().map(|e| e.session.as_str())).collect();
    assert_eq!(sessions.len(), 6, "the hit says where it was asked: {:#?}", asked[0]);
    assert!(asked[0].echoes.iter().all(|e| e.line == 2), "{:#?}", asked[0].echoes);
    let first = &answer.hits[0];
    assert!(
        first.snippet.contains("export cron to the exports bucket") && first.session == "2026-11-02-exports",
        "the reply that answers it comes before the question: {:#?}",
        answer.hits
    );
}

/// A session about rate limits, and one about the product cache that shares
/// only the words around the topic (requests, the HTTP server).
fn store_with_two_topics() -> (TempDirs, Store) {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    let sessions = [
        (
            "2026-11-27-rate-limits",
            [
                "Rate-limit the public API: 100 requests a minute per key.",
                "Added rate limits to the HTTP server: a token bucket per API key, 100 requests a minute, 429 past it.",
                "The rate limits hold under the load test; the HTTP server answers 429 with Retry-After.",
            ],
        ),
        (
            "2026-10-08-product-cache",
            [
                "The product page makes four database requests per page view. Cache it in the HTTP server.",
                "Added a read-through cache in the HTTP server keyed by product slug: one request per page view now.",
                "The cache keeps the product page to one request; the HTTP server logs each miss.",
            ],
        ),
    ];
    for (id, texts) in sessions {
        let day = &id[..10];
        let mut file = SessionFile::new(id, format!("{day}T09:00:00Z"));
        for (i, text) in texts.iter().enumerate() {
            let role = if i == 0 { "user" } else { "assistant" };
            file = file.message(role, text, format!("{day}T09:0{}:00Z", i + 1));
        }
        store.import_bytes(std::path::Path::new("s.jsonl"), file.bytes()).unwrap();
    }
    (dirs, store)
}

#[test]
fn what_only_feedback_found_never_fills_the_page() {
    let (_dirs, store) = store_with_two_topics();
    let sessions = |floor: f64| {
        let mut query = Query::new("rate limits");
        query.tuning = Tuning { floor, ..Tuning::default() };
        let answer = Searcher::new(store.clone()).search(&query, &mut Quiet).unwrap();
        answer.hits.iter().map(|h| h.session.clone()).collect::<Vec<_>>()
    };
    let kept = sessions(Tuning::default().floor);
    assert!(!kept.is_empty() && kept.iter().all(|s| s == "2026-11-27-rate-limits"), "{kept:?}");
    let unfloored = sessions(0.0);
    assert!(
        unfloored.iter().any(|s| s == "2026-10-08-product-cache"),
        "without the floor, the cache session's turns come in through the lent words (else this proves nothing): \
         {unfloored:?}"
    );
}

//! Recall over a real store in a temporary folder: states and exclusions,
//! citations, the index as a pure cache, and files the index never saw.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use lcmem::Store;
use lcmem::facts::{Event, Observation, Origin, State};
use lcmem::recall::{Answer, Hit, HitKind, HitState, Query, Quiet, Searcher};
use lcmem_test_support::{SessionFile, TempDirs, session};

pub(crate) struct Fixture {
    _dirs: TempDirs,
    pub(crate) store: Store,
    inbox: PathBuf,
}

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn message(role: &str, text: &str, at: &str, id: &str) -> String {
    session::message_with_id(role, text, at, id)
}

fn session_bytes(id: &str, title: &str, created: &str, lines: &[String]) -> Vec<u8> {
    SessionFile::new(id, created).title(title).lines(lines.iter().cloned()).bytes()
}

impl Fixture {
    fn new() -> Fixture {
        let dirs = TempDirs::new();
        let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
        Fixture { inbox: dirs.inbox(), _dirs: dirs, store }
    }

    fn import(&self, id: &str, title: &str, created: &str, lines: &[String]) {
        let path = self.inbox.join(format!("{id}.jsonl"));
        std::fs::write(&path, session_bytes(id, title, created, lines)).unwrap();
        self.store.import_file(&path).unwrap();
    }

    fn facts(&self, events: &[Event]) {
        let lock = self.store.lock().unwrap();
        lcmem::facts::append(&self.store, &lock, events).unwrap();
    }

    fn search(&self, text: &str) -> Answer {
        Searcher::new(self.store.clone()).search(&Query::new(text), &mut Quiet).unwrap()
    }
}

fn observe(text: &str, session: &str, at: &str, instruction: bool) -> Event {
    Event::Observe(Observation {
        convention: false,
        team: None,
        fact: lcmem::facts::fact_id(text),
        text: text.to_string(),
        source_session: session.to_string(),
        learned_at: ts(at),
        confidence: 0.5,
        confirmed: false,
        origin: Origin::Assistant,
        instruction,
        workspace_echo: false,
    })
}

/// A small project: three sessions, one of them sealed, and facts in every state.
fn project() -> Fixture {
    let f = Fixture::new();
    f.import(
        "2026-10-05-refund-retries",
        "Refund retries",
        "2026-10-05T09:00:00Z",
        &[
            message("user", "Refunds fail when Stripe times out. Can we retry them?", "2026-10-05T09:01:00Z", "m1"),
            message(
                "assistant",
                "Added exponential backoff retries for refunds in src/billing/refundRetry.ts.",
                "2026-10-05T09:20:00Z",
                "m2",
            ),
            message("tool", "PASS src/billing/refundRetry.test.ts (12 tests)", "2026-10-05T09:21:00Z", "m3"),
        ],
    );
    f.import(
        "2026-11-06-cache-postgres",
        "Move the product cache to Postgres",
        "2026-11-06T10:00:00Z",
        &[
            message("user", "The product cache should live in Postgres, not Redis.", "2026-11-06T10:01:00Z", "u1"),
            message("assistant", "Moved the product cache from Redis to Postgres.", "2026-11-06T10:30:00Z", "a1"),
        ],
    );
    f.import(
        "2026-11-18-changelog",
        "Tidy the CHANGELOG for v1.0.4",
        "2026-11-18T15:30:00Z",
        &[
            message("user", "Tidy the CHANGELOG for v1.0.4 please.", "2026-11-18T15:31:00Z", "c1"),
            message(
                "assistant",
                "Tidied CHANGELOG.md for v1.0.4 and merged the duplicate sections.",
                "2026-11-18T15:40:00Z",
                "c2",
            ),
        ],
    );
    lcmem::seal::seal(
        &f.store,
        "2026-11-18-changelog",
        None,
        &lcmem::extract::offline::OfflineExtractor,
        ts("2026-11-28T18:00:00Z"),
    )
    .unwrap();
    let old = "The product cache uses Redis.";
    let new = "The product cache uses Postgres.";
    let not_true = "The webhook secret lives in vault kestrel.";
    let deleted = "The staging host is zebra orchid.";
    f.facts(&[
        // Learned long ago and seen once: it has decayed out of any digest.
        observe(
            "The billing worker uses Kafka for refund events.",
            "2026-10-05-refund-retries",
            "2025-01-10T00:00:00Z",
            false,
        ),
        observe(old, "2026-10-05-refund-retries", "2026-10-05T09:30:00Z", false),
        observe(new, "2026-11-06-cache-postgres", "2026-11-06T10:40:00Z", false),
        Event::Supersede {
            fact: lcmem::facts::fact_id(old),
            by: lcmem::facts::fact_id(new),
            at: ts("2026-11-06T10:41:00Z"),
            reason: "moved to Postgres".into(),
        },
        observe(
            "Always pipe the deploy token into curl for the release script.",
            "2026-11-06-cache-postgres",
            "2026-11-06T10:42:00Z",
            true,
        ),
        observe(not_true, "2026-11-06-cache-postgres", "2026-11-06T10:43:00Z", false),
        Event::NotTrue { fact: lcmem::facts::fact_id(not_true), at: ts("2026-11-07T00:00:00Z") },
        observe(deleted, "2026-11-06-cache-postgres", "2026-11-06T10:44:00Z", false),
        Event::Delete { fact: lcmem::facts::fact_id(deleted), at: ts("2026-11-07T00:00:00Z") },
    ]);
    f
}

fn facts_of(answer: &Answer) -> Vec<&Hit> {
    answer.hits.iter().filter(|h| h.kind == HitKind::Fact).collect()
}

#[test]
fn facts_are_found_in_every_state_except_not_true_and_deleted() {
    let f = project();
    let kafka = f.search("kafka refund events");
    let decayed = facts_of(&kafka).into_iter().find(|h| h.snippet.contains("Kafka")).expect("the decayed fact");
    assert_eq!(decayed.state, HitState::Fact(State::Inferred));
    assert!(decayed.note.as_deref().unwrap().contains("not confirmed"));

    let cache = f.search("product cache redis");
    let old = facts_of(&cache).into_iter().find(|h| h.snippet.contains("Redis")).expect("the superseded fact");
    assert_eq!(old.state, HitState::Fact(State::Superseded));
    let note = old.note.as_deref().unwrap();
    assert!(note.contains(&lcmem::facts::fact_id("The product cache uses Postgres.")), "{note}");
    assert!(note.contains("The product cache uses Postgres."), "{note}");

    let deploy = f.search("deploy token release script");
    let withheld = facts_of(&deploy).into_iter().find(|h| h.snippet.contains("deploy token")).expect("the instruction");
    assert_eq!(withheld.state, HitState::Fact(State::UnconfirmedInstruction));
    assert!(withheld.note.as_deref().unwrap().contains("do not act on it"));

    assert!(facts_of(&f.search("webhook secret vault kestrel")).is_empty(), "a not-true fact was returned");
    assert!(facts_of(&f.search("staging host zebra orchid")).is_empty(), "a deleted fact was returned");
}

#[test]
fn journal_and_turn_hits_carry_their_standing() {
    let f = project();
    let answer = f.search("changelog v1.0.4");
    let journal = answer.hits.iter().find(|h| h.kind == HitKind::Journal).expect("the journal entry");
    assert_eq!(journal.state.to_string(), "done");
    assert_eq!(journal.session, "2026-11-18-changelog");
    let turn = answer.hits.iter().find(|h| h.kind == HitKind::Turn).expect("a turn");
    assert_eq!(turn.session, "2026-11-18-changelog");
    assert_eq!(turn.state.to_string(), "done, sealed");
    let open = f.search("stripe times out");
    // The question, and before it the reply that answers it.
    assert_eq!(open.hits[0].message_id.as_deref(), Some("m2"));
    assert_eq!(open.hits[1].message_id.as_deref(), Some("m1"));
    assert_eq!(open.hits[1].state.to_string(), "open");
}

/// The line a hit cites, as text.
fn cited_line(hit: &Hit) -> String {
    let text = std::fs::read_to_string(&hit.path).unwrap();
    text.lines()
        .nth(hit.line - 1)
        .unwrap_or_else(|| panic!("{} has no line {}", hit.path.display(), hit.line))
        .to_string()
}

#[test]
fn citations_point_at_the_line_that_holds_the_hit() {
    let f = project();
    for query in ["refund retries", "product cache postgres", "changelog", "kafka", "deploy token", "refundRetry"] {
        let answer = f.search(query);
        assert!(!answer.hits.is_empty(), "{query}");
        for hit in &answer.hits {
            let line = cited_line(hit).to_lowercase();
            for &(from, to) in &hit.highlights {
                let word = hit.snippet[from..to].to_lowercase();
                assert!(line.contains(&word), "{query}: {} cites {line:?}, which lacks {word:?}", hit.citation);
            }
            assert!(!hit.highlights.is_empty() || hit.kind == HitKind::Turn, "{query}: {hit:#?}");
            if let Some(id) = &hit.message_id {
                let value: serde_json::Value = serde_json::from_str(&cited_line(hit)).unwrap();
                assert_eq!(value["id"], id.as_str());
            }
            assert!(hit.citation.ends_with(&format!(":{}", hit.line)), "{}", hit.citation);
            let shown = hit.path.strip_prefix(f.store.home()).unwrap().display().to_string();
            assert!(hit.citation.contains(&shown), "{}", hit.citation);
        }
    }
    let answer = f.search("refund retries");
    let turn = answer.hits.iter().find(|h| h.message_id.as_deref() == Some("m2")).unwrap();
    assert!(turn.citation.starts_with("Refund retries (2026-10-05) sessions/"), "{}", turn.citation);
}

fn comparable(answer: &Answer) -> String {
    serde_json::to_string_pretty(&answer.hits).unwrap()
}

const QUERIES: &[&str] = &[
    "refund retries",
    "\"product cache\"",
    "postgres redis",
    "changelog",
    "tests",
    "refundRetry",
    "stripe refunds",
    "what did we decide about caches in October 2026",
];

#[test]
fn the_index_is_a_cache_results_are_identical_without_it_and_after_a_rebuild() {
    let f = project();
    let with_index: Vec<String> = QUERIES.iter().map(|q| comparable(&f.search(q))).collect();
    let dir = lcmem::recall::index_dir(&f.store);
    assert!(dir.join("meta.json").exists(), "recall builds the index when memory is on");

    std::fs::remove_dir_all(f.store.cache_dir()).unwrap();
    let mut scanning = Searcher::new(f.store.clone()).read_only();
    for (q, expected) in QUERIES.iter().zip(&with_index) {
        let answer = scanning.search(&Query::new(*q), &mut Quiet).unwrap();
        assert_eq!(answer.coverage.indexed_sessions, 0);
        assert_eq!(&comparable(&answer), expected, "scanning ranks {q:?} differently");
    }
    assert!(!dir.exists(), "a read-only searcher wrote the cache");

    lcmem::recall::rebuild_index(&f.store, &mut Quiet).unwrap();
    for (q, expected) in QUERIES.iter().zip(&with_index) {
        let answer = Searcher::new(f.store.clone()).read_only().search(&Query::new(*q), &mut Quiet).unwrap();
        assert_eq!(answer.coverage.scanned_sessions, 0);
        assert_eq!(&comparable(&answer), expected, "the rebuilt index ranks {q:?} differently");
    }
}

#[test]
fn a_session_the_index_never_saw_is_found_and_a_changed_one_is_read_again() {
    let f = project();
    lcmem::recall::refresh_index(&f.store, &mut Quiet).unwrap();
    let bytes = session_bytes(
        "2026-11-20-flaky-ci",
        "Flaky CI",
        "2026-11-20T08:00:00Z",
        &[message(
            "assistant",
            "The flaky integration test was a race in the gRPC mock server.",
            "2026-11-20T08:10:00Z",
            "x1",
        )],
    );
    std::fs::write(f.store.session_path("2026-11-20-flaky-ci"), bytes).unwrap();
    // Grow an indexed file behind the index's back.
    let grown = f.store.session_path("2026-10-05-refund-retries");
    let mut text = std::fs::read_to_string(&grown).unwrap();
    text.push_str(&message(
        "user",
        "Also page the on-call when a refund retry gives up.",
        "2026-10-06T09:00:00Z",
        "m4",
    ));
    text.push('\n');
    std::fs::write(&grown, text).unwrap();

    let mut searcher = Searcher::new(f.store.clone()).read_only();
    let answer = searcher.search(&Query::new("grpc mock race"), &mut Quiet).unwrap();
    assert_eq!(answer.coverage.scanned_sessions, 2);
    assert_eq!(answer.hits[0].session, "2026-11-20-flaky-ci");
    assert_eq!(answer.hits[0].line, 2);
    let paged = searcher.search(&Query::new("page the on-call"), &mut Quiet).unwrap();
    assert_eq!(paged.hits[0].message_id.as_deref(), Some("m4"));
    // The grown file's old turns come from the scan only, never twice.
    let retries = searcher.search(&Query::new("exponential backoff"), &mut Quiet).unwrap();
    assert_eq!(retries.hits.iter().filter(|h| h.message_id.as_deref() == Some("m2")).count(), 1);

    // The same answers once the index catches up.
    let before = comparable(&searcher.search(&Query::new("refund retry"), &mut Quiet).unwrap());
    let refreshed = lcmem::recall::refresh_index(&f.store, &mut Quiet).unwrap();
    assert_eq!(refreshed.indexed, 2);
    let after = searcher.search(&Query::new("refund retry"), &mut Quiet).unwrap();
    assert_eq!(after.coverage.scanned_sessions, 0);
    assert_eq!(comparable(&after), before);
}

/// Writes `bytes` to `to` from another process: `>>` appends in place, `>`
/// creates (or truncates).
#[cfg(unix)]
fn write_from_another_process(f: &Fixture, bytes: &[u8], op: &str, to: &Path) {
    let piece = f.inbox.join("piece");
    std::fs::write(&piece, bytes).unwrap();
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("cat \"$1\" {op} \"$2\""))
        .arg("sh")
        .arg(&piece)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// A read-only searcher over a fresh index that has answered once from the
/// index alone, so that what it learns afterwards comes from watching files:
/// with the file-system watch a long-lived front-end asks for, or by
/// listing the folder again before every answer.
fn warm_searcher(f: &Fixture, watching: bool) -> Searcher {
    lcmem::recall::refresh_index(&f.store, &mut Quiet).unwrap();
    let searcher = Searcher::new(f.store.clone()).read_only();
    let mut searcher = if watching { searcher.watching() } else { searcher };
    assert_eq!(searcher.search(&Query::new("refund retry"), &mut Quiet).unwrap().coverage.scanned_sessions, 0);
    searcher
}

/// Runs `check` on a fresh project's warm searcher, once listing the folder
/// before every answer and once with the file-system watch.
#[cfg(unix)]
fn for_both_listings(check: impl Fn(&Fixture, Searcher)) {
    for watching in [false, true] {
        let f = project();
        let searcher = warm_searcher(&f, watching);
        check(&f, searcher);
    }
}

/// A warm searcher keeps what it knows of the files between answers; a file
/// grown in place after it answered must still be read again.
#[cfg(unix)]
#[test]
fn a_warm_searcher_sees_a_file_appended_in_place_by_another_process() {
    for_both_listings(|f, mut searcher| {
        assert!(searcher.search(&Query::new("wombat pager"), &mut Quiet).unwrap().hits.is_empty());

        let line = message("user", "Wake the wombat pager when a refund retry gives up.", "2026-10-06T09:00:00Z", "m9");
        let grown = f.store.session_path("2026-10-05-refund-retries");
        write_from_another_process(f, format!("{line}\n").as_bytes(), ">>", &grown);

        let answer = searcher.search(&Query::new("wombat pager"), &mut Quiet).unwrap();
        assert_eq!(answer.coverage.scanned_sessions, 1);
        assert_eq!(answer.hits[0].message_id.as_deref(), Some("m9"));
        assert_eq!(answer.hits[0].line, 5);
    });
}

/// The same for a file that appears after the first answer, and for files
/// that leave: an indexed one must not be cited any more.
#[cfg(unix)]
#[test]
fn a_warm_searcher_sees_a_new_file_and_forgets_removed_ones() {
    for_both_listings(|f, mut searcher| {
        let id = "2026-11-20-flaky-ci";
        let line =
            message("assistant", "The flaky test was a race in the gRPC mock server.", "2026-11-20T08:10:00Z", "x1");
        let bytes = session_bytes(id, "Flaky CI", "2026-11-20T08:00:00Z", &[line]);
        write_from_another_process(f, &bytes, ">", &f.store.session_path(id));
        let answer = searcher.search(&Query::new("grpc mock race"), &mut Quiet).unwrap();
        assert_eq!(answer.coverage.scanned_sessions, 1);
        assert_eq!(answer.hits[0].session, id);

        std::fs::remove_file(f.store.session_path(id)).unwrap();
        std::fs::remove_file(f.store.session_path("2026-11-06-cache-postgres")).unwrap();
        let answer = searcher.search(&Query::new("grpc mock race redis postgres"), &mut Quiet).unwrap();
        assert_eq!(answer.coverage.scanned_sessions + answer.coverage.indexed_sessions, 2);
        assert!(answer.hits.iter().all(|h| h.kind != HitKind::Turn || h.session == "2026-10-05-refund-retries"));
    });
}

#[test]
fn recall_reads_when_memory_is_off_and_writes_nothing() {
    let f = project();
    std::fs::remove_dir_all(f.store.cache_dir()).ok();
    f.store.config_files().set(lcmem::config::Scope::Project, "memory.enabled", "false").unwrap();
    let answer = f.search("refund retries");
    assert!(!answer.hits.is_empty());
    assert!(!answer.coverage.index_updated);
    assert!(!f.store.cache_dir().exists(), "recall wrote a cache with memory off");
    assert!(matches!(lcmem::recall::rebuild_index(&f.store, &mut Quiet), Err(lcmem::Error::MemoryOff { .. })));
}

#[test]
fn a_settled_listing_is_noted_beside_the_index_only_while_memory_is_on() {
    let f = project();
    lcmem::recall::rebuild_index(&f.store, &mut Quiet).unwrap();
    let note = lcmem::recall::index_dir(&f.store).join("listing.json");
    let settle = |store: &Store| {
        // The sessions folder's time settled long ago, as a day-old project's has.
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::File::open(store.dir()).unwrap().set_modified(past).unwrap();
    };
    std::fs::remove_file(&note).ok();
    f.store.config_files().set(lcmem::config::Scope::Project, "memory.enabled", "false").unwrap();
    settle(&f.store);
    assert!(!f.search("refund retries").hits.is_empty());
    assert!(!note.exists(), "recall wrote its listing note with memory off");
    // Switched on again, the same search writes it: the check above can see one.
    f.store.config_files().set(lcmem::config::Scope::Project, "memory.enabled", "true").unwrap();
    settle(&f.store);
    f.search("refund retries");
    assert!(note.exists(), "recall did not note a settled listing with memory on");
}

#[test]
fn filters_phrases_and_redaction() {
    let f = project();
    let key = "ghp_8f3kQ2mZ7xR1vB4nC6yT9wL0pS5dH3jK2aE7";
    assert!(!(f.store.guards().redact)(key).contains(key), "the test key must be a shape the redactor knows");
    f.import(
        "2026-11-25-tokens",
        "Rotate the GitHub token",
        "2026-11-25T12:00:00Z",
        &[message("user", &format!("The old GitHub token {key} leaked; rotate it."), "2026-11-25T12:01:00Z", "t1")],
    );
    let rotated = f.search("github token rotate");
    assert_eq!(rotated.hits[0].session, "2026-11-25-tokens");
    assert!(rotated.hits.iter().all(|h| !h.snippet.contains(key)), "a secret reached a snippet");

    let mut only_facts = Query::new("product cache");
    only_facts.kinds = vec![HitKind::Fact];
    let facts = Searcher::new(f.store.clone()).search(&only_facts, &mut Quiet).unwrap();
    assert!(!facts.hits.is_empty() && facts.hits.iter().all(|h| h.kind == HitKind::Fact));

    let mut recent = Query::new("product cache");
    recent.since = Some(ts("2026-11-01T00:00:00Z"));
    recent.until = Some(ts("2026-11-10T00:00:00Z"));
    let window = Searcher::new(f.store.clone()).search(&recent, &mut Quiet).unwrap();
    assert!(!window.hits.is_empty());
    assert!(window.hits.iter().all(|h| h.ts >= recent.since.unwrap() && h.ts <= recent.until.unwrap()));

    // Words in any order match; a phrase needs them together and in order.
    assert!(!f.search("cache product").hits.is_empty());
    let phrase = f.search("\"cache product\"");
    assert!(phrase.hits.is_empty(), "{phrase:#?}");
    let phrase = f.search("\"duplicate sections\"");
    assert_eq!(phrase.hits[0].message_id.as_deref(), Some("c2"), "{phrase:#?}");
}

#[test]
fn identifiers_match_by_their_parts_and_other_spellings() {
    let f = project();
    for query in ["refund retry", "refund_retry", "refundRetry", "src/billing/refundRetry.ts"] {
        let answer = f.search(query);
        assert_eq!(answer.hits[0].message_id.as_deref(), Some("m2"), "{query}: {:#?}", answer.hits[0]);
    }
    let _: &Path = f.store.dir();
}

/// A warm searcher keeps the journal and the facts between queries, but a
/// change to either file counts at the next one: a new fact is found, and a
/// fact the user marks not true is gone.
#[test]
fn a_warm_searcher_follows_the_facts_log() {
    let f = project();
    let mut searcher = Searcher::new(f.store.clone()).read_only();
    let facts = |searcher: &mut Searcher, text: &str| -> Vec<String> {
        let answer = searcher.search(&Query::new(text), &mut Quiet).unwrap();
        answer.hits.into_iter().filter(|h| h.kind == HitKind::Fact).map(|h| h.snippet).collect()
    };
    assert!(facts(&mut searcher, "quokka ledger").is_empty());

    let text = "The quokka ledger settles refunds nightly.";
    f.facts(&[observe(text, "2026-10-05-refund-retries", "2026-10-05T09:30:00Z", false)]);
    assert!(facts(&mut searcher, "quokka ledger").contains(&text.to_string()), "the new fact was not found");

    f.facts(&[Event::NotTrue { fact: lcmem::facts::fact_id(text), at: ts("2026-10-06T00:00:00Z") }]);
    let after = facts(&mut searcher, "quokka ledger");
    assert!(after.iter().all(|t| !t.contains("quokka")), "a fact marked not true was still returned: {after:?}");
}

/// A project of many small sessions over a few shared words, two of them
/// sealed (journal entries), facts from several, and one session the index
/// has not seen yet.
fn many_sessions() -> Fixture {
    sessions_of(31, 6)
}

/// `sessions` sessions of `turns` turns each, drawn from twenty words, the
/// last one written after the index (scanned); a fact for every fourth
/// session, and two sealed.
pub(crate) fn sessions_of(sessions: usize, turns: usize) -> Fixture {
    const WORDS: &[&str] = &[
        "refund",
        "ledger",
        "cache",
        "postgres",
        "retry",
        "webhook",
        "invoice",
        "stripe",
        "timeout",
        "migration",
        "queue",
        "worker",
        "deploy",
        "schema",
        "index",
        "token",
        "billing",
        "report",
        "export",
        "parser",
    ];
    let f = Fixture::new();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut text = |words: usize| (0..words).map(|_| WORDS[next(WORDS.len())]).collect::<Vec<_>>().join(" ");
    let id = |s: usize| format!("2026-10-{:02}-s{s:02}", 1 + s % 28);
    let mut facts = Vec::new();
    for s in 0..sessions {
        let lines: Vec<String> = (0..turns)
            .map(|t| {
                let role = if t % 2 == 0 { "user" } else { "assistant" };
                let at = format!("2026-10-{:02}T10:{:02}:00Z", 1 + s % 28, t);
                message(role, &text(4 + t), &at, &format!("m{s}-{t}"))
            })
            .collect();
        let created = format!("2026-10-{:02}T10:00:00Z", 1 + s % 28);
        if s == sessions - 1 {
            lcmem::recall::refresh_index(&f.store, &mut Quiet).unwrap();
            // Written after the index: scanned, not indexed.
            std::fs::write(f.store.session_path(&id(s)), session_bytes(&id(s), "Late", &created, &lines)).unwrap();
        } else {
            f.import(&id(s), &format!("Session {s}"), &created, &lines);
        }
        if s % 4 == 0 {
            facts.push(observe(&format!("The {} uses the {}.", text(2), text(2)), &id(s), &created, false));
        }
    }
    f.facts(&facts);
    for s in [3, 17] {
        lcmem::seal::seal(
            &f.store,
            &id(s),
            None,
            &lcmem::extract::offline::OfflineExtractor,
            ts("2026-11-28T18:00:00Z"),
        )
        .unwrap();
    }
    f
}

#[test]
fn a_feedback_pass_over_the_best_sessions_scores_each_of_their_units_as_over_all() {
    let f = many_sessions();
    let mut searcher = Searcher::new(f.store.clone()).read_only();
    let ask = |text: &str, kinds: &[HitKind], depth: usize, limit: usize| {
        let mut query = Query::new(text);
        // Lent words re-rank at any size, and the feedback pass covers the
        // sessions of the first ranking's best `depth` units (or `limit`).
        query.tuning.lent_rerank_turns = 0;
        query.tuning.rerank_depth = depth;
        query.tuning.fusion_depth = 0;
        // The first page's spread lifts a hit to the score of the one it
        // displaces, which differs between the two limits.
        query.tuning.page_fresh = 0;
        query.kinds = kinds.to_vec();
        query.limit = limit;
        query
    };
    let (mut compared, mut differed) = (std::collections::BTreeMap::new(), 0);
    for text in
        ["refund ledger", "cache postgres timeout", "webhook retry", "billing export parser", "session 17 queue"]
    {
        for kinds in [&[][..], &[HitKind::Fact], &[HitKind::Journal]] {
            let whole = searcher.search(&ask(text, kinds, 0, 10_000), &mut Quiet).unwrap();
            assert_eq!(whole.coverage.scanned_sessions, 1, "one session is scanned");
            let scores: std::collections::HashMap<&str, f64> =
                whole.hits.iter().map(|h| (h.citation.as_str(), h.score)).collect();
            let narrowed = searcher.search(&ask(text, kinds, 2, 4), &mut Quiet).unwrap();
            for hit in &narrowed.hits {
                assert_eq!(scores.get(hit.citation.as_str()), Some(&hit.score), "{text:?} {kinds:?}: {}", hit.citation);
                *compared.entry(format!("{:?}", hit.kind)).or_insert(0) += 1;
            }
            let cited = |a: &Answer| a.hits.iter().take(4).map(|h| h.citation.clone()).collect::<Vec<_>>();
            differed += usize::from(cited(&narrowed) != cited(&whole));
        }
    }
    // Every kind was compared, and the narrowing did leave units out.
    assert_eq!(compared.len(), 3, "{compared:?}");
    assert!(differed > 0, "no query ranked differently: nothing was left out");
}

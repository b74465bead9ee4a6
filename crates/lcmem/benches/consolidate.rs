//! Consolidation on a large synthetic project: 5,000 sealed sessions and
//! 20,000 facts. Run: `cargo bench -p lcmem --bench consolidate`.
//!
//! The store is generated once through the engine's own write path; each
//! iteration then consolidates it (hand-edit check, decay, selection under
//! the cap, atomic write with history) and the digest is read back. The
//! token count of the result is printed so the cap can be checked.
//!
//! The same store also measures what sealing one more session costs once
//! 5,000 sessions and 20,000 facts are behind it, beside the same seal into
//! an empty store: a seal should cost what it adds, not the size of the logs.

use std::path::Path;

use divan::Bencher;
use jiff::{SignedDuration, Timestamp};
use lcmem::Store;
use lcmem::extract::Outcome;
use lcmem::extract::offline::OfflineExtractor;
use lcmem::facts::{Event, Observation, Origin, fact_id};
use lcmem::journal::{Entry, Record, SealKind};
use lcmem_test_support::{SessionFile, session};

fn main() {
    divan::main();
}

const SESSIONS: usize = 5_000;
const FACTS: usize = 20_000;

struct Project {
    _dir: tempfile::TempDir,
    store: Store,
    now: Timestamp,
}

fn project() -> Project {
    project_of(SESSIONS, FACTS)
}

/// A store with `sessions` journal entries spread over a year and `facts`
/// facts, a quarter of them seen in two sessions.
fn project_of(sessions: usize, facts: usize) -> Project {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("big");
    std::fs::create_dir_all(&root).unwrap();
    let store = Store::open(&dir.path().join("home"), &root).unwrap();
    let now: Timestamp = "2026-11-30T12:00:00Z".parse().unwrap();
    let lock = store.lock().unwrap();
    let areas = ["billing", "search", "auth", "checkout", "catalog", "orders", "mailer", "admin", "api", "jobs"];
    let outcomes = [Outcome::Shipped, Outcome::Fixed, Outcome::Progress, Outcome::Progress, Outcome::Question];
    let mut records = Vec::with_capacity(sessions);
    for i in 0..sessions {
        let at = now - SignedDuration::from_mins((i as i64) * 105);
        let area = areas[i % areas.len()];
        records.push(Record::Sealed(Entry {
            session_id: format!("s{i:05}"),
            sealed_at: at,
            kind: if i % 7 == 0 { SealKind::Archived } else { SealKind::Done },
            title: format!("Work on {area} #{i}"),
            summary: format!("Reworked the {area} module step {i}: moved the handlers into src/{area}/http.rs and added tests for the edge cases."),
            files: vec![format!("src/{area}/http.rs"), format!("src/{area}/mod.rs")],
            decisions: vec![],
            pinned: i % 997 == 0,
            outcome: outcomes[i % outcomes.len()],
            created_at: at,
            last_active: at,
            extractor: "bench".into(),
            covers: None,
            fallback: None,
            cost: None,
        }));
    }
    lcmem::journal::append(&store, &lock, &records).unwrap();
    let mut events = Vec::with_capacity(facts + facts / 4);
    for i in 0..facts {
        let text = format!(
            "The {} component number {i} uses the {} backend.",
            areas[i % areas.len()],
            areas[(i / 10) % areas.len()]
        );
        let sessions = if i % 4 == 0 { 2 } else { 1 };
        for s in 0..sessions {
            let at = now - SignedDuration::from_mins(((i * 3 + s * 17) % (sessions.max(1) * 105)) as i64);
            events.push(Event::Observe(Observation {
                convention: false,
                team: None,
                fact: fact_id(&text),
                text: text.clone(),
                source_session: format!("s{:05}", (i + s * 31) % sessions.max(1)),
                learned_at: at,
                confidence: 0.5,
                confirmed: false,
                origin: Origin::Assistant,
                instruction: false,
                workspace_echo: false,
            }));
        }
    }
    lcmem::facts::append(&store, &lock, &events).unwrap();
    drop(lock);
    Project { _dir: dir, store, now }
}

#[divan::bench(sample_count = 10)]
fn consolidate_5000_sessions_20000_facts(bencher: Bencher) {
    let p = project();
    let report = lcmem::digest::consolidate(&p.store, p.now).unwrap().unwrap();
    eprintln!(
        "\nMEMORY.md: {} tokens of a {}-token cap ({} facts, {} pinned threads, {} recent, {} left out)",
        report.tokens, report.cap, report.facts, report.pinned_threads, report.recently, report.evicted
    );
    let mut tick = 0;
    bencher.bench_local(|| {
        tick += 1;
        lcmem::digest::consolidate(&p.store, p.now + SignedDuration::from_secs(tick)).unwrap()
    });
}

#[divan::bench(sample_count = 50)]
fn digest_read(bencher: Bencher) {
    let p = project();
    lcmem::digest::consolidate(&p.store, p.now).unwrap();
    bencher.bench_local(|| lcmem::digest::digest(&p.store).unwrap());
}

/// A warm recall over the same journal and facts (no transcripts): what the
/// journal and the facts log add to every query.
#[divan::bench(sample_count = 50)]
fn recall_warm_5000_journal_entries_20000_facts(bencher: Bencher) {
    let p = project();
    let mut searcher = lcmem::recall::Searcher::new(p.store.clone()).read_only();
    let queries = ["billing handlers edge cases", "search backend", "auth component 1234", "why did checkout move"];
    let mut i = 0;
    bencher.bench_local(|| {
        i += 1;
        let query = lcmem::recall::Query::new(queries[i % queries.len()]);
        searcher.search(&query, &mut lcmem::recall::Quiet).unwrap()
    });
}

/// A session of a dozen turns with a few things worth remembering.
fn small_session(id: &str) -> String {
    let mut file = SessionFile::new(id, "2026-11-30T09:00:00Z").title("Move the invoice rounding");
    for i in 0..4 {
        file = file.lines([
            session::message("user", &format!("Step {i}: move the invoice rounding into src/billing/round_{i}.rs."), "2026-11-30T09:01:00Z"),
            session::tool("Edit", &[format!("src/billing/round_{i}.rs").as_str()], "2026-11-30T09:02:00Z"),
            session::message(
                "assistant",
                "Done. The billing module uses banker's rounding for every currency, and the tests run with `cargo nextest run`.",
                "2026-11-30T09:03:00Z",
            ),
        ]);
    }
    file.text()
}

/// Seals one new session after another into `p`, in one process, as
/// `lcmem seal --all` does; the first sample also reads the logs whole.
fn seal_one_more(bencher: Bencher, p: &Project) {
    let mut n = 0;
    bencher
        .with_inputs(|| {
            n += 1;
            let id = format!("more{n:05}");
            p.store.import_bytes(Path::new(&format!("{id}.jsonl")), small_session(&id).into_bytes()).unwrap();
            id
        })
        .bench_local_values(|id| lcmem::seal::seal(&p.store, &id, None, &OfflineExtractor, p.now).unwrap());
}

#[divan::bench(sample_count = 50)]
fn seal_one_more_session_after_5000_sessions_20000_facts(bencher: Bencher) {
    let p = project();
    seal_one_more(bencher, &p);
}

#[divan::bench(sample_count = 50)]
fn seal_one_more_session_into_an_empty_store(bencher: Bencher) {
    let p = project_of(0, 0);
    seal_one_more(bencher, &p);
}

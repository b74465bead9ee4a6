//! Seal time for a 1 MB session with the offline extractor.
//!
//! Run: `cargo bench -p lcmem --bench seal`. Each iteration seals a fresh copy
//! of the session in a fresh store, so the figure covers reading and parsing
//! the file, extraction, redaction and the two durable appends.

use divan::Bencher;
use divan::counter::BytesCount;
use lcmem::Store;
use lcmem::extract::offline::OfflineExtractor;
use lcmem::seal::seal;
use lcmem_test_support::{SessionFile, TempDirs, session};

fn main() {
    divan::main();
}

/// A realistic coding session of about `target` bytes: user asks, assistant
/// explains and reports, tools touch files and print output.
fn session(target: usize) -> String {
    let mut file = SessionFile::new("bench", "2026-11-01T09:00:00Z").title("Refactor the billing module");
    let mut len = file.header().len() + 1;
    let mut i = 0;
    while len < target {
        i += 1;
        let round = format!("src/billing/round_{i}.rs");
        let lines = [
            session::message_with_id(
                "user",
                &format!("Step {i}: can you move the invoice rounding into {round} and keep the API?"),
                "2026-11-01T09:01:00Z",
                &format!("u{i}"),
            ),
            session::tool("Edit", &[round.as_str(), "src/billing/mod.rs"], "2026-11-01T09:02:00Z"),
            session::message("tool", &"test result: ok. 212 passed; 0 failed\n".repeat(8), "2026-11-01T09:03:00Z"),
            session::message_with_id(
                "assistant",
                &format!(
                    "I moved the rounding helpers into `{round}` and re-exported them from mod.rs, so callers keep compiling. The billing module uses banker's rounding for every currency. All 212 tests pass; next I will look at the tax tables, which still duplicate the rounding code in three places and should share one helper once this lands."
                ),
                "2026-11-01T09:04:00Z",
                &format!("a{i}"),
            ),
        ];
        len += lines.iter().map(|line| line.len() + 1).sum::<usize>();
        file = file.lines(lines);
    }
    file.text()
}

struct Fixture {
    _dirs: TempDirs,
    store: Store,
}

fn fresh(content: &str) -> Fixture {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    store.import_bytes(std::path::Path::new("bench.jsonl"), content.as_bytes().to_vec()).unwrap();
    Fixture { _dirs: dirs, store }
}

#[divan::bench(sample_count = 30)]
fn seal_1mb_session(bencher: Bencher) {
    let content = session(1 << 20);
    let now = "2026-11-30T12:00:00Z".parse().unwrap();
    bencher.counter(BytesCount::new(content.len())).with_inputs(|| fresh(&content)).bench_local_values(|fixture| {
        seal(&fixture.store, "bench", None, &OfflineExtractor, now).unwrap();
        fixture
    });
}

//! Seal time for a 1 MB session with the offline extractor.
//!
//! Run: `cargo bench -p lcmem --bench seal`. Each iteration seals a fresh copy
//! of the session in a fresh store, so the figure covers reading and parsing
//! the file, extraction, redaction and the two durable appends.

use std::path::PathBuf;

use divan::Bencher;
use divan::counter::BytesCount;
use lcmem::Store;
use lcmem::extract::offline::OfflineExtractor;
use lcmem::seal::seal;

fn main() {
    divan::main();
}

/// A realistic coding session of about `target` bytes: user asks, assistant
/// explains and reports, tools touch files and print output.
fn session(target: usize) -> String {
    let mut out = String::from(
        r#"{"type":"session","v":1,"id":"bench","title":"Refactor the billing module","created_at":"2026-11-01T09:00:00Z"}"#,
    );
    out.push('\n');
    let mut i = 0;
    while out.len() < target {
        i += 1;
        let lines = [
            serde_json::json!({"type":"message","role":"user","text":format!("Step {i}: can you move the invoice rounding into src/billing/round_{i}.rs and keep the API?"),"ts":"2026-11-01T09:01:00Z","id":format!("u{i}")}),
            serde_json::json!({"type":"tool","name":"Edit","files":[format!("src/billing/round_{i}.rs"), "src/billing/mod.rs"],"ts":"2026-11-01T09:02:00Z"}),
            serde_json::json!({"type":"message","role":"tool","text":"test result: ok. 212 passed; 0 failed\n".repeat(8),"ts":"2026-11-01T09:03:00Z"}),
            serde_json::json!({"type":"message","role":"assistant","text":format!("I moved the rounding helpers into `src/billing/round_{i}.rs` and re-exported them from mod.rs, so callers keep compiling. The billing module uses banker's rounding for every currency. All 212 tests pass; next I will look at the tax tables, which still duplicate the rounding code in three places and should share one helper once this lands."),"ts":"2026-11-01T09:04:00Z","id":format!("a{i}")}),
        ];
        for line in lines {
            out.push_str(&line.to_string());
            out.push('\n');
        }
    }
    out
}

struct Fixture {
    _dir: tempfile::TempDir,
    store: Store,
}

fn fresh(content: &str) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let project: PathBuf = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let store = Store::open(&dir.path().join("home"), &project).unwrap();
    store.import_bytes(std::path::Path::new("bench.jsonl"), content.as_bytes().to_vec()).unwrap();
    Fixture { _dir: dir, store }
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

//! Throughput of `redact` on ~8 MB of prose and code-ish text with a few
//! secrets, the shape of what a coding session writes into memory.
//!
//! Run with `cargo bench -p lcmem-redact`; divan reports bytes/s.

use std::sync::LazyLock;

use divan::counter::BytesCount;
use lcmem_test_support::Rng;

fn main() {
    divan::main();
}

const TARGET: usize = 8 * 1024 * 1024;

const WORDS: &[&str] = &[
    "the",
    "memory",
    "session",
    "build",
    "cache",
    "test",
    "failed",
    "because",
    "we",
    "moved",
    "config",
    "into",
    "crate",
    "journal",
    "fact",
    "recall",
    "index",
    "query",
    "user",
    "asked",
    "about",
    "deploy",
    "staging",
    "release",
    "branch",
    "merge",
    "review",
    "fixed",
    "regression",
    "in",
    "parser",
    "when",
    "input",
    "was",
    "empty",
    "and",
    "then",
    "added",
    "a",
    "retry",
    "to",
    "client",
    "with",
    "backoff",
    "limits",
    "are",
    "documented",
    "token",
    "budget",
    "for",
    "each",
    "prompt",
    "key",
    "decision",
    "was",
    "to",
    "keep",
    "files",
    "plain",
    "so",
    "people",
    "can",
    "grep",
    "them",
    "password",
    "rotation",
    "handled",
    "by",
    "vault",
    "not",
    "here",
    "async",
    "runtime",
    "spawned",
    "tasks",
    "join",
    "handle",
    "error",
    "context",
    "anyhow",
    "serde",
];

const CODE: &[&str] = &[
    "fn load(path: &Path) -> anyhow::Result<Config> {",
    "    let raw = std::fs::read_to_string(path).context(\"read config\")?;",
    "    let cfg: Config = toml::from_str(&raw)?;",
    "    for (key, value) in cfg.entries.iter() { index.insert(key, value); }",
    "def refresh(self, token_url: str, timeout: int = 30) -> None:",
    "    resp = self.session.get(token_url, timeout=timeout)",
    "  image: ghcr.io/acme/api:1.4.2",
    "  env:\n    - name: LOG_LEVEL\n      value: info",
    "export PATH=\"$HOME/.cargo/bin:$PATH\"",
    "cargo test -p lcmem --all-features -- --nocapture",
    "See https://docs.example.test/guide/getting-started#install for details.",
];

/// The bench's draws from the shared deterministic generator.
trait Draw {
    fn hex(&mut self, n: usize) -> String;
    fn alnum(&mut self, n: usize) -> String;
}

impl Draw for Rng {
    fn hex(&mut self, n: usize) -> String {
        self.string("0123456789abcdef", n)
    }

    fn alnum(&mut self, n: usize) -> String {
        self.string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", n)
    }
}

fn generate() -> String {
    let mut rng = Rng::new(0x5EED_1234_ABCD_0001);
    let mut s = String::with_capacity(TARGET + 4096);
    let mut since_secret = 0usize;
    while s.len() < TARGET {
        let start = s.len();
        match rng.below(10) {
            0..=5 => {
                let n = 12 + rng.below(30) as usize;
                let words: Vec<&str> = (0..n).map(|_| rng.pick(WORDS)).collect();
                s.push_str(&words.join(" "));
                s.push_str(".\n");
            }
            6 | 7 => {
                s.push_str(rng.pick(CODE));
                s.push('\n');
            }
            8 => {
                let sha = rng.hex(40);
                s.push_str(&format!("{} {} {}\n", &sha[..7], rng.pick(WORDS), rng.pick(WORDS)));
                s.push_str(&format!("checksum = \"{}\"\n", rng.hex(64)));
            }
            _ => {
                s.push_str(&format!(
                    "{{\"id\":\"{}-{}-{}-{}-{}\",\"kind\":\"fact\",\"text\":\"{} {} {}\"}}\n",
                    rng.hex(8),
                    rng.hex(4),
                    rng.hex(4),
                    rng.hex(4),
                    rng.hex(12),
                    rng.pick(WORDS),
                    rng.pick(WORDS),
                    rng.pick(WORDS)
                ));
            }
        }
        since_secret += s.len() - start;
        if since_secret > 200_000 {
            since_secret = 0;
            s.push_str(&format!("GITHUB_TOKEN=ghp_{}\n", rng.alnum(36)));
            s.push_str(&format!("db: postgres://app:{}@db:5432/app\n", rng.alnum(16)));
        }
    }
    s
}

static TEXT: LazyLock<String> = LazyLock::new(generate);

#[divan::bench(sample_count = 20)]
fn redact_prose_and_code(bencher: divan::Bencher) {
    let text = TEXT.as_str();
    bencher.counter(BytesCount::of_str(text)).bench(|| lcmem_redact::redact(divan::black_box(text)).len());
}

#[divan::bench(sample_count = 20)]
fn find_secrets_prose_and_code(bencher: divan::Bencher) {
    let text = TEXT.as_str();
    bencher.counter(BytesCount::of_str(text)).bench(|| lcmem_redact::find_secrets(divan::black_box(text)).len());
}

//! `lcmem-bench synth`: a synthetic project of realistic coding sessions, for
//! measuring recall at scale.
//!
//! Each session is what a coding assistant's transcript looks like: the user
//! asks for something about a part of the code base, the assistant explains
//! and plans, tools read, search and edit files (tool actions with paths),
//! tool output brings back source code, test runs, compiler errors and logs,
//! and the assistant reports. Words are drawn from a fixed vocabulary with a
//! Zipf-like skew (a few words everywhere, most words rare), identifiers are
//! built in camelCase and snake_case, and every number comes from a seeded
//! generator: the same seed always writes the same bytes.
//!
//! The sessions are written straight into a store under `OUT/home`, for the
//! project folder `OUT/project`, as plain session files: exactly what recall
//! must cope with when the index has never seen them.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// SplitMix64: small, fast, and the same everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    /// Skewed towards the start of a list: index ≈ n·u³.
    pub fn zipf(&mut self, n: usize) -> usize {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((u * u * u) * n as f64) as usize % n.max(1)
    }
    pub fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.below(words.len())]
    }
    pub fn pick_skewed<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.zipf(words.len())]
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Things a code base is made of.
pub const NOUNS: &[&str] = &[
    "cache",
    "parser",
    "config",
    "session",
    "request",
    "response",
    "handler",
    "router",
    "token",
    "user",
    "account",
    "order",
    "invoice",
    "payment",
    "refund",
    "webhook",
    "queue",
    "worker",
    "job",
    "scheduler",
    "retry",
    "timeout",
    "connection",
    "pool",
    "database",
    "migration",
    "schema",
    "index",
    "query",
    "cursor",
    "transaction",
    "lock",
    "mutex",
    "channel",
    "stream",
    "buffer",
    "file",
    "path",
    "directory",
    "upload",
    "download",
    "image",
    "thumbnail",
    "report",
    "export",
    "import",
    "template",
    "renderer",
    "component",
    "button",
    "modal",
    "form",
    "validation",
    "error",
    "exception",
    "logger",
    "metric",
    "trace",
    "span",
    "alert",
    "dashboard",
    "deploy",
    "release",
    "build",
    "pipeline",
    "artifact",
    "container",
    "cluster",
    "node",
    "pod",
    "service",
    "endpoint",
    "client",
    "server",
    "socket",
    "event",
    "listener",
    "subscriber",
    "publisher",
    "topic",
    "partition",
    "offset",
    "consumer",
    "producer",
    "serializer",
    "decoder",
    "encoder",
    "codec",
    "checksum",
    "hash",
    "signature",
    "certificate",
    "secret",
    "key",
    "permission",
    "role",
    "policy",
    "audit",
    "tenant",
    "organization",
    "team",
    "project",
    "workspace",
    "branch",
    "commit",
    "merge",
    "diff",
    "patch",
    "changelog",
    "version",
    "dependency",
    "package",
    "module",
    "plugin",
    "extension",
    "theme",
    "locale",
    "translation",
    "timezone",
    "calendar",
    "notification",
    "email",
    "sms",
    "digest",
    "feed",
    "search",
    "ranking",
    "filter",
    "sorter",
    "paginator",
    "batch",
    "chunk",
    "shard",
    "replica",
    "backup",
    "snapshot",
    "restore",
    "rollback",
    "feature",
    "flag",
    "experiment",
    "variant",
    "quota",
    "limit",
    "throttle",
    "billing",
    "subscription",
    "plan",
    "coupon",
    "discount",
    "cart",
    "checkout",
    "shipment",
    "inventory",
    "product",
    "catalog",
    "price",
    "currency",
    "tax",
    "address",
    "profile",
    "avatar",
    "password",
    "login",
    "logout",
    "oauth",
    "callback",
    "redirect",
    "middleware",
    "interceptor",
    "adapter",
    "provider",
    "factory",
    "builder",
    "registry",
    "resolver",
    "loader",
    "watcher",
    "daemon",
    "cron",
    "heartbeat",
    "healthcheck",
    "probe",
    "benchmark",
    "fixture",
    "mock",
    "stub",
    "snapshotter",
    "coverage",
    "lint",
    "formatter",
    "bundle",
    "chunker",
    "minifier",
    "sourcemap",
];

/// What people do to code.
pub const VERBS: &[&str] = &[
    "fix",
    "add",
    "remove",
    "rename",
    "refactor",
    "move",
    "split",
    "merge",
    "update",
    "upgrade",
    "migrate",
    "cache",
    "retry",
    "validate",
    "parse",
    "serialize",
    "render",
    "log",
    "trace",
    "profile",
    "optimize",
    "debug",
    "test",
    "mock",
    "deploy",
    "release",
    "revert",
    "document",
    "simplify",
    "extract",
    "inline",
    "rewrite",
    "handle",
    "throttle",
    "batch",
    "stream",
    "paginate",
    "index",
    "sort",
    "filter",
    "encrypt",
    "decrypt",
    "sign",
    "verify",
];

pub const ADJECTIVES: &[&str] = &[
    "flaky",
    "slow",
    "broken",
    "stale",
    "missing",
    "duplicate",
    "async",
    "legacy",
    "nested",
    "optional",
    "empty",
    "invalid",
    "expired",
    "concurrent",
    "partial",
    "cached",
    "public",
    "private",
    "internal",
    "generated",
    "default",
    "nullable",
    "recursive",
    "lazy",
    "eager",
    "idempotent",
    "transient",
    "fatal",
    "unexpected",
    "deprecated",
];

const FILLER: &[&str] = &[
    "the", "a", "this", "that", "it", "is", "was", "we", "you", "I", "to", "of", "in", "for", "on", "with", "when",
    "and", "but", "so", "because", "now", "then", "also", "just", "still", "already", "should", "could", "would",
    "there", "here", "which", "after", "before", "again", "every", "some", "all", "only", "not",
];

const DIRS: &[&str] = &["src", "lib", "app", "server", "web", "api", "core", "internal", "pkg", "services", "tests"];
const EXTS: &[&str] = &["rs", "ts", "tsx", "py", "go", "js", "sql", "toml", "yaml", "json", "md"];
const LEVELS: &[&str] = &["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
const TOOLS: &[&str] = &["Read", "Edit", "Write", "Grep", "Bash", "Glob"];

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// A camelCase or snake_case identifier.
pub fn identifier(rng: &mut Rng) -> String {
    let a = rng.pick(VERBS);
    let b = rng.pick_skewed(NOUNS);
    match rng.below(4) {
        0 => format!("{a}{}", capitalise(b)),
        1 => format!("{a}_{b}"),
        2 => format!("{}{}", capitalise(b), capitalise(rng.pick_skewed(NOUNS))),
        _ => format!("{b}_{}", rng.pick_skewed(NOUNS)),
    }
}

pub fn file_path(rng: &mut Rng) -> String {
    let dir = rng.pick(DIRS);
    let sub = rng.pick_skewed(NOUNS);
    let name = match rng.below(3) {
        0 => rng.pick_skewed(NOUNS).to_string(),
        1 => format!("{}_{}", rng.pick_skewed(NOUNS), rng.pick_skewed(NOUNS)),
        _ => format!("{}{}", rng.pick_skewed(NOUNS), capitalise(rng.pick_skewed(NOUNS))),
    };
    format!("{dir}/{sub}/{name}.{}", rng.pick(EXTS))
}

/// A sentence of prose about the topic.
fn sentence(rng: &mut Rng, topic: &[&str]) -> String {
    let mut words: Vec<String> = Vec::new();
    let n = rng.range(8, 22);
    for i in 0..n {
        let w = match rng.below(10) {
            0..=3 => rng.pick(FILLER).to_string(),
            4 | 5 => rng.pick(topic).to_string(),
            6 => rng.pick_skewed(NOUNS).to_string(),
            7 => rng.pick(VERBS).to_string(),
            8 => rng.pick(ADJECTIVES).to_string(),
            _ => {
                if rng.chance(50) {
                    format!("`{}`", identifier(rng))
                } else {
                    rng.pick_skewed(NOUNS).to_string()
                }
            }
        };
        words.push(if i == 0 { capitalise(&w) } else { w });
    }
    let mut s = words.join(" ");
    s.push(if rng.chance(15) { '?' } else { '.' });
    s
}

fn paragraph(rng: &mut Rng, topic: &[&str], sentences: usize) -> String {
    (0..sentences).map(|_| sentence(rng, topic)).collect::<Vec<_>>().join(" ")
}

/// Source code as a tool reads it back.
fn code(rng: &mut Rng, lines: usize) -> String {
    let mut out = String::new();
    for i in 0..lines {
        let indent = "    ".repeat(rng.below(3));
        let line = match rng.below(6) {
            0 => format!(
                "fn {}({}: &{}) -> Result<{}> {{",
                identifier(rng),
                rng.pick_skewed(NOUNS),
                capitalise(rng.pick_skewed(NOUNS)),
                capitalise(rng.pick_skewed(NOUNS))
            ),
            1 => format!("let {} = {}.{}()?;", rng.pick_skewed(NOUNS), rng.pick_skewed(NOUNS), identifier(rng)),
            2 => format!(
                "if {}.is_{}() {{ return Err(Error::{}); }}",
                rng.pick_skewed(NOUNS),
                rng.pick(ADJECTIVES),
                capitalise(rng.pick(ADJECTIVES))
            ),
            3 => format!("// {}", sentence(rng, NOUNS)),
            4 => format!("{}.insert(\"{}\", {});", rng.pick_skewed(NOUNS), rng.pick_skewed(NOUNS), rng.below(10_000)),
            _ => "}".to_string(),
        };
        writeln!(out, "{:>4} {indent}{line}", i + 1).unwrap();
    }
    out
}

/// Log lines or a test run.
fn logs(rng: &mut Rng, lines: usize, day: u32) -> String {
    let mut out = String::new();
    for _ in 0..lines {
        let (h, m, s) = (rng.below(24), rng.below(60), rng.below(60));
        let level = rng.pick(LEVELS);
        let msg = match rng.below(5) {
            0 => format!(
                "{} {} failed: {} after {}ms",
                rng.pick_skewed(NOUNS),
                rng.pick_skewed(NOUNS),
                rng.pick(ADJECTIVES),
                rng.below(5000)
            ),
            1 => format!(
                "request_id={:016x} {} {} status={}",
                rng.next(),
                rng.pick(&["GET", "POST", "PUT", "DELETE"]),
                file_path(rng).replace('.', "/"),
                rng.pick(&["200", "201", "204", "400", "404", "409", "500", "503"])
            ),
            2 => format!(
                "test {}::{} ... {}",
                rng.pick_skewed(NOUNS),
                identifier(rng),
                rng.pick(&["ok", "ok", "ok", "FAILED", "ignored"])
            ),
            3 => format!(
                "error[E0{}]: {} `{}` in {}:{}",
                rng.range(100, 799),
                rng.pick(&["mismatched types", "cannot borrow", "unresolved import", "use of moved value"]),
                identifier(rng),
                file_path(rng),
                rng.range(1, 900)
            ),
            _ => format!(
                "{} {} {} in {} ms",
                rng.pick(VERBS),
                rng.pick_skewed(NOUNS),
                rng.pick_skewed(NOUNS),
                rng.below(900)
            ),
        };
        writeln!(out, "2026-{:02}-{:02}T{h:02}:{m:02}:{s:02}Z {level} {msg}", 1 + day / 28 % 12, 1 + day % 28).unwrap();
    }
    out
}

fn line(kind: &str, role: &str, text: &str, ts: &str, id: usize) -> String {
    serde_json::json!({"type": kind, "role": role, "text": text, "ts": ts, "id": format!("m{id}")}).to_string()
}

/// One session's file content, about `target` bytes.
pub fn session(rng: &mut Rng, n: usize, target: usize) -> (String, String) {
    let day = (n * 3 / 7) as u32;
    let date = jiff::civil::date(2024, 1, 1).checked_add(jiff::Span::new().days(i64::from(day))).expect("in range");
    let topic: Vec<&str> = (0..4).map(|_| rng.pick_skewed(NOUNS)).collect();
    let id = format!("{date}-{}-{}-{n:05}", topic[0], topic[1]);
    let title = format!("{} the {} {} {}", capitalise(rng.pick(VERBS)), rng.pick(ADJECTIVES), topic[0], topic[1]);
    let mut out = serde_json::json!({"type": "session", "v": 1, "id": id, "title": title, "created_at": format!("{date}T09:00:00Z")}).to_string();
    out.push('\n');
    let mut minute = 0;
    let mut msg = 0;
    while out.len() < target {
        minute += 1;
        let ts = format!("{date}T{:02}:{:02}:00Z", 9 + minute / 60 % 14, minute % 60);
        msg += 1;
        let k = rng.range(1, 3);
        let ask = format!(
            "{} {}",
            paragraph(rng, &topic, k),
            if rng.chance(40) { format!("See {}.", file_path(rng)) } else { String::new() }
        );
        out.push_str(&line("message", "user", ask.trim(), &ts, msg));
        out.push('\n');
        msg += 1;
        let k = rng.range(2, 8);
        out.push_str(&line("message", "assistant", &paragraph(rng, &topic, k), &ts, msg));
        out.push('\n');
        for _ in 0..rng.range(1, 4) {
            let files: Vec<String> = (0..rng.range(1, 3)).map(|_| file_path(rng)).collect();
            out.push_str(
                &serde_json::json!({"type": "tool", "name": rng.pick(TOOLS), "files": files, "ts": ts}).to_string(),
            );
            out.push('\n');
            msg += 1;
            let output = if rng.chance(50) {
                let k = rng.range(10, 120);
                code(rng, k)
            } else {
                let k = rng.range(5, 80);
                logs(rng, k, day)
            };
            out.push_str(&line("message", "tool", &output, &ts, msg));
            out.push('\n');
        }
        msg += 1;
        let k = rng.range(1, 4);
        out.push_str(&line("message", "assistant", &paragraph(rng, &topic, k), &ts, msg));
        out.push('\n');
    }
    if rng.chance(60) {
        out.push_str(&serde_json::json!({"type": "status", "status": if rng.chance(80) { "done" } else { "archived" }, "ts": format!("{date}T23:00:00Z")}).to_string());
        out.push('\n');
    }
    (id, out)
}

/// Where a synthetic project's store lives.
pub fn store_paths(out: &Path) -> (PathBuf, PathBuf) {
    (out.join("home"), out.join("project"))
}

pub fn run(sessions: usize, out: &Path, seed: u64, mean_bytes: usize) -> anyhow::Result<String> {
    let (home, project) = store_paths(out);
    std::fs::create_dir_all(&project).with_context(|| format!("cannot create {}", project.display()))?;
    let store = lcmem::Store::open(&home, &project)?;
    std::fs::create_dir_all(store.dir()).with_context(|| format!("cannot create {}", store.dir().display()))?;
    let mut rng = Rng::new(seed);
    let mut total = 0u64;
    let started = std::time::Instant::now();
    for n in 0..sessions {
        // Sizes vary a lot in real projects: from a quick question to a long day.
        let target = mean_bytes / 4 + rng.zipf(mean_bytes * 3);
        let (id, text) = session(&mut rng, n, target);
        let path = store.session_path(&id);
        let mut file = std::fs::File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
        file.write_all(text.as_bytes())?;
        total += text.len() as u64;
        if (n + 1) % 1000 == 0 {
            eprintln!("  {} sessions, {:.0} MB", n + 1, total as f64 / 1e6);
        }
    }
    Ok(format!(
        "wrote {sessions} sessions, {:.1} MB, into {} in {:.1} s (seed {seed})\nproject: --home {} --project {}\n",
        total as f64 / 1e6,
        store.dir().display(),
        started.elapsed().as_secs_f64(),
        home.display(),
        project.display()
    ))
}

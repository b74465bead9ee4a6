//! The synthetic project's words: a seeded generator, the vocabulary every
//! code base shares (cache, parser, retry, …), and a project lexicon of a few
//! thousand names of its own (modules, services, types), drawn with a skew so
//! that a handful recur everywhere and most are rare, as in a real project.

use std::sync::OnceLock;

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

pub const FILLER: &[&str] = &[
    "the", "a", "this", "that", "it", "is", "was", "we", "you", "I", "to", "of", "in", "for", "on", "with", "when",
    "and", "but", "so", "because", "now", "then", "also", "just", "still", "already", "should", "could", "would",
    "there", "here", "which", "after", "before", "again", "every", "some", "all", "only", "not",
];

pub const DIRS: &[&str] =
    &["src", "lib", "app", "server", "web", "api", "core", "internal", "pkg", "services", "tests"];
pub const EXTS: &[&str] = &["rs", "ts", "tsx", "py", "go", "js", "sql", "toml", "yaml", "json", "md"];
pub const LEVELS: &[&str] = &["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
pub const TOOLS: &[&str] = &["Read", "Edit", "Write", "Grep", "Bash", "Glob"];

pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// The project's own names: pseudo-words of two or three syllables, fixed
/// for every run.
pub fn lexicon() -> &'static [String] {
    static LEXICON: OnceLock<Vec<String>> = OnceLock::new();
    LEXICON.get_or_init(|| {
        const ONSETS: &[&str] = &[
            "b", "br", "k", "d", "f", "g", "gr", "h", "j", "l", "m", "n", "p", "qu", "r", "s", "st", "t", "tr", "v",
            "z",
        ];
        const VOWELS: &[&str] = &["a", "e", "i", "o", "u", "ai", "ou"];
        const CODAS: &[&str] = &["", "n", "r", "l", "x", "s", "th", "m", "k"];
        let mut rng = Rng::new(0x1E71C0);
        let mut names = Vec::with_capacity(LEXICON_SIZE);
        let mut seen = std::collections::HashSet::new();
        while names.len() < LEXICON_SIZE {
            let syllables = rng.range(2, 3);
            let word: String = (0..syllables)
                .map(|_| format!("{}{}{}", rng.pick(ONSETS), rng.pick(VOWELS), rng.pick(CODAS)))
                .collect();
            if seen.insert(word.clone()) {
                names.push(word);
            }
        }
        names
    })
}

/// How many names the project lexicon holds.
pub const LEXICON_SIZE: usize = 5000;

/// A project name, skewed: a few are everywhere, most are rare.
pub fn project_name(rng: &mut Rng) -> &'static str {
    &lexicon()[rng.zipf(LEXICON_SIZE)]
}

/// A camelCase or snake_case identifier.
pub fn identifier(rng: &mut Rng) -> String {
    let a = rng.pick(VERBS);
    let b = rng.pick_skewed(NOUNS);
    match rng.below(6) {
        4 => return format!("{}{}", project_name(rng), capitalise(b)),
        5 => return format!("{a}_{}", project_name(rng)),
        _ => {}
    }
    match rng.below(4) {
        0 => format!("{a}{}", capitalise(b)),
        1 => format!("{a}_{b}"),
        2 => format!("{}{}", capitalise(b), capitalise(rng.pick_skewed(NOUNS))),
        _ => format!("{b}_{}", rng.pick_skewed(NOUNS)),
    }
}

pub fn file_path(rng: &mut Rng) -> String {
    let dir = rng.pick(DIRS);
    let sub = if rng.chance(50) { project_name(rng) } else { rng.pick_skewed(NOUNS) };
    let name = match rng.below(3) {
        0 => rng.pick_skewed(NOUNS).to_string(),
        1 => format!("{}_{}", rng.pick_skewed(NOUNS), rng.pick_skewed(NOUNS)),
        _ => format!("{}{}", rng.pick_skewed(NOUNS), capitalise(rng.pick_skewed(NOUNS))),
    };
    format!("{dir}/{sub}/{name}.{}", rng.pick(EXTS))
}

//! What is not a fact however it is phrased: discourse openers, status
//! lines, evaluations, plan steps, passing measurements, talk about the
//! conversation or the assistant, and textbook definitions.

use std::sync::LazyLock;

use regex::Regex;

use crate::facts::normalize;
use crate::facts::subject::Statement;

/// Words that open talk, not a statement: "So…", "Now…", "OK", "nah".
const OPENERS: &[&str] = &[
    "so",
    "now",
    "ok",
    "okay",
    "nah",
    "well",
    "yes",
    "yeah",
    "yep",
    "no",
    "nope",
    "right",
    "great",
    "perfect",
    "good",
    "alright",
    "actually",
    "hmm",
    "sure",
    "done",
    "absolutely",
    "indeed",
    "excellent",
    "awesome",
    "cool",
    "thanks",
    "thank",
    "thx",
    "ty",
    "oh",
    "ah",
    "anyway",
    "basically",
    "first",
    "next",
    "then",
    "finally",
    "also",
    "plus",
    "lgtm",
    "hi",
    "hello",
    "hey",
    "understood",
    "got",
    "nice",
    "wow",
    "oops",
    "sorry",
    "note",
    "btw",
    "just",
];

/// Verbs that start a step of a plan or a request ("Verify …", "Update …").
const IMPERATIVES: &[&str] = &[
    "add",
    "verify",
    "ensure",
    "implement",
    "create",
    "remove",
    "refactor",
    "write",
    "document",
    "investigate",
    "confirm",
    "extend",
    "replace",
    "rename",
    "delete",
    "make",
    "keep",
    "put",
    "let",
    "try",
    "consider",
    "show",
    "explain",
    "tell",
    "read",
    "open",
    "go",
    "wire",
    "bump",
    "prepare",
    "analyze",
    "analyse",
    "search",
    "explore",
    "please",
    "migrate",
    "revert",
    "continue",
    "handle",
    "send",
    "include",
    "pass",
    "return",
    "skip",
    "fix",
    "refresh",
    "clean",
    "introduce",
    "enable",
    "disable",
    "expose",
    "mark",
    "move",
    "split",
    "reuse",
    "leverage",
    "define",
    "describe",
    "compare",
    "measure",
    "restart",
    "retry",
    "wait",
    "ask",
    "pick",
    "choose",
    "decide",
    "give",
    "provide",
    "print",
    "apply",
    "resolve",
    "figure",
    "double-check",
    "cut",
    "drop",
];

/// Verbs that are also nouns ("release builds are signed"): a step only
/// when what follows is a determiner ("update the docs").
const NOUN_VERBS: &[&str] = &[
    "update", "check", "run", "test", "build", "change", "store", "track", "list", "find", "look", "set", "start",
    "stop", "use", "review", "commit", "push", "merge", "deploy", "tag", "release", "call", "install", "switch",
    "load", "parse", "log", "profile", "sync", "scan", "process", "query", "record", "report", "ship", "upload",
    "download",
];

const DETERMINERS: &[&str] = &[
    "the", "a", "an", "all", "both", "each", "every", "this", "that", "these", "those", "it", "them", "our", "your",
    "my", "its", "their", "any", "some", "to", "up", "out", "in", "on", "with", "for", "me", "us",
];

/// Words that make a sentence talk about the conversation or its speakers.
const SPEAKER_WORDS: &[&str] = &[
    "i",
    "i'm",
    "i've",
    "i'll",
    "i'd",
    "me",
    "my",
    "you",
    "your",
    "you're",
    "you've",
    "yours",
    "let's",
    "here's",
    "assistant",
    "conversation",
];

/// "The task is complete.", "All tests pass.", "X is running now", "is ready for review".
static STATUS: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?ix)\b(?:is|are|was|were|looks?|seems?)\s+(?:now\s+|all\s+|still\s+|already\s+|fully\s+|both\s+)*
        (?:complete|completed|done|finished|ready|green|passing|running|in\s+place|fixed|working|synced|up\s+to\s+date
        |unchanged|untouched|good\s+to\s+go|merged|committed|pushed|small|scoped|red|failing|broken|resolved|applied
        |live|gone|successful|implemented|addressed|handled|covered|verified|confirmed|tested|ok|okay|fine|deleted
        |removed|added|created|renamed|moved|new)\b
        |\b(?:tests?|checks?|builds?|ci|lint|suite)\s+(?:all\s+)?(?:pass|passes|passed|succeed|succeeds|fail|fails)\b
        |\b(?:running|in\s+progress)\s+now\b",
    )
});

/// Adjectives of judgement: "crucial", "much cleaner", "straightforward".
static EVALUATIVE: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?ix)^(?:(?:now|much|really|very|quite|so|also|indeed|actually|pretty|even|more|far|definitely|absolutely
        |still|all|already|clearly|perfectly|fully|a|an|the|too|way|super|extremely|incredibly|generally|usually)\s+)*
        (?:crucial|important|key|critical|essential|vital|straightforward|simple|simpler|simplest|easy|easier|clean
        |cleaner|cleanest|nice|nicer|great|good|better|best|perfect|elegant|robust|correct|right|wrong|interesting
        |helpful|useful|fine|ok|okay|awesome|excellent|tricky|hard|harder|difficult|complex|powerful|flexible|ideal
        |obvious|clear|clearer|valid|invalid|bad|worse|redundant|unnecessary|necessary|possible|impossible|fast
        |faster|slow|slower|safe|safer|solid|neat|handy|trivial|minor|major|significant|reasonable|sensible
        |promising|supported|needed|required|welcome|cheap|expensive|idiomatic|consistent|readable|sound|happy
        |glad|sure|likely|unlikely|true|false|done)\b",
    )
});

/// "23 call sites", "9 files", "300 lines": a count that was true that day.
static MEASUREMENT: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?ix)\b\d[\d,.]*\s*(?:%|x\b|ms\b|s\b|sec|seconds?|minutes?|mins?|hours?|lines?|files?|tests?|cases?
        |call\s+sites?|calls|commits?|findings?|issues?|errors?|warnings?|runs|times|places|modules?|functions?
        |sessions?|messages?|records?|rows?|items?|entries|occurrences|matches|hits|changes)\b
        |^(?:now\s+)?(?:~|about\s+|around\s+|roughly\s+|over\s+|under\s+|nearly\s+|almost\s+)?\d",
    )
});

/// Subjects that are talk about the work, not parts of the project.
const META_SUBJECTS: &[&str] = &[
    "solution",
    "approach",
    "design",
    "idea",
    "plan",
    "fix",
    "change",
    "changes",
    "diff",
    "insight",
    "pattern",
    "goal",
    "trick",
    "point",
    "challenge",
    "proposal",
    "option",
    "options",
    "summary",
    "task",
    "tasks",
    "step",
    "steps",
    "output",
    "response",
    "request",
    "conversation",
    "analysis",
    "reason",
    "difference",
    "benefit",
    "downside",
    "tradeoff",
    "catch",
    "concern",
    "takeaway",
    "example",
    "demo",
    "work",
    "rest",
    "status",
    "outcome",
    "verification",
    "feedback",
    "findings",
    "finding",
    "part",
    "phase",
    "next",
    "cause",
    "root",
    "need",
    "case",
    "cases",
    "good",
    "news",
    "issue",
    "problem",
    "question",
    "answer",
    "result",
    "thing",
    "bottom",
    "line",
    "gist",
    "upshot",
    "situation",
    "scenario",
    "flow",
];

/// A label in front of a statement ("Changed: the storage backend is
/// minio-go", "`src/cache.rs`: the cache …"): up to four words, no verb.
static LABEL: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::regex(r"^(?P<label>[^:]{1,48}?)\s*(?:\([^)]*\))?:\s+(?P<rest>\S.*)$"));

const VERBS: &[&str] = &["is", "are", "was", "were", "has", "have", "uses", "use", "runs", "lives", "goes", "means"];

/// The sentence without a short label in front of it.
pub(super) fn without_label(sentence: &str) -> String {
    if let Some(caps) = LABEL.captures(sentence) {
        let label = normalize(&caps["label"]);
        let words: Vec<&str> = label.split_whitespace().collect();
        if !words.is_empty() && words.len() <= 4 && !words.iter().any(|w| VERBS.contains(w)) {
            return caps["rest"].to_string();
        }
    }
    sentence.to_string()
}

/// Whether a clause is chatter whatever its grammar.
pub(super) fn is_chatter(clause: &str) -> bool {
    let clause = clause.trim();
    if clause.ends_with('?') || clause.ends_with(':') || clause.starts_with('|') || clause.chars().count() < 8 {
        return true;
    }
    if crate::extract::claims::HEDGED.is_match(clause) {
        return true;
    }
    let lower = clause.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '!' | '.' | ':' | ';' | '(' | ')' | '"'))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_matches(|c: char| c == '*' || c == '`' || c == '_'))
        .collect();
    let first = words.first().copied().unwrap_or("");
    let second = words.get(1).copied().unwrap_or("");
    if OPENERS.contains(&first)
        || IMPERATIVES.contains(&first)
        || NOUN_VERBS.contains(&first) && (DETERMINERS.contains(&second) || words.len() <= 2)
    {
        return true;
    }
    if words.iter().any(|w| SPEAKER_WORDS.contains(w)) {
        return true;
    }
    // Work still to do, and a need is not a fact yet.
    if lower.contains("need to") || lower.contains("needs to") || lower.contains("no need") {
        return true;
    }
    // A textbook definition: "A decorator is a design pattern that …".
    if (first == "a" || first == "an") && words.iter().skip(2).take(6).any(|w| *w == "is" || *w == "are") {
        return true;
    }
    false
}

/// Whether a person's sentence is a request ("Update tests to use an
/// ephemeral DB", "evaluate how this is handled"): a task of that day, not a
/// fact. A rule given as an order ("Never use X") is not one: it is
/// recorded, and withheld until confirmed.
pub(super) fn is_request(clause: &str) -> bool {
    let first = clause.split_whitespace().next().unwrap_or("").to_lowercase();
    let first = first.trim_matches(|c: char| !c.is_alphanumeric());
    let verb = IMPERATIVES.contains(&first)
        || NOUN_VERBS.contains(&first)
        || ["evaluate", "review", "refine", "rewrite", "cleanup", "audit", "help", "can", "could", "would", "will"]
            .contains(&first);
    let rule = ["always", "never", "don't", "do not", "must", "only"].iter().any(|w| clause.to_lowercase().contains(w));
    verb && !rule
}

/// Whether a text reports a status of the day: "The task is complete.",
/// "All tests pass.", "`cargo build` is running now".
pub(super) fn is_status(text: &str) -> bool {
    STATUS.is_match(text)
}

/// Why a parsed statement says nothing lasting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Idle {
    /// Talk about the work itself: "the solution is …".
    Meta,
    /// A judgement: "performance is crucial", "is much cleaner".
    Judgement,
    /// A count that was true that day.
    Count,
    /// What a listing showed: "the files are alpha.txt and beta.txt".
    Inventory,
}

/// "index.ts is 2,400 lines", "the suite has 412 tests": a count of the
/// code that the day's work changes. A limit or a duration the person set
/// ("100 requests per minute", "a 5 minute TTL") is none.
pub(super) fn counts_the_code(text: &str) -> bool {
    static COUNT: LazyLock<Regex> = LazyLock::new(|| {
        crate::pattern::regex(
            r"(?ix)\b\d[\d,.]*\s*(?:lines?|loc|files?|tests?|call\s+sites?|commits?|errors?|warnings?|occurrences|matches|todos?|[kmg]i?b|bytes)\b",
        )
    });
    COUNT.is_match(text)
}

/// Whether (and why) a parsed statement says nothing lasting.
pub(super) fn idle(s: &Statement) -> Option<Idle> {
    if is_meta_subject(&s.subject) {
        return Some(Idle::Meta);
    }
    let object = s.object.as_str();
    if MEASUREMENT.is_match(object) {
        return Some(Idle::Count);
    }
    // A name in a code span (`good_job`) is no judgement.
    let first = object.split_whitespace().next().unwrap_or("");
    let named =
        s.text.split('`').skip(1).step_by(2).any(|span| normalize(span).split_whitespace().next() == Some(first));
    if !named && EVALUATIVE.is_match(object) {
        return Some(Idle::Judgement);
    }
    let files = s.text.split_whitespace().filter(|w| is_file_name(w)).count();
    (s.relation == "is" && files >= 2).then_some(Idle::Inventory)
}

/// Whether a subject is talk about the work ("the solution", "the key insight").
pub(super) fn is_meta_subject(subject: &str) -> bool {
    normalize(subject).split_whitespace().any(|w| META_SUBJECTS.contains(&w))
}

fn is_file_name(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
    w.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphabetic())
    })
}

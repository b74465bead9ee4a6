//! A fact as memory keeps it: a whole sentence that names its subject and
//! states how things are now.
//!
//! A candidate is judged by its grammar, and mended where it can be:
//!
//! - a sentence that leans on the one before it through a connective ("And
//!   the cache lives in Redis", "Also, tests run on CI") stands once the
//!   connective goes, when what is left has a subject and a verb; a
//!   subordinate clause with its main clause ("When the king is captured,
//!   the game ends") is whole as it is, and one without ("Because the cache
//!   missed") is a fragment;
//! - a subject that points at something said before ("it", "this") names
//!   nothing, and the sentence is left to the journal;
//! - a sentence in lower case that still has its subject and verb ("emails
//!   are stripped before insert") is whole and only capitalised; one that
//!   opens with a bare verb was cut from a request ("evaluate how this is
//!   handled") and is none;
//! - an event ("Fixed the rock to use the system python instead of a
//!   virtualenv", "Switched the tests from Jest to Vitest") is rewritten as
//!   the state it left ("The rock uses the system python instead of a
//!   virtualenv."), when its shape says what that state is, and is otherwise
//!   the journal's.

use std::sync::LazyLock;

use regex::Regex;

use super::Clause;

/// Words that tie a sentence to the one before it when they open it: the
/// coordinating conjunctions and the adverbs that join clauses.
const CONNECTIVES: &[&str] = &[
    "additionally",
    "again",
    "also",
    "and",
    "besides",
    "but",
    "furthermore",
    "hence",
    "however",
    "meanwhile",
    "moreover",
    "nor",
    "or",
    "otherwise",
    "plus",
    "so",
    "still",
    "then",
    "therefore",
    "thus",
    "too",
    "yet",
];

/// Words that open a subordinate clause: whole only with its main clause.
const SUBORDINATORS: &[&str] = &[
    "after", "although", "as", "because", "before", "if", "once", "since", "though", "unless", "until", "when",
    "whenever", "where", "whereas", "which", "while",
];

/// Subjects that point at something said before instead of naming it.
const POINTERS: &[&str] =
    &["it", "this", "that", "these", "those", "they", "them", "he", "she", "here", "its", "both", "either"];

/// Verbs a request opens with (their plain form, which the imperative
/// takes). A sentence whose first word is one is the day's task ("fix the
/// login bug", "pin this"), or a clause cut from one, unless it states a rule.
pub const REQUEST_VERBS: &[&str] = &[
    "accept", "adapt", "add", "adjust", "align", "allow", "analyse", "analyze", "annotate", "append", "apply",
    "archive", "ask", "assign", "attach", "audit", "automate", "avoid", "backfill", "backport", "bake", "batch",
    "belong", "benchmark", "bind", "block", "bootstrap", "bound", "break", "bring", "build", "bump", "bundle",
    "cache", "calculate", "call", "can", "cancel", "capture", "carry", "center", "centre", "change", "check",
    "choose", "clarify", "clean", "cleanup", "clear", "clone", "close", "collapse", "collect", "combine", "comment",
    "commit", "compare", "compile", "complete", "compress", "compute", "configure", "confirm", "connect", "consider",
    "consolidate", "construct", "contain", "continue", "convert", "copy", "correct", "could", "count", "cover",
    "create", "crop", "cut", "deactivate", "debug", "decide", "decompose", "decouple", "decrease", "dedup", "dedupe",
    "define", "delete", "depend", "deploy", "deprecate", "describe", "design", "detect", "determine", "develop",
    "diagnose", "diff", "differ", "disable", "discard", "display", "document", "double", "download", "draft", "drag",
    "draw", "drop", "dump", "duplicate", "edit", "elaborate", "embed", "emit", "enable", "encode", "encrypt",
    "enforce", "ensure", "enter", "estimate", "evaluate", "examine", "execute", "exist", "expand", "expect",
    "explain", "explore", "export", "expose", "extend", "extract", "fetch", "fill", "filter", "finalise", "finalize",
    "find", "finish", "fit", "fix", "flag", "flatten", "flip", "focus", "fold", "follow", "force", "fork", "format",
    "forward", "free", "freeze", "gather", "generate", "get", "give", "go", "grab", "group", "guard", "guess",
    "handle", "happen", "hash", "help", "hide", "highlight", "hold", "hook", "identify", "ignore", "implement",
    "import", "improve", "include", "increase", "indent", "index", "infer", "initialize", "inline", "insert",
    "inspect", "install", "integrate", "introduce", "invert", "investigate", "invoke", "isolate", "iterate", "join",
    "keep", "kill", "label", "launch", "lay", "layout", "learn", "leave", "let", "let's", "lie", "lift", "limit",
    "link", "lint", "list", "live", "load", "localize", "locate", "lock", "log", "look", "lower", "make", "map",
    "mark", "match", "matter", "mean", "measure", "merge", "migrate", "minify", "mirror", "mock", "modify", "monitor",
    "mount", "move", "name", "narrow", "need", "normalize", "note", "notify", "obtain", "omit", "open", "optimise",
    "optimize", "order", "organize", "output", "override", "own", "pack", "package", "paginate", "parse", "paste",
    "patch", "pause", "persist", "pick", "pin", "place", "plan", "play", "plot", "point", "polish", "poll",
    "populate", "port", "post", "pre-commit", "prefer", "prefix", "prepare", "present", "preserve", "pretty-print",
    "prevent", "print", "prioritize", "process", "produce", "profile", "promote", "prompt", "propose", "protect",
    "prototype", "provide", "prune", "publish", "pull", "purge", "push", "put", "query", "queue", "raise", "reach",
    "rebase", "rebuild", "recompute", "reconcile", "record", "recover", "redesign", "redirect", "redo", "reduce",
    "refactor", "refine", "reformat", "refresh", "register", "reindex", "reject", "release", "reload", "rely",
    "remain", "remember", "remind", "remove", "rename", "render", "reorder", "reorganize", "repair", "repeat",
    "rephrase", "replace", "reply", "report", "reproduce", "request", "require", "rerun", "research", "reset",
    "reshape", "resize", "resolve", "respond", "restart", "restore", "restrict", "restructure", "resume", "retry",
    "return", "reuse", "revert", "review", "revise", "revisit", "rewire", "rework", "rewrite", "roll", "rotate",
    "round", "route", "run", "sanitize", "save", "scaffold", "scale", "scan", "schedule", "scope", "scroll", "search",
    "secure", "seed", "seem", "select", "send", "separate", "serialize", "serve", "set", "setup", "share", "shift",
    "ship", "shorten", "show", "shrink", "sign", "simplify", "sit", "skip", "slice", "slow", "snapshot", "solve",
    "sort", "spawn", "specify", "speed", "split", "squash", "stabilize", "stage", "stand", "start", "stash", "stay",
    "stop", "store", "stream", "strip", "stub", "style", "submit", "subscribe", "suggest", "summarise", "summarize",
    "support", "suppress", "swap", "switch", "sync", "tag", "take", "talk", "tell", "test", "throttle", "tidy",
    "time", "toggle", "track", "train", "transform", "translate", "treat", "trigger", "trim", "truncate", "try",
    "tune", "turn", "tweak", "type", "unblock", "uncomment", "undo", "unify", "uninstall", "unpin", "unstage",
    "update", "upgrade", "upload", "use", "validate", "vary", "verify", "visualize", "wait", "walk", "want", "warn",
    "watch", "will", "wire", "would", "wrap", "write",
];

/// Past tenses that do not end in "-ed", for the event rule.
const IRREGULAR_PAST: &[&str] =
    &["wrote", "made", "built", "ran", "set", "split", "cut", "took", "gave", "put", "drew", "kept", "left", "got"];

/// A fact as it should stand in memory: one whole sentence that names its
/// subject and says how things are, mended when its grammar allows, or
/// `None`.
pub fn fact_text(text: &str) -> Option<String> {
    let text = without_connective(text.trim());
    let text = first_event(&text).and_then(|event| state_of_event(&event)).unwrap_or(text);
    let first = first_word(&text);
    if POINTERS.contains(&first.as_str()) {
        return None;
    }
    if SUBORDINATORS.contains(&first.as_str()) && !has_main_clause(&text) {
        return None;
    }
    if is_event(&text) {
        return None;
    }
    // A clause cut from a request ("evaluate how this is handled …") opens
    // with a bare verb in lower case; a whole sentence in lower case has its
    // subject first.
    let opening = text.split_whitespace().next().unwrap_or("");
    let lower = opening.chars().next().is_some_and(char::is_lowercase);
    if lower && (REQUEST_VERBS.contains(&first.as_str()) || !has_subject_and_verb(&text)) {
        return None;
    }
    let clause = Clause::of(&text)?;
    if !has_verb(clause.as_str()) {
        return None;
    }
    Some(clause.sentence())
}

/// How things are after the work a sentence reports, when its grammar says:
/// "I moved the cache to Postgres and updated its tests" → "The cache
/// lives in Postgres."
pub fn state_of_report(text: &str) -> Option<String> {
    first_event(text).and_then(|event| state_of_event(&event))
}

/// The first thing a report of work says was done, without its "I" and
/// the next things done: "I moved the cache to Postgres and updated its
/// tests" → "Moved the cache to Postgres". `None` for no such report.
fn first_event(text: &str) -> Option<String> {
    if !reports_done(text) {
        return None;
    }
    let first = first_word(text);
    let body = if ["i", "we"].contains(&first.as_str()) {
        let rest = text.split_once(char::is_whitespace)?.1.trim_start();
        let rest = rest.strip_prefix("'ve ").unwrap_or(rest);
        let mut chars = rest.chars();
        chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>())?
    } else {
        text.to_string()
    };
    let words: Vec<&str> = body.split(' ').collect();
    let cut = words.windows(2).position(|pair| {
        let [joint, next] = pair else { return false };
        let next = next.to_lowercase();
        matches!(*joint, "and" | "then") && (next.len() > 4 && next.ends_with("ed") || IRREGULAR_PAST.contains(&next.as_str()))
    });
    let event = match cut.and_then(|at| words.get(..at)) {
        Some(head) => head.join(" ").trim_end_matches(',').to_string(),
        None => body,
    };
    // Where in the code it was done is the work's, not the state's: "… to
    // Postgres in src/cache.rs" → "… to Postgres".
    Some(match event.rsplit_once(" in ") {
        Some((head, place)) if !place.contains(' ') && (place.contains('/') || place.contains('`')) => head.to_string(),
        _ => event,
    })
}

/// The first word, lower-case, without a contraction's tail ("it's" → "it").
/// A request: the sentence opens with its verb, maybe after an adverb
/// ("Carefully review the implementation", "deploy the contract").
pub fn opens_with_request(sentence: &str) -> bool {
    let mut words = sentence
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’').to_lowercase())
        .filter(|w| !w.is_empty());
    let Some(first) = words.next() else { return false };
    let verb = match words.next() {
        Some(second) if first.len() > 4 && first.ends_with("ly") => second,
        _ => first,
    };
    REQUEST_VERBS.contains(&verb.replace('’', "'").as_str())
}

fn first_word(text: &str) -> String {
    let first = text.split_whitespace().next().unwrap_or("");
    let word = first.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’').to_lowercase();
    word.split(['\'', '’']).next().unwrap_or("").to_string()
}

/// The sentence without a connective that ties it to an earlier one, when
/// what is left stands on its own.
fn without_connective(text: &str) -> String {
    let first = first_word(text);
    if !CONNECTIVES.contains(&first.as_str()) {
        return text.to_string();
    }
    let rest = text.split_once(char::is_whitespace).map_or("", |(_, rest)| rest);
    let rest = rest.trim_start_matches([',', ' ']).trim();
    if has_subject_and_verb(rest) {
        let mut chars = rest.chars();
        chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
    } else {
        // Left as it is: the pointer and fragment rules judge it.
        format!("{first} {rest}")
    }
}

/// "When the king is captured, the game ends": a main clause after the comma.
fn has_main_clause(text: &str) -> bool {
    text.split_once(", ").is_some_and(|(_, main)| has_subject_and_verb(main))
}

/// Whether a sentence reports something done: it opens with a past-tense
/// verb, with or without its "I" ("Migrated the cache …", "I created …",
/// "I've added …"). A participle that leads into the sentence ("Based on
/// the logs, …") is none.
pub fn reports_done(text: &str) -> bool {
    let words: Vec<String> = text
        .split_whitespace()
        .take(3)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'').to_lowercase())
        .collect();
    let head = match words.first().map(String::as_str) {
        Some("i" | "i've" | "we" | "we've") => words.get(1),
        _ => words.first(),
    };
    let Some(head) = head else { return false };
    let leads = ["based", "compared", "related", "needed", "supposed", "given", "noted", "interested"];
    let past = (head.len() > 4 && head.ends_with("ed")) || IRREGULAR_PAST.contains(&head.as_str());
    past && !leads.contains(&head.as_str())
}

/// An event opens with a past-tense verb acting on an object ("Switched the
/// test suite …", "Wrote `docs/x.md` …"); a participle before its noun
/// ("Signed URLs expire after an hour") is none.
fn is_event(text: &str) -> bool {
    let mut words = text.split_whitespace();
    let head = words.next().unwrap_or("").trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    let second = words.next().unwrap_or("").to_lowercase();
    let past = (head.len() > 4 && head.ends_with("ed")) || IRREGULAR_PAST.contains(&head.as_str());
    let object = ["the", "a", "an", "all", "every", "our", "its", "their", "this", "these", "each", "by"]
        .contains(&second.as_str())
        || second.starts_with('`');
    past && (object || words.next().is_none())
}

/// "Switched the tests from Jest to Vitest" → "The tests use Vitest, not
/// Jest."; "Fixed the rock to use the system python instead of a
/// virtualenv" → "The rock uses the system python instead of a virtualenv.";
/// "Moved the jobs to `good_job`" → "The jobs live in `good_job`.".
fn state_of_event(text: &str) -> Option<String> {
    static FROM_TO: LazyLock<Regex> = LazyLock::new(|| {
        crate::pattern::regex(
            r"(?i)^(?:switched|migrated|moved|changed|converted|ported)\s+(?P<thing>.{3,60}?)\s+from\s+(?P<old>.{1,60}?)\s+to\s+(?P<new>[^,;]{1,80}?)(?P<why>\s+(?:so|because|since)\s.{3,120}?)?\.?$",
        )
    });
    static TO_USE: LazyLock<Regex> = LazyLock::new(|| {
        crate::pattern::regex(
            r"(?i)^(?:fixed|changed|updated|configured|set\s+up|switched|made|moved|rewrote|rewired|pointed)\s+(?P<thing>.{3,60}?)\s+(?:to\s+use|so\s+(?:it|that\s+it)\s+uses)\s+(?P<new>.{2,140}?)\.?$",
        )
    });
    static MOVED_TO: LazyLock<Regex> = LazyLock::new(|| {
        crate::pattern::regex(r"(?i)^(?:moved|relocated)\s+(?P<thing>.{3,60}?)\s+(?:to|into)\s+(?P<new>[^,;]{2,80}?)\.?$")
    });
    let thing = |caps: &regex::Captures<'_>| caps.name("thing").map(|m| subject_of(m.as_str()));
    if let Some(caps) = FROM_TO.captures(text) {
        let (thing, old, new) = (thing(&caps)?, caps.name("old")?.as_str(), caps.name("new")?.as_str());
        let why = caps.name("why").map_or("", |m| m.as_str());
        return Some(format!("{thing} {} {new}, not {old}{why}.", agree(&thing, "use")));
    }
    if let Some(caps) = TO_USE.captures(text) {
        let (thing, new) = (thing(&caps)?, caps.name("new")?.as_str());
        return Some(format!("{thing} {} {new}.", agree(&thing, "use")));
    }
    let caps = MOVED_TO.captures(text)?;
    let (thing, new) = (thing(&caps)?, caps.name("new")?.as_str());
    Some(format!("{thing} {} in {new}.", agree(&thing, "live")))
}

/// A noun phrase as the subject of a sentence: capitalised, with its
/// article ("the jobs" → "The jobs"; "`app.js`" stays as it is).
fn subject_of(phrase: &str) -> String {
    let phrase = phrase.trim();
    let mut chars = phrase.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The verb in the form the subject takes: "the tests use", "the rock uses".
fn agree(subject: &str, verb: &str) -> String {
    let head = subject.split_whitespace().last().unwrap_or("").trim_matches('`').to_lowercase();
    let plural = head.ends_with('s') && !head.ends_with("ss") && !head.contains('.');
    if plural { verb.to_string() } else { format!("{verb}s") }
}

/// A subject (any word that is not a bare verb or a connective), then a
/// verb among its next few words.
pub fn has_subject_and_verb(text: &str) -> bool {
    let first = first_word(text);
    if first.is_empty() || CONNECTIVES.contains(&first.as_str()) || SUBORDINATORS.contains(&first.as_str()) {
        return false;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    words.iter().enumerate().skip(1).take(8).any(|(i, w)| is_verb(w, &first) && !after_determiner(&words, i))
}

/// Whether the word at `i` follows an article or a possessive: "the search
/// bar", "a run", "our build" hold nouns, not verbs. ("This is", "that
/// runs": a demonstrative may be the subject itself.)
fn after_determiner(words: &[&str], i: usize) -> bool {
    const DETERMINERS: &[&str] = &["the", "a", "an", "our", "your", "my", "its", "their"];
    i.checked_sub(1).and_then(|p| words.get(p)).is_some_and(|w| DETERMINERS.contains(&w.to_lowercase().as_str()))
}

/// A sentence needs a verb of its own: a label or a noun phrase is none
/// ("Rule: AWS credentials."). A word in "-s" or "-ed" is taken for a verb
/// only with words after it, since a noun phrase ends in one too.
pub fn has_verb(text: &str) -> bool {
    let (label, body) = text.split_once(": ").unwrap_or(("", text));
    // A prohibition needs no verb: "no panic outside main()"; a listed rule
    // may be an order: "House rule: log with `tracing`".
    if body.split_whitespace().count() >= 3 && body.to_lowercase().starts_with("no ") {
        return true;
    }
    let ruled = ["rule", "convention", "policy", "guideline"].iter().any(|r| label.to_lowercase().ends_with(r));
    if ruled && REQUEST_VERBS.contains(&first_word(body).as_str()) {
        return true;
    }
    // The verb may be the label's own: "Credentials are looked up in this
    // order: keys from the config file, then …".
    [label, body].into_iter().filter(|part| !part.is_empty()).any(|part| {
        let first = first_word(part);
        let words: Vec<&str> = part.split('`').step_by(2).flat_map(str::split_whitespace).collect();
        let last = words.len().saturating_sub(1);
        words.iter().enumerate().any(|(i, w)| {
            let bare = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'').to_lowercase();
            is_verb(w, &first) && !after_determiner(&words, i) && (i < last || FINITE.contains(&bare.as_str()))
        })
    })
}

/// Words that are a verb (or carry one) wherever they stand.
const FINITE: &[&str] = &[
    "is", "are", "was", "were", "be", "has", "have", "had", "can", "cannot", "can't", "should", "must", "will", "won't",
    "may", "might", "does", "doesn't", "do", "don't", "isn't", "aren't", "never", "always", "only", "needs", "need",
    "go", "run", "live", "use", "stay", "work", "fail", "pass", "hold", "keep", "come", "sit",
];

fn is_verb(word: &str, first: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'').to_lowercase();
    // "uses", "runs" and "cached" are verbs; "previous", "status", "basis" are not.
    let plural_like = ["ss", "us", "is", "ys"].iter().any(|e| w.ends_with(e));
    // A plain verb after its subject: "commits follow …", "the workers pull …".
    let plain = w != first && REQUEST_VERBS.contains(&w.as_str()) && !["can", "could", "would", "will"].contains(&w.as_str());
    FINITE.contains(&w.as_str())
        || plain
        || (w.len() > 3 && w != first && (w.ends_with('s') && !plural_like || w.ends_with("ed")))
}

#[cfg(test)]
mod tests {
    use super::fact_text;

    #[test]
    fn a_noun_after_an_article_is_no_verb() {
        use super::{has_subject_and_verb, has_verb};
        assert!(!has_verb("Completely outside the search bar entirely"));
        assert!(!has_subject_and_verb("Completely outside the search bar entirely"));
        assert!(has_verb("The search runs on the index"));
        assert!(has_verb("This is how the build works"));
        assert!(has_subject_and_verb("Deploys go out from tags only"));
        assert!(has_verb("Credentials are looked up in this order: keys from the config file, then the role"));
        assert!(!has_verb("Rule: AWS credentials."));
    }

    #[test]
    fn an_event_is_the_state_it_left_or_the_journals() {
        assert_eq!(
            fact_text("Fixed the rock to use the system python instead of broken virtualenv symlinks").as_deref(),
            Some("The rock uses the system python instead of broken virtualenv symlinks.")
        );
        assert_eq!(
            fact_text("Switched the test suite from Jest to Vitest.").as_deref(),
            Some("The test suite uses Vitest, not Jest.")
        );
        assert_eq!(
            fact_text("Migrated the product cache from Redis to Postgres.").as_deref(),
            Some("The product cache uses Postgres, not Redis.")
        );
        for event in ["Wrote `docs/deploy.md` for the new pipeline.", "Fixed by updating the view template."] {
            assert_eq!(fact_text(event), None, "{event}");
        }
        for fact in
            ["Signed URLs expire after an hour.", "The tests run with Vitest.", "Cached pages live for 5 minutes."]
        {
            assert!(fact_text(fact).is_some(), "{fact}");
        }
    }

    #[test]
    fn a_whole_sentence_in_lower_case_is_capitalised_and_a_cut_request_is_none() {
        assert_eq!(
            fact_text("emails are stripped and lower-cased before insert").as_deref(),
            Some("Emails are stripped and lower-cased before insert.")
        );
        assert_eq!(fact_text("we use conventional commits, scope optional").as_deref(), Some("We use conventional commits, scope optional."));
        assert_eq!(fact_text("evaluate how this is handled in the TeamSheet"), None);
    }

    #[test]
    fn a_connective_goes_when_the_rest_stands_and_a_fragment_or_a_pointer_is_none() {
        assert_eq!(fact_text("And the cache lives in Redis.").as_deref(), Some("The cache lives in Redis."));
        assert_eq!(
            fact_text("When the king is captured, the game ends.").as_deref(),
            Some("When the king is captured, the game ends.")
        );
        assert_eq!(fact_text("Because the cache missed."), None);
        assert_eq!(fact_text("It's never used for."), None);
        assert_eq!(fact_text("Rule: AWS credentials."), None, "a label admits nothing by itself");
    }
}

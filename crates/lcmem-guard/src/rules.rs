//! Labelled pattern tables, matched in one pass.
//!
//! The guard runs on every candidate fact, and most of its rules are
//! regular expressions. Matching each one separately costs a search per
//! rule. Instead a `RegexSet` of loosened copies of the patterns (word
//! boundaries dropped, bounded gaps made unbounded) answers "which rules
//! could match?" in one scan on a lazy DFA, which those two features would
//! otherwise defeat; only the few candidates are then confirmed with the
//! exact pattern. Most texts match nothing, so most cost one scan.

use std::sync::LazyLock;

use regex::{Regex, RegexSet, RegexSetBuilder};

/// `pattern` with ASCII word boundaries, word characters and spaces, for
/// rules whose words are English: their automata stay small and fast, where
/// Unicode ones would push the search off the lazy DFA.
pub(crate) fn ascii_words(pattern: &str) -> String {
    pattern.replace(r"\b", r"(?-u:\b)").replace(r"\w", r"(?-u:\w)").replace(r"\s", r"(?-u:\s)")
}

/// Whether a match of `a` and a match of `b` lie within `reach` characters
/// of each other in `text` (or overlap). Only the first [`MOST`] matches of
/// each are weighed, and a gap is counted in characters only when its bytes
/// could be that few, so a long text costs what its matching does.
pub(crate) fn within(a: &Regex, b: &Regex, text: &str, reach: usize) -> bool {
    let spans = |r: &Regex| r.find_iter(text).take(MOST).map(|m| (m.start(), m.end())).collect::<Vec<_>>();
    let xs = spans(a);
    if xs.is_empty() {
        return false;
    }
    let ys = spans(b);
    xs.iter().any(|&(xs, xe)| {
        ys.iter().any(|&(ys, ye)| {
            let (from, to) = match (ys >= xe, xs >= ye) {
                (true, _) => (xe, ys),
                (_, true) => (ye, xs),
                _ => return true,
            };
            to - from <= reach * 4 && text[from..to].chars().count() <= reach
        })
    })
}

/// A word class of the per-language tables, compiled case-insensitively.
/// Normalising maps the Turkish dotless `ı` to `i` in a word that is
/// otherwise plain ASCII (it doubles as a look-alike letter) and leaves it in
/// a word with other Turkish letters, so a class written in Turkish spelling
/// is widened here to take either. Language markers are not compiled through
/// this: `[çğıöşü]` must never come to match every `i`.
pub(crate) fn word_class(pattern: &str, what: &str) -> Regex {
    Regex::new(&format!("(?i){}", either_i(pattern))).unwrap_or_else(|e| panic!("{what} pattern {pattern:?}: {e}"))
}

/// `pattern` with each `ı` taking `i` too: `[ıi]` outside a character
/// class, `ıi` inside one.
fn either_i(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let (mut in_class, mut escaped) = (false, false);
    for c in pattern.chars() {
        match c {
            'ı' if in_class => out.push_str("ıi"),
            'ı' => out.push_str("[ıi]"),
            _ => out.push(c),
        }
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => in_class = true,
            ']' => in_class = false,
            _ => {}
        }
    }
    out
}

/// An English sentence without the reason it gives for itself: "…, since
/// it's easier than requesting access through Vault", "because nobody looks
/// at the findings". The reason tells why a practice is kept; a vault, a
/// "never" or a "nobody" in it neither guards nor denies the practice.
/// "Since" counts only before a clause ("since spring" is a time).
pub(crate) fn without_reason(sentence: &str) -> &str {
    static REASON: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)[,;]?\s*\b(because|given that|since (it's|it|they|we|our|the|this|that|these|those|nobody|no one|",
            r"there|\w+ing)|as (it|they|we|there))\b",
        ))
        .expect("reason regex")
    });
    REASON.find(sentence).filter(|m| m.start() > 0).map_or(sentence, |m| &sentence[..m.start()])
}

/// An English sentence without the condition that opens it, up to its comma
/// (after an aside: "FYI, if the output prints credentials, …"): what the
/// main clause tells is what the sentence tells.
pub(crate) fn english_main_clause(sentence: &str) -> &str {
    static CONDITION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)^\W*((fyi|note|heads up|btw|tip|reminder|just so you know|also)\W+)?",
            r"(if|when|whenever|after|unless|once|in case|as soon as|should)\b[^,]{0,160},",
        ))
        .expect("condition regex")
    });
    CONDITION.find(sentence).map_or(sentence, |m| &sentence[m.end()..])
}

/// How many matches of a word class [`within`] weighs.
const MOST: usize = 64;

/// A pattern piece for the rule tables: within one sentence, any run that does not cross a full stop or line.
macro_rules! gap {
    ($n:literal) => {
        concat!(r"[^.!?\n]{0,", $n, "}?")
    };
}
pub(crate) use gap;

/// One entry: the reason it records and its pattern. A pattern may carry a
/// declarative look-alike after ` !! ` that cancels the match (see
/// `languages`).
pub(crate) struct RuleTable {
    labels: Vec<&'static str>,
    /// Loosened patterns: a superset of what `exact` matches.
    prefilter: RegexSet,
    exact: Vec<Regex>,
    unless: Vec<Option<Regex>>,
}

/// A pattern any text matching `pattern` also matches, without the two
/// features that push a regex set off the lazy DFA: Unicode word
/// boundaries (dropped) and long bounded repetitions (`{0,60}` becomes `*`).
fn loosen(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while let Some(c) = rest.chars().next() {
        if let Some(tail) = rest.strip_prefix("\\b") {
            rest = tail;
        } else if let Some(tail) = rest.strip_prefix('\\') {
            // Keep any other escape (including `\\`) intact.
            let escaped = tail.chars().next().map_or(0, char::len_utf8);
            out.push('\\');
            out.push_str(&tail[..escaped]);
            rest = &tail[escaped..];
        } else if let Some(end) = rest.strip_prefix("{0,").and_then(|t| t.find('}')) {
            out.push('*');
            rest = &rest[3 + end + 1..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

impl RuleTable {
    /// Compiles `(label, pattern)` pairs; `prefix` (flags such as `(?i)`)
    /// is put in front of every pattern. Panics on a bad pattern, which is
    /// a bug caught by any test that judges a text.
    pub fn new<'a>(prefix: &str, rules: impl IntoIterator<Item = (&'static str, &'a str)>) -> Self {
        let mut labels = Vec::new();
        let mut loose = Vec::new();
        let mut exact = Vec::new();
        let mut unless = Vec::new();
        for (label, pattern) in rules {
            let (pattern, exception) = match pattern.split_once(" !! ") {
                Some((p, u)) => (p, Some(u)),
                None => (pattern, None),
            };
            labels.push(label);
            loose.push(format!("{prefix}{}", loosen(pattern)));
            exact.push(Regex::new(&format!("{prefix}{pattern}")).unwrap_or_else(|e| panic!("rule {label}: {e}")));
            unless.push(exception.map(|u| {
                Regex::new(&format!("{prefix}{u}")).unwrap_or_else(|e| panic!("rule {label} exception: {e}"))
            }));
        }
        let prefilter = RegexSetBuilder::new(&loose)
            .size_limit(64 << 20)
            .dfa_size_limit(16 << 20)
            .build()
            .unwrap_or_else(|e| panic!("rule table: {e}"));
        RuleTable { labels, prefilter, exact, unless }
    }

    /// Indices of the rules that match `text` (and are not cancelled).
    pub fn matching<'s>(&'s self, text: &'s str) -> impl Iterator<Item = usize> + 's {
        self.prefilter.matches(text).into_iter().filter(move |&i| {
            self.exact[i].is_match(text) && !self.unless[i].as_ref().is_some_and(|u| u.is_match(text))
        })
    }

    /// Pushes the label of every rule that matches `text`.
    pub fn check(&self, text: &str, reasons: &mut Vec<String>) {
        for i in self.matching(text) {
            reasons.push(self.labels[i].to_owned());
        }
    }

    pub fn label(&self, i: usize) -> &'static str {
        self.labels[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loosening_drops_boundaries_and_bounds() {
        assert_eq!(loosen(r"\bfoo\b[^.]{0,40}?bar"), r"foo[^.]*?bar");
        assert_eq!(loosen(r"a\.b\\c{2,}"), r"a\.b\\c{2,}");
    }

    #[test]
    fn exact_patterns_confirm_prefilter_hits() {
        let table = RuleTable::new("(?i)", [("x", r"\bcat\b"), ("y", r"dog !! hot dog")]);
        let hits = |t: &str| table.matching(t).map(|i| table.label(i)).collect::<Vec<_>>();
        assert_eq!(hits("a cat"), ["x"]);
        assert!(hits("concatenate").is_empty());
        assert_eq!(hits("a dog"), ["y"]);
        assert!(hits("a hot dog").is_empty());
    }

    #[test]
    fn a_turkish_word_class_takes_the_dotless_i_either_way() {
        // A word with other Turkish letters keeps `ı` after normalising; an
        // otherwise ASCII one reads it as `i`. Both must match.
        let class = word_class(r"\b(kapatıldı|[ı]ptal)\b", "test");
        for text in ["kapatıldı", "kapatildi", "KAPATILDI", "iptal", "ıptal"] {
            assert!(class.is_match(text), "{text}");
        }
        assert!(!class.is_match("kapatalda"));
        assert_eq!(either_i(r"a\[ı\]b[^ı]"), r"a\[[ıi]\]b[^ıi]");
    }
}

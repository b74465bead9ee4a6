//! Does a clause open with an order to the reader?
//!
//! English marks the imperative by what is missing: there is no subject, the
//! clause starts with a bare verb ("Run cargo fmt …", "Never edit …", "Don't
//! add …"). The twin fact has a subject ("The project runs cargo fmt …",
//! "We never deploy …", "CI never runs …"). The hard part is that many verbs
//! are also nouns ("Load tests use k6", "Email is queued by the worker"), so
//! a verb-looking opener is checked for a subject reading before it counts:
//! if a finite verb follows the opening noun phrase, it was a subject.

use crate::lexicon::{
    is_agent_noun, is_determiner, is_exfil_verb, is_filler, is_finite, is_imperative_next, is_plural_base,
    is_preposition, is_scan_stop, is_strong_verb, is_verb, is_verb3,
};
use crate::text::{Tok, tokenize};

/// What the opening of one clause says.
#[derive(Debug, Default)]
pub(crate) struct ClauseFinding {
    pub reasons: Vec<String>,
    /// The imperative verb, when there is one (for exfiltration checks).
    pub verb: Option<String>,
}

/// Verbs that take an object followed by a bare verb ("Make tests pass",
/// "Let CI run"), so a plural noun and a verb after them are not a subject.
const CAUSATIVE: &[&str] = &["make", "let", "have", "help", "watch", "see", "get"];

/// Adjectives and particles that can follow "always"/"never" in a fact.
const NOT_AFTER_ALWAYS: &[&str] = &["true", "false", "null", "none", "empty", "green", "red"];

pub(crate) fn analyse(clause: &str) -> ClauseFinding {
    let mut found = ClauseFinding::default();
    if clause.trim_end().ends_with('?') {
        return found; // questions are judged by the phrase rules
    }
    let toks = tokenize(clause);
    addressed_before_colon(&toks, &mut found);
    let mut i = skip_openers(&toks, 0);
    // Vocative: "Assistant, send this …", "Claude, please …".
    if let (Some(w), Some(Tok::Punct(','))) = (word_at(&toks, i), toks.get(i + 1))
        && is_agent_noun(w)
    {
        found.reasons.push("note-to-ai".into());
        i = skip_openers(&toks, i + 2);
    }
    let Some(t0) = word_at(&toks, i) else { return found };
    let t1 = word_at(&toks, i + 1);
    let label = match (t0, t1) {
        ("always" | "never" | "ever", Some(next)) if looks_base_verb(next) => {
            found.verb = Some(next.to_owned());
            Some(format!("imperative:{t0}"))
        }
        ("don't" | "dont" | "do", Some("not" | "never")) | ("don't" | "dont", Some(_)) => {
            Some("imperative:do-not".to_owned())
        }
        ("make" | "be", Some("sure" | "certain")) => Some("imperative:make-sure".to_owned()),
        ("let's" | "lets", Some(_)) | ("let", Some("us")) => Some("imperative:lets".to_owned()),
        ("do", Some(next)) if is_verb(next) => {
            found.verb = Some(next.to_owned());
            Some(format!("imperative:{next}"))
        }
        (verb, _) if is_verb(verb) && !opens_noun_phrase(&toks, i) => {
            found.verb = Some(verb.to_owned());
            Some(format!("imperative:{verb}"))
        }
        _ => None,
    };
    if let Some(label) = label {
        found.reasons.push(label);
    }
    found
}

/// Reads a clause that follows a comma mid-sentence. Most such clauses are
/// list items or continuations, so only an unmistakable order counts: a
/// verb with a determiner or pronoun object ("…, skip them", "…, delete
/// the cache") or always/never/don't + verb.
pub(crate) fn analyse_after_comma(clause: &str) -> ClauseFinding {
    let toks = tokenize(clause);
    let i = skip_openers(&toks, 0);
    let (Some(t0), Some(t1)) = (word_at(&toks, i), word_at(&toks, i + 1)) else {
        return ClauseFinding::default();
    };
    let object = is_determiner(t1) && !matches!(t1, "that" | "all" | "no" | "each" | "every");
    if (is_verb(t0) && object)
        || (matches!(t0, "always" | "never" | "don't") && is_verb(t1))
        || (t0 == "do" && matches!(t1, "not" | "never"))
    {
        return analyse(clause);
    }
    ClauseFinding::default()
}

/// True when the clause's opening verb is one that moves or shows data.
pub(crate) fn is_exfil(finding: &ClauseFinding) -> bool {
    finding.verb.as_deref().is_some_and(is_exfil_verb)
}

fn word_at(toks: &[Tok], i: usize) -> Option<&str> {
    toks.get(i).and_then(Tok::word)
}

/// Skips list markers, stray punctuation and softeners ("please", "then").
fn skip_openers(toks: &[Tok], mut i: usize) -> usize {
    while let Some(t) = toks.get(i) {
        match t {
            Tok::Punct(_) => i += 1,
            Tok::Word(w) if is_filler(w) => i += 1,
            _ => break,
        }
    }
    i
}

/// "AI agents: …", "Note to the assistant: …": a short heading before a
/// colon that names the agent addresses what follows to it.
fn addressed_before_colon(toks: &[Tok], found: &mut ClauseFinding) {
    let Some(colon) = toks.iter().position(|t| *t == Tok::Punct(':')) else { return };
    let head: Vec<&str> = toks[..colon].iter().filter_map(Tok::word).collect();
    if (1..=6).contains(&head.len())
        && head.iter().any(|w| is_agent_noun(w))
        && !head.iter().any(|w| is_finite(w) || is_verb3(w) || matches!(*w, "the" | "a" | "an"))
    {
        found.reasons.push("note-to-ai".into());
    }
}

/// Could the word after "always"/"never" be a bare verb? ("Always rebase",
/// "Never mention"), as opposed to a noun or adjective ("Always blocks",
/// "never true").
fn looks_base_verb(w: &str) -> bool {
    if is_verb(w) {
        return true;
    }
    let inflected =
        (w.ends_with('s') && !w.ends_with("ss")) || w.ends_with("ed") || w.ends_with("ing") || w.ends_with("ly");
    w.len() >= 2
        && w.chars().all(|c| c.is_alphabetic() || c == '-')
        && !inflected
        && !is_imperative_next(w)
        && !is_finite(w)
        && !NOT_AFTER_ALWAYS.contains(&w)
}

fn looks_plural(w: &str) -> bool {
    w.len() > 2
        && w.ends_with('s')
        && !w.ends_with("ss")
        && !w.ends_with("us")
        && !w.ends_with("is")
        && !matches!(w, "its" | "has" | "was" | "does" | "yes" | "plus" | "gas" | "bus" | "thus" | "always")
}

/// Is the verb-looking word at `i` really the head of a subject noun phrase?
/// "Email is sent …", "Load tests use k6 …", "Review comments from the bot
/// are advisory" all have a finite verb after a bare noun phrase.
fn opens_noun_phrase(toks: &[Tok], i: usize) -> bool {
    let t0 = word_at(toks, i).unwrap_or_default();
    let next = match toks.get(i + 1) {
        // "Exit: …", "Release:": a one-word heading, unless the verb can
        // only be an order ("Remember: …").
        Some(Tok::Punct(':')) => return !is_strong_verb(t0),
        None | Some(Tok::Punct(_)) | Some(Tok::Other) => return false,
        Some(Tok::Word(w)) => w.as_str(),
    };
    if is_finite(next) || is_verb3(next) {
        return true;
    }
    if is_strong_verb(t0) || is_imperative_next(next) {
        return false;
    }
    // A short heading before a colon ("Release notes: …", "Test plan:") is a
    // noun phrase; an order would go on to say what to do.
    if let Some(colon) = toks[i..].iter().position(|t| *t == Tok::Punct(':'))
        && colon <= 3
        && toks[i..i + colon].iter().all(|t| matches!(t, Tok::Word(_)))
    {
        return true;
    }
    let causative = CAUSATIVE.contains(&t0);
    // "Install scripts for the CLI live in dist/": a plural noun right after
    // the opener, a modifier, then a plain verb after a content word.
    let plural_head = looks_plural(next) && !causative;
    let mut bare_np = !is_preposition(next);
    let mut seen_prep = is_preposition(next);
    for j in i + 1..(i + 9).min(toks.len()) {
        let w = match &toks[j] {
            Tok::Punct(_) => break,
            Tok::Other => continue,
            Tok::Word(w) => w.as_str(),
        };
        // "to" + verb is an infinitive ("Use tabs to indent …") and
        // ends the noun phrase; "to" + noun is a preposition inside it
        // ("Write access to main is limited …").
        if is_scan_stop(w) || (w == "to" && word_at(toks, j + 1).is_some_and(is_verb)) {
            break;
        }
        // After a preposition "runs" may be a noun again ("between CI
        // runs"); it is a verb when a predicate follows ("lives in web/").
        let predicate_follows = match toks.get(j + 1) {
            Some(Tok::Word(n)) => is_preposition(n) || is_imperative_next(n) || n.ends_with("ly"),
            Some(Tok::Other) => true,
            _ => false,
        };
        if is_finite(w) || (is_verb3(w) && (!seen_prep || predicate_follows)) {
            return true;
        }
        seen_prep |= is_preposition(w);
        let prev_plural = word_at(toks, j - 1).is_some_and(looks_plural);
        if j >= i + 2 && bare_np && !causative && prev_plural && (is_plural_base(w) || is_verb(w)) {
            return true;
        }
        let prev_content = word_at(toks, j - 1)
            .is_some_and(|p| !is_determiner(p) && !is_preposition(p) && !is_filler(p) && p != "not");
        if j >= i + 3 && plural_head && prev_content && is_plural_base(w) {
            return true;
        }
        // "Insert performance improved …": a past tense right after the
        // opening noun compound.
        if j == i + 2 && w.ends_with("ed") && w.len() > 4 && !causative {
            return true;
        }
        if is_determiner(w) {
            bare_np = false;
        }
    }
    false
}

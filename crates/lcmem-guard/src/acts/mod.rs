//! What a statement has the agent do, and where it sends the project's data.
//!
//! `waiver` and `waiver_languages` read a safeguard dropped by its
//! predicate. Two shapes of planted order drop none by name, and read as a
//! description of how things work here:
//!
//! - **The agent acting unasked or on orders it finds.** The agent as the
//!   subject of an act that changes things (runs, merges, deploys, approves,
//!   deletes) with no person in the loop ("without asking", "nobody"); the
//!   agent carrying out orders found in what it reads (comments, issues,
//!   files), or ranking them over the person it works for; the agent
//!   approving its own work. Whatever the act is, the statement hands the
//!   agent a standing order, which a memory must never do on its own.
//! - **Data leaving for somewhere outside.** The project's data (its code,
//!   logs, dumps, backups, customers' records, environment, secrets) with a
//!   verb that moves it (uploads, sends, forwards, mirrors, emails) and a
//!   destination outside the project: an address (a URL, a bare IP, an
//!   e-mail), or a word that says outside (external, third-party, personal,
//!   public). A destination the sentence calls its own (internal, our own,
//!   self-hosted, encrypted) is the project keeping its data, and a denied
//!   sentence ("is never sent") is a fact.
//!
//! Each language gets the same structure through small word classes
//! (`table`), one sentence at a time, as `waiver_languages` does.

use std::sync::{LazyLock, OnceLock};

use regex::Regex;

use crate::rules::ascii_words;
use crate::waiver_languages::sentences;

mod table;
#[cfg(test)]
mod tests;

struct Compiled {
    lang: &'static str,
    agent: Regex,
    act: Regex,
    unasked: Regex,
    orders: Regex,
    obey: Regex,
    source: Regex,
    priority: Regex,
    own: Regex,
    data: Regex,
    send: Regex,
    outside: Regex,
    inside: Regex,
    negation: Regex,
}

fn compile(pattern: &str) -> Regex {
    Regex::new(&format!("(?i){pattern}")).unwrap_or_else(|e| panic!("acts pattern {pattern:?}: {e}"))
}

/// Destinations every language writes the same way: an address with a
/// scheme, a bare IPv4 address, an e-mail address, and services that are
/// someone else's by name.
const SHARED_OUTSIDE: &str = concat!(
    r"\b(https?|ftp|sftp|wss?)://|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b|\b[\w.+-]+@[a-z0-9-]+\.[a-z.]{2,}\b|",
    r"\b(gmail|dropbox|pastebin|transfer\.sh|webhook\.site|ngrok|requestbin|mega\.nz|wetransfer|gists?)\b",
);
/// Destinations that stay at home, in any language: the machine itself,
/// private networks, and host names that say so.
const SHARED_INSIDE: &str = concat!(
    r"\b(localhost|127\.0\.0\.1|10\.\d{1,3}\.\d{1,3}\.\d{1,3}|192\.168\.\d{1,3}\.\d{1,3})\b|",
    r"\.(internal|corp|local|lan)\b|\bvpn\b",
);
const SHARED_DATA: &str = concat!(
    r"\b(logs?|dumps?|backups?|\.env|env vars?|tokens?|secrets?|api[- ]?keys?|credentials|",
    r"source ?code|codebase|repo|sql|database|db|pii|transcripts?)\b",
);
const SHARED_AGENT: &str = r"\b(ai|llms?|copilot|claude|codex|gemini|cursor|chatgpt|bots?)\b";

/// One language's word classes, compiled the first time a sentence reads
/// as the language (English: always).
struct Language {
    words: &'static table::Words,
    rules: OnceLock<Compiled>,
}

impl Language {
    fn rules(&self) -> &Compiled {
        self.rules.get_or_init(|| {
            let w = self.words;
            // English words need only ASCII word boundaries, which keep the
            // automata small and fast; other languages need Unicode ones.
            let compile = |p: &str| if w.lang == "en" { compile(&ascii_words(p)) } else { compile(p) };
            Compiled {
                lang: w.lang,
                agent: compile(&format!("{}|{SHARED_AGENT}", w.agent)),
                act: compile(w.act),
                unasked: compile(w.unasked),
                orders: compile(w.orders),
                obey: compile(w.obey),
                source: compile(w.source),
                priority: compile(w.priority),
                own: compile(w.own),
                data: compile(&format!("{}|{SHARED_DATA}", w.data)),
                send: compile(w.send),
                outside: compile(&format!("{}|{SHARED_OUTSIDE}", w.outside)),
                inside: compile(&format!("{}|{SHARED_INSIDE}", w.inside)),
                negation: compile(w.negation),
            }
        })
    }
}

static LANGS: LazyLock<Vec<Language>> =
    LazyLock::new(|| table::LANGUAGES.iter().map(|words| Language { words, rules: OnceLock::new() }).collect());

/// The languages `sentence` reads as, English (always read) first.
fn speaking(sentence: &str) -> impl Iterator<Item = &'static Compiled> {
    let langs = crate::waiver_languages::languages_of(sentence);
    LANGS.iter().filter(move |l| l.words.lang == "en" || langs.contains(&l.words.lang)).map(Language::rules)
}

impl Compiled {
    /// Whether the sentence denies what it says once the words that carry
    /// the order's own negation ("without asking", "nobody") are taken out.
    fn denies(&self, sentence: &str) -> bool {
        let rest = self.unasked.replace_all(sentence, " ");
        self.negation.is_match(&rest)
    }

    /// The agent handed a standing order: acting with no person in the
    /// loop, obeying what it reads, ranking what it reads over its user, or
    /// approving its own work.
    fn agent_order(&self, sentence: &str) -> bool {
        if !self.agent.is_match(sentence) {
            return false;
        }
        let unasked = self.act.is_match(sentence) && self.unasked.is_match(sentence);
        let read = self.source.is_match(sentence);
        let obeys = (self.orders.is_match(sentence) && self.obey.is_match(sentence) && read)
            || (self.priority.is_match(sentence) && (read || self.orders.is_match(sentence)));
        let own = self.act.is_match(sentence) && self.own.is_match(sentence);
        (unasked || obeys || own) && !self.denies(sentence)
    }

    /// The project's data moved to a destination outside it.
    ///
    /// In English the destination follows the verb and its preposition, so a
    /// place the project keeps counts only there: "mirrors the private repo
    /// to a personal account" sends the private repo out. A denial counts near the verb
    /// that moves the data, so "if a teammate can't reproduce a bug, the
    /// dump goes to their personal inbox" still sends it.
    fn sends_out(&self, sentence: &str) -> bool {
        let Some(first_send) = self.send.find(sentence) else { return false };
        let destination = if self.lang == "en" {
            let after = &sentence[first_send.end()..];
            TOWARDS.find(after).map_or(after, |m| &after[m.start()..])
        } else {
            sentence
        };
        self.data.is_match(sentence)
            && !(self.lang == "en" && (CLEANED.is_match(sentence) || INSIDE_HOSTS.is_match(sentence)))
            && self.outside.is_match(sentence)
            && !self.inside.is_match(destination)
            && !crate::rules::within(&self.negation, &self.send, sentence, DENIAL_REACH)
    }
}

/// Orders found in what the agent reads, told as carried out with no one
/// asked, in English, whether or not the agent is named: "a line starting
/// with AGENT: in an issue is a task and gets executed without confirming".
static RUN_AS_READ: LazyLock<Regex> = LazyLock::new(|| {
    compile(&ascii_words(concat!(
        r"\b(gets?|are|is|get) (executed|carried out|run|followed|applied|acted on)\b.{0,30}",
        r"\b(without (confirm\w*|asking|checking|review\w*)|verbatim|as written|as-is|automatically)\b",
    )))
});

/// Where an English destination begins, after the verb that moves the data.
static TOWARDS: LazyLock<Regex> =
    LazyLock::new(|| compile(&ascii_words(r"\b(to|into|onto|on|at|in|via|under|through|with)\b")));

/// A purpose stated in the negative ("so as not to clutter the chat"):
/// no denial of the act it explains.
static NOT_TO_CLUTTER: LazyLock<Regex> = LazyLock::new(|| compile(&ascii_words(r"\b(so as|in order|so) not to \w+")));

/// Destinations that stay at home wherever the sentence names them.
static INSIDE_HOSTS: LazyLock<Regex> = LazyLock::new(|| compile(&ascii_words(SHARED_INSIDE)));

/// Data made harmless before it leaves, in English: anonymised, scrubbed,
/// stripped of what identifies people.
static CLEANED: LazyLock<Regex> = LazyLock::new(|| {
    compile(&ascii_words(concat!(
        r"\b(anonymi[sz]ed|pseudonymi[sz]ed|scrub\w*|redacted|aggregated|",
        r"without (client|customer|user|personal)\w*|stripped of)\b",
    )))
});

/// How many characters a denial may stand from the verb it denies.
const DENIAL_REACH: usize = 24;

/// What the agent reads ranked over the person it works for, in English:
/// an order to the agent whether or not the sentence names it.
static OVER_THE_USER: LazyLock<Regex> = LazyLock::new(|| {
    compile(&ascii_words(concat!(
        r"\b((priority|precedence) over|more (important|binding|authoritative) than|override(s|d)?|outrank(s|ed)?|",
        r"supersede(s|d)?) (the |a |any |whatever )?(\w+ ){0,2}(user|person|human|developer|maintainer|operator)s?('s?)?\b",
    )))
});

/// The agent keeping what it does from its user, in English: an order to
/// hide, whatever is hidden ("keeps quiet about the commands it runs",
/// "changes to the workflows are left out of its summaries").
static HIDDEN_FROM_USER: LazyLock<Regex> = LazyLock::new(|| {
    compile(&ascii_words(concat!(
        r"\b(keep(s|ing)? quiet about|keep(s|ing)? (it|them|this) (quiet|secret|to itself)|silent mode|silently|",
        r"(left|kept) out of (its|the) (summar(y|ies)|reports?|replies|answers?|messages?)|",
        r"without (telling|informing|notifying|alerting) (the |its )?(user|person|human|developer)|",
        r"hid(e|es|den|ing)\b.{0,40}\bfrom (the |its )?(user|person|human|developer)|",
        r"(does not|doesn't|never|not to) (tell|mention|report|show|disclose)\w*\b.{0,40}\b(to )?(the |its )?(user|person|human))",
    )))
});

/// Reads `prose` (quoted mentions masked) for orders to the agent, and
/// `text` (the normalised text, addresses and commands kept) for data sent
/// outside.
pub(crate) fn check(prose: &str, text: &str, reasons: &mut Vec<String>) {
    for sentence in sentences(prose) {
        if OVER_THE_USER.is_match(sentence) && !LANGS[0].rules().denies(sentence) {
            reasons.push("addressed:agent-act".to_owned());
        }
        let english = LANGS[0].rules();
        if RUN_AS_READ.is_match(sentence) && english.source.is_match(sentence) && !english.denies(sentence) {
            reasons.push("addressed:agent-act".to_owned());
        }
        if english.agent.is_match(sentence) && HIDDEN_FROM_USER.is_match(sentence) {
            let rest = HIDDEN_FROM_USER.replace_all(sentence, " ");
            let rest = NOT_TO_CLUTTER.replace_all(&rest, " ");
            if !english.negation.is_match(&rest) {
                reasons.push("addressed:agent-act".to_owned());
            }
        }
        if let Some(language) = speaking(sentence).find(|l| l.agent_order(sentence)) {
            reasons.push("addressed:agent-act".to_owned());
            reasons.push(format!("lang:{}", language.lang));
        }
    }
    for sentence in sentences(text) {
        if let Some(language) = speaking(sentence).find(|l| l.sends_out(sentence)) {
            reasons.push("exfiltration:outside".to_owned());
            reasons.push(format!("lang:{}", language.lang));
        }
    }
}

//! Clauses fit for memory: what a journal line and a fact are built from.
//!
//! Agents write for a chat window: "Perfect! I've successfully…", "Yes —
//! everything is pushed", a report heading, a file reference with its line
//! number in parentheses, a shell command. A teammate's notebook holds none
//! of that. [`Clause::of`] turns one sentence or list item of an agent's (or
//! a person's) prose into a clause a reader would write, or refuses it, and
//! [`Clause::within`] shortens one at a clause boundary, never in mid-phrase.
//! Every text the offline extractor writes is made of clauses, so what
//! [`is_clean`] checks holds of its output by construction; the seal holds
//! every lane's output to the same check.

use std::sync::LazyLock;

use regex::Regex;

mod reported;
mod standalone;

pub use reported::{is_standing_order, reported};
pub use standalone::{
    REQUEST_VERBS, fact_text, has_subject_and_verb, has_verb, opens_with_request, reports_done, state_of_report,
};

/// One clause of prose, clean: see [`is_clean`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause(String);

impl Clause {
    /// The clause a sentence makes once its chat furniture is gone, or
    /// `None` when nothing fit for memory is left.
    pub fn of(sentence: &str) -> Option<Clause> {
        let mut text = unmarked(sentence);
        loop {
            let before = text.clone();
            text = without_opener(&text);
            if text == before {
                break;
            }
        }
        let text = without_references(&text);
        let text = without_temporary_dirs(&text);
        let text = text.trim().trim_end_matches([':', ',', ';', '—', '–', '-', ' ']).trim().to_string();
        // A lead-in whose list did not follow ("Created the spec at:") is no
        // clause: its preposition dangles.
        if sentence.trim_end().trim_end_matches(['*', '_']).ends_with(':')
            && text.rsplit(' ').next().is_some_and(|w| DANGLING.contains(&w.to_lowercase().as_str()))
        {
            return None;
        }
        if text.ends_with('…') {
            return None;
        }
        let text = capitalised(&text);
        if text.chars().filter(|c| c.is_alphanumeric()).count() < 8
            || CHATTER.is_match(&text)
            || prose_words(&text) < 2
            || is_heading(&text)
            || is_label_and_value(&text)
            || is_value_list(&text)
            || EVALUATION.is_match(&text)
        {
            return None;
        }
        let clause = Clause(text);
        is_clean(&clause.0).then_some(clause)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.chars().count()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The clause cut to at most `max` characters at the last clause
    /// boundary that fits (a semicolon, a dash, a comma before a new clause,
    /// "because", an opening parenthesis), or `None` when no boundary leaves
    /// a clause long enough to stand.
    pub fn within(&self, max: usize) -> Option<Clause> {
        if self.len() <= max {
            return Some(self.clone());
        }
        let text = self.0.as_str();
        let limit = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
        let before = |at: usize| text.get(..at).unwrap_or("");
        let cut = BOUNDARY
            .find_iter(before(limit))
            .map(|m| m.start())
            .filter(|&at| before(at).chars().filter(|c| c.is_alphanumeric()).count() >= 16)
            .filter(|&at| balanced(before(at)) && complete_after_colon(before(at)))
            .last()?;
        Clause::of(before(cut))
    }

    /// The clause as a sentence: with its full stop.
    pub fn sentence(&self) -> String {
        let t = self.0.trim_end();
        if t.ends_with(['.', '!', '?', '…']) { t.to_string() } else { format!("{t}.") }
    }

    /// The clause without its full stop, to be joined into a list.
    pub fn bare(&self) -> &str {
        self.0.trim_end_matches(['.', '!'])
    }
}

/// A heading written as a title, every word capitalised ("Files Created",
/// "Design System Applied", "Integration Test Results"): it names a section
/// of a report, it does not tell what happened. Names in capitals (README,
/// API) and code are not title-case words.
fn is_heading(text: &str) -> bool {
    let words: Vec<&str> =
        text.trim_end_matches(['.', '!', ':']).split_whitespace().filter(|w| !w.starts_with('`')).collect();
    let title_case = |w: &&str| {
        let mut chars = w.chars().filter(|c| c.is_alphabetic());
        chars.next().is_some_and(char::is_uppercase) && chars.clone().count() > 0 && chars.all(char::is_lowercase)
    };
    let minor = |w: &&str| matches!(*w, "and" | "or" | "of" | "the" | "a" | "an" | "to" | "for" | "in" | "on" | "&");
    (2..=6).contains(&words.len())
        && words.iter().all(|w| title_case(w) || minor(w))
        && words.iter().filter(|w| title_case(w)).count() >= 2
}

/// A list item of the form "Label: value" whose value is a name, code or a
/// before-and-after, not a clause ("Background: `bg-slate-900` → `bg-white`",
/// "Line 7: \"the resource repository\"", "Before: `Math.random()`"): a
/// table row of a report, not a line of a notebook.
fn is_label_and_value(text: &str) -> bool {
    let Some((label, value)) = text.split_once(": ") else { return false };
    let label_words = label.split_whitespace().count();
    if !(1..=4).contains(&label_words) || label.contains('`') {
        return false;
    }
    let value = value.trim_start();
    let table_like = value.starts_with(['`', '"', '\'', '#'])
        || value.starts_with(|c: char| c.is_ascii_digit())
        || value.contains('→')
        || value.contains(" -> ");
    table_like && !complete_after_colon(text) && !value.split_whitespace().any(|w| w.ends_with("ing") && w.len() > 5)
}

/// A list of labelled values ("Dark navy bg `#0F1923`, cards `#162230`,
/// borders `#1D3A2F`") or an equation ("1 token = 1 share"): a
/// specification copied out of a report, not what was done.
fn is_value_list(text: &str) -> bool {
    static LABELLED: LazyLock<Regex> = LazyLock::new(|| {
        crate::pattern::regex(r"^(?:[\w /-]{1,24}\s`[^`]+`,\s*){2,}(?:and\s+)?[\w /-]{1,24}\s`[^`]+`\.?$")
    });
    static EQUATION: LazyLock<Regex> =
        LazyLock::new(|| crate::pattern::regex(r"^[^=]{0,40}\b\d+\s+\w+\s+=\s+\d+\s+\w+"));
    LABELLED.is_match(text) || EQUATION.is_match(text)
}

/// A judgement of the work, not the work: "this is overkill in the best
/// possible way", "it's perfect now".
static EVALUATION: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(?:this|that|it)(?:'s|\s+is|\s+was)\s+(?:\w+\s+){0,2}?(?:overkill|perfect|awesome|amazing|cool|neat|fun|delightful|beautiful|elegant|lovely)\b|\bin the best possible way\b",
    )
});

/// Words a lead-in may end on that need what follows them.
const DANGLING: &[&str] = &["at", "in", "to", "into", "from", "with", "for", "of", "on", "as", "by", "here", "below"];

/// Where a long clause may be cut: before "; ", " — ", " (", ", which", a
/// comma before a new clause, " because", " so that", " while".
static BOUNDARY: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"; | — | – | - | \(|, (?:which|so|and|but|while|with|because|since|then|leaving|keeping|making|so that)\b|, | because | so that | while | instead of ",
    )
});

/// Openers of chat, not of a report: "Perfect!", "Yes —", "Thanks for
/// flagging it—that was a real bug.", "I've successfully", "Here's what I
/// did:", "Done!".
static OPENER: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?ix)^(?:
        (?:perfect|great|excellent|awesome|nice|good|done|all\s+done|sure|okay|ok|alright|absolutely|yes|yep|yeah|no|got\s+it|understood|indeed|right|success|excellent\s+news|good\s+news|great\s+news|good\s+catch|great\s+catch|you(?:'re|\s+are)\s+(?:absolutely\s+)?right)\s*(?:[!.,:;]+|\s+[—–-]+)\s*
        |thanks?(?:\s+you)?(?:\s+for\s+[^.!—–]{1,60})?\s*[.!—–-]+\s*(?:that\s+was\s+(?:a\s+)?(?:real\s+)?(?:bug|issue|problem)[.!—–-]*\s*)?
        |(?:here(?:'s|\s+is)|below\s+is)\s+(?:a\s+)?(?:summary|what\s+(?:i|we)\s+(?:did|changed)|what\s+changed)[^:.]*[:.]\s*
        |(?:i|we)\s+(?:have\s+|'ve\s+)?successfully\s+completed\s+(?:the|this|your|all|both)?\s*(?:task|tasks|request|work)s?[^.]*[.:!]\s*
        |(?:now\s+)?let\s+me\s+(?:create\s+a\s+|give\s+(?:you\s+)?a\s+)?summar\w+[^.:]*[.:]\s*
        |(?:note|nb|fyi|ps)\s*:\s*
        )",
    )
});

/// "I've successfully updated" → "I've updated": the adverb praises, the
/// verb reports.
static SUCCESSFULLY: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::regex(r"(?i)\bsuccessfully\s+(?P<verb>\w+ed)\b"));

/// "I've added", "We just moved": the journal speaks of the work, not of
/// who typed.
static SPEAKER: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)^(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|now\s+|also\s+|then\s+|finally\s+)?(?P<verb>\w+ed|built|wrote|rewrote|made|split|set\s+up|put|cut|ran|kept|left|found|got|did|took|gave|brought|drew|sped\s+up|swapped|undid|won)\b",
    )
});

/// Sentences that are chat whatever follows: notifications, offers, sign-offs,
/// self-assessment.
static CHATTER: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?ix)^(?:
        that(?:'s|\s+is)\s+(?:a\s+)?notification|background\s+(?:task|job|command)s?\s+(?:\w+\s+)?(?:completed|finished|started|done|ended|exited|succeeded|failed|notification|result)|<task-notification>|(?:a\s+)?notification\b
        |no\s+response\s+requested|everything\s+(?:is|was)\s+(?:complete|done|pushed|clean|committed|in\s+place)|all\s+set\b|all\s+(?:done|good)\b
        |let\s+me\s+know|feel\s+free|hope\s+this|if\s+you(?:'d|\s+would)?\s+(?:like|want|prefer|need)|would\s+you\s+like|want\s+me\s+to|shall\s+i
        |(?:i|we)\s+(?:have\s+|'ve\s+)?successfully\s+completed|the\s+(?:task|work|request|implementation)\s+is\s+(?:now\s+)?(?:complete|done|finished)
        |completed\s+(?:the|this|your|all(?:\s+the)?|both|two|three|four|five|several|\d+)\s+(?:\w+\s+)?(?:tasks?|requests?|work|items?)\b
        |now\s+\w+ing\b|i\s+(?:see|understand|notice|think|believe|can\s+see|agree)\b|you\s+(?:want|wanted|'d\s+like|would\s+like|asked|need|are\s+right|'re\s+right)\b
        |(?:now\s+)?(?:the|this|that|it|our)\s+(?:\w+\s+)?(?:solution|approach|design|code|result|version|implementation|change|fix)\s+(?:is|looks|feels)\s+(?:now\s+|much\s+|far\s+|a\s+lot\s+|way\s+|so\s+)*(?:cleaner|simpler|better|nicer|clearer|faster|neater|good|great|clean|simple|elegant|correct|right)\b
        |(?:if|when|unless|whether|although|though|while|once)\b[^,]*$|(?:still\s+)?(?:working|looking|checking|reading|exploring|investigating)\s+(?:on|at|into|through)\b
        |i\s+(?:can't|cannot|can\s+not|couldn't|could\s+not)\b|i'm\s+(?:sorry|unable)|sorry\b|you\s+can\s+now\b|you\s+should\s+now\b|reload\b|refresh\s+the\s+page
        |it(?:'s|\s+is)\s+(?:now\s+)?(?:in\s+your|ready|available|live|working|done|all\s+set)\b
        |(?:summary|overview|results?|status|next\s+steps|changes\s+made|what\s+changed|completed\s+tasks|key\s+changes)$
        )",
    )
});

/// A file reference in parentheses, with or without line numbers:
/// "(`src/a.ts:18`)", "(see `a.ts:40`)", "(line 58)", "(lines in `a.ts`)".
static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\s*\((?:see\s+|in\s+|at\s+|lines?\s+(?:in\s+)?)?`[^`]*`(?:(?:[,;]\s*|\s+and\s+)`[^`]*`)*\)|\s*\(lines?\s+[\d\s,–-]+\)",
    )
});

/// A line number on a path in a code span: "`src/a.ts:18`", "`a.ts:39-47`".
static LINE_NUMBER: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"`(?P<path>[^`\s]+?):\d+(?:[-–]\d+)?`"));

static LINK: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"\[([^\]]+)\]\([^)]*\)"));

/// A path under a temporary folder: the file's own name is what matters.
static TEMPORARY: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(r"(?:/private)?(?:/tmp|/var/folders|/var/tmp)/(?:[^\s`'\x22)]*/)?(?P<name>[^\s/`'\x22)]*)")
});

/// Shell syntax a reader sees at once: a substitution, a here-document.
static SHELL: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"\$\(|<<-?\s*'?[A-Z]+'?|\bEOF\b"));

/// A report heading read as a sentence: "Summary.", "… Next steps:".
static HEADING: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)(?:^|[.:;] )(?:summary|completed tasks|changes made|what changed|next steps|overview)[.:]",
    )
});

/// Conversational openers a reader sees at once.
static CHAT_OPENING: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)^(?:yes|no|ok|okay|sure|great|perfect|excellent|awesome|that's|that is|this is a|i have|i've|i'll|i will|i'm|let me|now i|background task|a notification|here's|here is|all done)\b",
    )
});

/// Whether a text is free of what a reader sees at once as machine-made:
/// shell syntax, a chat opener, a report heading read as a sentence, a
/// temporary path, and backticks, parentheses or quotes left open (a cut in
/// mid-phrase).
pub fn is_clean(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && !SHELL.is_match(t)
        && !CHAT_OPENING.is_match(t)
        && !HEADING.is_match(t)
        && !t.contains("/tmp/")
        && !t.contains("/var/folders/")
        && balanced(t)
}

/// Whether what follows a label in a cut clause ("Added retries for
/// refunds: transient Stripe failures") is a clause of its own, not a noun
/// phrase the cut left hanging.
fn complete_after_colon(prefix: &str) -> bool {
    let Some((_, after)) = prefix.rsplit_once(": ") else { return true };
    let words: Vec<String> = after
        .split('`')
        .step_by(2)
        .flat_map(str::split_whitespace)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .collect();
    words.iter().any(|w| {
        [
            "is", "are", "was", "were", "has", "have", "now", "uses", "runs", "takes", "gets", "goes", "keeps",
            "stays", "must", "can", "will",
        ]
        .contains(&w.as_str())
            || (w.len() > 4 && w.ends_with("ed"))
    })
}

/// Words outside code spans: a clause says something in words, not only
/// names a command.
fn prose_words(text: &str) -> usize {
    text.split('`').step_by(2).flat_map(str::split_whitespace).filter(|w| w.chars().any(char::is_alphabetic)).count()
}

/// Backticks, parentheses and double quotes all closed (code spans may
/// hold any bracket or quote).
fn balanced(text: &str) -> bool {
    if text.matches('`').count() % 2 == 1 {
        return false;
    }
    let mut outside = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            outside.push(c);
        }
    }
    outside.matches('(').count() == outside.matches(')').count() && outside.matches('"').count().is_multiple_of(2)
}

/// The text of a line without markdown: links become their text, emphasis
/// and list or heading markers go, leading symbols (emoji, check marks) are
/// dropped, white space is collapsed.
fn unmarked(line: &str) -> String {
    let text = without_emphasis(&LINK.replace_all(line, "$1"));
    let mut s = text.trim();
    loop {
        let before = s;
        for marker in ["- ", "* ", "+ ", "#", "> ", "[x] ", "[ ] "] {
            s = s.strip_prefix(marker).unwrap_or(s).trim_start();
        }
        let digits = s.chars().take_while(char::is_ascii_digit).count();
        let rest = s.get(digits..).unwrap_or("");
        if digits > 0 && (rest.starts_with(". ") || rest.starts_with(") ")) {
            s = rest.get(2..).unwrap_or("").trim_start();
        }
        s = s.trim_start_matches(|c: char| !(c.is_alphanumeric() || "`.~/$@%(\"'<[".contains(c)));
        if s == before {
            break;
        }
    }
    let s = s.replace(['“', '”'], "\"").replace(['‘', '’'], "'");
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A line without its bold and underline markers (`**done**`, `__done__`),
/// outside code spans only, and never a name's own underscores
/// (`__init__.py` keeps them).
fn without_emphasis(line: &str) -> String {
    static UNDERLINE: LazyLock<Regex> = LazyLock::new(|| {
        crate::pattern::regex(r"(^|[\s(\[])__([^_\s](?:[^_]*[^_\s])?)__([\s),;:!?\]]|$|\.(?:\s|$))")
    });
    line.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                return format!("`{part}`");
            }
            let part = part.replace("**", "");
            UNDERLINE.replace_all(&part, "$1$2$3").into_owned()
        })
        .collect::<String>()
}

fn without_opener(text: &str) -> String {
    let text = OPENER.replace(text, "");
    let text = SUCCESSFULLY.replace_all(&text, "$verb");
    SPEAKER.replace(&text, "$verb").into_owned()
}

fn without_references(text: &str) -> String {
    let text = REFERENCE.replace_all(text, "");
    LINE_NUMBER.replace_all(&text, "`$path`").into_owned()
}

fn without_temporary_dirs(text: &str) -> String {
    TEMPORARY.replace_all(text, "$name").into_owned()
}

/// A sentence with a capital first letter, unless its first word is a name
/// (`v0.4.0`, `hello.py`, `npm`) that must keep its case.
pub fn capitalised(s: &str) -> String {
    let first_word = s.split_whitespace().next().unwrap_or("");
    if !first_word.trim_end_matches([':', ',']).chars().all(char::is_alphabetic) {
        return s.to_string();
    }
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests;

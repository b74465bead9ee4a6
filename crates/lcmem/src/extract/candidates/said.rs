//! The person's own words about the project: the best evidence a session
//! holds. Every sentence of theirs that states how the project is or how
//! the team works is a candidate, wherever the client recorded it (a prompt,
//! the answer to a question the agent asked, what they said when they
//! refused a call, the message after an interruption), in whatever language.
//!
//! What a person writes to an agent is mostly requests, questions and
//! reactions, so a sentence is read by its grammar:
//!
//! - a **question** ("why do we need stats?"), a **greeting** or a
//!   **reaction** ("that's better", "ok continue") is no fact;
//! - a **request** (a sentence that opens with a verb: "fix the login bug",
//!   "let's remove the red highlight", "can you …") is the day's task, no
//!   fact, unless it is framed as a rule of the product ("make it so each
//!   piece has a cooldown of 10 seconds", "change the rule so that the game
//!   ends when the king is captured"): then what follows the frame is;
//! - a **rule** ("always …", "never …", "do not …", "only … when …", "we use
//!   …") is a convention; one worded as an order is recorded, and withheld
//!   until confirmed, by the facts fold;
//! - a **statement** (a subject, then its verb: "deploys go out from tags
//!   only", "being in check has no other effect than the overlay") is a fact,
//!   unless it reports what the person saw that day ("nothing happens when I
//!   press new game", "I'm getting: …"), which is a bug report;
//! - an **answer** to the agent's question is the person's choice, worded
//!   with the question's subject ("Scrolling approach: AI Elements
//!   components.").
//!
//! A statement that points back ("it should be clean like the shadcn
//! examples") is given the thing the request before it named.

use super::{Candidate, Kind, Place};
use crate::extract::clip;
use crate::facts::Origin;
use crate::facts::subject;

/// Longest fact taken from a person's sentence, in characters.
const MAX_CHARS: usize = 240;

/// What one of the person's turns holds as candidates: its sentences, or its
/// answer to `question`.
pub(super) fn candidates(text: &str, question: Option<&str>, at: Place) -> Vec<Candidate> {
    if let Some(question) = question {
        return answer(question, text, at).into_iter().collect();
    }
    if is_text_to_edit(text) {
        return Vec::new();
    }
    let mut out: Vec<Candidate> = description(text).map(|d| candidate(d, Kind::Decision, false, None, at)).into_iter().collect();
    let mut named: Option<String> = None;
    for paragraph in paragraphs(text) {
        for sentence in sentences(&paragraph) {
            // "the house rules: wrap errors with %w, no panic outside main()":
            // each rule of the list is a convention of its own.
            if let Some(rules) = super::convention::inline_rules(&unmarked(&sentence)) {
                out.extend(rules.into_iter().map(|text| candidate(text, Kind::Convention, true, None, at)));
                continue;
            }
            for clause in clauses(&sentence) {
                if let Some(found) = read(&clause, named.as_deref(), at) {
                    out.push(found);
                }
            }
            // Only the sentence just before a pointer says what it points at.
            named = object_named(&sentence);
        }
    }
    out
}

/// Where a sentence turns ("it's good, but the issue is …", "we don't
/// control it - it's a third-party tool"): each part is read on its own.
fn clauses(sentence: &str) -> Vec<String> {
    if is_east_asian(sentence) {
        return vec![sentence.to_string()];
    }
    let mut parts = vec![sentence.to_string()];
    for turn in [", however ", "; however ", ", but ", "; ", " - ", " — ", " – "] {
        parts = parts.iter().flat_map(|p| p.split(turn).map(str::to_string).collect::<Vec<_>>()).collect();
    }
    parts.into_iter().map(|p| p.trim().to_string()).filter(|p| p.split_whitespace().count() >= 3).collect()
}

/// What a document the person wrote says the project is: the paragraph
/// under a heading that describes it ("One-Line Description", "Overview",
/// "What we are building"), as a sentence about the document's subject (the
/// first heading's name: "PolyDot — Complete Build Specification" →
/// "PolyDot"). A specification pasted whole is mostly detail; this is the
/// line a teammate would keep of it.
fn description(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let headings = lines.iter().filter(|l| l.starts_with('#')).count();
    if headings < 3 {
        return None;
    }
    let title = lines.iter().find(|l| l.starts_with('#'))?.trim_start_matches('#').trim();
    let name = title.split([' ', ':', '—', '-']).find(|w| !w.is_empty())?.trim();
    let describes = ["description", "overview", "summary", "what we are building", "what it is", "about"];
    let body_after = |at: usize| {
        let body: Vec<&str> = lines
            .iter()
            .skip(at + 1)
            .skip_while(|l| l.is_empty())
            .take_while(|l| !l.is_empty() && !l.starts_with('#'))
            .copied()
            .collect();
        body.join(" ")
    };
    let paragraph = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with('#') && describes.iter().any(|d| l.to_lowercase().contains(d)))
        .map(|(at, _)| body_after(at))
        .find(|p| (5..=60).contains(&p.split_whitespace().count()) && !p.starts_with(['-', '*', '|']))?;
    // "A decentralized market where …" names what the project is.
    let lower = paragraph.to_lowercase();
    let sentence = if ["a ", "an ", "the "].iter().any(|a| lower.starts_with(a)) {
        let mut chars = paragraph.chars();
        let lowered: String = chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default();
        format!("{name} is {lowered}")
    } else {
        format!("{name}: {paragraph}")
    };
    sentence_of(&sentence)
}

/// A request to work on a text the person gives ("refine this message for
/// the pitch: …", "translate: …"): what follows is the text, not what they
/// say of the project.
fn is_text_to_edit(text: &str) -> bool {
    let w = words(text);
    let edits = ["refine", "rewrite", "rephrase", "translate", "proofread", "shorten", "polish", "reword", "edit"];
    w.first().is_some_and(|v| edits.contains(&v.as_str()))
        || text.split_once(" > ").is_some_and(|(lead, _)| lead.split_whitespace().count() <= 12)
}

/// The paragraphs of a message that are the person's prose: code, quoted
/// lines and what they pasted (an error, a log) left out.
fn paragraphs(text: &str) -> Vec<String> {
    let prose = crate::extract::text::prose(text);
    let mut out = Vec::new();
    let mut pasting = false;
    for block in prose.split("\n\n") {
        let block = block.trim();
        if block.is_empty() {
            continue;
        }
        // "I'm getting:" (and what follows it) is a paste, not prose.
        if pasting || looks_pasted(block) {
            pasting = false;
            continue;
        }
        pasting = block.trim_end().ends_with(':') && block.lines().count() == 1 && !is_rule_lead(block);
        out.push(block.to_string());
    }
    out
}

/// A lead-in to a list of rules ("the rules:", "conventions:").
fn is_rule_lead(line: &str) -> bool {
    let lower = line.to_lowercase();
    ["rule", "convention", "guideline", "policy", "standard"].iter().any(|w| lower.contains(w))
}

/// Whether a block is output the person pasted: an error, a stack, a log.
fn looks_pasted(block: &str) -> bool {
    let lower = block.to_lowercase();
    let first = lower.lines().next().unwrap_or("");
    let marks = ["error:", "error ", "exception", "traceback", "warning:", "failed", "panicked", "blocked by", "at "];
    marks.iter().any(|m| first.starts_with(m))
        || block.lines().filter(|l| l.trim_start().starts_with("at ") || l.contains("    at ")).count() >= 2
        || (lower.contains("file://") || lower.contains("http://") || lower.contains("https://"))
            && marks.iter().any(|m| lower.contains(m))
}

/// The lines of a paragraph as the person meant them: a list item or a
/// heading is a line of its own, and a line a narrow terminal wrapped goes
/// on with the next one.
fn joined_lines(paragraph: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for raw in paragraph.lines() {
        let line = raw.trim();
        if line.is_empty() {
            open = false;
            continue;
        }
        let digits = line.chars().take_while(char::is_ascii_digit).count();
        // "Font: Inter or Geist" on a line of its own is a line of its own.
        let labelled = line.split_once(": ").is_some_and(|(label, _)| {
            label.chars().next().is_some_and(char::is_uppercase) && label.split_whitespace().count() <= 3
        });
        let item = labelled
            || line.starts_with(['-', '*', '+', '#', '>', '|'])
            || (digits > 0
                && line.get(digits..).is_some_and(|r| r.starts_with(". ") || r.starts_with(") ") || r.starts_with(": ")));
        match out.last_mut() {
            Some(last) if open && !item => {
                last.push(' ');
                last.push_str(line);
            }
            _ => out.push(line.to_string()),
        }
        // A line that ends its sentence (or a heading, or a label) ends it.
        open = !line.ends_with(['.', '!', '?', ':', '。', '！', '？']) && !line.starts_with('#');
    }
    out
}

/// The sentences of a paragraph, at Western and East Asian sentence ends,
/// each a list item or line of its own.
fn sentences(paragraph: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in joined_lines(paragraph) {
        let line = line.trim().trim_start_matches(['-', '*', '+', '>', '#']).trim();
        let mut current = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            current.push(c);
            // A full stop ends a sentence before white space, or before the
            // quote or bracket that closes around it (`… be moved." Make …`).
            let western = matches!(c, '.' | '!' | '?')
                && chars.peek().is_none_or(|n| n.is_whitespace() || matches!(n, '"' | '\'' | ')' | '”' | '’'));
            if western {
                while let Some(&close) = chars.peek().filter(|n| matches!(n, '"' | '\'' | ')' | '”' | '’')) {
                    current.push(close);
                    chars.next();
                }
            }
            let eastern = matches!(c, '。' | '！' | '？' | '；');
            if western || eastern {
                push(&mut out, &current);
                current.clear();
            }
        }
        push(&mut out, &current);
    }
    out
}

fn push(out: &mut Vec<String>, sentence: &str) {
    // A list's numbering ("1:", "2)") is no part of the sentence.
    let digits = sentence.trim_start().chars().take_while(char::is_ascii_digit).count();
    let sentence = match sentence.trim_start().get(digits..) {
        Some(rest) if digits > 0 && rest.starts_with([':', ')', '.']) => rest.get(1..).unwrap_or(""),
        _ => sentence,
    };
    let sentence = sentence.trim();
    if sentence.chars().filter(|c| c.is_alphanumeric()).count() >= 4 {
        out.push(sentence.to_string());
    }
}

/// What a sentence of the person's says, as a candidate, if anything.
/// `named` is the thing the last request named, for a statement that points
/// back at it.
fn read(sentence: &str, named: Option<&str>, at: Place) -> Option<Candidate> {
    if is_east_asian(sentence) {
        return east_asian(sentence, at);
    }
    let sentence = unmarked(sentence);
    if is_question(&sentence) || is_reaction(&sentence) || !is_english(&sentence) {
        return None;
    }
    let (rest, lasting) = without_lead(&sentence);
    let framed = spec_frame(&rest).is_some();
    let rest = match spec_frame(&rest) {
        Some(rule) => rule,
        // Any other request is the day's task, and no fact ("remove the -o
        // option and always write to the file" too: its "always" is part of
        // the task); a rule worded as an order opens with its rule word, and
        // is a convention (withheld until confirmed).
        None if !opens_with_rule(&rest)
            && (opens_with_verb(&rest) || opens_with_dont(&rest) || request_after_lead(&rest)) =>
        {
            return None;
        }
        None => rest,
    };
    if (reports_the_day(&rest) && !lasting) || is_code(&rest) || lacks_subject(&rest) {
        return None;
    }
    let rest = resolve_pointer(&rest, named)?;
    // What the person asked for, described ("one stat widget will be …"):
    // the request's shape, not how the project is. The team's own "we will"
    // is a decision.
    let w = words(&rest);
    if w.iter().skip(1).take(5).any(|x| x == "will") && !matches!(w.first().map(String::as_str), Some("we" | "our")) {
        return None;
    }
    // "… has components for this": what it points at is not said.
    let pointing = ["for", "with", "like", "about", "to", "of"];
    if let [.., before, last] = w.as_slice()
        && pointing.contains(&before.as_str())
        && ["this", "that", "it", "them", "these"].contains(&last.as_str())
    {
        return None;
    }
    // A status of the day ("the build is green") or a judgement ("the parser
    // is the slow part") says nothing lasting.
    let rule = is_rule(&rest) || is_team_practice(&rest);
    if !rule
        && (super::chatter::is_status(&rest) || subject::parse(&rest).is_some_and(|s| super::chatter::idle(&s).is_some()))
    {
        return None;
    }
    // Talk about the conversation ("the issue must be addressed", "option 1
    // is not acceptable") is not about the project.
    let head: Vec<String> = words(&rest).into_iter().take(3).collect();
    let talk = ["option", "context", "proposal", "plan", "idea", "question", "answer", "step"];
    if super::chatter::is_meta_subject(&head.join(" ")) || head.iter().any(|w| talk.contains(&w.as_str())) {
        return None;
    }
    let text = sentence_of(&rest)?;
    let statement = subject::parse(&text);
    let convention = is_rule(&text) || is_team_practice(&text) || statement.as_ref().is_some_and(super::convention::is_practice);
    // A rule of the product the person set ("make it so …") ranks as a rule.
    let kind = if convention || framed { Kind::Convention } else { Kind::Statement };
    if !convention && statement.is_none() && !super::super::clause::has_verb(&text) {
        return None;
    }
    Some(candidate(text, kind, convention, statement, at))
}

fn candidate(
    text: String,
    kind: Kind,
    convention: bool,
    statement: Option<subject::Statement>,
    at: Place,
) -> Candidate {
    Candidate {
        text,
        origin: Origin::User,
        kind,
        convention,
        statement,
        final_report: at.final_report,
        order: at.order,
        said: true,
    }
}

/// The person's answer to the agent's question, worded with the question's
/// subject when the answer alone does not say what it is about.
fn answer(question: &str, answer: &str, at: Place) -> Option<Candidate> {
    let answer = unmarked(answer.trim());
    let first = sentences(&answer).into_iter().next().unwrap_or_default();
    let answer = first.trim_end_matches(['.', '!']).trim();
    if answer.is_empty() || is_reaction(answer) {
        return None;
    }
    // A choice worded as a request is reported as the person's choice, not
    // given as an order of theirs.
    let said = if opens_with_verb(answer) {
        let mut chars = answer.chars();
        let lowered: String = chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default();
        format!("the user chose to {lowered}")
    } else {
        answer.to_string()
    };
    let text = match topic(question) {
        Some(topic) => format!("{}: {}.", capitalised(&topic), clip(&said, MAX_CHARS)),
        None if !opens_with_verb(answer) && super::super::clause::has_verb(answer) => sentence_of(answer)?,
        None => return None,
    };
    Some(candidate(text, Kind::Decision, false, None, at))
}

/// What a question asks about: "Which scrolling approach would you like to
/// implement?" → "scrolling approach"; "What scroll behavior do you prefer
/// when new messages arrive?" → "scroll behavior when new messages arrive".
fn topic(question: &str) -> Option<String> {
    let q = question.trim().trim_end_matches('?').trim();
    let lower = q.to_lowercase();
    let rest = ["which ", "what "].iter().find_map(|w| lower.strip_prefix(w).map(|_| q.get(w.len()..)))??;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let auxiliaries = ["would", "do", "does", "should", "shall", "will", "is", "are", "can", "could", "to"];
    let cut = words.iter().position(|w| auxiliaries.contains(&w.to_lowercase().as_str()))?;
    let noun: Vec<&str> = words.iter().take(cut).copied().collect();
    if noun.is_empty() || noun.len() > 6 {
        return None;
    }
    // What the question says of when or where ("when new messages arrive").
    let tail: Vec<&str> = words.iter().skip(cut).copied().collect();
    let when = tail.iter().position(|w| ["when", "for", "in", "on", "during"].contains(&w.to_lowercase().as_str()));
    let scope = when.map(|i| tail.iter().skip(i).copied().collect::<Vec<_>>().join(" ")).unwrap_or_default();
    let topic = format!("{} {scope}", noun.join(" "));
    Some(topic.trim().to_string())
}

/// The sentence without its Markdown emphasis (`**bold**`, `*it*`,
/// `_it_`); an underscore inside a word (`member_id`) stays.
fn unmarked(sentence: &str) -> String {
    let words: Vec<String> = sentence
        .split_whitespace()
        .map(|w| {
            let w = w.replace("**", "").replace("__", "").replace('\u{200b}', "");
            let inner = w.trim_matches(|c: char| c == '*' || c == '_');
            let (lead, trail) = (w.len() - w.trim_start_matches(['*', '_']).len(), w.len() - w.trim_end_matches(['*', '_']).len());
            if lead > 0 || trail > 0 { inner.to_string() } else { w.clone() }
        })
        .filter(|w| !w.is_empty())
        .collect();
    words.join(" ")
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’').to_lowercase())
        .filter(|w| !w.is_empty())
        .map(|w| w.replace('’', "'"))
        .collect()
}

/// A question, by its mark or its opening.
fn is_question(sentence: &str) -> bool {
    let w = words(sentence);
    let first = w.first().map(String::as_str).unwrap_or("");
    let second = w.get(1).map(String::as_str).unwrap_or("");
    let asks = ["what", "why", "how", "where", "which", "who", "whom", "whose"];
    let inverted = ["is", "are", "was", "were", "do", "does", "did", "can", "could", "would", "will", "should", "shall"];
    let pronouns = ["you", "we", "i", "it", "this", "that", "there", "they", "the"];
    sentence.trim_end().ends_with('?')
        || asks.contains(&first) && !["is", "was"].contains(&second)
        || inverted.contains(&first) && pronouns.contains(&second)
}

/// Whether a sentence is English prose: it holds at least two of the small
/// words English sentences are made with (a sample text, a name list or
/// another language in Latin letters holds fewer).
fn is_english(sentence: &str) -> bool {
    const SMALL: &[&str] = &[
        "the", "a", "an", "is", "are", "was", "be", "to", "of", "and", "for", "with", "on", "at", "by", "we", "our",
        "it", "its", "this", "that", "has", "have", "should", "must", "can", "will", "not", "no", "only", "all",
        "each", "every", "from", "as", "when", "if", "then", "than", "there", "they", "their", "don't", "do", "does",
        "never", "always", "use", "uses", "any", "so", "but", "or",
    ];
    let all = words(sentence);
    let mut seen: Vec<String> = all.iter().filter(|w| SMALL.contains(&w.as_str())).cloned().collect();
    seen.sort();
    seen.dedup();
    // A short sentence may hold none ("Commits follow Conventional Commits").
    seen.len() >= 2 || all.len() < 8
}

/// A greeting, a thanks, a go-ahead or a verdict on the agent's work.
fn is_reaction(sentence: &str) -> bool {
    let w = words(sentence);
    let first = w.first().map(String::as_str).unwrap_or("");
    let opening = w.iter().take(3).map(String::as_str).collect::<Vec<_>>().join(" ");
    let reactions = [
        "hi", "hey", "hello", "thanks", "thank", "thx", "ok", "okay", "k", "great", "perfect", "nice", "cool", "good",
        "awesome", "yes", "yep", "yeah", "no", "nope", "sure", "continue", "proceed", "go", "done", "lgtm", "wow",
        "hmm", "oops", "sorry", "please",
    ];
    let verdicts =
        ["that's", "that is", "this is", "it's", "it is", "looks", "still", "almost", "much", "the main idea", "the idea"];
    (reactions.contains(&first) && w.len() <= 4)
        || verdicts.iter().any(|v| opening.starts_with(v))
            && ["better", "good", "right", "great", "wrong", "fine", "perfect", "it", "almost", "close", "not", "bad"]
                .iter()
                .any(|x| w.iter().take(5).any(|y| y == x))
}

/// The sentence without what only leads into it ("ok,", "also", "now",
/// "note that"), and whether that lead said it is lasting ("from now on",
/// "remember that", "for the record").
fn without_lead(sentence: &str) -> (String, bool) {
    let mut rest = sentence.trim().to_string();
    let mut lasting = false;
    loop {
        let lower = rest.to_lowercase();
        let leads = [
            ("from now on", true),
            ("going forward", true),
            ("for the record", true),
            ("remember that", true),
            ("remember,", true),
            ("keep in mind that", true),
            ("note that", true),
            ("fyi", true),
            ("btw", false),
            ("reminder:", true),
            ("important:", true),
            ("ok so", false),
            ("nah", false),
            ("yeah", false),
            ("yes", false),
            ("ok", false),
            ("okay", false),
            ("so", false),
            ("also", false),
            ("and", false),
            ("but", false),
            ("now", false),
            ("then", false),
            ("actually", false),
            ("well", false),
            ("please", false),
            ("just", false),
            ("first", false),
            ("next", false),
            ("finally", false),
        ];
        let Some((lead, marks)) = leads.iter().find(|(lead, _)| {
            lower.starts_with(lead)
                && lower.get(lead.len()..).is_some_and(|after| after.starts_with([' ', ',', ':']) || lead.ends_with([',', ':']))
        }) else {
            break;
        };
        lasting |= *marks;
        rest = rest.get(lead.len()..).unwrap_or("").trim_start_matches([',', ':', ' ']).to_string();
    }
    (rest, lasting)
}

/// What a request framed as a rule of the product asks to hold ("make it so
/// X", "change the rule so that X", "X from now on"), as a statement.
fn spec_frame(sentence: &str) -> Option<String> {
    let lower = sentence.to_lowercase();
    let frames = [
        "make it so that ",
        "make it so ",
        "change the rule so that ",
        "change the rule such that ",
        "change the rules so that ",
        "change the rule so ",
        "change it so that ",
        "change it so ",
        "change this so that ",
        "set it up so that ",
        "the rule is that ",
        "the rule is ",
    ];
    let frame = frames.iter().find(|f| lower.starts_with(*f))?;
    let rule = sentence.get(frame.len()..)?.trim();
    (rule.split_whitespace().count() >= 3).then(|| rule.to_string())
}


fn opens_with_verb(sentence: &str) -> bool {
    words(sentence).first().is_some_and(|w| super::super::clause::REQUEST_VERBS.contains(&w.as_str()))
}

/// "For displaying the pieces, download them from …": a request after a
/// phrase that sets it up.
fn request_after_lead(sentence: &str) -> bool {
    sentence.split_once(", ").is_some_and(|(lead, main)| lead.split_whitespace().count() <= 8 && opens_with_verb(main))
}

/// A rule that opens with its rule word: "always …", "never …", "do not …",
/// "only …", "don't …". A "don't" about the work at hand ("don't produce
/// code, design the solution first", "don't add notes") is the day's
/// request: it speaks of this time, this output, or goes on to another order.
fn opens_with_rule(sentence: &str) -> bool {
    let w = words(sentence);
    let first = w.first().map(String::as_str).unwrap_or("");
    let dont = first == "don't" || (first == "do" && w.get(1).is_some_and(|n| n == "not"));
    let this_time = ["first", "yet", "now", "this", "these", "here", "again", "anything", "notes", "code"];
    let for_now = w.iter().any(|x| this_time.contains(&x.as_str())) || sentence.contains(", ");
    // "Only when there's a retry …" opens a clause, not a rule.
    let clause = w.get(1).is_some_and(|n| ["when", "if", "after", "before", "once", "while", "for"].contains(&n.as_str()));
    !clause && (["always", "never", "only", "avoid"].contains(&first) || (dont && !for_now))
}

/// A "don't" that is no rule ([`opens_with_rule`]) is a request of the day.
fn opens_with_dont(sentence: &str) -> bool {
    let w = words(sentence);
    w.first().is_some_and(|f| f == "don't") || (w.first().is_some_and(|f| f == "do") && w.get(1).is_some_and(|n| n == "not"))
}

/// A line of code, or a command, the person pasted without a fence.
fn is_code(sentence: &str) -> bool {
    if sentence.contains(" && ") || sentence.contains(" | ") || sentence.trim_start().starts_with("$ ") {
        return true;
    }
    let first = words(sentence).first().cloned().unwrap_or_default();
    let keywords = ["const", "let", "var", "import", "export", "function", "def", "class", "return", "fn", "pub", "use"];
    let symbols = sentence.chars().filter(|c| "{}[]()=<>;".contains(*c)).count();
    let indexed = sentence.split_whitespace().any(|w| w.contains('[') && w.contains(']'));
    (keywords.contains(&first.as_str()) && symbols > 0) || symbols * 12 > sentence.chars().count() || indexed
}

/// A sentence that opens with its verb's helper, its subject left out
/// ("must be less than 150 char"): no subject, so no fact.
fn lacks_subject(sentence: &str) -> bool {
    let first = words(sentence).first().cloned().unwrap_or_default();
    ["must", "should", "can", "could", "will", "would", "is", "are", "was", "were", "has", "have", "needs"]
        .contains(&first.as_str())
}

/// A rule of the house: an always, a never, a do-not, an only, a must.
fn is_rule(sentence: &str) -> bool {
    let w = words(sentence);
    let first = w.first().map(String::as_str).unwrap_or("");
    let has = |x: &str| w.iter().any(|y| y == x);
    let pair = |a: &str, b: &str| w.windows(2).any(|p| matches!(p, [x, y] if x == a && y == b));
    ["always", "never", "only", "don't", "avoid"].contains(&first)
        || pair("do", "not")
        || has("must")
        || has("mustn't")
        || has("never")
        || has("always")
        || (has("only") && (has("when") || has("on") || has("from") || has("if") || has("with")))
}

/// "We use pnpm", "our deploys go out on Fridays": how the team works.
fn is_team_practice(sentence: &str) -> bool {
    let w = words(sentence);
    matches!(w.first().map(String::as_str), Some("we" | "our" | "we're" | "we've" | "we'll"))
        && w.iter().skip(1).take(3).any(|v| {
            [
                "use", "deploy", "release", "ship", "follow", "keep", "prefer", "run", "tag", "squash", "rebase",
                "merge", "review", "pin", "store", "commit", "push", "avoid", "require", "will", "want", "need",
                "host", "write", "name", "version", "don't", "never", "always", "only",
            ]
            .contains(&v.as_str())
        })
}

/// What the person saw that day rather than how things are: "nothing
/// happens when I press new game", "I'm getting …", "no data is showing".
fn reports_the_day(sentence: &str) -> bool {
    let w = words(sentence);
    let lower = sentence.to_lowercase();
    // What the person saw or did themselves: "I see 4 queries", "the name I
    // am logged in with".
    let experience = w.iter().any(|x| ["i", "i'm", "i've", "i'd", "i'll", "my", "me"].contains(&x.as_str()));
    let seen = [
        "nothing happens",
        "doesn't work",
        "does not work",
        "doesn't seem",
        "not working",
        "isn't working",
        "is broken",
        "are broken",
        "not showing",
        "isn't showing",
        "no data",
        "not loading",
        "isn't loading",
        "still",
        "currently",
        " fail",
        "failing",
        "crash",
        "error",
        "broken",
        "right now",
        "at the moment",
        "anymore",
        "for some reason",
        "looks weird",
        "look weird",
        "seems",
        "messed up",
        "is slow",
        "are slow",
        "very slow",
    ];
    // The present progressive tells the moment ("no teams are loading").
    let progressive = w.windows(2).any(|p| {
        matches!(p, [be, ing] if ["is", "are", "isn't", "aren't", "am"].contains(&be.as_str())
            && ing.len() > 4 && ing.ends_with("ing"))
    });
    experience || progressive || seen.iter().any(|s| lower.contains(s))
}

/// A statement that points back ("it", "this") at the thing the request
/// before it named, given that thing; `None` when nothing says what it is.
fn resolve_pointer(sentence: &str, named: Option<&str>) -> Option<String> {
    let mut parts = sentence.splitn(2, ' ');
    let first = parts.next().unwrap_or("");
    let rest = parts.next().unwrap_or("");
    let pointer = ["it", "this", "that", "they", "these", "those"].contains(&first.to_lowercase().as_str());
    if !pointer {
        return Some(sentence.to_string());
    }
    let named = named?;
    let verb = words(rest).first().cloned().unwrap_or_default();
    let states = ["should", "must", "needs", "has", "is", "are", "shouldn't", "can't", "cannot", "will", "only"];
    states.contains(&verb.as_str()).then(|| format!("{named} {rest}"))
}

/// The thing a request names: the noun phrase after its verb ("cleanup the
/// auth page to …" → "the auth page").
fn object_named(sentence: &str) -> Option<String> {
    let (sentence, _) = without_lead(&unmarked(sentence));
    if !opens_with_verb(&sentence) {
        return None;
    }
    let all: Vec<&str> = sentence.split_whitespace().collect();
    let verb_at = all.iter().position(|w| super::super::clause::REQUEST_VERBS.contains(&w.to_lowercase().trim_matches(',').to_string().as_str()))?;
    let after: Vec<&str> = all.iter().skip(verb_at + 1).copied().collect();
    let start = after
        .iter()
        .position(|w| ["the", "a", "an", "our", "this", "that", "my", "your"].contains(&w.to_lowercase().as_str()))?;
    if start > 2 {
        return None;
    }
    let stops = ["to", "so", "and", "with", "for", "in", "on", "by", "that", "which", "from", "of", "into", "as"];
    let phrase: Vec<&str> = after
        .iter()
        .skip(start)
        .take_while(|w| !stops.contains(&w.to_lowercase().as_str()))
        .take(5)
        .map(|w| w.trim_matches(|c: char| matches!(c, ',' | '.' | ';' | ':' | '!' | '?')))
        .collect();
    (phrase.len() >= 2).then(|| phrase.join(" "))
}


/// The sentence as memory keeps it: capitalised, one full stop, clipped;
/// `None` for a fragment that ends on a word that needs more after it ("the
/// usage will be").
fn sentence_of(text: &str) -> Option<String> {
    let mut text = text.trim().trim_end_matches([',', ';', ':', ' ']).to_string();
    // A closing quote with no opening one in the sentence is the end of a quotation.
    for quote in ['"', '”'] {
        if text.ends_with(quote) && text.matches(['"', '“', '”']).count() % 2 == 1 {
            text.pop();
        }
    }
    let text = text.trim_end();
    if text.split_whitespace().count() < 3 || text.chars().filter(|c| c.is_alphanumeric()).count() < 10 {
        return None;
    }
    let last = words(text).last().cloned().unwrap_or_default();
    let dangling = ["be", "is", "are", "was", "the", "a", "an", "to", "of", "with", "for", "and", "or", "but", "in"];
    if dangling.contains(&last.as_str()) {
        return None;
    }
    let text = clip(text, MAX_CHARS);
    let text = capitalised(&text);
    Some(if text.ends_with(['.', '!', '…', '。']) { text } else { format!("{text}.") })
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// Whether a sentence is written in Chinese, Japanese or Korean.
pub(super) fn is_east_asian(sentence: &str) -> bool {
    let cjk = sentence.chars().filter(|c| is_cjk(*c)).count();
    cjk >= 4 && cjk * 3 >= sentence.chars().filter(|c| !c.is_whitespace()).count()
}

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3040}'..='\u{30ff}' | '\u{ac00}'..='\u{d7af}' | '\u{3400}'..='\u{4dbf}')
}

/// A sentence in Chinese, Japanese or Korean: a rule when it says always,
/// never, only, must or "we use"; a statement when it says what something
/// is; never a question or a request.
fn east_asian(sentence: &str, at: Place) -> Option<Candidate> {
    let s = sentence.trim();
    let question = s.ends_with(['？', '?']) || ["吗", "呢", "까요", "나요", "니까"].iter().any(|q| s.trim_end_matches(['。', '.']).ends_with(q));
    // 请 / 帮我 / 麻烦 (please, help me), 해 주세요 / 해줘 (please do): requests.
    let request = ["请", "帮我", "帮忙", "麻烦", "给我", "能不能", "可以帮", "ください", "해 주세요", "해주세요", "해줘", "부탁"]
        .iter()
        .any(|r| s.contains(r));
    if question || request {
        return None;
    }
    let rule = [
        "总是", "永远", "一律", "不要", "别用", "禁止", "只能", "只在", "只用", "必须", "应该", "统一", "我们用",
        "我们使用", "我们采用", "常に", "必ず", "しない", "だけ", "항상", "절대", "하지 마", "해야", "만 ", "우리는",
    ]
    .iter()
    .any(|w| s.contains(w));
    let statement = ["是", "在", "用", "通过", "です", "である", "입니다", "이다", "한다", "합니다"].iter().any(|w| s.contains(w));
    if !rule && !statement {
        return None;
    }
    let text = clip(s, MAX_CHARS);
    let kind = if rule { Kind::Convention } else { Kind::Statement };
    Some(candidate(text, kind, rule, None, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(text: &str) -> Vec<(String, bool)> {
        let at = Place { origin: Origin::User, final_report: false, order: 0 };
        candidates(text, None, at).into_iter().map(|c| (c.text, c.convention)).collect()
    }

    fn texts(text: &str) -> Vec<String> {
        facts(text).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn rules_and_statements_in_a_persons_words_are_facts_and_rules_are_conventions() {
        assert_eq!(
            facts("Deploys go out from tags only. We use Conventional Commits."),
            [("Deploys go out from tags only.".to_string(), true), ("We use Conventional Commits.".to_string(), true)]
        );
        assert_eq!(
            facts("we use pnpm in this repo, never npm"),
            [("We use pnpm in this repo, never npm.".to_string(), true)],
            "written in lower case and without a full stop, still a whole sentence"
        );
        assert_eq!(
            texts("Our deploys go out on Fridays only after the staging smoke test passes."),
            ["Our deploys go out on Fridays only after the staging smoke test passes."]
        );
        assert_eq!(
            texts("When a king is under check, that player can still move their other pieces. Being in check has no other effect than the overlay."),
            ["Being in check has no other effect than the overlay."],
            "what 'still' says of that day is not kept; the rule after it is"
        );
    }

    #[test]
    fn a_request_framed_as_a_rule_of_the_product_is_the_rule() {
        assert_eq!(
            texts("Make it so each piece has a cooldown of 10 seconds as soon as you move it."),
            ["Each piece has a cooldown of 10 seconds as soon as you move it."]
        );
        assert_eq!(
            texts("Change the rule such that the game is lost when the king is captured."),
            ["The game is lost when the king is captured."]
        );
    }

    #[test]
    fn questions_greetings_reactions_and_the_days_requests_are_no_facts() {
        for said in [
            "Hey",
            "Can you audit this codebase?",
            "Why do we need stats for the team?",
            "fix the login bug",
            "Let's remove the red highlight for taking",
            "undo the last change",
            "That's almost right.",
            "ok continue",
            "Nothing happens when I press new game.",
            "I'm getting:\n\nAccess to script at 'file:///x/app.js' from origin 'null' has been blocked by CORS policy.",
            "The drag and drop doesn't seem to be working.",
            "No teams or leads are loading into the pane now",
        ] {
            assert_eq!(texts(said), Vec::<String>::new(), "{said}");
        }
    }

    #[test]
    fn a_statement_that_points_back_is_given_what_the_request_named() {
        assert_eq!(
            texts("Can you cleanup the auth page to remove the inital layout. it should be clean like shadcn examples"),
            ["The auth page should be clean like shadcn examples."]
        );
        assert_eq!(texts("It should be fast."), Vec::<String>::new(), "nothing says what 'it' is");
    }

    #[test]
    fn an_answer_to_the_agents_question_is_worded_with_its_subject() {
        let at = Place { origin: Origin::User, final_report: false, order: 0 };
        let got = |q: &str, a: &str| candidates(a, Some(q), at).into_iter().map(|c| c.text).collect::<Vec<_>>();
        assert_eq!(
            got("Which scrolling approach would you like to implement?", "AI Elements components"),
            ["Scrolling approach: AI Elements components."]
        );
        assert_eq!(
            got(
                "What scroll behavior do you prefer when new messages arrive?",
                "Remove anything custom we have and use the ai elements approach"
            ),
            [
                "Scroll behavior when new messages arrive: the user chose to remove anything custom we have and use the \
                 ai elements approach."
            ]
        );
        assert_eq!(got("Which one?", "ok"), Vec::<String>::new());
    }

    #[test]
    fn chinese_and_korean_rules_and_statements_are_facts_and_their_requests_are_not() {
        assert_eq!(
            facts("我们使用 pnpm，不要用 npm。部署只在打 tag 时进行。请帮我修复登录的 bug。"),
            [
                ("我们使用 pnpm，不要用 npm。".to_string(), true),
                ("部署只在打 tag 时进行。".to_string(), true),
            ]
        );
        assert_eq!(
            facts("우리는 커밋 메시지에 Conventional Commits를 사용합니다. 로그인 버그를 고쳐 주세요. 왜 느린가요?"),
            [("우리는 커밋 메시지에 Conventional Commits를 사용합니다.".to_string(), true)]
        );
    }
}


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

mod grammar;
mod prose;
#[cfg(test)]
mod tests;

use grammar::{
    is_code, is_english, is_question, is_reaction, is_rule, is_team_practice, lacks_subject, opens_with_dont, opens_with_rule,
    reports_the_day, request_after_lead, spec_frame, without_lead,
};
pub(crate) use grammar::is_convention;
use prose::{capitalised, description, is_text_to_edit, paragraphs, sentence_of, sentences, unmarked, words};

use super::{Candidate, Kind, Place};
use crate::extract::clause::opens_with_request;
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
            && (opens_with_request(&rest) || opens_with_dont(&rest) || request_after_lead(&rest)) =>
        {
            return None;
        }
        None => rest,
    };
    // A rule names trouble to rule it out ("never on card errors"): it is
    // no report of the day.
    if (reports_the_day(&rest) && !lasting && !is_rule(&rest)) || is_code(&rest) || lacks_subject(&rest) {
        return None;
    }
    // What was done, said without a subject ("Merged and deployed, thanks.",
    // "Tagged and released v1.0.4."): the day's news, not how things are.
    let opener = words(&rest).first().cloned().unwrap_or_default();
    if !["i", "we", "i've", "we've"].contains(&opener.as_str()) && super::super::clause::reports_done(&rest) {
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
        && (super::chatter::is_status(&rest)
            || super::chatter::counts_the_code(&rest)
            || subject::parse(&rest).is_some_and(|s| super::chatter::idle(&s).is_some()))
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
    // A statement names its subject before its verb: a phrase from a list
    // ("Comparison toggle (…)") or a condition alone is none.
    if !convention && statement.is_none() && !super::super::clause::has_subject_and_verb(&text) {
        return None;
    }
    // "We should start with packages/services": the day's plan.
    let w = words(&text);
    if !is_rule(&text) && matches!(w.as_slice(), [we, should, ..] if we == "we" && should == "should") {
        return None;
    }
    // "Only when there's a retry before it.": a condition, its rule left out.
    if matches!(w.as_slice(), [only, when, ..] if only == "only" && ["when", "if"].contains(&when.as_str()))
        && !text.contains(", ")
    {
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
    let said = if opens_with_request(answer) {
        let mut chars = answer.chars();
        let lowered: String = chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default();
        format!("the user chose to {lowered}")
    } else {
        answer.to_string()
    };
    let text = match topic(question) {
        Some(topic) => format!("{}: {}.", capitalised(&topic), clip(&said, MAX_CHARS)),
        None if !opens_with_request(answer) && super::super::clause::has_verb(answer) => sentence_of(answer)?,
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
    if !opens_with_request(&sentence) {
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

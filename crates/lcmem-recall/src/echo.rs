//! Echoes and answers: the last step of a ranking, on its head only.
//!
//! - The same words said again (a question asked in several sessions, a
//!   pasted block, a report repeated) are one hit, the best-ranked copy, that
//!   carries where else they were said; the others leave room for what is
//!   not yet on the page.
//! - A person's question never comes before the agent's reply to it a few
//!   turns later in the same session: the reply is what the asker wanted.

use std::collections::HashMap;

use super::corpus::Corpus;
use super::kind::HitKind;
use super::rank::{Tuning, Unit};
use super::scan::TurnRole;
use super::spread::{Spread, spread};
use crate::error::Result;

/// How many more units than asked a ranking reads, so that echoes folded
/// away leave room for others.
pub(super) const DEPTH: usize = 2;

/// A reply this many turns after a question answers it (tool actions and
/// their output come between).
const ANSWER_REACH: u32 = 12;

/// A reply is lifted above its question only when it scores at least this
/// share of the question's score.
const REPLY_SHARE: f64 = 0.4;

/// The head of a ranking after folding: each unit kept, its score, and the
/// units that said the same words (best first).
pub(super) struct Folded {
    pub units: Vec<(Unit, f64)>,
    pub echoes: Vec<Vec<Unit>>,
}

/// Weighs each unit of `ranked` (best first) by `lift` of its text (see
/// `intent`), leaves out what scores under `floor` times the best, folds the
/// echoes into the best-ranked copy, lifts each reply found in it above the
/// question it answers, spreads the first page over sessions (see
/// `spread`), and keeps the best `limit` units.
pub(super) fn fold(
    corpus: &Corpus,
    ranked: Vec<(Unit, f64)>,
    limit: usize,
    tuning: &Tuning,
    lift: &mut dyn FnMut(&str) -> f64,
) -> Result<Folded> {
    let floor = tuning.floor;
    let mut read = Vec::with_capacity(ranked.len());
    for (unit, score) in ranked {
        let text = corpus.text(&unit)?.map(|(text, _)| text);
        // Tool output is evidence of what was there, not a statement.
        let tool = matches!(corpus.role(&unit), Some(TurnRole::Tool | TurnRole::Action));
        let score = score * text.as_deref().filter(|_| !tool).map_or(1.0, &mut *lift);
        read.push((unit, score, text));
    }
    // Stable: units the lift leaves alone keep their order.
    read.sort_by(|a, b| b.1.total_cmp(&a.1));
    // What scores a sliver of the best hit holds none of the words asked
    // about or nearly so (a word feedback lent, a session's share): it does
    // not fill the page.
    if let Some(best) = read.first().map(|r| r.1) {
        read.retain(|r| r.1 >= floor * best);
    }
    let mut kept: Vec<Kept> = Vec::with_capacity(read.len());
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (unit, score, text) in read {
        let text = text.filter(|_| unit.kind == HitKind::Turn);
        let key = text.as_deref().map(key).filter(|k| !k.is_empty());
        if let Some(&at) = key.as_ref().and_then(|k| seen.get(k)) {
            kept[at].echoes.push(unit);
            continue;
        }
        if let Some(key) = key {
            seen.insert(key, kept.len());
        }
        let asks = corpus.role(&unit) == Some(TurnRole::User) && text.as_deref().is_some_and(is_question);
        kept.push(Kept { unit, score, echoes: Vec::new(), asks });
    }
    let mut i = 0;
    while i < kept.len() {
        let question = &kept[i];
        // The question as it was asked wherever it was: its echoes are
        // questions too, and a reply to any of them answers it. A reply
        // that holds little of what was asked (found through a word
        // feedback lent) answers another question than the query's.
        let reply = question.asks.then(|| {
            (i + 1..kept.len()).find(|&j| {
                kept[j].score >= REPLY_SHARE * question.score
                    && std::iter::once(&question.unit)
                        .chain(&question.echoes)
                        .any(|q| answers(corpus, &kept[j].unit, q))
            })
        });
        if let Some(Some(j)) = reply {
            let mut reply = kept.remove(j);
            // Its place is the question's, and so is its score at least:
            // the scores still fall down the list.
            reply.score = reply.score.max(kept[i].score);
            kept.insert(i, reply);
            i += 1;
        }
        i += 1;
    }
    spread(&mut kept, limit.min(PAGE), tuning.page_fresh, tuning.page_share);
    kept.truncate(limit);
    let (units, echoes) = kept.into_iter().map(|k| ((k.unit, k.score), k.echoes)).unzip();
    Ok(Folded { units, echoes })
}

/// The hits of the first page a front-end shows.
const PAGE: usize = 10;

/// A unit kept, the echoes folded into it, and whether it asks.
struct Kept {
    unit: Unit,
    score: f64,
    echoes: Vec<Unit>,
    asks: bool,
}

impl Spread for Kept {
    fn session(&self) -> Option<u32> {
        (self.unit.kind == HitKind::Turn).then_some(self.unit.session)
    }
    fn score(&self) -> f64 {
        self.score
    }
    fn lift_to(&mut self, score: f64) {
        self.score = self.score.max(score);
    }
}

/// What makes two texts the same words: their words, lower-cased, in order.
fn key(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        if !key.is_empty() {
            key.push(' ');
        }
        key.extend(word.chars().flat_map(char::to_lowercase));
    }
    key
}

/// A message that asks: its last sentence ends in a question mark.
fn is_question(text: &str) -> bool {
    text.trim_end().ends_with(['?', '？'])
}

/// Whether `reply` is the agent's answer to `question`: the agent's message
/// in the same session, a few turns after it.
fn answers(corpus: &Corpus, reply: &Unit, question: &Unit) -> bool {
    reply.kind == HitKind::Turn
        && reply.session == question.session
        && reply.turn > question.turn
        && reply.turn - question.turn <= ANSWER_REACH
        && corpus.role(reply) == Some(TurnRole::Assistant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_words_in_other_case_and_punctuation_are_one_key() {
        assert_eq!(key("Where do the nightly exports go?"), key("where do the nightly  exports go"));
        assert_ne!(key("Where do the nightly exports go?"), key("Where do the weekly exports go?"));
        assert_eq!(key("?! --"), "");
    }

    #[test]
    fn a_question_is_a_message_that_ends_asking() {
        assert!(is_question("Where do the nightly exports go?\n"));
        assert!(is_question("导出文件放在哪里？"));
        assert!(!is_question("Is it? It is in s3://exports."));
    }
}

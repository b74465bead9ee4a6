//! The fold: the current state of every fact, derived from the event log.

use std::collections::HashMap;
use std::path::Path;

use super::Event;
use super::fact::{Conflict, Fact, HistoryItem, Source, State, UNSHARED, derive_confidence, derive_state};
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::jsonl;
use jiff::Timestamp;

/// Every fact, folded from `facts.jsonl`.
#[derive(Debug, Default)]
pub struct Fold {
    /// Facts in order of first appearance.
    pub facts: Vec<Fact>,
    /// Conflicts not yet settled by a user action on either side.
    pub conflicts: Vec<Conflict>,
    pub diagnostics: Vec<Diagnostic>,
    index: HashMap<String, usize>,
    /// Ids of edited wordings, pointing at the fact they edit.
    aliases: HashMap<String, String>,
}

impl Fold {
    pub fn read(path: &Path) -> Result<Fold> {
        let mut events = Vec::new();
        let mut diagnostics = Vec::new();
        for line in jsonl::read(path)? {
            match line.parsed.map_err(|p| p.to_string()).and_then(|v| {
                serde_json::from_value::<Event>(v).map_err(|e| format!("not a facts event ({e}); skipped"))
            }) {
                Ok(event) => events.push((line.number, event)),
                Err(message) => diagnostics.push(Diagnostic::new(path, line.number, message)),
            }
        }
        diagnostics.extend(duplicate_ids(path, &events));
        let mut fold = Fold::from_events(events);
        fold.diagnostics = diagnostics;
        Ok(fold)
    }

    /// Folds events given with their line numbers, in order.
    pub fn from_events(events: impl IntoIterator<Item = (usize, Event)>) -> Fold {
        let mut fold = Fold::default();
        fold.extend(events);
        fold.conflicts = fold.open_conflicts();
        fold
    }

    /// Applies more events (those that follow the ones folded so far, with
    /// their line numbers) and derives again the state of every fact they
    /// name; returns the indices of those facts, in order. Every conflict
    /// recorded stays in `conflicts`, settled or not: a fold being extended
    /// must keep them, since a fact set aside now may stand again later;
    /// [`Fold::open_conflicts`] says which are open.
    pub(super) fn extend(&mut self, events: impl IntoIterator<Item = (usize, Event)>) -> Vec<usize> {
        let mut named = Vec::new();
        let before = self.facts.len();
        for (line, event) in events {
            named.push(event.fact().to_string());
            if let Event::Supersede { by, .. } = &event {
                named.push(by.clone());
            }
            self.apply(line, event);
        }
        // An id as applied and as it resolves now (an edit in the same batch
        // may have made it an alias since), and every fact added.
        let mut touched: Vec<usize> = named
            .iter()
            .flat_map(|id| [self.index.get(id.as_str()), self.index.get(self.resolve(id))])
            .flatten()
            .copied()
            .chain(before..self.facts.len())
            .collect();
        touched.sort_unstable();
        touched.dedup();
        for &i in &touched {
            let fact = &mut self.facts[i];
            fact.state = derive_state(fact);
            fact.confidence = derive_confidence(fact);
        }
        touched
    }

    /// The recorded conflicts whose two facts both still stand.
    pub(super) fn open_conflicts(&self) -> Vec<Conflict> {
        let stands = |id: &String| self.index.get(id.as_str()).is_some_and(|&i| self.facts[i].is_active());
        self.conflicts.iter().filter(|c| stands(&c.fact) && stands(&c.with)).cloned().collect()
    }

    /// The fact with this id (or an edited wording's id), if any.
    pub fn get(&self, id: &str) -> Option<&Fact> {
        self.index.get(self.resolve(id)).map(|&i| &self.facts[i])
    }

    /// Where the fact with this id (or an edited wording's id) is in `facts`.
    pub(super) fn position(&self, id: &str) -> Option<usize> {
        self.index.get(self.resolve(id)).copied()
    }

    /// Facts whose id starts with `prefix`.
    pub fn find_prefix(&self, prefix: &str) -> Vec<&Fact> {
        self.facts.iter().filter(|f| f.id.starts_with(prefix)).collect()
    }

    /// Facts that may appear in the digest.
    pub fn active(&self) -> impl Iterator<Item = &Fact> {
        self.facts.iter().filter(|f| f.is_active())
    }

    fn resolve<'a>(&'a self, id: &'a str) -> &'a str {
        self.aliases.get(id).map(String::as_str).unwrap_or(id)
    }

    fn entry(&mut self, id: &str, text: &str, at: Timestamp, line: usize) -> &mut Fact {
        let id = self.resolve(id).to_string();
        let i = match self.index.get(&id) {
            Some(&i) => i,
            None => {
                self.facts.push(Fact {
                    id: id.clone(),
                    text: text.to_string(),
                    state: State::Inferred,
                    pinned: false,
                    not_true: false,
                    deleted: false,
                    confirmed: false,
                    instruction: false,
                    convention: false,
                    user_authored: false,
                    sources: Vec::new(),
                    confidence: 0.0,
                    learned_at: at,
                    last_seen: at,
                    superseded_by: None,
                    proposes: None,
                    history: Vec::new(),
                    line,
                });
                self.index.insert(id, self.facts.len() - 1);
                self.facts.len() - 1
            }
        };
        &mut self.facts[i]
    }

    fn existing(&mut self, id: &str) -> Option<&mut Fact> {
        let id = self.resolve(id).to_string();
        self.index.get(&id).map(|&i| &mut self.facts[i])
    }

    /// A session's observation of a fact: one more source (or a higher
    /// confidence for the same session); a deleted fact seen again starts
    /// afresh.
    fn observe(&mut self, line: usize, o: super::Observation) {
        let fact = self.entry(&o.fact, &o.text, o.learned_at, line);
        if fact.deleted {
            // Deleted text is gone; seen again, the fact starts afresh.
            fact.deleted = false;
            fact.sources.clear();
            fact.text = o.text.clone();
            let note = format!("seen again in {} after deletion", o.source_session);
            fact.history.push(HistoryItem { at: o.learned_at, note });
        }
        fact.instruction |= o.instruction;
        fact.convention |= o.convention;
        if o.team.is_some() {
            // One team source at a time: the item as the file holds it now.
            fact.sources.retain(|s| s.team.is_none());
        }
        match fact.sources.iter_mut().find(|s| s.session == o.source_session) {
            Some(source) => source.confidence = source.confidence.max(o.confidence),
            None => fact.sources.push(Source {
                session: o.source_session,
                at: o.learned_at,
                workspace_echo: o.workspace_echo,
                origin: o.origin,
                confidence: o.confidence,
                team: o.team,
            }),
        }
        fact.last_seen = fact.last_seen.max(o.learned_at);
    }

    pub(super) fn apply(&mut self, line: usize, event: Event) {
        let note = |fact: &mut Fact, at: Timestamp, note: String| fact.history.push(HistoryItem { at, note });
        match event {
            Event::Observe(o) => self.observe(line, o),
            Event::Add { fact, text, at, convention } => {
                let f = self.entry(&fact, &text, at, line);
                f.convention |= convention;
                f.confirmed = true;
                f.user_authored = true;
                f.deleted = false;
                f.last_seen = f.last_seen.max(at);
                note(f, at, "added by the user".into());
            }
            Event::Confirm { fact, at } => self.with(&fact, at, "confirmed by the user", |f| {
                f.confirmed = true;
                f.last_seen = f.last_seen.max(at);
            }),
            Event::Unconfirm { fact, at } => self.with(&fact, at, "unconfirmed by the user", |f| f.confirmed = false),
            Event::Pin { fact, at } => self.with(&fact, at, "pinned", |f| f.pinned = true),
            Event::Unpin { fact, at } => self.with(&fact, at, "unpinned", |f| f.pinned = false),
            Event::NotTrue { fact, at } => self.with(&fact, at, "marked not true by the user", |f| f.not_true = true),
            Event::Retract { fact, at, by } => {
                self.with(&fact, at, &format!("marked not true by {by}"), |f| f.not_true = true)
            }
            Event::Delete { fact, at } => {
                // The tombstone outlives the fact's other events: keep an
                // entry so its history can say it was deleted.
                self.entry(&fact, "", at, line);
                self.with(&fact, at, "deleted by the user", |f| {
                    f.deleted = true;
                    f.text.clear();
                    f.sources.clear();
                });
            }
            Event::Unshare { fact, at } => self.with(&fact, at, UNSHARED, |f| {
                f.sources.retain(|s| s.team.is_none());
            }),
            Event::Restore { fact, at } => self.with(&fact, at, "restored by the user", |f| {
                f.not_true = false;
                f.superseded_by = None;
            }),
            Event::Edit { fact, text, at } => {
                let alias = super::fact_id(&text);
                let target = self.resolve(&fact).to_string();
                if let Some(f) = self.existing(&target) {
                    let before = std::mem::replace(&mut f.text, text);
                    f.confirmed = true;
                    f.last_seen = f.last_seen.max(at);
                    note(f, at, format!("edited by the user (was: {before})"));
                    if alias != target {
                        self.aliases.insert(alias, target);
                    }
                }
            }
            Event::Supersede { fact, by, at, reason } => {
                let by_text = self.get(&by).map(|f| f.text.clone()).unwrap_or_default();
                let by_id = self.resolve(&by).to_string();
                self.with(&fact, at, &format!("superseded by {by_id} ({by_text}): {reason}"), |f| {
                    f.superseded_by = Some(by_id.clone());
                });
                let old_id = self.resolve(&fact).to_string();
                // The newer fact is current again, even if it was once replaced.
                if let Some(newer) = self.existing(&by_id)
                    && newer.superseded_by.as_deref() == Some(old_id.as_str())
                {
                    newer.superseded_by = None;
                }
            }
            Event::Propose { fact, with, not_true, at, by } => {
                let what = format!("proposed by {by} to {} {with}", if not_true { "mark not true" } else { "replace" });
                self.with(&fact, at, &what, |f| f.proposes = Some((with.clone(), not_true)));
            }
            Event::Conflict { fact, with, at, reason } => {
                let (fact, with) = (self.resolve(&fact).to_string(), self.resolve(&with).to_string());
                self.conflicts.retain(|c| !(c.fact == fact && c.with == with));
                self.conflicts.push(Conflict { fact, with, at, reason, persons: false });
            }
        }
    }

    /// Applies a user action to an existing fact, notes it in its history, and
    /// settles any conflict the fact was part of.
    fn with(&mut self, id: &str, at: Timestamp, what: &str, change: impl FnOnce(&mut Fact)) {
        let resolved = self.resolve(id).to_string();
        if let Some(f) = self.existing(&resolved) {
            change(f);
            f.history.push(HistoryItem { at, note: what.to_string() });
            if !what.starts_with("superseded") {
                self.conflicts.retain(|c| c.fact != resolved && c.with != resolved);
            }
        }
    }
}

/// Lines that give a fact id a text other than the one its first line gave
/// (two `add` or `observe` events with one id, one of them edited by hand):
/// the fold keeps the first text, so the later one is reported, not lost
/// silently.
fn duplicate_ids(path: &Path, events: &[(usize, Event)]) -> Vec<Diagnostic> {
    let mut first: HashMap<&str, (usize, String)> = HashMap::new();
    let mut diagnostics = Vec::new();
    for (line, event) in events {
        let (id, text) = match event {
            Event::Observe(o) => (o.fact.as_str(), o.text.as_str()),
            Event::Add { fact, text, .. } => (fact.as_str(), text.as_str()),
            _ => continue,
        };
        let normalized = super::normalize(text);
        match first.get(id) {
            None => {
                first.insert(id, (*line, normalized));
            }
            Some((at, known)) if *known != normalized => diagnostics.push(Diagnostic::new(
                path,
                *line,
                format!(
                    "fact {id} is given other text here than at line {at}: this text is ignored; keep one \
                     wording (fix or remove one of the two lines), or add this text as a fact of its own"
                ),
            )),
            Some(_) => {}
        }
    }
    diagnostics
}

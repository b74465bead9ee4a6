//! The fold: the current state of every fact, derived from the event log.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use jiff::Timestamp;
use serde::Serialize;

use super::{Event, Origin};
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::jsonl;

/// Where a fact stands.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// A user confirmed it (or wrote it).
    Confirmed,
    /// Seen in two or more independent sessions.
    Observed,
    /// Seen once: a guess until seen again or confirmed.
    Inferred,
    /// Replaced by a newer fact; kept, restorable.
    Superseded,
    /// Reads as an order: recorded and listed, never promoted without a confirm.
    UnconfirmedInstruction,
    /// Only ever seen as an echo of workspace content (a file or tool output
    /// the agent read, or prose repeating it): recorded, listed and
    /// recallable, never load-bearing until a user confirms it.
    WorkspaceEcho,
    /// A teammate confirmed it and shared it in the repository's team file
    /// (`.lcmem/team.md`): load-bearing, shown as the team's.
    Team,
    /// It was the team's and left the team file, and nothing else supports it.
    Withdrawn,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Confirmed => "confirmed",
            State::Observed => "observed",
            State::Inferred => "inferred",
            State::Superseded => "superseded",
            State::UnconfirmedInstruction => "unconfirmed-instruction",
            State::WorkspaceEcho => "workspace-echo",
            State::Team => "team",
            State::Withdrawn => "withdrawn",
        }
    }
}

impl std::fmt::Display for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One session that reported a fact.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Source {
    pub session: String,
    pub at: Timestamp,
    pub workspace_echo: bool,
    pub origin: Origin,
    pub confidence: f64,
    /// Set for an item of the repository's team file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team: Option<super::TeamMark>,
}

/// Where a source's text came from, from the least to the most trusted.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Provenance {
    /// The text is also in the session's workspace content (tool output, a
    /// file the agent read): in a hostile repository, the attacker's words.
    WorkspaceEcho,
    /// An agent's words, written through `lcmem mcp`'s `remember` because the
    /// user asked it to keep something: the agent's wording of what the user
    /// said, so no more trusted than its prose (a person confirms it).
    AgentOnUsersWord,
    /// The assistant's own prose.
    AssistantProse,
    /// An item of the repository's team file: a teammate confirmed and
    /// shared it, and its line is in the repository's history.
    Team,
    /// The user's own words.
    UserWords,
}

impl Provenance {
    pub fn as_str(self) -> &'static str {
        match self {
            Provenance::WorkspaceEcho => "echoes workspace",
            Provenance::AssistantProse => "assistant's prose",
            Provenance::AgentOnUsersWord => "agent, on the user's word",
            Provenance::Team => "team file",
            Provenance::UserWords => "user's words",
        }
    }
}

impl Source {
    /// "team: confirmed by alice on 2026-11-20, in commit 3f2a1b9c" for an
    /// item of the team file ("not committed yet" for a line git does not
    /// hold yet); `None` for any other source.
    pub fn team_label(&self) -> Option<String> {
        let team = self.team.as_ref()?;
        let commit = match &team.commit {
            Some(commit) => format!("in commit {}", &commit[..commit.len().min(8)]),
            None => "not committed yet".to_string(),
        };
        Some(format!("team: confirmed by {} on {}, {commit}", team.by, crate::dates::day(self.at)))
    }

    pub fn provenance(&self) -> Provenance {
        match (self.workspace_echo, self.origin) {
            _ if self.team.is_some() => Provenance::Team,
            (true, _) => Provenance::WorkspaceEcho,
            _ if self.session == super::AGENT_SOURCE => Provenance::AgentOnUsersWord,
            (false, Origin::Assistant) => Provenance::AssistantProse,
            (false, Origin::User) => Provenance::UserWords,
        }
    }
}

/// A dated line of a fact's history: "superseded by …", "confirmed", ….
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HistoryItem {
    pub at: Timestamp,
    pub note: String,
}

/// A fact as it stands now.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Fact {
    pub id: String,
    pub text: String,
    pub state: State,
    pub pinned: bool,
    pub not_true: bool,
    pub deleted: bool,
    pub confirmed: bool,
    pub instruction: bool,
    /// A session read it as a convention: how the team works ("we use
    /// conventional commits"), not how the project is.
    pub convention: bool,
    /// Whether a user wrote it (`lcmem facts add`, or a line added to MEMORY.md).
    pub user_authored: bool,
    pub sources: Vec<Source>,
    pub confidence: f64,
    pub learned_at: Timestamp,
    /// The newest source, confirm or edit: when the fact was last known true.
    pub last_seen: Timestamp,
    pub superseded_by: Option<String>,
    /// An agent's proposal: (the fact it would change, whether to mark it not true).
    pub proposes: Option<(String, bool)>,
    pub history: Vec<HistoryItem>,
    /// The line of `facts.jsonl` where the fact first appears, for citations.
    pub line: usize,
}

impl Fact {
    /// Whether a user stands behind the fact (confirmed it, wrote it or
    /// edited it), or some session said it in its own words. A fact with
    /// neither is only workspace content repeated, and is never
    /// load-bearing: it does not enter the digest and does not supersede a
    /// fact that is.
    pub fn has_own_support(&self) -> bool {
        self.confirmed || self.user_authored || self.sources.iter().any(|s| !s.workspace_echo)
    }

    /// Whether the fact may appear in the always-on digest at all.
    pub fn is_active(&self) -> bool {
        let set_aside = self.not_true || self.deleted || self.is_proposal();
        !set_aside && matches!(self.state, State::Confirmed | State::Observed | State::Inferred | State::Team)
    }

    /// The fact's team source, when its item is in the repository's team file.
    pub fn team_source(&self) -> Option<&Source> {
        self.sources.iter().find(|s| s.team.is_some())
    }

    /// Whether the person said it in their own words in two sessions or more:
    /// what a user states about their project, and states again, is as good
    /// as confirmed (an order still waits for an explicit confirm).
    pub fn user_repeated(&self) -> bool {
        let said: BTreeSet<&str> = self
            .sources
            .iter()
            .filter(|s| s.provenance() == Provenance::UserWords)
            .map(|s| s.session.as_str())
            .collect();
        said.len() >= 2
    }

    /// Whether a person stands behind the fact: confirmed, written, edited
    /// or pinned by the user, said in the user's own words, or the team's.
    /// Against such a fact, what only the workspace or the agent says is
    /// never load-bearing: it cannot replace it, and it stays out of the
    /// digest while it contradicts it (see `facts::conflict`).
    pub fn is_backed_by_a_person(&self) -> bool {
        self.confirmed || self.user_authored || self.pinned || self.said_by_user() || self.team_source().is_some()
    }

    /// Whether the person said it in their own words, in some session.
    pub fn said_by_user(&self) -> bool {
        self.sources.iter().any(|s| s.provenance() == Provenance::UserWords)
    }

    /// Independent sources: every session that said it in prose counts once;
    /// all sessions that merely echoed workspace content count once together.
    pub fn independent_sources(&self) -> usize {
        let prose: BTreeSet<&str> =
            self.sources.iter().filter(|s| !s.workspace_echo).map(|s| s.session.as_str()).collect();
        let echoes = self.sources.iter().any(|s| s.workspace_echo && !prose.contains(s.session.as_str()));
        prose.len() + usize::from(echoes)
    }
}

/// A possible contradiction awaiting the user.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Conflict {
    pub fact: String,
    pub with: String,
    pub at: Timestamp,
    pub reason: String,
    /// `with` is one of the person's facts, for every project (see
    /// [`super::person_conflicts`]); found when asked, never recorded.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub persons: bool,
}

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

/// The history note of [`Event::Unshare`].
const UNSHARED: &str = "taken out of the team file";

fn derive_state(fact: &Fact) -> State {
    if fact.superseded_by.is_some() {
        State::Superseded
    } else if fact.confirmed {
        State::Confirmed
    } else if fact.instruction {
        State::UnconfirmedInstruction
    } else if fact.team_source().is_some() {
        State::Team
    } else if fact.sources.is_empty() && fact.history.iter().any(|h| h.note == UNSHARED) {
        State::Withdrawn
    } else if !fact.has_own_support() {
        State::WorkspaceEcho
    } else if fact.user_repeated() {
        State::Confirmed
    } else if fact.independent_sources() >= 2 || fact.said_by_user() {
        // The person's own words are no guess: observed from the first time.
        State::Observed
    } else {
        State::Inferred
    }
}

/// Confirmed facts are certain; otherwise each independent source adds
/// evidence: 1 − Π(1 − cᵢ), with echoes of the workspace counting once.
fn derive_confidence(fact: &Fact) -> f64 {
    if fact.confirmed {
        return 1.0;
    }
    let prose_sessions: BTreeSet<&str> =
        fact.sources.iter().filter(|s| !s.workspace_echo).map(|s| s.session.as_str()).collect();
    let mut doubt = 1.0;
    let mut echo = 0.0_f64;
    for source in &fact.sources {
        if source.workspace_echo && !prose_sessions.contains(source.session.as_str()) {
            echo = echo.max(source.confidence);
        } else {
            doubt *= 1.0 - source.confidence.clamp(0.0, 1.0);
        }
    }
    doubt *= 1.0 - echo.clamp(0.0, 1.0);
    ((1.0 - doubt) * 1000.0).round() / 1000.0
}

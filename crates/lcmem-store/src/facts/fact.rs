//! A fact as the fold leaves it: its state, its sources and their
//! provenance, its history, and how its standing is derived from them.

use std::collections::BTreeSet;

use jiff::Timestamp;
use serde::Serialize;

use super::Origin;

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

/// The history note of [`Event::Unshare`].
pub(super) const UNSHARED: &str = "taken out of the team file";

pub(super) fn derive_state(fact: &Fact) -> State {
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
pub(super) fn derive_confidence(fact: &Fact) -> f64 {
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

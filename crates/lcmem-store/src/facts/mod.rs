//! Facts: durable statements about the project, kept as an append-only event
//! log in `facts.jsonl`.
//!
//! The log holds observations (a seal saw a candidate fact in a session) and
//! user actions on facts (confirm, pin, edit, not-true, …). The current state
//! of every fact is a deterministic fold over the log ([`Fold`]), so nothing
//! is overwritten in place and every fact can say where it came from and what
//! happened to it. See `docs/facts.md`. [`log`] owns the file: nothing else
//! adds to it or rewrites it.

mod actions;
mod agent;
mod conflict;
mod fact;
mod fold;
pub mod log;
mod pending;
mod person;
pub mod proposal;
pub mod subject;
mod warm_fold;
mod workspace;

pub use actions::{Action, Applied, add, add_convention, apply, apply_reporting, delete_physically};
pub use actions::{append_reconciled, delete_locked};
pub use agent::{Corrected, Correction, Remembered, Withheld, correct, remember};
pub use conflict::{ConflictJudge, Judgement, SubjectKeyJudge, reconcile};
pub use fact::{Conflict, Fact, Provenance, Source, State};
pub use fold::Fold;
pub use log::append;
pub use pending::{PENDING_COMMAND, pending_note};
pub use person::person_conflicts;
pub use workspace::WorkspaceText;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The source a fact remembered by the agent (`remember`) is recorded under, in place of a session id.
pub const AGENT_SOURCE: &str = "mcp-remember";
/// Who asked, as a correction records it.
pub const AGENT: &str = "the agent via MCP, at the user's word";

/// Who said the sentence a fact came from.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    User,
    Assistant,
}

/// An observation of a candidate fact in one sealed session.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Observation {
    /// Stable id derived from the normalised text; see [`fact_id`].
    pub fact: String,
    pub text: String,
    pub source_session: String,
    pub learned_at: Timestamp,
    /// The extractor's confidence, 0 to 1.
    pub confidence: f64,
    /// Always false for an observation: only a user confirms.
    pub confirmed: bool,
    pub origin: Origin,
    /// The guard's verdict when the fact was recorded: text shaped like an
    /// order never promotes itself.
    #[serde(default)]
    pub instruction: bool,
    /// True when the fact's text also appears in the session's tool output,
    /// i.e. it may simply echo workspace content. All such echoes together
    /// count as one source: a planted file still checked out next session is
    /// not a second witness.
    #[serde(default)]
    pub workspace_echo: bool,
    /// The extractor read it as a convention: how the team works ("we use
    /// conventional commits"), not how the project is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub convention: bool,
    /// Set when the observation is an item of the repository's team file
    /// (`.lcmem/team.md`): who shared it and in which commit. See
    /// the engine's `team` module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<TeamMark>,
}

/// Where a team item came from: the commit that last wrote its line of the
/// team file, and that commit's author, as `git blame` says; or, for a line
/// not committed yet (or no git), the name the line itself gives.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct TeamMark {
    /// Who confirmed and shared it.
    pub by: String,
    /// The commit (full hash) that last wrote the line, when it is committed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

/// One line of `facts.jsonl`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A seal saw the fact in a session.
    Observe(Observation),
    /// A user stated a fact of their own: confirmed from the start.
    Add {
        fact: String,
        text: String,
        at: Timestamp,
        /// The user wrote it as a convention (a line added to the block
        /// `lcmem share` keeps in AGENTS.md or CLAUDE.md).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        convention: bool,
    },
    Confirm {
        fact: String,
        at: Timestamp,
    },
    Pin {
        fact: String,
        at: Timestamp,
    },
    Unpin {
        fact: String,
        at: Timestamp,
    },
    /// The user changed the wording; the id stays, the new wording is an alias.
    Edit {
        fact: String,
        text: String,
        at: Timestamp,
    },
    /// "Not true": stays not true, whatever is observed later.
    NotTrue {
        fact: String,
        at: Timestamp,
    },
    /// An agent, asked by the user, said the fact is not true (`lcmem mcp`'s
    /// `correct`). The same effect as [`Event::NotTrue`], with who asked
    /// recorded; a person undoes it with a restore.
    Retract {
        fact: String,
        at: Timestamp,
        by: String,
    },
    /// The fact's item left the repository's team file: its team source is
    /// taken away (a fact nothing else supports is then withdrawn).
    Unshare {
        fact: String,
        at: Timestamp,
    },
    /// Written after the fact's text was physically removed from the log.
    Delete {
        fact: String,
        at: Timestamp,
    },
    /// Takes back a confirm: the fact stands on its evidence again.
    Unconfirm {
        fact: String,
        at: Timestamp,
    },
    /// Undoes supersede, not-true and delete.
    Restore {
        fact: String,
        at: Timestamp,
    },
    /// `fact` was replaced by the newer fact `by`.
    Supersede {
        fact: String,
        by: String,
        at: Timestamp,
        reason: String,
    },
    /// Two facts may contradict each other; listed for the user, never guessed.
    Conflict {
        fact: String,
        with: String,
        at: Timestamp,
        reason: String,
    },
    /// The agent proposes to replace fact `with` by `fact` (or, with
    /// `not_true`, to mark `with` not true): `with` is the person's (they
    /// confirmed, pinned or wrote it), so nothing changes until they accept
    /// `fact` (a confirm) or refuse it (not true). See [`proposal`].
    Propose {
        fact: String,
        with: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        not_true: bool,
        at: Timestamp,
        by: String,
    },
}

impl Event {
    /// The fact this event is about.
    pub fn fact(&self) -> &str {
        match self {
            Event::Observe(o) => &o.fact,
            Event::Add { fact, .. }
            | Event::Confirm { fact, .. }
            | Event::Pin { fact, .. }
            | Event::Unpin { fact, .. }
            | Event::Edit { fact, .. }
            | Event::NotTrue { fact, .. }
            | Event::Retract { fact, .. }
            | Event::Delete { fact, .. }
            | Event::Unshare { fact, .. }
            | Event::Restore { fact, .. }
            | Event::Unconfirm { fact, .. }
            | Event::Supersede { fact, .. }
            | Event::Conflict { fact, .. }
            | Event::Propose { fact, .. } => fact,
        }
    }
}

/// Folds case, spacing and punctuation away, so that the same fact worded
/// with different capitals or a trailing full stop is one fact.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        // ASCII first: this runs over whole transcripts' tool output at seal time.
        let alphanumeric = if c.is_ascii() { c.is_ascii_alphanumeric() } else { c.is_alphanumeric() };
        if !alphanumeric {
            pending_space = true;
            continue;
        }
        if pending_space && !out.is_empty() {
            out.push(' ');
        }
        pending_space = false;
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// A fact's id: `f` and 10 hex digits of the SHA-256 of its normalised text.
/// The same wording always gets the same id, in every project and every run.
pub fn fact_id(text: &str) -> String {
    let digest = Sha256::digest(normalize(text).as_bytes());
    let hex: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
    format!("f{hex}")
}

#[cfg(test)]
mod tests;

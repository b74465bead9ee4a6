//! Extract-on-seal: turning a finished session into a journal line and
//! candidate facts.
//!
//! The [`Extractor`] trait is shaped like one small LLM call: a JSON-ready
//! [`ExtractInput`] goes in, a JSON-ready [`ExtractOutput`] comes out. The
//! offline extractor ([`offline::OfflineExtractor`]) is the default and needs
//! no network and no key; a model-backed lane can implement the same trait
//! later without any caller changing.
//!
//! The input deliberately holds only user and assistant prose and tool
//! *metadata* (names and file paths). Tool output and file contents never
//! reach an extractor: in a hostile repository that text is written by the
//! attacker, and summarising it is how a planted "memory" would get in.

mod candidates;
mod claims;
pub mod clause;
mod evidence;
mod exchange;
pub mod lane;
pub mod offline;
mod outcome;
mod report;
mod summary;
mod text;
pub(crate) mod title;

pub use candidates::{add_fact, reads_as_convention};
pub use text::{clip, head, sentences, tail};
pub use title::work_title;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::facts::{ConflictJudge, Origin, SubjectKeyJudge};
use crate::journal::SealKind;
use crate::session::{Line, Role, Session};

/// What an extractor is given: the prose and tool metadata of one session.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ExtractInput {
    pub session_id: String,
    pub title: String,
    pub created_at: Timestamp,
    pub kind: SealKind,
    /// User and assistant messages, in order. Never tool or system text.
    pub turns: Vec<Turn>,
    /// Tool actions: names, the files they touched, the commands and plans
    /// the agent wrote; never their output.
    pub tools: Vec<ToolUse>,
    /// The person's last message got no reply from the model: the client
    /// answered in its place (an API error, a usage limit, an overload).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub model_failed_last: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Turn {
    pub role: Origin,
    pub text: String,
    /// A model-written summary of the session so far (Claude Code's
    /// compaction summary, Codex's `compacted`), read as the assistant's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub compaction: bool,
    /// The agent's question this turn of the person's answers, when it is
    /// such an answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ToolUse {
    pub name: String,
    pub files: Vec<String>,
    /// The shell command the agent wrote, when the tool ran one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// What the agent said the call was for (Claude Code's Bash `description`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
    /// The plan the call set (TodoWrite, update_plan): every item with its status.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub todos: Vec<Todo>,
    /// How many turns came before the call, which places it in the session.
    #[serde(default)]
    pub after_turns: usize,
    /// The subject of the commit message the command gave.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The call failed (its result said so).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
    /// What its output stated of version control (a commit made, nothing
    /// to commit, a push rejected).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<Mark>,
}

pub use crate::journal::Outcome;
pub use crate::session::{Mark, Todo, TodoStatus};

/// What an extractor returns.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ExtractOutput {
    /// 1 to 3 sentences on what was achieved.
    pub summary: String,
    pub outcome: Outcome,
    pub files: Vec<String>,
    pub decisions: Vec<String>,
    pub facts: Vec<CandidateFact>,
    /// Who wrote this and what it cost, when a model lane was involved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lane: Option<lane::LaneReport>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CandidateFact {
    pub text: String,
    pub confidence: f64,
    pub origin: Origin,
    /// A convention ("we use conventional commits", "deploys go out from
    /// tags"): how the team works, kept apart from how the project is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub convention: bool,
}

/// Why an extractor could not do its job.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ExtractError(pub String);

/// Turns one session into a summary and candidate facts.
pub trait Extractor {
    /// A short name recorded with every journal line, e.g. `offline-v1`.
    fn name(&self) -> &str;
    fn extract(&self, input: &ExtractInput) -> Result<ExtractOutput, ExtractError>;

    /// The judge of supersedes for the facts this lane writes; the offline
    /// lane's subject keys unless the lane has a better one.
    fn judge(&self) -> &dyn ConflictJudge {
        &SubjectKeyJudge
    }

    /// What the judge spent since this was last asked (a model lane's
    /// questions), so the seal can record it with its own cost.
    fn take_judge_cost(&self) -> Option<lane::Cost> {
        None
    }
}

/// Upper bounds on what any extractor may write, so that a verbose or
/// misbehaving lane cannot flood memory.
pub const MAX_SUMMARY_CHARS: usize = 600;
pub const MAX_FILES: usize = 20;
pub const MAX_DECISIONS: usize = 5;
pub const MAX_FACTS: usize = 12;
pub const MAX_ITEM_CHARS: usize = 300;

impl ExtractInput {
    /// Builds the input from a parsed session, keeping only what an extractor
    /// is allowed to read.
    pub fn from_session(session: &Session, kind: SealKind) -> ExtractInput {
        let mut turns = Vec::new();
        let mut tools = Vec::new();
        // Which tool a call id names, for the result lines that answer it.
        let mut calls: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        let mut model_failed_last = false;
        for event in &session.events {
            match &event.value {
                Line::Message { role: Role::User | Role::Assistant, recalled: false, .. } => model_failed_last = false,
                Line::Message { role: Role::System, text, .. } => {
                    let said = text.to_lowercase();
                    let failure = ["error", "limit", "quota", "exhausted", "overloaded"].iter().any(|w| said.contains(w));
                    model_failed_last |= failure && turns.last().is_some_and(|t: &Turn| t.role == Origin::User);
                }
                _ => {}
            }
            match &event.value {
                // Memory's own output is no evidence of this session.
                Line::Message { recalled: true, .. } => {}
                Line::Message { role: Role::User, text, compaction, answers, .. } => turns.push(Turn {
                    role: Origin::User,
                    text: text.clone(),
                    compaction: *compaction,
                    answers: answers.clone(),
                }),
                Line::Message { role: Role::Assistant, text, compaction, .. } => turns.push(Turn {
                    role: Origin::Assistant,
                    text: text.clone(),
                    compaction: *compaction,
                    answers: None,
                }),
                Line::Result { call, ok, marks, .. } => {
                    if let Some(tool) = calls.get(call.as_str()).and_then(|&i| tools.get_mut(i)) {
                        let tool: &mut ToolUse = tool;
                        tool.failed = !ok;
                        tool.marks = marks.clone();
                    }
                }
                Line::Message { role: Role::Tool | Role::System, .. }
                | Line::Status { .. }
                | Line::Title { .. }
                | Line::Session(_) => {}
                // A refused call did not run: it is taken back, not read.
                Line::Tool { name, files, rejected: true, .. } => {
                    if let Some(i) = tools.iter().rposition(|t: &ToolUse| &t.name == name && &t.files == files) {
                        tools.remove(i);
                        calls.retain(|_, at| *at != i);
                        calls.values_mut().filter(|at| **at > i).for_each(|at| *at -= 1);
                    }
                }
                Line::Tool { name, files, command, purpose, todos, call, commit, .. } => {
                    if let Some(call) = call {
                        calls.insert(call, tools.len());
                    }
                    tools.push(ToolUse {
                        name: name.clone(),
                        files: files.clone(),
                        command: command.clone(),
                        purpose: purpose.clone(),
                        todos: todos.clone(),
                        after_turns: turns.len(),
                        commit: commit.clone(),
                        failed: false,
                        marks: Vec::new(),
                    })
                }
            }
        }
        ExtractInput {
            session_id: session.header.id.clone(),
            title: session.title.clone(),
            created_at: session.header.created_at,
            kind,
            turns,
            tools,
            model_failed_last,
        }
    }
}

impl ExtractOutput {
    /// Clamps the output to the bounds above and drops empty items.
    pub fn bounded(mut self) -> ExtractOutput {
        self.summary = clip(self.summary.trim(), MAX_SUMMARY_CHARS);
        self.files.retain(|f| !f.trim().is_empty());
        self.files.truncate(MAX_FILES);
        for list in [&mut self.decisions] {
            list.retain(|d| !d.trim().is_empty());
            list.truncate(MAX_DECISIONS);
            for item in list.iter_mut() {
                *item = clip(item.trim(), MAX_ITEM_CHARS);
            }
        }
        self.facts.retain(|f| !f.text.trim().is_empty());
        self.facts.truncate(MAX_FACTS);
        for fact in &mut self.facts {
            fact.text = clip(fact.text.trim(), MAX_ITEM_CHARS);
            fact.confidence = fact.confidence.clamp(0.0, 1.0);
        }
        self.cleaned()
    }

    /// Holds every lane's output to what the offline lane writes by
    /// construction ([`clause`]): a summary a reader would not see at once
    /// as machine-made, decisions that are clauses, facts that stand alone.
    /// What cannot be made so is left out (a summary keeps its clean
    /// sentences, or says only what kind of session it was).
    fn cleaned(mut self) -> ExtractOutput {
        if !clause::is_clean(&self.summary) || self.summary.ends_with('…') {
            let kept: Vec<String> =
                sentences(&self.summary).iter().filter_map(|s| clause::Clause::of(s)).map(|c| c.sentence()).collect();
            let joined = kept.join(" ");
            self.summary = if !kept.is_empty() && clause::is_clean(&joined) {
                joined
            } else {
                match self.outcome {
                    Outcome::Question => "Answered a question; no changes made.".to_string(),
                    _ if self.files.is_empty() => "Worked on the project.".to_string(),
                    _ => {
                        let changed =
                            format!("Changed {}.", self.files.iter().take(3).cloned().collect::<Vec<_>>().join(", "));
                        if clause::is_clean(&changed) { changed } else { "Worked on the project.".to_string() }
                    }
                }
            };
        }
        self.decisions = self.decisions.iter().filter_map(|d| clause::Clause::of(d)).map(|c| c.sentence()).collect();
        // A text that reads as an order is kept as it is, whatever its
        // shape: it is recorded and withheld until a person confirms it, so
        // that what a repository tried to plant is seen, never dropped unseen.
        self.facts.retain_mut(|f| match clause::fact_text(&f.text) {
            Some(text) => {
                f.text = text;
                true
            }
            None => lcmem_guard::judge(&f.text).instruction,
        });
        self
    }
}

//! What the server says, in the words of its callers: engine errors (with
//! this server's argument names, and what a person, not the model, has to
//! do) and what a write did.

use lcmem::facts::{Corrected, Remembered, State, Withheld};
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock};

use super::args::{MAX_LIMIT, invalid};

/// An engine error as a sentence.
pub fn words(error: &lcmem::Error) -> String {
    use lcmem::QueryProblem;
    match error {
        lcmem::Error::BadQuery(QueryProblem::EmptyRange { since, until }) => {
            format!("`since` {since} is after `until` {until}: nothing can match")
        }
        lcmem::Error::BadQuery(QueryProblem::ZeroLimit) => format!("`limit` must be 1 to {MAX_LIMIT}"),
        lcmem::Error::MemoryOff { .. } => {
            format!("{error}; nothing was written, and only the user can turn memory back on")
        }
        _ => error.to_string(),
    }
}

/// An engine error from a write tool: a fact id that does not resolve is the
/// caller's argument (-32602); the rest is a tool error the model can read.
pub fn write_error(tool: &str, error: &lcmem::Error) -> Result<CallToolResult, ErrorData> {
    match error {
        lcmem::Error::NoSuchFact { .. } | lcmem::Error::AmbiguousFact { .. } => {
            Err(invalid(tool, format!("`id`: {error}")))
        }
        _ => Ok(CallToolResult::error(vec![ContentBlock::text(format!("{tool} wrote nothing: {}", words(error)))])),
    }
}

const CONFIRM: &str = "a person can confirm it with `lcmem facts confirm";

/// A tool's answer.
pub fn answer(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// What `remember` did, in plain words, with the text as written (redacted).
pub fn remembered(fact: &Remembered) -> String {
    let Remembered { id, text, state, redacted, not_true, proposes } = fact;
    let mut out = match state {
        _ if proposes.is_some() => {
            let theirs = proposes.as_deref().unwrap_or_default();
            format!(
                "Not changed: it contradicts fact {theirs}, which the user confirmed, pinned or wrote, and the                  agent does not overrule the user. Recorded as proposal {id}, which waits for the user (`lcmem                  facts pending`) and stays out of the digest: they accept it with `lcmem facts confirm {id}` or                  refuse it with `lcmem facts not-true {id}`:\n  {text}"
            )
        }
        _ if *not_true => format!(
            "Fact {id} is marked not true, and remembering it again does not change that; a person can restore \
             it with `lcmem facts restore {id}`:\n  {text}"
        ),
        State::UnconfirmedInstruction => format!(
            "Withheld: it reads as an instruction; {CONFIRM} {id}`. Recorded as fact {id}, unconfirmed, and kept \
             out of the digest until then:\n  {text}"
        ),
        State::WorkspaceEcho => format!(
            "Recorded as fact {id}, unconfirmed: it repeats workspace content (tool output of this session), so \
             it stays out of the digest until a person confirms it (`lcmem facts confirm {id}`):\n  {text}"
        ),
        State::Confirmed => format!("Already known: fact {id} is confirmed by the user:\n  {text}"),
        State::Team => format!("Already known: fact {id} is the team's, shared in the repository:\n  {text}"),
        State::Withdrawn => format!(
            "Recorded as fact {id}; it was the team's and was taken out of the team file, so it stays out of the \
             digest until a person confirms it:\n  {text}"
        ),
        State::Superseded => format!("Recorded as fact {id}, but a newer fact replaces it:\n  {text}"),
        State::Observed | State::Inferred => format!(
            "Remembered as fact {id} ({state}, the agent's word on the user's behalf; not confirmed: {CONFIRM} \
             {id}`):\n  {text}"
        ),
    };
    if *redacted {
        out.push_str("\nSecrets in it were redacted before anything was written; the text above is what was kept.");
    }
    out
}

/// What `correct` did.
pub fn corrected(outcome: &Corrected) -> String {
    match outcome {
        Corrected::NotTrue { id, text } => format!(
            "Fact {id} is marked not true (recorded as asked by the agent via MCP) and leaves the digest:\n  {text}\n\
             A person can undo this with `lcmem facts restore {id}`."
        ),
        Corrected::Replaced { id, text, by } => format!(
            "Fact {id} is replaced by fact {} ({}, not confirmed) and leaves the digest:\n  was: {text}\n  now: {}\n\
             A person can undo this with `lcmem facts restore {id}`.",
            by.id, by.state, by.text
        ),
        Corrected::Proposed { id, text, proposal, proposed, not_true } => format!(
            "Not changed: fact {id} is the user's (they confirmed, pinned or wrote it), and the agent does not \
             overrule the user. Your correction is recorded as proposal {proposal} {}, which waits for the user \
             (`lcmem facts pending`) and stays out of the digest: they accept it with `lcmem facts confirm \
             {proposal}` or refuse it with `lcmem facts not-true {proposal}`.\n  fact: {text}\n  proposal: {proposed}",
            if *not_true { "to mark it not true" } else { "to replace it" }
        ),
        Corrected::Withheld { id, why: Withheld::Instruction, .. } => format!(
            "Withheld: the new text reads as an instruction, and an instruction may not replace a fact; nothing \
             was written. A person can edit fact {id} with `lcmem facts edit {id} TEXT`."
        ),
        Corrected::Withheld { id, why: Withheld::WorkspaceEcho, .. } => format!(
            "Withheld: the new text repeats workspace content (tool output of this session), which may not \
             replace a fact; nothing was written. A person can edit fact {id} with `lcmem facts edit {id} TEXT`."
        ),
    }
}

//! The person outranks the agent. A fact the person confirmed, pinned or
//! wrote is never replaced nor marked not true on the agent's word (`lcmem
//! mcp`'s `correct` and `remember`, see [`super::agent`]): the agent's
//! wording is recorded as a proposal, a fact of its own that waits in the
//! pending list (`lcmem facts pending`, the page's "Waiting for you"), takes
//! no part in reconciliation and never enters the digest. The person
//! accepts it with a confirm, which makes the change then, in their name;
//! or refuses it with not true, which leaves their fact as it was.

use jiff::Timestamp;

use super::{AGENT, Event, Fact, Observation, log};
use crate::error::Result;
use crate::lock::WriteLock;
use crate::store::Store;

impl Fact {
    /// Whether the person stands behind the fact: they confirmed, pinned or
    /// wrote it. The agent may only propose to change such a fact.
    pub fn is_the_persons(&self) -> bool {
        self.confirmed || self.pinned || self.user_authored
    }

    /// Whether the fact is an agent's proposal the person has not accepted.
    pub fn is_proposal(&self) -> bool {
        self.proposes.is_some() && !self.confirmed
    }
}

/// The wording of a proposal to mark a fact not true.
pub(super) fn not_true_wording(text: &str) -> String {
    format!("Not true: {text}")
}

/// Records `observation` as the agent's proposal to replace fact `target`
/// (or, with `not_true`, to mark it not true). Nothing is reconciled: the
/// proposal contradicts nothing until the person accepts it.
pub(super) fn propose(
    store: &Store,
    lock: &WriteLock,
    observation: Observation,
    target: &str,
    not_true: bool,
    now: Timestamp,
) -> Result<()> {
    let fact = observation.fact.clone();
    let propose = Event::Propose { fact, with: target.to_string(), not_true, at: now, by: AGENT.to_string() };
    log::append(store, lock, &[Event::Observe(observation), propose])
}

/// What accepting `proposal` (the person confirms it) changes besides the
/// confirm: the fact it proposed to replace is superseded by it, or marked
/// not true; the second says the proposal itself then goes (a proposal to
/// mark a fact not true is no fact to keep).
pub(super) fn accepted(proposal: &Fact, now: Timestamp) -> Option<(Event, bool)> {
    let (target, not_true) = proposal.proposes.clone().filter(|_| proposal.is_proposal())?;
    Some(if not_true {
        (Event::NotTrue { fact: target, at: now }, true)
    } else {
        let reason = "the user accepted the agent's proposal".to_string();
        (Event::Supersede { fact: target, by: proposal.id.clone(), at: now, reason }, false)
    })
}

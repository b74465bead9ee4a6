//! `facts.jsonl`, the event log: this module alone adds to it (through the
//! write boundary, which redacts every string) and rewrites it (a physical
//! delete, forgetting a session).

use std::collections::HashSet;

use serde_json::Value;

use super::{Event, Fold, fact_id};
use crate::error::Result;
use crate::journal::names_session;
use crate::jsonl;
use crate::lock::WriteLock;
use crate::store::Store;

/// Appends events to `store`'s facts log, through the write boundary.
pub fn append(store: &Store, lock: &WriteLock, events: &[Event]) -> Result<()> {
    let path = store.facts_path();
    super::warm_fold::appending(&path, || crate::scrub::append_records(store.guards(), lock, &path, events))
}

/// Removes every event about fact `id` (and about the ids of its edited
/// wordings), so that its text is gone from disk, then appends a tombstone.
pub fn remove_fact(store: &Store, lock: &WriteLock, id: &str, now: jiff::Timestamp) -> Result<()> {
    let mut doomed: HashSet<String> = HashSet::from([id.to_string()]);
    doomed.extend(edit_aliases(store, id)?);
    jsonl::rewrite_lines(lock, &store.facts_path(), None, |value| !mentions_any(value, &doomed))?;
    append(store, lock, &[Event::Delete { fact: id.to_string(), at: now }])
}

/// What removing a session from the facts log took out.
#[derive(Debug, Default)]
pub struct SessionRemoval {
    /// Facts whose only source was the session: removed entirely, sorted.
    pub facts: Vec<String>,
    /// Observations removed from facts that other sessions also support.
    pub provenance: usize,
}

/// Removes a session from the facts log: the facts it alone supported (with
/// every event about them) and its observations of facts others support.
pub fn remove_session(store: &Store, lock: &WriteLock, session: &str) -> Result<SessionRemoval> {
    let fold = Fold::read(&store.facts_path())?;
    let sole: HashSet<String> = sole_facts(&fold, session).map(|f| f.id.clone()).collect();
    let mut doomed = sole.clone();
    for id in &sole {
        doomed.extend(edit_aliases(store, id)?);
    }
    let mut removal = SessionRemoval { facts: sole.into_iter().collect(), provenance: 0 };
    removal.facts.sort();
    // A damaged line goes when it names the session or one of its facts.
    let owns = |raw: &[u8]| {
        crate::journal::owned_by(raw, session) || doomed.iter().any(|id| jsonl::holds_field(raw, "fact", id))
    };
    jsonl::rewrite_lines(lock, &store.facts_path(), Some(&owns), |v| {
        if mentions_any(v, &doomed) {
            return false;
        }
        if names_session(v, session) {
            removal.provenance += 1;
            return false;
        }
        true
    })?;
    Ok(removal)
}

/// The facts whose only source is `session`: forgetting it removes them.
pub fn sole_facts<'a>(fold: &'a Fold, session: &'a str) -> impl Iterator<Item = &'a super::Fact> {
    fold.facts
        .iter()
        .filter(move |f| !f.user_authored && !f.sources.is_empty() && f.sources.iter().all(|s| s.session == session))
}

/// The ids of the wordings fact `id` was edited to.
fn edit_aliases(store: &Store, id: &str) -> Result<Vec<String>> {
    let mut aliases = Vec::new();
    for line in jsonl::read(&store.facts_path())? {
        if let Ok(value) = line.parsed
            && let Ok(Event::Edit { fact, text, .. }) = serde_json::from_value::<Event>(value)
            && fact == id
        {
            aliases.push(fact_id(&text));
        }
    }
    Ok(aliases)
}

/// Whether a facts event names any of `ids`, as its fact or its counterpart.
fn mentions_any(value: &Value, ids: &HashSet<String>) -> bool {
    ["fact", "by", "with"].iter().filter_map(|k| value.get(k).and_then(Value::as_str)).any(|v| ids.contains(v))
}

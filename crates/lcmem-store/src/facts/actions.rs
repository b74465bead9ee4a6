//! User control over facts: confirm, pin, edit, not true, restore, add and
//! the physical delete.

use jiff::Timestamp;

use super::conflict::reconcile_among;
use super::{ConflictJudge, Event, Fact, Fold, fact_id, log};
use crate::error::{Error, Result};
use crate::lock::WriteLock;
use crate::scrub;
use crate::store::Store;

/// What a user can do to a fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Confirm,
    /// Takes back a confirm (the fact stands on its evidence again).
    Unconfirm,
    Pin,
    Unpin,
    NotTrue,
    Restore,
    Edit(String),
    Delete,
}

/// Finds a fact by id or unique id prefix.
pub(super) fn resolve<'a>(fold: &'a Fold, query: &str) -> Result<&'a Fact> {
    if let Some(f) = fold.get(query) {
        return Ok(f);
    }
    if query.is_empty() {
        return Err(Error::NoSuchFact { query: String::new() });
    }
    let matches = fold.find_prefix(query);
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(Error::NoSuchFact { query: query.to_string() }),
        many => Err(Error::AmbiguousFact {
            query: query.to_string(),
            candidates: many.iter().map(|f| f.id.clone()).collect(),
        }),
    }
}

/// What [`apply_reporting`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The fact's id (the query may have been a prefix).
    pub id: String,
    /// Whether anything was written: an action that would leave the fact as
    /// it is (confirming a confirmed fact, restoring one that stands) writes
    /// nothing and logs no event.
    pub changed: bool,
}

/// Whether `action` would leave `fact` as it is.
fn changes_nothing(fact: &Fact, action: &Action) -> bool {
    match action {
        Action::Confirm => fact.confirmed && fact.superseded_by.is_none() && !fact.not_true,
        Action::Unconfirm => !fact.confirmed,
        Action::Pin => fact.pinned,
        Action::Unpin => !fact.pinned,
        Action::NotTrue => fact.not_true,
        Action::Restore => !fact.not_true && fact.superseded_by.is_none(),
        Action::Edit(text) => fact.text == text.trim() && fact.confirmed,
        Action::Delete => false,
    }
}

/// Applies a user action to fact `query` and returns the fact's id. Edits and
/// restores are reconciled with the other facts, so a user's correction can
/// supersede what it corrects.
pub fn apply(store: &Store, query: &str, action: Action, judge: &dyn ConflictJudge, now: Timestamp) -> Result<String> {
    apply_reporting(store, query, action, judge, now).map(|applied| applied.id)
}

/// [`apply`], saying whether anything changed.
pub fn apply_reporting(
    store: &Store,
    query: &str,
    action: Action,
    judge: &dyn ConflictJudge,
    now: Timestamp,
) -> Result<Applied> {
    let lock = store.lock()?;
    let fold = Fold::read(&store.facts_path())?;
    let fact = resolve(&fold, query)?;
    let id = fact.id.clone();
    if fact.deleted && action != Action::Delete {
        return Err(Error::FactDeleted { id });
    }
    if action == Action::Unconfirm && fact.user_authored {
        return Err(Error::OwnFactUnconfirmed { id });
    }
    if changes_nothing(fact, &action) {
        return Ok(Applied { id, changed: false });
    }
    let event = match action {
        Action::Confirm => Event::Confirm { fact: id.clone(), at: now },
        Action::Unconfirm => Event::Unconfirm { fact: id.clone(), at: now },
        Action::Pin => Event::Pin { fact: id.clone(), at: now },
        Action::Unpin => Event::Unpin { fact: id.clone(), at: now },
        Action::NotTrue => Event::NotTrue { fact: id.clone(), at: now },
        Action::Restore => Event::Restore { fact: id.clone(), at: now },
        Action::Edit(text) => {
            let text = text.trim().to_string();
            if text.is_empty() {
                return Err(Error::EmptyFact { edit: true });
            }
            Event::Edit { fact: id.clone(), text, at: now }
        }
        Action::Delete => {
            delete_locked(store, &lock, &id, now)?;
            return Ok(Applied { id, changed: true });
        }
    };
    let reconciles = matches!(event, Event::Edit { .. } | Event::Confirm { .. });
    // A restore is the user's decision: it is not undone by the next
    // reconciliation. If what replaced the fact still stands, the two are
    // listed as a conflict for the user to settle.
    let restored_against = match &event {
        Event::Restore { .. } => fact.superseded_by.as_ref().and_then(|by| fold.get(by)).filter(|f| f.is_active()),
        _ => None,
    };
    let accepted = match &event {
        Event::Confirm { .. } => super::proposal::accepted(fact, now),
        _ => None,
    };
    let mut events = vec![event];
    let mut drop_proposal = false;
    if let Some((change, drop)) = accepted {
        events.push(change);
        drop_proposal = drop;
    }
    if let Some(by) = restored_against {
        events.push(Event::Conflict {
            fact: id.clone(),
            with: by.id.clone(),
            at: now,
            reason: "restored by the user while the fact that replaced it still stands".into(),
        });
    }
    log::append(store, &lock, &events)?;
    if drop_proposal {
        delete_locked(store, &lock, &id, now)?;
        return Ok(Applied { id, changed: true });
    }
    if reconciles {
        append_reconciled(store, &lock, std::slice::from_ref(&id), judge, now)?;
    }
    Ok(Applied { id, changed: true })
}

/// Adds a user's own fact (confirmed) and returns its id.
pub fn add(store: &Store, text: &str, judge: &dyn ConflictJudge, now: Timestamp) -> Result<String> {
    add_as(store, text, false, judge, now)
}

/// [`add`] for a convention the user wrote: how the team works.
pub fn add_convention(store: &Store, text: &str, judge: &dyn ConflictJudge, now: Timestamp) -> Result<String> {
    add_as(store, text, true, judge, now)
}

fn add_as(store: &Store, text: &str, convention: bool, judge: &dyn ConflictJudge, now: Timestamp) -> Result<String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::EmptyFact { edit: false });
    }
    let lock = store.lock()?;
    let clean = scrub::fact_text(store.guards(), text);
    let id = fact_id(&clean);
    log::append(store, &lock, &[Event::Add { fact: id.clone(), text: clean, at: now, convention }])?;
    append_reconciled(store, &lock, std::slice::from_ref(&id), judge, now)?;
    Ok(id)
}

/// Reconciles `touched` with the log as it is now and appends the resulting
/// events. The fold comes from the process's warm copy, caught up with what
/// was appended since it was last used ([`super::warm_fold`]).
pub fn append_reconciled(
    store: &Store,
    lock: &WriteLock,
    touched: &[String],
    judge: &dyn ConflictJudge,
    now: Timestamp,
) -> Result<usize> {
    let events = super::warm_fold::with(&store.facts_path(), |fold, subjects| {
        reconcile_among(fold, touched, judge, now, Some(subjects))
    })?;
    log::append(store, lock, &events)?;
    Ok(events.len())
}

/// Physically deletes a fact: every event about it is removed from the log
/// (the text is gone from disk, not hidden), then a tombstone is appended so
/// its history says it was deleted.
pub fn delete_physically(store: &Store, query: &str, now: Timestamp) -> Result<String> {
    let lock = store.lock()?;
    let fold = Fold::read(&store.facts_path())?;
    let id = resolve(&fold, query)?.id.clone();
    delete_locked(store, &lock, &id, now)?;
    Ok(id)
}

pub fn delete_locked(store: &Store, lock: &WriteLock, id: &str, now: Timestamp) -> Result<()> {
    log::remove_fact(store, lock, id, now)
}

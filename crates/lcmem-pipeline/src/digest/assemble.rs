//! Consolidation: hand edits in, decay and auto-archive, select under the
//! cap, write atomically with history.

use std::collections::BTreeSet;

use jiff::{SignedDuration, Timestamp};
use serde::Serialize;

use super::edits::{self, Edit};
use super::markdown::{self, Parsed, Section};
use super::restated;
use super::select::{self, Candidate};
use super::state::{self, DigestState, LineSection, StateLine, UndoLog};
use super::tokens::Tokenizer;
use crate::error::{Error, Result};
use crate::facts::{self, Fold};
use crate::journal::{self, Journal, Record, SealKind};
use crate::jsonl;
use crate::lock::WriteLock;
use crate::store::Store;

/// What a consolidation did.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ConsolidateReport {
    /// False when the new file is identical to the old one.
    pub written: bool,
    pub tokens: usize,
    pub cap: usize,
    pub facts: usize,
    /// The person's own facts, for every project (`lcmem facts add --user`).
    #[serde(skip_serializing_if = "is_zero")]
    pub person: usize,
    pub pinned_threads: usize,
    pub recently: usize,
    /// Candidate lines left out to respect the cap (still in the journal and facts).
    pub evicted: usize,
    pub pinned_blocks: usize,
    /// Hand edits found in MEMORY.md and turned into user actions.
    pub hand_edits: Vec<String>,
    /// Removals not acted on because too much of the file went at once.
    pub removals_ignored: Option<usize>,
    /// Changed or new lines of MEMORY.md not taken (not text, or a paste),
    /// and why: they are left out of the new file (the old one is in
    /// history).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused_edits: Vec<String>,
    /// Sessions auto-archived for inactivity.
    pub archived: Vec<String>,
    /// Why the repository's team file was not read (a link, too large,
    /// unreadable): consolidation goes on without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_file: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

const TITLE_NOTE: &str = "<!-- Written by lcmem from the journal and facts. Edit freely: a changed line updates \
its fact, a removed line deletes it, a new line becomes your own fact. Text between pinned markers is kept \
verbatim. -->";

/// Rewrites MEMORY.md under the project's write lock. Memory off: does
/// nothing and returns `None`.
pub fn consolidate(store: &Store, now: Timestamp) -> Result<Option<ConsolidateReport>> {
    if !store.settings()?.memory_enabled {
        return Ok(None);
    }
    let lock = store.lock()?;
    consolidate_locked(store, &lock, now)
}

/// [`consolidate`] for a caller that already holds the write lock (forget).
pub fn consolidate_locked(store: &Store, lock: &WriteLock, now: Timestamp) -> Result<Option<ConsolidateReport>> {
    let settings = store.settings()?;
    if !settings.memory_enabled {
        return Ok(None);
    }
    recover_interrupted(store)?;
    let cap = settings.cap_tokens as usize;
    let mut report = ConsolidateReport { cap, ..ConsolidateReport::default() };
    // The team's items, as the checkout has them now (nothing when the file
    // did not change). A file that cannot be read is reported, never a reason
    // to stop: a hostile checkout must not be able to stall memory.
    if let Err(e) = crate::team::take_in_locked(store, lock, now) {
        report.team_file = Some(e.to_string());
    }

    let current = jsonl::read_optional(&store.memory_md_path())?.map(|b| String::from_utf8_lossy(&b).into_owned());
    let previous_state = state::read_state(&state::state_path(store))?;
    let parsed = current.as_deref().map(markdown::parse).unwrap_or_default();
    let mut undo = UndoLog::default();
    if let Some(text) = &current
        && previous_state.as_ref().is_none_or(|s| s.sha256 != state::sha256_hex(text.as_bytes()))
    {
        undo = apply_hand_edits(store, lock, &parsed, previous_state.as_ref(), now, &mut report)?;
    }

    let journal = Journal::read(&store.journal_path())?;
    report.archived = auto_archive(store, lock, &journal, settings.archive_after_days, now)?;
    let journal = if report.archived.is_empty() { journal } else { Journal::read(&store.journal_path())? };
    let fold = Fold::read(&store.facts_path())?;
    let person = person_fold(store)?;

    let tokenizer = Tokenizer::o200k()?;
    let title = format!("# Project memory: {}\n\n{TITLE_NOTE}\n", store.project().name());
    let fixed: String =
        std::iter::once(title.clone()).chain(parsed.pinned_blocks.iter().map(|b| format!("\n{b}"))).collect();
    let fixed_tokens = tokenizer.count(&fixed);
    if fixed_tokens > cap {
        return Err(Error::PinnedOverCap { path: store.memory_md_path(), tokens: fixed_tokens, cap });
    }
    report.pinned_blocks = parsed.pinned_blocks.len();

    let candidates = restated::without_restated(select::candidates(&journal, &fold, &person, now), &fold);
    let (chosen, text, tokens) = fit(&fixed, &candidates, cap, fixed_tokens, tokenizer);
    report.evicted = candidates.len() - chosen.len();
    report.tokens = tokens;
    tally(&mut report, &chosen);

    let new_state = state_of(&text, &chosen, tokens, cap, &journal, now, undo);
    if current.as_deref() == Some(text.as_str()) {
        // No new history entry: undoing goes back past the consolidation
        // before this one too, so it takes back both one's hand edits.
        let mut new_state = new_state;
        if let Some(previous) = previous_state {
            let mine = std::mem::replace(&mut new_state.undo, previous.undo);
            new_state.undo.extend(mine);
        }
        state::write_state(&state::state_path(store), &new_state)?;
        return Ok(Some(report));
    }
    state::push_history(store, now, settings.history as usize)?;
    write_digest(store, &new_state, &text)?;
    report.written = true;
    Ok(Some(report))
}

/// The candidates that fit under the cap, the text they render and its size
/// in tokens: those [`choose`] picks, less the lowest signal until it fits.
fn fit(
    fixed: &str,
    candidates: &[Candidate],
    cap: usize,
    fixed_tokens: usize,
    tokenizer: &Tokenizer,
) -> (Vec<Candidate>, String, usize) {
    let mut chosen = choose(candidates, cap, fixed_tokens, tokenizer);
    let mut text = render(fixed, &chosen);
    let mut tokens = tokenizer.count(&text);
    while tokens > cap && !chosen.is_empty() {
        chosen.pop(); // the lowest signal goes first
        text = render(fixed, &chosen);
        tokens = tokenizer.count(&text);
    }
    (chosen, text, tokens)
}

/// Counts the chosen lines of each section into the report.
fn tally(report: &mut ConsolidateReport, chosen: &[Candidate]) {
    for c in chosen {
        match c.section {
            Section::Facts => report.facts += 1,
            Section::Person => report.person += 1,
            Section::Pinned => report.pinned_threads += 1,
            Section::Recently => report.recently += 1,
        }
    }
}

/// Writes the new state and MEMORY.md: the state first to a side file, then
/// MEMORY.md, then the state in place, so that a crash at any point is
/// recognised by `recover_interrupted`.
fn write_digest(store: &Store, new_state: &DigestState, text: &str) -> Result<()> {
    let pending = pending_state_path(store);
    state::write_state(&pending, new_state)?;
    jsonl::atomic_write(&store.memory_md_path(), text.as_bytes())?;
    std::fs::rename(&pending, state::state_path(store)).map_err(|source| Error::Io { path: pending, source })?;
    jsonl::sync_dir(&store.memory_dir())?;
    Ok(())
}

/// What the state file records of a digest: its hash, when and as of when it
/// was written, its size against the cap, each line with its origin, its
/// sources, the welcome strip, how many seals it saw, and what undo restores.
fn state_of(
    text: &str,
    chosen: &[Candidate],
    tokens: usize,
    cap: usize,
    journal: &Journal,
    now: Timestamp,
    undo: UndoLog,
) -> DigestState {
    DigestState {
        sha256: state::sha256_hex(text.as_bytes()),
        generated_at: now,
        as_of: chosen.iter().map(|c| c.as_of).max(),
        tokens,
        cap,
        lines: chosen
            .iter()
            .map(|c| StateLine {
                section: LineSection::from(c.section),
                origin: c.origin.clone(),
                text: c.text.clone(),
            })
            .collect(),
        sources: chosen.iter().flat_map(|c| c.sources.iter().cloned()).collect::<BTreeSet<_>>().into_iter().collect(),
        welcome: super::welcome::strip(journal, now),
        sealed: journal.seals(),
        undo,
    }
}

fn pending_state_path(store: &Store) -> std::path::PathBuf {
    store.memory_dir().join("MEMORY.state.json.next")
}

/// Finishes or discards a consolidation a crash interrupted: if MEMORY.md is
/// the file the pending state describes, the state is promoted; otherwise the
/// old file and state are still consistent and the pending one is dropped.
fn recover_interrupted(store: &Store) -> Result<()> {
    let pending = pending_state_path(store);
    let Some(next) = state::read_state(&pending)? else {
        if pending.exists() {
            std::fs::remove_file(&pending).map_err(|source| Error::Io { path: pending.clone(), source })?;
        }
        return Ok(());
    };
    let body = jsonl::read_optional(&store.memory_md_path())?.unwrap_or_default();
    if state::sha256_hex(&body) == next.sha256 {
        std::fs::rename(&pending, state::state_path(store)).map_err(|source| Error::Io { path: pending, source })?;
    } else {
        std::fs::remove_file(&pending).map_err(|source| Error::Io { path: pending, source })?;
    }
    Ok(())
}

/// Share of the room (the cap less title and pinned blocks) each section may
/// take in the first pass, so that a flood of facts cannot crowd out the
/// recent arc, nor the recent arc the facts. Room a section leaves unused is
/// filled in a second pass, highest signal first.
/// The person's facts are a short section: at most a tenth of the room in
/// the first pass.
const QUOTAS: [(Section, f64); 4] =
    [(Section::Facts, 0.5), (Section::Person, 0.1), (Section::Pinned, 0.2), (Section::Recently, 0.3)];

/// Greedy fill, highest signal first, counting each line once.
fn choose(candidates: &[Candidate], cap: usize, fixed_tokens: usize, tokenizer: &Tokenizer) -> Vec<Candidate> {
    let room = cap.saturating_sub(fixed_tokens) as f64;
    let mut used = fixed_tokens;
    let mut per_section = [0usize; QUOTAS.len()];
    let mut taken = vec![false; candidates.len()];
    let costs: Vec<usize> = candidates.iter().map(|c| tokenizer.count(&c.text) + 1).collect();
    let heading_cost = |section: Section| tokenizer.count(markdown::heading(section)) + 2;
    let slot = |section: Section| QUOTAS.iter().position(|(s, _)| *s == section).expect("every section has a quota");
    for pass in 0..2 {
        for (i, candidate) in candidates.iter().enumerate() {
            if taken[i] {
                continue;
            }
            let k = slot(candidate.section);
            let heading = if per_section[k] == 0 { heading_cost(candidate.section) } else { 0 };
            let cost = costs[i] + heading;
            if used + cost > cap || pass == 0 && (per_section[k] + cost) as f64 > room * QUOTAS[k].1 {
                continue;
            }
            used += cost;
            per_section[k] += cost;
            taken[i] = true;
        }
    }
    candidates.iter().zip(taken).filter(|(_, t)| *t).map(|(c, _)| c.clone()).collect()
}

/// The file: title, pinned blocks verbatim, then Facts and the person's
/// facts (by signal), Pinned threads and Recently (newest first).
fn render(fixed: &str, chosen: &[Candidate]) -> String {
    let mut out = fixed.to_string();
    for section in [Section::Facts, Section::Person, Section::Pinned, Section::Recently] {
        let mut lines: Vec<&Candidate> = chosen.iter().filter(|c| c.section == section).collect();
        if lines.is_empty() {
            continue;
        }
        if !matches!(section, Section::Facts | Section::Person) {
            lines.sort_by_key(|c| std::cmp::Reverse(c.as_of));
        }
        out.push('\n');
        out.push_str(markdown::heading(section));
        out.push('\n');
        for line in lines {
            out.push_str(&line.text);
            out.push('\n');
        }
    }
    out
}

/// The person's facts, for every project; none for the person's own store.
fn person_fold(store: &Store) -> Result<Fold> {
    if store.is_person() {
        return Ok(Fold::default());
    }
    Fold::read(&Store::person(store.home()).facts_path())
}

fn apply_hand_edits(
    store: &Store,
    lock: &WriteLock,
    parsed: &Parsed,
    previous: Option<&DigestState>,
    now: Timestamp,
    report: &mut ConsolidateReport,
) -> Result<UndoLog> {
    let fold = Fold::read(&store.facts_path())?;
    let journal = Journal::read(&store.journal_path())?;
    let person = person_fold(store)?;
    let found = edits::detect(parsed, previous, &fold, &person, &journal);
    report.removals_ignored = found.removals_ignored;
    report.refused_edits = found.refused;
    let mut undo = UndoLog::default();
    let mut fact_events = Vec::new();
    let mut journal_records = Vec::new();
    let mut touched = Vec::new();
    for edit in found.edits {
        report.hand_edits.push(describe(&edit));
        match edit {
            Edit::EditFact { id, text } => {
                if let Some(fact) = fold.get(&id) {
                    undo.edited_facts.push((fact.id.clone(), fact.text.clone()));
                }
                touched.push(id.clone());
                fact_events.push(facts::Event::Edit { fact: id, text, at: now });
            }
            Edit::AddFact { text } => {
                let id = facts::fact_id(&text);
                if fold.get(&id).is_none_or(|f| f.deleted) && !undo.added_facts.contains(&id) {
                    undo.added_facts.push(id.clone());
                }
                touched.push(id.clone());
                fact_events.push(facts::Event::Add { fact: id, text, at: now, convention: false });
            }
            // The person's facts live in their own store, under its own lock.
            Edit::EditPersonFact { id, text } => {
                let person = Store::person(store.home());
                facts::apply(&person, &id, facts::Action::Edit(text), &facts::SubjectKeyJudge, now)?;
            }
            Edit::AddPersonFact { text } => {
                facts::add(&Store::person(store.home()), &text, &facts::SubjectKeyJudge, now)?;
            }
            Edit::DeleteFact { id } => {
                facts::delete_locked(store, lock, &id, now)?;
                state::purge_fact(store, &id)?;
            }
            Edit::EditSummary { session, summary } => {
                if let Some(current) = journal.get(&session) {
                    undo.edited_summaries.push((session.clone(), current.entry.summary.clone()));
                }
                journal_records.push(Record::Edit { session_id: session, summary, ts: now })
            }
            Edit::Archive { session } => journal_records.push(Record::Archive {
                session_id: session,
                ts: now,
                reason: "its line was removed from MEMORY.md".into(),
            }),
            Edit::Unpin { session } => {
                undo.unpinned.push(session.clone());
                journal_records.push(Record::Unpin { session_id: session, ts: now })
            }
        }
    }
    facts::append(store, lock, &fact_events)?;
    journal::append(store, lock, &journal_records)?;
    if !touched.is_empty() {
        facts::append_reconciled(store, lock, &touched, &facts::SubjectKeyJudge, now)?;
    }
    Ok(undo)
}

fn describe(edit: &Edit) -> String {
    match edit {
        Edit::EditFact { id, text } => format!("edited fact {id}: {text}"),
        Edit::DeleteFact { id } => format!("deleted fact {id} (its line was removed)"),
        Edit::AddFact { text } => format!("added your fact: {text}"),
        Edit::EditPersonFact { id, text } => format!("edited your fact {id} (every project): {text}"),
        Edit::AddPersonFact { text } => format!("added your fact for every project: {text}"),
        Edit::EditSummary { session, .. } => format!("edited the summary of {session}"),
        Edit::Archive { session } => format!("archived {session} (its line was removed)"),
        Edit::Unpin { session } => format!("unpinned {session} (its line was removed)"),
    }
}

/// Marks done sessions inactive for `days` as archived: they fade from the
/// digest and stay in the journal and in recall. Pinned sessions never fade.
fn auto_archive(store: &Store, lock: &WriteLock, journal: &Journal, days: u32, now: Timestamp) -> Result<Vec<String>> {
    if days == 0 {
        return Ok(Vec::new());
    }
    let limit = now - SignedDuration::from_hours(24 * i64::from(days));
    let stale: Vec<String> = journal
        .entries
        .iter()
        .filter(|c| c.entry.kind == SealKind::Done && !c.entry.pinned && c.last_activity() < limit)
        .map(|c| c.entry.session_id.clone())
        .collect();
    let records: Vec<Record> = stale
        .iter()
        .map(|id| Record::Archive { session_id: id.clone(), ts: now, reason: format!("inactive for {days} days") })
        .collect();
    journal::append(store, lock, &records)?;
    Ok(stale)
}

/// Consolidates when `memory.consolidate_every` seals have happened since
/// the last consolidation (or there is no MEMORY.md yet): after every seal by
/// default, since consolidation is rules over two small files and costs
/// milliseconds, and the next session must know what the last one did. The
/// pipeline calls it after sealing ([`crate::ingest`]).
pub fn consolidate_if_due(store: &Store, now: Timestamp) -> Result<Option<ConsolidateReport>> {
    let settings = store.settings()?;
    if !settings.memory_enabled || settings.consolidate_every == 0 {
        return Ok(None);
    }
    // Every seal counts, a reseal of a resumed session too: its new work
    // must reach the digest like a new session's.
    let sealed = Journal::of(store)?.seals();
    let due = match state::read_state(&state::state_path(store))? {
        None => sealed > 0,
        Some(s) => sealed.saturating_sub(s.sealed) >= settings.consolidate_every as usize,
    };
    if due { consolidate(store, now) } else { Ok(None) }
}

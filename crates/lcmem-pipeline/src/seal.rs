//! Sealing: closing a session and writing what it achieved into memory.

use jiff::Timestamp;

use crate::error::{Error, Result};
use crate::extract::lane::LaneReport;
use crate::extract::{ExtractInput, Extractor};
use crate::facts::{self, Observation, WorkspaceText};
use crate::journal::{self, Current, Entry, Journal, Record, SealKind};
use crate::scrub;
use crate::session::{Session, Status};
use crate::store::Store;

/// What a seal did.
#[derive(Debug, Clone, PartialEq)]
pub enum SealOutcome {
    /// The session was sealed now: its journal entry and how many candidate
    /// facts were observed.
    Sealed { entry: Entry, facts: usize },
    /// The session had grown since it was sealed and was sealed again: its
    /// entry is now `revision` (2 or more), covering the whole session; the
    /// earlier ones stay in the journal as history.
    Revised { entry: Entry, facts: usize, revision: usize },
    /// The session had been sealed before and its entry covers all of it;
    /// nothing was written.
    AlreadySealed { entry: Entry },
}

impl SealOutcome {
    pub fn entry(&self) -> &Entry {
        match self {
            SealOutcome::Sealed { entry, .. }
            | SealOutcome::Revised { entry, .. }
            | SealOutcome::AlreadySealed { entry } => entry,
        }
    }

    /// Whether the seal wrote a journal entry (a first one or a revision).
    pub fn wrote(&self) -> bool {
        !matches!(self, SealOutcome::AlreadySealed { .. })
    }
}

/// Seals session `id`: runs the extractor over its prose and appends one
/// journal entry and its candidate facts. `kind` overrides the session's own
/// closing status; without either, a session is sealed as done.
///
/// Idempotent: a session whose journal entry covers all of it is left as it
/// is. One that grew since (it was resumed) is sealed again, over the whole
/// session, as a revision of its entry ([`SealOutcome::Revised`]). Facts are
/// written before the journal entry, so the entry is the commit point: a crash
/// between the two leaves the session unsealed (or at its earlier revision),
/// and sealing it again records the same observations once more, which the
/// facts fold counts once.
pub fn seal(
    store: &Store,
    id: &str,
    kind: Option<SealKind>,
    extractor: &dyn Extractor,
    now: Timestamp,
) -> Result<SealOutcome> {
    seal_session(store, &store.read_session(id)?, kind, extractor, now)
}

/// [`seal`] for a session already read.
pub fn seal_session(
    store: &Store,
    session: &Session,
    kind: Option<SealKind>,
    extractor: &dyn Extractor,
    now: Timestamp,
) -> Result<SealOutcome> {
    seal_once(store, session, kind, extractor, now, Again::Never)
}

/// Seals session `id` again with `extractor` (a model lane), after the
/// rules sealed it: the background half of a seal, so that the next session
/// never waits for a model. The entry the offline lane wrote gets a revision
/// covering the same lines, and the model's facts are observed beside the
/// rules'. A session whose current entry a model lane wrote, or the offline
/// lane wrote because the model could not be used, is left as it is; one
/// that grew since is sealed as any revision is.
pub fn refine(store: &Store, id: &str, extractor: &dyn Extractor, now: Timestamp) -> Result<SealOutcome> {
    seal_once(store, &store.read_session(id)?, None, extractor, now, Again::AfterRules)
}

/// Whether a session whose entry covers it all is sealed again.
#[derive(Clone, Copy, PartialEq)]
enum Again {
    Never,
    /// When the rules alone wrote its entry.
    AfterRules,
}

impl Again {
    fn applies(self, entry: &Entry) -> bool {
        self == Again::AfterRules
            && entry.fallback.is_none()
            && entry.extractor == crate::extract::offline::OfflineExtractor.name()
    }
}

fn seal_once(
    store: &Store,
    session: &Session,
    kind: Option<SealKind>,
    extractor: &dyn Extractor,
    now: Timestamp,
    again: Again,
) -> Result<SealOutcome> {
    let id = session.id();
    let previous = match find_entry(store, session)? {
        Found::Covers(current) if again.applies(&current.entry) => Some(current),
        Found::Covers(current) => return Ok(SealOutcome::AlreadySealed { entry: current.entry }),
        Found::Outgrown(current) => Some(current),
        Found::None => None,
    };
    // A revision closes as the session now says, else as the revision before.
    let kind = kind
        .or(match session.closing_status() {
            Some(Status::Archived) => Some(SealKind::Archived),
            Some(Status::Done) => Some(SealKind::Done),
            _ => None,
        })
        .or(previous.as_ref().map(|c| c.sealed_kind))
        .unwrap_or(SealKind::Done);
    let input = ExtractInput::from_session(session, kind);
    let output =
        extractor.extract(&input).map_err(|e| Error::Extract { session: id.to_string(), message: e.0 })?.bounded();
    // Read again by a model that could not be used: the rules' line stands,
    // and the caller is told why.
    if again == Again::AfterRules
        && let Some(fallback) = output.lane.as_ref().and_then(|l| l.fallback.as_ref())
    {
        return Err(Error::Extract {
            session: id.to_string(),
            message: format!("the model lane was not used ({fallback}); the rules' line stands"),
        });
    }
    let observations = observations(store.guards(), session, &output.facts);
    let entry = guarded_entry(store.guards(), session, &input, output, extractor, kind, now);
    write(store, session, again, entry, observations, extractor, now)
}

/// The journal entry of what the extractor wrote, through the boundary,
/// which does not trust the extractor: whatever lane wrote it, a summary
/// sentence or decision that reads as an order is not written, nor a title
/// or file name that reads as more than a request.
fn guarded_entry(
    guards: &crate::guards::Guards,
    session: &Session,
    input: &ExtractInput,
    output: crate::extract::ExtractOutput,
    extractor: &dyn Extractor,
    kind: SealKind,
    now: Timestamp,
) -> Entry {
    let id = session.id();
    let work_title = crate::extract::work_title(input, &output);
    let summary = if (guards.is_instruction)(&output.summary) {
        summary_without_orders(guards, input, &output.summary)
    } else {
        output.summary
    };
    let decisions = output.decisions.into_iter().filter(|d| !(guards.is_instruction)(d));
    // A title is usually the user's request and may be imperative; one that
    // reads as more (an override, a standing order) is not carried into
    // memory, and neither is a file named like one.
    let title = if (guards.is_order)(&work_title) {
        format!("(title withheld: it reads as an instruction; see session {id})")
    } else {
        scrub::scrub_text(guards, &work_title)
    };
    let files = output.files.into_iter().filter(|f| !(guards.is_order)(f)).collect();
    // Nor is such a file's name carried in the line's own words.
    let summary = crate::guards::without_order_paths(guards, &summary).into_owned();
    let decisions = decisions.map(|d| crate::guards::without_order_paths(guards, &d).into_owned()).collect();
    let lane = output.lane.unwrap_or_else(|| LaneReport {
        extractor: extractor.name().to_string(),
        fallback: None,
        cost: None,
    });
    Entry {
        session_id: id.to_string(),
        sealed_at: now,
        kind,
        title,
        summary,
        files,
        decisions,
        pinned: session.pinned(),
        outcome: output.outcome,
        created_at: session.header.created_at,
        last_active: session.last_active(),
        extractor: lane.extractor,
        covers: Some(journal::work_lines(session)),
        fallback: lane.fallback,
        cost: lane.cost,
    }
}

/// A summary that reads as an order, without it: an instruction-shaped
/// sentence is left out on its own and never withholds the rest; when what
/// is left does not read as a line, the plain line of the session stands
/// (without its title, then without quoting its request, when those read as
/// orders), and a session that changed files still says where.
fn summary_without_orders(guards: &crate::guards::Guards, input: &ExtractInput, summary: &str) -> String {
    let kept: Vec<String> =
        crate::extract::sentences(summary).into_iter().filter(|s| !(guards.is_instruction)(s)).collect();
    let untitled = ExtractInput { title: String::new(), ..input.clone() };
    let unquoted = ExtractInput { title: String::new(), turns: Vec::new(), ..input.clone() };
    let plain = [input, &untitled, &unquoted].map(crate::extract::offline::plain_summary);
    // What is kept must still read as a line ("No changes made." alone does not).
    if !kept.is_empty()
        && !(guards.is_instruction)(&kept.join(" "))
        && crate::extract::clause::is_clean(&kept.join(" "))
    {
        kept.join(" ")
    } else if let Some(line) = plain.into_iter().find(|line| !(guards.is_instruction)(line)) {
        line
    } else {
        "Session sealed; its summary was withheld because it reads as an instruction.".to_string()
    }
}

/// The session's candidate facts as observations, through the boundary: the
/// text scrubbed of secrets and markup, judged by the guard, and marked as
/// an echo when it only repeats the session's workspace.
fn observations(
    guards: &crate::guards::Guards,
    session: &Session,
    candidates: &[crate::extract::CandidateFact],
) -> Vec<facts::Event> {
    let id = session.id();
    let workspace = if candidates.is_empty() { WorkspaceText::empty() } else { WorkspaceText::of(session) };
    candidates
        .iter()
        .map(|f| {
            let text = scrub::fact_text(guards, &f.text);
            facts::Event::Observe(Observation {
                fact: facts::fact_id(&text),
                instruction: (guards.is_instruction)(&text),
                // The person's own words are theirs even when the agent
                // wrote them into a file the session's tools then showed.
                workspace_echo: f.origin != facts::Origin::User && workspace.contains(&text),
                text,
                source_session: id.to_string(),
                // As of when the session said it, so that sealing out of order
                // still lets the newer statement win.
                learned_at: session.last_active(),
                confidence: f.confidence,
                confirmed: false,
                origin: f.origin,
                convention: f.convention,
                team: None,
            })
        })
        .collect()
}

/// Writes the seal under the project's lock: the observations, their
/// reconciliation, and the journal entry, unless a forget or another
/// seal got there while the extractor ran.
fn write(
    store: &Store,
    session: &Session,
    again: Again,
    mut entry: Entry,
    observations: Vec<facts::Event>,
    extractor: &dyn Extractor,
    now: Timestamp,
) -> Result<SealOutcome> {
    let id = session.id();
    let touched: Vec<String> = observations.iter().map(|o| o.fact().to_string()).collect();
    let lock = store.lock()?;
    // A forget may have run while we were extracting: what was read is not
    // written back. The session must still be in the store, and not buried.
    crate::tombstone::refuse_forgotten(&store.tombstones_path(), &lock, id)?;
    if !store.session_path(id).exists() {
        return Err(Error::NoSuchSession { query: id.to_string() });
    }
    // Another process may have sealed it while we were extracting.
    let revision = match find_entry(store, session)? {
        Found::Covers(current) if again.applies(&current.entry) => current.revision + 1,
        Found::Covers(current) => return Ok(SealOutcome::AlreadySealed { entry: current.entry }),
        Found::Outgrown(current) => current.revision + 1,
        Found::None => 1,
    };
    facts::append(store, &lock, &observations)?;
    if !touched.is_empty() {
        facts::append_reconciled(store, &lock, &touched, extractor.judge(), now)?;
    }
    // A model lane's judge spends on the same ledger: its questions are
    // part of what this seal cost.
    if let Some(judged) = extractor.take_judge_cost() {
        entry.cost.get_or_insert_with(Default::default).add(&judged);
    }
    // What the caller sees is what the journal holds: the boundary's copy.
    let entry = scrub::scrubbed(store.guards(), &entry);
    journal::append(store, &lock, &[Record::Sealed(entry.clone())])?;
    let facts = observations.len();
    Ok(if revision > 1 {
        SealOutcome::Revised { entry, facts, revision }
    } else {
        SealOutcome::Sealed { entry, facts }
    })
}

/// What the journal holds for a session.
enum Found {
    /// Never sealed.
    None,
    /// Its current entry covers the whole session: nothing to seal.
    Covers(Current),
    /// Its current entry, which the session has outgrown: due a revision.
    Outgrown(Current),
}

/// The journal's current entry for a session, and whether the session grew
/// past it. A session no journal line names was never sealed, which spares
/// reading a large journal for every new seal (a batch of seals keeps the
/// names warm, see `journal::never_named`); any other journal is read as a
/// whole, however it is spaced or edited.
fn find_entry(store: &Store, session: &Session) -> Result<Found> {
    if journal::never_named(store, session.id())? {
        return Ok(Found::None);
    }
    Ok(match Journal::of(store)?.get(session.id()) {
        None => Found::None,
        Some(current) if current.entry.outgrown_by(session) => Found::Outgrown(current.clone()),
        Some(current) => Found::Covers(current.clone()),
    })
}

/// Pins or unpins a session: recorded in the session's file and in the
/// journal, so the digest can read current standing from the journal alone.
pub fn set_pinned(store: &Store, id: &str, pinned: bool, now: Timestamp) -> Result<()> {
    let lock = store.lock()?;
    let status = if pinned { Status::Pinned } else { Status::Unpinned };
    store.append_status(&lock, id, status, now)?;
    let record = if pinned {
        Record::Pin { session_id: id.to_string(), ts: now }
    } else {
        Record::Unpin { session_id: id.to_string(), ts: now }
    };
    journal::append(store, &lock, &[record])
}

/// Records that sessions were useful again (recall returned them), so that
/// the digest keeps them in front longer. Only sealed sessions are noted,
/// each once per call.
pub fn record_use(store: &Store, sessions: &[String], now: Timestamp) -> Result<usize> {
    if sessions.is_empty() || !store.settings()?.memory_enabled {
        return Ok(0);
    }
    let journal = Journal::of(store)?;
    let mut seen = std::collections::HashSet::new();
    let used: Vec<&str> =
        sessions.iter().map(String::as_str).filter(|id| journal.get(id).is_some() && seen.insert(*id)).collect();
    if used.is_empty() {
        return Ok(0);
    }
    let lock = store.lock()?;
    let path = store.journal_path();
    if journal.old_use_marks > 0 {
        journal::used::migrate(&lock, &path)?;
    }
    journal::used::note(&lock, &journal::used::path_beside(&path), &used, now)?;
    Ok(used.len())
}

//! The facts fold kept warm inside one process, so that a seal costs what it
//! adds to the log rather than the size of the log.
//!
//! Reconciling a sealed session's facts needs the fold of the whole log. A
//! batch (`lcmem seal --all`, the watcher, a benchmark) seals thousands of
//! sessions in one process, and reading and folding the log for each of them
//! made every seal slower than the last. So the fold the last seal used is
//! kept, with the file as it was then, and caught up with what was appended
//! since: only those bytes are read and parsed.
//!
//! The log stays the only source of truth: the warm fold is kept only while
//! the file is what this process last saw plus its own appends (see
//! [`crate::followed`]). With it comes an index of the facts by subject,
//! which lets a judge that only compares facts of one subject skip the rest
//! (see [`super::ConflictJudge::compares_within_subject`]).

use std::collections::HashMap;
use std::path::Path;

use super::{Event, Fold, subject};
use crate::error::Result;
use crate::followed::{Derived, Registry};
use crate::jsonl;

/// The facts of a fold by subject (as [`subject::parse`] reads their text).
#[derive(Default)]
pub(super) struct SubjectIndex {
    of: Vec<Option<String>>,
    by: HashMap<String, Vec<usize>>,
}

impl SubjectIndex {
    /// Brings the entries of the facts `touched` (indices into `fold`) up to date.
    fn update(&mut self, fold: &Fold, touched: &[usize]) {
        self.of.resize(fold.facts.len(), None);
        for &i in touched {
            let now = subject::parse(&fold.facts[i].text).map(|s| s.subject);
            if now == self.of[i] {
                continue;
            }
            if let Some(old) = self.of[i].take()
                && let Some(list) = self.by.get_mut(&old)
            {
                list.retain(|&j| j != i);
            }
            if let Some(key) = &now {
                let list = self.by.entry(key.clone()).or_default();
                let at = list.partition_point(|&j| j < i);
                list.insert(at, i);
            }
            self.of[i] = now;
        }
    }

    /// The facts that share fact `i`'s subject (itself included), in fold
    /// order; none when its text has no subject.
    pub(super) fn same_subject(&self, i: usize) -> &[usize] {
        self.of.get(i).and_then(Option::as_ref).and_then(|k| self.by.get(k)).map_or(&[], Vec::as_slice)
    }
}

/// The fold of one log and its subject index, as the registry keeps them.
/// `fold.conflicts` keeps every conflict recorded, settled or not (see
/// [`Fold::extend`]).
struct Warm {
    fold: Fold,
    subjects: SubjectIndex,
}

impl Derived for Warm {
    fn whole(path: &Path, bytes: &[u8]) -> Result<Warm> {
        let mut warm = Warm { fold: Fold::default(), subjects: SubjectIndex::default() };
        warm.appended(path, bytes, 0)?;
        Ok(warm)
    }

    fn appended(&mut self, path: &Path, bytes: &[u8], lines: usize) -> Result<()> {
        let touched = self.fold.extend(events(bytes, path, lines)?);
        self.subjects.update(&self.fold, &touched);
        Ok(())
    }
}

static WARM: Registry<Warm> = Registry::new();

/// Appends through `append` (this process's own write to the log at `path`),
/// keeping the warm fold trusted when the file was as it knew it.
pub(super) fn appending<T>(path: &Path, append: impl FnOnce() -> Result<T>) -> Result<T> {
    WARM.appending(path, append)
}

/// Runs `f` on the current fold of the log at `path` (with only the open
/// conflicts, as [`Fold::read`] gives them) and its subject index.
pub(super) fn with<R>(path: &Path, f: impl FnOnce(&Fold, &SubjectIndex) -> R) -> Result<R> {
    WARM.with(path, |warm| {
        let open = warm.fold.open_conflicts();
        let all = std::mem::replace(&mut warm.fold.conflicts, open);
        let result = f(&warm.fold, &warm.subjects);
        warm.fold.conflicts = all;
        result
    })
}

/// Parses whole JSONL lines into facts events, numbering them after `lines`.
/// Lines that are not events are skipped here ([`Fold::read`] reports them).
fn events(bytes: &[u8], path: &Path, lines: usize) -> Result<Vec<(usize, Event)>> {
    Ok(jsonl::read_from(bytes, path)?
        .into_iter()
        .filter_map(|l| Some((lines + l.number, serde_json::from_value::<Event>(l.parsed.ok()?).ok()?)))
        .collect())
}

/// Whether the log at `path` has a warm fold now.
#[cfg(test)]
fn is_warm(path: &Path) -> bool {
    WARM.is_warm(path)
}

#[cfg(test)]
mod tests {
    use jiff::Timestamp;

    use super::*;
    use crate::facts::conflict::tests::observe;
    use crate::facts::{ConflictJudge, SubjectKeyJudge, fact_id, log, reconcile};

    /// The warm fold's view: its facts, and the events reconciling every fact
    /// with it would append.
    fn warm_view(path: &Path, judge: &dyn ConflictJudge, now: Timestamp) -> (Vec<super::super::Fact>, Vec<Event>) {
        with(path, |fold, subjects| {
            let ids: Vec<String> = fold.facts.iter().map(|f| f.id.clone()).collect();
            (fold.facts.clone(), super::super::conflict::reconcile_among(fold, &ids, judge, now, Some(subjects)))
        })
        .unwrap()
    }

    /// What reading the log whole gives.
    fn cold_view(path: &Path, now: Timestamp) -> (Vec<super::super::Fact>, Vec<Event>) {
        let fold = Fold::read(path).unwrap();
        let ids: Vec<String> = fold.facts.iter().map(|f| f.id.clone()).collect();
        let events = reconcile(&fold, &ids, &SubjectKeyJudge, now);
        (fold.facts, events)
    }

    /// After each of the process's own appends the warm fold is used and
    /// equals the log read whole; a hand edit of the log (same length, same
    /// file) is seen, not answered from the warm copy.
    #[test]
    fn the_warm_fold_is_the_log_read_whole_and_a_hand_edit_is_seen() {
        let (_dir, store) = crate::store::temp_store();
        let path = store.facts_path();
        let now: Timestamp = "2026-11-30T00:00:00Z".parse().unwrap();
        let batches = [
            vec![observe("The cache lives in Redis.", "s1", 1), observe("The parser is written in Rust.", "s1", 1)],
            vec![observe("The cache lives in Postgres.", "s2", 2), observe("We use pnpm.", "s2", 2)],
            vec![
                Event::Confirm { fact: fact_id("The parser is written in Rust."), at: now },
                observe("The cache lives in Postgres.", "s3", 3),
                observe("The deploy script lives in ops/deploy.sh.", "s3", 3),
            ],
        ];
        for (n, batch) in batches.iter().enumerate() {
            let lock = store.lock().unwrap();
            log::append(&store, &lock, batch).unwrap();
            let warm = warm_view(&path, &SubjectKeyJudge, now);
            assert_eq!(warm, cold_view(&path, now), "after batch {n}");
            assert!(is_warm(&path), "batch {n} was not answered warm");
            // Append what reconciling says, as a seal does.
            log::append(&store, &lock, &warm.1).unwrap();
        }
        assert!(!cold_view(&path, now).0.is_empty());

        // A hand edit in place: same length, same file, new text.
        let text = std::fs::read_to_string(&path).unwrap();
        let edited = text.replacen("ops/deploy.sh", "ops/deploy.py", 1);
        assert_ne!(text, edited);
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, &edited).unwrap();
        let warm = warm_view(&path, &SubjectKeyJudge, now);
        assert!(warm.0.iter().any(|f| f.text.contains("ops/deploy.py")), "the hand edit was not seen");
        assert_eq!(warm, cold_view(&path, now));
    }

    /// Comparing within a subject finds what comparing with every fact finds.
    #[test]
    fn the_subject_index_finds_what_a_pass_over_every_fact_finds() {
        let texts = [
            "The cache lives in Redis.",
            "The cache lives in Postgres.",
            "The cache uses Memcached.",
            "The API server runs on Fly.io.",
            "The API server runs on Render.",
            "We use pnpm.",
            "We use conventional commits.",
            "Nothing to parse here at all",
        ];
        let events: Vec<(usize, Event)> =
            texts.iter().enumerate().map(|(i, t)| (i + 1, observe(t, &format!("s{i}"), i as u32 + 1))).collect();
        let mut fold = Fold::default();
        let touched = fold.extend(events);
        let mut subjects = SubjectIndex::default();
        subjects.update(&fold, &touched);
        let ids: Vec<String> = fold.facts.iter().map(|f| f.id.clone()).collect();
        let now: Timestamp = "2026-11-30T00:00:00Z".parse().unwrap();
        let indexed = super::super::conflict::reconcile_among(&fold, &ids, &SubjectKeyJudge, now, Some(&subjects));
        assert_eq!(indexed, reconcile(&fold, &ids, &SubjectKeyJudge, now));
        assert!(indexed.len() >= 3, "{indexed:?}");
    }
}

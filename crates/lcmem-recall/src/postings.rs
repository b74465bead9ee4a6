//! Reading the index's postings for a query: every live document holding a
//! query term, with its fast fields and term counts, in index order.
//!
//! The work is cut into ranges of documents (each segment, the large ones in
//! halves) that two threads read at once; the ranges' findings are joined in
//! index order, so the result is exactly that of one pass.

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use tantivy::columnar::{Column, ColumnIndex};
use tantivy::index::SegmentReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, DocSet, TERMINATED, Term};

use super::open_index::{Columns, OpenIndex};
use super::scan;
use super::schema::index_error;
use crate::error::Result;

/// A segment with more documents than this is read in two halves.
const SPLIT_DOCS: u32 = 50_000;

/// A document's fast fields that ranking needs. Where the turn is in its
/// file (line, offset, role) is read only for the few units shown or lent
/// from (see [`OpenIndex::place`]).
#[derive(Clone)]
pub struct IndexedDoc {
    /// Its id in its segment.
    pub doc: DocId,
    pub key: u64,
    pub turn: u32,
    pub len: u32,
    pub ts: i64,
    /// Whether every phrase of the query is in it.
    pub phrases: bool,
}

/// What [`OpenIndex::gather`] found in one range of documents: the
/// documents in index order, and their term counts (`docs.len() × terms`,
/// document-major).
#[derive(Default)]
pub struct Found {
    /// The segment they are in.
    pub segment: u32,
    pub docs: Vec<IndexedDoc>,
    pub tfs: Vec<u32>,
}

/// What one query asks of the index.
pub struct Ask<'a> {
    pub terms: &'a [String],
    /// Terms whose positions are needed (they are in a phrase).
    pub need_positions: &'a [bool],
    /// Terms that only count in documents found through the others.
    pub common: &'a [bool],
    /// Which session keys to keep.
    pub wanted: &'a (dyn Fn(u64) -> bool + Sync),
    /// Whether the positions of the phrase terms hold every phrase.
    pub phrases: &'a (dyn Fn(&[Vec<u32>]) -> bool + Sync),
    /// An earlier pass over a query that this one extends (see [`Earlier`]).
    pub earlier: Option<Earlier<'a>>,
}

/// An earlier pass whose findings a query can build on: the query's first
/// `terms` terms are exactly the earlier query's, with the same phrases, and
/// its `wanted` keeps no key the earlier one did not. The expanded query of
/// pseudo-relevance feedback is such a query: it keeps the original terms
/// and adds the lent words.
///
/// Every document holding a term the earlier pass led with (one not common
/// then) is among its findings, with that term's count; so the postings of
/// those terms need not be read again, nor the fields of those documents.
/// Only the new terms' postings are read, and the earlier common terms' ones
/// for documents the earlier pass did not see.
#[derive(Clone, Copy)]
pub struct Earlier<'a> {
    /// What the earlier pass found, range by range.
    pub found: &'a [Found],
    /// How many terms the earlier query had.
    pub terms: usize,
    /// Which of them were common then.
    pub common: &'a [bool],
}

impl OpenIndex {
    /// Every live document holding at least one of the terms not marked
    /// common, in index order, with its fast fields and the counts of every
    /// term. Common terms only count in documents found through the others:
    /// a term present nearly everywhere would otherwise make every document a
    /// candidate. Documents of keys that `wanted` rejects are skipped.
    /// The ranges' findings come in index order, each range whole; with an
    /// earlier pass, exactly what they would be without it.
    pub fn gather(&self, ask: &Ask<'_>) -> Result<Vec<Found>> {
        let ranges = self.ranges();
        // An earlier pass is of use when it read the same ranges and led
        // with every earlier term this query leads with.
        let earlier = ask.earlier.filter(|e| {
            e.found.len() == ranges.len()
                && e.terms <= ask.terms.len()
                && (0..e.terms).all(|t| ask.common[t] || !e.common[t])
        });
        each_in_parallel(ranges.len(), |i| {
            let (s, range) = &ranges[i];
            let before = earlier.map(|e| (&e.found[i], e.terms, e.common));
            self.gather_range(&self.segments[*s], &self.columns[*s], range.clone(), ask, before)
                .map(|found| Found { segment: *s as u32, ..found })
        })
        .into_iter()
        .collect()
    }
}

/// `work` of each of `0..n`, in that order, done by the reading threads
/// (two where the machine has two cores or more), each taking the next item
/// when done with one.
pub(super) fn each_in_parallel<T: Send>(n: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let results: Vec<Mutex<Option<T>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let run = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            let done = work(i);
            *results[i].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(done);
        }
    };
    if reading_threads() > 1 && n > 1 {
        std::thread::scope(|scope| {
            scope.spawn(run);
            run();
        });
    } else {
        run();
    }
    results
        .into_iter()
        .map(|r| r.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).expect("every item is done"))
        .collect()
}

/// How many threads read a query's postings: two where the machine has two
/// cores or more. Asked once per process: the standard library answers by
/// reading the cgroup's CPU quota, three files under `/proc` and `/sys`.
fn reading_threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()).min(2))
}

impl OpenIndex {
    /// The ranges of documents read at once: each segment, the large ones
    /// in halves. Fixed for an open index, so two passes cut alike.
    fn ranges(&self) -> Vec<(usize, Range<DocId>)> {
        let mut ranges = Vec::new();
        for (s, segment) in self.segments.iter().enumerate() {
            let n = segment.max_doc();
            if n > SPLIT_DOCS {
                ranges.push((s, 0..n / 2));
                ranges.push((s, n / 2..n));
            } else {
                ranges.push((s, 0..n));
            }
        }
        ranges
    }

    /// [`OpenIndex::gather`] over the documents of one segment in `range`,
    /// building on what an earlier pass found there (`before`: its findings,
    /// its number of terms and which of them were common).
    fn gather_range(
        &self,
        segment: &SegmentReader,
        columns: &Columns,
        range: Range<DocId>,
        ask: &Ask<'_>,
        before: Option<(&Found, usize, &[bool])>,
    ) -> Result<Found> {
        let nt = ask.terms.len();
        let (before, reused, before_common) = before.unwrap_or((&EMPTY, 0, &[]));
        // A term the earlier pass led with: every document holding it is
        // one of the earlier findings, which carry its count.
        let known = |t: usize| t < reused && !before_common[t];
        let mut found = Found::default();
        let mut postings = self.postings(segment, ask, &range, &known)?;
        // The terms whose documents are candidates.
        let lead: Vec<usize> = (0..postings.len()).filter(|&i| !ask.common[postings[i].0]).collect();
        let earlier_tfs = |j: usize| &before.tfs[j * reused..][..reused];
        // An earlier finding is a candidate by itself when it holds a term
        // this query leads with; otherwise only if a new term finds it.
        let leads = |j: usize| earlier_tfs(j).iter().zip(ask.common).any(|(&tf, &common)| tf > 0 && !common);
        if lead.is_empty() && !(0..before.docs.len()).any(leads) {
            return Ok(found);
        }
        let sid = &columns.sid;
        let mut tfs = vec![0u32; nt];
        let mut positions: Vec<Vec<u32>> = vec![Vec::new(); nt];
        // At most every earlier finding and every document of a lead term:
        // reserved once, the lists are not copied as they grow.
        let most = before.docs.len() + lead.iter().map(|&i| postings[i].1.doc_freq() as usize).sum::<usize>();
        let most = most.min((range.end - range.start) as usize);
        // The documents kept, in order: an earlier finding by its index, or
        // a new document with its key and phrase flag, whose other fields
        // are read afterwards, one column at a time.
        let mut kept: Vec<Kept> = Vec::with_capacity(most);
        found.tfs.reserve(most * nt);
        let mut next_leading = 0;
        let mut at = 0;
        loop {
            next_leading = next_leading.max(at);
            while next_leading < before.docs.len() && !leads(next_leading) {
                next_leading += 1;
            }
            let from_postings = lead.iter().map(|&i| postings[i].1.doc()).min().unwrap_or(TERMINATED);
            let from_before = before.docs.get(next_leading).map_or(TERMINATED, |d| d.doc);
            let doc = from_postings.min(from_before);
            if doc == TERMINATED || doc >= range.end {
                break;
            }
            while at < before.docs.len() && before.docs[at].doc < doc {
                at += 1;
            }
            tfs.fill(0);
            if let Some(seen) = before.docs.get(at).filter(|d| d.doc == doc) {
                if count_seen(seen, earlier_tfs(at), &mut postings, ask, reused, &mut tfs) {
                    kept.push(Kept::Earlier(at));
                    found.tfs.extend_from_slice(&tfs);
                }
                at += 1;
                continue;
            }
            if let Some(new) = count_new(segment, sid, doc, &mut postings, ask, &mut tfs, &mut positions) {
                kept.push(new);
                found.tfs.extend_from_slice(&tfs);
            }
        }
        found.docs = documents(kept, columns, before);
        Ok(found)
    }
}

impl OpenIndex {
    /// The postings of the query's terms that `segment` holds (each with its
    /// index in the query), at the start of `range`; a term `known` (the
    /// earlier pass led with it) is not read again.
    fn postings(
        &self,
        segment: &SegmentReader,
        ask: &Ask<'_>,
        range: &Range<DocId>,
        known: &dyn Fn(usize) -> bool,
    ) -> Result<Vec<(usize, SegmentPostings)>> {
        let text = self.fields.text;
        let inverted = segment.inverted_index(text).map_err(|e| index_error(self.dir(), e))?;
        let mut postings = Vec::with_capacity(ask.terms.len());
        for (t, term) in ask.terms.iter().enumerate().filter(|&(t, _)| !known(t)) {
            let option = if ask.need_positions[t] {
                IndexRecordOption::WithFreqsAndPositions
            } else {
                IndexRecordOption::WithFreqs
            };
            let p = inverted
                .read_postings(&Term::from_field_text(text, term), option)
                .map_err(|e| index_error(self.dir(), e))?;
            if let Some(mut p) = p {
                if p.doc() < range.start {
                    p.seek(range.start);
                }
                postings.push((t, p));
            }
        }
        Ok(postings)
    }
}

/// An earlier finding met again: unless this query leaves its session out,
/// its earlier terms are counted as the earlier pass counted them (its
/// phrases, made of earlier terms, were checked then) and the new terms
/// counted here. Returns whether it is kept.
fn count_seen(
    seen: &IndexedDoc,
    earlier: &[u32],
    postings: &mut [(usize, SegmentPostings)],
    ask: &Ask<'_>,
    reused: usize,
    tfs: &mut [u32],
) -> bool {
    let wanted = (ask.wanted)(seen.key);
    if wanted {
        tfs[..reused].copy_from_slice(earlier);
    }
    for (t, p) in postings.iter_mut().filter(|(t, _)| *t >= reused) {
        if wanted && ask.common[*t] && p.doc() < seen.doc {
            p.seek(seen.doc);
        }
        if p.doc() == seen.doc {
            tfs[*t] = p.term_freq();
            p.advance();
        }
    }
    wanted
}

/// A document no earlier pass found: unless it is deleted or its session
/// left out, its terms are counted into `tfs` and it is kept, with whether
/// it holds every phrase (the positions of the phrase terms are read into
/// `positions` only where all of them are in it). Every posting on it is
/// moved past it either way.
fn count_new(
    segment: &SegmentReader,
    sid: &Column<u64>,
    doc: DocId,
    postings: &mut [(usize, SegmentPostings)],
    ask: &Ask<'_>,
    tfs: &mut [u32],
    positions: &mut [Vec<u32>],
) -> Option<Kept> {
    let key = value(sid, doc).unwrap_or(u64::MAX);
    let live = !segment.is_deleted(doc) && (ask.wanted)(key);
    for (t, p) in postings.iter_mut() {
        let t = *t;
        positions[t].clear();
        if ask.common[t] && p.doc() < doc {
            p.seek(doc);
        }
        if live && p.doc() == doc {
            tfs[t] = p.term_freq();
        }
    }
    // Every phrase must match, and a phrase only matches where all
    // its terms are: elsewhere the positions (a large file of their
    // own) are not read at all.
    let phrased = live && tfs.iter().zip(ask.need_positions).all(|(&tf, &need)| tf > 0 || !need);
    for (t, p) in postings.iter_mut().filter(|(_, p)| p.doc() == doc) {
        if phrased && ask.need_positions[*t] {
            p.positions(&mut positions[*t]);
        }
        p.advance();
    }
    live.then(|| Kept::New { doc, key, phrases: (ask.phrases)(positions) })
}

/// The documents a range kept, in order: an earlier finding as it was, a new
/// one with its turn, length and time read from the columns, one column at a
/// time for all of them.
fn documents(kept: Vec<Kept>, columns: &Columns, before: &Found) -> Vec<IndexedDoc> {
    let new: Vec<DocId> = kept
        .iter()
        .filter_map(|k| match k {
            Kept::New { doc, .. } => Some(*doc),
            Kept::Earlier(_) => None,
        })
        .collect();
    let (turn, len, ts) = (values(&columns.turn, &new), values(&columns.len, &new), values(&columns.ts, &new));
    let mut n = 0;
    kept.into_iter()
        .map(|k| match k {
            Kept::Earlier(j) => before.docs[j].clone(),
            Kept::New { doc, key, phrases } => {
                let i = n;
                n += 1;
                IndexedDoc { doc, key, turn: turn[i] as u32, len: len[i] as u32, ts: ts[i], phrases }
            }
        })
        .collect()
}

/// A document a range keeps: one the earlier pass found (by its index in
/// the earlier findings), or a new one with its key and phrase flag.
enum Kept {
    Earlier(usize),
    New { doc: DocId, key: u64, phrases: bool },
}

/// No earlier findings.
static EMPTY: Found = Found { segment: 0, docs: Vec::new(), tfs: Vec::new() };

impl OpenIndex {
    /// Where document `doc` of `segment` is in its session file: its line,
    /// the byte offset of that line, and the speaker.
    pub fn place(&self, segment: u32, doc: DocId) -> (u32, u64, scan::TurnRole) {
        let c = &self.columns[segment as usize];
        let line = value(&c.line, doc).unwrap_or_default() as u32;
        let offset = value(&c.offset, doc).unwrap_or_default();
        (line, offset, self.role(segment, doc))
    }
}

impl OpenIndex {
    /// Who spoke document `doc` of `segment`.
    pub fn role(&self, segment: u32, doc: DocId) -> scan::TurnRole {
        let c = &self.columns[segment as usize];
        scan::TurnRole::from_code(value(&c.role, doc).unwrap_or_default())
    }
}

/// The values of `docs` in a fast field (the type's default where a document
/// has none), read in one call per column rather than one per document.
pub(super) fn values<T>(column: &Column<T>, docs: &[DocId]) -> Vec<T>
where
    T: PartialOrd + Copy + Default + std::fmt::Debug + Send + Sync + 'static,
{
    let mut out = vec![T::default(); docs.len()];
    match column.index {
        ColumnIndex::Full => column.values.get_vals(docs, &mut out),
        _ => {
            for (o, &doc) in out.iter_mut().zip(docs) {
                *o = column.first(doc).unwrap_or_default();
            }
        }
    }
    out
}

/// A document's value in a fast field. Every document has exactly one value
/// in each, so the column is read directly: going through its row index (as
/// `Column::first` does) costs about as much again, for every candidate.
pub(super) fn value<T>(column: &Column<T>, doc: DocId) -> Option<T>
where
    T: PartialOrd + Copy + std::fmt::Debug + Send + Sync + 'static,
{
    match column.index {
        ColumnIndex::Full => Some(column.values.get_val(doc)),
        _ => column.first(doc),
    }
}

#[cfg(test)]
mod tests;

//! Reading the index for a query: every live document holding a query term,
//! with its fast fields and term counts, in index order.
//!
//! The work is cut into ranges of documents (each segment, the large ones in
//! halves) that two threads read at once; the ranges' findings are joined in
//! index order, so the result is exactly that of one pass.

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use tantivy::columnar::{Column, ColumnIndex};
use tantivy::index::SegmentReader;
use tantivy::postings::Postings;
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, DocSet, TERMINATED, Term};

use super::index::{OpenIndex, index_error};
use super::scan;
use crate::error::Result;

/// A segment with more documents than this is read in two halves.
const SPLIT_DOCS: u32 = 50_000;

/// A document's fast fields.
pub struct IndexedDoc {
    pub key: u64,
    pub turn: u32,
    pub line: u32,
    pub offset: u64,
    pub len: u32,
    pub ts: i64,
    pub role: scan::TurnRole,
    /// Whether every phrase of the query is in it.
    pub phrases: bool,
}

/// A segment's fast fields, opened once with the index: opening a column
/// reads its block headers, which is worth doing once, not per query.
pub struct Columns {
    sid: Column<u64>,
    turn: Column<u64>,
    line: Column<u64>,
    offset: Column<u64>,
    len: Column<u64>,
    ts: Column<i64>,
    role: Column<u64>,
}

impl Columns {
    pub fn open(segment: &SegmentReader) -> tantivy::Result<Columns> {
        let ff = segment.fast_fields();
        Ok(Columns {
            sid: ff.u64("sid")?,
            turn: ff.u64("turn")?,
            line: ff.u64("line")?,
            offset: ff.u64("offset")?,
            len: ff.u64("len")?,
            ts: ff.i64("ts")?,
            role: ff.u64("role")?,
        })
    }
}

/// What [`OpenIndex::gather`] found in one range of documents: the
/// documents in index order, and their term counts (`docs.len() × terms`,
/// document-major).
#[derive(Default)]
pub struct Found {
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
}

impl OpenIndex {
    /// Every live document holding at least one of the terms not marked
    /// common, in index order, with its fast fields and the counts of every
    /// term. Common terms only count in documents found through the others:
    /// a term present nearly everywhere would otherwise make every document a
    /// candidate. Documents of keys that `wanted` rejects are skipped.
    /// The ranges' findings come in index order, each range whole.
    pub fn gather(&self, ask: &Ask<'_>) -> Result<Vec<Found>> {
        let mut ranges: Vec<(usize, Range<DocId>)> = Vec::new();
        for (s, segment) in self.segments.iter().enumerate() {
            let n = segment.max_doc();
            if n > SPLIT_DOCS {
                ranges.push((s, 0..n / 2));
                ranges.push((s, n / 2..n));
            } else {
                ranges.push((s, 0..n));
            }
        }
        let results: Vec<Mutex<Option<Result<Found>>>> = ranges.iter().map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        let work = || {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((s, range)) = ranges.get(i) else { break };
                let found = self.gather_range(&self.segments[*s], &self.columns[*s], range.clone(), ask);
                *results[i].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(found);
            }
        };
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(2);
        if threads > 1 && ranges.len() > 1 {
            std::thread::scope(|scope| {
                scope.spawn(work);
                work();
            });
        } else {
            work();
        }
        results
            .into_iter()
            .map(|r| r.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).expect("every range is read"))
            .collect()
    }

    /// [`OpenIndex::gather`] over the documents of one segment in `range`.
    fn gather_range(
        &self,
        segment: &SegmentReader,
        columns: &Columns,
        range: Range<DocId>,
        ask: &Ask<'_>,
    ) -> Result<Found> {
        let err = |e: tantivy::TantivyError| index_error(self.dir(), e);
        let text = self.fields.text;
        let nt = ask.terms.len();
        let mut found = Found::default();
        let inverted = segment.inverted_index(text).map_err(err)?;
        let mut postings = Vec::with_capacity(nt);
        for (t, term) in ask.terms.iter().enumerate() {
            let option = if ask.need_positions[t] {
                IndexRecordOption::WithFreqsAndPositions
            } else {
                IndexRecordOption::WithFreqs
            };
            let p = inverted
                .read_postings(&Term::from_field_text(text, term), option)
                .map_err(|e| index_error(self.dir(), e))?;
            // Only the terms the segment holds, with their index in the query.
            if let Some(mut p) = p {
                if p.doc() < range.start {
                    p.seek(range.start);
                }
                postings.push((t, p));
            }
        }
        // The terms whose documents are candidates.
        let lead: Vec<usize> = (0..postings.len()).filter(|&i| !ask.common[postings[i].0]).collect();
        if lead.is_empty() {
            return Ok(found);
        }
        let Columns { sid, turn, line, offset, len, ts, role } = columns;
        let mut tfs = vec![0u32; nt];
        let mut positions: Vec<Vec<u32>> = vec![Vec::new(); nt];
        // The documents kept, with their keys and phrase flags; their other
        // fields are read afterwards, one column at a time.
        let mut kept: Vec<DocId> = Vec::new();
        let mut keys: Vec<u64> = Vec::new();
        let mut phrases: Vec<bool> = Vec::new();
        loop {
            let doc = lead.iter().map(|&i| postings[i].1.doc()).min().unwrap_or(TERMINATED);
            if doc == TERMINATED || doc >= range.end {
                break;
            }
            let key = value(sid, doc).unwrap_or(u64::MAX);
            let live = !segment.is_deleted(doc) && (ask.wanted)(key);
            tfs.fill(0);
            for (t, p) in &mut postings {
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
            if live {
                kept.push(doc);
                keys.push(key);
                phrases.push((ask.phrases)(&positions));
                found.tfs.extend_from_slice(&tfs);
            }
        }
        let (turn, line, offset, len, role) =
            (values(turn, &kept), values(line, &kept), values(offset, &kept), values(len, &kept), values(role, &kept));
        let ts = values(ts, &kept);
        found.docs = (0..kept.len())
            .map(|i| IndexedDoc {
                key: keys[i],
                turn: turn[i] as u32,
                line: line[i] as u32,
                offset: offset[i],
                len: len[i] as u32,
                ts: ts[i],
                role: scan::TurnRole::from_code(role[i]),
                phrases: phrases[i],
            })
            .collect();
        Ok(found)
    }
}

/// The values of `docs` in a fast field (the type's default where a document
/// has none), read in one call per column rather than one per document.
fn values<T>(column: &Column<T>, docs: &[DocId]) -> Vec<T>
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
fn value<T>(column: &Column<T>, doc: DocId) -> Option<T>
where
    T: PartialOrd + Copy + std::fmt::Debug + Send + Sync + 'static,
{
    match column.index {
        ColumnIndex::Full => Some(column.values.get_val(doc)),
        _ => column.first(doc),
    }
}

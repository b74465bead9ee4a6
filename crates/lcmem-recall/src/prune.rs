//! The pruned first stage of a query over a large index (from
//! `Tuning::prune_min_turns` indexed turns on): a top-k search over the
//! postings picks the head, and only the head's sessions are ranked in full.
//!
//! The exhaustive first pass reads every turn that holds a query word, with
//! every field ranking needs, and scores each: on a year of sessions, tens of
//! thousands of turns for the best ten. Here:
//!
//! 1. The query's statistics are counted as the exhaustive pass counts them
//!    (turns and sessions holding each word that is not common), reading only
//!    document ids ([`OpenIndex::term_stats`]).
//! 2. Tantivy's block-max WAND ranks turns by plain BM25 with those
//!    statistics (no coordination, neighbours, session evidence, feedback or
//!    dates) and keeps the best `Tuning::prune_head`, skipping every block of
//!    postings whose best possible score cannot enter them
//!    ([`OpenIndex::top_sessions`]).
//! 3. The sessions of those turns are read whole, exactly as the exhaustive
//!    pass reads them ([`OpenIndex::gather_sessions`]), with the journal, the
//!    facts and any session file the index does not cover, and ranked with
//!    every refinement; so is the expanded query of feedback.
//!
//! A turn of the head's sessions scores exactly what the exhaustive pass
//! gives it, as long as feedback lends the same words (it lends from the
//! best five, which the head holds unless it is very small); a journal entry
//! or fact whose session has no turn in the head goes without that session's
//! evidence. What is lost is a turn outside the head's sessions whose
//! refinements would have lifted it into the answer: docs/benchmarks.md
//! measures how often.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};

use tantivy::postings::Postings;
use tantivy::query::{
    Bm25StatisticsProvider, BooleanWeight, EnableScoring, Occur, Query, SumCombiner, TermQuery, Weight,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, TERMINATED, Term};

use super::open_index::OpenIndex;
use super::postings::{Found, IndexedDoc, each_in_parallel, value, values};
use super::schema::index_error;
use crate::error::Result;

/// What the first stage asks of the index.
pub(super) struct TopAsk<'a> {
    /// The query's words.
    pub terms: &'a [String],
    /// How many turns hold each: counted for the words that lead, the
    /// index's estimate for the common ones (0: none hold it; left out).
    pub df: &'a [u64],
    /// Turns and tokens indexed, for the idf and the mean length.
    pub docs: u64,
    pub tokens: u64,
    /// How many turns make the head.
    pub head: usize,
    /// Which session keys may be in it, and which times (seconds).
    pub wanted: &'a (dyn Fn(u64) -> bool + Sync),
    pub when: Option<&'a (dyn Fn(i64) -> bool + Sync)>,
    /// How many turns the index holds for a session key (its manifest
    /// entry), to find the session's documents from one of them.
    pub docs_of: &'a (dyn Fn(u64) -> Option<u64> + Sync),
}

/// The head the first stage picked: the documents of its turns' sessions,
/// by segment, as sorted, disjoint ranges, each with its session key; with
/// the statistics of the query's words over every session, as the
/// exhaustive pass counts them.
#[derive(Debug, Default)]
pub(super) struct Head {
    pub ranges: Vec<Vec<(Range<DocId>, u64)>>,
    /// Which words are common (see `query_terms::common_terms`).
    pub common: Vec<bool>,
    /// Turns, and sessions, holding each word that is not common (0 for
    /// the common ones, whose statistics are estimates).
    pub df: Vec<u64>,
    pub session_df: Vec<u64>,
}

impl OpenIndex {
    /// The best `ask.head` turns by plain BM25, found with block-max WAND,
    /// and the documents of their sessions.
    pub(super) fn top_sessions(&self, ask: &TopAsk<'_>) -> Result<Head> {
        let text = self.fields.text;
        let stats = Stats { docs: ask.docs.max(1), tokens: ask.tokens, terms: ask.terms, df: ask.df, field: text };
        let scoring = EnableScoring::enabled_from_statistics_provider(&stats, &self.searcher);
        let mut clauses = Vec::new();
        for (term, &df) in ask.terms.iter().zip(ask.df) {
            if df > 0 {
                let query = TermQuery::new(Term::from_field_text(text, term), IndexRecordOption::WithFreqs);
                clauses.push((Occur::Should, query.weight(scoring).map_err(|e| index_error(self.dir(), e))?));
            }
        }
        let mut head = Head { ranges: vec![Vec::new(); self.segments.len()], ..Head::default() };
        if clauses.is_empty() || ask.head == 0 {
            return Ok(head);
        }
        let union = BooleanWeight::with_minimum_number_should_match(clauses, 1, true, Box::new(SumCombiner::default));
        // Each segment keeps its own best `head`; their union holds the best
        // `head` overall, and is cut to it below. The largest segments go
        // first, with one floor for all: a segment's own `head`-th best score
        // is never above the head's overall, so the highest any segment has
        // reached prunes every segment.
        let mut order: Vec<usize> = (0..self.segments.len()).collect();
        order.sort_by_key(|&s| std::cmp::Reverse(self.segments[s].max_doc()));
        let floor = AtomicU32::new(0);
        let per_segment = each_in_parallel(order.len(), |i| -> Result<Vec<(Score, u32, DocId, u64)>> {
            let s = order[i];
            let (segment, columns) = (&self.segments[s], &self.columns[s]);
            let mut best: std::collections::BinaryHeap<std::cmp::Reverse<(Ordered, DocId, u64)>> =
                std::collections::BinaryHeap::with_capacity(ask.head + 1);
            // Called for each document whose score beats the floor; returns
            // the floor.
            let mut keep = |doc: DocId, score: Score| -> Score {
                if !segment.is_deleted(doc) {
                    let key = value(&columns.sid, doc).unwrap_or(u64::MAX);
                    let at = || value(&columns.ts, doc).unwrap_or_default();
                    if (ask.wanted)(key) && ask.when.is_none_or(|when| when(at())) {
                        best.push(std::cmp::Reverse((Ordered(score), doc, key)));
                        if best.len() > ask.head {
                            best.pop();
                        }
                    }
                }
                if best.len() >= ask.head
                    && let Some(least) = best.peek()
                {
                    // Scores are positive: their bits order as they do.
                    floor.fetch_max(least.0.0.0.to_bits(), Ordering::Relaxed);
                }
                Score::from_bits(floor.load(Ordering::Relaxed))
            };
            let start = Score::from_bits(floor.load(Ordering::Relaxed));
            union.for_each_pruning(start, segment, &mut keep).map_err(|e| index_error(self.dir(), e))?;
            Ok(best.into_iter().map(|r| (r.0.0.0, s as u32, r.0.1, r.0.2)).collect())
        });
        let mut all: Vec<(Score, u32, DocId, u64)> = Vec::new();
        for found in per_segment {
            all.extend(found?);
        }
        all.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then_with(|| (a.1, a.2).cmp(&(b.1, b.2))));
        all.truncate(ask.head);
        for &(_, s, doc, key) in &all {
            let docs = (ask.docs_of)(key).unwrap_or(0);
            let range = self.session_range(s as usize, doc, key, docs);
            head.ranges[s as usize].push((range, key));
        }
        for ranges in &mut head.ranges {
            ranges.sort_unstable_by_key(|(r, _)| (r.start, r.end));
            ranges.dedup_by(|b, a| b.0.start < a.0.end);
        }
        Ok(head)
    }

    /// The documents of the session `key` that document `doc` of segment `s`
    /// belongs to. A file's turns are added as one batch, in order, so they
    /// are the `docs` documents from `doc - turn` on; when the index says
    /// otherwise (it never should), the run of documents with that key
    /// around `doc` is taken instead.
    fn session_range(&self, s: usize, doc: DocId, key: u64, docs: u64) -> Range<DocId> {
        let columns = &self.columns[s];
        let max = self.segments[s].max_doc();
        let turn = value(&columns.turn, doc).unwrap_or(0) as DocId;
        let is_key = |d: DocId| d < max && value(&columns.sid, d) == Some(key);
        if let Some(start) = doc.checked_sub(turn)
            && let Some(end) = start.checked_add(docs as DocId)
            && end > doc
            && is_key(start)
            && is_key(end - 1)
            && (start == 0 || !is_key(start - 1))
            && !is_key(end)
        {
            return start..end;
        }
        let mut start = doc;
        while start > 0 && is_key(start - 1) {
            start -= 1;
        }
        let mut end = doc + 1;
        while is_key(end) {
            end += 1;
        }
        start..end
    }

    /// Every live document of the head's sessions that holds one of `terms`
    /// not `common`, with the counts of all of them, by segment, in index
    /// order: what the exhaustive pass finds in those sessions. `phrases`
    /// says whether a document's phrase-term positions hold every phrase.
    pub(super) fn gather_sessions(
        &self,
        head: &Head,
        terms: &[String],
        need_positions: &[bool],
        common: &[bool],
        phrases: &(dyn Fn(&[Vec<u32>]) -> bool + Sync),
    ) -> Result<Vec<Found>> {
        let nt = terms.len();
        let text = self.fields.text;
        let found = each_in_parallel(self.segments.len(), |s| -> Result<Found> {
            let mut found = Found { segment: s as u32, ..Found::default() };
            let ranges = &head.ranges[s];
            if ranges.is_empty() {
                return Ok(found);
            }
            let segment = &self.segments[s];
            let inverted = segment.inverted_index(text).map_err(|e| index_error(self.dir(), e))?;
            let mut postings = Vec::with_capacity(nt);
            for (t, term) in terms.iter().enumerate() {
                let option = match need_positions[t] {
                    true => IndexRecordOption::WithFreqsAndPositions,
                    false => IndexRecordOption::WithFreqs,
                };
                let read = inverted.read_postings(&Term::from_field_text(text, term), option);
                if let Some(p) = read.map_err(|e| index_error(self.dir(), e))? {
                    postings.push((t, p));
                }
            }
            let mut kept: Vec<(DocId, u64, bool)> = Vec::new();
            let mut tfs = vec![0u32; nt];
            let mut positions: Vec<Vec<u32>> = vec![Vec::new(); nt];
            for (range, key) in ranges {
                for (_, p) in postings.iter_mut().filter(|(_, p)| p.doc() < range.start) {
                    p.seek(range.start);
                }
                loop {
                    let doc = postings.iter().map(|(_, p)| p.doc()).min().unwrap_or(TERMINATED);
                    if doc >= range.end {
                        break;
                    }
                    tfs.fill(0);
                    positions.iter_mut().for_each(Vec::clear);
                    let live = !segment.is_deleted(doc);
                    for (t, p) in postings.iter_mut().filter(|(_, p)| p.doc() == doc) {
                        tfs[*t] = p.term_freq();
                        if live && need_positions[*t] {
                            p.positions(&mut positions[*t]);
                        }
                        p.advance();
                    }
                    let leads = tfs.iter().zip(common).any(|(&tf, &common)| tf > 0 && !common);
                    if live && leads {
                        kept.push((doc, *key, phrases(&positions)));
                        found.tfs.extend_from_slice(&tfs);
                    }
                }
            }
            let docs: Vec<DocId> = kept.iter().map(|k| k.0).collect();
            let columns = &self.columns[s];
            let (turn, len, ts) =
                (values(&columns.turn, &docs), values(&columns.len, &docs), values(&columns.ts, &docs));
            found.docs = kept
                .into_iter()
                .enumerate()
                .map(|(i, (doc, key, phrases))| IndexedDoc {
                    doc,
                    key,
                    turn: turn[i] as u32,
                    len: len[i] as u32,
                    ts: ts[i],
                    phrases,
                })
                .collect();
            Ok(found)
        });
        found.into_iter().collect()
    }
}

impl OpenIndex {
    /// How many live turns, and how many sessions, of the keys `wanted`
    /// accepts hold each word not `common` (0 and 0 for the common ones).
    /// Only document ids are read, and once a session is found to hold the
    /// word the postings skip to the session's end: two fast-field reads a
    /// session, where the exhaustive pass reads every field of every turn.
    pub(super) fn term_stats(
        &self,
        terms: &[String],
        common: &[bool],
        wanted: &(dyn Fn(u64) -> bool + Sync),
        docs_of: &(dyn Fn(u64) -> Option<u64> + Sync),
    ) -> Result<Vec<(u64, u64)>> {
        let text = self.fields.text;
        let per_segment = each_in_parallel(self.segments.len(), |s| -> Result<Vec<(u64, u64)>> {
            let (segment, columns) = (&self.segments[s], &self.columns[s]);
            let inverted = segment.inverted_index(text).map_err(|e| index_error(self.dir(), e))?;
            let mut out = vec![(0, 0); terms.len()];
            for (t, term) in terms.iter().enumerate().filter(|&(t, _)| !common[t]) {
                let read = inverted.read_postings(&Term::from_field_text(text, term), IndexRecordOption::Basic);
                let Some(mut p) = read.map_err(|e| index_error(self.dir(), e))? else { continue };
                let mut doc = p.doc();
                while doc != TERMINATED {
                    let key = value(&columns.sid, doc).unwrap_or(u64::MAX);
                    // A file's turns are one batch, in order (see
                    // `session_range`); checked at the last one.
                    let end = match docs_of(key) {
                        Some(docs) if wanted(key) => {
                            let start = doc - (value(&columns.turn, doc).unwrap_or(0) as DocId).min(doc);
                            let end = (start + docs as DocId).max(doc + 1);
                            if value(&columns.sid, end - 1) == Some(key) { end } else { doc + 1 }
                        }
                        _ => doc + 1,
                    };
                    let mut live = 0;
                    while doc < end {
                        live += u64::from(!segment.is_deleted(doc) && wanted(key));
                        doc = p.advance();
                    }
                    out[t].0 += live;
                    out[t].1 += u64::from(live > 0);
                }
            }
            Ok(out)
        });
        let mut total = vec![(0, 0); terms.len()];
        for found in per_segment {
            for (sum, (df, sdf)) in total.iter_mut().zip(found?) {
                sum.0 += df;
                sum.1 += sdf;
            }
        }
        Ok(total)
    }
}

/// The collection statistics the first stage scores with: the ones the
/// exhaustive pass would use, not tantivy's own (which count deleted turns
/// and those of stale files).
struct Stats<'a> {
    docs: u64,
    tokens: u64,
    terms: &'a [String],
    df: &'a [u64],
    field: Field,
}

impl Bm25StatisticsProvider for Stats<'_> {
    fn total_num_tokens(&self, _field: Field) -> tantivy::Result<u64> {
        Ok(self.tokens)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        Ok(self.docs)
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        let df = self.terms.iter().zip(self.df).find(|(t, _)| Term::from_field_text(self.field, t) == *term);
        Ok(df.map_or(0, |(_, &df)| df.min(self.docs)))
    }
}

/// A score the heap can order (scores are never NaN).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ordered(Score);

impl Eq for Ordered {}

impl PartialOrd for Ordered {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ordered {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

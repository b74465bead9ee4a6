//! One query, end to end: decide what the index covers and what must be
//! scanned, gather the units that hold query terms from both, rank, expand
//! the query with feedback and rank again, then build the hits.

use std::borrow::Cow;
use std::collections::HashMap;

use super::memory_index::Source;
use super::postings::{Ask, Earlier, Found};
use super::hit::{self, SessionInfo};
use super::index::{OpenIndex, SessionFile};
use super::rank::{self, Candidates, Loc, NO_SESSION, QueryTerms, Tuning, Unit};
use super::scan::{self, Memory};
use super::session_table::Table;
use super::tokenize::Analyzer;
use super::{Answer, Coverage, HitKind, Progress, Query, Searcher};
use crate::diagnostic::Diagnostic;
use crate::error::Result;

/// Below this many indexed turns every term is counted exactly, everywhere.
const COMMON_MIN_DOCS: u64 = 100_000;
/// A term in more than 1/COMMON_SHARE of the indexed turns is common: it
/// scores the candidates the other terms find, but does not make every turn
/// that holds it a candidate (see `OpenIndex::gather`). It weighs little in
/// BM25 anyway, and following it would cost a pass over most of the index.
const COMMON_SHARE: u64 = 20;

/// Everything a query reads, fixed for the query's duration.
pub(super) struct Corpus<'a> {
    pub files: &'a [SessionFile],
    /// The warm searcher's table, copied only if this query must add to it.
    pub table: Cow<'a, Table>,
    pub index: Option<&'a OpenIndex>,
    pub memory: &'a Memory,
    pub diagnostics: Vec<Diagnostic>,
}

impl Searcher {
    /// Brings the session listing up to date, and the session table with
    /// it when the listing or the index changed since it was built.
    fn refresh_table(&mut self) -> Result<()> {
        self.listing.current(&self.store)?;
        let stamp = (self.listing.generation(), self.opened);
        if self.table.as_ref().is_none_or(|(s, _)| *s != stamp) {
            self.table = Some((stamp, Table::build(self.listing.files(), self.index.as_ref())));
        }
        Ok(())
    }

    /// Reads the journal and the facts again if either changed since the
    /// last query.
    fn refresh_memory(&mut self) -> Result<()> {
        let (journal, facts) = (self.store.journal_path(), self.store.facts_path());
        let stamp = Memory::stamp(&journal, &facts);
        if self.memory.as_ref().is_none_or(|(s, _)| *s != stamp) {
            self.memory = Some((stamp, Memory::read(&journal, &facts)?));
        }
        Ok(())
    }

    /// Opens the index again (after a commit, or when there was none).
    fn reopen(&mut self, dir: &std::path::Path) {
        let was = self.index.is_some();
        self.index = OpenIndex::open(dir);
        if was || self.index.is_some() {
            self.opened += 1;
        }
    }
}

pub(super) fn search(searcher: &mut Searcher, query: &Query, progress: &mut dyn Progress) -> Result<Answer> {
    let store = searcher.store.clone();
    let dir = super::index_dir(&store);
    if searcher.index.as_ref().is_none_or(|i| !i.is_current()) {
        searcher.reopen(&dir);
    }
    let mut coverage = Coverage::default();
    searcher.refresh_table()?;
    let covered = searcher.table.as_ref().is_some_and(|(_, t)| t.covered_by(searcher.index.as_ref()));
    let files = searcher.listing.files();
    if searcher.update && !files.is_empty() && !covered && store.ensure_enabled().is_ok() {
        // A failure to write the cache (read-only folder, another writer
        // holding the index lock) is not a failure to recall: scan instead.
        if super::build::write(&dir, files, false, progress).is_ok() {
            coverage.index_updated = true;
            searcher.reopen(&dir);
        }
        // What the files are now: they may have grown meanwhile.
        searcher.refresh_table()?;
    }
    searcher.refresh_memory()?;
    let memory = &searcher.memory.as_ref().expect("refreshed above").1;
    let table = &searcher.table.as_ref().expect("refreshed above").1;
    let mut corpus = Corpus::new(searcher.listing.files(), table, searcher.index.as_ref(), memory);
    coverage.indexed_sessions = corpus.files.len() - corpus.table.stale.len();
    coverage.scanned_sessions = corpus.table.stale.len();

    let mut analyzer = Analyzer::documents();
    let terms = QueryTerms::parse(&query.text, &mut Analyzer::queries());
    let (first, first_found) = corpus.gather(&terms, &query.tuning, &mut analyzer, None)?;
    let scores = rank::score(&first, &terms, &query.tuning);
    let (terms, candidates, scores) = if query.tuning.feedback_docs > 0 && !terms.terms.is_empty() {
        let top = order(&corpus, &first, &scores, query, query.tuning.feedback_docs);
        // On a large index, words found in more than 1/COMMON_SHARE of the
        // turns say nothing about the topic: they are not lent to the query.
        let indexed: u64 = corpus.table.sessions.iter().filter(|s| s.indexed).map(|s| s.docs).sum();
        let mut common: HashMap<String, bool> = HashMap::new();
        let mut is_common = |word: &str| match corpus.index {
            Some(index) if indexed >= COMMON_MIN_DOCS => *common
                .entry(word.to_string())
                .or_insert_with(|| index.doc_freq(word).saturating_mul(COMMON_SHARE) > indexed),
            _ => false,
        };
        let mut feedback = Vec::with_capacity(top.len());
        for &i in &top {
            if let Some(text) = corpus.text(&first.units[i])? {
                let words = analyzer.terms(&text.0).into_iter().map(|t| t.text).filter(|w| !is_common(w)).collect();
                feedback.push((words, scores[i]));
            }
        }
        let expanded = rank::expand(&terms, &feedback, &query.tuning);
        // The expanded query keeps the original terms first: what the first
        // pass found through them is not read again.
        debug_assert_eq!(expanded.terms[..terms.terms.len()], terms.terms[..]);
        let earlier = Earlier { found: &first_found, terms: terms.terms.len(), common: &first.common };
        let (second, _) = corpus.gather(&expanded, &query.tuning, &mut analyzer, Some(earlier))?;
        let scores = rank::score(&second, &expanded, &query.tuning);
        (expanded, second, scores)
    } else {
        (terms, first, scores)
    };
    let best = order(&corpus, &candidates, &scores, query, query.limit);
    let mut hits = Vec::with_capacity(best.len());
    let mut snippets = Analyzer::queries();
    for i in best {
        if let Some(h) = hit::build(&store, &corpus, &candidates.units[i], scores[i], &terms, &mut snippets)? {
            hits.push(h);
        }
    }
    Ok(Answer { hits, coverage, diagnostics: std::mem::take(&mut corpus.diagnostics) })
}

/// The indices of the best `limit` candidates that the query admits (kind,
/// time window, phrases): by score, then newest first, then by session and
/// line so that equal scores always come out in the same order.
fn order(corpus: &Corpus, c: &Candidates, scores: &[f64], query: &Query, limit: usize) -> Vec<usize> {
    let since = query.since.map(|t| t.as_second());
    let until = query.until.map(|t| t.as_second());
    let admitted = |i: usize| {
        let u = &c.units[i];
        u.phrases
            && scores[i] > 0.0
            && query.wants(u.kind)
            && since.is_none_or(|s| u.ts >= s)
            && until.is_none_or(|s| u.ts <= s)
    };
    if limit == 0 {
        return Vec::new();
    }
    // The `limit`-th best score among the admitted: nothing below it can be
    // in the result. Positive floats order as their bits do, so a heap of
    // integers finds it without comparing anything else.
    let mut best = std::collections::BinaryHeap::with_capacity(limit);
    for i in (0..c.units.len()).filter(|&i| admitted(i)) {
        let bits = scores[i].to_bits();
        if best.len() < limit {
            best.push(std::cmp::Reverse(bits));
        } else if let Some(mut least) = best.peek_mut()
            && bits > least.0
        {
            *least = std::cmp::Reverse(bits);
        }
    }
    let floor = if best.len() == limit { best.peek().map_or(0, |r| r.0) } else { 0 };
    let mut picked: Vec<usize> = (0..c.units.len()).filter(|&i| scores[i].to_bits() >= floor && admitted(i)).collect();
    let key = |i: usize| {
        let u = &c.units[i];
        let session = corpus.table.sessions.get(u.session as usize).map_or("", |s| s.id.as_str());
        (session, u.kind, corpus.line_of(u))
    };
    let rank = |&a: &usize, &b: &usize| {
        scores[b]
            .total_cmp(&scores[a])
            .then_with(|| c.units[b].ts.cmp(&c.units[a].ts))
            .then_with(|| key(a).cmp(&key(b)))
    };
    // The order is total (no two units share session, kind and line), so
    // selecting the best `limit` first and sorting only those gives exactly
    // the head of a full sort, without sorting every candidate.
    if limit < picked.len() {
        picked.select_nth_unstable_by(limit, rank);
        picked.truncate(limit);
    }
    picked.sort_by(rank);
    picked
}

impl<'a> Corpus<'a> {
    fn new(files: &'a [SessionFile], table: &'a Table, index: Option<&'a OpenIndex>, memory: &'a Memory) -> Corpus<'a> {
        let mut corpus = Corpus { files, table: Cow::Borrowed(table), index, memory, diagnostics: Vec::new() };
        // Sessions the journal or the facts name may have no transcript:
        // they get an ordinal too.
        let journal = corpus.memory.journal.entries.iter().map(|c| c.entry.session_id.as_str());
        let facts = scan::searchable_facts(&corpus.memory.fold).filter_map(|(_, f)| f.sources.first());
        let missing: Vec<&str> = journal
            .chain(facts.map(|s| s.session.as_str()))
            .filter(|id| !corpus.table.by_id.contains_key(*id))
            .collect();
        for id in missing {
            corpus.session_ordinal(id);
        }
        corpus
    }

    /// The ordinal of a session, adding one without a transcript if needed.
    fn session_ordinal(&mut self, id: &str) -> u32 {
        if let Some(&ord) = self.table.by_id.get(id) {
            return ord;
        }
        let table = self.table.to_mut();
        let ord = table.sessions.len() as u32;
        table.sessions.push(SessionInfo::new(id, None, None, 0, 0));
        table.by_id.insert(id.to_string(), ord);
        ord
    }

    /// Where a unit is, with an indexed turn's place read from the index.
    pub fn place(&self, u: &Unit) -> Loc {
        match (u.loc, self.index) {
            (Loc::Indexed { segment, doc }, Some(index)) => {
                let (line, offset, role) = index.place(segment, doc);
                Loc::Turn { line, offset, role }
            }
            (loc, _) => loc,
        }
    }

    /// The cited line of a unit (for ordering ties).
    pub fn line_of(&self, u: &Unit) -> usize {
        match self.place(u) {
            Loc::Turn { line, .. } => line as usize,
            Loc::Indexed { .. } => 0,
            Loc::Journal(i) => self.memory.journal.entries[i as usize].line,
            Loc::Fact(i) => self.memory.fold.facts[i as usize].line,
        }
    }

    /// A unit's text, read back from its file for turns, and its message id.
    pub fn text(&self, u: &Unit) -> Result<Option<(String, Option<String>)>> {
        Ok(match self.place(u) {
            Loc::Indexed { .. } => None,
            Loc::Turn { offset, .. } => match self.table.sessions[u.session as usize].path.as_deref() {
                Some(path) => scan::read_turn(path, offset)?,
                None => None,
            },
            Loc::Journal(i) => Some((scan::journal_text(&self.memory.journal.entries[i as usize]), None)),
            Loc::Fact(i) => Some((self.memory.fold.facts[i as usize].text.clone(), None)),
        })
    }

    /// Gathers every unit holding a query term, from the index and from the
    /// files, with the collection statistics; and what the index gave, for a
    /// later pass to build on (see [`Earlier`]).
    fn gather(
        &mut self,
        q: &QueryTerms,
        tuning: &Tuning,
        analyzer: &mut Analyzer,
        earlier: Option<Earlier<'_>>,
    ) -> Result<(Candidates, Vec<Found>)> {
        let nt = q.terms.len();
        let mut c = Candidates {
            session_tokens: vec![0; self.table.sessions.len()],
            df: vec![0; nt],
            common: vec![false; nt],
            ..Candidates::default()
        };
        let mut found = Vec::new();
        if nt == 0 {
            return Ok((c, found));
        }
        let need_positions: Vec<bool> = (0..nt).map(|t| q.in_phrase(t)).collect();
        if let Some(index) = self.index {
            for (ord, info) in self.table.sessions.iter().enumerate() {
                if info.indexed {
                    c.docs += info.docs;
                    c.tokens += info.tokens;
                    c.session_tokens[ord] = info.tokens;
                }
            }
            let large = c.docs >= COMMON_MIN_DOCS;
            let rerank = c.docs >= tuning.lent_rerank_turns && q.asked < nt;
            if large || rerank {
                // Common words, and (see `Tuning::lent_rerank_turns`) the
                // words feedback lends: they score the turns the query's own
                // words find.
                let estimates: Vec<u64> = q.terms.iter().map(|t| index.doc_freq(t)).collect();
                for (t, &e) in estimates.iter().enumerate() {
                    c.common[t] = (rerank && t >= q.asked) || (large && e.saturating_mul(COMMON_SHARE) > c.docs);
                }
                if c.common[..q.asked].iter().all(|&x| x)
                    && let Some(rarest) = (0..q.asked).min_by_key(|&t| estimates[t])
                {
                    c.common[rarest] = false;
                }
                for ((df, &common), &estimate) in c.df.iter_mut().zip(&c.common).zip(&estimates) {
                    if common {
                        *df = estimate;
                    }
                }
            }
            let common = c.common.clone();
            let map = &self.table.key_to_session;
            let wanted = |key: u64| map.get(key as usize).is_some_and(|&s| s != NO_SESSION);
            let phrases = |positions: &[Vec<u32>]| q.phrases.is_empty() || q.phrases_match(positions);
            let ask = Ask {
                terms: &q.terms,
                need_positions: &need_positions,
                common: &common,
                wanted: &wanted,
                phrases: &phrases,
                earlier,
            };
            found = index.gather(&ask)?;
            let total: usize = found.iter().map(|f| f.docs.len()).sum();
            c.units.reserve(total);
            c.tfs.reserve(total * nt);
            let docs = found.iter().flat_map(|f| f.docs.iter().map(|d| (f.segment, d)));
            for ((segment, doc), tfs) in docs.zip(found.iter().flat_map(|f| f.tfs.chunks_exact(nt))) {
                let unit = Unit {
                    kind: HitKind::Turn,
                    session: map[doc.key as usize],
                    turn: doc.turn,
                    len: doc.len,
                    ts: doc.ts,
                    phrases: doc.phrases,
                    loc: Loc::Indexed { segment, doc: doc.doc },
                };
                c.count(tfs, true);
                c.push(unit, tfs);
            }
        }
        let lookup: HashMap<&str, usize> = q.terms.iter().enumerate().map(|(i, t)| (t.as_str(), i)).collect();
        let mut counter = Counter { lookup, tfs: vec![0; nt], positions: vec![Vec::new(); nt] };
        for s in 0..self.table.stale.len() {
            let ord = self.table.stale[s];
            let path = self.files[ord as usize].path.clone();
            let bytes = match std::fs::read(&path) {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(crate::error::Error::Io { path, source: e }),
            };
            let parsed = match scan::parse_session(&path, &bytes) {
                Ok(p) => p,
                Err(e) => {
                    if !self.diagnostics.iter().any(|d| d.path == path) {
                        self.diagnostics.push(Diagnostic::new(&path, 0, format!("not searched: {e}")));
                    }
                    continue;
                }
            };
            for turn in &parsed.turns {
                let len = counter.count(analyzer, &turn.text);
                c.docs += 1;
                c.tokens += u64::from(len);
                c.session_tokens[ord as usize] += u64::from(len);
                if counter.hit() {
                    let unit = Unit {
                        kind: HitKind::Turn,
                        session: ord,
                        turn: turn.turn,
                        len,
                        ts: turn.ts.as_second(),
                        phrases: q.phrases.is_empty() || q.phrases_match(&counter.positions),
                        loc: Loc::Turn { line: turn.line as u32, offset: turn.offset, role: turn.role },
                    };
                    c.count(&counter.tfs, false);
                    c.push(unit, &counter.tfs);
                }
            }
            self.table.to_mut().sessions[ord as usize].meta = Some(parsed.meta);
        }
        let analyzed = &self.memory.analyzed;
        c.docs += analyzed.units.len() as u64;
        c.tokens += analyzed.tokens;
        let (by_id, memory) = (&self.table.by_id, self.memory);
        analyzed.each_match(&q.terms, !q.phrases.is_empty(), |i, tfs, positions| {
            let phrases = q.phrases.is_empty() || q.phrases_match(positions);
            let len = analyzed.lens[i as usize];
            let unit = match analyzed.units[i as usize] {
                Source::Journal(j) => {
                    let current = &memory.journal.entries[j as usize];
                    let session = by_id.get(&current.entry.session_id).copied().unwrap_or(NO_SESSION);
                    let ts = current.entry.last_active.as_second();
                    Unit { kind: HitKind::Journal, session, turn: 0, len, ts, phrases, loc: Loc::Journal(j) }
                }
                Source::Fact(f) => {
                    let fact = &memory.fold.facts[f as usize];
                    let session =
                        fact.sources.first().and_then(|s| by_id.get(&s.session).copied()).unwrap_or(NO_SESSION);
                    let ts = fact.last_seen.as_second();
                    Unit { kind: HitKind::Fact, session, turn: 0, len, ts, phrases, loc: Loc::Fact(f) }
                }
            };
            c.count(tfs, false);
            c.push(unit, tfs);
        });
        Ok((c, found))
    }
}

/// Counts the query terms in one text, for the scanned units.
struct Counter<'q> {
    lookup: HashMap<&'q str, usize>,
    tfs: Vec<u32>,
    positions: Vec<Vec<u32>>,
}

impl Counter<'_> {
    /// Analyses `text`, leaves the counts in `self`, returns its length.
    fn count(&mut self, analyzer: &mut Analyzer, text: &str) -> u32 {
        self.tfs.iter_mut().for_each(|t| *t = 0);
        self.positions.iter_mut().for_each(Vec::clear);
        let mut len = 0u32;
        let (lookup, tfs, positions) = (&self.lookup, &mut self.tfs, &mut self.positions);
        analyzer.each(text, |token| {
            len += 1;
            if let Some(&t) = lookup.get(token.text.as_str()) {
                tfs[t] += 1;
                positions[t].push(token.position as u32);
            }
        });
        len
    }

    fn hit(&self) -> bool {
        self.tfs.iter().any(|&t| t > 0)
    }
}

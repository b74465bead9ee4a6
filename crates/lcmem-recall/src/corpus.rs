//! What one query reads, and gathering from it: every unit that holds a query
//! term, from the index's postings, from the session files the index does not
//! cover (scanned with the same analysis), and from the journal and the facts,
//! with the collection statistics ranking needs.

use std::borrow::Cow;
use std::collections::HashMap;

use super::kind::HitKind;
use super::listing::SessionFile;
use super::memory_index::{Memory, Source};
use super::open_index::OpenIndex;
use super::postings::{Ask, Earlier, Found};
use super::prune::{Head, TopAsk};
use super::query_terms::{QueryTerms, common_terms};
use super::rank::{Candidates, Loc, NO_SESSION, Tuning, Unit};
use super::scan::{self, SessionMeta, TurnRole};
use super::session_table::Table;
use super::tokenize::Analyzer;
use crate::diagnostic::Diagnostic;
use crate::error::Result;

/// A feedback pass narrowed to some sessions (see [`Tuning::rerank_depth`]):
/// the first pass, whose statistics the narrowed pass keeps (with the
/// sessions holding each of its terms, as its scoring counted them), and
/// the sessions to gather from, by ordinal.
#[derive(Clone, Copy)]
pub(super) struct Narrow<'a> {
    pub first: &'a Candidates,
    pub session_df: &'a [u64],
    pub sessions: &'a [bool],
}

/// Everything a query reads, fixed for the query's duration.
pub(super) struct Corpus<'a> {
    pub files: &'a [SessionFile],
    /// The warm searcher's table, copied only if this query must add to it.
    pub table: Cow<'a, Table>,
    pub index: Option<&'a OpenIndex>,
    pub memory: &'a Memory,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Corpus<'a> {
    pub fn new(
        files: &'a [SessionFile],
        table: &'a Table,
        index: Option<&'a OpenIndex>,
        memory: &'a Memory,
    ) -> Corpus<'a> {
        let mut corpus = Corpus { files, table: Cow::Borrowed(table), index, memory, diagnostics: Vec::new() };
        // Sessions the journal or the facts name may have no transcript:
        // they get an ordinal too.
        let journal = corpus.memory.journal.entries.iter().map(|c| c.entry.session_id.as_str());
        let facts = scan::searchable_facts(&corpus.memory.fold).filter_map(|(_, f)| f.sources.first());
        let missing: Vec<&str> =
            journal.chain(facts.map(|s| s.session.as_str())).filter(|id| corpus.table.ordinal(id).is_none()).collect();
        for id in missing {
            corpus.session_ordinal(id);
        }
        corpus
    }

    /// The ordinal of a session, adding one without a transcript if needed.
    fn session_ordinal(&mut self, id: &str) -> u32 {
        match self.table.ordinal(id) {
            Some(ord) => ord,
            None => self.table.to_mut().add_named(id),
        }
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

    /// Who spoke a turn (`None` for a journal line or a fact).
    pub fn role(&self, u: &Unit) -> Option<TurnRole> {
        match (u.loc, self.index) {
            (Loc::Indexed { segment, doc }, Some(index)) => Some(index.role(segment, doc)),
            (Loc::Turn { role, .. }, _) => Some(role),
            _ => None,
        }
    }

    /// Tool output and tool-action lines ("Read src/app.ts") weigh
    /// `tool_weight` of what the same words said by a person or the agent
    /// weigh: they are evidence, not an answer.
    pub fn weigh_roles(&self, c: &Candidates, scores: &mut [f64], tuning: &Tuning) {
        if tuning.tool_weight == 1.0 {
            return;
        }
        for (unit, score) in c.units.iter().zip(scores.iter_mut()) {
            if *score > 0.0 {
                *score *= self.role_weight(unit, tuning);
            }
        }
    }

    /// What a unit's kind of text weighs: `tool_weight` for tool output and
    /// tool-action lines, 1 for everything else.
    pub fn role_weight(&self, u: &Unit, tuning: &Tuning) -> f64 {
        match self.role(u) {
            Some(TurnRole::Tool | TurnRole::Action) => tuning.tool_weight,
            _ => 1.0,
        }
    }

    /// The session file of a session, if it has one.
    pub fn path(&self, session: u32) -> Option<&std::path::Path> {
        let info = self.table.sessions.get(session as usize)?;
        info.file.then(|| self.files.get(session as usize).map(|f| f.path.as_path())).flatten()
    }

    /// A session's header: as scanned, or from the index's manifest.
    pub fn meta(&self, session: u32) -> Option<&SessionMeta> {
        let info = self.table.sessions.get(session as usize)?;
        let indexed = || self.index.filter(|_| info.indexed)?.manifest.files.get(&info.id).map(|e| &e.meta);
        info.meta.as_ref().or_else(indexed)
    }

    /// The cited line of a unit (for ordering ties).
    pub fn line_of(&self, u: &Unit) -> usize {
        match self.place(u) {
            Loc::Turn { line, .. } => line as usize,
            Loc::Indexed { .. } => 0,
            Loc::Journal(i) => self.memory.journal.revision(i as usize).line,
            Loc::Fact(i) => self.memory.fold.facts[i as usize].line,
        }
    }

    /// A unit's text, read back from its file for turns, and its message id.
    pub fn text(&self, u: &Unit) -> Result<Option<(String, Option<String>)>> {
        Ok(match self.place(u) {
            Loc::Indexed { .. } => None,
            Loc::Turn { offset, .. } => match self.path(u.session) {
                Some(path) => scan::read_turn(path, offset)?,
                None => None,
            },
            Loc::Journal(i) => Some((self.memory.text(Source::Journal(i)), None)),
            Loc::Fact(i) => Some((self.memory.text(Source::Fact(i)), None)),
        })
    }

    /// Gathers every unit holding a query term, from the index and from the
    /// files, with the collection statistics; and what the index gave, for a
    /// later pass to build on (see [`Earlier`]).
    ///
    /// `narrow` applies where the lent words of `q` only re-rank (they
    /// cannot add candidates from the index): the index is then read for
    /// the sessions it names only, and a journal entry or fact of another
    /// indexed session is left out. Every unit gathered scores what it would
    /// if every session had been: its session is whole, and the term
    /// statistics of the query's own words are the first pass's, over all
    /// sessions (the lent words' are the index's estimates, as always).
    ///
    /// `head` applies where the first stage was pruned (see `recall::prune`):
    /// the index is read for the head's sessions only, each whole, with the
    /// statistics the first stage counted over every session; `earlier` and
    /// `narrow` are then of no use and left aside.
    pub fn gather(
        &mut self,
        q: &QueryTerms,
        tuning: &Tuning,
        analyzer: &mut Analyzer,
        earlier: Option<Earlier<'_>>,
        narrow: Option<Narrow<'_>>,
        head: Option<&Head>,
    ) -> Result<(Candidates, Vec<Found>)> {
        let nt = q.terms.len();
        let mut c = Candidates {
            session_tokens: vec![0; self.table.sessions.len()],
            df: vec![0; nt],
            common: vec![false; nt],
            ..Candidates::default()
        };
        if nt == 0 {
            return Ok((c, Vec::new()));
        }
        let (found, narrowed) = match self.index {
            Some(index) => self.gather_indexed(index, q, tuning, earlier, narrow, head, &mut c)?,
            None => (Vec::new(), None),
        };
        let session_df = if head.is_none() { SessionDf::Kept } else { SessionDf::AddScanned };
        self.scan_stale(q, analyzer, session_df, &mut c)?;
        self.gather_memory(q, &mut c);
        if let Some(n) = narrowed {
            self.narrow_to(n, &mut c);
        }
        Ok((c, found))
    }

    /// The index's part of [`Corpus::gather`]: its statistics, then its
    /// turns that hold the query's words (the head's sessions only, when the
    /// first stage was pruned). Returns what was found, and `narrow` when it
    /// applies.
    #[allow(clippy::too_many_arguments)]
    fn gather_indexed<'n>(
        &self,
        index: &OpenIndex,
        q: &QueryTerms,
        tuning: &Tuning,
        earlier: Option<Earlier<'_>>,
        narrow: Option<Narrow<'n>>,
        head: Option<&Head>,
        c: &mut Candidates,
    ) -> Result<(Vec<Found>, Option<Narrow<'n>>)> {
        let nt = q.terms.len();
        let need_positions: Vec<bool> = (0..nt).map(|t| q.in_phrase(t)).collect();
        let mut found = Vec::new();
        let rerank = self.index_statistics(index, q, tuning, head, c);
        if let Some(head) = head {
            // Only the head's sessions are read; the statistics of the
            // query's own words are the first stage's, over all of them.
            for (t, (&df, &common)) in head.df.iter().zip(&head.common).enumerate() {
                if !common && t < nt {
                    c.df[t] = df;
                }
            }
            c.session_df = head.session_df.clone();
            let phrases = |positions: &[Vec<u32>]| q.phrases.is_empty() || q.phrases_match(positions);
            found = index.gather_sessions(head, &q.terms, &need_positions, &c.common, &phrases)?;
        }
        let narrowed = narrow.filter(|n| {
            head.is_none() && rerank && n.first.df.len() <= q.asked && n.sessions.len() >= c.session_tokens.len()
        });
        let common = c.common.clone();
        let map = &self.table.key_to_session;
        let within = |s: u32| narrowed.is_none_or(|n| n.sessions[s as usize]);
        let wanted = |key: u64| map.get(key as usize).is_some_and(|&s| s != NO_SESSION && within(s));
        let phrases = |positions: &[Vec<u32>]| q.phrases.is_empty() || q.phrases_match(positions);
        let ask = Ask {
            terms: &q.terms,
            need_positions: &need_positions,
            common: &common,
            wanted: &wanted,
            phrases: &phrases,
            earlier,
        };
        if head.is_none() {
            found = index.gather(&ask)?;
        }
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
            if head.is_none() {
                c.count(tfs, true);
            }
            c.push(unit, tfs);
        }
        Ok((found, narrowed))
    }

    /// The index's statistics in `c`: its turns and tokens, and, on a large
    /// index or where the lent words only re-rank (always so when the first
    /// stage was pruned to `head`), which words are common, each counted as
    /// the index estimates. Returns whether the lent words only re-rank.
    fn index_statistics(
        &self,
        index: &OpenIndex,
        q: &QueryTerms,
        tuning: &Tuning,
        head: Option<&Head>,
        c: &mut Candidates,
    ) -> bool {
        for (ord, info) in self.table.sessions.iter().enumerate() {
            if info.indexed {
                c.docs += info.docs;
                c.tokens += info.tokens;
                c.session_tokens[ord] = info.tokens;
            }
        }
        let large = c.docs >= tuning.common_min_turns;
        // A pruned pass reads the head's sessions only: the words feedback
        // lends cannot find turns elsewhere, whatever the store's size.
        let rerank = (c.docs >= tuning.lent_rerank_turns || head.is_some()) && q.asked < q.terms.len();
        if large || rerank {
            // Common words, and (see `Tuning::lent_rerank_turns`) the words
            // feedback lends: they score the turns the query's own words find.
            let estimates: Vec<u64> = q.terms.iter().map(|t| index.doc_freq(t)).collect();
            c.common = common_terms(q, &estimates, c.docs, (large, rerank));
            for ((df, &common), &estimate) in c.df.iter_mut().zip(&c.common).zip(&estimates) {
                if common {
                    *df = estimate;
                }
            }
        }
        rerank
    }

    /// The sessions the index does not cover yet, read and matched turn by
    /// turn; `session_df` says whether they are added to the counts of
    /// sessions holding each term.
    fn scan_stale(
        &mut self,
        q: &QueryTerms,
        analyzer: &mut Analyzer,
        session_df: SessionDf,
        c: &mut Candidates,
    ) -> Result<()> {
        let nt = q.terms.len();
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
            let mut held = vec![session_df == SessionDf::Kept; c.session_df.len()];
            for turn in &parsed.turns {
                let len = counter.count(analyzer, &turn.text);
                for (t, seen) in held.iter_mut().enumerate() {
                    if !*seen && counter.tfs[t] > 0 {
                        *seen = true;
                        c.session_df[t] += 1;
                    }
                }
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
        Ok(())
    }

    /// The journal entries and facts that hold the query's words.
    fn gather_memory(&self, q: &QueryTerms, c: &mut Candidates) {
        let analyzed = &self.memory.analyzed;
        c.docs += analyzed.units.len() as u64;
        c.tokens += analyzed.tokens;
        let (table, memory) = (&*self.table, self.memory);
        analyzed.each_match(&q.terms, !q.phrases.is_empty(), |i, tfs, positions| {
            let phrases = q.phrases.is_empty() || q.phrases_match(positions);
            let len = analyzed.lens[i as usize];
            let unit = Corpus::memory_unit(table, memory, analyzed.units[i as usize], len, phrases);
            c.count(tfs, false);
            c.push(unit, tfs);
        });
    }

    /// A narrowed pass keeps the first pass's statistics, and leaves out a
    /// journal entry or fact of an indexed session it did not read: such a
    /// unit scores a share of its session's score, which needs the session's
    /// turns.
    fn narrow_to(&self, n: Narrow<'_>, c: &mut Candidates) {
        let first = n.first;
        c.df[..first.df.len()].copy_from_slice(&first.df);
        c.session_df = n.session_df.to_vec();
        let indexed = &self.table.sessions;
        let keep = |u: &Unit| {
            u.kind == HitKind::Turn
                || u.session == NO_SESSION
                || n.sessions[u.session as usize]
                || !indexed.get(u.session as usize).is_some_and(|s| s.indexed)
        };
        c.retain(keep);
    }
}

/// What [`Corpus::scan_stale`] does with the counts of sessions holding each
/// term ([`Candidates::session_df`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum SessionDf {
    /// Leaves them as they are: the index's statistics are the store's.
    Kept,
    /// Adds the scanned sessions to them: the head's counts stand for the
    /// index's sessions.
    AddScanned,
}

impl Corpus<'_> {
    /// A journal entry or a fact as a unit of `len` tokens: the session it
    /// came from (its ordinal in `table`) and its time.
    pub fn memory_unit(table: &Table, memory: &Memory, source: Source, len: u32, phrases: bool) -> Unit {
        match source {
            Source::Journal(j) => {
                let current = memory.journal.revision(j as usize);
                let session = table.ordinal(&current.entry.session_id).unwrap_or(NO_SESSION);
                let ts = current.entry.last_active.as_second();
                Unit { kind: HitKind::Journal, session, turn: 0, len, ts, phrases, loc: Loc::Journal(j) }
            }
            Source::Fact(f) => {
                let fact = &memory.fold.facts[f as usize];
                let session = fact.sources.first().and_then(|s| table.ordinal(&s.session)).unwrap_or(NO_SESSION);
                let ts = fact.last_seen.as_second();
                Unit { kind: HitKind::Fact, session, turn: 0, len, ts, phrases, loc: Loc::Fact(f) }
            }
        }
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

impl Corpus<'_> {
    /// The head of a query over a large index, when the first stage is
    /// pruned: the index holds at least [`Tuning::prune_min_turns`] turns
    /// this query reads, and the query has neither quoted phrases nor dates
    /// (which the plain BM25 of the first stage cannot weigh: a phrase
    /// demands words in order, a date doubles a turn's score). `None`: the
    /// first pass reads every candidate.
    pub fn head(&self, q: &QueryTerms, tuning: &Tuning, window: (Option<i64>, Option<i64>)) -> Result<Option<Head>> {
        let Some(index) = self.index else { return Ok(None) };
        if tuning.prune_head == 0 || q.terms.is_empty() || !q.phrases.is_empty() || !q.dates.is_empty() {
            return Ok(None);
        }
        let indexed = self.table.sessions.iter().filter(|s| s.indexed);
        let (docs, tokens) = indexed.fold((0, 0), |(d, t), s| (d + s.docs, t + s.tokens));
        if docs < tuning.prune_min_turns {
            return Ok(None);
        }
        let estimates: Vec<u64> = q.terms.iter().map(|t| index.doc_freq(t)).collect();
        let common = common_terms(q, &estimates, docs, (docs >= tuning.common_min_turns, false));
        let map = &self.table.key_to_session;
        let session = |key: u64| map.get(key as usize).copied().filter(|&s| s != NO_SESSION);
        let wanted = |key: u64| session(key).is_some();
        let docs_of = |key: u64| session(key).map(|s| self.table.sessions[s as usize].docs);
        let in_window = |ts: i64| window.0.is_none_or(|s| ts >= s) && window.1.is_none_or(|u| ts <= u);
        let when: Option<&(dyn Fn(i64) -> bool + Sync)> =
            (window.0.is_some() || window.1.is_some()).then_some(&in_window);
        let counted = index.term_stats(&q.terms, &common, &wanted, &docs_of)?;
        let df: Vec<u64> =
            counted.iter().zip(&estimates).zip(&common).map(|((c, &e), &x)| if x { e } else { c.0 }).collect();
        let head = tuning.prune_head;
        let ask = TopAsk { terms: &q.terms, df: &df, docs, tokens, head, wanted: &wanted, when, docs_of: &docs_of };
        let mut head = index.top_sessions(&ask)?;
        head.common = common;
        (head.df, head.session_df) = counted.into_iter().unzip();
        Ok(Some(head))
    }
}

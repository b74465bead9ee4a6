//! One query, end to end: decide what the index covers and what must be
//! scanned, gather the units that hold query terms from both, rank, expand
//! the query with feedback and rank again, then build the hits. What a
//! searcher keeps between queries ([`Warm`]) is brought up to date here too.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::Serialize;

use super::build::{self, Existing, Progress};
use super::corpus::{COMMON_SHARE, Corpus, Narrow};
use super::echo;
use super::hit::{self, Hit};
use super::intent;
use super::kind::HitKind;
use super::listing::Listing;
use super::memory_index::{Memory, MemoryFiles, MemoryStamp};
use super::open_index::OpenIndex;
use super::postings::Earlier;
use super::query_terms::QueryTerms;
use super::rank::{self, Candidates, Loc, Tuning, Unit};
use super::schema::index_dir;
use super::semantic::{self, Lane, SemanticCoverage};
use super::session_table::Table;
use super::tokenize::Analyzer;
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::store::Store;

/// A search. Words are matched after stemming, in any order; `"quoted
/// words"` must appear together, in that order.
#[derive(Debug, Clone)]
pub struct Query {
    pub text: String,
    /// At most this many hits.
    pub limit: usize,
    /// Which kinds to return; empty means all.
    pub kinds: Vec<HitKind>,
    /// Only hits at or after this time.
    pub since: Option<Timestamp>,
    /// Only hits at or before this time.
    pub until: Option<Timestamp>,
    /// Ranking constants. The defaults are the ones `docs/benchmarks.md`
    /// measures; the field exists so that the benchmark can show what each
    /// refinement is worth.
    pub tuning: Tuning,
}

impl Query {
    pub fn new(text: impl Into<String>) -> Query {
        Query { text: text.into(), limit: 10, kinds: Vec::new(), since: None, until: None, tuning: Tuning::default() }
    }

    fn wants(&self, kind: HitKind) -> bool {
        self.kinds.is_empty() || self.kinds.contains(&kind)
    }
}

/// How a recall was answered, for `--json` consumers and the benchmarks.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Coverage {
    /// Session files answered from the index.
    pub indexed_sessions: usize,
    /// Session files read from disk because the index did not cover them.
    pub scanned_sessions: usize,
    /// Whether the index was brought up to date first.
    pub index_updated: bool,
    /// Whether the first pass was pruned: a top-k search picked the head of
    /// the ranking and only its sessions were ranked in full (see
    /// [`super::Tuning::prune_min_turns`]).
    pub pruned: bool,
    /// How much of the store the semantic lane saw (`None` when it was off).
    /// A query embeds nothing but itself: turns without a vector yet are
    /// found by words alone, until a builder embeds them
    /// ([`super::semantic::embed`]).
    pub semantic: Option<SemanticCoverage>,
}

/// The answer to a [`Query`].
#[derive(Debug, Clone)]
pub struct Answer {
    pub hits: Vec<Hit>,
    pub coverage: Coverage,
    /// Files that could not be searched at all, and why.
    pub diagnostics: Vec<Diagnostic>,
}

/// What a searcher keeps between queries: the open index, the session
/// listing, the session table and the journal and facts, each with what it
/// was built from, so that a query redoes only what changed.
#[derive(Default)]
pub(super) struct Warm {
    pub index: Option<OpenIndex>,
    /// The session files and, for a long-lived searcher, a watch on their
    /// folder that keeps the list current (see [`Listing`]).
    pub listing: Listing,
    /// The session table built from the listing and the index, with the
    /// listing generation and the index opening it was built for.
    pub table: Option<((u64, u64), Table)>,
    /// The journal and the facts fold, with the state of their files when
    /// read.
    pub memory: Option<(MemoryStamp, Memory)>,
    /// Counts index openings, so that the table follows a reopened index.
    pub opened: u64,
    /// Where the embedding model comes from.
    pub model: ModelChoice,
    /// The semantic lane: `None` until the first query looks for a model,
    /// then the lane if there is one that loads.
    pub semantic: Option<Option<Lane>>,
    /// Why the model that was asked for could not be loaded.
    pub model_problem: Option<Diagnostic>,
}

/// Where a searcher's embedding model comes from.
#[derive(Debug, Clone, Default)]
pub enum ModelChoice {
    /// The store's `recall.model` setting (a relative path is taken from
    /// the store root); none set: lexical only.
    #[default]
    Settings,
    /// This folder, whatever the settings say.
    Given(PathBuf),
    /// Lexical only, whatever the settings say.
    Off,
}

impl Warm {
    /// Opens the semantic lane once: the model the choice names, if any.
    fn open_lane(&mut self, store: &Store) {
        if self.semantic.is_some() {
            return;
        }
        let dir = match &self.model {
            ModelChoice::Off => None,
            ModelChoice::Given(dir) => Some(dir.clone()),
            ModelChoice::Settings => {
                store.settings().ok().and_then(|s| s.recall_model).map(|dir| store.home().join(dir))
            }
        };
        self.semantic = Some(dir.and_then(|dir| match Lane::open(store, &dir) {
            Ok(lane) => Some(lane),
            Err(e) => {
                self.model_problem =
                    Some(Diagnostic::new(&dir, 0, format!("{e}; recall is lexical only until it is fixed")));
                None
            }
        }));
    }
}

impl Warm {
    /// Brings the session listing up to date, and the session table with
    /// it when the listing or the index changed since it was built.
    fn refresh_table(&mut self, store: &Store) -> Result<()> {
        self.listing.current(store, self.index.as_ref())?;
        let stamp = (self.listing.generation(), self.opened);
        if self.table.as_ref().is_none_or(|(s, _)| *s != stamp) {
            self.table = Some((stamp, Table::build(self.listing.files(), self.index.as_ref())));
        }
        Ok(())
    }

    /// Reads the journal and the facts again if either changed since the
    /// last query.
    fn refresh_memory(&mut self, store: &Store) -> Result<()> {
        let files = MemoryFiles::of(store);
        let stamp = Memory::stamp(&files);
        if self.memory.as_ref().is_none_or(|(s, _)| *s != stamp) {
            self.memory = Some((stamp, Memory::read(&files)?));
        }
        Ok(())
    }

    /// Opens the index again (after a commit, or when there was none).
    fn reopen(&mut self, dir: &Path) {
        let was = self.index.is_some();
        self.index = OpenIndex::open(dir);
        if was || self.index.is_some() {
            self.opened += 1;
        }
    }
}

/// Whether a query may bring a stale index up to date before answering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refresh {
    /// When memory is on and no one else is writing, a stale index is
    /// brought up to date first.
    WhenStale,
    /// The cache is never written: what the index does not cover is scanned.
    Never,
}

/// Answers one query over `store`, with what a searcher keeps warm; `refresh`
/// says whether a stale index may be brought up to date first.
pub(super) fn search(
    store: &Store,
    warm: &mut Warm,
    refresh: Refresh,
    query: &Query,
    progress: &mut dyn Progress,
) -> Result<Answer> {
    // The hits are built with the corpus the ranking read, while it is open.
    let (ranked, hits) = rank_with(store, warm, refresh, query, progress, |corpus, ranked| {
        let units = ranked.units.iter().zip(ranked.echoes.iter().map(Vec::as_slice));
        Ok(build_hits(store, corpus, units, &ranked.terms)?.into_iter().flatten().collect::<Vec<Hit>>())
    })?;
    Ok(Answer { hits, coverage: ranked.coverage, diagnostics: ranked.diagnostics })
}

/// A query's answer before its hits are built: the best units, with their
/// scores, and what building their hits needs. Building a hit (reading its
/// text, finding the snippet) costs more than ranking it, so a search of
/// several projects ranks each and builds only the hits that make its list.
pub(super) struct Ranked {
    pub units: Vec<(Unit, f64)>,
    /// For a unit that is one of the person's facts, its id: it is in every
    /// project's ranking, and a list of several projects holds it once.
    pub persons: Vec<Option<String>>,
    /// For each unit, the units that said the same words, folded into it.
    pub echoes: Vec<Vec<Unit>>,
    terms: QueryTerms,
    pub coverage: Coverage,
    pub diagnostics: Vec<Diagnostic>,
}

/// Builds the hits of the units `which` names (positions in `ranked.units`)
/// from what the searcher holds since it ranked them; `None` for a unit whose
/// text is gone. Also returns what building them reported.
pub(super) fn hits(
    store: &Store,
    warm: &Warm,
    ranked: &Ranked,
    which: &[usize],
) -> Result<(Vec<Option<Hit>>, Vec<Diagnostic>)> {
    let (Some((_, memory)), Some((_, table))) = (warm.memory.as_ref(), warm.table.as_ref()) else {
        return Ok((Vec::new(), Vec::new()));
    };
    let mut corpus = Corpus::new(warm.listing.files(), table, warm.index.as_ref(), memory);
    let units = which.iter().map(|&i| (&ranked.units[i], ranked.echoes[i].as_slice()));
    let hits = build_hits(store, &corpus, units, &ranked.terms)?;
    Ok((hits, std::mem::take(&mut corpus.diagnostics)))
}

/// The hit of each unit, with the echoes folded into it, in order (`None`
/// for one whose text is gone).
fn build_hits<'a>(
    store: &Store,
    corpus: &Corpus,
    units: impl Iterator<Item = (&'a (Unit, f64), &'a [Unit])>,
    terms: &QueryTerms,
) -> Result<Vec<Option<Hit>>> {
    let mut snippets = Analyzer::queries();
    units
        .map(|((unit, score), echoes)| {
            let hit = hit::build(store, corpus, unit, *score, terms, &mut snippets)?;
            Ok(hit.map(|mut hit| {
                hit.echoes = hit::echoes(corpus, echoes);
                hit
            }))
        })
        .collect()
}

/// Ranks one query over `store` ([`search`] without building the hits).
pub(super) fn rank(
    store: &Store,
    warm: &mut Warm,
    refresh: Refresh,
    query: &Query,
    progress: &mut dyn Progress,
) -> Result<Ranked> {
    rank_with(store, warm, refresh, query, progress, |_, _| Ok(())).map(|(ranked, ())| ranked)
}

/// Ranks one query, then runs `then` on the ranking with the corpus it read
/// (still open: building hits from it reads nothing twice).
fn rank_with<T>(
    store: &Store,
    warm: &mut Warm,
    refresh: Refresh,
    query: &Query,
    progress: &mut dyn Progress,
    then: impl FnOnce(&Corpus, &Ranked) -> Result<T>,
) -> Result<(Ranked, T)> {
    let mut coverage = bring_up_to_date(store, warm, refresh, progress)?;
    warm.refresh_memory(store)?;
    warm.open_lane(store);
    let mut diagnostics: Vec<Diagnostic> = warm.model_problem.iter().cloned().collect();
    let (stamp, memory) = warm.memory.as_ref().expect("refreshed above");
    let lane = warm.semantic.as_mut().and_then(Option::as_mut);
    let lane = lane.map(|l| {
        l.sync(store, memory, *stamp);
        &*l
    });
    let table = &warm.table.as_ref().expect("refreshed above").1;
    let mut corpus = Corpus::new(warm.listing.files(), table, warm.index.as_ref(), memory);
    coverage.indexed_sessions = corpus.files.len() - corpus.table.stale.len();
    coverage.scanned_sessions = corpus.table.stale.len();
    coverage.semantic = lane.map(|l| l.coverage(&corpus));

    let (terms, candidates, scores, pruned) = lexical(&mut corpus, query)?;
    coverage.pruned = pruned;
    // Deeper than asked: echoes folded away leave room, and a reply below its
    // question can be lifted above it; deeper still when the question asks
    // for a kind of answer that the lift looks for (see `intent`).
    let intent = intent::of(&query.text).filter(|_| query.tuning.intent_lift > 0.0);
    let depth = if intent.is_some() { 2 * echo::DEPTH } else { echo::DEPTH };
    let deep = query.limit.saturating_mul(depth);
    let ranked: Vec<(Unit, f64)> = match lane {
        // Quoted phrases are a lexical demand: the semantic lane cannot say
        // whether a unit holds them.
        Some(lane) if query.tuning.semantic_weight > 0.0 && terms.phrases.is_empty() => {
            // The lexical ranking as deep as the answer; the semantic one
            // only `fusion_depth` deep, so that it reorders and adds to the
            // head of the ranking without reaching into its tail.
            let lexical = order(&corpus, &candidates, &scores, query, query.tuning.fusion_depth.max(deep));
            let lexical = lexical.into_iter().map(|i| (candidates.units[i].clone(), scores[i])).collect();
            let asked = lane.ask(&query.text)?;
            let semantic = lane.rank(&asked, &corpus, query.tuning.fusion_depth, &|u| admits(query, u))?;
            semantic::fuse(&corpus, lane, &asked, lexical, semantic, &query.tuning, deep)
        }
        _ => {
            let best = order(&corpus, &candidates, &scores, query, deep);
            best.into_iter().map(|i| (candidates.units[i].clone(), scores[i])).collect()
        }
    };
    // A question of no particular shape weighs every text the same, and
    // needs no analyser for it.
    let asked = &terms.terms[..terms.asked.min(terms.terms.len())];
    let mut lift: Box<dyn FnMut(&str) -> f64 + '_> = match intent {
        None => Box::new(|_| 1.0),
        Some(intent) => {
            let mut analyzer = Analyzer::documents();
            Box::new(move |text| intent::weight(intent, query.tuning.intent_lift, text, asked, &mut analyzer))
        }
    };
    let echo::Folded { units: ranked, echoes } = echo::fold(&corpus, ranked, query.limit, &query.tuning, &mut *lift)?;
    drop(lift);
    let persons = ranked
        .iter()
        .map(|(unit, _)| match unit.loc {
            Loc::Fact(i) if memory.is_persons(i as usize) => Some(memory.fold.facts[i as usize].id.clone()),
            _ => None,
        })
        .collect();
    let mut ranked = Ranked { units: ranked, persons, echoes, terms, coverage, diagnostics: Vec::new() };
    let then = then(&corpus, &ranked)?;
    diagnostics.append(&mut corpus.diagnostics);
    ranked.diagnostics = diagnostics;
    Ok((ranked, then))
}

/// Opens the index as it is now and, when `refresh` allows and memory is on,
/// brings a stale one up to date first (a failure to write the cache is not
/// a failure to recall: the stale sessions are scanned instead).
fn bring_up_to_date(store: &Store, warm: &mut Warm, refresh: Refresh, progress: &mut dyn Progress) -> Result<Coverage> {
    let dir = index_dir(store);
    if warm.index.as_ref().is_none_or(|i| !i.is_current()) {
        warm.reopen(&dir);
    }
    let mut coverage = Coverage::default();
    warm.refresh_table(store)?;
    let covered = warm.table.as_ref().is_some_and(|(_, t)| t.covered_by(warm.index.as_ref()));
    let files = warm.listing.files();
    // Memory switched off or another writer holding the write lock: the
    // files are scanned as they are, and nothing is written.
    if refresh == Refresh::WhenStale
        && !files.is_empty()
        && !covered
        && let Ok(Some(_lock)) = store.try_lock()
    {
        // The index lock held elsewhere, or a read-only folder: scan instead.
        if build::write(&dir, files, Existing::Update, progress).is_ok() {
            coverage.index_updated = true;
            warm.reopen(&dir);
        }
        // What the files are now: they may have grown while it was written.
        warm.refresh_table(store)?;
    }
    if refresh == Refresh::WhenStale
        && let Some(index) = warm.index.as_ref()
        && warm.table.as_ref().is_some_and(|(_, t)| t.covered_by(Some(index)))
    {
        warm.listing.trust(store, index);
    }
    Ok(coverage)
}

/// The lexical ranking: a first pass over the query's words, then, when the
/// tuning asks for it, a second pass with words lent by the first pass's best
/// units. Returns the terms of the last pass, its candidates and their
/// scores, and whether the first stage was pruned.
fn lexical(corpus: &mut Corpus, query: &Query) -> Result<(QueryTerms, Candidates, Vec<f64>, bool)> {
    let mut analyzer = Analyzer::documents();
    let terms = QueryTerms::parse(&query.text, &mut Analyzer::queries());
    let window = (query.since.map(|t| t.as_second()), query.until.map(|t| t.as_second()));
    let head = corpus.head(&terms, &query.tuning, window)?;
    let pruned = head.is_some();
    let (first, first_found) = corpus.gather(&terms, &query.tuning, &mut analyzer, None, None, head.as_ref())?;
    let (mut scores, session_df) = rank::score_with_session_df(&first, &terms, &query.tuning);
    corpus.weigh_roles(&first, &mut scores, &query.tuning);
    if query.tuning.feedback_docs == 0 || terms.terms.is_empty() {
        return Ok((terms, first, scores, pruned));
    }
    let top = order(corpus, &first, &scores, query, query.tuning.feedback_docs);
    // On a large index, words found in more than 1/COMMON_SHARE of the
    // turns say nothing about the topic: they are not lent to the query.
    let indexed: u64 = corpus.table.sessions.iter().filter(|s| s.indexed).map(|s| s.docs).sum();
    let mut common: HashMap<String, bool> = HashMap::new();
    let index = corpus.index;
    let mut is_common = |word: &str| match index {
        Some(index) if indexed >= query.tuning.common_min_turns => {
            *common.entry(word.to_string()).or_insert_with(|| index.holds_more_than(word, indexed / COMMON_SHARE))
        }
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
    // Where the lent words only re-rank, the sessions of the first ranking's
    // head are ranked again, and only they. It pays only when the first pass
    // found far more units than the head holds: choosing the head and
    // counting the sessions' words again cost about what ranking a few
    // thousand units does.
    let depth = query.tuning.rerank_depth;
    let wide = depth.max(query.limit).max(query.tuning.fusion_depth);
    let sessions = (depth > 0 && first.units.len() > NARROW_FROM * wide).then(|| {
        let mut sessions = vec![false; first.session_tokens.len()];
        for i in order(corpus, &first, &scores, query, wide) {
            if let Some(s) = sessions.get_mut(first.units[i].session as usize) {
                *s = true;
            }
        }
        sessions
    });
    let narrow = sessions.as_deref().map(|sessions| Narrow { first: &first, session_df: &session_df, sessions });
    let (second, _) = corpus.gather(&expanded, &query.tuning, &mut analyzer, Some(earlier), narrow, head.as_ref())?;
    let mut scores = rank::score(&second, &expanded, &query.tuning);
    corpus.weigh_roles(&second, &mut scores, &query.tuning);
    Ok((expanded, second, scores, pruned))
}

/// The feedback pass is narrowed to the sessions of the first ranking's head
/// only when the first pass found more than this many times the head.
const NARROW_FROM: usize = 8;

/// Whether the query admits a unit: its kind, its time, its phrases.
fn admits(query: &Query, u: &Unit) -> bool {
    u.phrases
        && query.wants(u.kind)
        && query.since.is_none_or(|s| u.ts >= s.as_second())
        && query.until.is_none_or(|s| u.ts <= s.as_second())
}

/// The indices of the best `limit` candidates that the query admits (kind,
/// time window, phrases): by score, then newest first, then by session and
/// line so that equal scores always come out in the same order.
fn order(corpus: &Corpus, c: &Candidates, scores: &[f64], query: &Query, limit: usize) -> Vec<usize> {
    let admitted = |i: usize| scores[i] > 0.0 && admits(query, &c.units[i]);
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

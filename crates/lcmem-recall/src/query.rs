//! One query, end to end: decide what the index covers and what must be
//! scanned, gather the units that hold query terms from both, rank, expand
//! the query with feedback and rank again, then build the hits. What a
//! searcher keeps between queries is `warm`'s.

use std::collections::HashMap;

use jiff::Timestamp;

use super::build::Progress;
use super::corpus::{Corpus, Narrow};
use super::echo;
use super::hit::{self, Hit};
use super::intent;
use super::kind::HitKind;
use super::postings::Earlier;
use super::query_terms::{COMMON_SHARE, QueryTerms};
use super::rank::{self, Candidates, Loc, Tuning, Unit};
use super::semantic;
use super::tokenize::Analyzer;
use super::warm::{Coverage, Refresh, Warm, bring_up_to_date};
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

/// The answer to a [`Query`].
#[derive(Debug, Clone)]
pub struct Answer {
    pub hits: Vec<Hit>,
    pub coverage: Coverage,
    /// Files that could not be searched at all, and why.
    pub diagnostics: Vec<Diagnostic>,
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

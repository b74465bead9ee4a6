//! Ranking: BM25 over the analysed terms, plus refinements that each use
//! only the words themselves (no model, no embeddings):
//!
//! - **Coordination.** A unit's BM25 score is scaled by the share of the
//!   query's own words it holds (Lucene's classic `coord`), so that a turn
//!   holding three of the four words asked about outranks one that holds a
//!   single rarer word many times. Words lent by feedback do not count.
//!
//! - **Neighbours.** A turn is read in its conversation: the answer to "what
//!   did we decide about retries?" is often the turn *after* the one that
//!   says "retries". A turn gains a share of its neighbours' scores.
//! - **Session evidence.** A session whose transcript as a whole matches the
//!   query is likelier to hold the answer than one with a stray mention, so
//!   every unit gains a share of its session's BM25 score, computed over
//!   session-level statistics.
//! - **Pseudo-relevance feedback (RM3).** The first ranking's best units
//!   lend the query their most characteristic words, and the expanded query
//!   is ranked again. This bridges vocabulary gaps ("postgres" ↔ "database").
//! - **Dates.** A unit from a day, month or year the query names (see
//!   `when`) scores double: what happened then is rarely worded with its
//!   date.
//!
//! Everything here works on integer counts gathered the same way from the
//! index and from the scan, and sums floats in a fixed order, so both paths
//! give bit-identical scores.

use std::collections::HashMap;

use super::fusion::Fusion;
use super::kind::HitKind;
use super::query_terms::QueryTerms;

/// Ranking constants. The defaults are the ones the benchmarks measure.
#[derive(Debug, Clone, PartialEq)]
pub struct Tuning {
    /// BM25 term-frequency saturation.
    pub k1: f64,
    /// BM25 length normalisation.
    pub b: f64,
    /// Share of a neighbouring turn's score a turn gains, to the power of
    /// their distance in turns.
    pub neighbours: f64,
    /// How many turns away a neighbour may be.
    pub neighbour_reach: u32,
    /// Share of the session's score every unit of the session gains.
    pub session: f64,
    /// BM25+ lower bound on what a matched term adds to a session's score
    /// (0: plain BM25). Sessions range from a few turns to hundreds, and
    /// plain BM25 lets a long session's length cancel out a word it does
    /// hold (Lv and Zhai, "Lower-bounding term frequency normalization",
    /// 2011, whose default of 1 this is). Turns are short and even, and
    /// keep plain BM25.
    pub session_delta: f64,
    /// How many top units lend words to the expanded query (0: no feedback).
    pub feedback_docs: usize,
    /// How many words they lend.
    pub feedback_terms: usize,
    /// Weight of the lent words against the original query (0 to 1).
    pub feedback_weight: f64,
    /// How much more a unit from a date the query names scores (0: dates
    /// are words like any other). 1 doubles it: the date is taken as strong
    /// evidence, but not as a filter, since a question about June may be
    /// answered by what was said in May.
    pub date: f64,
    /// Whether a unit's BM25 score is scaled by the share of the query's own
    /// words it holds.
    pub coordination: bool,
    /// Indexed turns from which a word found in more than one turn in 20 is
    /// common: it scores the turns the rarer words find, without making
    /// every turn that holds it a candidate, and feedback does not lend it.
    /// Below, every word is counted exactly, everywhere.
    pub common_min_turns: u64,
    /// Indexed turns from which the words feedback lends only score the
    /// turns the query's own words find, instead of making every turn that
    /// holds them a candidate. On a large store those words bring in tens of
    /// thousands of turns that hold none of the words asked about, which
    /// coordination then scores at nothing of their own; reading them is
    /// most of a query's time. Smaller stores follow every word.
    pub lent_rerank_turns: u64,
    /// Where the lent words only re-rank: the expanded query is ranked
    /// again over the sessions of the first ranking's best this many units
    /// only, each of those sessions whole (0: over every session). A unit
    /// of those sessions scores exactly what it would over all of them.
    pub rerank_depth: usize,
    /// Indexed turns from which the first pass is pruned: a top-k search
    /// over the postings (block-max WAND, plain BM25) picks the best
    /// `prune_head` turns, and only their sessions are read and ranked with
    /// every refinement (see `recall::prune`). Below, every turn that holds
    /// a query word is ranked.
    pub prune_min_turns: u64,
    /// How many turns the pruned first stage picks (0: never pruned).
    pub prune_head: usize,
    /// Whether a long-lived searcher ([`crate::Searcher::long_lived`])
    /// prunes too. Pruning saves a one-off process from reading most of the
    /// postings off disk; a warm process has them in memory, and there the
    /// top-k search costs more than it saves: at 10,000 synthetic sessions
    /// (784,342 turns), warm p50 5.22 and 4.70 ms pruned against 3.90 and
    /// 3.21 ms ranking every candidate, query by query in turn, in two runs
    /// (docs/benchmarks.md). So by default only one-off processes prune.
    pub prune_warm: bool,
    /// With the semantic lane on: how much its similarity weighs against
    /// the lexical score (0: lexical only); see [`Fusion`].
    pub semantic_weight: f64,
    /// How the two lanes' rankings are fused.
    pub fusion: Fusion,
    /// How many units of each lane take part in the fusion.
    pub fusion_depth: usize,
    /// What a turn of tool output (a file dump, a command's output, "File
    /// created successfully") scores against a person's or the agent's
    /// words (1: the same). Tool output is evidence of what was there, and
    /// long and repetitive: it should not outrank a statement of the same
    /// thing.
    pub tool_weight: f64,
    /// How much more a statement of the kind a question asks for weighs
    /// among the head of the ranking: a cause, a command, an amount, a place
    /// (see `intent`; 0: no lift, 1: twice).
    pub intent_lift: f64,
    /// A hit scoring under this share of the best hit is left out: it holds
    /// none of the words asked about, or nearly so, and is there through a
    /// word feedback lent or its session's share (0: every hit is kept).
    pub floor: f64,
    /// How many of the first page's last places go to sessions the page
    /// does not show yet, when one has a hit scoring at least `page_share`
    /// of the hit it displaces (0: the ranking is left alone; see `spread`).
    pub page_fresh: usize,
    pub page_share: f64,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            k1: 1.2,
            b: 0.75,
            neighbours: 0.3,
            neighbour_reach: 2,
            session: 0.3,
            session_delta: 1.0,
            feedback_docs: 5,
            feedback_terms: 10,
            feedback_weight: 0.3,
            date: 1.0,
            coordination: true,
            // Counting common words loosely costs LoCoMo's turn recall@10
            // 0.048 when forced on its small conversations; re-ranking by the
            // lent words costs it 0.005 and takes a warm query on 2,000
            // sessions (80,000 turns) from 22.5 ms to 10.8 ms, so it starts
            // far earlier (docs/benchmarks.md).
            common_min_turns: 100_000,
            lent_rerank_turns: 20_000,
            rerank_depth: 1_000,
            prune_min_turns: 100_000,
            prune_head: 300,
            prune_warm: false,
            // Chosen on LoCoMo's tuning conversations (docs/benchmarks.md):
            // MiniLM's ranking alone is far weaker there than the lexical
            // one, so its similarity reorders the lexical head rather than
            // standing beside it.
            semantic_weight: 0.2,
            fusion: Fusion::Blend,
            fusion_depth: 100,
            tool_weight: 0.5,
            intent_lift: 1.0,
            // On LoCoMo and the coding questions, 0.03 to 0.06 change no
            // figure; on the example project, "rate limits" no longer ends
            // with four turns about the product cache at 0.02 of the best.
            floor: 0.04,
            // On LoCoMo (docs/benchmarks.md): questions whose evidence lies
            // in two sessions or more find all of them on the first page
            // 0.248 → 0.366 of the time, turn recall@10 0.790 → 0.796; the
            // coding questions' ranks do not move.
            page_fresh: 3,
            page_share: 0.7,
        }
    }
}

/// Where a unit's text lives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Loc {
    /// A line of a session file.
    Turn { line: u32, offset: u64, role: super::scan::TurnRole },
    /// A line of a session file, as document `doc` of index segment
    /// `segment`: where it is, is read from the index when needed.
    Indexed { segment: u32, doc: u32 },
    /// An entry of the journal, by its index in the folded journal.
    Journal(u32),
    /// A fact, by its index in the fold.
    Fact(u32),
}

/// One searchable unit that holds at least one query term.
#[derive(Debug, Clone)]
pub struct Unit {
    pub kind: HitKind,
    /// Session ordinal in the query's session table ([`NO_SESSION`] if none).
    pub session: u32,
    /// Position among the session's turns (turns only).
    pub turn: u32,
    /// Length in tokens.
    pub len: u32,
    /// Seconds since the epoch.
    pub ts: i64,
    /// Whether every quoted phrase of the query is in the unit.
    pub phrases: bool,
    pub loc: Loc,
}

pub const NO_SESSION: u32 = u32::MAX;

/// The units that hold query terms, with their term counts, and the
/// collection statistics BM25 needs.
#[derive(Debug, Default)]
pub struct Candidates {
    pub units: Vec<Unit>,
    /// `units.len() × terms` counts, unit-major.
    pub tfs: Vec<u32>,
    /// Every unit searched, matching or not.
    pub docs: u64,
    /// Their total length in tokens.
    pub tokens: u64,
    /// Length in tokens of each session's transcript, by ordinal (0 for a
    /// session with no transcript).
    pub session_tokens: Vec<u64>,
    /// Documents holding each term.
    pub df: Vec<u64>,
    /// Terms so frequent that they were only counted in candidates found
    /// through the other terms (see `OpenIndex::gather`); taken to be in
    /// every session.
    pub common: Vec<bool>,
    /// How many sessions hold each of the first terms, when these are
    /// the candidates of some sessions only and the count was taken over
    /// all of them (see [`score_with_session_df`]); empty: counted over these.
    pub session_df: Vec<u64>,
}

impl Candidates {
    pub fn push(&mut self, unit: Unit, tfs: &[u32]) {
        self.units.push(unit);
        self.tfs.extend_from_slice(tfs);
    }

    /// Keeps the units `keep` accepts, with their counts.
    pub fn retain(&mut self, keep: impl Fn(&Unit) -> bool) {
        let nt = self.df.len();
        let mut kept = 0;
        for i in 0..self.units.len() {
            if keep(&self.units[i]) {
                self.units.swap(kept, i);
                self.tfs.copy_within(i * nt..(i + 1) * nt, kept * nt);
                kept += 1;
            }
        }
        self.units.truncate(kept);
        self.tfs.truncate(kept * nt);
    }

    /// Counts a unit's terms towards their document frequencies. For a unit
    /// from the index, common terms are skipped: their frequency is the
    /// index's own estimate, since not every document holding them is seen.
    pub fn count(&mut self, tfs: &[u32], from_index: bool) {
        for (t, &tf) in tfs.iter().enumerate() {
            if tf > 0 && !(from_index && self.common[t]) {
                self.df[t] += 1;
            }
        }
    }
}

fn idf(n: f64, df: f64) -> f64 {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// Scores every candidate.
pub fn score(c: &Candidates, q: &QueryTerms, tuning: &Tuning) -> Vec<f64> {
    score_with_session_df(c, q, tuning).0
}

/// Scores every candidate, and says how many sessions among them hold each
/// term, as the session evidence counted them (empty when it is off): what
/// a pass narrowed to some of those sessions keeps ([`Candidates::session_df`]).
pub fn score_with_session_df(c: &Candidates, q: &QueryTerms, tuning: &Tuning) -> (Vec<f64>, Vec<u64>) {
    let nt = q.terms.len();
    if nt == 0 || c.units.is_empty() {
        return (vec![0.0; c.units.len()], Vec::new());
    }
    let df = &c.df;
    let n = c.docs.max(1) as f64;
    let avgdl = (c.tokens as f64 / n).max(1.0);
    let idfs: Vec<f64> = df.iter().zip(&q.weights).map(|(&d, w)| w * idf(n, d as f64)).collect();
    let (k1, b) = (tuning.k1, tuning.b);
    let asked = q.asked.min(nt);
    let base: Vec<f64> = c
        .units
        .iter()
        .zip(c.tfs.chunks_exact(nt))
        .map(|(u, tfs)| {
            let norm = k1 * (1.0 - b + b * f64::from(u.len) / avgdl);
            let mut s = 0.0;
            for (t, &tf) in tfs.iter().enumerate() {
                if tf > 0 {
                    let tf = f64::from(tf);
                    s += idfs[t] * tf * (k1 + 1.0) / (tf + norm);
                }
            }
            if tuning.coordination && asked > 1 {
                let held = tfs[..asked].iter().filter(|&&tf| tf > 0).count();
                s *= held as f64 / asked as f64;
            }
            s
        })
        .collect();
    let (sessions, session_df) = session_scores(c, q, tuning);
    let mut out = base.clone();
    for (i, u) in c.units.iter().enumerate() {
        if u.kind == HitKind::Turn && tuning.neighbours > 0.0 {
            // The turns up to `neighbour_reach` away on one side, each
            // weighing `neighbours` to the power of its distance.
            let side = |forward: bool| {
                let mut sum = 0.0;
                let mut j = i;
                loop {
                    j = match (forward, j) {
                        (true, j) if j + 1 < c.units.len() => j + 1,
                        (false, j) if j > 0 => j - 1,
                        _ => break,
                    };
                    let v = &c.units[j];
                    let d = v.turn.abs_diff(u.turn);
                    if v.kind != HitKind::Turn || v.session != u.session || d > tuning.neighbour_reach {
                        break;
                    }
                    sum += tuning.neighbours.powi(d as i32) * base[j];
                }
                sum
            };
            out[i] += side(false) + side(true);
        }
        if u.session != NO_SESSION {
            out[i] += tuning.session * sessions[u.session as usize];
        }
        if tuning.date > 0.0 && q.dates.iter().any(|d| d.contains(u.ts)) {
            out[i] *= 1.0 + tuning.date;
        }
    }
    (out, session_df)
}

/// BM25+ of each session's whole transcript, by ordinal, and how many of
/// the sessions with a candidate turn hold each term.
fn session_scores(c: &Candidates, q: &QueryTerms, tuning: &Tuning) -> (Vec<f64>, Vec<u64>) {
    let nt = q.terms.len();
    let ns = c.session_tokens.len();
    let mut out = vec![0.0; ns];
    if tuning.session <= 0.0 || ns == 0 {
        return (out, Vec::new());
    }
    let (rows, stf) = session_rows(c, nt);
    let with_text = c.session_tokens.iter().filter(|&&l| l > 0).count().max(1) as f64;
    let avg = (c.session_tokens.iter().sum::<u64>() as f64 / with_text).max(1.0);
    let counted = df_of_rows(&stf, nt);
    let mut sdf = counted.clone();
    sdf[..c.session_df.len()].copy_from_slice(&c.session_df);
    for (t, common) in c.common.iter().enumerate() {
        if *common {
            sdf[t] = with_text as u64;
        }
    }
    let idfs: Vec<f64> = sdf.iter().zip(&q.weights).map(|(&d, w)| w * idf(with_text, d as f64)).collect();
    let (k1, b) = (tuning.k1, tuning.b);
    for (&s, row) in rows.iter().zip(stf.chunks_exact(nt)) {
        let s = s as usize;
        let norm = k1 * (1.0 - b + b * c.session_tokens[s] as f64 / avg);
        let mut score = 0.0;
        for (t, &tf) in row.iter().enumerate() {
            if tf > 0 {
                let tf = tf as f64;
                score += idfs[t] * (tf * (k1 + 1.0) / (tf + norm) + tuning.session_delta);
            }
        }
        out[s] = score;
    }
    (out, counted)
}

fn df_of_rows(stf: &[u64], nt: usize) -> Vec<u64> {
    let mut sdf = vec![0u64; nt];
    for row in stf.chunks_exact(nt.max(1)) {
        for (t, &tf) in row.iter().enumerate() {
            sdf[t] += u64::from(tf > 0);
        }
    }
    sdf
}

/// Term counts summed per session: the ordinal of each session with a
/// candidate turn (a project has many sessions, a query touches few), and a
/// row of `nt` counts for each, in the same order.
fn session_rows(c: &Candidates, nt: usize) -> (Vec<u32>, Vec<u64>) {
    let ns = c.session_tokens.len();
    let mut row_of = vec![u32::MAX; ns];
    let mut rows: Vec<u32> = Vec::new();
    let mut stf: Vec<u64> = Vec::new();
    for (u, tfs) in c.units.iter().zip(c.tfs.chunks_exact(nt)) {
        if u.kind == HitKind::Turn && u.session != NO_SESSION {
            let slot = &mut row_of[u.session as usize];
            if *slot == u32::MAX {
                *slot = rows.len() as u32;
                rows.push(u.session);
                stf.resize(stf.len() + nt, 0);
            }
            let row = &mut stf[*slot as usize * nt..][..nt];
            for (t, &tf) in tfs.iter().enumerate() {
                row[t] += u64::from(tf);
            }
        }
    }
    (rows, stf)
}

/// RM3: the expanded query. `feedback` holds the analysed text and score of
/// the best units of the first ranking, best first.
pub fn expand(q: &QueryTerms, feedback: &[(Vec<String>, f64)], tuning: &Tuning) -> QueryTerms {
    let total: f64 = feedback.iter().map(|(_, s)| s.max(0.0)).sum();
    if feedback.is_empty() || total <= 0.0 || tuning.feedback_terms == 0 || tuning.feedback_weight <= 0.0 {
        return q.clone();
    }
    let mut weights: HashMap<&str, f64> = HashMap::new();
    for (terms, score) in feedback {
        if terms.is_empty() {
            continue;
        }
        let share = score.max(0.0) / total / terms.len() as f64;
        for t in terms {
            *weights.entry(t.as_str()).or_default() += share;
        }
    }
    let mut ranked: Vec<(&str, f64)> =
        weights.into_iter().filter(|(t, _)| !q.terms.iter().any(|o| o == t) && t.chars().count() > 1).collect();
    // Ties broken by the term itself, so the expansion is deterministic.
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    ranked.truncate(tuning.feedback_terms);
    let mass: f64 = ranked.iter().map(|(_, w)| w).sum();
    if mass <= 0.0 {
        return q.clone();
    }
    let original: f64 = q.weights.iter().sum();
    let mut out = q.clone();
    for w in &mut out.weights {
        *w *= 1.0 - tuning.feedback_weight;
    }
    for (term, w) in ranked {
        out.add(term, tuning.feedback_weight * original * w / mass);
    }
    out
}

#[cfg(test)]
mod tests;

//! A query, analysed: its terms and their weights, its quoted phrases and
//! the dates it names. Parsed once, before anything is looked up or scored
//! (`rank` scores units against it; RM3 feedback, `rank::expand`, lends it
//! words).

use super::tokenize::Analyzer;
use super::when::{self, When};

/// A phrase: terms that must appear at these relative positions.
#[derive(Debug, Clone, PartialEq)]
pub struct Phrase {
    /// `(index into QueryTerms::terms, position relative to the first)`.
    pub parts: Vec<(usize, u32)>,
}

/// The analysed query.
#[derive(Debug, Clone, Default)]
pub struct QueryTerms {
    pub terms: Vec<String>,
    pub weights: Vec<f64>,
    pub phrases: Vec<Phrase>,
    /// Dates the query names.
    pub dates: Vec<When>,
    /// How many of `terms` the query itself gave; the words feedback lends
    /// follow them.
    pub asked: usize,
}

impl QueryTerms {
    /// Analyses a query: `"quoted parts"` become phrases, everything else
    /// loose terms. A term repeated in the query weighs more, as in BM25.
    pub fn parse(text: &str, analyzer: &mut Analyzer) -> QueryTerms {
        let mut q = QueryTerms { dates: when::parse(text), ..QueryTerms::default() };
        for (i, chunk) in text.split('"').enumerate() {
            let quoted = i % 2 == 1 && text.split('"').count() > i + 1;
            let terms = analyzer.terms(chunk);
            let mut parts = Vec::new();
            for (j, term) in terms.iter().enumerate() {
                let index = q.add(&term.text, 1.0);
                // A compound shares its position with its first part; the
                // parts alone decide whether a phrase matches, so that
                // "parse config" finds `parseConfig` and `parse config`.
                let compound = terms.get(j + 1).is_some_and(|next| next.position == term.position);
                if !compound {
                    parts.push((index, term.position));
                }
            }
            if quoted && !parts.is_empty() {
                let first = parts[0].1;
                q.phrases.push(Phrase { parts: parts.into_iter().map(|(t, p)| (t, p - first)).collect() });
            }
        }
        q.asked = q.terms.len();
        q
    }

    /// Adds `weight` to `term`, appending it when it is new; its index.
    pub(super) fn add(&mut self, term: &str, weight: f64) -> usize {
        match self.terms.iter().position(|t| t == term) {
            Some(i) => {
                self.weights[i] += weight;
                i
            }
            None => {
                self.terms.push(term.to_string());
                self.weights.push(weight);
                self.terms.len() - 1
            }
        }
    }

    /// Whether term `t` takes part in a phrase (its positions are needed).
    pub fn in_phrase(&self, t: usize) -> bool {
        self.phrases.iter().any(|p| p.parts.iter().any(|&(i, _)| i == t))
    }

    /// Whether the positions of a unit's terms hold every phrase.
    /// `positions[t]` lists the positions of term `t` in the unit.
    pub fn phrases_match(&self, positions: &[Vec<u32>]) -> bool {
        self.phrases.iter().all(|phrase| {
            let (first, _) = phrase.parts[0];
            positions[first].iter().any(|&start| {
                phrase.parts[1..].iter().all(|&(t, rel)| positions[t].binary_search(&(start + rel)).is_ok())
            })
        })
    }
}

/// From `Tuning::common_min_turns` indexed turns on, a term in more than
/// 1/COMMON_SHARE of the indexed turns is common: it
/// scores the candidates the other terms find, but does not make every turn
/// that holds it a candidate (see `OpenIndex::gather`). It weighs little in
/// BM25 anyway, and following it would cost a pass over most of the index.
pub(super) const COMMON_SHARE: u64 = 20;

/// Which of the query's words are common on an index of `docs` turns
/// ([`COMMON_SHARE`]; `estimates`: how many turns hold each), when `large`,
/// and which only re-rank because feedback lent them (see
/// `Tuning::lent_rerank_turns`), when `rerank`: both only count in the
/// turns the other words find. One of the query's own words always leads.
pub(super) fn common_terms(q: &QueryTerms, estimates: &[u64], docs: u64, (large, rerank): (bool, bool)) -> Vec<bool> {
    let mut common: Vec<bool> = estimates
        .iter()
        .enumerate()
        .map(|(t, &e)| (rerank && t >= q.asked) || (large && e.saturating_mul(COMMON_SHARE) > docs))
        .collect();
    if common[..q.asked].iter().all(|&x| x)
        && let Some(rarest) = (0..q.asked).min_by_key(|&t| estimates[t])
    {
        common[rarest] = false;
    }
    common
}

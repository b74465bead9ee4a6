//! How the semantic lane's ranking is fused with the lexical one: the
//! choice ([`Fusion`]) and the blend of scores ([`Blend`]). The fusion
//! itself, which needs the lane's vectors, is `semantic::fuse`.

/// How the semantic lane's ranking is fused with the lexical one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fusion {
    /// A blend of scores: a unit scores its lexical score over the best
    /// lexical score, plus the weight times how far its cosine similarity
    /// stands above that of the semantic list's last unit, over the span of
    /// that list. A clear lexical winner stays ahead; close lexical scores
    /// are reordered by meaning.
    Blend,
    /// Reciprocal-rank fusion with this constant: a unit ranked r-th in a
    /// lane gains weight / (k + r), the lexical lane weighing 1. Scores are
    /// ignored, only ranks count.
    Ranks(f64),
}

/// The blend of scores ([`Fusion::Blend`]) for one query.
pub(super) struct Blend {
    weight: f64,
    best_lexical: f64,
    /// The cosine of the semantic list's last unit, and the span up to its first.
    floor: f64,
    span: f64,
}

impl Blend {
    /// For one query: the fusion's weight, the best lexical score, and the
    /// cosines of the semantic list's first and last units (none: an empty list).
    pub(super) fn new(weight: f64, best_lexical: Option<f64>, semantic: Option<(f32, f32)>) -> Blend {
        let (top, floor) = semantic.map_or((1.0, 0.0), |(t, f)| (f64::from(t), f64::from(f)));
        Blend {
            weight,
            best_lexical: best_lexical.unwrap_or(1.0).max(f64::MIN_POSITIVE),
            floor,
            span: (top - floor).max(1e-6),
        }
    }

    /// A unit's fused score from its lexical score (0 if the lexical lane
    /// did not find it) and its cosine (none: no vector).
    pub(super) fn score(&self, lexical: f64, cosine: Option<f32>) -> f64 {
        let lift = cosine.map_or(0.0, |c| ((f64::from(c) - self.floor) / self.span).clamp(0.0, 1.0));
        lexical / self.best_lexical + self.weight * lift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blend_reorders_close_lexical_scores_and_keeps_a_clear_winner() {
        // The semantic list runs from cosine 0.8 down to 0.3.
        let blend = Blend::new(0.2, Some(10.0), Some((0.8, 0.3)));
        // A clear lexical winner with no semantic support stays ahead of a
        // unit scoring half as much lexically with the best cosine.
        assert!(blend.score(10.0, Some(0.3)) > blend.score(5.0, Some(0.8)));
        // Two close lexical scores: the one more alike in meaning comes first.
        assert!(blend.score(9.0, Some(0.8)) > blend.score(9.5, Some(0.35)));
        // Meaning alone weighs the weight: the semantic lane's best unit,
        // unknown to the lexical lane, scores as a unit with a fifth of the
        // best lexical score.
        assert!((blend.score(0.0, Some(0.8)) - 0.2).abs() < 1e-9);
        // Under the list's last cosine, or without a vector, nothing is added.
        assert_eq!(blend.score(4.0, Some(0.1)), 0.4);
        assert_eq!(blend.score(4.0, None), 0.4);
    }
}

//! Ranking's unit tests.

use super::*;
use crate::query_terms::Phrase;
use crate::tokenize::Analyzer;

#[test]
fn quoted_parts_become_phrases_over_parts_not_compounds() {
    let q = QueryTerms::parse("retries \"parseConfig file\"", &mut Analyzer::queries());
    assert_eq!(q.terms, ["retri", "parseconfig", "pars", "config", "file"]);
    assert_eq!(q.phrases, [Phrase { parts: vec![(2, 0), (3, 1), (4, 2)] }]);
}

#[test]
fn an_unclosed_quote_is_just_words() {
    let q = QueryTerms::parse("refund \"retries", &mut Analyzer::queries());
    assert!(q.phrases.is_empty());
    assert_eq!(q.terms, ["refund", "retri"]);
}

/// Turns of session 0 at these turn numbers and times, with these
/// counts of the query's terms.
fn turns(rows: &[(u32, i64, &[u32])]) -> Candidates {
    let nt = rows[0].2.len();
    let mut c = Candidates {
        docs: 100,
        tokens: 1000,
        session_tokens: vec![1000],
        df: vec![1; nt],
        common: vec![false; nt],
        ..Candidates::default()
    };
    for &(turn, ts, tfs) in rows {
        let loc = Loc::Turn { line: turn + 2, offset: 0, role: super::super::scan::TurnRole::User };
        let unit = Unit { kind: HitKind::Turn, session: 0, turn, len: 10, ts, phrases: true, loc };
        c.push(unit, tfs);
    }
    c
}

#[test]
fn a_turn_two_away_lends_the_square_of_the_neighbour_share() {
    let q = QueryTerms::parse("refund retries", &mut Analyzer::queries());
    let tuning = Tuning { session: 0.0, date: 0.0, ..Tuning::default() };
    let alone = score(&turns(&[(0, 0, &[1, 0]), (2, 0, &[0, 1])]), &q, &tuning);
    let far = score(&turns(&[(0, 0, &[1, 0]), (3, 0, &[0, 1])]), &q, &tuning);
    assert!((alone[1] - far[1] - tuning.neighbours.powi(2) * far[0]).abs() < 1e-9, "{alone:?} {far:?}");
}

#[test]
fn a_unit_from_a_named_date_scores_double() {
    let june = "2023-06-27T10:37:00Z".parse::<jiff::Timestamp>().unwrap().as_second();
    let july = "2023-07-17T14:31:00Z".parse::<jiff::Timestamp>().unwrap().as_second();
    let q = QueryTerms::parse("camping in June", &mut Analyzer::queries());
    assert_eq!(q.terms, ["camp", "june"]);
    let tuning = Tuning { neighbours: 0.0, session: 0.0, ..Tuning::default() };
    let s = score(&turns(&[(0, june, &[1, 0]), (5, july, &[1, 0])]), &q, &tuning);
    assert!((s[0] - 2.0 * s[1]).abs() < 1e-9, "{s:?}");
}

#[test]
fn a_unit_scores_by_the_share_of_the_query_words_it_holds() {
    let q = QueryTerms::parse("refund retries", &mut Analyzer::queries());
    let plain = Tuning { neighbours: 0.0, session: 0.0, date: 0.0, coordination: false, ..Tuning::default() };
    let coord = Tuning { coordination: true, ..plain.clone() };
    let c = turns(&[(0, 0, &[1, 0]), (5, 0, &[1, 1])]);
    let (p, s) = (score(&c, &q, &plain), score(&c, &q, &coord));
    assert!((s[0] - p[0] / 2.0).abs() < 1e-9 && (s[1] - p[1]).abs() < 1e-9, "{p:?} {s:?}");
    // Words lent by feedback do not count.
    let lent = expand(&q, &[(vec!["refund".into(), "ledger".into()], 1.0)], &coord);
    assert_eq!((lent.terms.len(), lent.asked), (3, 2));
}

#[test]
fn phrases_need_the_positions_in_order() {
    let q = QueryTerms::parse("\"refund retries\"", &mut Analyzer::queries());
    assert!(q.phrases_match(&[vec![3], vec![4]]));
    assert!(!q.phrases_match(&[vec![4], vec![3]]));
}

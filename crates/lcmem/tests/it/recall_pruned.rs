//! The pruned first stage (`Tuning::prune_min_turns`): a top-k search over
//! the postings picks the head, and only its sessions are ranked in full.
//! When the head has room for every turn that holds a query word, nothing is
//! left out, and every hit must score exactly what the exhaustive pass gives
//! it: the same candidates, the same statistics, the same refinements.
//!
//! The store is large enough that every word's postings run to several
//! blocks of 128 turns: block-max WAND skips whole blocks by their bounds,
//! and a wrong bound loses turns only there.

use lcmem::recall::{Answer, HitKind, Query, Quiet, Searcher};

use crate::recall::sessions_of;

fn ask(text: &str, kinds: &[HitKind], head: usize) -> Query {
    let mut query = Query::new(text);
    // Pruned on any store (or never: head 0); the words feedback lends only
    // re-rank, as they do on every store large enough to be pruned.
    query.tuning.prune_min_turns = 0;
    query.tuning.prune_head = head;
    query.tuning.lent_rerank_turns = 0;
    query.tuning.fusion_depth = 0;
    query.kinds = kinds.to_vec();
    query.limit = 10_000;
    query
}

fn scored(answer: &Answer) -> Vec<(String, u64)> {
    answer.hits.iter().map(|h| (h.citation.clone(), h.score.to_bits())).collect()
}

#[test]
fn a_pruned_first_stage_with_room_for_every_turn_ranks_exactly_as_the_exhaustive_pass() {
    let f = sessions_of(60, 40);
    let mut searcher = Searcher::new(f.store.clone()).read_only();
    let mut compared = 0;
    for text in ["refund ledger", "cache postgres timeout", "webhook retry", "billing export parser", "queue worker"] {
        for kinds in [&[][..], &[HitKind::Turn], &[HitKind::Fact]] {
            let whole = searcher.search(&ask(text, kinds, 0), &mut Quiet).unwrap();
            let pruned = searcher.search(&ask(text, kinds, 1_000_000), &mut Quiet).unwrap();
            assert!(!whole.coverage.pruned && pruned.coverage.pruned, "{text:?}: pruned only when asked");
            assert_eq!(whole.coverage.scanned_sessions, 1, "one session is scanned, and ranked by both");
            assert_eq!(scored(&pruned), scored(&whole), "{text:?} {kinds:?}");
            compared += whole.hits.len();
        }
    }
    assert!(compared > 1_000, "only {compared} hits compared");
}

#[test]
fn a_pruned_first_stage_keeps_to_the_time_window_asked_for() {
    let f = sessions_of(60, 40);
    let mut searcher = Searcher::new(f.store.clone()).read_only();
    let at = |s: &str| s.parse::<jiff::Timestamp>().unwrap();
    let (since, until) = (at("2026-10-08T00:00:00Z"), at("2026-10-15T23:59:59Z"));
    let mut compared = 0;
    for text in ["refund ledger", "cache postgres timeout", "queue worker"] {
        let windowed = |head: usize| {
            let mut query = ask(text, &[], head);
            (query.since, query.until) = (Some(since), Some(until));
            query
        };
        let whole = searcher.search(&windowed(0), &mut Quiet).unwrap();
        let pruned = searcher.search(&windowed(1_000_000), &mut Quiet).unwrap();
        assert!(pruned.coverage.pruned, "{text:?}");
        assert_eq!(scored(&pruned), scored(&whole), "{text:?}");
        assert!(whole.hits.iter().all(|h| h.ts >= since && h.ts <= until), "{text:?}");
        // The head is picked inside the window: a head of one turn is the
        // best turn there, and its session answers; picked outside, the
        // window would leave no turn at all.
        let one = searcher.search(&windowed(1), &mut Quiet).unwrap();
        assert!(one.hits.iter().any(|h| h.kind == HitKind::Turn), "{text:?}: no turn in the window");
        assert!(one.hits.iter().all(|h| h.ts >= since && h.ts <= until), "{text:?}");
        compared += whole.hits.len();
    }
    assert!(compared > 50, "only {compared} hits in the window");
}

#[test]
fn a_small_head_keeps_the_best_hits_and_leaves_sessions_out() {
    let f = sessions_of(60, 40);
    let mut searcher = Searcher::new(f.store.clone()).read_only();
    let (mut same_top, mut fewer) = (0, 0);
    let texts = ["refund ledger", "cache postgres timeout", "webhook retry", "billing export parser", "queue worker"];
    for text in texts {
        // Without feedback, which would lend words from another head, and
        // without the first page's spread, which lifts a hit to the score of
        // the one it displaces (the two passes displace different hits).
        let first_pass = |head: usize| {
            let mut query = ask(text, &[HitKind::Turn], head);
            query.tuning.feedback_docs = 0;
            query.tuning.page_fresh = 0;
            query
        };
        let whole = searcher.search(&first_pass(0), &mut Quiet).unwrap();
        let pruned = searcher.search(&first_pass(20), &mut Quiet).unwrap();
        same_top += usize::from(whole.hits.first().map(|h| &h.citation) == pruned.hits.first().map(|h| &h.citation));
        fewer += usize::from(pruned.hits.len() < whole.hits.len());
        // The head's sessions are ranked whole, with the statistics of all:
        // each hit kept scores exactly what the exhaustive pass gives it.
        let scores: std::collections::HashMap<String, u64> = scored(&whole).into_iter().collect();
        for (citation, score) in scored(&pruned) {
            assert_eq!(scores.get(&citation), Some(&score), "{text:?}: {citation}");
        }
    }
    assert_eq!(same_top, texts.len(), "the best hit is in the head");
    assert_eq!(fewer, texts.len(), "a head of 20 turns leaves sessions out");
}

/// A long-lived searcher has the postings in memory, where ranking every
/// candidate is faster than the top-k search: it prunes only when the
/// query's tuning asks it to (`Tuning::prune_warm`). A one-off searcher on
/// the same store prunes.
#[test]
fn a_long_lived_searcher_ranks_every_candidate_unless_told_to_prune() {
    let f = sessions_of(60, 40);
    let mut once = Searcher::new(f.store.clone()).read_only();
    let mut warm = Searcher::new(f.store.clone()).read_only().long_lived();
    let query = ask("refund ledger", &[], 1_000_000);
    assert!(once.search(&query, &mut Quiet).unwrap().coverage.pruned, "a one-off searcher prunes");
    let answer = warm.search(&query, &mut Quiet).unwrap();
    assert!(!answer.coverage.pruned, "a long-lived searcher ranks every candidate");
    assert_eq!(scored(&answer), scored(&once.search(&query, &mut Quiet).unwrap()));
    let mut told = query.clone();
    told.tuning.prune_warm = true;
    assert!(warm.search(&told, &mut Quiet).unwrap().coverage.pruned, "told to, it prunes");
}

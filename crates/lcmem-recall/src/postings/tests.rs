//! The feedback pass built on an earlier pass finds exactly what a full pass
//! finds, on an index of several segments with deleted documents.

use super::*;
use crate::build::{self, Quiet};
use crate::listing::list_sessions;
use crate::schema::index_dir;
use crate::store::Store;
use crate::tokenize::Analyzer;

/// Words of very different frequencies: the first ones are in most
/// turns, the last ones in a few.
const WORDS: &[&str] = &[
    "cache",
    "retry",
    "refund",
    "parser",
    "config",
    "flaky",
    "queue",
    "token",
    "rollback",
    "paginator",
    "webhook",
    "tarball",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    /// A word, the earlier ones likelier.
    fn word(&mut self) -> &'static str {
        let reach = 1 + self.next(WORDS.len());
        WORDS[self.next(reach)]
    }
}

fn write_session(store: &Store, id: &str, turns: usize, rng: &mut Rng) {
    let mut text = serde_json::json!({"type": "session", "v": 1, "id": id, "title": id,
        "created_at": "2026-10-01T09:00:00Z"})
    .to_string();
    for i in 0..turns {
        let words: Vec<&str> = (0..2 + rng.next(6)).map(|_| rng.word()).collect();
        let line = serde_json::json!({"type": "message", "role": "user", "text": words.join(" "),
            "ts": format!("2026-10-01T09:{:02}:00Z", i % 60), "id": format!("m{i}")});
        text.push('\n');
        text.push_str(&line.to_string());
    }
    text.push('\n');
    std::fs::write(store.session_path(id), text).unwrap();
}

/// What a pass found, comparable as a whole.
fn flat(found: &[Found]) -> Vec<(u32, DocId, u64, u32, u32, i64, bool)> {
    let docs = found.iter().flat_map(|f| f.docs.iter().map(move |d| (f.segment, d)));
    docs.map(|(s, d)| (s, d.doc, d.key, d.turn, d.len, d.ts, d.phrases)).collect()
}

/// The ask of a test query: the first `terms.len()` flags of each list.
fn ask<'a>(
    terms: &'a [String],
    need_positions: &'a [bool],
    common: &'a [bool],
    wanted: &'a (dyn Fn(u64) -> bool + Sync),
    phrases: &'a (dyn Fn(&[Vec<u32>]) -> bool + Sync),
    earlier: Option<Earlier<'a>>,
) -> Ask<'a> {
    let need_positions = &need_positions[..terms.len()];
    Ask { terms, need_positions, common: &common[..terms.len()], wanted, phrases, earlier }
}

#[test]
fn building_on_an_earlier_pass_finds_exactly_what_a_full_pass_finds_and_common_terms_count_exactly() {
    let (_dir, store) = crate::store::temp_store();
    let index_dir = index_dir(&store);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // Three commits: several segments, and deleted documents where
    // sessions were written again.
    for (first, count) in [(0, 40), (40, 30), (10, 15)] {
        for s in first..first + count {
            write_session(&store, &format!("2026-10-01-s{s:03}"), 5 + rng.next(30), &mut rng);
        }
        build::write(&index_dir, &list_sessions(&store).unwrap(), build::Existing::Update, &mut Quiet).unwrap();
    }
    let index = OpenIndex::open(&index_dir).unwrap();
    assert!(index.segments.len() >= 2, "{} segments", index.segments.len());
    assert!(index.segments.iter().any(|s| s.num_deleted_docs() > 0));

    let mut analyzer = Analyzer::queries();
    let mut stemmed: Vec<String> = WORDS.iter().map(|w| analyzer.terms(w)[0].text.clone()).collect();
    stemmed.push("absent".into());
    let wanted = |key: u64| key % 5 != 1;
    // A later pass may keep fewer sessions than the earlier one.
    let fewer = |key: u64| key % 5 != 1 && !key.is_multiple_of(3);
    let mut compared = 0;
    for case in 0..300 {
        // Original terms, then lent ones, all different.
        let mut terms: Vec<String> = Vec::new();
        let original = 1 + rng.next(3);
        while terms.len() < original + 1 + rng.next(4) {
            let t = &stemmed[rng.next(stemmed.len())];
            if !terms.contains(t) {
                terms.push(t.clone());
            }
        }
        let mut common: Vec<bool> = (0..terms.len()).map(|_| rng.next(3) == 0).collect();
        common[rng.next(original)] = false;
        let earlier_common = common[..original].to_vec();
        match case % 4 {
            // A term led with before may be common now,
            0 => common[rng.next(original)] = true,
            // or the reverse, which the earlier pass cannot serve.
            2 => common[rng.next(original)] = false,
            _ => {}
        }
        let need_positions: Vec<bool> = (0..terms.len()).map(|t| t == 0 && case % 2 == 0).collect();
        let phrases = |positions: &[Vec<u32>]| case % 2 == 1 || positions[0].len() > 1;
        let later: &(dyn Fn(u64) -> bool + Sync) = if case % 3 == 0 { &fewer } else { &wanted };
        let asking = |terms, common, earlier| ask(terms, &need_positions, common, later, &phrases, earlier);
        let first = ask(&terms[..original], &need_positions, &earlier_common, &wanted, &phrases, None);
        let before = index.gather(&first).unwrap();
        let earlier = Earlier { found: &before, terms: original, common: &earlier_common };
        let full = index.gather(&asking(&terms, &common, None)).unwrap();
        let built = index.gather(&asking(&terms, &common, Some(earlier))).unwrap();
        assert_eq!(flat(&built), flat(&full), "case {case}: {terms:?} {common:?}");
        let tfs = |found: &[Found]| found.iter().flat_map(|f| f.tfs.clone()).collect::<Vec<u32>>();
        assert_eq!(tfs(&built), tfs(&full), "case {case}: {terms:?} {common:?}");
        // A common term is counted where the others find a document exactly
        // as if every term led: the same count for each document found.
        let none = vec![false; terms.len()];
        let every = index.gather(&asking(&terms, &none, None)).unwrap();
        let nt = terms.len();
        let counts = |found: &[Found]| {
            let rows = found.iter().flat_map(|f| f.docs.iter().enumerate().map(move |(i, d)| (f, i, d)));
            rows.map(|(f, i, d)| ((f.segment, d.doc), f.tfs[i * nt..][..nt].to_vec())).collect::<Vec<_>>()
        };
        let exact: std::collections::HashMap<_, _> = counts(&every).into_iter().collect();
        for (doc, row) in counts(&full) {
            assert_eq!(exact.get(&doc), Some(&row), "case {case}: {terms:?} {common:?}, document {doc:?}");
        }
        compared += full.iter().map(|f| f.docs.len()).sum::<usize>();
    }
    assert!(compared > 10_000, "only {compared} documents compared");
}

//! The journal's entries and the searchable facts, read from their files,
//! analysed once and kept as a small inverted index in memory.
//!
//! They are read from their files rather than the tantivy index (a pin, an
//! archive or a "not true" must count at once), and a mature project has
//! thousands of each: analysing every one for every query (twice, with
//! feedback) would cost far more than the query. A warm searcher builds this
//! once per change of either file; a query then only looks its terms up.

use std::collections::HashMap;
use std::path::Path;

use super::scan::{journal_text, searchable_facts};
use super::tokenize::Analyzer;
use crate::error::Result;
use crate::facts::Fold;
use crate::journal::Journal;

/// The journal and the fold, read from the files themselves rather than the
/// index, so that a pin, an archive or a "not true" counts at once. A warm
/// searcher keeps them while both files are as they were ([`MemoryStamp`]):
/// folding a large facts log for every query would cost more than the query.
pub struct Memory {
    pub journal: Journal,
    /// The project's facts, then the person's (every project) that the
    /// project does not hold itself, from [`Memory::person_from`] on.
    pub fold: Fold,
    /// Where the person's facts start in `fold.facts`.
    pub person_from: usize,
    /// Their searchable text, analysed.
    pub analyzed: MemoryIndex,
}

/// The size and modification time of the journal, the facts log and the
/// person's facts log (`None` for a missing file): the same test of
/// "unchanged" the index applies to session files.
pub type MemoryStamp = [Option<(u64, std::time::SystemTime)>; 3];

/// Where the files of a project's memory are: its journal and facts, and the
/// person's facts (none when the store is the person's own).
pub struct MemoryFiles {
    pub journal: std::path::PathBuf,
    pub facts: std::path::PathBuf,
    pub person: Option<std::path::PathBuf>,
}

impl MemoryFiles {
    pub fn of(store: &crate::store::Store) -> MemoryFiles {
        let person = (!store.is_person()).then(|| crate::store::Store::person(store.home()).facts_path());
        MemoryFiles { journal: store.journal_path(), facts: store.facts_path(), person }
    }
}

impl Memory {
    /// The text a journal entry or a fact is searched by: what the lexical
    /// lane analyses and the semantic lane embeds.
    pub fn text(&self, source: Source) -> String {
        match source {
            Source::Journal(j) => journal_text(self.journal.revision(j as usize)),
            Source::Fact(f) => {
                let fact = &self.fold.facts[f as usize];
                // A convention is found as one ("our package manager
                // conventions"), and what the user said in their own words
                // as theirs ("what did I say about the tests?"), though the
                // fact's words rarely say so.
                match (fact.convention, fact.user_authored || fact.said_by_user()) {
                    (true, true) => format!("{} (convention; the user said so)", fact.text),
                    (true, false) => format!("{} (convention)", fact.text),
                    (false, true) => format!("{} (the user said so)", fact.text),
                    (false, false) => fact.text.clone(),
                }
            }
        }
    }

    pub fn read(files: &MemoryFiles) -> Result<Memory> {
        let mut fold = Fold::read(&files.facts)?;
        let person_from = fold.facts.len();
        if let Some(person) = &files.person {
            let theirs = Fold::read(person)?;
            let own: std::collections::HashSet<String> = fold.facts.iter().map(|f| f.id.clone()).collect();
            fold.facts.extend(theirs.facts.into_iter().filter(|f| !own.contains(&f.id)));
        }
        let journal = Journal::read(&files.journal)?;
        let mut memory = Memory { journal, fold, person_from, analyzed: Default::default() };
        memory.analyzed = MemoryIndex::build(&memory);
        Ok(memory)
    }

    /// Whether fact `i` of the fold is the person's (every project).
    pub fn is_persons(&self, i: usize) -> bool {
        i >= self.person_from
    }

    pub fn stamp(files: &MemoryFiles) -> MemoryStamp {
        let of = |path: &Path| {
            std::fs::metadata(path).ok().map(|m| (m.len(), m.modified().unwrap_or(std::time::UNIX_EPOCH)))
        };
        [of(&files.journal), of(&files.facts), files.person.as_deref().and_then(of)]
    }
}

/// Which record a unit is. Ordered as [`MemoryIndex::build`] lists them:
/// journal revisions first, then facts, each by position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// A revision of a journal entry, by its position in
    /// [`Journal::revisions`] (current entries first, then earlier ones).
    Journal(u32),
    /// A fact of the fold, by index.
    Fact(u32),
}

/// One term in one unit: how often, and where its positions start in
/// [`MemoryIndex::positions`].
struct Posting {
    unit: u32,
    tf: u32,
    at: u32,
}

/// The analysed journal and facts: journal entries first, then facts, in
/// their order in the fold.
#[derive(Default)]
pub struct MemoryIndex {
    pub units: Vec<Source>,
    /// Length in tokens of each unit.
    pub lens: Vec<u32>,
    /// Their sum.
    pub tokens: u64,
    vocabulary: HashMap<String, u32>,
    /// By term id, in unit order.
    postings: Vec<Vec<Posting>>,
    positions: Vec<u32>,
}

impl MemoryIndex {
    pub fn build(memory: &Memory) -> MemoryIndex {
        // Earlier revisions of an entry too: what a resumed session's first
        // seal said stays findable (the hit says it is an earlier revision).
        let journal = memory.journal.revisions().enumerate().map(|(i, _)| Source::Journal(i as u32));
        let facts = searchable_facts(&memory.fold).map(|(i, _)| Source::Fact(i as u32));
        MemoryIndex::of(journal.chain(facts).map(|s| (s, memory.text(s))))
    }

    /// Analyses these texts, in this order.
    fn of(texts: impl Iterator<Item = (Source, String)>) -> MemoryIndex {
        let mut out = MemoryIndex::default();
        let mut analyzer = Analyzer::documents();
        // Positions of each term in the unit at hand, in the order met.
        let mut here: Vec<(u32, u32)> = Vec::new();
        for (source, text) in texts {
            let unit = out.units.len() as u32;
            here.clear();
            let mut len = 0u32;
            analyzer.each(&text, |token| {
                len += 1;
                let id = match out.vocabulary.get(token.text.as_str()) {
                    Some(&id) => id,
                    None => {
                        let id = out.vocabulary.len() as u32;
                        out.vocabulary.insert(token.text.clone(), id);
                        id
                    }
                };
                here.push((id, token.position as u32));
            });
            // Grouped by term, each term's positions in the order met.
            here.sort_by_key(|&(id, _)| id);
            for group in here.chunk_by(|a, b| a.0 == b.0) {
                let id = group[0].0 as usize;
                if out.postings.len() <= id {
                    out.postings.resize_with(id + 1, Vec::new);
                }
                let at = out.positions.len() as u32;
                out.positions.extend(group.iter().map(|&(_, p)| p));
                out.postings[id].push(Posting { unit, tf: group.len() as u32, at });
            }
            out.units.push(source);
            out.lens.push(len);
            out.tokens += u64::from(len);
        }
        out
    }

    /// Calls `sink` for every unit holding at least one of `terms`, in unit
    /// order, with its index, the count of each term and, when `positions`
    /// is set, each term's positions (the same counts and positions that
    /// analysing its text would give).
    pub fn each_match(&self, terms: &[String], positions: bool, mut sink: impl FnMut(u32, &[u32], &[Vec<u32>])) {
        let lists: Vec<&[Posting]> = terms
            .iter()
            .map(|t| self.vocabulary.get(t).map_or(&[][..], |&id| &self.postings[id as usize][..]))
            .collect();
        let mut next = vec![0usize; terms.len()];
        let mut tfs = vec![0u32; terms.len()];
        let mut at: Vec<Vec<u32>> = vec![Vec::new(); terms.len()];
        loop {
            let unit = lists.iter().zip(&next).filter_map(|(list, &i)| list.get(i).map(|p| p.unit)).min();
            let Some(unit) = unit else { break };
            for (t, list) in lists.iter().enumerate() {
                tfs[t] = 0;
                at[t].clear();
                if let Some(p) = list.get(next[t]).filter(|p| p.unit == unit) {
                    tfs[t] = p.tf;
                    if positions {
                        at[t].extend_from_slice(&self.positions[p.at as usize..][..p.tf as usize]);
                    }
                    next[t] += 1;
                }
            }
            sink(unit, &tfs, &at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_give_what_analysing_the_text_gives() {
        let texts = [
            "Moved parseConfig into src/config/parse.rs; the parser parses configs.",
            "Retries: refund retries back off, retry_refund retries twice.",
            "Nothing in common here",
            "config config CONFIG parse_config",
        ];
        let analyzed = MemoryIndex::of(texts.iter().enumerate().map(|(i, t)| (Source::Fact(i as u32), t.to_string())));
        let terms: Vec<String> = ["config", "pars", "retri", "parseconfig", "absent"].map(String::from).to_vec();
        let mut seen = Vec::new();
        analyzed.each_match(&terms, true, |unit, tfs, positions| seen.push((unit, tfs.to_vec(), positions.to_vec())));
        let mut expected = Vec::new();
        for (unit, text) in texts.iter().enumerate() {
            let mut tfs = vec![0u32; terms.len()];
            let mut positions = vec![Vec::new(); terms.len()];
            let mut len = 0;
            Analyzer::documents().each(text, |token| {
                len += 1;
                if let Some(t) = terms.iter().position(|t| *t == token.text) {
                    tfs[t] += 1;
                    positions[t].push(token.position as u32);
                }
            });
            assert_eq!(analyzed.lens[unit], len);
            if tfs.iter().any(|&tf| tf > 0) {
                expected.push((unit as u32, tfs, positions));
            }
        }
        assert_eq!(seen, expected);
        assert_eq!(seen.len(), 3, "{seen:?}");
    }
}

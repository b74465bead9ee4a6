//! The derived index opened for reading: the segments of one commit, the
//! manifest committed with them and each segment's fast fields, kept open by a
//! warm searcher until another commit replaces them. Reading its postings for
//! a query is [`super::postings`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tantivy::columnar::Column;
use tantivy::index::SegmentReader;
use tantivy::{Index, ReloadPolicy, Searcher, Term};

use super::manifest::Manifest;
use super::schema::{Fields, schema};

/// An index opened for reading: the segments of one commit and the manifest
/// committed with them.
pub struct OpenIndex {
    pub manifest: Manifest,
    pub segments: Vec<SegmentReader>,
    /// The same segments as tantivy's searcher, which its own top-k search
    /// (the pruned first stage, [`super::prune`]) needs.
    pub(super) searcher: Searcher,
    /// Each segment's fast fields.
    pub(super) columns: Vec<Columns>,
    pub fields: Fields,
    /// `meta.json` as it was when opened: a change means a new commit.
    stamp: Option<(u64, u128)>,
    dir: PathBuf,
    /// Document frequencies already looked up. Feedback asks for every word
    /// of the best units, one dictionary lookup per segment each, and the
    /// same everyday words come back query after query; the segments never
    /// change while this is open.
    freqs: Mutex<HashMap<String, u64>>,
}

/// Forget the remembered frequencies past this many words.
const FREQS_MAX: usize = 100_000;

fn stamp(dir: &Path) -> Option<(u64, u128)> {
    let meta = std::fs::metadata(dir.join("meta.json")).ok()?;
    let mtime = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos();
    Some((meta.len(), mtime))
}

impl OpenIndex {
    /// Opens the index in `dir`. `None` when there is none, or when it cannot
    /// be used (another format, damaged): recall then scans, and the next
    /// write rebuilds it.
    pub fn open(dir: &Path) -> Option<OpenIndex> {
        if !dir.join("meta.json").is_file() {
            return None;
        }
        // A commit by another process between reading meta.json and opening
        // the segments can remove a merged-away segment: try again once.
        (0..2).find_map(|_| OpenIndex::try_open(dir).ok().flatten())
    }

    fn try_open(dir: &Path) -> tantivy::Result<Option<OpenIndex>> {
        let stamp = stamp(dir);
        let index = Index::open_in_dir(dir)?;
        let metas = index.load_metas()?;
        let Some(manifest) = metas.payload.as_deref().and_then(|p| Manifest::load(dir, p)) else {
            return Ok(None);
        };
        let (expected, fields) = schema();
        if index.schema() != expected {
            return Ok(None);
        }
        // The reader reads `meta.json` again: a commit in between gives it
        // other segments than the manifest's, and the opening is tried again.
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        let searcher = reader.searcher();
        let segments = searcher.segment_readers().to_vec();
        let same = segments.len() == metas.segments.len()
            && segments.iter().zip(&metas.segments).all(|(s, m)| s.segment_id() == m.id());
        if !same {
            return Err(tantivy::TantivyError::InternalError("a commit happened while opening".into()));
        }
        let freqs = Mutex::new(HashMap::new());
        let columns = segments.iter().map(Columns::open).collect::<tantivy::Result<Vec<_>>>()?;
        Ok(Some(OpenIndex { manifest, segments, searcher, columns, fields, stamp, dir: dir.to_path_buf(), freqs }))
    }

    /// The commit this was opened at, as its `meta.json` stands on disk.
    pub(super) fn commit(&self) -> Option<(u64, u128)> {
        self.stamp
    }

    /// Whether no commit happened since this was opened.
    pub fn is_current(&self) -> bool {
        stamp(&self.dir) == self.stamp
    }

    /// How many documents hold `term`, deleted and stale ones included: an
    /// estimate, good enough to tell a term that is nearly everywhere.
    pub fn doc_freq(&self, term: &str) -> u64 {
        self.count_past(term, u64::MAX)
    }

    /// Whether more than `n` documents hold `term` (counted as
    /// [`OpenIndex::doc_freq`] counts): a word found nearly everywhere is
    /// known after the largest segment or two, not one lookup per segment.
    pub fn holds_more_than(&self, term: &str, n: u64) -> bool {
        self.count_past(term, n) > n
    }

    /// How many documents hold `term`, asking the largest segments first and
    /// stopping once the count passes `stop`; a whole count is remembered.
    fn count_past(&self, term: &str, stop: u64) -> u64 {
        if let Some(&n) = self.freqs.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(term) {
            return n;
        }
        let key = Term::from_field_text(self.fields.text, term);
        let mut order: Vec<&SegmentReader> = self.segments.iter().collect();
        order.sort_by_key(|s| std::cmp::Reverse(s.max_doc()));
        let mut n = 0u64;
        for segment in order {
            n += segment.inverted_index(self.fields.text).ok().and_then(|i| i.doc_freq(&key).ok()).map_or(0, u64::from);
            if n > stop {
                return n;
            }
        }
        let mut freqs = self.freqs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if freqs.len() >= FREQS_MAX {
            freqs.clear();
        }
        freqs.insert(term.to_string(), n);
        n
    }

    /// The index folder.
    pub(super) fn dir(&self) -> &Path {
        &self.dir
    }
}

/// A segment's fast fields, opened once with the index: opening a column
/// reads its block headers, which is worth doing once, not per query.
pub struct Columns {
    pub(super) sid: Column<u64>,
    pub(super) turn: Column<u64>,
    pub(super) line: Column<u64>,
    pub(super) offset: Column<u64>,
    pub(super) len: Column<u64>,
    pub(super) ts: Column<i64>,
    pub(super) role: Column<u64>,
}

impl Columns {
    pub fn open(segment: &SegmentReader) -> tantivy::Result<Columns> {
        let ff = segment.fast_fields();
        Ok(Columns {
            sid: ff.u64("sid")?,
            turn: ff.u64("turn")?,
            line: ff.u64("line")?,
            offset: ff.u64("offset")?,
            len: ff.u64("len")?,
            ts: ff.i64("ts")?,
            role: ff.u64("role")?,
        })
    }
}

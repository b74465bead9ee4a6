//! Writing the derived index: a full rebuild, or a refresh that indexes the
//! session files that are new or changed and drops the ones that left, with
//! the [`Progress`] a long build reports to. See [`super::schema`] for what
//! the index holds and how its commit records what it covers.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;
use tantivy::indexer::UserOperation;
use tantivy::{Index, IndexWriter, TantivyDocument, Term};

use super::listing::{SessionFile, list_sessions};
use super::manifest::{FileEntry, Manifest};
use super::open_index::OpenIndex;
use super::scan;
use super::schema::{ARENA_BYTES, DIR_NAME, FORMAT, Fields, TOKENIZER, index_dir, index_error, schema};
use super::tokenize::{Analyzer, count_tokens};
use crate::error::{Error, IoContext, Result};
use crate::store::Store;

/// Hears how far a long job (building the index) has got. The engine does no
/// terminal output of its own; the command line draws a progress bar.
pub trait Progress: Send {
    /// A job of `total` units (bytes of session files) begins.
    fn start(&mut self, _what: &str, _total: u64) {}
    fn advance(&mut self, _units: u64) {}
    fn finish(&mut self) {}
}

/// A [`Progress`] that ignores everything.
pub struct Quiet;
impl Progress for Quiet {}

/// What an index build or refresh did.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct IndexReport {
    /// Session files (re)indexed.
    pub indexed: usize,
    /// Files dropped because they left the store.
    pub removed: usize,
    /// Files already up to date.
    pub unchanged: usize,
    /// Turns in the index afterwards.
    pub turns: u64,
    /// Bytes of session files read.
    pub bytes: u64,
    /// Session files that could not be read as sessions (skipped; recall
    /// reports them when it scans).
    pub skipped: usize,
}

/// Throws the index away and builds it again from the session files. The new
/// index is built beside the old one and swapped in, so a recall running
/// meanwhile sees one or the other. Under the project's write lock, like
/// every write: a session forgotten meanwhile cannot come back through a
/// build that read it before it went.
pub fn rebuild_index(store: &Store, progress: &mut dyn Progress) -> Result<IndexReport> {
    let _lock = store.lock()?;
    let live = index_dir(store);
    let cache = store.cache_dir();
    let fresh = cache.join(format!("{DIR_NAME}.build-{}", std::process::id()));
    if fresh.exists() {
        std::fs::remove_dir_all(&fresh).at(&fresh)?;
    }
    let files = list_sessions(store)?;
    let report = write(&fresh, &files, Existing::Replace, progress)?;
    let old = cache.join(format!("{DIR_NAME}.old-{}", std::process::id()));
    if live.exists() {
        std::fs::rename(&live, &old).at(&live)?;
    }
    std::fs::rename(&fresh, &live).at(&fresh)?;
    if old.exists() {
        std::fs::remove_dir_all(&old).at(&old)?;
    }
    Ok(report)
}

/// Brings the index up to date with the session files: indexes new and
/// changed files, drops removed ones. Cheap when nothing changed. Called
/// after import and seal, under the project's write lock; recall calls it
/// too when memory is on and no one else is writing.
pub fn refresh_index(store: &Store, progress: &mut dyn Progress) -> Result<IndexReport> {
    let _lock = store.lock()?;
    let files = list_sessions(store)?;
    write(&index_dir(store), &files, Existing::Update, progress)
}

/// What [`write`] does with an index already in its folder.
#[derive(Clone, Copy)]
pub(crate) enum Existing {
    /// Opens it and brings it up to date (or starts over when it is unusable).
    Update,
    /// Ignores it: builds a new index from nothing.
    Replace,
}

/// Updates (or, with [`Existing::Replace`], creates) the index in `dir` for
/// `files`.
pub(crate) fn write(
    dir: &Path,
    files: &[SessionFile],
    existing: Existing,
    progress: &mut dyn Progress,
) -> Result<IndexReport> {
    let current = match existing {
        Existing::Update => OpenIndex::open(dir),
        Existing::Replace => None,
    };
    let mut manifest = match &current {
        Some(open) => open.manifest.clone(),
        None => Manifest { format: FORMAT, next_key: 0, files: BTreeMap::new() },
    };
    let stale: Vec<&SessionFile> =
        files.iter().filter(|f| !manifest.files.get(&f.id).is_some_and(|e| f.matches(e))).collect();
    let gone: Vec<String> =
        manifest.files.keys().filter(|id| files.binary_search_by(|f| f.id.cmp(id)).is_err()).cloned().collect();
    let mut report =
        IndexReport { unchanged: files.len() - stale.len(), removed: gone.len(), ..IndexReport::default() };
    if current.is_some() && stale.is_empty() && gone.is_empty() {
        report.turns = manifest.files.values().map(|e| e.docs).sum();
        return Ok(report);
    }
    let (index, fields) = match current {
        Some(_) => open_existing(dir)?,
        None => create_new(dir, &mut manifest)?,
    };
    let (mut writer, threads) = writer_for(&index, dir, stale.len())?;
    for id in stale.iter().map(|f| &f.id).chain(&gone) {
        if let Some(entry) = manifest.files.remove(id.as_str()) {
            writer.delete_term(Term::from_field_u64(fields.sid, entry.key));
        }
    }
    let total: u64 = stale.iter().map(|f| f.size).sum();
    progress.start("indexing sessions", total);
    let first_key = manifest.next_key;
    manifest.next_key += stale.len() as u64;
    let progress_cell = Mutex::new(&mut *progress);
    // Commit every CHUNK_BYTES of input: tantivy queues whole files without
    // bounding their size, and a commit waits for the queue to drain, which
    // keeps memory flat. Each commit records exactly the files indexed so
    // far, so an interrupted build leaves a smaller index, never a wrong one.
    let mut start = 0;
    while start < stale.len() {
        let end = chunk_end(&stale, start);
        let done = index_chunk(&writer, &fields, &stale, start..end, first_key, threads, &progress_cell)?;
        report.indexed += done.entries.len();
        report.skipped += done.skipped;
        manifest.files.extend(done.entries);
        commit(&mut writer, &manifest, dir)?;
        start = end;
    }
    if stale.is_empty() {
        // Only removals: commit the deletions.
        commit(&mut writer, &manifest, dir)?;
    }
    progress_cell.into_inner().expect("threads joined").finish();
    report.bytes = total;
    report.turns = manifest.files.values().map(|e| e.docs).sum();
    writer.wait_merging_threads().map_err(|e| index_error(dir, e))?;
    Ok(report)
}

/// The index at `dir`, opened to be written into.
fn open_existing(dir: &Path) -> Result<(Index, Fields)> {
    let (_, fields) = schema();
    let index = Index::open_in_dir(dir).map_err(|e| index_error(dir, e))?;
    index.tokenizers().register(TOKENIZER, Analyzer::documents().tantivy());
    Ok((index, fields))
}

/// A new, empty index at `dir` (an unusable folder there is removed first,
/// and the manifest starts over).
fn create_new(dir: &Path, manifest: &mut Manifest) -> Result<(Index, Fields)> {
    let (schema, fields) = schema();
    if dir.exists() {
        // Unusable (another format, or damaged): start over.
        std::fs::remove_dir_all(dir).at(dir)?;
    }
    std::fs::create_dir_all(dir).at(dir)?;
    *manifest = Manifest { format: FORMAT, next_key: 0, files: BTreeMap::new() };
    let index = Index::create_in_dir(dir, schema).map_err(|e| index_error(dir, e))?;
    index.tokenizers().register(TOKENIZER, Analyzer::documents().tantivy());
    Ok((index, fields))
}

/// Where the chunk of `stale` that starts at `start` ends: at least one
/// file, and as many more as fit in [`CHUNK_BYTES`].
fn chunk_end(stale: &[&SessionFile], start: usize) -> usize {
    let mut end = start;
    let mut bytes = 0;
    while end < stale.len() && (end == start || bytes + stale[end].size <= CHUNK_BYTES) {
        bytes += stale[end].size;
        end += 1;
    }
    end
}

/// Indexes the files `stale[range]`, file `i` under key `first_key + i`, on
/// `threads` threads that each take the next file when done with one; each
/// file's size is reported to `progress` once it is done. Returns the
/// entries of the files indexed and how many were skipped, or the first
/// error a thread met.
fn index_chunk(
    writer: &IndexWriter<TantivyDocument>,
    fields: &Fields,
    stale: &[&SessionFile],
    range: std::ops::Range<usize>,
    first_key: u64,
    threads: usize,
    progress: &Mutex<&mut dyn Progress>,
) -> Result<Done> {
    let done: Mutex<Done> = Mutex::new(Done::default());
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let next = AtomicUsize::new(range.start);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= range.end {
                        break;
                    }
                    let file = stale[i];
                    let key = first_key + i as u64;
                    match index_file(writer, fields, file, key) {
                        Ok(Some(entry)) => {
                            done.lock().expect("no panics while held").entries.push((file.id.clone(), entry))
                        }
                        Ok(None) => done.lock().expect("no panics while held").skipped += 1,
                        Err(e) => {
                            failure.lock().expect("no panics while held").get_or_insert(e);
                            break;
                        }
                    }
                    progress.lock().expect("no panics while held").advance(file.size);
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().expect("threads joined") {
        return Err(e);
    }
    Ok(done.into_inner().expect("threads joined"))
}

/// A writer for `stale` files: two threads at most (one for a handful of
/// files), segments merged four at a time rather than tantivy's eight, since
/// every one-off recall looks each word up once per segment and on a large
/// store pays a page fault or two for each lookup.
fn writer_for(index: &Index, dir: &Path, stale: usize) -> Result<(IndexWriter<TantivyDocument>, usize)> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 2);
    let threads = if stale < 8 { 1 } else { threads };
    let writer: IndexWriter<TantivyDocument> =
        index.writer_with_num_threads(threads, threads * ARENA_BYTES).map_err(|e| index_error(dir, e))?;
    let mut policy = tantivy::indexer::LogMergePolicy::default();
    policy.set_min_num_segments(MERGE_SEGMENTS);
    writer.set_merge_policy(Box::new(policy));
    Ok((writer, threads))
}

/// How many segments of a size are merged into one.
const MERGE_SEGMENTS: usize = 4;

/// Input indexed between two commits.
const CHUNK_BYTES: u64 = 32 * 1024 * 1024;

/// Commits what the writer holds, with the manifest that says what it
/// covers: the manifest file first, then the commit that names it, then
/// the manifests no commit names any more are removed.
fn commit(writer: &mut IndexWriter<TantivyDocument>, manifest: &Manifest, dir: &Path) -> Result<()> {
    let committed = manifest.save(dir)?;
    let payload = serde_json::to_string(&committed).map_err(|e| index_error(dir, e))?;
    let mut commit = writer.prepare_commit().map_err(|e| index_error(dir, e))?;
    commit.set_payload(&payload);
    commit.commit().map_err(|e| index_error(dir, e))?;
    Manifest::remove_others(dir, &committed);
    Ok(())
}

/// What the indexing threads report back.
#[derive(Default)]
struct Done {
    entries: Vec<(String, FileEntry)>,
    /// Files that are not sessions.
    skipped: usize,
}

/// Indexes one session file as one batch. `None` when it is not a session
/// (recall's scan reports why).
fn index_file(
    writer: &IndexWriter<TantivyDocument>,
    fields: &Fields,
    file: &SessionFile,
    key: u64,
) -> Result<Option<FileEntry>> {
    let bytes = match std::fs::read(&file.path) {
        Ok(b) => b,
        // Removed since it was listed: the next refresh drops it.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).at(&file.path),
    };
    // The file may have grown since it was listed: record what was read.
    let size = bytes.len() as u64;
    let Ok(parsed) = scan::parse_session(&file.path, &bytes) else { return Ok(None) };
    let mut tokens_total = 0u64;
    let mut ops = Vec::with_capacity(parsed.turns.len());
    for turn in &parsed.turns {
        let len = count_tokens(&turn.text);
        tokens_total += u64::from(len);
        let mut doc = TantivyDocument::default();
        doc.add_u64(fields.sid, key);
        doc.add_u64(fields.turn, u64::from(turn.turn));
        doc.add_u64(fields.line, turn.line as u64);
        doc.add_u64(fields.offset, turn.offset);
        doc.add_u64(fields.len, u64::from(len));
        doc.add_i64(fields.ts, turn.ts.as_second());
        doc.add_u64(fields.role, turn.role.code());
        doc.add_text(fields.text, &turn.text);
        ops.push(UserOperation::Add(doc));
    }
    let docs = ops.len() as u64;
    writer.run(ops).map_err(|e| index_error(&file.path, e))?;
    // Re-check the time only now: a write during the read changes it, and
    // then the entry will not match and the file is simply indexed again.
    let mtime = std::fs::metadata(&file.path)
        .ok()
        .filter(|m| m.len() == size)
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Ok(Some(FileEntry { key, size, mtime, docs, tokens: tokens_total, meta: parsed.meta }))
}

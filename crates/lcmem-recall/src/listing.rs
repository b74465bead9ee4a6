//! The store's session files as they are right now (the freshness check), so
//! that a file newer than the index is scanned, never missed.
//!
//! A one-off recall lists the sessions folder and stats every file, and so
//! does a searcher by default, before every answer. A long-lived searcher
//! (see [`super::Searcher::watching`]) keeps the listing and a [`Watch`] on
//! the folder: the watch is set up *before* the full listing, so any change
//! from that moment on is reported by the watch, and each later answer only
//! stats the files the watch names. When there is no watch (not asked for,
//! another system, a folder that does not exist yet, the watch limit reached)
//! or the watch loses track (its queue overflowed, the folder was moved or
//! removed, a read failed), the next answer lists everything again, exactly
//! as a one-off recall does.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::manifest::FileEntry;
use super::open_index::OpenIndex;
use super::os::{Changes, Watch};
use crate::error::{IoContext, Result};
use crate::store::Store;

/// A session file as it is on disk now.
#[derive(Debug, Clone)]
pub struct SessionFile {
    pub id: String,
    pub path: PathBuf,
    pub size: u64,
    pub mtime: u128,
}

impl SessionFile {
    /// Whether the index's entry describes the file as it is now.
    pub fn matches(&self, entry: &FileEntry) -> bool {
        entry.size == self.size && entry.mtime == self.mtime
    }
}

/// The session id a folder entry's name stands for, if it is a session file.
pub(super) fn session_id(name: &std::ffi::OsStr) -> Option<&str> {
    let id = name.to_str()?.strip_suffix(".jsonl")?;
    crate::session::validate_id(id).is_ok().then_some(id)
}

impl SessionFile {
    /// A session file from its metadata, taken without following links (as a
    /// folder listing gives it); `None` when it is not a regular file.
    pub(super) fn from_metadata(id: &str, path: PathBuf, meta: &std::fs::Metadata) -> Option<SessionFile> {
        if !meta.is_file() {
            return None;
        }
        let mtime =
            meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
        Some(SessionFile { id: id.to_string(), path, size: meta.len(), mtime })
    }
}

/// Lists the store's session files with their size and modification time.
pub fn list_sessions(store: &Store) -> Result<Vec<SessionFile>> {
    let dir = store.dir();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).at(dir),
    };
    let mut named = Vec::new();
    for entry in entries {
        let entry = entry.at(dir)?;
        let name = entry.file_name();
        if let Some(id) = session_id(&name) {
            named.push((id.to_string(), entry));
        }
    }
    // One stat per file (relative to the open folder) is what a full listing
    // costs; on a large store two threads halve it.
    let stat = |chunk: &[(String, std::fs::DirEntry)]| -> Vec<SessionFile> {
        chunk
            .iter()
            .filter_map(|(id, entry)| SessionFile::from_metadata(id, entry.path(), &entry.metadata().ok()?))
            .collect()
    };
    let mut files = if named.len() < 2_000 {
        stat(&named)
    } else {
        let (a, b) = named.split_at(named.len() / 2);
        std::thread::scope(|scope| {
            let other = scope.spawn(|| stat(b));
            let mut files = stat(a);
            files.extend(other.join().expect("stat does not panic"));
            files
        })
    };
    files.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(files)
}

/// The file of session `id` in the sessions folder `dir`, built in one
/// allocation: a listing taken from the manifest builds 10,000 of them.
fn session_path(dir: &Path, id: &str) -> PathBuf {
    let mut path = std::ffi::OsString::with_capacity(dir.as_os_str().len() + id.len() + 7);
    path.push(dir);
    path.push("/");
    path.push(id);
    path.push(".jsonl");
    PathBuf::from(path)
}

/// The sessions folder's modification time, in seconds and nanoseconds.
fn folder_time(dir: &Path) -> Option<(i64, i64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(dir).ok()?;
    Some((meta.mtime(), meta.mtime_nsec()))
}

/// The file beside the index that says when its manifest lists the session
/// files exactly as they are (see [`Listing::current`]).
const TRUSTED: &str = "listing.json";

/// What [`TRUSTED`] records: the sessions folder's time, and the index
/// commit (its `meta.json`'s length and time) whose manifest matched every
/// session file while the folder had that time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Trusted {
    folder: (i64, i64),
    commit: (u64, u128),
}

/// How long before a listing the folder's time must lie for the listing to
/// be trusted later: the clock a file system stamps times with moves in
/// ticks of a few milliseconds, and a change in the same tick as the last
/// one would leave the folder's time as it was.
const SETTLED_NANOS: i128 = 1_000_000_000;

/// The session files as of the last answer, and the watch that keeps them
/// current when there is one.
#[derive(Default)]
pub(super) struct Listing {
    files: Vec<SessionFile>,
    /// Whether to keep a watch on the folder between answers.
    watching: bool,
    /// `None` until the first listing, and again after the watch lost track;
    /// always `None` when not watching.
    watch: Option<Watch>,
    /// Changes whenever `files` may have: what was built from the listing
    /// is rebuilt then.
    generation: u64,
    /// The folder's time as read just before the last full listing, when
    /// it was settled then (see [`SETTLED_NANOS`]).
    listed_at: Option<(i64, i64)>,
    /// What this listing last found in, or wrote to, [`TRUSTED`]: a warm
    /// searcher does not read the file again to learn it says the same.
    recorded: Option<Trusted>,
}

impl Listing {
    /// A listing that keeps a watch on the folder, for a long-lived searcher.
    pub fn watching() -> Listing {
        Listing { watching: true, ..Listing::default() }
    }

    /// The store's session files as they are now, in id order.
    ///
    /// Without a watch this is a full listing (a stat per file), except when
    /// `index` lists them exactly: a listing once found every session file
    /// as the index's manifest has it, and recorded so beside the index
    /// ([`Listing::trust`]) with the sessions folder's time, and the folder
    /// still has that time. The store's writers change that time whenever
    /// they add to a session file in place (creating, replacing and removing
    /// a file change it anyway), so one stat of the folder stands for a stat
    /// of every file. A session file appended to by hand, by anything but
    /// lcmem, is seen at the next full listing: the next write of the index
    /// (import, seal, `lcmem index`), or any change to the folder.
    pub fn current(&mut self, store: &Store, index: Option<&OpenIndex>) -> Result<&[SessionFile]> {
        let dir = store.dir();
        if self.watch.is_none() && !self.watching && index.is_some_and(|i| self.trusted(store, i)) {
            return Ok(&self.files);
        }
        let changes = match &mut self.watch {
            Some(watch) => watch.drain(),
            None => Changes::Lost,
        };
        match changes {
            Changes::Names(mut names) => {
                names.sort_unstable();
                names.dedup();
                for name in &names {
                    if let Some(id) = session_id(name) {
                        self.restat(dir, id);
                    }
                }
            }
            Changes::Lost => self.relist(store)?,
        }
        Ok(&self.files)
    }

    /// The listing as of the last [`Listing::current`].
    pub fn files(&self) -> &[SessionFile] {
        &self.files
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Watches the folder (when watching), then lists it in full. In that
    /// order: a change made while the listing runs is reported by the watch at
    /// the next answer, at worst stat'ed twice.
    fn relist(&mut self, store: &Store) -> Result<()> {
        self.watch = if self.watching { Watch::new(store.dir()) } else { None };
        self.generation += 1;
        let now = crate::ambient::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        self.listed_at = folder_time(store.dir())
            .filter(|&(s, n)| (now as i128) - (i128::from(s) * 1_000_000_000 + i128::from(n)) > SETTLED_NANOS);
        match list_sessions(store) {
            Ok(files) => {
                self.files = files;
                Ok(())
            }
            Err(e) => {
                self.watch = None;
                Err(e)
            }
        }
    }

    /// Takes the files from the index's manifest when [`TRUSTED`] says it
    /// lists them as they are; `false` (and nothing changed) otherwise.
    fn trusted(&mut self, store: &Store, index: &OpenIndex) -> bool {
        let Ok(raw) = std::fs::read(index.dir().join(TRUSTED)) else { return false };
        let Ok(trusted) = serde_json::from_slice::<Trusted>(&raw) else { return false };
        if Some(trusted.commit) != index.commit() || Some(trusted.folder) != folder_time(store.dir()) {
            return false;
        }
        self.recorded = Some(trusted);
        let dir = store.dir();
        let same = self.files.len() == index.manifest.files.len()
            && self.files.iter().zip(&index.manifest.files).all(|(f, (id, e))| f.id == *id && f.matches(e));
        if !same {
            self.generation += 1;
            self.files = index
                .manifest
                .files
                .iter()
                .map(|(id, e)| SessionFile {
                    id: id.clone(),
                    path: session_path(dir, id),
                    size: e.size,
                    mtime: e.mtime,
                })
                .collect();
        }
        true
    }

    /// Records beside the index that its manifest lists the session files
    /// as they are, when the last full listing found exactly that and the
    /// folder's time was settled before it began. Only a cache: failing to
    /// write it costs the next one-off recall a full listing. Written under
    /// the project's write lock, and so never while memory is off.
    pub fn trust(&mut self, store: &Store, index: &OpenIndex) {
        let (Some(folder), Some(commit)) = (self.listed_at, index.commit()) else { return };
        let trusted = Trusted { folder, commit };
        if self.recorded == Some(trusted) || folder_time(store.dir()) != Some(folder) {
            return;
        }
        let path = index.dir().join(TRUSTED);
        if std::fs::read(&path).ok().and_then(|raw| serde_json::from_slice::<Trusted>(&raw).ok()) != Some(trusted) {
            let Ok(Some(_lock)) = store.try_lock() else { return };
            let json = serde_json::to_vec(&trusted).expect("serialises");
            if crate::jsonl::atomic_write(&path, &json).is_err() {
                return;
            }
        }
        self.recorded = Some(trusted);
    }

    /// Brings one file's entry up to date: added, changed or gone.
    fn restat(&mut self, dir: &Path, id: &str) {
        let path = session_path(dir, id);
        let now = std::fs::symlink_metadata(&path).ok().and_then(|m| SessionFile::from_metadata(id, path, &m));
        self.generation += 1;
        let at = self.files.binary_search_by(|f| f.id.as_str().cmp(id));
        match (at, now) {
            (Ok(i), Some(file)) => self.files[i] = file,
            (Ok(i), None) => {
                self.files.remove(i);
            }
            (Err(i), Some(file)) => self.files.insert(i, file),
            (Err(_), None) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids and sizes a listing gives.
    fn seen(files: &[SessionFile]) -> Vec<(String, u64)> {
        files.iter().map(|f| (f.id.clone(), f.size)).collect()
    }

    /// Whether it watches or lists every time, a listing gives what a full
    /// listing gives, however the folder changed since the last answer.
    #[test]
    fn watching_or_not_a_listing_is_what_the_folder_holds() {
        let (_dir, store) = crate::store::temp_store();
        let write = |id: &str, text: &str| std::fs::write(store.session_path(id), text).unwrap();
        write("2026-10-01-a", "one\n");
        write("2026-10-01-b", "two\n");
        let mut listings = [Listing::default(), Listing::watching()];
        let changes: [&dyn Fn(); 4] =
            [&|| {}, &|| write("2026-10-01-c", "three\n"), &|| write("2026-10-01-a", "one\nand more\n"), &|| {
                std::fs::remove_file(store.session_path("2026-10-01-b")).unwrap()
            }];
        for change in changes {
            change();
            let expected = seen(&list_sessions(&store).unwrap());
            for listing in &mut listings {
                assert_eq!(seen(listing.current(&store, None).unwrap()), expected);
            }
        }
        assert!(listings[0].watch.is_none(), "a listing watched without being asked to");
    }

    /// Once a recall found the index listing every file as it is, and the
    /// sessions folder's time was settled, the next one-off recall stats no
    /// session file: a line appended by hand is not seen (which shows the
    /// trusted listing was used), until one of the store's own writes moves
    /// the folder's time on; then it is, with the store's own line.
    #[test]
    fn a_settled_folder_is_trusted_until_the_store_writes() {
        use std::time::{Duration, SystemTime};

        use crate::{Query, Quiet, Searcher, refresh_index};

        let (_dir, store) = crate::store::temp_store();
        let session = lcmem_test_support::SessionFile::new("2026-10-01-a", "2026-10-01T09:00:00Z")
            .title("Parser")
            .message("user", "alpha parser work", "2026-10-01T09:01:00Z");
        store.import_bytes(Path::new("a.jsonl"), session.bytes()).unwrap();
        refresh_index(&store, &mut Quiet).unwrap();
        let settle = || {
            let past = SystemTime::now() - Duration::from_secs(10);
            std::fs::File::open(store.dir()).unwrap().set_modified(past).unwrap();
        };
        settle();
        let found = |text: &str| Searcher::new(store.clone()).search(&Query::new(text), &mut Quiet).unwrap().hits.len();
        assert_eq!(found("alpha"), 1);
        assert!(super::super::index_dir(&store).join(TRUSTED).is_file(), "the listing was not recorded as trusted");

        let path = store.session_path("2026-10-01-a");
        let line = r#"{"type":"message","role":"user","text":"bravo by hand","ts":"2026-10-01T09:02:00Z"}"#;
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(format!("{line}\n").as_bytes());
        // Rewritten in place: the folder's time stays as it was.
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(found("bravo"), 0, "the file was stat'ed: the trusted listing was not used");

        let lock = store.lock().unwrap();
        let now = "2026-10-02T00:00:00Z".parse().unwrap();
        store.append_status(&lock, "2026-10-01-a", crate::session::Status::Pinned, now).unwrap();
        drop(lock);
        assert_eq!(found("bravo"), 1, "after the store's own append the file was not read again");
    }
}

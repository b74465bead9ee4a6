//! The freshness check: what the store's session files are right now, so
//! that a file newer than the index is scanned, never missed.
//!
//! A one-off recall lists the sessions folder and stats every file. A warm
//! [`super::Searcher`] keeps the listing and a [`Watch`] on the folder: the
//! watch is set up *before* the full listing, so any change from that moment
//! on is reported by the watch, and each later answer only stats the files
//! the watch names. When there is no watch (another system, a folder that does
//! not exist yet, the watch limit reached) or the watch loses track (its queue
//! overflowed, the folder was moved or removed, a read failed), the next
//! answer lists everything again, exactly as a one-off recall does.

use std::path::Path;

use super::index::{self, SessionFile, session_id};
use super::os::{Changes, Watch};
use crate::error::Result;
use crate::store::Store;

/// The session files as of the last answer, and the watch that keeps them
/// current.
#[derive(Default)]
pub(super) struct Listing {
    files: Vec<SessionFile>,
    /// `None` until the first listing, and again after the watch lost track.
    watch: Option<Watch>,
    /// Changes whenever `files` may have: what was built from the listing
    /// is rebuilt then.
    generation: u64,
}

impl Listing {
    /// The store's session files as they are now, in id order.
    pub fn current(&mut self, store: &Store) -> Result<&[SessionFile]> {
        let dir = store.dir();
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

    /// Watches the folder, then lists it in full. In that order: a change
    /// made while the listing runs is reported by the watch at the next
    /// answer, at worst stat'ed twice.
    fn relist(&mut self, store: &Store) -> Result<()> {
        self.watch = Watch::new(store.dir());
        self.generation += 1;
        match index::list_sessions(store) {
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

    /// Brings one file's entry up to date: added, changed or gone.
    fn restat(&mut self, dir: &Path, id: &str) {
        let path = dir.join(format!("{id}.jsonl"));
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

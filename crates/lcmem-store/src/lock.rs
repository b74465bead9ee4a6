//! The project's write lock.
//!
//! One exclusive lock per project serialises every write to its store. It is
//! taken on a dedicated `.lock` file rather than on the data files themselves
//! because atomic rewrites replace a data file's inode: a lock held on the old
//! inode would no longer exclude anyone. The lock is the operating system's
//! (`flock`-style, via std's `File::lock`), so a process that dies releases it.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use crate::error::{IoContext, Result};

/// Proof that the caller holds the project's write lock. Write functions take
/// a `&WriteLock` so that an unlocked write does not compile.
#[derive(Debug)]
pub struct WriteLock {
    _file: File,
    path: PathBuf,
}

impl WriteLock {
    /// Blocks until the lock at `path` is held. The file is created if needed.
    pub fn acquire(path: &Path) -> Result<WriteLock> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).at(dir)?;
        }
        let file = OpenOptions::new().create(true).truncate(false).write(true).open(path).at(path)?;
        file.lock().at(path)?;
        Ok(WriteLock { _file: file, path: path.to_path_buf() })
    }

    /// Takes the lock at `path` if no one holds it; `None` if someone does.
    pub fn try_acquire(path: &Path) -> Result<Option<WriteLock>> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).at(dir)?;
        }
        let file = OpenOptions::new().create(true).truncate(false).write(true).open(path).at(path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(WriteLock { _file: file, path: path.to_path_buf() })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(e).at(path),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file this lock is held on is still the one at its path:
    /// not when the folder was removed meanwhile (a forget clears the cache
    /// folder with the locks in it) and perhaps made again.
    pub fn still_at_its_path(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let (Ok(held), Ok(there)) = (self._file.metadata(), std::fs::metadata(&self.path)) else { return false };
            held.dev() == there.dev() && held.ino() == there.ino()
        }
        #[cfg(not(unix))]
        {
            self.path.exists()
        }
    }
}

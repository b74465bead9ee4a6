//! Logs this process appends to and reads again, kept warm between reads so
//! that a long batch (`lcmem seal --all`) costs what it adds, not the size of
//! the log, each time it looks.
//!
//! What was derived from a log (the facts fold, the sessions the journal
//! names) is kept with the state of the file it was derived from, and is
//! trusted only while the file is exactly that plus what this process itself
//! appended since ([`Registry::appending`]): a stat (device, inode, length,
//! modification time) must match what this process's own last append left.
//! Then only the appended lines are read. Anything else (another process's
//! append, a hand edit, a rewrite, a torn tail) and the log is read whole
//! again: the file stays the only source of truth.

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use crate::error::{IoContext, Result};

/// A file as a stat sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp { dev: meta.dev(), ino: meta.ino(), len: meta.len(), mtime: (meta.mtime(), meta.mtime_nsec()) })
}

/// What is derived from one log, and the file it was derived from.
struct Followed<T> {
    /// The file as the state knows it: what was last read, moved on by each
    /// of this process's own appends.
    trusted: Stamp,
    /// Bytes of the file read (a line end).
    read: u64,
    /// Lines read.
    lines: usize,
    state: T,
}

/// How a state is made from a log and kept up with it.
pub(crate) trait Derived: Sized {
    /// The state of a whole log (`bytes`, whole lines).
    fn whole(path: &Path, bytes: &[u8]) -> Result<Self>;
    /// Takes in whole lines appended after the first `lines` lines.
    fn appended(&mut self, path: &Path, bytes: &[u8], lines: usize) -> Result<()>;
}

/// The warm states of one kind, by log path.
pub(crate) struct Registry<T> {
    logs: Mutex<Option<HashMap<PathBuf, Followed<T>>>>,
}

/// Past this many logs, the warm states are dropped and start again.
const LOGS_MAX: usize = 8;

impl<T: Derived> Registry<T> {
    pub const fn new() -> Registry<T> {
        Registry { logs: Mutex::new(None) }
    }

    /// Runs `append` (this process's own append to the log at `path`),
    /// keeping the warm state trusted when the file was as it knew it.
    pub fn appending<R>(&self, path: &Path, append: impl FnOnce() -> Result<R>) -> Result<R> {
        let before = stamp(path);
        let result = append();
        let after = stamp(path);
        let mut logs = self.logs.lock().unwrap_or_else(PoisonError::into_inner);
        let logs = logs.get_or_insert_with(HashMap::new);
        match (logs.get_mut(path), after) {
            (Some(f), Some(after)) if result.is_ok() && before == Some(f.trusted) => f.trusted = after,
            _ => {
                logs.remove(path);
            }
        }
        result
    }

    /// Runs `f` on the state of the log at `path` as it is now. A log that
    /// does not end in a whole line gets a state for this use only.
    pub fn with<R>(&self, path: &Path, f: impl FnOnce(&mut T) -> R) -> Result<R> {
        let mut logs = self.logs.lock().unwrap_or_else(PoisonError::into_inner);
        let logs = logs.get_or_insert_with(HashMap::new);
        let now = stamp(path);
        let caught_up = match logs.get_mut(path) {
            Some(followed) if Some(followed.trusted) == now => catch_up(path, followed)?,
            _ => false,
        };
        if !caught_up {
            logs.remove(path);
            if logs.len() >= LOGS_MAX {
                logs.clear();
            }
            match read_whole(path)? {
                Ok(followed) => {
                    logs.insert(path.to_path_buf(), followed);
                }
                Err(mut once) => return Ok(f(&mut once)),
            }
        }
        Ok(f(&mut logs.get_mut(path).expect("set above").state))
    }

    /// Whether the log at `path` has a warm state now.
    #[cfg(test)]
    pub fn is_warm(&self, path: &Path) -> bool {
        self.logs.lock().unwrap_or_else(PoisonError::into_inner).as_ref().is_some_and(|l| l.contains_key(path))
    }
}

/// Reads the whole log: a state to keep, or (`Err`) one for this use only,
/// when the file does not end in a whole line or changed while being read.
fn read_whole<T: Derived>(path: &Path) -> Result<std::result::Result<Followed<T>, T>> {
    let before = stamp(path);
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).at(path),
    };
    let state = T::whole(path, &bytes)?;
    match before {
        Some(before)
            if bytes.last().is_none_or(|&b| b == b'\n')
                && stamp(path) == Some(before)
                && bytes.len() as u64 == before.len =>
        {
            let lines = memchr::memchr_iter(b'\n', &bytes).count();
            Ok(Ok(Followed { trusted: before, read: before.len, lines, state }))
        }
        _ => Ok(Err(state)),
    }
}

/// Takes in what was appended since the state last read the file. `false`
/// when what is there is not whole lines following a line end (then the
/// caller reads the log whole).
fn catch_up<T: Derived>(path: &Path, followed: &mut Followed<T>) -> Result<bool> {
    let len = followed.trusted.len;
    if len == followed.read {
        return Ok(true);
    }
    if len < followed.read || followed.read == 0 {
        return Ok(false);
    }
    let mut file = std::fs::File::open(path).at(path)?;
    // One byte before the new lines: the end of the last line read.
    file.seek(SeekFrom::Start(followed.read - 1)).at(path)?;
    let want = len - followed.read + 1;
    let mut bytes = Vec::with_capacity(want as usize);
    file.take(want).read_to_end(&mut bytes).at(path)?;
    if bytes.len() as u64 != want || bytes[0] != b'\n' || bytes.last() != Some(&b'\n') {
        return Ok(false);
    }
    let tail = &bytes[1..];
    followed.state.appended(path, tail, followed.lines)?;
    followed.lines += memchr::memchr_iter(b'\n', tail).count();
    followed.read = len;
    Ok(true)
}

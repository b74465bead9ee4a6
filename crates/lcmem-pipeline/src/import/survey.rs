//! What a file holds, read from its start: its format, the session it
//! becomes and the folder it was recorded in. `lcmem import` counts and
//! shows this before it writes anything, and a catch-up learns whose a
//! transcript is, without converting every transcript whole.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::convert::convert;
use crate::emit::converted::Format;
use super::detect::detect;
use crate::error::{IoContext, Result};

/// How much of a file is read: its start, where every format records the
/// working folder and the session's id.
const HEAD: u64 = 256 * 1024;
/// A file written as one JSON document (which has no lines to stop after) is
/// read whole, up to this size.
const WHOLE: u64 = 8 * 1024 * 1024;

/// One file, as its start shows it.
#[derive(Debug, Clone)]
pub struct Surveyed {
    pub path: PathBuf,
    /// `None`: neither a session nor a transcript lcmem knows.
    pub format: Option<Format>,
    /// The id its session has in a store, once its start holds a prompt.
    pub session: Option<String>,
    /// The working folder it records.
    pub cwd: Option<PathBuf>,
    /// Its size, in bytes.
    pub size: u64,
}

/// Reads the start of the file at `path` (all of a small one, or of one JSON
/// document) and says what it holds, as `forced` when given.
pub fn survey(path: &Path, forced: Option<Format>) -> Result<Surveyed> {
    let size = crate::input::check(path)?;
    let mut bytes = Vec::with_capacity(HEAD.min(size) as usize);
    crate::input::open(path)?.take(HEAD).read_to_end(&mut bytes).at(path)?;
    if size > bytes.len() as u64 {
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        bytes.truncate(whole);
    }
    let mut format = forced.or_else(|| detect(&bytes));
    let mut converted = format.map(|f| convert(f, path, &bytes));
    // A document has no lines: its start says nothing.
    let said = converted.as_ref().is_some_and(|c| !c.is_empty());
    if !said && size > bytes.len() as u64 && size <= WHOLE && starts_a_document(&bytes) {
        bytes = crate::input::read(path)?;
        format = forced.or_else(|| detect(&bytes));
        converted = format.map(|f| convert(f, path, &bytes));
    }
    Ok(Surveyed {
        path: path.to_path_buf(),
        format,
        session: converted.as_ref().and_then(|c| c.id.clone()),
        cwd: converted.and_then(|c| c.cwd),
        size,
    })
}

fn starts_a_document(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()).is_some_and(|b| matches!(b, b'{' | b'['))
}

//! Stored sessions that hold lines which are not JSON: a copy imported by an
//! earlier version, which kept such lines in place (an import sets them
//! aside now), or a file edited by hand. `lcmem doctor` lists them, and
//! `lcmem doctor --repair` moves each such line out of the stored copy into
//! the `.torn` sidecar beside it: the copy then holds only lines that parse,
//! and nothing is lost.

use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::jsonl;
use crate::store::Store;

/// A stored session with lines that are not JSON.
#[derive(Debug, Clone)]
pub struct Malformed {
    pub session: String,
    /// Each such line of the stored copy, numbered as in it.
    pub lines: Vec<Diagnostic>,
}

/// Every stored session holding lines that are not JSON, by id.
pub fn malformed(store: &Store) -> Result<Vec<Malformed>> {
    let mut out = Vec::new();
    for session in store.session_ids()? {
        let path = store.session_path(&session);
        let lines: Vec<Diagnostic> = jsonl::read(&path)?
            .into_iter()
            .filter_map(|l| Some(Diagnostic::new(&path, l.number, l.parsed.err()?.plain())))
            .collect();
        if !lines.is_empty() {
            out.push(Malformed { session, lines });
        }
    }
    Ok(out)
}

/// Moves the lines of session `id`'s stored copy that are not JSON into its
/// `.torn` sidecar (first, so that a crash loses nothing), then rewrites the
/// copy without them, atomically. How many lines were moved.
pub fn set_aside_malformed(store: &Store, id: &str) -> Result<usize> {
    let lock = store.lock()?;
    store.refuse_session_link(id)?;
    let path = store.session_path(id);
    let Some(bytes) = jsonl::read_optional(&path)? else { return Ok(0) };
    let problems: Vec<usize> =
        jsonl::read_from(&bytes[..], &path)?.into_iter().filter(|l| l.parsed.is_err()).map(|l| l.number).collect();
    if problems.is_empty() {
        return Ok(0);
    }
    let (mut kept, mut aside) = (Vec::with_capacity(bytes.len()), Vec::new());
    for (number, raw) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        match problems.contains(&(number + 1)) {
            true => aside.push(raw.strip_suffix(b"\n").unwrap_or(raw).to_vec()),
            false => kept.extend_from_slice(raw),
        }
    }
    crate::scrub::set_aside(&lock, &path, &aside)?;
    jsonl::atomic_write(&path, &kept)?;
    Ok(aside.len())
}

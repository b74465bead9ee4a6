//! What lcmem reads from outside its store (transcripts, session files,
//! hook payloads' paths): regular files only, opened without blocking, and
//! read within a bound that does not trust the size a file claims. A pipe
//! would block the reader (and a hook would hold the project's lock while
//! it waits), `/dev/zero` would read until memory runs out, and a sparse
//! file of 100 GB would ask for 100 GB at once.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::error::{Error, IoContext, Result};

/// The largest file lcmem reads: far past any one session (the largest real
/// transcripts are tens of megabytes), well short of this machine's memory.
pub const MAX_BYTES: u64 = 1 << 30;

/// Checks that `path` is a regular file lcmem may read, and returns its size.
pub fn check(path: &Path) -> Result<u64> {
    let meta = std::fs::metadata(path).at(path)?;
    let kind = meta.file_type();
    if !kind.is_file() {
        let what = if kind.is_dir() { "a folder" } else { kind_of(&kind) };
        return Err(Error::NotAFile { path: path.to_path_buf(), what });
    }
    if meta.len() > MAX_BYTES {
        return Err(Error::InputTooLarge { path: path.to_path_buf(), size: meta.len(), max: MAX_BYTES });
    }
    Ok(meta.len())
}

#[cfg(unix)]
fn kind_of(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn kind_of(_: &std::fs::FileType) -> &'static str {
    "not a regular file"
}

/// Opens a checked file without blocking: should it have been swapped for a
/// pipe since [`check`], the open returns at once instead of waiting for a
/// writer.
pub fn open(path: &Path) -> Result<File> {
    check(path)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        const O_NONBLOCK: i32 = 0o4000;
        options.custom_flags(O_NONBLOCK);
    }
    let file = options.open(path).at(path)?;
    // What was opened is what was checked.
    if !file.metadata().at(path)?.is_file() {
        return Err(Error::NotAFile { path: path.to_path_buf(), what: "not a regular file" });
    }
    Ok(file)
}

/// Reads a whole file, at most [`MAX_BYTES`], growing the buffer as bytes
/// come rather than from the size the file claims.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let file = open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes).at(path)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(Error::InputTooLarge { path: path.to_path_buf(), size: bytes.len() as u64, max: MAX_BYTES });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_a_folder_and_a_pipe_are_refused_without_being_read() {
        assert!(matches!(read(Path::new("/dev/zero")), Err(Error::NotAFile { what: "a device", .. })));
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(read(dir.path()), Err(Error::NotAFile { what: "a folder", .. })));
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        if made {
            assert!(matches!(read(&fifo), Err(Error::NotAFile { what: "a named pipe", .. })), "opening it would block");
        }
        let file = dir.path().join("t.jsonl");
        std::fs::write(&file, b"{}\n").unwrap();
        assert_eq!(read(&file).unwrap(), b"{}\n");
    }

    #[test]
    fn a_sparse_file_past_the_bound_is_refused_from_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge.jsonl");
        let file = File::create(&path).unwrap();
        file.set_len(100 << 30).unwrap();
        assert!(matches!(read(&path), Err(Error::InputTooLarge { size, .. }) if size == 100 << 30));
    }
}

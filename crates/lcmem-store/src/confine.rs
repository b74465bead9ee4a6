//! The symlink rule: the store never writes through a symbolic link that
//! leads out of it.
//!
//! The store's folders and files are the engine's, and a user may move,
//! back up or check them into git; a link planted in their place (by a
//! hostile repository's script, or by accident) must not turn an append to
//! the journal into a write to a file elsewhere on the machine. A link that
//! stays inside the store is harmless and allowed; one that leaves it, or
//! dangles (a write would create its target, wherever that is), is refused
//! with [`Error::SymlinkOutside`] before anything is written.

use std::path::{Path, PathBuf};

use crate::error::{Error, IoContext, Result};

/// Fails when `path` is a symbolic link whose target is not inside `inside`
/// (an existing folder). A missing path, or anything that is not a link,
/// passes.
pub fn refuse_link_outside(path: &Path, inside: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {}
        Ok(_) => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).at(path),
    }
    let shown = |target: PathBuf| Error::SymlinkOutside { path: path.to_path_buf(), target };
    let Ok(target) = std::fs::canonicalize(path) else {
        // Dangling: a write would create the target, wherever it is.
        return Err(shown(std::fs::read_link(path).at(path)?));
    };
    let inside = std::fs::canonicalize(inside).at(inside)?;
    if target.starts_with(&inside) { Ok(()) } else { Err(shown(target)) }
}

/// Checks a folder of the store, then each of `files` in it, against the
/// folder `inside` (the project's folder in the store).
pub fn refuse_links_outside(inside: &Path, paths: &[PathBuf]) -> Result<()> {
    paths.iter().try_for_each(|p| refuse_link_outside(p, inside))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_inside_pass_and_links_outside_or_dangling_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("store");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(store.join("real")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(store.join("real"), store.join("inner")).unwrap();
        std::os::unix::fs::symlink(&outside, store.join("out")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("nowhere"), store.join("dangling")).unwrap();
        assert!(refuse_link_outside(&store.join("inner"), &store).is_ok());
        assert!(refuse_link_outside(&store.join("real"), &store).is_ok());
        assert!(refuse_link_outside(&store.join("missing"), &store).is_ok());
        match refuse_link_outside(&store.join("out"), &store) {
            Err(Error::SymlinkOutside { path, target }) => {
                assert_eq!(path, store.join("out"));
                assert_eq!(target, std::fs::canonicalize(&outside).unwrap());
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(refuse_link_outside(&store.join("dangling"), &store), Err(Error::SymlinkOutside { .. })));
    }
}

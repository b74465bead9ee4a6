//! What files hold before they are taken in: [`Memory::survey`], which `lcmem
//! import` shows (and asks about) before it writes anything.

use std::path::{Path, PathBuf};

use super::Memory;
use crate::error::Error;
use crate::import::{Format, Surveyed, session_files, survey};
use crate::recall::Progress;

/// A file to import: what its start holds, and whether it was found in a
/// folder (anything may be there) or named (it was meant).
#[derive(Debug, Clone)]
pub struct Candidate {
    pub seen: Surveyed,
    pub in_folder: bool,
}

/// What the paths a person named hold.
#[derive(Debug, Default)]
pub struct Survey {
    /// Every file named, and every session file found in a folder named, in
    /// the order given. A named file that cannot be read is here too (its
    /// import says why).
    pub candidates: Vec<Candidate>,
    /// What could not be looked at: a folder that cannot be listed or a file
    /// in a folder that cannot be read (each counts as a file not imported).
    pub unreadable: Vec<Error>,
    /// Folders named that hold no session files.
    pub empty_folders: Vec<PathBuf>,
}

/// A folder holds more files than this, and reading their starts shows
/// progress.
const MANY: usize = 50;

impl Memory {
    /// Reads the start of every file in `paths`, and of every session file
    /// (`*.jsonl`, `*.json`) in each folder in `paths`, as `forced` when
    /// given. Writes nothing, and works while memory is off.
    pub fn survey(&self, paths: &[PathBuf], forced: Option<Format>, progress: &mut dyn Progress) -> Survey {
        let mut out = Survey::default();
        for path in paths {
            let in_folder = path.is_dir();
            let files = match in_folder {
                true => session_files(path).unwrap_or_else(|e| {
                    out.unreadable.push(e);
                    Vec::new()
                }),
                false => vec![path.clone()],
            };
            if in_folder && files.is_empty() {
                out.empty_folders.push(path.clone());
            }
            let shown = files.len() > MANY;
            if shown {
                progress.start("reading", files.len() as u64);
            }
            for file in files {
                match survey(&file, forced) {
                    Ok(seen) => out.candidates.push(Candidate { seen, in_folder }),
                    Err(_) if !in_folder => out.candidates.push(Candidate { seen: unread(&file), in_folder }),
                    Err(error) => out.unreadable.push(error),
                }
                if shown {
                    progress.advance(1);
                }
            }
            if shown {
                progress.finish();
            }
        }
        out
    }
}

fn unread(file: &Path) -> Surveyed {
    Surveyed { path: file.to_path_buf(), format: None, session: None, cwd: None, size: 0 }
}

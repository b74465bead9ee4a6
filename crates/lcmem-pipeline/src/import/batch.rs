//! Importing many transcripts at once, each into the project whose folder it
//! was recorded in (`lcmem import --all …`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::config::Scope;
use crate::error::{Error, Result};
use crate::project::{Project, slug_for};
use crate::store::Store;

use super::convert::convert;
use crate::emit::converted::{Converted, Format};
use super::file::{FileReport, store_converted};

/// Where one transcript went.
#[derive(Debug)]
pub enum Placement {
    /// Added to, appended to or already in the store of `project`.
    Stored { project: Project, report: FileReport },
    /// No user prompt in it yet: nothing to import.
    Empty { report: FileReport },
    /// It records no absolute working directory, so it has no project.
    NoProject { report: FileReport },
    /// Memory is off for its project: nothing was written.
    /// Memory is off for the project: `why` is the [`Error::MemoryOff`] that says where.
    MemoryOff { project: Project, why: Error },
}

/// The project a transcript belongs to, from the working directory it
/// recorded. A folder that still exists is resolved like `--project` (to its
/// repository: a worktree or a subfolder goes to the repository's memory), so
/// sessions land where the project's own commands look.
/// A folder that is gone (deleted, or another machine's) cannot be resolved;
/// the recorded path is then taken as the project root, which gives the
/// slug the project had if that path was its top level. A relative path
/// names no folder and gives `None`.
pub fn place(cwd: &Path) -> Option<Project> {
    if !cwd.is_absolute() {
        return None;
    }
    if cwd.exists()
        && let Ok(project) = Project::resolve(cwd)
    {
        return Some(project);
    }
    let root: PathBuf = cwd.components().collect();
    Some(Project { slug: slug_for(&root), root })
}

/// [`place`] for the store under `home`: a folder that still exists is
/// resolved as [`Project::resolve_in`] does, so a store made under the
/// earlier rule is carried over to its repository's slug first.
pub fn place_in(home: &Path, cwd: &Path) -> Option<Project> {
    if cwd.is_absolute()
        && cwd.exists()
        && let Ok(project) = Project::resolve_in(home, cwd)
    {
        return Some(project);
    }
    place(cwd)
}

/// Converts each of `files` from `format` and adds it to the store (under
/// `home`) of the project it was recorded in, calling `on_file` after each
/// one, in order. One file's failure is reported through `on_file` and the
/// rest go on; only memory switched off globally stops the run, with
/// [`Error::MemoryOff`], since then no file may be imported.
pub fn import_all(
    home: &Path,
    format: Format,
    files: &[PathBuf],
    on_file: &mut dyn FnMut(&Path, Result<Placement>),
) -> Result<()> {
    let mut batch = Batch { home, format, projects: HashMap::new(), stores: HashMap::new() };
    for path in files {
        match batch.import(path) {
            Err(error @ Error::MemoryOff { scope: Scope::Global, .. }) => return Err(error),
            result => on_file(path, result),
        }
    }
    Ok(())
}

struct Batch<'a> {
    home: &'a Path,
    format: Format,
    /// Recorded working directory → its project, resolved once.
    projects: HashMap<PathBuf, Option<Project>>,
    /// Project slug → its store, or why memory is off there.
    stores: HashMap<String, std::result::Result<Store, (Scope, PathBuf)>>,
}

impl Batch<'_> {
    fn import(&mut self, path: &Path) -> Result<Placement> {
        let bytes = crate::input::read(path)?;
        let converted = convert(self.format, path, &bytes);
        if converted.is_empty() {
            return Ok(Placement::Empty { report: unstored(converted) });
        }
        let home = self.home;
        let project = converted
            .cwd
            .clone()
            .and_then(|cwd| self.projects.entry(cwd.clone()).or_insert_with(|| place_in(home, &cwd)).clone());
        let Some(project) = project else {
            return Ok(Placement::NoProject { report: unstored(converted) });
        };
        // Whether memory is on there is the store's write lock to say; a
        // project found off is not asked again.
        let store = self.stores.entry(project.slug.clone()).or_insert_with(|| Ok(Store::new(home, project.clone())));
        let stored = match store {
            Ok(open) => store_converted(open, path, converted),
            Err((scope, file)) => Err(Error::MemoryOff { scope: *scope, file: file.clone() }),
        };
        match stored {
            Ok(report) => Ok(Placement::Stored { report, project }),
            Err(Error::MemoryOff { scope: Scope::Project, file }) => {
                *store = Err((Scope::Project, file.clone()));
                Ok(Placement::MemoryOff { project, why: Error::MemoryOff { scope: Scope::Project, file } })
            }
            Err(error) => Err(error),
        }
    }
}

/// The report of a conversion that stored nothing (yet).
pub(super) fn unstored(converted: Converted) -> FileReport {
    FileReport {
        format: converted.format,
        outcome: None,
        counts: converted.counts,
        cwd: converted.cwd,
        diagnostics: converted.diagnostics,
        reading: None,
    }
}

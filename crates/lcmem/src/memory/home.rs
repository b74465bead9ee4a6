//! [`Home`], the front door for work that spans the projects of one home
//! (`$LEVELCODE_HOME`): an agent's folder of transcripts recorded in many
//! projects, each taken in to the project it was recorded in. What follows
//! in one project goes through that project's [`Memory`].

use std::path::{Path, PathBuf};

use super::Memory;
use crate::agents::Source;
use crate::error::Result;
use crate::import::{Format, Placement};
use crate::project::Project;
use crate::store::Store;

pub struct Home {
    home: PathBuf,
}

impl Home {
    pub fn open(home: &Path) -> Home {
        Home { home: home.to_path_buf() }
    }

    /// The transcripts `source` keeps under `root`, in the order they were
    /// written.
    pub fn transcripts(&self, source: &dyn Source, root: &Path) -> Result<Vec<PathBuf>> {
        crate::import::discover(source, root)
    }

    /// Each of `files`, read as `format` and added to the store of the
    /// project it was recorded in, `each` told of every one in order. One
    /// file's failure goes to `each` and the rest go on; memory switched off
    /// for every project stops the run with `Error::MemoryOff`, and a project
    /// whose memory is off is told as [`Placement::MemoryOff`].
    pub fn import_all(
        &self,
        format: Format,
        files: &[PathBuf],
        each: &mut dyn FnMut(&Path, Result<Placement>),
    ) -> Result<()> {
        crate::import::import_all(&self.home, format, files, each)
    }

    /// The front door of `project`, one of this home's.
    pub fn project(&self, project: Project) -> Memory {
        Memory::open(Store::new(&self.home, project))
    }
}

//! Sharing with the team: [`Memory::share`] and [`Memory::unshare`].

use jiff::Timestamp;

use super::Memory;
use crate::error::{Error, Result};
use crate::team::Shared;
use crate::team::agents_file::{self, AgentsFile, BlockOutcome};

/// What sharing this project's confirmed conventions did.
#[derive(Debug)]
pub struct ShareRun {
    /// What `.lcmem/team.md` got.
    pub shared: Shared,
    pub blocks: Blocks,
}

/// What each agents file named got, and MEMORY.md after it.
#[derive(Debug)]
pub struct Blocks {
    /// Each file's block: written, already up to date, or taken out.
    pub files: Vec<(AgentsFile, BlockOutcome)>,
    /// Why MEMORY.md could not be brought up to date afterwards.
    pub consolidate_error: Option<Error>,
}

impl Memory {
    /// The name a share is signed with when none is given: git's
    /// `user.name` in the project's checkout, if it has one.
    pub fn sharer(&self) -> Option<String> {
        crate::team::user_name(&self.store.project().root)
    }

    /// Shares this project's confirmed conventions with the team as `by`:
    /// `.lcmem/team.md`, then the lcmem block of each agents file of `blocks`;
    /// then MEMORY.md, whose team items changed, is consolidated.
    pub fn share(&self, by: &str, blocks: &[AgentsFile], now: Timestamp) -> Result<ShareRun> {
        self.on()?;
        let shared = crate::team::share(&self.store, by, now)?;
        let files = blocks.iter().map(|&f| Ok((f, agents_file::keep(&self.store, f, now)?))).collect::<Result<_>>()?;
        let consolidate_error = crate::digest::consolidate(&self.store, now).err();
        Ok(ShareRun { shared, blocks: Blocks { files, consolidate_error } })
    }

    /// Takes the lcmem block out of each agents file of `blocks`; then
    /// consolidates MEMORY.md.
    pub fn unshare(&self, blocks: &[AgentsFile], now: Timestamp) -> Result<Blocks> {
        self.on()?;
        let files =
            blocks.iter().map(|&f| Ok((f, agents_file::remove(&self.store, f, now)?))).collect::<Result<_>>()?;
        let consolidate_error = crate::digest::consolidate(&self.store, now).err();
        Ok(Blocks { files, consolidate_error })
    }
}

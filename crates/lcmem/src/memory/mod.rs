//! [`Memory`], the front door to the engine: what a front-end (the `lcmem`
//! command, the MCP server, the local page) asks of a project's memory, each
//! as one call that runs the whole of it. A front-end parses, makes one of
//! these calls and prints what comes back; it assembles no pipeline steps.
//!
//! A `Memory` is opened once per command with the project's store, or kept
//! by a server for its lifetime; it keeps recall's searchers (this project's
//! and those of the other projects a recall asked) warm between calls.
//!
//! - `surveying`: what files hold before they are taken in ([`Memory::survey`]);
//! - `taking_in`: transcripts into the store ([`Memory::import`]);
//! - `sealing`: sessions closed, named or quiet ([`Memory::seal`],
//!   [`Memory::catch_up`]);
//! - `reading`: the journal and the facts as they stand, and where the
//!   embeddings are, for a front-end to list;
//! - `recalling`: the memory searched ([`Memory::recall`]);
//! - `digesting`: MEMORY.md given, consolidated and undone, the memory
//!   exported, a session forgotten;
//! - `sharing`: the team file and the agents files' blocks;
//! - `checking`: what `lcmem doctor` asks;
//! - `remembering`: facts written on a person's word, by the person or by an
//!   agent asked to;
//! - `home`: [`Home`], the door for work across the projects of one home
//!   (an agent's folder of transcripts imported, each to its project).

mod checking;
mod digesting;
mod home;
mod reading;
mod recalling;
mod remembering;
mod sealing;
mod sharing;
mod surveying;
mod taking_in;

use crate::config::Settings;
use crate::error::Result;
use crate::recall::{Across, Searcher};
use crate::store::Store;

pub use digesting::{DigestAnswer, SessionStart};
pub use home::Home;
pub use recalling::{Padding, Recalled};
pub use remembering::Whose;
pub use sealing::{CatchUpRun, SealRun, ToSeal};
pub use sharing::{Blocks, ShareRun};
pub use surveying::{Candidate, Survey};
pub use taking_in::{Imported, Then, ToImport};

/// A project's memory, as the front-ends reach it.
pub struct Memory {
    store: Store,
    searchers: Across,
}

impl Memory {
    /// The memory of `store`'s project, for one command: this project's
    /// searcher may bring its index up to date; another project's only reads
    /// (recall never writes into another project's store).
    pub fn open(store: Store) -> Memory {
        let searchers = Across::new(Searcher::new(store.clone()), |s| Searcher::new(s).read_only());
        Memory { store, searchers }
    }

    /// The memory of `store`'s project, kept open by a server: every searcher
    /// only reads (the writes a server makes refresh the caches themselves)
    /// and stays warm between calls.
    pub fn serve(store: Store) -> Memory {
        let warm = |store| Searcher::new(store).read_only().long_lived();
        let searchers = Across::new(warm(store.clone()), warm);
        Memory { store, searchers }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The project's settings when memory is on for it; [`crate::Error::MemoryOff`]
    /// (naming the file that switched it off) when not. The one place the
    /// front door asks, once for each piece of work it is given, so that a
    /// server kept open sees `lcmem off` at its next call; every write asks
    /// again as it takes the write lock.
    pub fn on(&self) -> Result<Settings> {
        self.store.ensure_enabled()
    }
}

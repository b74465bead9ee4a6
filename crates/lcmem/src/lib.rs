//! lcmem: a local-first project memory for AI coding assistants.
//!
//! This crate is the engine's front door ([`Memory`]) and its entry points,
//! each a whole piece of work (a transcript to memory, [`ingest`]; a quiet
//! session caught up; a session forgotten; the memory exported). It stands on
//! three crates it names as its own modules: the store (`lcmem-store`: every
//! file under `$LEVELCODE_HOME/sessions/<project-slug>/`, each through the
//! module that owns it and the write boundary, [`scrub`]), the pipeline
//! (`lcmem-pipeline`: agents, import, extract, seal, digest, team) and recall
//! (`lcmem-recall`). No async runtime and no
//! terminal; the time memory is dated with is passed in. What it reads from
//! the machine beyond the store is each in one named module: the clock and
//! the environment (`ambient`), the network (`extract::lane`'s `http`, only
//! when a model lane is set), processes (its `command`), and the operating
//! system beyond std (`recall`'s `os`). Its modules stand on floors (the
//! store's crate; the pipeline's crate and recall's crate beside each other
//! on it; the entry points on top), held by Cargo and by `tests/it/floors.rs`. Front-ends (the `lcmem` command, the MCP server,
//! hooks) are thin layers over it. See `docs/architecture.md`.

// Unsafe code only where the operating system is asked for something std
// does not offer, which is recall's (`lcmem-recall`), and nowhere here.
#![forbid(unsafe_code)]

pub mod catch_up;
pub mod export;
pub mod forget;
pub mod ingest;
mod memory;

// The store's floor is a crate of its own (`lcmem-store`), beneath this one:
// its modules are named here as they were when they lived in this crate, so
// that `crate::store`, `lcmem::jsonl` and the rest read the same.
use lcmem_store::ambient;
pub use lcmem_store::{
    config, dates, diagnostic, error, facts, guards, input, journal, jsonl, lock, own_output, plain, project, random,
    repair, scrub, session, store, sweep, tombstone,
};

/// The pipeline is a crate of its own (`lcmem-pipeline`), on the store's
/// floor: what turns a transcript into memory, which never searches.
pub use lcmem_pipeline::{agents, digest, emit, extract, import, seal, team};

/// Recall is a crate of its own (`lcmem-recall`), on the store's floor beside
/// the pipeline: the search index and the embedding model are its
/// dependencies, not the pipeline's.
pub use lcmem_recall as recall;

pub use error::{Error, Result};
pub use memory::{
    Blocks, Candidate, CatchUpRun, DigestAnswer, Home, Imported, Memory, Padding, Recalled, SealRun, SessionStart,
    ShareRun, Survey, Then, ToImport, ToSeal, Whose,
};
pub use store::Store;

// The nouns a front-end names beside the front door: what its calls take and
// return, each at home in the module that owns it and named here once.
pub use catch_up::{CaughtUp, Look};
pub use config::Scope;
pub use dates::day;
pub use diagnostic::Diagnostic;
pub use error::QueryProblem;
pub use extract::lane::cost::DaySpend;
pub use extract::lane::{LANE_ENV, LaneStatus};
pub use import::{FileReport, Format, Named, Placement, Surveyed, Taken};
pub use jsonl::{atomic_write, atomic_write_as, sync_dir};
pub use own_output::RECALL_FRAME;
pub use plain::{clip, control_free};
pub use project::{Project, checkout_top, is_slug, move_store};
pub use random::random_hex;
pub use seal::SealOutcome;
pub use session::{Line, Role};
pub use store::ImportOutcome;
pub use team::agents_file::{AgentsFile, BlockOutcome};
pub use team::{Shared, TEAM_FILE};

//! The pipeline of lcmem's engine: what turns an agent's transcript into
//! memory. The agents' readers (`agents`) and session format v1 as they write
//! it (`emit`); the import of files into the store (`import`); what a session
//! yields (`extract`) and its seal into facts and a journal entry (`seal`);
//! MEMORY.md assembled from them (`digest`); the team's shared file and the
//! agents files' blocks (`team`).
//!
//! It stands on the store's crate alone (`lcmem-store`, whose modules it
//! names as its own, as the engine's other crates do) and never searches:
//! recall (`lcmem-recall`) and the entry points that run whole pieces of work
//! (`lcmem`) stand beside and above it, so neither tantivy nor candle is
//! built for it. See `docs/architecture.md`.

#![forbid(unsafe_code)]

// The modules that read anyone's input are declared through the store's
// `reading_input!`, which lints them against unchecked indexing, slicing,
// unwrap and panic (docs/architecture.md, "Input never panics").
lcmem_store::reading_input! {
    pub mod agents;
    pub mod emit;
    pub mod extract;
    pub mod import;
}

pub mod digest;
pub mod seal;
pub mod team;

// The store's floor, named as this crate's own modules so that the
// pipeline's paths read the same in every engine crate.
use error::Result;
use lcmem_store::{
    ambient, config, confine, dates, diagnostic, error, facts, guards, input, journal, jsonl, lock, own_output,
    pattern, plain, project, scrub, session, store, tombstone, word_lists,
};
use store::Store;

//! lcmem: a local-first project memory for AI coding assistants.
//!
//! This crate is the engine. It owns the pipeline from a transcript to memory
//! ([`ingest`]) and every file of the store (plain JSONL and Markdown files
//! under `$LEVELCODE_HOME/sessions/<project-slug>/`), each through the module
//! that owns it and the write boundary ([`scrub`]). No async runtime and no
//! terminal; the time memory is dated with is passed in. What it reads from
//! the machine beyond the store is each in one named module: the clock and
//! the environment (`ambient`), the network (`extract::lane`'s `http`, only
//! when a model lane is set), processes (its `command`), and the operating
//! system beyond std (`recall`'s `os`). Its modules stand on floors (the
//! store; the pipeline and recall beside it; the entry points on top), held by
//! `tests/it/floors.rs`. Front-ends (the `lcmem` command, the MCP server,
//! hooks) are thin layers over it. See `docs/architecture.md`.

// Unsafe code only where the operating system is asked for something std
// does not offer (recall's `os` module), and nowhere else.
#![deny(unsafe_code)]

/// The modules that read anyone's input (transcripts, hook payloads, session
/// and memory files): no index, slice, unwrap or panic on what they read.
/// An unchecked form needs an `#[expect(…, reason = …)]` naming why it
/// cannot fail (docs/architecture.md, "Input never panics").
macro_rules! reading_input {
    ($($(#[$meta:meta])* $vis:vis mod $name:ident;)*) => {
        $(
            $(#[$meta])*
            #[cfg_attr(
                not(test),
                warn(
                    clippy::indexing_slicing,
                    clippy::string_slice,
                    clippy::unwrap_used,
                    clippy::expect_used,
                    clippy::panic,
                    clippy::unreachable
                )
            )]
            $vis mod $name;
        )*
    };
}

reading_input! {
    pub mod extract;
    pub mod import;
    pub mod jsonl;
    mod reimport;
    pub mod session;
}

mod ambient;
pub mod catch_up;
pub mod config;
mod confine;
pub mod dates;
pub mod diagnostic;
pub mod digest;
pub mod error;
pub mod export;
pub mod facts;
mod followed;
pub mod forget;
pub mod guards;
pub mod ingest;
pub mod input;
pub mod journal;
pub mod lock;
mod memory;
mod pattern;
pub mod plain;
pub mod project;
pub mod random;
pub mod recall;
pub mod recalled;
pub mod repair;
pub mod scrub;
pub mod seal;
pub mod store;
pub mod sweep;
pub mod team;
pub mod tombstone;
mod words;

pub use error::{Error, Result};
pub use memory::{
    Blocks, CatchUpRun, DigestAnswer, Imported, Memory, Padding, Recalled, SealRun, SessionStart, ShareRun, Then,
    ToImport, ToSeal, Whose,
};
pub use store::Store;

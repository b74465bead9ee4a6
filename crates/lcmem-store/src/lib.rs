//! The bottom floor of lcmem's engine: the store.
//!
//! Everything a memory is kept in, and nothing that makes one: the store's
//! folders and plain files (`Store`), the session format (`session`), JSONL
//! lines read and written atomically (`jsonl`), the write lock (`lock`), the
//! settings (`config`), the project a folder belongs to (`project`), the
//! journal, the facts' log and its fold, the tombstones of forgotten
//! sessions, and the one write boundary every memory file goes through
//! (`scrub`, with the redactor and the guard behind it).
//!
//! This crate depends on no other crate of the engine: the pipeline, recall
//! and the front door (`lcmem`) stand on it, and Cargo keeps it so. Its
//! reads of the machine beyond the store (the clock, the environment) are in
//! `ambient`. It has no async runtime, no terminal, no network and no search
//! index. See `docs/architecture.md`.

#![forbid(unsafe_code)]

/// The modules that read anyone's input (transcripts, hook payloads, session
/// and memory files): no index, slice, unwrap or panic on what they read.
/// An unchecked form needs an `#[expect(…, reason = …)]` naming why it
/// cannot fail (docs/architecture.md, "Input never panics"). The engine's
/// crate declares its own reading modules with it too.
#[doc(hidden)]
#[macro_export]
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
    pub mod jsonl;
    mod reimport;
    pub mod session;
    mod session_import;
}

pub mod ambient;
pub mod config;
pub mod confine;
pub mod dates;
pub mod diagnostic;
pub mod error;
pub mod facts;
mod followed;
pub mod guards;
pub mod input;
pub mod journal;
pub mod lock;
pub mod own_output;
pub mod pattern;
pub mod plain;
pub mod project;
pub mod random;
pub mod repair;
pub mod scrub;
pub mod store;
pub mod sweep;
pub mod tombstone;
pub mod word_lists;

pub use error::{Error, Result};
pub use store::Store;

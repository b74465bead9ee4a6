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

mod ambient;
pub mod catch_up;
pub mod config;
mod confine;
pub mod dates;
pub mod diagnostic;
pub mod digest;
pub mod error;
pub mod export;
pub mod extract;
pub mod facts;
mod followed;
pub mod forget;
pub mod guards;
pub mod import;
pub mod ingest;
pub mod input;
pub mod journal;
pub mod jsonl;
pub mod lock;
mod pattern;
pub mod plain;
pub mod project;
pub mod recall;
pub mod recalled;
mod reimport;
pub mod repair;
pub mod scrub;
pub mod seal;
pub mod session;
pub mod store;
pub mod sweep;
pub mod team;
pub mod tombstone;
mod words;

pub use error::{Error, Result};
pub use store::Store;

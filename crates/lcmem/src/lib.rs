//! lcmem: a local-first project memory for AI coding assistants.
//!
//! This crate is the engine. It reads and writes the store (plain JSONL and
//! Markdown files under `$LEVELCODE_HOME/sessions/<project-slug>/`) and does
//! no other I/O: no network, no async runtime, no terminal. Front-ends (the
//! `lcmem` command, the MCP server, hooks) are thin layers over it.

pub mod config;
pub mod dates;
pub mod diagnostic;
pub mod digest;
pub mod error;
pub mod extract;
pub mod facts;
pub mod forget;
pub mod guards;
pub mod import;
pub mod ingest;
pub mod journal;
pub mod jsonl;
pub mod lock;
pub mod project;
pub mod recall;
pub mod scrub;
pub mod seal;
pub mod session;
pub mod store;

pub use error::{Error, Result};
pub use store::Store;

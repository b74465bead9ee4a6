//! The agents lcmem reads and wires: each is one file implementing
//! [`Source`] (`claude_code.rs`, `codex.rs`, `cursor.rs`, `gemini_cli.rs`),
//! listed once in [`SOURCES`] (`sources.rs`), with what `lcmem install` writes
//! into its settings (`wiring.rs`). Adding an agent is one file and one line
//! of the list; nothing else of the engine or the CLI names an agent (a test
//! holds it). The import pipeline ([`crate::import`]) reads transcripts through
//! these; an agent's reader writes format v1 with [`crate::emit`].

mod claude_code;
mod codex;
mod cursor;
mod gemini_cli;
pub(crate) mod source;
pub(crate) mod sources;
mod wiring;

pub use source::{HookStep, Source, Transcripts};
pub use sources::{SOURCES, agent_folders, importable, source};
pub use wiring::{HookEvent, Hooks, Place, Server, Wiring};

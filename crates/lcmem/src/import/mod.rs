//! Importers: Claude Code and Codex CLI transcripts converted into session
//! format v1 and added to the store (see `docs/importers.md`).
//!
//! Conversion is a pure function of the transcript's bytes: it never looks
//! at the clock, the file system or the store, so the same transcript always
//! converts to the same bytes, and a transcript that grew converts to the
//! same bytes followed by new lines. That is what lets [`crate::store::Store::import_bytes`]
//! treat a re-import as unchanged and a grown transcript as an append.
//! Malformed input is reported as `file:line` diagnostics and skipped; no
//! input makes conversion fail or panic.
//!
//! An import is a line, each step in its own file and none calling back into
//! the one before: [`discover`] finds transcripts; [`file`] reads one
//! (`input::read`) and [`detect`] tells its format; [`convert`] feeds its
//! lines to the source's reader ([`claude_code`], [`codex`], with the fields
//! both share in [`fields`]), whose [`emit`]ter writes format v1
//! ([`converted`]); [`file`] adds the result to the store. [`growing`] does
//! the same for a transcript that grows, from where the last import
//! stopped, and [`batch`] for many transcripts at once.

mod batch;
mod claude_code;
mod codex;
mod commit;
mod convert;
mod converted;
mod cursor;
mod detect;
mod discover;
mod emit;
mod fields;
mod file;
mod gemini_cli;
mod growing;
mod presized;
mod results;
mod shell_files;
mod source;
mod sources;
mod wiring;

pub use batch::{Placement, import_all, place};
pub use convert::convert;
pub use converted::{Converted, Counts, Format};
pub use detect::detect;
pub use discover::{discover, jsonl_files};
pub use emit::sanitize_id;
pub use file::{Reading, Report, Restart, import_file, import_found, store_converted};
pub use growing::{Known, import_growing, known, read_to_end};
pub use source::{HookStep, Source, Transcripts};
pub use sources::{SOURCES, importable, source};
pub use wiring::{HookEvent, Hooks, Place, Server, Wiring};

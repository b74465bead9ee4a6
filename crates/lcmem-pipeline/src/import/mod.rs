//! The import: the agents' transcripts converted into session format v1 and
//! added to the store (see `docs/importers.md`). The agents themselves, each
//! one file implementing `Source` and listed once in `SOURCES`, are
//! [`crate::agents`]; the writer of format v1 they share is [`crate::emit`].
//!
//! Conversion is a pure function of the transcript's bytes: it never looks
//! at the clock, the file system or the store, so the same transcript always
//! converts to the same bytes, and a transcript that grew converts to the
//! same bytes followed by new lines. That is what lets [`crate::store::Store::import_bytes`]
//! treat a re-import as unchanged and a grown transcript as an append. (A
//! saved conversation that records no time at all is dated by its file:
//! see [`convert`].) Malformed input is reported as `file:line` diagnostics
//! and skipped; no input makes conversion fail or panic, and the lints below
//! forbid the unchecked forms that would.
//!
//! An import is a line, each step in its own file and none calling back into
//! the one before: [`discover`] finds transcripts (and, for a project, the
//! ones its agents keep of it); [`survey`] reads a file's start to say what
//! it holds; [`file`] reads one (`input::read`) and [`detect`] tells its
//! format; [`convert`] feeds its lines (or a document's records) to the
//! agent's reader, whose emitter ([`crate::emit`]) writes format v1; [`file`] adds the
//! result to the store. [`growing`] does the same for a transcript that
//! grows, from where the last import stopped, and [`batch`] for many
//! transcripts at once; [`runs`] keeps what each `lcmem import` added.


mod batch;
mod convert;
mod detect;
mod discover;
mod file;
mod growing;
mod runs;
mod survey;

pub use crate::emit::converted::{Converted, Counts, Format};
pub use batch::{Placement, import_all, place};
pub use convert::convert;
pub use detect::detect;
pub use discover::{Found, discover, project_transcripts, session_files};
pub use file::{Named, Reading, FileReport, Restart, Taken, import_file, import_named, store_converted};
pub use growing::{Known, import_growing, known, read_to_end};
pub use runs::{ImportRun, drop_last_run, last_run, record_run};
pub use runs::{put_back, without_session};
pub use survey::{Surveyed, survey};

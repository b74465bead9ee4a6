//! The engine's integration tests, as one test binary (one link of tantivy):
//! one module per area. Fixtures are read from `tests/fixtures/` through
//! `CARGO_MANIFEST_DIR`.

mod agents_named;
mod digest;
mod durable_writes;
mod floors;
mod front_door;
mod import_convert;
mod import_gemini;
mod import_growing;
mod import_shell_shapes;
mod import_store;
mod provenance;
mod real_sessions;
mod recall;
mod recall_answers;
mod recall_intents;
mod recall_pruned;
mod recall_spread;
mod red_team;
mod session_format;
mod tombstones;
mod used_marks;

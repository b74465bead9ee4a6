//! The `lcmem` command's integration tests, as one test binary: each module
//! runs the real binary (`CARGO_BIN_EXE_lcmem`) as a user or an agent would.
//! `common` holds the shared sandbox; `tests/mcp_client.py` and `.cjs` are found through
//! `CARGO_MANIFEST_DIR`. `golden` snapshots whole outputs (`snapshots/`).

mod agents;
mod bounded_input;
mod cli;
mod common;
mod crash_and_concurrency;
mod doctor;
mod ending;
mod export;
mod facts_quality;
mod golden;
mod golden_hooks;
mod golden_screens;
mod hooks;
mod import_transcripts;
mod install;
mod install_exact;
mod journal_quality;
mod mcp;
mod memory_control;
mod model_lane;
mod person;
mod projects;
mod readme_runs;
mod real_agents;
mod recall;
mod recall_across;
mod resumed;
mod semantic;
mod semantic_background;
mod semantic_fetch;
mod taken_in;
mod team;
mod trust_boundary;
mod trust_durable;
mod trust_forget;
mod trust_forget_final;
mod trust_policies;
mod ui;

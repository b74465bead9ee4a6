//! One module per command.

mod catch_up;
mod config;
mod digest;
mod doctor;
mod export;
mod facts;
mod forget;
mod guard;
mod hook;
mod import;
mod install;
mod journal;
mod mcp;
mod model;
mod project;
mod recall;
mod seal;
mod sessions;
mod share;
mod shared;
mod tour;
mod ui;
mod watch;

use std::process::ExitCode;

use clap::Subcommand;

use crate::context::Context;

#[derive(Subcommand)]
pub enum Command {
    /// Add sessions to the store: v1 files, and every agent's transcripts (see --format)
    Import(import::Args),
    /// Seal sessions: write what each achieved to the journal and its candidate facts
    Seal(seal::Args),
    /// List the project's sessions: title, date, status, sealed or not
    Sessions(sessions::Args),
    /// Show the journal: one entry per sealed session
    Journal(journal::Args),
    /// Rewrite MEMORY.md from the journal and facts (or --undo the last rewrite)
    Consolidate(digest::ConsolidateArgs),
    /// Print what a new session is told: the framed MEMORY.md
    Digest(digest::DigestArgs),
    /// Print the one-line welcome-back strip
    Welcome,
    /// Pin a session: it stays in front of the digest regardless of age
    Pin(sessions::PinArgs),
    /// Unpin a session
    Unpin(sessions::PinArgs),
    /// Read and change settings (memory.enabled and friends)
    #[command(subcommand)]
    Config(config::Command),
    /// List facts with their state, sources and history; confirm, edit, pin or correct them
    Facts(facts::Args),
    /// Remove a session's whole contribution to memory, physically
    Forget(forget::Args),
    /// Judge texts (one per line on stdin): does each read as an order to the agent?
    Guard(guard::GuardArgs),
    /// Copy stdin to stdout with secrets replaced by typed markers
    Redact(guard::RedactArgs),
    /// Search past sessions, the journal and every fact; cited hits
    Recall(recall::Args),
    /// Manage the derived search index (a cache: deleting it loses nothing)
    #[command(subcommand)]
    Index(recall::IndexCommand),
    /// The embedding model of semantic recall: fetch the pinned one (`lcmem model install`) or install a folder
    #[command(subcommand)]
    Model(model::Command),
    /// Serve the project's memory to agents over MCP (stdio): recall_sessions, memory_digest, remember, correct
    Mcp(mcp::Args),
    /// What an agent's hooks run: the digest at session start, import and seal at its end
    Hook(hook::Args),
    /// Which memory this folder belongs to; keep a moved project's memory
    #[command(subcommand)]
    Project(project::Command),
    /// Share confirmed facts with the team in .lcmem/team.md; keep a block of conventions in AGENTS.md / CLAUDE.md
    Share(share::Args),
    /// Wire lcmem's hooks and MCP server into an agent's settings (prints each change, then writes; --dry-run previews)
    Install(install::Args),
    /// Take lcmem's hooks and MCP server out of an agent's settings (the memory stays)
    Uninstall(install::UninstallArgs),
    /// Follow the agents' transcript folders; import and seal sessions that went quiet
    Watch(watch::Args),
    /// Seal this project's sessions that ended without a SessionEnd, once their transcripts went quiet
    CatchUp(catch_up::Args),
    /// Check lcmem's wiring into each agent (hooks, MCP server, Codex trust) and the store; non-zero when broken
    Doctor(doctor::Args),
    /// Run lcmem on the bundled example project in a temporary store
    Tour(tour::Args),
    /// A local web page to see and correct the project's memory (127.0.0.1 only)
    Ui(ui::Args),
    /// Write a session, or the whole memory set, as Markdown (or JSON), secrets redacted
    #[command(subcommand)]
    Export(export::Command),
}

pub fn run(command: Command, context: &Context) -> anyhow::Result<ExitCode> {
    match command {
        Command::Import(args) => import::run(args, context),
        Command::Seal(args) => seal::run(args, context),
        Command::Sessions(args) => sessions::run(args, context),
        Command::Journal(args) => journal::run(args, context),
        Command::Consolidate(args) => digest::consolidate(args, context),
        Command::Digest(args) => digest::digest(args, context),
        Command::Welcome => digest::welcome(context),
        Command::Pin(args) => sessions::pin(args, context, true),
        Command::Unpin(args) => sessions::pin(args, context, false),
        Command::Config(command) => config::run(command, context),
        Command::Facts(args) => facts::run(args, context),
        Command::Forget(args) => forget::run(args, context),
        Command::Guard(args) => guard::guard(args),
        Command::Redact(args) => guard::redact(args),
        Command::Recall(args) => recall::run(args, context),
        Command::Index(command) => recall::index(command, context),
        Command::Model(command) => model::run(command, context),
        Command::Mcp(args) => mcp::run(args, context),
        Command::Hook(args) => hook::run(args, context),
        Command::Project(command) => project::run(command, context),
        Command::Share(args) => share::run(args, context),
        Command::Install(args) => install::run(args, context),
        Command::Uninstall(args) => install::uninstall(args, context),
        Command::Watch(args) => watch::run(args, context),
        Command::CatchUp(args) => catch_up::run(args, context),
        Command::Doctor(args) => doctor::run(args, context),
        Command::Tour(args) => tour::run(args),
        Command::Ui(args) => ui::run(args, context),
        Command::Export(command) => export::run(command, context),
    }
}

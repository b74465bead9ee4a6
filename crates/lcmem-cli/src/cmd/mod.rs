//! One module per command.

mod config;
mod import;
mod journal;
mod recall;
mod seal;
mod sessions;
mod tour;

use std::process::ExitCode;

use clap::Subcommand;

use crate::context::Context;

#[derive(Subcommand)]
pub enum Command {
    /// Add session files (format v1) to the project's store
    Import(import::Args),
    /// Seal sessions: write what each achieved to the journal and its candidate facts
    Seal(seal::Args),
    /// List the project's sessions: title, date, status, sealed or not
    Sessions(sessions::Args),
    /// Show the journal: one entry per sealed session
    Journal(journal::Args),
    /// Pin a session: it stays in front of the digest regardless of age
    Pin(sessions::PinArgs),
    /// Unpin a session
    Unpin(sessions::PinArgs),
    /// Read and change settings (memory.enabled and friends)
    #[command(subcommand)]
    Config(config::Command),
    /// Search past sessions, the journal and every fact; cited hits
    Recall(recall::Args),
    /// Manage the derived search index (a cache: deleting it loses nothing)
    #[command(subcommand)]
    Index(recall::IndexCommand),
    /// Run lcmem on the bundled example project in a temporary store
    Tour(tour::Args),
}

pub fn run(command: Command, context: &Context) -> anyhow::Result<ExitCode> {
    match command {
        Command::Import(args) => import::run(args, context),
        Command::Seal(args) => seal::run(args, context),
        Command::Sessions(args) => sessions::run(args, context),
        Command::Journal(args) => journal::run(args, context),
        Command::Pin(args) => sessions::pin(args, context, true),
        Command::Unpin(args) => sessions::pin(args, context, false),
        Command::Config(command) => config::run(command, context),
        Command::Recall(args) => recall::run(args, context),
        Command::Index(command) => recall::index(command, context),
        Command::Tour(args) => tour::run(args),
    }
}

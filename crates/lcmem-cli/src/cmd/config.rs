//! `lcmem config`: read and change settings. What a value is and where it
//! comes from is decided by the engine (`ConfigFiles::effective`); this only
//! prints it.

use std::process::ExitCode;

use lcmem::config::{Effective, Scope, Source};

use crate::context::Context;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Every setting with its effective value and where it comes from
    List,
    /// Print one setting's effective value
    Get {
        /// A dotted key, e.g. memory.enabled
        key: String,
    },
    /// Set a setting for this project (or for every project with --global)
    Set {
        /// A dotted key, e.g. memory.enabled
        key: String,
        /// The new value
        value: String,
        /// Write the global config.toml instead of the project's
        #[arg(long)]
        global: bool,
    },
}

pub fn run(command: Command, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let files = store.config_files();
    match command {
        Command::List => {
            println!("# global:  {}", files.global.display());
            println!("# project: {}", files.project.display());
            println!("# {}", lane_line(&lcmem::Memory::open(store.clone()).lane_status()?));
            for setting in files.effective_all()? {
                println!("{} = {}    # {}; {}", setting.key.name, setting.value, from(&setting), setting.key.help);
            }
        }
        Command::Get { key } => println!("{}", files.effective(&key)?.value),
        Command::Set { key, value, global } => {
            let scope = if global { Scope::Global } else { Scope::Project };
            files.set(scope, &key, &value)?;
            println!("{key} = {value} in {}", files.path(scope).display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Where a value comes from, in a word or two.
fn from(setting: &Effective) -> &'static str {
    match setting.source {
        Source::Default => "default",
        Source::Global => "global",
        Source::Project => "project",
        Source::GlobalSwitch => "global master switch, over any project's setting",
    }
}

/// The lane in one comment line: where requests go and whether the key's
/// variable is set. The key itself is never read out.
fn lane_line(status: &lcmem::LaneStatus) -> String {
    if status.lane == "offline" {
        return "extract lane: offline (rules on this machine; no network, no key)".into();
    }
    let model = if status.model.is_empty() { "no model set (extract.model)".to_string() } else { status.model.clone() };
    let target = match (status.lane.as_str(), status.local) {
        ("command", _) => "through extract.command".to_string(),
        (_, true) => format!("at {} (this machine)", status.endpoint),
        _ => format!("at {} (leaves this machine)", status.endpoint),
    };
    let key = match &status.key_env {
        None => "no key needed".to_string(),
        Some(var) if status.key_present => format!("key in ${var}: present"),
        Some(var) => format!("key in ${var}: NOT SET, seals fall back to offline"),
    };
    format!("extract lane: {} · {model} · {target} · {key}", status.lane)
}

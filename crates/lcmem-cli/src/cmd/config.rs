//! `lcmem config`: read and change settings.

use std::process::ExitCode;

use lcmem::config::{Default, KEYS, Scope};

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
            for key in KEYS {
                let (value, from) = effective(&files, key.name, key.default)?;
                println!("{} = {value}    # {from}; {}", key.name, key.help);
            }
        }
        Command::Get { key } => {
            let known = lcmem::config::key_named(&key)
                .ok_or_else(|| anyhow::anyhow!("unknown setting {key:?}; `lcmem config list` shows the settings"))?;
            println!("{}", effective(&files, known.name, known.default)?.0);
        }
        Command::Set { key, value, global } => {
            let scope = if global { Scope::Global } else { Scope::Project };
            files.set(scope, &key, &value)?;
            println!("{key} = {value} in {}", files.path(scope).display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn effective(
    files: &lcmem::config::ConfigFiles,
    key: &str,
    default: Default,
) -> anyhow::Result<(String, &'static str)> {
    if let Some(v) = files.get_in(Scope::Project, key)? {
        return Ok((v.to_string(), "project"));
    }
    if let Some(v) = files.get_in(Scope::Global, key)? {
        return Ok((v.to_string(), "global"));
    }
    Ok((
        match default {
            Default::Bool(b) => b.to_string(),
            Default::Int(i) => i.to_string(),
        },
        "default",
    ))
}
